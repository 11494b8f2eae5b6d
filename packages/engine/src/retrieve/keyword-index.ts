/**
 * The keyword index (docs/engine.md, "The keyword index"): BM25F impacts in impact order, so a query
 * can find its top k by reading the best postings of its lexemes and stopping once nothing unread can
 * enter the top k, and sums them in as few rows as possible when it cannot.
 *
 * A chunk's impact for a lexeme is BM25's term part before idf: `tf·(k1 + 1) / (tf + k1)`, where tf is
 * the lexeme's occurrences in the text normalized by the chunk's length against the collection's mean
 * (b), plus its occurrences in the headings above × the heading weight (BM25F). A query scores a
 * chunk Σ weight(t) · impact(t), weight being the lexeme's idf times its wording's weight.
 *
 * Postings live in `keyword_postings`, one row per lexeme and document with the row's highest impact;
 * the rows of a lexeme are read highest first. The first round (one statement) reads the best rows of
 * every lexeme, bounds what it did not read by θ(t), the highest impact left of lexeme t, rescores
 * with every impact the chunks that could score most, and proves its top k when nothing outside them
 * can reach the k-th score (after Fagin's threshold algorithm). A search that cannot sums every
 * posting ({@link SUM_MAX_POSTINGS}); only beyond that do later rounds read up to eight times as many
 * rows, within {@link ROW_BUDGET}, and then return the best they have, saying it is not exact.
 * Questions of few postings are summed without the first round ({@link searchKeywords}).
 */
import { type Queryable, runsOnPostgres } from '../db/database.js';

/**
 * Chunks indexed per statement. On PGlite a statement runs on the server's thread, so few; PostgreSQL
 * runs it in its own process, and fewer statements merge fewer rows again (a lexeme's row of a
 * document is rewritten by every statement that adds to it).
 */
export const BLOCK_CHUNKS = { pglite: 32, postgres: 1_024 } as const;
/**
 * Tokens indexed per statement on PGlite at most: a block of 32 chunks of many distinct words (the
 * 20,000-heading file) took 150–320 ms, about 20–40 µs a token, so a block stays near 40 ms.
 */
export const BLOCK_TOKENS_PGLITE = 1_000;

/** {@link BLOCK_CHUNKS} for `db`. */
function blockChunks(db: Queryable): number {
  return runsOnPostgres(db) ? BLOCK_CHUNKS.postgres : BLOCK_CHUNKS.pglite;
}
/**
 * Lets the event loop turn between statements: on PGlite they run on the server's thread, and a
 * re-index inside a transaction is many of them in a row.
 */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
/** Rows read per lexeme in the first round. */
const FIRST_ROUND = 64;
/** The chunks of a round rescored with every impact of the question: this many per result, at least the minimum. */
const RESCORED_PER_K = 4;
const RESCORED_MIN = 100;
/** Rows one search reads at most before it stops with what it has (and reports `exact: false`). */
const ROW_BUDGET = 6_000;
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
  /** The chunks that contain it (its document frequency), when known: what summing it costs. */
  df?: number;
}

/** The terms a search scores: positive weights, the {@link MAX_KEYWORD_TERMS} heaviest. */
function scoredTerms(terms: readonly KeywordTerm[]): KeywordTerm[] {
  return [...terms]
    .filter((term) => term.weight > 0 && Number.isFinite(term.weight))
    .sort((a, b) => b.weight - a.weight || (a.lexeme < b.lexeme ? -1 : 1))
    .slice(0, MAX_KEYWORD_TERMS);
}

/**
 * A question whose lexemes occur in at most this many chunks in all is summed over every posting: the
 * exact ranking, at about a microsecond a posting on the bench's 2-core VM (bench/README.md, "Keyword
 * index"). Above it, the index's rounds bound the cost ({@link ROW_BUDGET}), exact only when they can
 * prove it.
 */
export const SUM_MAX_POSTINGS = 1_000_000;

/** The postings of `terms`: the sum of their document frequencies, unbounded when one is unknown. */
function postingsOf(terms: readonly KeywordTerm[]): number {
  return terms.reduce((sum, term) => sum + (term.df ?? Number.POSITIVE_INFINITY), 0);
}

/**
 * The top `k` for `terms`: summed over every posting when their document frequencies add up to at
 * most {@link SUM_MAX_POSTINGS} (the exact ranking), without the index's first round, which at 100k
 * chunks proved its top k for none of the bench's questions and cost 20–30 ms (bench/README.md,
 * "Keyword index"); else from the index, whose cost is bounded and whose top k is exact when it can
 * prove it and otherwise the best it found.
 */
export async function searchKeywords(
  db: Queryable,
  collectionId: string,
  terms: readonly KeywordTerm[],
  k: number,
  filters: KeywordFilters = {},
): Promise<KeywordHit[]> {
  if (postingsOf(scoredTerms(terms)) <= SUM_MAX_POSTINGS) {
    return exhaustiveKeywordTopK(db, collectionId, terms, k, filters);
  }
  return (await keywordTopK(db, collectionId, terms, k, filters)).hits;
}

export interface KeywordFilters {
  documentType?: string;
  fiscalYear?: number;
  documentIds?: readonly string[];
  includeArchived?: boolean;
}

export interface KeywordHit {
  documentId: string;
  position: number;
  score: number;
}

/** How a search reads (the defaults are the engine's; tests shrink them to exercise every round). */
export interface KeywordTuning {
  /** Rows read per lexeme in the first round (default {@link FIRST_ROUND}). */
  firstRound?: number;
  /** Rows read at most (default {@link ROW_BUDGET}). */
  rowBudget?: number;
  /**
   * A search whose first round cannot prove its top k sums every posting when the lexemes have at
   * most this many (default {@link SUM_MAX_POSTINGS}); 0 leaves only the rounds.
   */
  sumPostings?: number;
}

export interface KeywordSearch {
  hits: KeywordHit[];
  /** False when the search stopped at its row budget before the top k was certain. */
  exact: boolean;
  rowsRead: number;
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
  if (filters.documentIds !== undefined) {
    params.push(filters.documentIds);
    clauses.push(`${alias}.id = ANY($${params.length}::text[])`);
  }
  return clauses.join(' AND ');
}

/** Rows read per lexeme in the first round; a round that cannot prove its top k reads this many times more. */
const ROUND_GROWTH = 8;

/** The top `k` chunks of `collectionId` for `terms` by BM25F, from the keyword index. */
export async function keywordTopK(
  db: Queryable,
  collectionId: string,
  terms: readonly KeywordTerm[],
  k: number,
  filters: KeywordFilters = {},
  tuning: KeywordTuning = {},
): Promise<KeywordSearch> {
  const scored = scoredTerms(terms);
  if (scored.length === 0 || k < 1) return { hits: [], exact: true, rowsRead: 0, rounds: 0 };
  const scope = await documentScope(db, collectionId, filters);
  if ('only' in scope && scope.only.length === 0) return { hits: [], exact: true, rowsRead: 0, rounds: 0 };
  const budget = tuning.rowBudget ?? ROW_BUDGET;
  let size = Math.max(1, tuning.firstRound ?? FIRST_ROUND);
  let rowsRead = 0;
  for (let rounds = 1; ; rounds++) {
    const round = await readRound(db, collectionId, scored, k, size, scope);
    rowsRead += round.rowsRead;
    // Nothing outside the rescored chunks can reach the k-th score: a chunk in none of the rows read
    // scores at most Σ weight·θ, one outside the rescored ones at most the last rescored one's bound.
    const kth = round.hits.length >= k ? round.hits[k - 1]!.score : 0;
    const unseen = round.thetas.reduce((sum, theta, term) => sum + scored[term]!.weight * theta, 0);
    const exact = round.exhausted || (unseen <= kth && round.lastBound <= kth);
    if (exact) return { hits: round.hits.slice(0, k), exact, rowsRead, rounds };
    const sumPostings = tuning.sumPostings ?? SUM_MAX_POSTINGS;
    if (rounds === 1 && sumPostings > 0 && postingsOf(scored) <= sumPostings) {
      // Flat scores at the top (many chunks a hair apart) leave the bounds loose for many rounds;
      // summing every posting once costs less than those rounds and is exact.
      const hits = await exhaustiveKeywordTopK(db, collectionId, scored, k, filters);
      return { hits, exact: true, rowsRead, rounds: 2 };
    }
    // The next round reads up to eight times as many rows per lexeme, as many as the budget leaves.
    const next = Math.min(size * ROUND_GROWTH, Math.floor((budget - rowsRead) / scored.length));
    if (next <= size) return { hits: round.hits.slice(0, k), exact, rowsRead, rounds };
    size = next;
  }
}

/**
 * One round, one statement: the best `size` rows of each term; per term the highest impact not read
 * (θ, 0 when all were read); the chunks in those rows by the most they could score (the impacts read,
 * plus weight·θ for each term not read for them); the best of those rescored with every impact of the
 * question (read by key from their documents' rows).
 */
async function readRound(
  db: Queryable,
  collectionId: string,
  terms: readonly KeywordTerm[],
  k: number,
  size: number,
  scope: DocumentScope,
): Promise<{
  hits: KeywordHit[];
  thetas: number[];
  exhausted: boolean;
  lastBound: number;
  rowsRead: number;
}> {
  const rescored = Math.max(RESCORED_MIN, RESCORED_PER_K * k);
  const params: unknown[] = [
    collectionId,
    terms.map((term) => term.lexeme),
    terms.map((term) => term.weight),
    size,
    rescored,
  ];
  const scoped = scopeClause(scope, params);
  const result = await db.query<{
    kind: 'hit' | 'term' | 'partial';
    document_id: string | null;
    position: number | null;
    score: number | null;
    term: number | null;
    rows: number | null;
  }>(
    `WITH t AS (
       SELECT lexeme, weight, (term - 1)::integer AS term FROM unnest($2::text[], $3::float8[]) WITH ORDINALITY AS t(lexeme, weight, term)
     ),
     read AS (
       SELECT t.term, t.weight, p.document_id, p.top_impact, p.positions, p.impacts,
              row_number() OVER (PARTITION BY t.term ORDER BY p.top_impact DESC, p.document_id DESC) AS n
         FROM t CROSS JOIN LATERAL (
           SELECT p.document_id, p.top_impact, p.positions, p.impacts FROM keyword_postings p
            WHERE p.collection_id = $1 AND p.lexeme = t.lexeme AND ${scoped}
            ORDER BY p.top_impact DESC, p.document_id DESC LIMIT $4 + 1
         ) p
     ),
     theta AS (
       SELECT t.term, t.weight * coalesce(max(r.top_impact) FILTER (WHERE r.n > $4), 0) AS bound
         FROM t LEFT JOIN read r ON r.term = t.term GROUP BY t.term, t.weight
     ),
     partial AS (
       SELECT u.document_id, u.position, sum(u.weight * u.impact) AS score, sum(th.bound) AS seen
         FROM (SELECT r.term, r.weight, r.document_id, unnest(r.positions) AS position, unnest(r.impacts) AS impact
                 FROM read r WHERE r.n <= $4) u
         JOIN theta th ON th.term = u.term
        GROUP BY u.document_id, u.position
     ),
     best AS (
       SELECT p.document_id, p.position, p.score + (SELECT sum(bound) FROM theta) - p.seen AS bound
         FROM partial p ORDER BY bound DESC, p.document_id, p.position LIMIT $5
     ),
     exact AS (
       SELECT b.document_id, b.position, sum(t.weight * p.impacts[array_position(p.positions, b.position)]) AS score
         FROM best b CROSS JOIN t
         CROSS JOIN LATERAL (
           SELECT p.positions, p.impacts FROM keyword_postings p
            WHERE p.collection_id = $1 AND p.lexeme = t.lexeme AND p.document_id = b.document_id
            OFFSET 0
         ) p
        WHERE b.position = ANY (p.positions)
        GROUP BY b.document_id, b.position
     )
     SELECT 'hit' AS kind, document_id, position, score, NULL::integer AS term, NULL::integer AS rows FROM exact
     UNION ALL
     SELECT 'term', NULL, NULL, max(r.top_impact) FILTER (WHERE r.n > $4), t.term, count(r.n)::integer
       FROM t LEFT JOIN read r ON r.term = t.term GROUP BY t.term
     UNION ALL
     SELECT 'partial', NULL, NULL, min(bound), NULL, count(*)::integer FROM best`,
    params,
  );
  const thetas = terms.map(() => 0);
  let exhausted = true;
  let rowsRead = 0;
  let lastBound = 0;
  let partials = 0;
  const hits: KeywordHit[] = [];
  for (const row of result.rows) {
    if (row.kind === 'hit') {
      hits.push({ documentId: row.document_id!, position: row.position!, score: row.score! });
    } else if (row.kind === 'term') {
      // A term with a row beyond `size` has more unread: its θ is that row's highest impact.
      if (row.score !== null) {
        thetas[row.term!] = row.score;
        exhausted = false;
      }
      rowsRead += Math.min(row.rows ?? 0, size);
    } else {
      partials = row.rows ?? 0;
      lastBound = row.score ?? 0;
    }
  }
  // Candidates beyond the rescored ones exist only when the rescored list is full.
  if (partials < rescored) lastBound = 0;
  hits.sort(
    (a, b) =>
      b.score - a.score ||
      (a.documentId < b.documentId ? -1 : a.documentId > b.documentId ? 1 : a.position - b.position),
  );
  return { hits, thetas, exhausted, lastBound, rowsRead };
}

/**
 * Which documents a search may return, as the shorter list: those it may (`only`) or those it may not
 * (`except`). Postings are read without joining the documents, so a lexeme's rows come from its index
 * in impact order and stop at the limit.
 */
type DocumentScope = { only: string[] } | { except: string[] };

async function documentScope(
  db: Queryable,
  collectionId: string,
  filters: KeywordFilters,
): Promise<DocumentScope> {
  const params: unknown[] = [collectionId];
  const allowed = documentFilters(filters, params);
  const result = await db.query<{ only: boolean; id: string | null }>(
    `WITH scoped AS (SELECT d.id, (${allowed}) AS allowed FROM documents d WHERE d.collection_id = $1),
          counts AS (SELECT count(*) FILTER (WHERE allowed) <= count(*) FILTER (WHERE NOT allowed) AS only FROM scoped)
     SELECT counts.only, s.id FROM counts LEFT JOIN scoped s ON s.allowed = counts.only`,
    params,
  );
  const ids = result.rows.flatMap((row) => (row.id === null ? [] : [row.id]));
  return result.rows[0]?.only ? { only: ids } : { except: ids };
}

function scopeClause(scope: DocumentScope, params: unknown[]): string {
  if ('only' in scope) {
    params.push(scope.only);
    return `p.document_id = ANY($${params.length}::text[])`;
  }
  if (scope.except.length === 0) return 'true';
  params.push(scope.except);
  return `p.document_id <> ALL($${params.length}::text[])`;
}

/**
 * The same ranking without the index's early stop: every posting of every term summed in one
 * statement. What the lexical arm runs up to {@link SUM_MAX_POSTINGS}, and what the tests and the
 * bench compare {@link keywordTopK} with.
 */
export async function exhaustiveKeywordTopK(
  db: Queryable,
  collectionId: string,
  terms: readonly KeywordTerm[],
  k: number,
  filters: KeywordFilters = {},
): Promise<KeywordHit[]> {
  const scored = scoredTerms(terms);
  if (scored.length === 0 || k < 1) return [];
  const params: unknown[] = [
    collectionId,
    scored.map((term) => term.lexeme),
    scored.map((term) => term.weight),
    k,
  ];
  const where = documentFilters(filters, params);
  const result = await db.query<{ document_id: string; position: number; score: number }>(
    `SELECT u.document_id, u.position, sum(u.weight * u.impact)::float8 AS score
       FROM (SELECT p.document_id, t.weight, unnest(p.positions) AS position, unnest(p.impacts) AS impact
               FROM unnest($2::text[], $3::float8[]) AS t(lexeme, weight)
               JOIN keyword_postings p ON p.collection_id = $1 AND p.lexeme = t.lexeme
               JOIN documents d ON d.id = p.document_id
              WHERE ${where}) u
      GROUP BY u.document_id, u.position
      ORDER BY score DESC, u.document_id, u.position
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
  /** Chunks per statement ({@link BLOCK_CHUNKS}), for indexing it again at commit. */
  block: number;
}

/**
 * Indexes a staged document's chunks (not yet READY, so no search sees them), {@link BLOCK_CHUNKS}
 * per statement; `between` runs between statements (the pipeline yields to the event loop there). The
 * collection's settings are created from this document's chunks when it has none.
 */
export async function stageKeywords(
  db: Queryable,
  documentId: string,
  between: () => Promise<void> | void = nextTurn,
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
  const block = blockChunks(db);
  await indexBlocks(db, documentId, row.last ?? -1, block, between);
  return {
    block,
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
  block: number,
  between: () => Promise<void> | void,
): Promise<void> {
  for (const [first, last] of await blockRanges(db, documentId, lastPosition, block)) {
    await db.query('SELECT saksi_index_keywords($1, $2, $3)', [documentId, first, last]);
    await between();
  }
}

/**
 * The position ranges of a document's statements: `block` chunks each, and on PGlite also no more
 * than {@link BLOCK_TOKENS_PGLITE} tokens (a range holds one chunk at least), since a statement's
 * time grows with the tokens it indexes and, there, holds the server's thread.
 */
async function blockRanges(
  db: Queryable,
  documentId: string,
  lastPosition: number,
  block: number,
): Promise<[number, number][]> {
  const ranges: [number, number][] = [];
  if (runsOnPostgres(db)) {
    for (let first = 0; first <= lastPosition; first += block) ranges.push([first, first + block - 1]);
    return ranges;
  }
  const chunks = await db.query<{ position: number; tokens: number }>(
    'SELECT position, token_count AS tokens FROM chunks WHERE document_id = $1 ORDER BY position',
    [documentId],
  );
  let first: number | undefined;
  let last = 0;
  let count = 0;
  let tokens = 0;
  for (const chunk of chunks.rows) {
    if (first !== undefined && (count >= block || tokens + chunk.tokens > BLOCK_TOKENS_PGLITE)) {
      ranges.push([first, last]);
      first = undefined;
    }
    if (first === undefined) {
      first = chunk.position;
      count = 0;
      tokens = 0;
    }
    last = chunk.position;
    count += 1;
    tokens += chunk.tokens;
  }
  if (first !== undefined) ranges.push([first, last]);
  return ranges;
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
    await rebuildKeywordIndex(tx, staged.collectionId, mean, [staged.documentId], staged.block);
    return;
  }
  if (settings.average_tokens !== staged.averageTokens) {
    await tx.query('DELETE FROM keyword_postings WHERE document_id = $1', [staged.documentId]);
    await indexBlocks(tx, staged.documentId, staged.chunks - 1, staged.block, nextTurn);
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
  block = blockChunks(db),
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
    await indexBlocks(db, document.id, document.last ?? -1, block, nextTurn);
  }
}

/** Removes a document's postings (a staged document tried again, or given up). */
export async function deleteKeywords(db: Queryable, documentId: string): Promise<void> {
  await db.query('DELETE FROM keyword_postings WHERE document_id = $1', [documentId]);
}
