/**
 * The client's one error class: every failure — an error reply of the server, a reply that is not the
 * JSON the API promises, a network failure or a timeout — is a {@link SaksiApiError} with a `code`.
 */

/** Codes the client itself assigns; every other code is the server's (`NOT_FOUND`, `RATE_LIMITED`, …). */
export type ClientErrorCode = 'NETWORK_ERROR' | 'BAD_RESPONSE' | 'TIMEOUT';

export class SaksiApiError extends Error {
  override readonly name = 'SaksiApiError';
  /** The HTTP status; 0 when no reply arrived (network failure, timeout). */
  readonly status: number;
  /** The server's error code, or one of {@link ClientErrorCode}. */
  readonly code: ClientErrorCode | (string & {});
  /** From `Retry-After` (429, 503): seconds to wait before trying again. */
  readonly retryAfterSeconds?: number;
  /** The same message in Indonesian, when the server sent one. */
  readonly messageId?: string;

  constructor(
    code: ClientErrorCode | (string & {}),
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
