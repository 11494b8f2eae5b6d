import { describe, expect, it } from 'vitest';
import { glossarySummary, glossaryText } from './glossary-text.js';

describe('glossary panel text', () => {
  it('shows the stored glossary as JSON, or an empty one to start from', () => {
    const glossary = {
      format: 'saksi-glossary' as const,
      version: 1 as const,
      pattern_groups: ['budget' as const],
      dictionary: [{ terms: ['dau'], expansion: 'Dana Alokasi Umum' }],
      translations: [{ from: 'en' as const, entries: [{ terms: ['deficit'], expansion: 'defisit' }] }],
    };
    expect(JSON.parse(glossaryText({ glossary }))).toEqual(glossary);
    expect(JSON.parse(glossaryText({ glossary: null }))).toEqual({
      format: 'saksi-glossary',
      version: 1,
      pattern_groups: [],
      dictionary: [],
      translations: [],
    });
    expect(glossarySummary(glossary)).toEqual({ entries: 1, translations: 1, groups: 'budget' });
    expect(glossarySummary({ format: 'saksi-glossary', version: 1 })).toEqual({
      entries: 0,
      translations: 0,
      groups: '–',
    });
  });
});
