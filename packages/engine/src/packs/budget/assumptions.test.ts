import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComposedClaim } from '../../answer/compose.js';
import { understand } from '../../answer/understand.js';
import type { Collection } from '../../collections.js';
import type { RetrievedChunk } from '../../retrieve/retrieve.js';
import {
  assumptionClaims,
  assumptionsAsked,
  misreadAssumption,
  spelledValue,
  writtenValue,
} from './assumptions.js';

const corpus = path.resolve(import.meta.dirname, '../../../../../../shared/data/corpora/apbn-uu');

describe('assumptionsAsked', () => {
  it.each([
    ['Asumsi kurs rupiah di APBN 2022 berapa?', ['nilai_tukar']],
    ['What exchange rate does the 2022 budget assume?', ['nilai_tukar']],
    ['Asumsi ICP dan lifting minyak untuk APBN 2023 berapa?', ['harga_minyak', 'lifting_minyak']],
    ['Asumsi lifting minyak dan gas bumi di APBN 2020 berapa?', ['lifting_minyak', 'lifting_gas']],
    ['berapa lifting di APBN 2020?', ['lifting_minyak', 'lifting_gas']],
    ['lifting gas tahun 2019?', ['lifting_gas']],
    ['asumsi inflasi dan pertumbuhan ekonomi 2023', ['inflasi', 'pertumbuhan_ekonomi']],
    ['Berapa defisit APBN 2023?', []],
    ['Pembiayaan SBN tahun 2023 berapa?', []],
    ['asumsi suku bunga SUN 10 tahun di APBN 2022', ['suku_bunga']],
  ])('%s', (question, expected) => {
    expect(assumptionsAsked(question)).toEqual(expected);
  });
});

describe('spelledValue and writtenValue', () => {
  it('read the words and the digits of a value the same way', () => {
    expect(spelledValue('empat belas ribu empat ratus rupiah')).toBe('14400');
    expect(writtenValue('Rp14.400,00 (empat belas ribu empat ratus rupiah) per satu dolar')).toBe('14400');
    expect(spelledValue('tiga koma lima persen')).toBe('3,5');
    expect(writtenValue('3,5% (tiga koma lima persen)')).toBe('3,5');
    expect(spelledValue('satu ^juta seratus sembilan puluh satu ribu')).toBe('1191000');
    expect(writtenValue('1.191.000 (satu juta …) barel')).toBe('1191000');
    expect(spelledValue('empat puluh lima dolar Amerika Serikat')).toBe('45');
    expect(writtenValue('USD45 (empat puluh lima dolar Amerika Serikat) per barel')).toBe('45');
  });

  it('refuse what is not number words', () => {
    expect(spelledValue('lihat lampiran')).toBeUndefined();
    expect(spelledValue('tiga koma lima koma dua')).toBeUndefined();
    expect(spelledValue('3,5 persen')).toBeUndefined();
  });
});

describe('assumptionClaims', () => {
  let test: TestEngine;
  let apbn: Collection;

  beforeAll(async () => {
    test = await openTestEngine();
    for (const [file, fiscal_year] of [
      ['uu-2016-18.md', 2017],
      ['uu-2022-28.md', 2023],
    ] as const) {
      const bytes = new Uint8Array(readFileSync(path.join(corpus, file)));
      await test.engine.ingest(
        'apbn',
        { bytes, filename: file, fiscal_year },
        { language: 'id', profile: { domain: 'budget' } },
      );
    }
    apbn = await test.engine.collections.get('apbn');
  });

  afterAll(async () => {
    await test.close();
  });

  async function ask(question: string) {
    const sources: RetrievedChunk[] = [];
    const plan = understand(question, { collectionLanguage: 'id' });
    const { claims, misread } = await assumptionClaims(test.engine.db, apbn, plan, sources);
    return { claims, misread, sources };
  }

  /** "Menurut <label>, <name>: <value> [n]" from exact spans of the cited chunk. */
  function expectComposed(claim: ComposedClaim, sources: readonly RetrievedChunk[]): void {
    for (const { sourceIndex, span } of claim.evidence)
      expect(sources[sourceIndex]!.text.slice(span.start, span.end)).toBe(span.text);
    const [name, value] = claim.evidence;
    const source = sources[name!.sourceIndex]!;
    expect(claim.composition?.template).toBe('budget.figure');
    expect(claim.text).toBe(`Menurut ${source.citation.label}, ${name!.span.text}: ${value!.span.text} [1]`);
  }

  it('states the ICP of a budget from its Penjelasan Umum, name and value as exact spans', async () => {
    const { claims, sources } = await ask('Asumsi harga ICP di APBN 2017 berapa dolar per barel?');
    expect(claims).toHaveLength(1);
    expect(sources[0]!.citation.label).toBe('Penjelasan Umum UU 18/2016');
    expectComposed(claims[0]!, sources);
    expect(claims[0]!.evidence[1]!.span.text).toBe(
      'USD45 (empat puluh lima dolar Amerika Serikat) per barel',
    );
  });

  it('answers two assumptions of one year together, the second linked to the first', async () => {
    const { claims, sources } = await ask('Asumsi ICP dan lifting minyak untuk APBN 2023 berapa?');
    expect(claims.map((claim) => claim.evidence[1]!.span.text)).toEqual([
      '$90 (sembilan puluh dollar) Amerika Serikat per barel',
      '660.000 (enam ratus enam puluh ribu) barel per hari',
    ]);
    expect(claims.map((claim) => claim.linked ?? false)).toEqual([false, true]);
    for (const claim of claims) expectComposed(claim, sources);
  });

  it('never states a value OCR split or misread, but says the statute states one', async () => {
    // UU 28/2022 writes the 2023 exchange rate as "Rpl4.800,00".
    expect(await ask('Asumsi kurs APBN 2023 berapa?')).toMatchObject({ claims: [], misread: true });
    // UU 18/2016 writes the 2017 oil lifting as "lif ting minyak mentah … 8 1 5.000": not stated.
    expect((await ask('Berapa asumsi lifting minyak APBN 2017?')).claims).toEqual([]);
    const plan = understand('Asumsi kurs APBN 2023 berapa?', { collectionLanguage: 'id' });
    expect(await misreadAssumption(test.engine.db, apbn, plan)).toBe('Penjelasan Umum UU 28/2022');
  });

  it('needs a year the collection has and an assumption', async () => {
    for (const question of [
      'Berapa asumsi kurs rupiah?',
      'Berapa defisit APBN 2023?',
      'Asumsi kurs APBN 2019 berapa?',
    ]) {
      expect(await ask(question)).toMatchObject({ claims: [], misread: false });
    }
  });
});
