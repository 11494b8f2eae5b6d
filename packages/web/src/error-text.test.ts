import { API_ERROR_CODES, type ApiErrorCode } from '@saksi/client';
import { describe, expect, it } from 'vitest';
import { errorKey, errorText } from './error-text.js';
import { translate } from './i18n.js';

const t =
  (lang: 'id' | 'en') => (key: Parameters<typeof translate>[1], values?: Record<string, string | number>) =>
    translate(lang, key, values);

/** The status each server code is sent with (docs/api.md, "Errors"; the model's from its error class). */
const STATUS: Record<ApiErrorCode, number> = {
  INVALID_INPUT: 400,
  INVALID_JSON: 400,
  INVALID_BASE_URL: 400,
  INVALID_GLOSSARY: 400,
  NOT_FOUND: 404,
  WORKSPACE_NOT_FOUND: 404,
  FILE_NOT_FOUND: 404,
  BODY_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  CONFLICT: 409,
  COSIGNATURE_INVALID: 400,
  WITNESS_UNKNOWN: 403,
  WEBHOOK_URL_FORBIDDEN: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  LOGIN_FAILED: 401,
  SESSION_EXPIRED: 401,
  CSRF_INVALID: 403,
  RATE_LIMITED: 429,
  QUOTA_EXCEEDED: 413,
  FILE_TOO_LARGE: 413,
  EMPTY_FILE: 422,
  UNSUPPORTED_TYPE: 415,
  MALFORMED_FILE: 422,
  ENCRYPTED_FILE: 422,
  NO_TEXT: 422,
  INGEST_FAILED: 422,
  LLM_RATE_LIMITED: 503,
  LLM_UNAVAILABLE: 502,
  LLM_TIMEOUT: 504,
  LLM_BAD_RESPONSE: 502,
  LLM_AUTH: 502,
  LLM_ABORTED: 499,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  CONFIG_INVALID: 500,
  KEYS_INVALID: 500,
  DATABASE_ERROR: 500,
  LOG_ERROR: 500,
};

/** Codes the page never meets: those of routes it does not call. */
const NEVER_MET: ReadonlySet<ApiErrorCode> = new Set<ApiErrorCode>([
  'COSIGNATURE_INVALID',
  'WITNESS_UNKNOWN',
  'WEBHOOK_URL_FORBIDDEN',
]);

describe('error text', () => {
  it('maps server and page codes to their own sentences', () => {
    expect(errorKey({ code: 'NETWORK', status: 0 })).toBe('error.network');
    expect(errorKey({ code: 'FILE_TOO_LARGE', status: 413 })).toBe('errors.FILE_TOO_LARGE');
    expect(errorKey({ code: 'ENCRYPTED_FILE', status: 422 })).toBe('errors.ENCRYPTED_FILE');
    expect(errorKey({ code: 'LLM_TIMEOUT', status: 504 })).toBe('error.model');
    expect(errorKey({ code: 'UNKNOWN_CODE', status: 503 })).toBe('error.busy');
    expect(errorKey({ code: 'UNKNOWN_CODE', status: 500 })).toBe('errors.SERVER');
    expect(errorKey({ code: 'UNKNOWN_CODE', status: 418 })).toBeUndefined();
    expect(errorKey({ code: 'HTTP_404', status: 404 })).toBe('errors.NOT_FOUND');
    expect(errorKey({ code: 'HTTP_418', status: 418 })).toBeUndefined();
  });

  it('gives every server code a sentence, its own or its status’s, but the codes the page never meets', () => {
    for (const code of API_ERROR_CODES) {
      const key = errorKey({ code, status: STATUS[code] });
      expect(key === undefined, `${code} ${STATUS[code]} → ${key}`).toBe(NEVER_MET.has(code));
      // A language model's failure is said to be the model's, whatever its status.
      if (code.startsWith('LLM_') && code !== 'LLM_RATE_LIMITED') expect(key, code).toBe('error.model');
    }
  });

  it('never shows the server’s English message on the Indonesian page', () => {
    const failure = { code: 'NOT_FOUND', message: 'No collection named "x".', status: 404 } as const;
    expect(errorText(failure, 'id', t('id'))).toBe(translate('id', 'errors.NOT_FOUND'));
    const unknown = { code: 'UNKNOWN_CODE', message: 'TEAPOT: I am a teapot.', status: 418 } as const;
    expect(errorText(unknown, 'id', t('id'))).toBe(translate('id', 'errors.OTHER', { code: 'UNKNOWN_CODE' }));
    expect(errorText(unknown, 'en', t('en'))).toBe(
      `${translate('en', 'errors.OTHER', { code: 'UNKNOWN_CODE' })} TEAPOT: I am a teapot.`,
    );
    expect(errorText({ code: 'LLM_TIMEOUT', message: '', status: 504 }, 'id', t('id'))).toContain(
      'LLM_TIMEOUT',
    );
  });
});
