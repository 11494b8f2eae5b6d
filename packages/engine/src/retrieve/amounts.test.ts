import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAmount } from '@saksi/proof';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  amountSpellings,
  amountVariants,
  retrieveAcrossYears,
  terbilang,
  yearComparison,
} from './amounts.js';
import { demoGlossary } from './dictionaries/corpus-text.js';
import { retrieveForQuestion } from './plan.js';
import { retrieve } from './retrieve.js';
import { rewriteQuery } from './rewrite.js';

describe('amount spellings', () => {
  it('spells an exact amount the other ways, in words too', () => {
    const spellings = amountSpellings(parseAmount('1,865,702,816,382,000 rupiah')!);
    expect(spellings).toContain('Rp1.865.702.816.382.000,00');
    expect(spellings).toContain('1.865.702.816.382.000');
    expect(spellings).toContain(
      'satu kuadriliun delapan ratus enam puluh lima triliun tujuh ratus dua miliar delapan ratus enam belas juta tiga ratus delapan puluh dua ribu',
    );
  });

  it('spells a rounded amount with its scale word in both languages', () => {
    const spellings = amountSpellings(parseAmount('Rp 222,5 T')!);
    expect(spellings).toContain('Rp222,5 triliun');
    expect(spellings).toContain('222.5 trillion');
  });

  it('writes numbers in Indonesian words', () => {
    expect(terbilang(1000n)).toBe('seribu');
    expect(terbilang(500_000n)).toBe('lima ratus ribu');
    expect(terbilang(111n)).toBe('seratus sebelas');
    expect(terbilang(0n)).toBe('nol');
  });

  it('adds one variant for a question with an amount, none without', () => {
    const [variant] = amountVariants('Pos mana yang nilainya 1,865,702,816,382,000 rupiah?');
    expect(variant?.kind).toBe('amount');
    expect(variant?.text).toContain('1.865.702.816.382.000');
    expect(amountVariants('Defisit APBN 2015 berapa? Pasal 18')).toEqual([]);
  });
});

describe('yearComparison', () => {
  it.each([
    ['bandingkan defisit 2015 dan 2016', [2015, 2016]],
    ['belanja negara naik dari 2019 ke 2020?', [2019, 2020]],
    ['Target penerimaan perpajakan 2020 vs 2023, selisihnya berapa?', [2020, 2023]],
  ])('%s', (question, years) => {
    expect(yearComparison(question)?.years).toEqual(years);
  });

  it('drops the other year from each per-year question', () => {
    const comparison = yearComparison(
      'Asumsi harga minyak (ICP) APBN 2017 dibanding APBN 2023, naik berapa?',
    );
    expect(comparison?.perYear.map((entry) => entry.fiscalYear)).toEqual([2017, 2023]);
    expect(comparison?.perYear[0]?.question).toContain('2017');
    expect(comparison?.perYear[0]?.question).not.toContain('2023');
    expect(comparison?.perYear[1]?.question).not.toContain('2017');
  });

  it('is undefined for one year named twice, or none', () => {
    expect(yearComparison('Kurs di APBN-P 2015 berapa? Di APBN 2015 awalnya?')).toBeUndefined();
    expect(yearComparison('Defisit itu apa?')).toBeUndefined();
    expect(yearComparison('Rp1.865.702.816.382.000,00')).toBeUndefined();
  });
});

describe('retrieveAcrossYears', () => {
  const corpus = path.resolve(import.meta.dirname, '../../../../corpora/apbn-uu');
  let test: TestEngine;
  beforeAll(async () => {
    test = await openTestEngine();
    for (const [file, fiscal_year] of [
      ['uu-2019-20.md', 2020],
      ['uu-2022-28.md', 2023],
      ['uu-2018-12.md', 2019],
    ] as const) {
      await test.engine.ingest(
        'apbn',
        {
          bytes: new Uint8Array(readFileSync(path.join(corpus, file))),
          filename: file,
          fiscal_year,
          document_type: 'UU APBN',
        },
        { language: 'id' },
      );
    }
  }, 120_000);
  afterAll(async () => {
    await test?.close();
  });

  it('returns chunks of both years’ UU APBN for a comparison question', async () => {
    const question = 'Target penerimaan perpajakan 2020 vs 2023, selisihnya berapa?';
    const comparison = yearComparison(question)!;
    const collection = await test.engine.collections.get('apbn');
    const byYear = new Map(
      comparison.perYear.map((entry) => [
        entry.fiscalYear,
        rewriteQuery(entry.question, { language: 'id', glossary: demoGlossary('budget') }),
      ]),
    );
    const result = await retrieveAcrossYears(test.engine.db, test.engine.embedding, collection, byYear, {
      topK: 6,
    });
    const years = result.results.map((chunk) => chunk.document.fiscal_year);
    expect(new Set(years)).toEqual(new Set([2020, 2023]));
    expect(result.results.map((chunk) => chunk.rank)).toEqual([1, 2, 3, 4, 5, 6]);
    // Interleaved: each year's best chunk (the search filtered to that year) leads, in year order.
    for (const [index, [year, variants]] of [...byYear].entries()) {
      const alone = await retrieve(test.engine.db, test.engine.embedding, collection, variants, {
        topK: 3,
        fiscalYear: year,
      });
      expect(result.results[index]?.chunk_id).toBe(alone.results[0]?.chunk_id);
      expect(alone.results.every((chunk) => chunk.document.fiscal_year === year)).toBe(true);
    }
  });

  it('prefers passages stating a figure for a figure question, and searches one year without its number', async () => {
    const collection = {
      ...(await test.engine.collections.get('apbn')),
      glossary: demoGlossary('budget'),
    };
    const question = 'Berapa target penerimaan perpajakan APBN 2020?';
    const planned = await retrieveForQuestion(test.engine.db, test.engine.embedding, collection, question, {
      topK: 5,
    });
    expect(planned.results.every((chunk) => chunk.document.fiscal_year === 2020)).toBe(true);
    // The year filter does the work of "2020"; the words searched no longer carry it.
    expect(planned.parameters.rewrite_variants.some((variant) => variant.text.includes('2020'))).toBe(false);
    expect(planned.results[0]?.ranks['figures']).toBe(1);
    const figure = /Rp\s?\d|\d{1,3}(?:[.,]\d{3}){2,}/;
    expect(planned.results[0]?.text).toMatch(figure);
    const variants = rewriteQuery(question, { language: 'id', glossary: collection.glossary });
    const plain = await retrieve(test.engine.db, test.engine.embedding, collection, variants, {
      topK: 5,
      fiscalYear: 2020,
    });
    const preferring = await retrieve(test.engine.db, test.engine.embedding, collection, variants, {
      topK: 5,
      fiscalYear: 2020,
      preferFigures: 2,
    });
    const withFigures = (results: typeof plain.results) =>
      results.filter((chunk) => figure.test(chunk.text)).length;
    expect(withFigures(preferring.results)).toBeGreaterThanOrEqual(withFigures(plain.results));
    expect(preferring.results.some((chunk) => chunk.ranks['figures'] !== undefined)).toBe(true);
    expect(plain.results.some((chunk) => chunk.ranks['figures'] !== undefined)).toBe(false);
  });

  it('rejects an empty set of years', async () => {
    const collection = await test.engine.collections.get('apbn');
    await expect(
      retrieveAcrossYears(test.engine.db, test.engine.embedding, collection, new Map()),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
