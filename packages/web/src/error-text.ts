/**
 * What a failed call says to the reader, in the page's language: the server's error code (or the
 * page's own: NETWORK, MALFORMED, STREAM_ENDED, …; api.ts, `WebErrorCode`) mapped to a translated
 * sentence. The server's message is English, so it is shown only on the English page and only for
 * codes without a sentence of their own.
 */
import type { WebErrorCode } from './api.js';
import type { Lang, MessageKey } from './i18n.js';

export interface Failure {
  /** Only known codes: api.ts turns a server code the page does not know into `UNKNOWN_CODE`. */
  code: WebErrorCode;
  message: string;
  /** HTTP status; 0 when there was no reply. */
  status: number;
}

type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

/** Every code but `HTTP_<status>` (an error reply without a Saksi body), which is worded by its status. */
type NamedCode = Exclude<WebErrorCode, `HTTP_${number}`>;

/**
 * Each code's own sentence, or null: worded by the reply's status ({@link errorKey}). Every code is
 * listed, so a code added to the wire union fails `npm run typecheck` until it has a row here.
 */
const BY_CODE: Record<NamedCode, MessageKey | null> = {
  // The page's own
  NETWORK: 'error.network',
  STREAM_ENDED: 'error.stream',
  MALFORMED: 'error.malformed',
  UNKNOWN_CODE: null,
  UPLOAD_FAILED: 'errors.INGEST_FAILED',
  // Requests
  INVALID_INPUT: 'errors.INVALID_INPUT',
  INVALID_JSON: 'errors.INVALID_INPUT',
  INVALID_BASE_URL: 'errors.INVALID_BASE_URL',
  INVALID_GLOSSARY: 'errors.INVALID_GLOSSARY',
  NOT_FOUND: 'errors.NOT_FOUND',
  WORKSPACE_NOT_FOUND: 'errors.NOT_FOUND',
  FILE_NOT_FOUND: null,
  BODY_TOO_LARGE: 'errors.BODY_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'errors.UNSUPPORTED_TYPE',
  CONFLICT: 'errors.CONFLICT',
  // Routes the page never calls (the log's witnesses, webhooks): the generic sentence with the code.
  COSIGNATURE_INVALID: null,
  WITNESS_UNKNOWN: null,
  WEBHOOK_URL_FORBIDDEN: null,
  // Authentication and limits
  UNAUTHENTICATED: 'errors.UNAUTHENTICATED',
  SESSION_EXPIRED: 'errors.UNAUTHENTICATED',
  LOGIN_FAILED: 'admin.login.failed',
  FORBIDDEN: 'errors.FORBIDDEN',
  CSRF_INVALID: 'errors.FORBIDDEN',
  RATE_LIMITED: 'error.busy',
  QUOTA_EXCEEDED: 'errors.QUOTA_EXCEEDED',
  // Ingestion
  FILE_TOO_LARGE: 'errors.FILE_TOO_LARGE',
  EMPTY_FILE: 'errors.EMPTY_FILE',
  UNSUPPORTED_TYPE: 'errors.UNSUPPORTED_TYPE',
  MALFORMED_FILE: 'errors.MALFORMED_FILE',
  ENCRYPTED_FILE: 'errors.ENCRYPTED_FILE',
  NO_TEXT: 'errors.NO_TEXT',
  INGEST_FAILED: 'errors.INGEST_FAILED',
  // Language model
  LLM_RATE_LIMITED: 'error.busy',
  LLM_UNAVAILABLE: 'error.model',
  LLM_TIMEOUT: 'error.model',
  LLM_BAD_RESPONSE: 'error.model',
  LLM_AUTH: 'error.model',
  LLM_ABORTED: 'error.model',
  // Server failures: busy (503) or the server's trouble (500)
  INTERNAL: null,
  UNAVAILABLE: null,
  CONFIG_INVALID: null,
  KEYS_INVALID: null,
  DATABASE_ERROR: null,
  LOG_ERROR: null,
};

function isHttpCode(code: WebErrorCode): code is `HTTP_${number}` {
  return code.startsWith('HTTP_');
}

/** The message key for a failure: its code's own sentence, else by status class; undefined when unknown. */
export function errorKey(failure: Pick<Failure, 'code' | 'status'>): MessageKey | undefined {
  const own = isHttpCode(failure.code) ? null : BY_CODE[failure.code];
  if (own !== null) return own;
  if (failure.status === 429 || failure.status === 503) return 'error.busy';
  if (failure.status === 404) return 'errors.NOT_FOUND';
  if (failure.status >= 500) return 'errors.SERVER';
  return undefined;
}

/**
 * The sentence for `failure` in the page's language. A code without one gets the generic refusal with
 * its code, plus the server's own (English) message on the English page.
 */
export function errorText(failure: Failure, lang: Lang, t: Translate): string {
  const key = errorKey(failure);
  if (key !== undefined) return t(key, { code: failure.code });
  const detail = lang === 'en' && failure.message.trim() !== '' ? ` ${failure.message.trim()}` : '';
  return `${t('errors.OTHER', { code: failure.code })}${detail}`;
}
