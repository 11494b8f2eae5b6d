import { SaksiError } from '../errors.js';

/**
 * Every failure of a language model is an {@link LlmError} with a string-literal `code`. The
 * `message` (English) and `message_id` (Indonesian) are meant for the person asking: they say what
 * happened and what to do, and never contain API keys, prompts or upstream response bodies (those
 * stay in `cause` for the server log).
 */
export type LlmErrorCode =
  /** HTTP 429 from the provider and retries exhausted (or its Retry-After is beyond the cap). */
  | 'LLM_RATE_LIMITED'
  /** HTTP 5xx, another rejected request, a network error or a connection dropped mid-answer. */
  | 'LLM_UNAVAILABLE'
  /** The overall timeout passed, or no token arrived within the stall window. */
  | 'LLM_TIMEOUT'
  /** The stream could not be parsed, or the model finished without any text. */
  | 'LLM_BAD_RESPONSE'
  /** HTTP 401/403: the provider refused Saksi's credentials (never retried). */
  | 'LLM_AUTH'
  /** The caller's abort signal fired (e.g. the person closed the chat). */
  | 'LLM_ABORTED';

const MESSAGES: Record<LlmErrorCode, { en: string; id: string; status: number }> = {
  LLM_RATE_LIMITED: {
    en: 'The language model service is busy (its rate limit was reached). Please try again in a minute.',
    id: 'Layanan model bahasa sedang sibuk (batas permintaannya tercapai). Silakan coba lagi dalam satu menit.',
    status: 503,
  },
  LLM_UNAVAILABLE: {
    en: 'The language model service could not be reached or failed to answer. Please try again later; if this persists, an administrator should check SAKSI_LLM and SAKSI_LLM_BASE_URL.',
    id: 'Layanan model bahasa tidak dapat dihubungi atau gagal menjawab. Silakan coba lagi nanti; jika terus terjadi, administrator perlu memeriksa SAKSI_LLM dan SAKSI_LLM_BASE_URL.',
    status: 502,
  },
  LLM_TIMEOUT: {
    en: 'The language model took too long to answer. Please try again; an administrator can raise SAKSI_LLM_TIMEOUT_MS or SAKSI_LLM_STALL_MS.',
    id: 'Model bahasa terlalu lama menjawab. Silakan coba lagi; administrator dapat menaikkan SAKSI_LLM_TIMEOUT_MS atau SAKSI_LLM_STALL_MS.',
    status: 504,
  },
  LLM_BAD_RESPONSE: {
    en: 'The language model returned an answer Saksi could not read. Please try again.',
    id: 'Model bahasa mengirim jawaban yang tidak dapat dibaca Saksi. Silakan coba lagi.',
    status: 502,
  },
  LLM_AUTH: {
    en: 'The language model service refused Saksi’s credentials. An administrator must check SAKSI_LLM_API_KEY.',
    id: 'Layanan model bahasa menolak kredensial Saksi. Administrator perlu memeriksa SAKSI_LLM_API_KEY.',
    status: 502,
  },
  LLM_ABORTED: {
    en: 'The answer was cancelled.',
    id: 'Jawaban dibatalkan.',
    status: 499,
  },
};

export interface LlmErrorOptions {
  cause?: unknown;
  /** HTTP status the provider answered with, when there was one. */
  upstreamStatus?: number;
  /** Whether the same request may succeed when tried again. */
  retryable?: boolean;
  /** How long the provider asked us to wait (Retry-After), in milliseconds. */
  retryAfterMs?: number;
  /** Whether some answer text had already been streamed to the caller when this happened. */
  partial?: boolean;
  /** Extra English detail for operators, appended to the message (never secrets). */
  detail?: string;
}

/** A typed language-model failure: `code` is stable, `message`/`message_id` are for people. */
export class LlmError extends SaksiError<LlmErrorCode> {
  override readonly name = 'LlmError';
  /** The same message in Indonesian. */
  readonly message_id: string;
  // `status` (from SaksiError) is the HTTP status for Saksi's own API. Provider auth failures map to
  // 502, not 401: the person asking is not the one whose credentials failed.
  readonly upstreamStatus: number | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  /** True when text was already streamed: the caller must discard it and issue no certificate. */
  readonly partial: boolean;

  constructor(code: LlmErrorCode, options: LlmErrorOptions = {}) {
    const text = MESSAGES[code];
    super(code, options.detail === undefined ? text.en : `${text.en} (${options.detail})`, {
      cause: options.cause,
      status: text.status,
    });
    this.message_id = text.id;
    this.upstreamStatus = options.upstreamStatus;
    this.retryable = options.retryable ?? false;
    this.retryAfterMs = options.retryAfterMs;
    this.partial = options.partial ?? false;
  }
}

/** True when `error` is an {@link LlmError}, optionally with the given code. */
export function isLlmError(error: unknown, code?: LlmErrorCode): error is LlmError {
  return error instanceof LlmError && (code === undefined || error.code === code);
}
