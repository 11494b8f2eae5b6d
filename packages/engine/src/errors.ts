/**
 * The error tree (docs/architecture.md, "Errors"): every error Saksi's own code throws extends
 * {@link SaksiError}, which carries a string-literal `code`, the HTTP `status` the server answers with
 * and the standard ES2022 `cause`. One class per domain subclasses it ({@link EngineError} here,
 * `IngestError`, `LlmError`, `AnchorError`, …); the server maps them to responses by type in one place.
 * `@saksi/proof` keeps its own `ProofError`: proof imports nothing of ours (docs/architecture.md).
 */

/** What every {@link SaksiError} constructor accepts besides its code and message. */
export interface SaksiErrorOptions {
  cause?: unknown;
  /** The HTTP status the server answers with; 500 when not given (a failure the caller cannot fix). */
  status?: number;
}

/** The base of Saksi's errors: `code` is stable (tests assert it), `message` is for people. */
export abstract class SaksiError<Code extends string = string> extends Error {
  abstract override readonly name: string;
  readonly code: Code;
  /** The HTTP status of the response this error becomes (docs/api.md, "Errors"). */
  readonly status: number;

  constructor(code: Code, message: string, options: SaksiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status ?? 500;
  }
}

/** True when `error` is one of Saksi's own errors (any subclass of {@link SaksiError}). */
export function isSaksiError(error: unknown): error is SaksiError {
  return error instanceof SaksiError;
}

/** Engine errors: a string-literal `code` per failure a caller can act on, and its HTTP status. */
export type EngineErrorCode =
  | 'NOT_FOUND'
  | 'FILE_NOT_FOUND'
  | 'INVALID_INPUT'
  | 'INVALID_BASE_URL'
  | 'INVALID_GLOSSARY'
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
  INVALID_GLOSSARY: 400,
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

export class EngineError extends SaksiError<EngineErrorCode> {
  override readonly name = 'EngineError';

  constructor(code: EngineErrorCode, message: string, options: SaksiErrorOptions = {}) {
    super(code, message, { ...options, status: options.status ?? STATUS[code] });
  }
}

export function isEngineError(error: unknown, code?: EngineErrorCode): error is EngineError {
  return error instanceof EngineError && (code === undefined || error.code === code);
}
