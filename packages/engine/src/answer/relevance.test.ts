import { describe, expect, it } from 'vitest';
import { answersIntent, coverage, distinctiveText } from './relevance.js';

describe('relevance', () => {
  it('keeps the words that say what the question is about', () => {
    expect(distinctiveText('Berapa anggaran pendapatan negara tahun 2019?')).toBe(
      'anggaran pendapatan negara tahun',
    );
    expect(distinctiveText('what exactly is a thunk?')).toBe('thunk');
  });

  it('weighs covered lexemes by idf, the best wording counting', () => {
    const terms = {
      wordings: [
        {
          lexemes: [
            { lexeme: 'isyarat', df: 3, idf: 5 },
            { lexeme: 'denda', df: 90, idf: 1 },
          ],
          total: 6,
        },
      ],
    };
    expect(coverage(terms, new Set(['denda']))).toBeCloseTo(1 / 6);
    expect(coverage(terms, new Set(['isyarat', 'denda']))).toBe(1);
    expect(coverage({ wordings: [] }, new Set(['denda']))).toBe(0);
  });

  it('asks for the kind of statement the intent needs', () => {
    expect(
      answersIntent({ intent: 'sanction' }, 'dipidana dengan pidana kurungan paling lama 2 (dua) bulan'),
    ).toBe(true);
    expect(answersIntent({ intent: 'sanction' }, 'Setiap orang wajib mematuhi rambu.')).toBe(false);
    expect(answersIntent({ intent: 'figure' }, 'direncanakan sebesar Rp2.463.024.859.739.000,00')).toBe(true);
    expect(
      answersIntent({ intent: 'requirement', requirement: 'age' }, 'usia 17 (tujuh belas) tahun untuk SIM A'),
    ).toBe(true);
    expect(answersIntent({ intent: 'definition' }, 'A reducer is a function that receives the state.')).toBe(
      true,
    );
  });
});
