/**
 * What a failed call says to the reader, in the page's language: the server's error code (or the
 * page's own: NETWORK, MALFORMED, STREAM_ENDED) mapped to a translated sentence. The server's message
 * is English, so it is shown only on the English page and only for codes without a sentence of their own.
 */
import type { Lang, MessageKey } from './i18n.js';

export interface Failure {
  code: string;
  message: string;
  /** HTTP status; 0 when there was no reply. */
  status: number;
}

type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

const BY_CODE: Record<string, MessageKey> = {
  NETWORK: 'error.network',
  STREAM_ENDED: 'error.stream',
  MALFORMED: 'error.malformed',
  RATE_LIMITED: 'error.busy',
  LLM_RATE_LIMITED: 'error.busy',
  NOT_FOUND: 'errors.NOT_FOUND',
  WORKSPACE_NOT_FOUND: 'errors.NOT_FOUND',
  INVALID_INPUT: 'errors.INVALID_INPUT',
  INVALID_JSON: 'errors.INVALID_INPUT',
  INVALID_BASE_URL: 'errors.INVALID_BASE_URL',
  BODY_TOO_LARGE: 'errors.BODY_TOO_LARGE',
  FILE_TOO_LARGE: 'errors.FILE_TOO_LARGE',
  EMPTY_FILE: 'errors.EMPTY_FILE',
  UNSUPPORTED_TYPE: 'errors.UNSUPPORTED_TYPE',
  UNSUPPORTED_MEDIA_TYPE: 'errors.UNSUPPORTED_TYPE',
  MALFORMED_FILE: 'errors.MALFORMED_FILE',
  ENCRYPTED_FILE: 'errors.ENCRYPTED_FILE',
  NO_TEXT: 'errors.NO_TEXT',
  QUOTA_EXCEEDED: 'errors.QUOTA_EXCEEDED',
  INGEST_FAILED: 'errors.INGEST_FAILED',
  UPLOAD_FAILED: 'errors.INGEST_FAILED',
  CONFLICT: 'errors.CONFLICT',
  UNAUTHENTICATED: 'errors.UNAUTHENTICATED',
  SESSION_EXPIRED: 'errors.UNAUTHENTICATED',
  LOGIN_FAILED: 'admin.login.failed',
  FORBIDDEN: 'errors.FORBIDDEN',
  CSRF_INVALID: 'errors.FORBIDDEN',
  METHOD_NOT_ALLOWED: 'errors.INVALID_INPUT',
};

/** The message key for a failure: its code's own sentence, else by status class; undefined when unknown. */
export function errorKey(failure: Pick<Failure, 'code' | 'status'>): MessageKey | undefined {
  const own = BY_CODE[failure.code];
  if (own !== undefined) return own;
  if (failure.code.startsWith('LLM_')) return 'error.model';
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
