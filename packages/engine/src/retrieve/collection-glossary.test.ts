import { canonicalize, sha256Hex } from '@saksi/proof';
import { describe, expect, it } from 'vitest';
import { isEngineError } from '../errors.js';
import {
  EMPTY_GLOSSARY,
  glossarySha256,
  MAX_GLOSSARY_ENTRIES,
  MAX_TERM_LENGTH,
  parseGlossary,
  parseGlossaryText,
  translationEntries,
} from './collection-glossary.js';
import { corpusText, DEMO_FOLDERS, demoGlossary, normalizeForPhrases } from './dictionaries/corpus-text.js';
import { rewriteQueryDetailed, translate } from './rewrite.js';

const corpora = {
  traffic: corpusText('uu-22-2009-llaj'),
  budget: corpusText('apbn-uu'),
  docs: corpusText('docs-redux/docs', { recursive: true }),
};
const groups = Object.keys(DEMO_FOLDERS) as (keyof typeof DEMO_FOLDERS)[];

/** The `INVALID_GLOSSARY` message `value` is refused with. */
function refusal(value: unknown): string {
  try {
    parseGlossary(value);
  } catch (error) {
    if (isEngineError(error, 'INVALID_GLOSSARY')) return error.message;
    throw error;
  }
  throw new Error('accepted');
}

const base = { format: 'saksi-glossary', version: 1 };

describe('glossary file format', () => {
  it('accepts the demo glossaries, which enable their own pattern group only', () => {
    for (const group of groups) expect(demoGlossary(group).pattern_groups).toEqual([group]);
    expect(parseGlossary({ ...base })).toEqual(EMPTY_GLOSSARY);
  });

  it('refuses a bad document with INVALID_GLOSSARY naming the bad entry', () => {
    expect(refusal([])).toContain('must be a JSON object');
    expect(refusal({ ...base, version: 2 })).toContain('version must be 1');
    expect(refusal({ ...base, format: 'other' })).toContain('format');
    expect(refusal({ ...base, extra: 1 })).toContain('extra is not a known field');
    expect(refusal({ ...base, pattern_groups: ['weather'] })).toContain('pattern_groups[0] must be one of');
    expect(
      refusal({
        ...base,
        dictionary: [
          { terms: ['a'], expansion: 'A' },
          { terms: [], expansion: 'B' },
        ],
      }),
    ).toContain('dictionary[1].terms must be a non-empty array');
    expect(refusal({ ...base, dictionary: [{ terms: ['Lampu'], expansion: 'X' }] })).toContain(
      'dictionary[0].terms[0] ("Lampu") must be lower case',
    );
    expect(
      refusal({
        ...base,
        dictionary: [
          { terms: ['sim'], expansion: 'X' },
          { terms: ['sim'], expansion: 'Y' },
        ],
      }),
    ).toContain('dictionary[1].terms[0] ("sim") repeats dictionary[0].terms[0]');
    expect(
      refusal({ ...base, dictionary: [{ terms: ['x'.repeat(MAX_TERM_LENGTH + 1)], expansion: 'X' }] }),
    ).toContain(`dictionary[0].terms[0] is longer than ${MAX_TERM_LENGTH} characters`);
    expect(refusal({ ...base, dictionary: [{ terms: ['a\u0000b'], expansion: 'X' }] })).toContain('control');
    expect(refusal({ ...base, dictionary: [{ terms: ['a'], expansion: [] }] })).toContain(
      'dictionary[0].expansion must be a phrase',
    );
    expect(refusal({ ...base, translations: [{ from: 'fr', entries: [] }] })).toContain(
      'translations[0].from must be one of id, en',
    );
    expect(
      refusal({ ...base, translations: [{ from: 'en', entries: [{ terms: ['fine'], expansion: 7 }] }] }),
    ).toContain('translations[0].entries[0].expansion');
    const many = Array.from({ length: MAX_GLOSSARY_ENTRIES + 1 }, (_, index) => ({
      terms: [`t${index}`],
      expansion: 'X',
    }));
    expect(refusal({ ...base, dictionary: many })).toContain(
      `dictionary[${MAX_GLOSSARY_ENTRIES}] is one entry too many`,
    );
    expect(() => parseGlossaryText('{"format":')).toThrow(/not valid JSON/);
  });

  it('hashes the canonical JSON, whatever the key order', () => {
    const glossary = demoGlossary('budget');
    expect(glossarySha256(glossary)).toBe(sha256Hex(canonicalize(glossary)));
    const reordered = parseGlossary(
      JSON.parse(JSON.stringify({ ...glossary, version: 1, format: 'saksi-glossary' })),
    );
    expect(glossarySha256(reordered)).toBe(glossarySha256(glossary));
    expect(glossarySha256(EMPTY_GLOSSARY)).not.toBe(glossarySha256(glossary));
  });
});

describe('bilingual glossary (the demo glossaries’ translations)', () => {
  it('expands only into phrases that occur in its group’s documents', () => {
    for (const group of groups) {
      const text = corpora[group];
      const missing = demoGlossary(group).translations.flatMap((translation) =>
        translation.entries.flatMap((entry) =>
          (typeof entry.expansion === 'string' ? [entry.expansion] : entry.expansion).filter(
            (phrase) => !text.includes(normalizeForPhrases(phrase)),
          ),
        ),
      );
      expect(missing, group).toEqual([]);
    }
  });

  it('translates the domain terms and keeps the other content words', () => {
    const traffic = translationEntries(demoGlossary('traffic'), 'en');
    expect(translate('What is the fine for running a red light?', traffic, 'en')).toBe(
      'denda melanggar Alat Pemberi Isyarat Lalu Lintas',
    );
    expect(translate("Do I need a driver's license to ride a scooter?", traffic, 'en')).toBe(
      'need Surat Izin Mengemudi mengemudikan Sepeda Motor',
    );
    expect(translate('Nothing here matches', traffic, 'en')).toBeUndefined();
    expect(translationEntries(demoGlossary('traffic'), 'id')).toEqual([]);
    expect(translationEntries(null, 'en')).toEqual([]);
  });

  it('adds a translated variant for a question in the other language, which the dictionaries then rewrite', () => {
    const traffic = rewriteQueryDetailed('What is the fine for running a red light?', {
      language: 'id',
      glossary: demoGlossary('traffic'),
    });
    expect(traffic.variants.map((variant) => variant.kind)).toEqual(['original', 'translated', 'phrases']);
    expect(traffic.variants[1]).toEqual({
      text: 'denda melanggar Alat Pemberi Isyarat Lalu Lintas',
      weight: 2,
      kind: 'translated',
    });
    // The penalty rule reads the translation ("denda").
    expect(traffic.hints.kinds).toContain('sanction');

    const budget = rewriteQueryDetailed('How much is the state revenue in the 2023 budget?', {
      language: 'id',
      glossary: demoGlossary('budget'),
    });
    expect(budget.variants.find((variant) => variant.kind === 'translated')?.text).toContain(
      'anggaran Pendapatan Negara',
    );
    expect(budget.hints.fiscal_year).toBe(2023);
    expect(budget.hints.kinds).toContain('figure');

    const docs = rewriteQueryDetailed('Bagaimana cara menguji komponen yang memakai Redux?', {
      language: 'en',
      glossary: demoGlossary('docs'),
    });
    expect(docs.variants.find((variant) => variant.kind === 'translated')?.text).toBe(
      'how to testing tests component use redux',
    );
    // Without a glossary, nothing is translated.
    expect(
      rewriteQueryDetailed('What is the fine for running a red light?', { language: 'id' }).variants,
    ).toHaveLength(1);
  });

  it('leaves a question in the collection’s language untranslated', () => {
    const variants = rewriteQueryDetailed('Berapa denda menerobos lampu merah?', {
      language: 'id',
      glossary: demoGlossary('traffic'),
    }).variants;
    expect(variants.some((variant) => variant.kind === 'translated')).toBe(false);
    const english = rewriteQueryDetailed('what is a reducer', {
      language: 'en',
      glossary: demoGlossary('docs'),
    });
    expect(english.variants.some((variant) => variant.kind === 'translated')).toBe(false);
  });
});
