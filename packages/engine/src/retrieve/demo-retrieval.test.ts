/**
 * Retrieval on the real demo corpora (UU 22/2009, the UU APBN texts, the Redux docs), loaded as the
 * demo loads them: the bilingual glossary, headings in the lexical document, definitions, everyday
 * spellings, and the places per Pasal (docs/engine.md, "Retrieval").
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../test/engine-fixture.js';
import { loadDemoCollections } from '../demo.js';
import type { RetrievedChunk } from './retrieve.js';

const corpora = path.resolve(import.meta.dirname, '../../../../corpora');

let test: TestEngine;
beforeAll(async () => {
  test = await openTestEngine();
  const loaded = await loadDemoCollections(test.engine, corpora);
  expect(loaded.failed).toBe(0);
}, 600_000);
afterAll(async () => {
  await test?.close();
});

async function top(collection: string, question: string, k = 5): Promise<RetrievedChunk[]> {
  return (await test.engine.query(collection, { question, top_k: k })).results;
}

const pasalOf = (result: RetrievedChunk) => result.legal?.pasal;
const fileOf = (result: RetrievedChunk) => result.document.filename;

describe('cross-language retrieval (the bilingual glossary)', () => {
  it('finds the penalty for running a red light, asked in English, in UU 22/2009 Pasal 287', async () => {
    const result = await test.engine.query('lalu-lintas', {
      question: 'What is the fine for running a red light?',
      top_k: 5,
    });
    expect(result.parameters.rewrite_variants.map((variant) => variant.kind)).toContain('translated');
    expect(result.results.map(pasalOf)).toContain('287');
  });

  it('finds the state revenue of the 2023 budget, asked in English, in UU 28/2022 Pasal 3', async () => {
    const results = await top('apbn', 'How much is the state revenue in the 2023 budget?');
    expect(results.every((result) => result.document.fiscal_year === 2023)).toBe(true);
    expect(results.some((result) => fileOf(result) === 'uu-2022-28.md' && pasalOf(result) === '3')).toBe(
      true,
    );
  });

  it('finds the docs page for a question asked in Indonesian', async () => {
    const testing = await top('docs', 'Bagaimana cara menguji komponen yang memakai Redux?');
    expect(testing.map(fileOf)).toContain('docs/usage/WritingTests.mdx');
    const when = await top('docs', 'Kapan sebaiknya saya memakai Redux?');
    expect(when.map(fileOf)).toContain('docs/faq/General.md');
  });
});

describe('ranking', () => {
  it('counts the headings above a chunk: an API page’s "Returns" section answers what a function returns', async () => {
    const results = await top('docs', 'What does combineReducers take as input and what does it return?');
    expect(results.map(fileOf)).toContain('docs/api/combineReducers.md');
  });

  it('prefers the passage that defines the word a "what is" question asks about', async () => {
    const results = await top('docs', 'what is the store?');
    expect(results.some((result) => result.citation.section_path?.includes('Terminology'))).toBe(true);
  });

  it('reads everyday spellings ("ngalah", "nyebrang") as the statute’s words', async () => {
    const results = await top(
      'lalu-lintas',
      'Kalau nggak ngalah sama pejalan kaki yang nyebrang, dendanya berapa?',
    );
    expect(results.map(pasalOf)).toContain('284');
  });

  it('gives one Pasal at most two of the top places', async () => {
    for (const question of ['denda', 'Surat Izin Mengemudi', 'Pasal 106 helm sabuk keselamatan']) {
      const results = await top('lalu-lintas', question, 10);
      const count = new Map<string, number>();
      for (const result of results) {
        const unit = `${pasalOf(result)}${result.legal?.penjelasan ? ' penjelasan' : ''}`;
        count.set(unit, (count.get(unit) ?? 0) + 1);
      }
      expect(Math.max(...count.values()), question).toBeLessThanOrEqual(2);
    }
  });
});
