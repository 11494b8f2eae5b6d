/**
 * Request bodies are hostile (STYLE.md "Errors"): sizes are checked before anything is buffered, by
 * the engine's `readLimited` (the declared `Content-Length` first, then a running count while the
 * stream is read) — and JSON is parsed by the proof package's strict parser
 * (duplicate keys, lone surrogates and deep nesting rejected) into typed errors.
 */
import { readLimited } from '@saksi/engine';
import type { ZodType } from 'zod';
import { ApiError, type ServerErrorCode } from './errors.js';
import { describeIssues, parseJsonBytes, RequestProblem } from './request-text.js';

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
  try {
    return parseJsonBytes(bytes, limit);
  } catch (error) {
    throw apiErrorOf(error);
  }
}

/** A {@link RequestProblem} as the server's `ApiError` (anything else unchanged). */
export function apiErrorOf(error: unknown): unknown {
  if (!(error instanceof RequestProblem)) return error;
  return new ApiError(error.code, error.status, error.message, { cause: error.cause });
}

/** Validates `value` with a zod schema; the first problem becomes a 400 `INVALID_INPUT` naming the field. */
export function validate<T>(schema: ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ApiError('INVALID_INPUT', 400, describeIssues(parsed.error, what), { cause: parsed.error });
}
