import { describe, expect, it } from 'vitest';
import { corpusText, normalizeForPhrases } from './dictionaries/corpus-text.js';
import { GLOSSARIES, glossaryEntries } from './glossary.js';
import { rewriteQueryDetailed, translate } from './rewrite.js';

const corpora = {
  traffic: corpusText('uu-22-2009-llaj'),
  budget: corpusText('apbn-uu'),
  docs: corpusText('docs-redux/docs', { recursive: true }),
};

describe('bilingual glossary', () => {
  it('expands only into phrases that occur in its group’s documents', () => {
    for (const [group, glossary] of Object.entries(GLOSSARIES)) {
      const text = corpora[group as keyof typeof corpora];
      const missing = glossary.entries.flatMap((entry) =>
        (typeof entry.expansion === 'string' ? [entry.expansion] : entry.expansion).filter(
          (phrase) => !text.includes(normalizeForPhrases(phrase)),
        ),
      );
      expect(missing, group).toEqual([]);
    }
  });

  it('has lower-case terms, unique within each glossary', () => {
    for (const [group, glossary] of Object.entries(GLOSSARIES)) {
      const all = glossary.entries.flatMap((entry) => entry.terms);
      expect(
        all.filter((term) => term !== term.toLowerCase()),
        group,
      ).toEqual([]);
      expect(
        all.filter((term, index) => all.indexOf(term) !== index),
        group,
      ).toEqual([]);
    }
  });

  it('translates the domain terms and keeps the other content words', () => {
    const traffic = glossaryEntries(['traffic'], 'en', 'id');
    expect(translate('What is the fine for running a red light?', traffic, 'en')).toBe(
      'denda melanggar Alat Pemberi Isyarat Lalu Lintas',
    );
    expect(translate("Do I need a driver's license to ride a scooter?", traffic, 'en')).toBe(
      'need Surat Izin Mengemudi mengemudikan Sepeda Motor',
    );
    expect(translate('Nothing here matches', traffic, 'en')).toBeUndefined();
    expect(glossaryEntries(['traffic'], 'id', 'en')).toEqual([]);
  });

  it('adds a translated variant for a question in the other language, which the dictionaries then rewrite', () => {
    const traffic = rewriteQueryDetailed('What is the fine for running a red light?', {
      language: 'id',
      profile: { rewrite_rules: ['traffic'] },
    });
    expect(traffic.variants.map((variant) => variant.kind)).toEqual(['original', 'translated', 'phrases']);
    expect(traffic.variants[1]).toEqual({
      text: 'denda melanggar Alat Pemberi Isyarat Lalu Lintas',
      weight: 2,
      kind: 'translated',
    });
    // The penalty rule reads the translation ("denda").
    expect(traffic.hints.rules).toContain('penalty');

    const budget = rewriteQueryDetailed('How much is the state revenue in the 2023 budget?', {
      language: 'id',
      profile: { rewrite_rules: ['budget'] },
    });
    expect(budget.variants.find((variant) => variant.kind === 'translated')?.text).toContain(
      'anggaran Pendapatan Negara',
    );
    expect(budget.hints.fiscal_year).toBe(2023);
    expect(budget.hints.rules).toContain('figure');

    const docs = rewriteQueryDetailed('Bagaimana cara menguji komponen yang memakai Redux?', {
      language: 'en',
      profile: { rewrite_rules: ['docs'] },
    });
    expect(docs.variants.find((variant) => variant.kind === 'translated')?.text).toBe(
      'how to testing tests component use redux',
    );
  });

  it('leaves a question in the collection’s language untranslated', () => {
    const variants = rewriteQueryDetailed('Berapa denda menerobos lampu merah?', { language: 'id' }).variants;
    expect(variants.some((variant) => variant.kind === 'translated')).toBe(false);
    const english = rewriteQueryDetailed('what is a reducer', {
      language: 'en',
      profile: { rewrite_rules: ['docs'] },
    });
    expect(english.variants.some((variant) => variant.kind === 'translated')).toBe(false);
  });
});
