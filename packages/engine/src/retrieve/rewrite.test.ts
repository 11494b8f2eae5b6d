import { describe, expect, it } from 'vitest';
import { demoGlossary } from './dictionaries/corpus-text.js';
import {
  DEFAULT_REWRITE_WEIGHTS,
  rewriteQuery,
  rewriteQueryDetailed,
  rewriteWeights,
  ruleGroups,
} from './rewrite.js';

const traffic = demoGlossary('traffic');
const budget = demoGlossary('budget');
const docs = demoGlossary('docs');

describe('query rewriting', () => {
  it('turns everyday traffic words into the statute’s terms, weighted legal 2.0, phrases 0.8', () => {
    const variants = rewriteQuery('Kalau nerobos lampu merah kena denda berapa?', {
      language: 'id',
      glossary: traffic,
    });
    expect(variants[0]).toEqual({
      text: 'Kalau nerobos lampu merah kena denda berapa?',
      weight: 1,
      kind: 'original',
    });
    const legal = variants.find((variant) => variant.kind === 'legal')!;
    expect(legal).toEqual({
      text: 'Kalau melanggar aturan perintah atau larangan Alat Pemberi Isyarat Lalu Lintas kena denda berapa?',
      weight: 2,
      kind: 'legal',
    });
    // The statute phrases alone, with the penalty rule's wording: the penalty clauses of Pasal 273–317.
    expect(variants.find((variant) => variant.kind === 'phrases')).toEqual({
      text: 'melanggar aturan perintah atau larangan Alat Pemberi Isyarat Lalu Lintas dipidana dengan pidana kurungan paling lama denda paling banyak',
      weight: 0.8,
      kind: 'phrases',
    });
    expect(variants).toHaveLength(3);
  });

  it('adds a phrases variant for a pattern rule alone, and none for a single dictionary phrase', () => {
    expect(rewriteQuery('Sanksinya apa?', { language: 'id', glossary: traffic })).toEqual([
      { text: 'Sanksinya apa?', weight: 1, kind: 'original' },
      {
        text: 'dipidana dengan pidana kurungan paling lama denda paling banyak',
        weight: 0.8,
        kind: 'phrases',
      },
    ]);
    expect(
      rewriteQuery('kalau motor?', { language: 'id', glossary: traffic }).map((variant) => variant.kind),
    ).toEqual(['original', 'legal']);
  });

  it('matches whole words only, longest term first, and leaves English and unmatched questions alone', () => {
    expect(rewriteQuery('Bagaimana simulasi ekonomi?', { language: 'id', glossary: traffic })).toHaveLength(
      1,
    );
    expect(rewriteQuery('Do I need a SIM card?', { language: 'en', glossary: docs })).toHaveLength(1);
    expect(rewriteQuery('Berapa DAU?', { language: 'id', glossary: budget })[1]!.text).toBe(
      'Berapa DAU Dana Alokasi Umum?',
    );
    // "knalpot racing" is one term; "motor" inside it would be a second match if overlaps were allowed.
    const legal = rewriteQuery('knalpot racing di sepeda motor', { language: 'id', glossary: traffic })[1]!
      .text;
    expect(legal).toBe('knalpot persyaratan teknis dan laik jalan di Sepeda Motor');
  });

  it('matches a term carrying a clitic (-nya, -ku, -mu, -lah, -kah, -pun), and no longer word', () => {
    const plain = rewriteQuery('motor saya tidak ada spion, kena tilang?', {
      language: 'id',
      glossary: traffic,
    });
    const withNya = rewriteQuery('motor saya tidak ada spionnya, kena tilang?', {
      language: 'id',
      glossary: traffic,
    });
    const legalOf = (variants: typeof plain) => variants.find((variant) => variant.kind === 'legal')?.text;
    expect(legalOf(plain)).toContain('laik jalan');
    expect(legalOf(withNya)).toBe(legalOf(plain));
    // The question as asked is searched with the word the documents use.
    expect(withNya[0]!.text).toBe('motor saya tidak ada spion, kena tilang?');
    expect(
      legalOf(rewriteQuery('klaksonku mati, apakah melanggar?', { language: 'id', glossary: traffic })),
    ).toContain('laik jalan');
    // Any other ending is another word: "spionase" is not "spion".
    expect(
      legalOf(rewriteQuery('apa hukuman spionase?', { language: 'id', glossary: traffic })),
    ).toBeUndefined();
  });

  it('leaves statute wording in the question alone and keeps an abbreviation beside its expansion', () => {
    const legal = rewriteQuery('Penerimaan Negara Bukan Pajak (PNBP) dalam APBN 2018 berapa?', {
      language: 'id',
      glossary: budget,
    })[1]!.text;
    // "pajak" and "penerimaan negara" inside "Penerimaan Negara Bukan Pajak" are not everyday words here.
    expect(legal).not.toContain('Penerimaan Perpajakan');
    expect(legal).not.toContain('Pendapatan Negara');
    expect(legal).toContain('PNBP Penerimaan Negara Bukan Pajak');
    expect(legal).toContain('APBN Anggaran Pendapatan dan Belanja Negara');
    // A lower-case everyday word is replaced, not kept.
    expect(rewriteQuery('pajak tahun ini', { language: 'id', glossary: budget })[1]!.text).toBe(
      'Penerimaan Perpajakan tahun ini',
    );
  });

  it('reads weights from the collection profile, and rule groups from its glossary and profile', () => {
    const profile = { rewrite_weights: { legal: 3, phrases: 0.5 } };
    expect(rewriteWeights(profile)).toEqual({ legal: 3, original: 1, phrases: 0.5 });
    expect(rewriteWeights({ rewrite_weights: { legal: -1, original: 'x' } })).toEqual(
      DEFAULT_REWRITE_WEIGHTS,
    );
    expect(rewriteWeights(profile, { original: 1.5 })).toEqual({ legal: 3, original: 1.5, phrases: 0.5 });
    const variants = rewriteQuery('Pakai helm wajib nggak?', { language: 'id', profile, glossary: traffic });
    expect(variants.map((variant) => [variant.kind, variant.weight])).toEqual([
      ['original', 1],
      ['legal', 3],
      ['phrases', 0.5],
    ]);
    // A traffic collection does not expand budget words.
    expect(rewriteQuery('Berapa DAU?', { language: 'id', glossary: traffic })).toHaveLength(1);
    expect(ruleGroups(undefined, traffic)).toEqual(['traffic']);
    expect(ruleGroups({ rewrite_rules: ['budget', 'unknown'] }, traffic)).toEqual(['traffic', 'budget']);
    // Nothing configured: no group, whatever the language.
    expect(ruleGroups(undefined)).toEqual([]);
    expect(ruleGroups({ rewrite_rules: ['docs'] })).toEqual(['docs']);
  });

  it('gives an unconfigured collection no other collection’s words or rules', () => {
    // "tanggal berapa" in a ministry's own collection is not an amount question.
    for (const question of ['Tanggal berapa peraturan ini mulai berlaku?', 'Pasal berapa mengatur cuti?']) {
      const plain = rewriteQueryDetailed(question, { language: 'id' });
      expect(plain.hints.kinds).toEqual([]);
      expect(plain.variants.map((variant) => variant.kind)).toEqual(['original']);
      // The budget glossary's figure rule would mark it.
      expect(rewriteQueryDetailed(question, { language: 'id', glossary: budget }).hints.kinds).toEqual([
        'figure',
      ]);
    }
    expect(rewriteQuery('Kalau nerobos lampu merah kena denda berapa?', { language: 'id' })).toHaveLength(1);
    expect(rewriteQuery('how do I debug my app?', { language: 'en' })).toHaveLength(1);
  });

  it('gives a fiscal-year hint, and one variant per year for a comparison', () => {
    const single = rewriteQueryDetailed('Berapa defisit APBN tahun 2020?', {
      language: 'id',
      glossary: budget,
    });
    expect(single.hints.fiscal_year).toBe(2020);
    expect(single.hints.fiscal_years).toEqual([2020]);
    expect(single.variants.some((variant) => variant.kind.startsWith('year:'))).toBe(false);

    const compare = rewriteQueryDetailed('Bandingkan defisit 2015 dan 2016, naik atau turun?', {
      language: 'id',
      glossary: budget,
    });
    expect(compare.hints.fiscal_year).toBeUndefined();
    expect(compare.hints.fiscal_years).toEqual([2015, 2016]);
    const years = compare.variants.filter((variant) => variant.kind.startsWith('year:'));
    expect(years.map((variant) => variant.kind)).toEqual(['year:2015', 'year:2016']);
    expect(years[0]!.text).toContain('Defisit Anggaran');
    expect(years[0]!.text).toContain('Tahun Anggaran 2015');
    expect(years[0]!.text).not.toContain('2016');
    expect(years[1]!.text).not.toContain('2015');
    expect(years[0]!.weight).toBe(2);
    // Two years without a comparison word: hints only.
    const listed = rewriteQueryDetailed('Dana desa 2017 dan 2018', { language: 'id', glossary: budget });
    expect(listed.variants.some((variant) => variant.kind.startsWith('year:'))).toBe(false);
  });

  it('writes out everyday spellings before the dictionaries see the question', () => {
    const variants = rewriteQuery('Yg nggak ngalah sama orang yg nyebrang kena denda?', {
      language: 'id',
      glossary: traffic,
    });
    expect(variants[0]).toMatchObject({
      kind: 'original',
      text: 'yang nggak mengalah sama orang yang menyeberang kena denda?',
    });
    const legal = variants.find((variant) => variant.kind === 'legal')!;
    expect(legal.text).toContain('hak utama');
    expect(legal.text).toContain('tempat penyeberangan');
  });

  it('maps developer words to the docs’ terms in a docs collection', () => {
    const variants = rewriteQuery('how do I debug my app?', { language: 'en', glossary: docs });
    expect(variants.find((variant) => variant.kind === 'legal')?.text).toBe(
      'how do I Redux DevTools my app?',
    );
    // Not in an English collection without the group.
    expect(rewriteQuery('how do I debug my app?', { language: 'en' })).toHaveLength(1);
  });
});
