import { describe, expect, it } from 'vitest';
import { rewriteQuery } from './rewrite.js';

describe('dictionary query rewriting', () => {
  it('turns everyday traffic words into the statute’s terms, weighted 2.0', () => {
    const variants = rewriteQuery('Kalau nerobos lampu merah kena denda berapa?', { language: 'id' });
    expect(variants).toHaveLength(2);
    expect(variants[0]).toEqual({
      text: 'Kalau nerobos lampu merah kena denda berapa?',
      weight: 1,
      kind: 'original',
    });
    expect(variants[1]!.text).toContain('Alat Pemberi Isyarat Lalu Lintas');
    expect(variants[1]!.text).toContain('melanggar aturan perintah atau larangan');
    expect(variants[1]!.weight).toBe(2);
  });

  it('matches whole words only and leaves English and unmatched questions alone', () => {
    expect(rewriteQuery('Bagaimana simulasi anggaran?', { language: 'id' })).toHaveLength(1);
    expect(rewriteQuery('Do I need a SIM card?', { language: 'en' })).toHaveLength(1);
    expect(rewriteQuery('Berapa DAU 2020?', { language: 'id' })[1]!.text).toBe(
      'Berapa Dana Alokasi Umum 2020?',
    );
  });
});
