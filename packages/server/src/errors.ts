/**
 * HTTP errors (docs/api.md, "Errors"): every failure leaves the server as JSON `{error: {code, message}}`
 * with the right status. {@link ApiError} is the server's own branch of the error tree
 * (docs/architecture.md, "Errors"): like the engine's errors it extends `SaksiError`, and
 * {@link toErrorResponse} maps any of them to a response by type, in this one place. The codes it can
 * send are the wire union `ApiErrorCode` of `@saksi/client`; `wire-codes.test.ts` fails when one is missing.
 */
import { EngineError, IngestError, LlmError, RateLimitedError, SaksiError } from '@saksi/engine';

/** The codes of the server's own errors (the engine's have theirs). */
export type ServerErrorCode =
  | 'INVALID_INPUT'
  | 'INVALID_JSON'
  | 'NOT_FOUND'
  | 'WORKSPACE_NOT_FOUND'
  | 'FILE_TOO_LARGE'
  | 'BODY_TOO_LARGE'
  | 'EMPTY_FILE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE'
  | 'INTERNAL';

export class ApiError extends SaksiError<ServerErrorCode> {
  override readonly name: string = 'ApiError';

  constructor(code: ServerErrorCode, status: number, message: string, options: { cause?: unknown } = {}) {
    super(code, message, { cause: options.cause, status });
  }
}

/** A request refused by a rate limit (rate-limit.ts): HTTP 429 with `Retry-After: retryAfterSeconds`. */
export class RateLimitError extends ApiError {
  override readonly name = 'RateLimitError';
  declare readonly code: 'RATE_LIMITED';
  declare readonly status: 429;
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number) {
    super('RATE_LIMITED', 429, message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * The server is busy and the request was not started (verify-pool.ts: every verification thread is
 * working and the queue is full): HTTP 503 with `Retry-After: retryAfterSeconds`.
 */
export class UnavailableError extends ApiError {
  override readonly name = 'UnavailableError';
  declare readonly code: 'UNAVAILABLE';
  declare readonly status: 503;
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number) {
    super('UNAVAILABLE', 503, message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The JSON body of every error response. */
export interface ErrorBody {
  /** `message_id`: the same message in Indonesian, where the error has one (language-model failures). */
  error: { code: string; message: string; message_id?: string };
}

export interface MappedError {
  status: number;
  body: ErrorBody;
  /** True when the error is not one the caller caused or can act on: log it, send a generic message. */
  internal: boolean;
  /** Response headers the error needs (`Retry-After` on 429 and 503). */
  headers?: Record<string, string>;
}

const GENERIC_MESSAGE =
  'The server failed to handle this request. The error has been logged; try again later.';

/**
 * Maps any thrown value to a status and a safe body, by the type of Saksi error it is; everything
 * else is a 500 `INTERNAL`. Stacks and causes never leave the server.
 */
export function toErrorResponse(error: unknown): MappedError {
  if (!(error instanceof SaksiError)) return internalError();
  if (
    (error instanceof RateLimitError || error instanceof RateLimitedError) &&
    Number.isFinite(error.retryAfterSeconds)
  ) {
    return {
      status: 429,
      body: body('RATE_LIMITED', error.message),
      internal: false,
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(error.retryAfterSeconds))) },
    };
  }
  if (error instanceof UnavailableError) {
    return {
      status: 503,
      body: body('UNAVAILABLE', error.message),
      internal: false,
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(error.retryAfterSeconds))) },
    };
  }
  if (error instanceof ApiError || error instanceof IngestError) {
    return { status: error.status, body: body(error.code, error.message), internal: false };
  }
  if (error instanceof EngineError) {
    if (error.status >= 500)
      return { status: error.status, body: body(error.code, GENERIC_MESSAGE), internal: true };
    // Ingestion failures carry the parser's precise code (UNSUPPORTED_TYPE, EMPTY_FILE, MALFORMED_FILE, …).
    if (error.cause instanceof IngestError) {
      return { status: error.status, body: body(error.cause.code, error.message), internal: false };
    }
    if (error.status === 413 && error.code !== 'QUOTA_EXCEEDED')
      return { status: 413, body: body('FILE_TOO_LARGE', error.message), internal: false };
    return { status: error.status, body: body(error.code, error.message), internal: false };
  }
  // Language-model failures (429, 5xx, timeouts, broken streams): the user's question was fine, the
  // model was not; the message says to try again, in English and Indonesian, and never leaks a key.
  if (error instanceof LlmError) {
    return {
      status: error.status,
      body: { error: { code: error.code, message: error.message, message_id: error.message_id } },
      internal: false,
    };
  }
  // Anchoring, job-lease and other internal failures: logged, never shown.
  return internalError();
}

function internalError(): MappedError {
  return { status: 500, body: body('INTERNAL', GENERIC_MESSAGE), internal: true };
}

function body(code: string, message: string): ErrorBody {
  return { error: { code, message } };
}
