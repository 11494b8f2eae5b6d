import { describe, expect, it } from 'vitest';
import { corpusText, demoGlossary, normalizeForPhrases } from './corpus-text.js';

const docs = corpusText('docs-redux/docs', { recursive: true });

/** The dictionary of the demo glossary (corpora/docs-redux/glossary.json). */
const DOCS_DICTIONARY = demoGlossary('docs').dictionary;

describe('docs dictionary (Redux docs)', () => {
  it('expands only into phrases that occur in the docs', () => {
    const missing = DOCS_DICTIONARY.flatMap((entry) =>
      (typeof entry.expansion === 'string' ? [entry.expansion] : entry.expansion).filter(
        (phrase) => !docs.includes(normalizeForPhrases(phrase)),
      ),
    );
    expect(missing).toEqual([]);
  });

  it('has lower-case, unique terms so matching is predictable', () => {
    const all = DOCS_DICTIONARY.flatMap((entry) => entry.terms);
    expect(all.filter((term) => term !== term.toLowerCase())).toEqual([]);
    expect(all.filter((term, index) => all.indexOf(term) !== index)).toEqual([]);
  });
});
