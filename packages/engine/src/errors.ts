/**
 * Engine errors: one class, a string-literal `code` per failure a caller can act on, and the HTTP
 * status the server maps it to. Messages say what happened and what to do; never secrets.
 */
export type EngineErrorCode =
  | 'NOT_FOUND'
  | 'FILE_NOT_FOUND'
  | 'INVALID_INPUT'
  | 'INVALID_BASE_URL'
  | 'CONFLICT'
  | 'CONFIG_INVALID'
  | 'DATABASE_ERROR'
  | 'INGEST_FAILED'
  | 'LOG_ERROR'
  | 'KEYS_INVALID'
  | 'COSIGNATURE_INVALID'
  | 'WITNESS_UNKNOWN'
  | 'LOGIN_FAILED'
  | 'UNAUTHENTICATED'
  | 'SESSION_EXPIRED'
  | 'CSRF_INVALID'
  | 'RATE_LIMITED'
  | 'FORBIDDEN'
  | 'QUOTA_EXCEEDED'
  | 'WEBHOOK_URL_FORBIDDEN';

const STATUS: Record<EngineErrorCode, number> = {
  NOT_FOUND: 404,
  FILE_NOT_FOUND: 404,
  INVALID_INPUT: 400,
  INVALID_BASE_URL: 400,
  CONFLICT: 409,
  CONFIG_INVALID: 500,
  DATABASE_ERROR: 500,
  INGEST_FAILED: 422,
  LOG_ERROR: 500,
  KEYS_INVALID: 500,
  COSIGNATURE_INVALID: 400,
  WITNESS_UNKNOWN: 403,
  LOGIN_FAILED: 401,
  UNAUTHENTICATED: 401,
  SESSION_EXPIRED: 401,
  CSRF_INVALID: 403,
  RATE_LIMITED: 429,
  FORBIDDEN: 403,
  QUOTA_EXCEEDED: 413,
  WEBHOOK_URL_FORBIDDEN: 400,
};

export class EngineError extends Error {
  override readonly name = 'EngineError';
  readonly code: EngineErrorCode;
  readonly status: number;

  constructor(code: EngineErrorCode, message: string, options: { cause?: unknown; status?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status ?? STATUS[code];
  }
}

export function isEngineError(error: unknown, code?: EngineErrorCode): error is EngineError {
  return error instanceof EngineError && (code === undefined || error.code === code);
}
