import { describe, expect, it } from 'vitest';
import { errorKey, errorText } from './error-text.js';
import { translate } from './i18n.js';

const t =
  (lang: 'id' | 'en') => (key: Parameters<typeof translate>[1], values?: Record<string, string | number>) =>
    translate(lang, key, values);

describe('error text', () => {
  it('maps server and page codes to their own sentences', () => {
    expect(errorKey({ code: 'NETWORK', status: 0 })).toBe('error.network');
    expect(errorKey({ code: 'FILE_TOO_LARGE', status: 413 })).toBe('errors.FILE_TOO_LARGE');
    expect(errorKey({ code: 'ENCRYPTED_FILE', status: 422 })).toBe('errors.ENCRYPTED_FILE');
    expect(errorKey({ code: 'LLM_TIMEOUT', status: 502 })).toBe('error.model');
    expect(errorKey({ code: 'SOMETHING_NEW', status: 503 })).toBe('error.busy');
    expect(errorKey({ code: 'SOMETHING_NEW', status: 500 })).toBe('errors.SERVER');
    expect(errorKey({ code: 'SOMETHING_NEW', status: 418 })).toBeUndefined();
  });

  it('never shows the server’s English message on the Indonesian page', () => {
    const failure = { code: 'NOT_FOUND', message: 'No collection named "x".', status: 404 };
    expect(errorText(failure, 'id', t('id'))).toBe(translate('id', 'errors.NOT_FOUND'));
    const unknown = { code: 'TEAPOT', message: 'I am a teapot.', status: 418 };
    expect(errorText(unknown, 'id', t('id'))).toBe(translate('id', 'errors.OTHER', { code: 'TEAPOT' }));
    expect(errorText(unknown, 'en', t('en'))).toBe(
      `${translate('en', 'errors.OTHER', { code: 'TEAPOT' })} I am a teapot.`,
    );
    expect(errorText({ code: 'LLM_TIMEOUT', message: '', status: 502 }, 'id', t('id'))).toContain(
      'LLM_TIMEOUT',
    );
  });
});
