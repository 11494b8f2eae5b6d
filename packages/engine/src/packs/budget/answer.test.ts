import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAmounts, parseNumberWords } from '@saksi/proof';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComposedClaim } from '../../answer/compose.js';
import { understand } from '../../answer/understand.js';
import type { Collection } from '../../collections.js';
import type { Engine } from '../../engine.js';
import type { RetrievedChunk } from '../../retrieve/retrieve.js';
import { budgetFigureClaims, fiscalYearsAsked, formatDifference } from './answer.js';

const corpus = path.resolve(import.meta.dirname, '../../../../../../shared/data/corpora/apbn-uu');
const budgetProfile = { domain: 'budget' as const };

/** The fixed words certificate v1.1 allows for the budget templates (docs/certificate.md). */
const REGISTRY: Record<string, Record<'id' | 'en', readonly string[]>> = {
  'budget.figure': { id: ['Menurut ', ', ', ': ', ' '], en: ['According to ', ', ', ': ', ' '] },
  'budget.comparison': {
    id: ['Menurut ', ', ', ': ', ' ', '; menurut ', '. Selisihnya ', '.', ' sebesar ', ' (', ')'],
    en: ['According to ', ', ', ': ', ' ', '; according to ', '. The difference is ', '.', ' (', ')'],
  },
  'budget.figure-words': {
    id: ['Menurut ', ', ', ' sebesar ', ' (', ')', ' '],
    en: ['According to ', ', ', ': ', ' (', ')', ' '],
  },
};

/** `Rp` + the grouped integer + `,00` (id) or `.00` (en), as v1.1 writes a recomputed amount. */
function rupiah(value: bigint, language: 'id' | 'en'): string {
  const separator = language === 'id' ? '.' : ',';
  const grouped = (value < 0n ? -value : value).toString().replace(/\B(?=(\d{3})+(?!\d))/g, separator);
  return `Rp${grouped}${language === 'id' ? ',00' : '.00'}`;
}

/**
 * A composed claim's text recomputed from its parts and evidence as certificate v1.1 specifies —
 * written here independently of the engine's renderer, so the proof package's renderer can take its
 * place. Checks the registry's fixed words and that every evidence item is used.
 */
function renderPerSpec(claim: ComposedClaim, sources: readonly RetrievedChunk[]): string {
  const composition = claim.composition!;
  const used = new Set<number>();
  // An amount span in digits, or in words (a spelled amount: letters only).
  const amountOf = (index: number) => {
    used.add(index);
    const text = claim.evidence[index]!.span.text;
    if (!/\d/.test(text)) {
      const value = parseNumberWords(text);
      expect(value).toBeDefined();
      return value!;
    }
    const amounts = parseAmounts(text);
    expect(amounts).toHaveLength(1);
    return BigInt(amounts[0]!.value);
  };
  const text = composition.parts
    .map((part) => {
      if ('fixed' in part) {
        expect(REGISTRY[composition.template]![composition.language]).toContain(part.fixed);
        return part.fixed;
      }
      if ('span' in part) {
        used.add(part.span);
        return claim.evidence[part.span]!.span.text;
      }
      if ('cite' in part) {
        used.add(part.cite);
        const label = sources[claim.evidence[part.cite]!.sourceIndex]!.citation.label;
        expect(label).toBeTruthy();
        return label!;
      }
      if ('marker' in part) return `[${part.marker}]`;
      if ('spelled' in part) return rupiah(amountOf(part.spelled), composition.language);
      const [a, b] = part.difference;
      return rupiah(amountOf(b) - amountOf(a), composition.language);
    })
    .join('');
  expect([...used].sort()).toEqual(claim.evidence.map((_, index) => index));
  return text;
}

/** Every evidence span is the exact text of its source at its offsets. */
function expectExactSpans(claim: ComposedClaim, sources: readonly RetrievedChunk[]): void {
  for (const { sourceIndex, span } of claim.evidence)
    expect(sources[sourceIndex]!.text.slice(span.start, span.end)).toBe(span.text);
}

let test: TestEngine;
let engine: Engine;
let apbn: Collection;

beforeAll(async () => {
  test = await openTestEngine();
  engine = test.engine;
  for (const [file, fiscal_year] of [
    ['uu-2016-18.md', 2017],
    ['uu-2022-28.md', 2023],
  ] as const) {
    const bytes = new Uint8Array(readFileSync(path.join(corpus, file)));
    await engine.ingest(
      'apbn',
      { bytes, filename: file, fiscal_year },
      { language: 'id', profile: budgetProfile },
    );
  }
  apbn = await engine.collections.get('apbn');
});

afterAll(async () => {
  await test.close();
});

async function ask(question: string, sources: RetrievedChunk[] = [], collection = apbn) {
  const plan = understand(question, { collectionLanguage: 'id' });
  const claims = await budgetFigureClaims(engine.db, collection, plan, sources);
  return { claims, sources };
}

describe('budgetFigureClaims', () => {
  it('answers a figure question with the statute’s clause: budget.figure, cited, marked, exact', async () => {
    const { claims, sources } = await ask('Berapa defisit anggaran APBN 2023?');
    expect(claims).toHaveLength(1);
    const [claim] = claims;
    expect(claim!.composition).toEqual({
      template: 'budget.figure',
      language: 'id',
      parts: [
        { fixed: 'Menurut ' },
        { cite: 0 },
        { fixed: ', ' },
        { span: 0 },
        { fixed: ' ' },
        { marker: 1 },
      ],
    });
    expect(sources).toHaveLength(1);
    expect(sources[0]!.citation.label).toBe('Pasal 24 UU 28/2022');
    expect(claim!.text).toBe(renderPerSpec(claim!, sources));
    expect(claim!.text).toMatch(
      /^Menurut Pasal 24 UU 28\/2022, dalam Tahun Anggaran 2023 terdapat defisit anggaran sebesar Rp598\.151\.433\.061\.000,00 \(lima ratus .* rupiah\) \[1\]$/,
    );
    expect(claim!.statement).toBe(claim!.text.replace(/ \[1\]$/, ''));
    expectExactSpans(claim!, sources);
  });

  it('cites a chunk already among the sources by its index, without appending it again', async () => {
    const first = await ask('Berapa dana desa tahun 2023?');
    const retrieved = [{ ...first.sources[0]!, chunk_id: 'other' }, first.sources[0]!];
    const { claims, sources } = await ask('Dana desa 2023 dianggarkan berapa?', retrieved);
    expect(sources).toHaveLength(2);
    expect(claims[0]!.evidence[0]!.sourceIndex).toBe(1);
    expect(claims[0]!.text).toBe(renderPerSpec(claims[0]!, sources));
  });

  it('compares two years with both clauses and the difference of their amounts (four evidence items)', async () => {
    for (const question of [
      'Bandingkan dana desa tahun 2017 dengan 2023',
      'Dana desa naik berapa dari tahun 2017 ke 2023?',
    ]) {
      const { claims, sources } = await ask(question);
      expect(claims).toHaveLength(1);
      const [claim] = claims;
      expect(claim!.composition!.template).toBe('budget.comparison');
      expect(claim!.evidence).toHaveLength(4);
      expect(claim!.evidence[2]!.span.text).toBe('Rp60.000.000.000.000,00');
      expect(claim!.evidence[3]!.span.text).toBe('Rp70.000.000.000.000,00');
      expect(claim!.composition!.parts.slice(-3)).toEqual([
        { fixed: '. Selisihnya ' },
        { difference: [2, 3] },
        { fixed: '.' },
      ]);
      expect(claim!.text).toBe(renderPerSpec(claim!, sources));
      expect(claim!.text).toMatch(
        /^Menurut Pasal 9 ayat \(3\) UU 18\/2016, Dana Desa .* \[1\]; menurut Pasal 14 UU 28\/2022, Dana Desa .* \[2\]\. Selisihnya Rp10\.000\.000\.000\.000,00\.$/,
      );
      expect(claim!.statement).not.toMatch(/\[\d\]/);
      // The amount spans lie inside the clauses of the same chunks.
      expect(claim!.evidence[2]!.sourceIndex).toBe(claim!.evidence[0]!.sourceIndex);
      expect(claim!.evidence[3]!.sourceIndex).toBe(claim!.evidence[1]!.sourceIndex);
      expectExactSpans(claim!, sources);
    }
  });

  it('writes the fixed words in English for an English question', async () => {
    const { claims, sources } = await ask('Compare the village fund in 2017 and 2023');
    const [claim] = claims;
    expect(claim!.composition!.language).toBe('en');
    expect(claim!.text).toBe(renderPerSpec(claim!, sources));
    expect(claim!.text).toMatch(
      /^According to Pasal 9 .*; according to Pasal 14 .*\. The difference is Rp10,000,000,000,000\.00\.$/,
    );
  });

  it('states a misread figure through its words, and takes the difference of what they spell', async () => {
    // Belanja Negara 2017 is written "Tahun Anggaran 20 1 7 … Rp2 .080.45 1 . 168.747.000,0 0": its
    // digits confirm its words, so the answer states the amount the words spell, never the OCR text.
    const { claims, sources } = await ask('Bandingkan belanja negara 2017 dan 2023');
    const [claim] = claims;
    expect(claim!.composition!.template).toBe('budget.comparison');
    // 2023's digits are misread too ("Rp3.06 l. l 76…"): both figures are their words'.
    expect(claim!.composition!.parts.filter((part) => 'spelled' in part)).toHaveLength(2);
    expect(claim!.composition!.parts.some((part) => 'difference' in part)).toBe(true);
    expect(claim!.text).toBe(renderPerSpec(claim!, sources));
    expectExactSpans(claim!, sources);
    expect(claim!.text).toContain('Rp2.080.451.168.747.000,00');
    expect(claim!.text).toContain('Rp3.061.176.344.456.000,00');
    expect(claim!.text).toContain('Selisihnya Rp980.725.175.709.000,00.');
    expect(claim!.text).not.toMatch(/20 1 7|45 1/);
  });

  it('states each year of a figure question that names two, one claim and marker each', async () => {
    const { claims, sources } = await ask('Anggaran subsidi tahun 2017 dan 2023 masing-masing berapa?');
    // 2017's clause is OCR'd ("20 1 7", "Rp 1 60.055…"): stated through its words.
    expect(claims.map((claim) => claim.composition!.template)).toEqual([
      'budget.figure-words',
      'budget.figure',
    ]);
    expect(claims[0]!.text).toContain('Program Pengelolaan Subsidi sebesar Rp160.055.480.773.000,00 (');
    expect(claims[1]!.linked).toBe(true);
    expect(claims.map((claim) => claim.text.match(/\[(\d)\]$/)?.[1])).toEqual(['1', '2']);
    for (const claim of claims) expect(claim.text).toBe(renderPerSpec(claim, sources));
    expect(claims[1]!.text).toContain('Rp298.497.119.385.000,00');
  });

  it.each([
    ['a year the collection has no budget for', 'Berapa pendapatan negara di APBN 2024?'],
    ['a year whose figure is only misread (DAK 2023, "Rpl85.797…")', 'Berapa DAK tahun 2023?'],
    ['a share, not an amount', 'Defisit APBN 2023 berapa persen terhadap PDB?'],
    ['a realization', 'Berapa realisasi defisit APBN 2023?'],
    ['an amount per village', 'Berapa dana desa yang diterima setiap desa tahun 2023?'],
    ['no measure', 'Berapa anggaran Kementerian Pertahanan tahun 2023?'],
    ['no figure asked', 'Apa yang dimaksud dengan defisit anggaran?'],
    ['no year, in a collection of several years', 'Berapa defisit APBN?'],
    ['only the year of a statute’s number', 'Berapa defisit menurut UU 28/2022?'],
  ])('gives no claims for %s', async (_case, question) => {
    const { claims, sources } = await ask(question);
    expect(claims).toEqual([]);
    expect(sources).toEqual([]);
  });

  describe('on a collection of one amended budget (UU 3/2015, APBN-P 2015)', () => {
    let apbn2015: Collection;
    beforeAll(async () => {
      const bytes = new Uint8Array(readFileSync(path.join(corpus, 'uu-2015-3.md')));
      await engine.ingest(
        'apbn-2015',
        { bytes, filename: 'uu-2015-3.md', fiscal_year: 2015 },
        { language: 'id', profile: budgetProfile },
      );
      apbn2015 = await engine.collections.get('apbn-2015');
    });

    it('answers without a year when the collection states the measure for one fiscal year only', async () => {
      const { claims, sources } = await ask('Berapa defisit APBN?', [], apbn2015);
      expect(claims).toHaveLength(1);
      expect(claims[0]!.text).toContain('Rp222.506.897.630.000,00');
      expect(claims[0]!.text).toBe(renderPerSpec(claims[0]!, sources));
    });

    it('compares two measures of one year: revenue and spending, their difference the deficit', async () => {
      const { claims, sources } = await ask(
        'Bandingkan pendapatan negara dan belanja negara 2015',
        [],
        apbn2015,
      );
      const [claim] = claims;
      expect(claim!.composition!.template).toBe('budget.comparison');
      expect(claim!.evidence.map((evidence) => evidence.span.text).slice(2)).toEqual([
        'Rp1.761.642.817.235.000,00',
        'Rp1.984.149.714.865.000,00',
      ]);
      expect(claim!.text).toBe(renderPerSpec(claim!, sources));
      expect(claim!.text).toMatch(/Selisihnya Rp222\.506\.897\.630\.000,00\.$/);
    });

    it('answers the amended budget, but never in place of the original one asked for', async () => {
      expect((await ask('Berapa anggaran pendidikan APBN-P 2015?', [], apbn2015)).claims).toHaveLength(1);
      expect((await ask('Berapa anggaran pendidikan APBN 2015 awal?', [], apbn2015)).claims).toEqual([]);
    });
  });

  it('answers a question no intent rule recognized when it names a measure and a year', async () => {
    const { claims, sources } = await ask('What was the deficit in the 2023 budget?');
    expect(claims).toHaveLength(1);
    expect(claims[0]!.text).toMatch(
      /^According to Pasal 24 UU 28\/2022, .*Rp598\.151\.433\.061\.000,00 .*\[1\]$/,
    );
    expect(claims[0]!.text).toBe(renderPerSpec(claims[0]!, sources));
  });
});

describe('fiscalYearsAsked', () => {
  it.each([
    ['Berapa defisit APBN 2023 menurut UU 28/2022?', [2023]],
    ['Berapa defisit 2022 dan 2023?', [2022, 2023]],
    ['Defisit maksimal menurut UU Nomor 17 Tahun 2003', []],
    ['Dana desa 2017 dibanding 2023 menurut UU 18/2016', [2017, 2023]],
  ])('%s', (question, years) => {
    expect(fiscalYearsAsked(understand(question, { collectionLanguage: 'id' }))).toEqual(years);
  });
});

describe('formatDifference', () => {
  it('groups the digits and writes the cents as the language does', () => {
    expect(formatDifference(10_000_000_000_000n, 'id')).toBe('Rp10.000.000.000.000,00');
    expect(formatDifference(-269_867_616_967_000n, 'en')).toBe('Rp269,867,616,967,000.00');
    expect(formatDifference(0n, 'id')).toBe('Rp0,00');
    expect(formatDifference(999n, 'en')).toBe('Rp999.00');
  });
});
