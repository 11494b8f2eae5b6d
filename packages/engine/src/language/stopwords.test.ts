import { describe, expect, it } from 'vitest';
import { isQueryStopword, withoutStopwords } from './stopwords.js';

describe('query stopwords', () => {
  it('drops Indonesian function and asking words, everyday ones included, and keeps the rule words', () => {
    expect(withoutStopwords('Kalau nerobos lampu merah kena denda berapa sih?', 'id')).toBe(
      'nerobos lampu merah kena denda',
    );
    expect(withoutStopwords('Apakah pengendara wajib memakai helm yang SNI?', 'id')).toBe(
      'pengendara wajib memakai helm sni',
    );
    for (const word of ['wajib', 'dilarang', 'harus', 'boleh'])
      expect(isQueryStopword(word, 'id')).toBe(false);
  });

  it('drops English function and asking words', () => {
    expect(withoutStopwords('What exactly is a thunk in Redux? Please explain', 'en')).toBe('thunk redux');
  });

  it('keeps numbers and identifiers, drops single letters', () => {
    expect(withoutStopwords('Pasal 287 ayat (2) huruf c', 'id')).toBe('pasal 287 ayat 2 huruf');
    expect(withoutStopwords('how do I type useSelector', 'en')).toBe('type useselector');
  });

  it('returns the empty string when nothing is left', () => {
    expect(withoutStopwords('apa itu?', 'id')).toBe('');
    expect(withoutStopwords('', 'en')).toBe('');
  });
});
