/**
 * Request bodies are hostile (STYLE.md "Errors"): sizes are checked before anything is buffered —
 * first the declared `Content-Length`, then a running count while the stream is read, which stops
 * reading as soon as the limit is passed — and JSON is parsed by the proof package's strict parser
 * (duplicate keys, lone surrogates and deep nesting rejected) into typed errors.
 */
import { parseJson } from '@saksi/proof';
import type { ZodType } from 'zod';
import { ApiError, type ServerErrorCode } from './errors.js';

/** Deepest JSON nesting a request body may have; real bodies (bundles included) stay under 10. */
const MAX_JSON_DEPTH = 64;
/**
 * Bytes read, or copied, between two turns of the event loop. A body that has already arrived is
 * read in microtasks only, so without these turns a 50 MB upload held the loop for about 200 ms
 * (docs/security.md).
 */
const STEP_BYTES = 4 * 1024 * 1024;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

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
  const declared = request.headers.get('content-length');
  const declaredSize = declared !== null && /^\d+$/.test(declared.trim()) ? Number(declared) : undefined;
  if (declaredSize !== undefined && declaredSize > limit) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  // With a declared length the body is copied into place as it arrives, so no step copies it whole.
  let bytes = new Uint8Array(declaredSize ?? 0);
  const parts: Uint8Array[] = [];
  let size = 0;
  let sinceTurn = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    if (size + value.byteLength <= bytes.length) bytes.set(value, size);
    else parts.push(value);
    size += value.byteLength;
    sinceTurn += value.byteLength;
    if (sinceTurn >= STEP_BYTES) {
      sinceTurn = 0;
      await yieldToEventLoop();
    }
  }
  if (parts.length === 0) return size === bytes.length ? bytes : bytes.slice(0, size);
  // No length declared (or a wrong one): the parts are joined, a step at a time.
  const joined = new Uint8Array(size);
  let offset = 0;
  if (bytes.length > 0 && size > 0) {
    const placed = size - parts.reduce((sum, part) => sum + part.byteLength, 0);
    joined.set(bytes.subarray(0, placed));
    offset = placed;
  }
  bytes = joined;
  sinceTurn = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
    sinceTurn += part.byteLength;
    if (sinceTurn >= STEP_BYTES) {
      sinceTurn = 0;
      await yieldToEventLoop();
    }
  }
  return bytes;
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
