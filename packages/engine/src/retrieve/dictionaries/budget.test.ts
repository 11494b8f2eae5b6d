import { describe, expect, it } from 'vitest';
import { corpusText, demoGlossary, normalizeForPhrases } from './corpus-text.js';

const laws = corpusText('apbn-uu');

/** The dictionary of the demo glossary (corpora/apbn-uu/glossary.json). */
const BUDGET_DICTIONARY = demoGlossary('budget').dictionary;

describe('budget dictionary (UU APBN)', () => {
  it('covers the everyday budget terms listed here', () => {
    const terms = new Set(BUDGET_DICTIONARY.flatMap((entry) => entry.terms));
    const listed = [
      'apbn',
      'apbd',
      'dau',
      'dak',
      'dana desa',
      'defisit',
      'sbn',
      'kurs',
      'lifting',
      'triliun',
      'miliar',
      'pendapatan negara',
      'belanja negara',
      'pembiayaan',
      'subsidi',
      'transfer ke daerah',
    ];
    expect(listed.filter((term) => !terms.has(term))).toEqual([]);
  });

  it('expands only into phrases that occur in the UU APBN texts', () => {
    const missing = BUDGET_DICTIONARY.flatMap((entry) =>
      (typeof entry.expansion === 'string' ? [entry.expansion] : entry.expansion).filter(
        (phrase) => !laws.includes(normalizeForPhrases(phrase)),
      ),
    );
    expect(missing).toEqual([]);
  });

  it('has lower-case, unique terms', () => {
    const all = BUDGET_DICTIONARY.flatMap((entry) => entry.terms);
    expect(all.filter((term) => term !== term.toLowerCase())).toEqual([]);
    expect(all.filter((term, index) => all.indexOf(term) !== index)).toEqual([]);
  });
});
