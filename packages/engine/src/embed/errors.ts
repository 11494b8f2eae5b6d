/**
 * Every failure of an embedding model is an {@link EmbeddingError} with a string-literal `code`.
 * Tests assert the code, never the message text. Messages never contain API keys.
 */
export type EmbeddingErrorCode =
  /** The endpoint answered with an HTTP error status (or could not be reached). */
  | 'EMBEDDING_HTTP_ERROR'
  /** The endpoint answered 2xx with a body that is not a valid embeddings response. */
  | 'EMBEDDING_BAD_RESPONSE'
  /** No answer within the configured timeout. */
  | 'EMBEDDING_TIMEOUT'
  /** A vector has a different length than the model's configured dimensions. */
  | 'EMBEDDING_DIMENSION_MISMATCH'
  /** HTTP 429 and retries exhausted. */
  | 'EMBEDDING_RATE_LIMITED';

/** A typed embedding failure: `code` is stable, `message` says what happened and what to do. */
export class EmbeddingError extends Error {
  override readonly name = 'EmbeddingError';
  readonly code: EmbeddingErrorCode;
  /** HTTP status of the last response, when there was one. */
  readonly status: number | undefined;
  /** Whether trying again later may succeed (rate limits, server errors, timeouts, network errors). */
  readonly retryable: boolean;

  constructor(
    code: EmbeddingErrorCode,
    message: string,
    options: { cause?: unknown; status?: number; retryable?: boolean } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
  }
}

/** True when `error` is an {@link EmbeddingError}, optionally with the given code. */
export function isEmbeddingError(error: unknown, code?: EmbeddingErrorCode): error is EmbeddingError {
  return error instanceof EmbeddingError && (code === undefined || error.code === code);
}
