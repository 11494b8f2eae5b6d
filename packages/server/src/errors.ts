/**
 * HTTP errors (docs/api.md, "Errors"): every failure leaves the server as JSON `{error: {code, message}}`
 * with the right status. {@link ApiError} is the server's own error class; engine and ingestion errors are
 * recognised by shape (`name`, `code`, `status`) so the mapping also holds across duplicated module
 * instances (source and built copies of the engine in one process).
 */

export type ApiErrorCode =
  | 'INVALID_INPUT'
  | 'INVALID_JSON'
  | 'NOT_FOUND'
  | 'WORKSPACE_NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'FILE_TOO_LARGE'
  | 'BODY_TOO_LARGE'
  | 'EMPTY_FILE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'INTERNAL';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ApiErrorCode;
  readonly status: number;

  constructor(code: ApiErrorCode, status: number, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = status;
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
  /** Response headers the error needs (`Retry-After` on 429). */
  headers?: Record<string, string>;
}

const GENERIC_MESSAGE =
  'The server failed to handle this request. The error has been logged; try again later.';

interface CodedError {
  name: string;
  code: string;
  message: string;
  status?: number;
  cause?: unknown;
}

function isCoded(error: unknown, name: string): error is CodedError {
  return (
    error instanceof Error &&
    error.name === name &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof error.message === 'string'
  );
}

/** Maps any thrown value to a status and a safe body. Stacks and causes never leave the server. */
export function toErrorResponse(error: unknown): MappedError {
  const retryAfter = (error as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds;
  if (
    error instanceof Error &&
    (error as { status?: unknown }).status === 429 &&
    typeof retryAfter === 'number' &&
    Number.isFinite(retryAfter)
  ) {
    return {
      status: 429,
      body: body('RATE_LIMITED', error.message),
      internal: false,
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfter))) },
    };
  }
  if (error instanceof ApiError) {
    return { status: error.status, body: body(error.code, error.message), internal: false };
  }
  if (isCoded(error, 'EngineError') && typeof error.status === 'number') {
    if (error.status >= 500)
      return { status: error.status, body: body(error.code, GENERIC_MESSAGE), internal: true };
    // Ingestion failures carry the parser's precise code (UNSUPPORTED_TYPE, EMPTY_FILE, MALFORMED_FILE, …).
    const cause = error.cause;
    if (isCoded(cause, 'IngestError')) {
      return { status: error.status, body: body(cause.code, error.message), internal: false };
    }
    if (error.status === 413 && error.code !== 'QUOTA_EXCEEDED')
      return { status: 413, body: body('FILE_TOO_LARGE', error.message), internal: false };
    return { status: error.status, body: body(error.code, error.message), internal: false };
  }
  // Language-model failures (429, 5xx, timeouts, broken streams): the user's question was fine, the
  // model was not; the message says to try again, in English and Indonesian, and never leaks a key.
  if (isCoded(error, 'LlmError') && typeof error.status === 'number') {
    const messageId = (error as { message_id?: unknown }).message_id;
    return {
      status: error.status,
      body: {
        error: {
          code: error.code,
          message: error.message,
          ...(typeof messageId === 'string' ? { message_id: messageId } : {}),
        },
      },
      internal: false,
    };
  }
  if (isCoded(error, 'IngestError')) {
    const status = error.code === 'FILE_TOO_LARGE' ? 413 : error.code === 'UNSUPPORTED_TYPE' ? 415 : 422;
    return { status, body: body(error.code, error.message), internal: false };
  }
  return { status: 500, body: body('INTERNAL', GENERIC_MESSAGE), internal: true };
}

function body(code: string, message: string): ErrorBody {
  return { error: { code, message } };
}
