import { describe, expect, it } from 'vitest';
import { answersIntent, coverage, distinctiveText, relevanceOf } from './relevance.js';

describe('relevance', () => {
  it('keeps the words that say what the question is about', () => {
    expect(distinctiveText('Berapa anggaran pendapatan negara tahun 2019?')).toBe(
      'anggaran pendapatan negara tahun',
    );
    expect(distinctiveText('what exactly is a thunk?')).toBe('thunk');
    // The statute wording a pattern rule adds for a kind of question says nothing of its subject.
    expect(distinctiveText('parkir di trotoar dilarang wajib denda paling banyak')).toBe('parkir trotoar');
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

describe('words that name the kind of answer', () => {
  const terms = {
    wordings: [
      {
        lexemes: [
          { lexeme: 'balap', df: 2, idf: 5 },
          { lexeme: 'ancam', df: 4, idf: 4 },
          { lexeme: 'hukum', df: 40, idf: 2 },
        ],
        total: 14,
      },
    ],
    asked: new Set(['ancam', 'hukum']),
  };
  const plan = { intent: 'sanction' as const };

  it('are covered by evidence of that kind: a penalty answers "ancaman hukumannya"', () => {
    const penalty = 'berbalapan di Jalan dipidana dengan pidana kurungan paling lama 1 (satu) tahun';
    expect(relevanceOf(plan, terms, new Set(['balap']), penalty).score).toBe(1);
  });

  it('are not covered by evidence of another kind', () => {
    const rule = 'Pengemudi Kendaraan Bermotor di Jalan dilarang berbalapan dengan Kendaraan Bermotor lain.';
    // 6 / 14 of the words, and a rule is the wrong kind of statement for a sanction question.
    expect(relevanceOf(plan, terms, new Set(['balap']), rule).score).toBeCloseTo((6 / 14) * 0.6, 3);
  });

  it('cover "bandingkan … turun berapa" with the amounts a comparison states', () => {
    const comparison = {
      wordings: [
        {
          lexemes: [
            { lexeme: 'defisit', df: 9, idf: 3 },
            { lexeme: 'banding', df: 2, idf: 5 },
          ],
          total: 10,
        },
      ],
      asked: new Set(['banding']),
    };
    const amounts = 'terdapat defisit anggaran sebesar Rp598.151.433.061.000,00';
    expect(relevanceOf({ intent: 'comparison' }, comparison, new Set(['defisit']), amounts).score).toBe(1);
  });

  it('take a length of time for a duration question', () => {
    const duration = { intent: 'requirement' as const, requirement: 'duration' as const };
    expect(answersIntent(duration, 'STNK berlaku selama 5 (lima) tahun.')).toBe(true);
    expect(answersIntent(duration, 'STNK wajib dimiliki setiap Kendaraan Bermotor.')).toBe(false);
  });
});
