/**
 * The keyword index (docs/engine.md, "The keyword index"): BM25F impacts in impact order, so a query
 * finds its top k by reading the best postings of its lexemes and stopping once nothing unread can
 * enter the top k, whatever the number of chunks that contain them.
 *
 * A chunk's impact for a lexeme is BM25's term part before idf: `tf·(k1 + 1) / (tf + k1)`, where tf is
 * the lexeme's occurrences in the text normalized by the chunk's length against the collection's mean
 * (b), plus its occurrences in the headings above × the heading weight (BM25F). A query scores a
 * chunk Σ weight(t) · impact(t), weight being the lexeme's idf times its wording's weight.
 *
 * Postings live in `keyword_postings`, one row per lexeme and block of 64 chunks of a document, with
 * the block's highest impact; the rows of a lexeme are read highest first. The search (after the
 * threshold algorithms of Fagin et al. and MaxScore) keeps, per lexeme, the highest impact it has not
 * read, θ(t): a chunk it has not seen scores at most Σ weight(t)·θ(t), and a chunk it has seen at most
 * what it knows plus weight(t)·θ(t) for each lexeme whose block of that chunk it has not read. It reads
 * further until the k-th known score reaches both bounds, fetching the blocks a candidate still lacks by
 * key. A search that reads {@link BLOCK_BUDGET} blocks stops there and says it is not exact.
 */
import type { Queryable } from '../db/database.js';

/** Chunks per block: positions 0–63 of a document are block 0, and so on (the SQL function agrees). */
export const BLOCK_CHUNKS = 64;
/** Blocks read per lexeme in the first round; each later round reads twice as many. */
const FIRST_ROUND = 32;
/** Blocks one search reads at most before it stops with what it has (and reports `exact: false`). */
const BLOCK_BUDGET = 6_000;
/** Lexemes one search scores at most (the highest weights; a 5,000-word question stays bounded). */
export const MAX_KEYWORD_TERMS = 64;
/**
 * The mean chunk length of a collection is computed again, with every impact, when what has been
 * indexed since drifts from it by more than this share, while the collection is small enough for
 * that to be cheap; later documents rarely move the mean of a large collection.
 */
const MEAN_DRIFT = 0.25;
const REBUILD_MAX_CHUNKS = 20_000;

export interface KeywordTerm {
  lexeme: string;
  /** The lexeme's idf times its wording's weight; terms of weight 0 are ignored. */
  weight: number;
}

export interface KeywordFilters {
  documentType?: string;
  fiscalYear?: number;
  includeArchived?: boolean;
}

export interface KeywordHit {
  documentId: string;
  position: number;
  score: number;
}

/** How a search reads (the defaults are the engine's; tests shrink them to exercise every round). */
export interface KeywordTuning {
  /** Blocks read per lexeme in the first round (default {@link FIRST_ROUND}). */
  firstRound?: number;
  /** Blocks read at most (default {@link BLOCK_BUDGET}). */
  blockBudget?: number;
}

export interface KeywordSearch {
  hits: KeywordHit[];
  /** False when the search stopped at its block budget before the top k was certain. */
  exact: boolean;
  blocksRead: number;
  rounds: number;
}

function documentFilters(filters: KeywordFilters, params: unknown[], alias = 'd'): string {
  const clauses = [
    filters.includeArchived ? `${alias}.status IN ('READY', 'ARCHIVED')` : `${alias}.status = 'READY'`,
  ];
  if (filters.documentType !== undefined) {
    params.push(filters.documentType);
    clauses.push(`${alias}.document_type = $${params.length}`);
  }
  if (filters.fiscalYear !== undefined) {
    params.push(filters.fiscalYear);
    clauses.push(`${alias}.fiscal_year = $${params.length}`);
  }
  return clauses.join(' AND ');
}

interface Block {
  term: number;
  documentId: string;
  block: number;
  topImpact: number;
  positions: number[];
  impacts: number[];
}

interface Candidate {
  documentId: string;
  position: number;
  /** Σ weight · impact over the lexemes whose block of this chunk has been read. */
  known: number;
}

/** Where a term's reading stands: the last block read (keyset) and the highest impact not read. */
interface Cursor {
  lastImpact: number | null;
  lastDocument: string;
  lastBlock: number;
  /** Upper bound of the impacts not read yet; 0 once the term's postings are exhausted. */
  theta: number;
  exhausted: boolean;
}

const blockKey = (documentId: string, block: number) => `${documentId}\u0000${block}`;
const chunkKey = (documentId: string, position: number) => `${documentId}\u0000${position}`;

/** The top `k` chunks of `collectionId` for `terms` by BM25F, from the keyword index. */
export async function keywordTopK(
  db: Queryable,
  collectionId: string,
  terms: readonly KeywordTerm[],
  k: number,
  filters: KeywordFilters = {},
  tuning: KeywordTuning = {},
): Promise<KeywordSearch> {
  const budget = tuning.blockBudget ?? BLOCK_BUDGET;
  const scored = [...terms]
    .filter((term) => term.weight > 0 && Number.isFinite(term.weight))
    .sort((a, b) => b.weight - a.weight || (a.lexeme < b.lexeme ? -1 : 1))
    .slice(0, MAX_KEYWORD_TERMS);
  if (scored.length === 0 || k < 1) return { hits: [], exact: true, blocksRead: 0, rounds: 0 };
  const weights = scored.map((term) => term.weight);
  const cursors: Cursor[] = scored.map(() => ({
    lastImpact: null,
    lastDocument: '',
    lastBlock: 0,
    theta: Number.POSITIVE_INFINITY,
    exhausted: false,
  }));
  /** Per term, the blocks whose postings are known (read in order or fetched by key). */
  const known: Set<string>[] = scored.map(() => new Set());
  const candidates = new Map<string, Candidate>();
  let blocksRead = 0;
  let rounds = 0;

  const take = (block: Block) => {
    const key = blockKey(block.documentId, block.block);
    if (known[block.term]!.has(key)) return;
    known[block.term]!.add(key);
    const weight = weights[block.term]!;
    block.positions.forEach((position, index) => {
      const id = chunkKey(block.documentId, position);
      let candidate = candidates.get(id);
      if (!candidate) {
        candidate = { documentId: block.documentId, position, known: 0 };
        candidates.set(id, candidate);
      }
      candidate.known += weight * (block.impacts[index] ?? 0);
    });
  };
  /** What a candidate could still gain from the lexemes whose block of it has not been read. */
  const missing = (candidate: Candidate) => {
    const key = blockKey(candidate.documentId, Math.floor(candidate.position / BLOCK_CHUNKS));
    let bound = 0;
    cursors.forEach((cursor, term) => {
      if (!cursor.exhausted && !known[term]!.has(key)) bound += weights[term]! * cursor.theta;
    });
    return bound;
  };
  const kthKnown = () => {
    if (candidates.size < k) return 0;
    const scores = [...candidates.values()].map((candidate) => candidate.known).sort((a, b) => b - a);
    return scores[k - 1] ?? 0;
  };

  let size = Math.max(1, tuning.firstRound ?? FIRST_ROUND);
  for (;;) {
    rounds += 1;
    const reading = cursors.flatMap((cursor, term) => (cursor.exhausted ? [] : [term]));
    const blocks = await readBlocks(db, collectionId, scored, cursors, reading, size, filters);
    for (const term of reading) {
      const own = blocks.filter((block) => block.term === term);
      const cursor = cursors[term]!;
      const last = own.at(-1);
      if (last) {
        cursor.lastImpact = last.topImpact;
        cursor.lastDocument = last.documentId;
        cursor.lastBlock = last.block;
        cursor.theta = last.topImpact;
      }
      if (own.length < size) {
        cursor.exhausted = true;
        cursor.theta = 0;
      }
    }
    blocksRead += blocks.length;
    for (const block of blocks) take(block);

    // Fetch the blocks the most promising candidates lack, so the k-th score is known, not guessed.
    let kth = kthKnown();
    const promising = [...candidates.values()]
      .map((candidate) => ({ candidate, bound: candidate.known + missing(candidate) }))
      .filter((entry) => entry.bound > kth && entry.bound > entry.candidate.known)
      .sort((a, b) => b.bound - a.bound);
    const unseen = cursors.reduce(
      (sum, cursor, term) => sum + (cursor.exhausted ? 0 : weights[term]! * cursor.theta),
      0,
    );
    const settled = unseen <= kth;
    const outOfBudget = blocksRead >= budget;
    // Near the end (or out of budget) every candidate that could still enter the top k is completed;
    // before that, only the best 2k, to raise the k-th score.
    const completing = settled || outOfBudget ? promising : promising.slice(0, 2 * k);
    if (completing.length > 0) {
      blocksRead += await fetchMissing(
        db,
        collectionId,
        scored,
        cursors,
        known,
        completing.map((entry) => entry.candidate),
        filters,
        take,
      );
      kth = kthKnown();
    }
    const remaining = cursors.reduce(
      (sum, cursor, term) => sum + (cursor.exhausted ? 0 : weights[term]! * cursor.theta),
      0,
    );
    const open = [...candidates.values()].some((candidate) => {
      const bound = missing(candidate);
      return bound > 0 && candidate.known + bound > kth;
    });
    const done = cursors.every((cursor) => cursor.exhausted) || (remaining <= kth && !open);
    if (done || outOfBudget) {
      const hits = [...candidates.values()]
        .sort(
          (a, b) =>
            b.known - a.known ||
            (a.documentId < b.documentId ? -1 : a.documentId > b.documentId ? 1 : a.position - b.position),
        )
        .slice(0, k)
        .map((candidate) => ({
          documentId: candidate.documentId,
          position: candidate.position,
          score: candidate.known,
        }));
      return { hits, exact: done, blocksRead, rounds };
    }
    size *= 2;
  }
}

/** The next `size` blocks of each term in `reading`, highest impact first (keyset on the last block read). */
async function readBlocks(
  db: Queryable,
  collectionId: string,
  terms: readonly KeywordTerm[],
  cursors: readonly Cursor[],
  reading: readonly number[],
  size: number,
  filters: KeywordFilters,
): Promise<Block[]> {
  if (reading.length === 0) return [];
  const params: unknown[] = [
    collectionId,
    reading.map((term) => terms[term]!.lexeme),
    reading,
    reading.map((term) => cursors[term]!.lastImpact),
    reading.map((term) => cursors[term]!.lastDocument),
    reading.map((term) => cursors[term]!.lastBlock),
    size,
  ];
  const where = documentFilters(filters, params);
  const result = await db.query<{
    term: number;
    document_id: string;
    block: number;
    top_impact: number;
    positions: number[];
    impacts: number[];
  }>(
    `SELECT t.term, p.document_id, p.block, p.top_impact, p.positions, p.impacts
       FROM unnest($2::text[], $3::integer[], $4::real[], $5::text[], $6::integer[])
            AS t(lexeme, term, last_impact, last_document, last_block)
       CROSS JOIN LATERAL (
         SELECT p.document_id, p.block, p.top_impact, p.positions, p.impacts
           FROM keyword_postings p JOIN documents d ON d.id = p.document_id
          WHERE p.collection_id = $1 AND p.lexeme = t.lexeme AND ${where}
            AND (t.last_impact IS NULL OR (p.top_impact, p.document_id, p.block) < (t.last_impact, t.last_document, t.last_block))
          ORDER BY p.top_impact DESC, p.document_id DESC, p.block DESC
          LIMIT $7
       ) p`,
    params,
  );
  return result.rows.map((row) => ({
    term: row.term,
    documentId: row.document_id,
    block: row.block,
    topImpact: row.top_impact,
    positions: row.positions,
    impacts: row.impacts,
  }));
}

/**
 * Reads by key the blocks of `candidates` not yet known for the terms still being read; a block that
 * does not exist is known too (the chunk lacks the lexeme). Returns the number of rows read.
 */
async function fetchMissing(
  db: Queryable,
  collectionId: string,
  terms: readonly KeywordTerm[],
  cursors: readonly Cursor[],
  known: Set<string>[],
  candidates: readonly Candidate[],
  filters: KeywordFilters,
  take: (block: Block) => void,
): Promise<number> {
  const wanted = new Map<string, { term: number; documentId: string; block: number }>();
  for (const candidate of candidates) {
    const block = Math.floor(candidate.position / BLOCK_CHUNKS);
    const key = blockKey(candidate.documentId, block);
    cursors.forEach((cursor, term) => {
      if (!cursor.exhausted && !known[term]!.has(key))
        wanted.set(`${term}\u0000${key}`, { term, documentId: candidate.documentId, block });
    });
  }
  if (wanted.size === 0) return 0;
  const pairs = [...wanted.values()];
  const params: unknown[] = [
    collectionId,
    pairs.map((pair) => terms[pair.term]!.lexeme),
    pairs.map((pair) => pair.term),
    pairs.map((pair) => pair.documentId),
    pairs.map((pair) => pair.block),
  ];
  const where = documentFilters(filters, params);
  const result = await db.query<{
    term: number;
    document_id: string;
    block: number;
    top_impact: number;
    positions: number[];
    impacts: number[];
  }>(
    `SELECT t.term, p.document_id, p.block, p.top_impact, p.positions, p.impacts
       FROM unnest($2::text[], $3::integer[], $4::text[], $5::integer[]) AS t(lexeme, term, document_id, block)
       JOIN keyword_postings p
         ON p.collection_id = $1 AND p.lexeme = t.lexeme AND p.document_id = t.document_id AND p.block = t.block
       JOIN documents d ON d.id = p.document_id
      WHERE ${where}`,
    params,
  );
  for (const row of result.rows) {
    take({
      term: row.term,
      documentId: row.document_id,
      block: row.block,
      topImpact: row.top_impact,
      positions: row.positions,
      impacts: row.impacts,
    });
  }
  for (const pair of pairs) known[pair.term]!.add(blockKey(pair.documentId, pair.block));
  return result.rows.length;
}

/**
 * The same ranking without the index's early stop: every posting of every term summed in SQL. What
 * the tests and the engine bench compare {@link keywordTopK} with.
 */
export async function exhaustiveKeywordTopK(
  db: Queryable,
  collectionId: string,
  terms: readonly KeywordTerm[],
  k: number,
  filters: KeywordFilters = {},
): Promise<KeywordHit[]> {
  const scored = terms.filter((term) => term.weight > 0 && Number.isFinite(term.weight));
  if (scored.length === 0) return [];
  const params: unknown[] = [
    collectionId,
    scored.map((term) => term.lexeme),
    scored.map((term) => term.weight),
    k,
  ];
  const where = documentFilters(filters, params);
  const result = await db.query<{ document_id: string; position: number; score: number }>(
    `SELECT p.document_id, u.position, sum(t.weight * u.impact)::float8 AS score
       FROM unnest($2::text[], $3::float8[]) AS t(lexeme, weight)
       JOIN keyword_postings p ON p.collection_id = $1 AND p.lexeme = t.lexeme
       JOIN documents d ON d.id = p.document_id
       CROSS JOIN LATERAL unnest(p.positions, p.impacts) AS u(position, impact)
      WHERE ${where}
      GROUP BY p.document_id, u.position
      ORDER BY score DESC, p.document_id, u.position
      LIMIT $4`,
    params,
  );
  return result.rows.map((row) => ({
    documentId: row.document_id,
    position: row.position,
    score: row.score,
  }));
}

/** Document frequency (chunks whose text has the lexeme) of each lexeme, over READY and archived documents. */
export async function keywordDocumentFrequencies(
  db: Queryable,
  collectionId: string,
  lexemes: readonly string[],
): Promise<Map<string, number>> {
  const frequencies = new Map<string, number>(lexemes.map((lexeme) => [lexeme, 0]));
  if (lexemes.length === 0) return frequencies;
  const result = await db.query<{ lexeme: string; df: number }>(
    `SELECT p.lexeme, sum(p.text_chunks)::integer AS df
       FROM keyword_postings p JOIN documents d ON d.id = p.document_id
      WHERE p.collection_id = $1 AND p.lexeme = ANY($2::text[]) AND d.status IN ('READY', 'ARCHIVED')
      GROUP BY p.lexeme`,
    [collectionId, [...lexemes]],
  );
  for (const row of result.rows) frequencies.set(row.lexeme, row.df);
  return frequencies;
}

/** What indexing a document's postings (before it is READY) used, for {@link commitKeywords}. */
export interface StagedKeywords {
  documentId: string;
  collectionId: string;
  averageTokens: number;
  chunks: number;
  tokens: number;
}

/**
 * Indexes a staged document's chunks (not yet READY, so no search sees them), one block of 64 chunks
 * per statement; `between` runs between statements (the pipeline yields to the event loop there). The
 * collection's settings are created from this document's chunks when it has none.
 */
export async function stageKeywords(
  db: Queryable,
  documentId: string,
  between: () => Promise<void> | void = () => undefined,
): Promise<StagedKeywords> {
  const shape = await db.query<{
    collection_id: string;
    chunks: number;
    tokens: number;
    last: number | null;
  }>(
    `SELECT d.collection_id, count(c.id)::integer AS chunks, coalesce(sum(c.token_count), 0)::float8 AS tokens,
            max(c.position) AS last
       FROM documents d LEFT JOIN chunks c ON c.document_id = d.id WHERE d.id = $1 GROUP BY d.collection_id`,
    [documentId],
  );
  const row = shape.rows[0];
  if (!row) throw new Error(`No document ${documentId} to index.`);
  await db.query(
    `INSERT INTO keyword_settings (collection_id, average_tokens) VALUES ($1, $2) ON CONFLICT (collection_id) DO NOTHING`,
    [row.collection_id, Math.max(1, row.chunks > 0 ? row.tokens / row.chunks : 1)],
  );
  await db.query('DELETE FROM keyword_postings WHERE document_id = $1', [documentId]);
  const settings = await db.query<{ average_tokens: number }>(
    'SELECT average_tokens FROM keyword_settings WHERE collection_id = $1',
    [row.collection_id],
  );
  await indexBlocks(db, documentId, row.last ?? -1, between);
  return {
    documentId,
    collectionId: row.collection_id,
    averageTokens: settings.rows[0]?.average_tokens ?? 1,
    chunks: row.chunks,
    tokens: row.tokens,
  };
}

async function indexBlocks(
  db: Queryable,
  documentId: string,
  lastPosition: number,
  between: () => Promise<void> | void,
): Promise<void> {
  for (let first = 0; first <= lastPosition; first += BLOCK_CHUNKS) {
    await db.query('SELECT saksi_index_keywords($1, $2, $3)', [documentId, first, first + BLOCK_CHUNKS - 1]);
    await between();
  }
}

/**
 * In the transaction that makes the document READY: counts it into the collection's mean, indexes it
 * again if the mean changed since it was staged, and recomputes every impact of a small collection
 * whose mean has drifted.
 */
export async function commitKeywords(tx: Queryable, staged: StagedKeywords): Promise<void> {
  const updated = await tx.query<{ average_tokens: number; indexed_tokens: number; indexed_chunks: number }>(
    `UPDATE keyword_settings SET indexed_tokens = indexed_tokens + $2, indexed_chunks = indexed_chunks + $3
      WHERE collection_id = $1 RETURNING average_tokens, indexed_tokens, indexed_chunks::float8 AS indexed_chunks`,
    [staged.collectionId, staged.tokens, staged.chunks],
  );
  const settings = updated.rows[0];
  if (!settings) throw new Error(`The collection of document ${staged.documentId} has no keyword settings.`);
  const mean =
    settings.indexed_chunks > 0 ? settings.indexed_tokens / settings.indexed_chunks : settings.average_tokens;
  if (
    Math.abs(mean - settings.average_tokens) > MEAN_DRIFT * settings.average_tokens &&
    settings.indexed_chunks <= REBUILD_MAX_CHUNKS
  ) {
    await rebuildKeywordIndex(tx, staged.collectionId, mean, [staged.documentId]);
    return;
  }
  if (settings.average_tokens !== staged.averageTokens) {
    await tx.query('DELETE FROM keyword_postings WHERE document_id = $1', [staged.documentId]);
    await indexBlocks(tx, staged.documentId, staged.chunks - 1, () => undefined);
  }
}

/**
 * Computes every impact of a collection again (its READY and archived documents, and `alsoDocuments`)
 * with the mean chunk length `averageTokens` (default: the mean of those chunks).
 */
export async function rebuildKeywordIndex(
  db: Queryable,
  collectionId: string,
  averageTokens?: number,
  alsoDocuments: readonly string[] = [],
): Promise<void> {
  const documents = await db.query<{ id: string; last: number | null; chunks: number; tokens: number }>(
    `SELECT d.id, max(c.position) AS last, count(c.id)::integer AS chunks, coalesce(sum(c.token_count), 0)::float8 AS tokens
       FROM documents d LEFT JOIN chunks c ON c.document_id = d.id
      WHERE d.collection_id = $1 AND (d.status IN ('READY', 'ARCHIVED') OR d.id = ANY($2::text[]))
      GROUP BY d.id ORDER BY d.id`,
    [collectionId, [...alsoDocuments]],
  );
  const chunks = documents.rows.reduce((sum, row) => sum + row.chunks, 0);
  const tokens = documents.rows.reduce((sum, row) => sum + row.tokens, 0);
  const mean = Math.max(1, averageTokens ?? (chunks > 0 ? tokens / chunks : 1));
  await db.query(
    `INSERT INTO keyword_settings (collection_id, average_tokens, indexed_tokens, indexed_chunks) VALUES ($1, $2, $3, $4)
     ON CONFLICT (collection_id) DO UPDATE SET average_tokens = excluded.average_tokens,
       indexed_tokens = excluded.indexed_tokens, indexed_chunks = excluded.indexed_chunks`,
    [collectionId, mean, tokens, chunks],
  );
  await db.query('DELETE FROM keyword_postings WHERE collection_id = $1', [collectionId]);
  for (const document of documents.rows) {
    await indexBlocks(db, document.id, document.last ?? -1, () => undefined);
  }
}

/** Removes a document's postings (a staged document tried again, or given up). */
export async function deleteKeywords(db: Queryable, documentId: string): Promise<void> {
  await db.query('DELETE FROM keyword_postings WHERE document_id = $1', [documentId]);
}
