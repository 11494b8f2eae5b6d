import { describe, expect, it } from 'vitest';
import { detectLanguage } from './detect.js';

describe('detectLanguage', () => {
  it.each([
    ['Kalau nerobos lampu merah kena denda berapa?', 'id'],
    ['nyetir sambil main hp bisa kena denda brp', 'id'],
    ['apakah wajib menyalakan lampu pada siang hari', 'id'],
    ['What is the fine for running a red light?', 'en'],
    ['how do I use createSlice with TypeScript', 'en'],
    ['can I put a Promise in the store state?', 'en'],
  ])('%s → %s', (text, language) => expect(detectLanguage(text)).toBe(language));

  it('says nothing when nothing tells', () => {
    expect(detectLanguage('🙂🙂🙂')).toBeUndefined();
    expect(detectLanguage('2021 2022')).toBeUndefined();
    expect(detectLanguage('createSlice')).toBeUndefined();
  });
});
