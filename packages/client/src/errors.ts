/**
 * The client's one error class: every failure — an error reply of the server, a reply that is not the
 * JSON the API promises, a network failure or a timeout — is a {@link SaksiApiError} with a `code`.
 */

/**
 * Every `code` the server can send in an error response `{error: {code, message}}` (docs/api.md,
 * "Errors") or an SSE `error` event. The server's test `wire-codes.test.ts` fails when the server can
 * emit a code this list lacks; the web app types its errors with {@link ApiErrorCode}
 * (docs/architecture.md, "Errors"). A failed job's or document's `error.code` is wider (it may name
 * any failure of the worker, or `JOB_FAILED`).
 */
export const API_ERROR_CODES = [
  // Requests (the server's own errors)
  'INVALID_INPUT',
  'INVALID_JSON',
  'INVALID_BASE_URL',
  'INVALID_GLOSSARY',
  'NOT_FOUND',
  'WORKSPACE_NOT_FOUND',
  'FILE_NOT_FOUND',
  'BODY_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'CONFLICT',
  'COSIGNATURE_INVALID',
  'WITNESS_UNKNOWN',
  'WEBHOOK_URL_FORBIDDEN',
  // Authentication and limits
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'LOGIN_FAILED',
  'SESSION_EXPIRED',
  'CSRF_INVALID',
  'RATE_LIMITED',
  'QUOTA_EXCEEDED',
  // Ingestion
  'FILE_TOO_LARGE',
  'EMPTY_FILE',
  'UNSUPPORTED_TYPE',
  'MALFORMED_FILE',
  'ENCRYPTED_FILE',
  'NO_TEXT',
  'INGEST_FAILED',
  // Language model
  'LLM_RATE_LIMITED',
  'LLM_UNAVAILABLE',
  'LLM_TIMEOUT',
  'LLM_BAD_RESPONSE',
  'LLM_AUTH',
  'LLM_ABORTED',
  // Server failures
  'INTERNAL',
  'UNAVAILABLE',
  'CONFIG_INVALID',
  'KEYS_INVALID',
  'DATABASE_ERROR',
  'LOG_ERROR',
] as const;

/** A code the server sends (one of {@link API_ERROR_CODES}). */
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/** True when `code` is one the server sends. */
export function isApiErrorCode(code: unknown): code is ApiErrorCode {
  return typeof code === 'string' && (API_ERROR_CODES as readonly string[]).includes(code);
}

/**
 * Codes the client itself assigns; every other code is the server's (`NOT_FOUND`, `RATE_LIMITED`, …).
 * `STREAM_ENDED`: an event stream stopped before its last event; `ABORTED`: the caller's signal ended
 * the request.
 */
export type ClientErrorCode = 'NETWORK_ERROR' | 'BAD_RESPONSE' | 'TIMEOUT' | 'STREAM_ENDED' | 'ABORTED';

export class SaksiApiError extends Error {
  override readonly name = 'SaksiApiError';
  /** The HTTP status; 0 when no reply arrived (network failure, timeout). */
  readonly status: number;
  /**
   * The server's error code, or one of {@link ClientErrorCode}. Any other string is kept as sent: a
   * newer server may send a code this client does not know yet.
   */
  readonly code: ApiErrorCode | ClientErrorCode | (string & {});
  /** From `Retry-After` (429, 503): seconds to wait before trying again. */
  readonly retryAfterSeconds?: number;
  /** The same message in Indonesian, when the server sent one. */
  readonly messageId?: string;

  constructor(
    code: ApiErrorCode | ClientErrorCode | (string & {}),
    status: number,
    message: string,
    options: { retryAfterSeconds?: number; messageId?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = status;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
    if (options.messageId !== undefined) this.messageId = options.messageId;
  }
}

/** `Retry-After` as seconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d{1,10}$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** The error of a non-2xx reply: the server's `{error: {code, message}}`, or `BAD_RESPONSE`. */
export function errorFromResponse(response: Response, body: string): SaksiApiError {
  const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
  const extra = retryAfterSeconds === undefined ? {} : { retryAfterSeconds };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const error = (parsed as { error?: unknown } | undefined)?.error;
  if (typeof error === 'object' && error !== null) {
    const { code, message, message_id: messageId } = error as Record<string, unknown>;
    if (typeof code === 'string' && typeof message === 'string') {
      return new SaksiApiError(code, response.status, message, {
        ...extra,
        ...(typeof messageId === 'string' ? { messageId } : {}),
      });
    }
  }
  return new SaksiApiError(
    'BAD_RESPONSE',
    response.status,
    `The server answered ${response.status} without a Saksi error body; is the base URL a Saksi server?`,
    extra,
  );
}
