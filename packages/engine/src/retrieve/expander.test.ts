import { describe, expect, it } from 'vitest';
import { demoGlossary } from './dictionaries/corpus-text.js';
import { expandQuery, type QueryExpander } from './expander.js';

const glossary = demoGlossary('traffic');

/** A test double for the language-model expander (the model-backed one is tested in llm/expander.test.ts). */
function fixedExpander(legalQuery: string, phrases: string[]): QueryExpander & { calls: string[] } {
  const calls: string[] = [];
  return {
    version: 'test-double/1',
    calls,
    async doExpand(question, options) {
      calls.push(`${options.language}:${question}`);
      return { legalQuery, phrases };
    },
  };
}

describe('LLM expansion merge', () => {
  it('adds the legal query at the legal weight and the key phrases at the phrases weight', async () => {
    const expander = fixedExpander('Pengemudi yang menggunakan telepon saat mengemudi', [
      'penuh konsentrasi',
      ' menggunakan telepon ',
      'penuh konsentrasi',
    ]);
    const result = await expandQuery('Main HP sambil nyetir didenda?', {
      language: 'id',
      glossary,
      profile: { rewrite_weights: { legal: 2.5, phrases: 0.6 } },
      expander,
    });
    expect(expander.calls).toEqual(['id:Main HP sambil nyetir didenda?']);
    expect(result.expander).toEqual({ version: 'test-double/1' });
    expect(result.variants.find((variant) => variant.kind === 'llm-legal')).toEqual({
      text: 'Pengemudi yang menggunakan telepon saat mengemudi',
      weight: 2.5,
      kind: 'llm-legal',
    });
    expect(result.variants.find((variant) => variant.kind === 'llm-phrases')).toEqual({
      text: 'penuh konsentrasi menggunakan telepon',
      weight: 0.6,
      kind: 'llm-phrases',
    });
    // The offline variants are still there, first.
    expect(result.variants.slice(0, 2).map((variant) => variant.kind)).toEqual(['original', 'legal']);
  });

  it('drops empty and duplicate output, and keeps the offline variants when the expander fails', async () => {
    const echo = await expandQuery('Apa itu parkir?', {
      language: 'id',
      glossary,
      expander: fixedExpander('Apa itu parkir?', ['', '  ']),
    });
    expect(echo.variants.filter((variant) => variant.kind.startsWith('llm-'))).toEqual([]);

    const failing: QueryExpander = {
      version: 'broken/1',
      doExpand: async () => {
        throw Object.assign(new Error('timeout'), { code: 'MODEL_TIMEOUT' });
      },
    };
    const failed = await expandQuery('Apa itu parkir?', { language: 'id', glossary, expander: failing });
    expect(failed.expander).toEqual({ version: 'broken/1', error: 'MODEL_TIMEOUT' });
    expect(failed.variants.map((variant) => variant.kind)).toEqual(['original', 'legal', 'phrases']);

    const plain = await expandQuery('Apa itu parkir?', { language: 'id', glossary });
    expect(plain.expander).toBeUndefined();
    expect(plain.variants).toEqual(failed.variants);
  });
});
