import { describe, expect, it } from 'vitest';
import { plainLabel } from './plain-label.js';

describe('plainLabel', () => {
  it('removes bidi controls and other format characters, so a name cannot disguise itself', () => {
    for (const control of [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
    ])
      expect(plainLabel(`laporan${control}fdp.exe`)).toBe('laporanfdp.exe');
    expect(plainLabel('a\u200eb\u200fc\u061cd\u200be\u2060f\ufeffg\u00adh')).toBe('abcdefgh');
  });

  it('turns control characters and line separators into spaces, composes and trims', () => {
    expect(plainLabel(' Bab\tI\r\nKetentuan\u2028Umum\u0000 ')).toBe('Bab I Ketentuan Umum');
    expect(plainLabel('Pe\u0301rpres')).toBe('Pérpres');
    expect(plainLabel('UU 22/2009 — Lalu Lintas')).toBe('UU 22/2009 — Lalu Lintas');
    expect(plainLabel('\u202e\u200b')).toBe('');
  });
});
