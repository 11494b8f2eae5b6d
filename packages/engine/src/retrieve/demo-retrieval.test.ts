/**
 * Retrieval on the real demo corpora (UU 22/2009, the UU APBN texts, the Redux docs), loaded as the
 * demo loads them: the bilingual glossary, headings in the lexical document, definitions, everyday
 * spellings, and the places per Pasal (docs/engine.md, "Retrieval"); and the keyword index against an
 * exhaustive BM25 on the labelled dev sets' questions: its early stop must not change the top 10
 * (docs/engine.md, "The keyword index").
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCollection } from '../collections.js';
import { loadDemoCollections } from '../demo.js';
import { withoutStopwords } from '../language/stopwords.js';
import {
  exhaustiveKeywordTopK,
  type KeywordFilters,
  type KeywordHit,
  type KeywordTerm,
  keywordTopK,
} from './keyword-index.js';
import { lexemeStatistics, lexemesOf } from './lexemes.js';
import type { RetrievedChunk } from './retrieve.js';

const corpora = path.resolve(import.meta.dirname, '../../../../corpora');
const evalSets = path.resolve(import.meta.dirname, '../../../../../shared/data/eval');

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

function questions(sets: readonly string[]): string[] {
  return sets
    .flatMap((set) => readFileSync(path.join(evalSets, `${set}.jsonl`), 'utf8').split('\n'))
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { question: string }).question);
}

async function termsOf(
  collectionName: string,
  question: string,
): Promise<{ id: string; terms: KeywordTerm[] }> {
  const collection = await getCollection(test.engine.db, collectionName);
  if (!collection) throw new Error(`No collection ${collectionName}.`);
  const [lexemes = []] = await lexemesOf(test.engine.db, collection, [
    withoutStopwords(question, collection.language),
  ]);
  const { statistics } = await lexemeStatistics(test.engine.db, collection, lexemes);
  return {
    id: collection.id,
    terms: [...statistics.values()].map((term) => ({ lexeme: term.lexeme, weight: term.idf, df: term.df })),
  };
}

/** Equal rankings: the same chunks in the same order, or different only among equal scores. */
function sameRanking(a: readonly KeywordHit[], b: readonly KeywordHit[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((hit, index) => {
    const other = b[index]!;
    if (Math.abs(hit.score - other.score) > 1e-4 * Math.max(1, hit.score)) return false;
    return (
      (hit.documentId === other.documentId && hit.position === other.position) ||
      Math.abs(hit.score - other.score) <= 1e-9 * Math.max(1, hit.score)
    );
  });
}

async function agreement(
  collectionName: string,
  sets: readonly string[],
  k: number,
  filters: KeywordFilters = {},
  tuning = {},
): Promise<{ equal: number; total: number; exact: number }> {
  let equal = 0;
  let exact = 0;
  const list = questions(sets);
  for (const question of list) {
    const { id, terms } = await termsOf(collectionName, question);
    const index = await keywordTopK(test.engine.db, id, terms, k, filters, tuning);
    const reference = await exhaustiveKeywordTopK(test.engine.db, id, terms, k, filters);
    if (sameRanking(index.hits, reference)) equal += 1;
    if (index.exact) exact += 1;
  }
  return { equal, total: list.length, exact };
}

describe('the keyword index', () => {
  it('finds the exhaustive BM25 top 10 for the traffic-law, budget and docs questions', async () => {
    for (const [collection, sets] of [
      ['lalu-lintas', ['lalin-dev', 'lalin-dev2', 'lalin-spec-cases']],
      ['apbn', ['apbn-dev', 'apbn-dev2']],
      ['docs', ['redux-dev', 'redux-dev2']],
    ] as const) {
      const { equal, total } = await agreement(collection, sets, 10);
      const set = sets.join(' + ');
      expect(total).toBeGreaterThan(20);
      expect(equal / total, `${set}: ${equal}/${total}`).toBeGreaterThanOrEqual(0.95);
    }
  }, 300_000);

  it('agrees with the exhaustive top 10 when it starts from rounds of one row, and with a year filter', async () => {
    // One row per lexeme in the first round and no summing after it: the bounds, the rescoring and
    // the later rounds all run, on the largest collection (the Redux docs) and on the statutes with a
    // year filter.
    const rounds = { firstRound: 1, sumPostings: 0 };
    const docs = await agreement('docs', ['redux-dev'], 10, {}, rounds);
    expect(docs.equal / docs.total).toBeGreaterThanOrEqual(0.95);
    const budget = await agreement('apbn', ['apbn-dev'], 20, { fiscalYear: 2023 }, rounds);
    expect(budget.equal / budget.total).toBeGreaterThanOrEqual(0.95);
  }, 300_000);

  it('sums every posting when its first round cannot prove the top k: exact, in two statements', async () => {
    const { equal, total, exact } = await agreement('docs', ['redux-dev'], 10, {}, { firstRound: 1 });
    expect(exact).toBe(total);
    expect(equal).toBe(total);
  }, 300_000);

  it('reads fewer rows than the lexemes have when the top k is settled early', async () => {
    const { id, terms } = await termsOf('docs', 'how do I use createSlice with extraReducers in a store');
    const total = await test.engine.db.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM keyword_postings WHERE collection_id = $1 AND lexeme = ANY($2::text[])',
      [id, terms.map((term) => term.lexeme)],
    );
    const search = await keywordTopK(test.engine.db, id, terms, 5, {}, { firstRound: 2 });
    expect(search.exact).toBe(true);
    expect(search.hits).toHaveLength(5);
    expect(search.rowsRead).toBeLessThan(total.rows[0]!.n);
  });

  it('stops at its row budget and says the result is not exact', async () => {
    const { id, terms } = await termsOf('docs', 'how do I use the store state and actions in a component');
    const search = await keywordTopK(
      test.engine.db,
      id,
      terms,
      50,
      {},
      { firstRound: 1, rowBudget: 3, sumPostings: 0 },
    );
    expect(search.exact).toBe(false);
    expect(search.hits.length).toBeGreaterThan(0);
  });

  it('answers odd questions in bounded work: 5,000 words, only stopwords, an unknown script', async () => {
    const words = readFileSync(path.join(corpora, 'uu-22-2009-llaj/uu-22-2009-llaj.fulltext.md'), 'utf8')
      .split(/\s+/)
      .slice(2_000, 7_000)
      .join(' ');
    const long = await test.engine.query('lalu-lintas', { question: words, top_k: 5 });
    expect(long.results.length).toBeLessThanOrEqual(5);
    const stopwords = await test.engine.query('lalu-lintas', { question: 'yang dan di ke dari', top_k: 5 });
    expect(Array.isArray(stopwords.results)).toBe(true);
    const script = await test.engine.query('lalu-lintas', { question: 'ᚠᚢᚦᚨᚱᚲ ᚷᚹᚺᚾ', top_k: 5 });
    expect(Array.isArray(script.results)).toBe(true);
  }, 120_000);

  it('drops a deleted document from the index and its frequencies', async () => {
    const ingested = await test.engine.ingest('lalu-lintas', {
      filename: 'kijang.md',
      bytes: new TextEncoder().encode(
        '# Kijang\n\nKijangmerah adalah kata yang hanya ada di sini. Kijangmerah lagi.\n',
      ),
    });
    const { id, terms } = await termsOf('lalu-lintas', 'kijangmerah');
    expect(terms).toHaveLength(1);
    const found = await keywordTopK(test.engine.db, id, terms, 5);
    expect(found.hits.map((hit) => hit.documentId)).toEqual([ingested.document.id]);
    await test.engine.documents.delete(ingested.document.id);
    const postings = await test.engine.db.query('SELECT 1 FROM keyword_postings WHERE document_id = $1', [
      ingested.document.id,
    ]);
    expect(postings.rows).toHaveLength(0);
    expect((await keywordTopK(test.engine.db, id, terms, 5)).hits).toEqual([]);
  }, 120_000);
});
