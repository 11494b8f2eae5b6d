import { describe, expect, it } from 'vitest';
import { answersIntent, coverage, distinctiveText } from './relevance.js';

describe('relevance', () => {
  it('keeps the words that say what the question is about', () => {
    expect(distinctiveText('Berapa anggaran pendapatan negara tahun 2019?')).toBe(
      'anggaran pendapatan negara tahun',
    );
    expect(distinctiveText('what exactly is a thunk?')).toBe('thunk');
  });

  it('weighs covered lexemes by idf + 1, the best wording counting', () => {
    const terms = {
      wordings: [
        {
          lexemes: [
            { lexeme: 'isyarat', df: 3, idf: 5 },
            { lexeme: 'denda', df: 90, idf: 1 },
          ],
          total: 8,
        },
      ],
    };
    // Weights 5 + 1 and 1 + 1: the common word is a quarter of the question.
    expect(coverage(terms, new Set(['denda']))).toBeCloseTo(2 / 8);
    expect(coverage(terms, new Set(['isyarat']))).toBeCloseTo(6 / 8);
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

describe('age and date questions', () => {
  it('take an age, not a period of validity', () => {
    const age = { intent: 'requirement' as const, requirement: 'age' as const };
    expect(answersIntent(age, 'a. usia 20 (dua puluh) tahun untuk Surat Izin Mengemudi A Umum;')).toBe(true);
    expect(answersIntent(age, 'You must be at least 18 years old.')).toBe(true);
    expect(
      answersIntent(age, 'Surat Izin Mengemudi berlaku selama 5 (lima) tahun dan dapat diperpanjang.'),
    ).toBe(false);
  });

  it('count a date as the figure a "when" question asks', () => {
    expect(
      answersIntent(
        { intent: 'figure' },
        'Tahun Anggaran adalah masa mulai dari tanggal 1 Januari sampai 31 Desember.',
      ),
    ).toBe(true);
  });
});

describe('figure questions', () => {
  it('do not take a fine for the figure asked', () => {
    expect(answersIntent({ intent: 'figure' }, 'dipidana dengan denda paling banyak Rp1.000.000,00')).toBe(
      false,
    );
  });
});
