/**
 * Hybrid retrieval (docs/engine.md, "Retrieval"): a lexical arm (BM25F over the chunks'
 * text and headings in the collection's text-search configuration; the question's wordings as one
 * weighted query, other variants each on their own), a heading arm (headings.ts), and a vector arm per
 * variant (pgvector HNSW, cosine), fused by weighted RRF, with the figure and definition preferences,
 * then at most two places per Pasal or section in the top k (units.ts); filters on document type,
 * fiscal year and archived state; each result with its citation, parent context, table HTML and the
 * data a certificate needs (hash, document root, proof path).
 */
import { citationLabel } from '@saksi/proof';
import { type Collection, vectorSearchType } from '../collections.js';
import type { Queryable } from '../db/database.js';
import type { EmbeddingModel } from '../embed/model.js';
import { EngineError } from '../errors.js';
import { citationUrl } from '../ingest/page-url.js';
import { withoutStopwords } from '../language/stopwords.js';
import type { LegalRef } from '../types.js';
import { DEFAULT_RRF_K, type FusedItem, type RankedList, weightedRrf } from './fusion.js';
import { headingArm } from './headings.js';
import { searchKeywords } from './keyword-index.js';
import { lexemeStatistics, lexemesOf } from './lexemes.js';
import { diversifyUnits } from './units.js';

export interface QueryVariant {
  text: string;
  weight: number;
  kind: string;
}

/** Kinds of variant that restate the question itself; the lexical arm searches them as one query. */
const QUESTION_WORDINGS = new Set(['original', 'legal', 'phrases', 'translated', 'llm-legal', 'llm-phrases']);

export interface RetrieveOptions {
  topK?: number;
  rrfK?: number;
  /** Weights of the two arms (default 1 each). */
  armWeights?: { lexical: number; vector: number };
  /** Candidates per arm and variant (default 50). */
  candidates?: number;
  documentType?: string;
  fiscalYear?: number;
  /** Only these documents (a page's, page-scope.ts); every arm applies it. */
  documentIds?: readonly string[];
  includeArchived?: boolean;
  /** Which arms run: both (default, fused), or one alone (the evaluation's ablations). */
  arms?: RetrievalArms;
  /**
   * A question asking for a figure ("berapa", "how much"): the fused candidates that state one (an
   * amount in rupiah, a percentage, a grouped number) form one more ranked list with this weight, so a
   * Pasal that says "direncanakan sebesar Rp…" outranks the definitions that merely share its words.
   */
  preferFigures?: number;
  /**
   * A question asking for the penalty ("dendanya berapa", "bisa dipenjara?"): the fused candidates that
   * state one ("dipidana …", "denda paling banyak …") form one more ranked list with this weight, so
   * the criminal provision is among the results beside the rule it punishes.
   */
  preferPenalties?: number;
  /**
   * Weight of the heading arm (default {@link HEADING_ARM_WEIGHT}): a question about what something is
   * ("what is a reducer") is answered by the section titled by that thing.
   */
  headingWeight?: number;
  /**
   * A question about what something is: the fused candidates with a sentence that defines one of its
   * words ("Parkir adalah …", "A reducer is …", definitions.ts) form one more ranked list of `weight`.
   */
  preferDefinitions?: { pattern: RegExp; weight: number };
}

/** A figure in a passage: Rp/USD amounts, percentages, numbers with thousands separators. */
const FIGURE =
  /(?:Rp|USD|US\$|\$)\s?\d|\d\s?(?:%|persen\b|percent\b)|\d{1,3}(?:[.,]\s?\d{3}){2,}|\d+(?:[.,]\d+)?\s?(?:triliun|miliar|juta|trillion|billion|million)\b/iu;

/** A penalty a statute states. */
const PENALTY = /\b(?:dipidana|denda paling banyak|sanksi administratif)\b/iu;

/** How many of the fused candidates a preference (figures, penalties, definitions) looks at. */
const PREFERENCE_CANDIDATES = 50;

/**
 * `fused` with the candidates whose text passes `test` as one more ranked list of `weight` (in their
 * fused order), labelled `label`.
 */
async function withPreference(
  db: Queryable,
  lists: RankedList[],
  fused: FusedItem[],
  preference: { test: (text: string) => boolean; weight: number; label: string },
  rrfK: number,
): Promise<{ fused: FusedItem[]; lists: RankedList[] }> {
  const ids = fused.slice(0, PREFERENCE_CANDIDATES).map((item) => item.id);
  if (ids.length === 0) return { fused, lists };
  const texts = await db.query<{ id: string; text: string }>(
    'SELECT id, text FROM chunks WHERE id = ANY($1::text[])',
    [ids],
  );
  const passing = new Set(texts.rows.filter((row) => preference.test(row.text)).map((row) => row.id));
  const preferred = ids.filter((id) => passing.has(id));
  if (preferred.length === 0) return { fused, lists };
  const extended = [...lists, { ids: preferred, weight: preference.weight, label: preference.label }];
  return { fused: weightedRrf(extended, rrfK), lists: extended };
}

/** The arms of the search: `hybrid` (default) fuses lexical and vector; the others run one arm alone. */
export type RetrievalArms = 'lexical' | 'vector' | 'hybrid';

export interface RetrievedChunk {
  chunk_id: string;
  document_id: string;
  text: string;
  sha256: string;
  position: number;
  kind: string;
  /** Tokens in `text` (the chunker's count). */
  token_count: number;
  score: number;
  rank: number;
  ranks: Record<string, number>;
  citation: {
    document_title: string;
    page?: number;
    section_path?: string[];
    pasal?: string;
    ayat?: string;
    /** How the citation reads: "Pasal 287 ayat (2) UU 22/2009", "Penjelasan Pasal 287 UU 22/2009". */
    label?: string;
    /** The page and heading anchor on the collection's site (`base_url`), when it has one. */
    url?: string;
  };
  legal: LegalRef | null;
  table_html: string | null;
  context_before: string;
  context_after: string;
  document: {
    root: string;
    chunk_count: number;
    filename: string;
    document_type: string | null;
    fiscal_year: number | null;
    /** The document's media type (`text/markdown`, `text/plain`, `application/pdf`, …). */
    mime: string;
  };
  proof_path: string[];
}

export interface RetrieveResult {
  results: RetrievedChunk[];
  parameters: {
    top_k: number;
    rrf_k: number;
    weights: Record<string, number>;
    rewrite_variants: QueryVariant[];
  };
  timings: { embed_ms: number; lexical_ms: number; vector_ms: number; fuse_ms: number; total_ms: number };
  /** True when both arms ran and were fused (false for one-arm searches). */
  hybrid: boolean;
}

/** Words for an OR-tsquery: letters and digits only, so user text can never inject tsquery syntax. */
export function queryTerms(text: string): string[] {
  const words = text
    .normalize('NFKC')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu);
  return [...new Set(words ?? [])].filter((word) => word.length > 1 || /\d/.test(word)).slice(0, 64);
}

function filters(options: RetrieveOptions, params: unknown[]): string {
  const clauses = [options.includeArchived ? "d.status IN ('READY', 'ARCHIVED')" : "d.status = 'READY'"];
  if (options.documentType !== undefined) {
    params.push(options.documentType);
    clauses.push(`d.document_type = $${params.length}`);
  }
  if (options.fiscalYear !== undefined) {
    params.push(options.fiscalYear);
    clauses.push(`d.fiscal_year = $${params.length}`);
  }
  if (options.documentIds !== undefined) {
    params.push(options.documentIds);
    clauses.push(`d.id = ANY($${params.length}::text[])`);
  }
  return clauses.join(' AND ');
}

/**
 * Fusion weights (weighted RRF). The lexical list of a restatement of the question weighs this many
 * times its variant (the list of the question's wordings: its best wording; 2.5 × legal 2.0 = 5.0,
 * against the vector lists' 2.0 + 1.0 + 0.8): BM25 over the documents' own words finds the answer more
 * often than the hash embedding, which is lexical too but blurred by word pairs and character n-grams.
 * The lists of an amount's spellings and of a selected passage keep their variant's weight.
 */
const LEXICAL_WEIGHT = 2.5;

/** Variants that restate the whole question: its wordings, a follow-up's combined question, a year's. */
function restatesQuestion(kind: string): boolean {
  return QUESTION_WORDINGS.has(kind) || kind.startsWith('follow-up') || kind.startsWith('year:');
}
/** The heading arm's weight (headings.ts); a question about what something is raises it (plan.ts). */
export const HEADING_ARM_WEIGHT = 0.5;
/** The weight of the list of the Pasal a question names (as much as its best wording's lexical list). */
const PASAL_ARM_WEIGHT = 5;
/** Places one Pasal (with its elucidation) or one section may take in the top k (units.ts). */
const PLACES_PER_UNIT = 2;

/** One wording of the question for the lexical arm, with its weight. */
interface Wording {
  text: string;
  weight: number;
}

interface LexicalTerm {
  lexeme: string;
  idf: number;
  /** The query weight: the highest weight among the wordings that contain the lexeme, over the highest of all. */
  weight: number;
  df: number;
}

/**
 * Code identifiers joined by dots ("store.dispatch", "createSlice.extraReducers") are one token to the
 * text-search parser; their parts are searched as well, since prose names them alone.
 */
function withIdentifierParts(text: string): string {
  const parts = text.match(/[\p{L}\p{N}_$]+(?:\.[\p{L}\p{N}_$]+)+/gu) ?? [];
  return parts.length === 0 ? text : `${text} ${parts.map((part) => part.replaceAll('.', ' ')).join(' ')}`;
}

async function lexicalTerms(
  db: Queryable,
  collection: Collection,
  wordings: readonly Wording[],
): Promise<LexicalTerm[]> {
  const lists = await lexemesOf(
    db,
    collection,
    wordings.map((wording) => withoutStopwords(withIdentifierParts(wording.text), collection.language)),
  );
  const top = Math.max(...wordings.map((wording) => wording.weight));
  const weights = new Map<string, number>();
  lists.forEach((lexemes, index) => {
    const weight = (wordings[index]?.weight ?? 0) / top;
    for (const lexeme of lexemes) weights.set(lexeme, Math.max(weights.get(lexeme) ?? 0, weight));
  });
  if (weights.size === 0) return [];
  const { statistics } = await lexemeStatistics(db, collection, [...weights.keys()]);
  return [...statistics.values()]
    .filter((term) => term.df > 0)
    .map(({ lexeme, idf, df }) => ({ lexeme, idf, df, weight: weights.get(lexeme) ?? 0 }));
}

/**
 * The lexical arm, BM25F over the collection's text-search configuration (stemmed; stopwords of
 * `language/stopwords.ts` removed first), served by the keyword index (keyword-index.ts): each query
 * lexeme weighted by its idf in the collection and by its wording's weight, its frequency in a chunk
 * saturated (k1) and normalized by the chunk's length against the collection's mean (b), the headings
 * above a chunk counting as its text (each occurrence as the collection's heading weight). The
 * wordings of one question (as asked, in the statute's terms, translated) are one query, so a passage
 * is not counted once per wording that shares a word with it. A question rarely shares all of its
 * words with the passage that answers it, so this is an OR over the lexemes, never an AND; every
 * lexeme counts, however common.
 */
async function lexicalArm(
  db: Queryable,
  collection: Collection,
  wordings: readonly Wording[],
  limit: number,
  options: RetrieveOptions,
): Promise<string[]> {
  const searched = wordings.filter((wording) => wording.weight > 0 && queryTerms(wording.text).length > 0);
  if (searched.length === 0) return [];
  const terms = await lexicalTerms(db, collection, searched);
  if (terms.length === 0) return [];
  const hits = await searchKeywords(
    db,
    collection.id,
    terms.map((term) => ({ lexeme: term.lexeme, weight: term.idf * term.weight, df: term.df })),
    limit,
    {
      ...(options.documentType !== undefined ? { documentType: options.documentType } : {}),
      ...(options.fiscalYear !== undefined ? { fiscalYear: options.fiscalYear } : {}),
      ...(options.documentIds !== undefined ? { documentIds: options.documentIds } : {}),
      ...(options.includeArchived ? { includeArchived: true } : {}),
    },
  );
  return chunkIdsOf(db, hits);
}

/**
 * The Pasal a question names ("pasal 287", "Pasal 5A", "Pasal I" of an amending regulation), upper
 * case as stored. The words alone cannot find them: a Roman "I" is no search term, and "287" is in
 * every sentence that cites Pasal 287.
 */
export function namedPasal(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/\bpasal\s+(\d{1,4}[a-z]?|[ivxlc]{1,7})\b/giu))
    found.add(match[1]!.toUpperCase());
  return [...found];
}

/**
 * The chunks of the Pasal the wordings name, each Pasal's body before its elucidation, in document
 * order: a question that says which Pasal it is about is answered from that Pasal.
 */
async function pasalArm(
  db: Queryable,
  collection: Collection,
  pasal: readonly string[],
  limit: number,
  options: RetrieveOptions,
): Promise<string[]> {
  const params: unknown[] = [collection.id, pasal, limit];
  const where = filters(options, params);
  const result = await db.query<{ id: string }>(
    `SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id
      WHERE c.collection_id = $1 AND upper(c.legal->>'pasal') = ANY($2::text[]) AND ${where}
      ORDER BY COALESCE((c.legal->>'penjelasan')::boolean, false), d.id, c.position
      LIMIT $3`,
    params,
  );
  return result.rows.map((row) => row.id);
}

/** The ids of the chunks at (document, position), in the order given. */
async function chunkIdsOf(
  db: Queryable,
  hits: readonly { documentId: string; position: number }[],
): Promise<string[]> {
  if (hits.length === 0) return [];
  const result = await db.query<{ id: string; document_id: string; position: number }>(
    `SELECT c.id, c.document_id, c.position FROM chunks c
       JOIN unnest($1::text[], $2::integer[]) AS h(document_id, position)
         ON c.document_id = h.document_id AND c.position = h.position`,
    [hits.map((hit) => hit.documentId), hits.map((hit) => hit.position)],
  );
  const ids = new Map(result.rows.map((row) => [`${row.document_id}\u0000${row.position}`, row.id]));
  return hits.flatMap((hit) => {
    const id = ids.get(`${hit.documentId}\u0000${hit.position}`);
    return id === undefined ? [] : [id];
  });
}

/**
 * The vector arm: the `limit` nearest chunks of the collection that pass the filters, nearest first
 * (ties by id). Exported for the engine bench, which measures its recall against an exact scan.
 */
export async function vectorArm(
  db: Queryable,
  collection: Collection,
  vector: number[],
  limit: number,
  options: RetrieveOptions,
): Promise<string[]> {
  const dimensions = collection.embedding_dimensions;
  if (vector.length !== dimensions) {
    throw new EngineError(
      'INVALID_INPUT',
      `The query vector has ${vector.length} dimensions; the collection uses ${dimensions}.`,
    );
  }
  if (vector.every((value) => value === 0)) return [];
  const params: unknown[] = [collection.id, `[${vector.join(',')}]`, limit];
  const where = filters(options, params);
  // Searched as the index's expression (`vector(d)`, or `halfvec(d)` above 2,000 dimensions), ordered
  // by the distance alone so the planner can use the HNSW index (a second sort key defeats it); ties
  // are broken outside.
  const type = vectorSearchType(dimensions);
  const distance = `c.embedding::${type} <=> $2::${type}`;
  if (options.documentIds !== undefined) {
    // A few documents (a page): an exact scan of their chunks. Through the index, the nearest
    // chunks of the whole collection would be found first and the page's filtered out of them.
    const result = await db.query<{ id: string }>(
      `WITH scoped AS MATERIALIZED (
         SELECT c.id, c.embedding FROM chunks c JOIN documents d ON d.id = c.document_id
          WHERE c.collection_id = $1 AND c.embedding_dimensions = ${dimensions} AND ${where}
       )
       SELECT id FROM scoped c ORDER BY ${distance}, id LIMIT $3`,
      params,
    );
    return result.rows.map((row) => row.id);
  }
  return withVectorSearch(db, dimensions, limit, async (q) => {
    const result = await q.query<{ id: string }>(
      `SELECT id FROM (
         SELECT c.id, ${distance} AS distance
           FROM chunks c JOIN documents d ON d.id = c.document_id
          WHERE c.collection_id = $1 AND c.embedding_dimensions = ${dimensions} AND ${where}
          ORDER BY ${distance} LIMIT $3
       ) nearest ORDER BY distance, id`,
      params,
    );
    return result.rows.map((row) => row.id);
  });
}

/**
 * The HNSW search list grows with the square root of the vectors in the index (this dimension's
 * chunks in every collection): {@link EF_SEARCH_PER_ROOT} × √n, at least two per candidate asked for.
 * With the hash model's vectors (many near-ties) that keeps the vector arm's recall@10 against an
 * exact scan at about 0.96–0.97 from 10k to 100k chunks, where a fixed ef_search of 100 gave 0.89 and
 * 0.69 (docs/engine.md, "Retrieval"). A fixed large one makes the planner prefer an exact scan in a
 * small collection (pgvector 0.8 counts ef_search in the index's cost), ten times slower on PGlite.
 */
export const EF_SEARCH_PER_ROOT = 2.5;
/** pgvector takes ef_search up to 1,000. */
const MAX_EF_SEARCH = 1000;
/** Most index tuples an iterative scan visits before it gives up on filling the LIMIT. */
export const MAX_SCAN_TUPLES = 20_000;

/** Whether the database's pgvector has iterative index scans (0.8.0 and later), asked once per database. */
const iterativeScans = new WeakMap<object, Promise<boolean>>();
async function hasIterativeScans(db: Queryable): Promise<boolean> {
  let known = iterativeScans.get(db);
  if (known === undefined) {
    known = db
      .query<{ version: string }>(`SELECT extversion AS version FROM pg_extension WHERE extname = 'vector'`)
      .then((result) => supportsIterativeScans(result.rows[0]?.version ?? ''))
      .catch(() => false);
    iterativeScans.set(db, known);
  }
  return known;
}

/** pgvector's iterative index scans came with 0.8.0. */
export function supportsIterativeScans(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map((part) => Number.parseInt(part, 10) || 0);
  return major > 0 || minor >= 8;
}

/**
 * Runs `work` with the HNSW search settings for `candidates`, for this transaction only (SET LOCAL
 * never leaks into a pool): `hnsw.ef_search` by the size of the index ({@link EF_SEARCH_PER_ROOT}), and,
 * where pgvector has them, iterative scans in relaxed order, so the filters (the collection, a
 * document's status, type and fiscal year, all applied to the index's rows as they come) do not leave
 * the vector arm with fewer candidates than it asked for: the index goes on scanning, up to
 * {@link MAX_SCAN_TUPLES} rows, until the LIMIT is filled. The order is restored outside.
 */
async function withVectorSearch<T>(
  db: Queryable,
  dimensions: number,
  candidates: number,
  work: (q: Queryable) => Promise<T>,
): Promise<T> {
  const transactional = db as Queryable & {
    transaction?: <R>(fn: (tx: Queryable) => Promise<R>) => Promise<R>;
  };
  if (typeof transactional.transaction !== 'function') return work(db);
  const iterative = await hasIterativeScans(db);
  return transactional.transaction(async (tx) => {
    // set_config(…, true) is SET LOCAL; one statement for all three. The vectors in the index are
    // counted from the documents (a row each), not the chunks.
    await tx.query(
      `SELECT set_config('hnsw.ef_search', (
                SELECT least(${MAX_EF_SEARCH}, greatest($1::integer,
                         ceil(${EF_SEARCH_PER_ROOT} * sqrt(COALESCE(sum(d.chunk_count), 0)))::integer))::text
                  FROM documents d JOIN collections k ON k.id = d.collection_id
                 WHERE k.embedding_dimensions = $2), true)
              ${
                iterative
                  ? `, set_config('hnsw.iterative_scan', 'relaxed_order', true),
                     set_config('hnsw.max_scan_tuples', '${MAX_SCAN_TUPLES}', true)`
                  : ''
              }`,
      [Math.min(MAX_EF_SEARCH, candidates * 2), dimensions],
    );
    return work(tx);
  });
}

export interface ChunkRow {
  id: string;
  document_id: string;
  text: string;
  sha256: string;
  position: number;
  kind: string;
  page: number | null;
  section_path: string[];
  legal: LegalRef | null;
  table_html: string | null;
  context_before: string;
  context_after: string;
  proof_path: string[];
  token_count: number;
  title: string;
  root: string;
  chunk_count: number;
  filename: string;
  mime: string;
  document_type: string | null;
  fiscal_year: number | null;
  /** For the citation URL: the chunk's heading anchor, the frontmatter slug and id, the collection's site. */
  anchor: string | null;
  page_slug: unknown;
  page_id: unknown;
  base_url: unknown;
  base_url_folder: unknown;
}

export async function loadChunks(db: Queryable, ids: readonly string[]): Promise<Map<string, ChunkRow>> {
  if (ids.length === 0) return new Map();
  const result = await db.query<ChunkRow>(
    `SELECT c.id, c.document_id, c.text, c.sha256, c.position, c.kind, c.page, c.section_path, c.legal, c.table_html,
            c.context_before, c.context_after, c.proof_path, c.token_count, d.title, d.root, d.chunk_count, d.filename, d.mime, d.document_type, d.fiscal_year,
            c.anchor, d.metadata->'slug' AS page_slug, d.metadata->'id' AS page_id,
            co.profile->'base_url' AS base_url, co.profile->'base_url_folder' AS base_url_folder
       FROM chunks c JOIN documents d ON d.id = c.document_id JOIN collections co ON co.id = c.collection_id
      WHERE c.id = ANY($1::text[])`,
    [ids],
  );
  return new Map(result.rows.map((row) => [row.id, row]));
}

/** A chunk row from {@link loadChunks} as a result, with its citation, at the given score and rank. */
export function toRetrievedChunk(
  row: ChunkRow,
  ranking: Pick<RetrievedChunk, 'score' | 'rank' | 'ranks'>,
): RetrievedChunk {
  const legal = row.legal ?? null;
  // The label a verifier recomputes from the citation's signed fields, and nothing else (not the
  // file name): docs/certificate.md, "Citation labels".
  const label = citationLabel({
    document_title: row.title,
    section_path: row.section_path,
    ...(legal?.pasal ? { pasal: legal.pasal } : {}),
    ...(legal?.ayat ? { ayat: legal.ayat } : {}),
  });
  const url = citationUrl({
    baseUrl: row.base_url,
    baseFolder: row.base_url_folder,
    filename: row.filename,
    slug: row.page_slug,
    id: row.page_id,
    anchor: row.anchor,
  });
  return {
    chunk_id: row.id,
    document_id: row.document_id,
    text: row.text,
    sha256: row.sha256,
    position: row.position,
    kind: row.kind,
    token_count: row.token_count,
    score: ranking.score,
    rank: ranking.rank,
    ranks: ranking.ranks,
    citation: {
      document_title: row.title,
      ...(row.page !== null ? { page: row.page } : {}),
      ...(row.section_path.length > 0 ? { section_path: row.section_path } : {}),
      ...(legal?.pasal ? { pasal: legal.pasal } : {}),
      ...(legal?.ayat ? { ayat: legal.ayat } : {}),
      ...(label ? { label } : {}),
      ...(url ? { url } : {}),
    },
    legal,
    table_html: row.table_html,
    context_before: row.context_before,
    context_after: row.context_after,
    document: {
      root: row.root,
      chunk_count: row.chunk_count,
      filename: row.filename,
      document_type: row.document_type,
      fiscal_year: row.fiscal_year,
      mime: row.mime,
    },
    proof_path: row.proof_path,
  };
}

/** Runs the hybrid search for `variants` in `collection`. */
export async function retrieve(
  db: Queryable,
  embedding: EmbeddingModel,
  collection: Collection,
  variants: QueryVariant[],
  options: RetrieveOptions = {},
): Promise<RetrieveResult> {
  const started = performance.now();
  const topK = options.topK ?? 5;
  if (!Number.isSafeInteger(topK) || topK < 1 || topK > 50)
    throw new EngineError('INVALID_INPUT', 'top_k must be 1–50.');
  const rrfK = options.rrfK ?? DEFAULT_RRF_K;
  const candidates = options.candidates ?? 50;
  const armWeights = options.armWeights ?? { lexical: 1, vector: 1 };
  const arms = options.arms ?? 'hybrid';
  const useLexical = arms !== 'vector';
  const useVector = arms !== 'lexical';

  const embedStart = performance.now();
  const { embeddings } = useVector
    ? await embedding.doEmbed({ values: variants.map((variant) => variant.text) })
    : { embeddings: [] as number[][] };
  const embedMs = performance.now() - embedStart;

  let lexicalMs = 0;
  let vectorMs = 0;
  const lists: RankedList[] = [];
  // The wordings of the question are one lexical query; other variants (a year's question, a
  // follow-up, a selection, amounts) are searched on their own.
  const wordings = variants.filter((variant) => QUESTION_WORDINGS.has(variant.kind));
  if (useLexical && wordings.length > 0) {
    const lexicalStart = performance.now();
    lists.push({
      ids: await lexicalArm(db, collection, wordings, candidates, options),
      weight: LEXICAL_WEIGHT * Math.max(...wordings.map((wording) => wording.weight)) * armWeights.lexical,
      label: 'lexical:question',
    });
    const pasal = namedPasal(wordings.map((wording) => wording.text).join(' '));
    if (pasal.length > 0)
      lists.push({
        ids: await pasalArm(db, collection, pasal, candidates, options),
        weight: PASAL_ARM_WEIGHT * armWeights.lexical,
        label: 'lexical:pasal',
      });
    const headingWeight = options.headingWeight ?? HEADING_ARM_WEIGHT;
    if (headingWeight > 0) {
      const { total } = await lexemeStatistics(db, collection, []);
      const text = wordings
        .filter((wording) => wording.kind !== 'phrases' && wording.kind !== 'llm-phrases')
        .map((wording) => wording.text)
        .join(' ');
      lists.push({
        ids: await headingArm(db, collection, total, text, candidates, options),
        weight: headingWeight * armWeights.lexical,
        label: 'lexical:headings',
      });
    }
    lexicalMs += performance.now() - lexicalStart;
  }
  for (const [index, variant] of variants.entries()) {
    const lexicalStart = performance.now();
    if (useLexical && !QUESTION_WORDINGS.has(variant.kind)) {
      const lexical = await lexicalArm(db, collection, [variant], candidates, options);
      lists.push({
        ids: lexical,
        weight: (restatesQuestion(variant.kind) ? LEXICAL_WEIGHT : 1) * variant.weight * armWeights.lexical,
        label: `lexical:${variant.kind}`,
      });
    }
    lexicalMs += performance.now() - lexicalStart;
    const vectorStart = performance.now();
    if (useVector) {
      const vector = await vectorArm(db, collection, embeddings[index]!, candidates, options);
      lists.push({
        ids: vector,
        weight: variant.weight * armWeights.vector,
        label: `vector:${variant.kind}`,
      });
    }
    vectorMs += performance.now() - vectorStart;
  }
  const fuseStart = performance.now();
  let ranked = weightedRrf(lists, rrfK);
  let fusedLists = lists;
  if (options.preferFigures !== undefined && options.preferFigures > 0) {
    const weight = options.preferFigures;
    ({ fused: ranked, lists: fusedLists } = await withPreference(
      db,
      fusedLists,
      ranked,
      { test: (text) => FIGURE.test(text), weight, label: 'figures' },
      rrfK,
    ));
  }
  if (options.preferPenalties !== undefined && options.preferPenalties > 0) {
    const weight = options.preferPenalties;
    ({ fused: ranked, lists: fusedLists } = await withPreference(
      db,
      fusedLists,
      ranked,
      { test: (text) => PENALTY.test(text), weight, label: 'penalties' },
      rrfK,
    ));
  }
  if (options.preferDefinitions !== undefined && options.preferDefinitions.weight > 0) {
    const { pattern, weight } = options.preferDefinitions;
    ({ fused: ranked, lists: fusedLists } = await withPreference(
      db,
      fusedLists,
      ranked,
      { test: (text) => pattern.test(text), weight, label: 'definitions' },
      rrfK,
    ));
  }
  ranked = await diversifyUnits(db, ranked, { perUnit: PLACES_PER_UNIT, top: topK });
  const fused = ranked.slice(0, topK);
  const rows = await loadChunks(
    db,
    fused.map((item) => item.id),
  );
  const results: RetrievedChunk[] = fused.flatMap((item, index) => {
    const row = rows.get(item.id);
    return row
      ? [
          toRetrievedChunk(row, {
            score: Math.round(item.score * 1e6) / 1e6,
            rank: index + 1,
            ranks: item.ranks,
          }),
        ]
      : [];
  });
  const fuseMs = performance.now() - fuseStart;
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return {
    results,
    parameters: {
      top_k: topK,
      rrf_k: rrfK,
      weights: { lexical: armWeights.lexical, vector: armWeights.vector },
      rewrite_variants: variants,
    },
    timings: {
      embed_ms: round(embedMs),
      lexical_ms: round(lexicalMs),
      vector_ms: round(vectorMs),
      fuse_ms: round(fuseMs),
      total_ms: round(performance.now() - started),
    },
    hybrid: useLexical && useVector,
  };
}
