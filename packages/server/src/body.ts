/**
 * Request bodies are hostile (STYLE.md "Errors"): sizes are checked before anything is buffered, by
 * the engine's `readLimited` (the declared `Content-Length` first, then a running count while the
 * stream is read) — and JSON is parsed by the proof package's strict parser
 * (duplicate keys, lone surrogates and deep nesting rejected) into typed errors.
 */
import { readLimited } from '@saksi/engine';
import { parseJson } from '@saksi/proof';
import type { ZodType } from 'zod';
import { ApiError, type ServerErrorCode } from './errors.js';

/** Deepest JSON nesting a request body may have; real bodies (bundles included) stay under 10. */
const MAX_JSON_DEPTH = 64;
/** Reads the whole body, failing with 413 `tooLargeCode` once it is longer than `limit` bytes. */
export async function readBodyLimited(
  request: Request,
  limit: number,
  tooLargeCode: Extract<ServerErrorCode, 'FILE_TOO_LARGE' | 'BODY_TOO_LARGE'> = 'BODY_TOO_LARGE',
): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () =>
    new ApiError(
      tooLargeCode,
      413,
      `The request body is larger than the limit of ${limit} bytes; send less.`,
    );
  return readLimited(request.body, limit, tooLarge, {
    declaredLength: request.headers.get('content-length'),
  });
}

/** Reads and parses a JSON body (any content type is accepted, as `curl -d` sends form encoding). */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const bytes = await readBodyLimited(request, limit);
  if (bytes.byteLength === 0)
    throw new ApiError('INVALID_JSON', 400, 'The request body is empty; send a JSON object.');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (cause) {
    throw new ApiError('INVALID_JSON', 400, 'The request body is not valid UTF-8; send UTF-8 JSON.', {
      cause,
    });
  }
  try {
    return parseJson(text, { maxDepth: MAX_JSON_DEPTH, maxLength: limit });
  } catch (cause) {
    const detail = cause instanceof Error ? ` (${cause.message})` : '';
    throw new ApiError('INVALID_JSON', 400, `The request body is not valid JSON${detail}.`, { cause });
  }
}

/** Validates `value` with a zod schema; the first problem becomes a 400 `INVALID_INPUT` naming the field. */
export function validate<T>(schema: ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.slice(0, 3).map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : what;
    return `${field}: ${issue.message}`;
  });
  throw new ApiError('INVALID_INPUT', 400, `Invalid ${what}: ${issues.join('; ')}.`, { cause: parsed.error });
}
