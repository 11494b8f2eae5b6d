/**
 * A collection's lexeme statistics: the lexemes of a text under the collection's text-search
 * configuration, and how many of its chunks contain each (document frequency) with BM25's idf. The
 * lexical arm weighs query terms with them; answering decides with them which words of a question
 * are distinctive and whether the evidence covers those words (docs/engine.md).
 */
import type { Collection } from '../collections.js';
import type { Queryable } from '../db/database.js';
import { keywordDocumentFrequencies } from './keyword-index.js';

export interface LexemeStatistic {
  lexeme: string;
  /** Chunks of the collection containing the lexeme. */
  df: number;
  /** BM25 idf, `ln((N − df + 0.5) / (df + 0.5) + 1)`; a lexeme in no chunk gets the idf of df = 0. */
  idf: number;
}

/** Document frequencies per collection, keyed by the collection's chunk count (a new document changes it). */
const documentFrequencies = new Map<string, { total: number; df: Map<string, number> }>();

/** The distinct lexemes of each text, in the collection's text-search configuration. */
export async function lexemesOf(
  db: Queryable,
  collection: Pick<Collection, 'text_search_config'>,
  texts: readonly string[],
): Promise<string[][]> {
  if (texts.length === 0) return [];
  const result = await db.query<{ ordinal: number; lexemes: string[] | null }>(
    `SELECT t.ordinal::integer AS ordinal, tsvector_to_array(to_tsvector($1::regconfig, t.text)) AS lexemes
       FROM unnest($2::text[]) WITH ORDINALITY AS t(text, ordinal)`,
    [collection.text_search_config, [...texts]],
  );
  const lists: string[][] = texts.map(() => []);
  for (const row of result.rows) lists[row.ordinal - 1] = row.lexemes ?? [];
  return lists;
}

/**
 * Document frequency (from the keyword index) and idf of each lexeme in the collection's READY and
 * archived chunks.
 */
export async function lexemeStatistics(
  db: Queryable,
  collection: Pick<Collection, 'id'>,
  lexemes: readonly string[],
): Promise<{ total: number; statistics: Map<string, LexemeStatistic> }> {
  const totals = await db.query<{ total: number }>(
    "SELECT COALESCE(sum(chunk_count), 0)::integer AS total FROM documents WHERE collection_id = $1 AND status IN ('READY', 'ARCHIVED')",
    [collection.id],
  );
  const total = Math.max(1, totals.rows[0]?.total ?? 0);
  let cache = documentFrequencies.get(collection.id);
  if (!cache || cache.total !== total) {
    cache = { total, df: new Map() };
    documentFrequencies.set(collection.id, cache);
  }
  const missing = [...new Set(lexemes)].filter((lexeme) => !cache!.df.has(lexeme));
  if (missing.length > 0) {
    const counts = await keywordDocumentFrequencies(db, collection.id, missing);
    for (const [lexeme, df] of counts) cache.df.set(lexeme, df);
  }
  const statistics = new Map<string, LexemeStatistic>();
  for (const lexeme of lexemes) {
    const df = cache.df.get(lexeme) ?? 0;
    statistics.set(lexeme, { lexeme, df, idf: Math.log((total - df + 0.5) / (df + 0.5) + 1) });
  }
  return { total, statistics };
}
