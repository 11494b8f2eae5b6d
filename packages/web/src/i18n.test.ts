import { describe, expect, it } from 'vitest';
import { dictionaries, initialLang, LANGS, type MessageKey, translate } from './i18n.js';
import { englishOnlyPhrases, IDENTICAL_IN_BOTH, literalWords } from './i18n-check.js';

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

describe('i18n tables are complete', () => {
  const keys = Object.keys(dictionaries.en) as MessageKey[];
  const placeholders = (value: string) => [...value.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

  it('have the same keys in both languages', () => {
    expect(Object.keys(dictionaries.id).sort()).toEqual([...keys].sort());
  });

  it('have no empty value and the same placeholders in both languages', () => {
    const problems: string[] = [];
    for (const key of keys) {
      for (const lang of LANGS) {
        if (dictionaries[lang][key].trim() === '') problems.push(`${lang} ${key} is empty`);
      }
      if (placeholders(dictionaries.id[key]).join() !== placeholders(dictionaries.en[key]).join())
        problems.push(`${key}: placeholders differ`);
    }
    expect(problems).toEqual([]);
  });

  it('translate every Indonesian value (only proper nouns and codes may equal the English one)', () => {
    const copied = keys.filter(
      (key) =>
        dictionaries.id[key] === dictionaries.en[key] &&
        literalWords(dictionaries.en[key]).length > 0 &&
        !IDENTICAL_IN_BOTH.has(dictionaries.en[key]),
    );
    expect(copied.map((key) => `${key}: ${dictionaries.en[key]}`)).toEqual([]);
  });

  it('find a copied value when there is one', () => {
    expect(literalWords('{stage}: {percent}%')).toEqual([]);
    expect(literalWords('Show {count} more')).toEqual(['Show', 'more']);
  });

  it('give the browser check English phrases that the Indonesian value does not contain', () => {
    const phrases = englishOnlyPhrases();
    expect(phrases.find((entry) => entry.key === 'nav.chat')?.phrase).toBe('Chat');
    expect(phrases.some((entry) => entry.key === 'chat.saksi')).toBe(false);
    for (const { key, phrase } of phrases) expect(dictionaries.id[key], key).not.toContain(phrase);
  });
});
