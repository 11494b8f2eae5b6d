import { describe, expect, it } from 'vitest';
import { initialLang, translate } from './i18n.js';

describe('i18n', () => {
  it('fills placeholders in both languages', () => {
    expect(translate('en', 'verify.summary', { verified: 2, blocked: 1, total: 3 })).toBe(
      '2 verified / 1 blocked / 3 total',
    );
    expect(translate('id', 'verify.summary', { verified: 2, blocked: 1, total: 3 })).toBe(
      '2 terverifikasi / 1 diblokir / 3 total',
    );
  });

  it('prefers the stored choice, then the browser language, then Indonesian', () => {
    expect(initialLang('en', ['id-ID'])).toBe('en');
    expect(initialLang(null, ['en-US', 'id'])).toBe('en');
    expect(initialLang('xx', ['id-ID'])).toBe('id');
    expect(initialLang(null, ['fr-FR'])).toBe('id');
  });
});
