/**
 * Collections: a name, a language and its text-search configuration, and one embedding model and
 * dimension (docs/engine.md, "Storage"). Creating a collection also creates the HNSW index for its dimension.
 */
import type { Database, Queryable, Transactional } from './db/database.js';
import { EngineError } from './errors.js';
import { newId } from './ids.js';
import { parseBaseFolder, parseBaseUrl } from './ingest/page-url.js';
import { type CollectionGlossary, glossarySha256, parseGlossary } from './retrieve/collection-glossary.js';

export const DEFAULT_WORKSPACE = 'wsp_default';

export interface Collection {
  id: string;
  workspace_id: string;
  name: string;
  language: 'id' | 'en';
  text_search_config: string;
  profile: Record<string, unknown>;
  embedding_provider: string;
  embedding_model: string;
  embedding_dimensions: number;
  /**
   * The collection's glossary (docs/glossary.md), checked when it was set; null or absent: none. Read
   * by `getCollection` (what answering uses), not by `listCollections`.
   */
  glossary?: CollectionGlossary | null;
  /** SHA-256 of the glossary's canonical JSON; null without a glossary. */
  glossary_sha256?: string | null;
}

const NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;

/** The Postgres text-search configuration for a language (`indonesian` ships with PGlite and PostgreSQL ≥ 15). */
export function textSearchConfig(language: 'id' | 'en'): string {
  return language === 'id' ? 'indonesian' : 'english';
}

/** pgvector's HNSW indexes `vector` of at most this many dimensions ... */
export const MAX_VECTOR_INDEX_DIMENSIONS = 2000;
/** ... and `halfvec` (16-bit floats) of at most this many. */
export const MAX_HALFVEC_INDEX_DIMENSIONS = 4000;

/**
 * The type a collection's vectors are indexed and searched as: `vector(d)` up to
 * {@link MAX_VECTOR_INDEX_DIMENSIONS}, `halfvec(d)` above (docs/engine.md, "Storage"). The column
 * keeps full precision either way; only the index and the distance it orders by are 16-bit.
 */
export function vectorSearchType(dimensions: number): string {
  return dimensions > MAX_VECTOR_INDEX_DIMENSIONS ? `halfvec(${dimensions})` : `vector(${dimensions})`;
}

/** HNSW build parameters (docs/engine.md, "Retrieval": measured recall at 10k and 100k chunks). */
export const HNSW_M = 16;
export const HNSW_EF_CONSTRUCTION = 64;

/** The advisory lock that makes one process at a time create a vector index. */
const VECTOR_INDEX_LOCK = 727376;

/**
 * Creates the partial HNSW index for vectors of `dimensions` (cosine), once. Two sessions running
 * `CREATE INDEX IF NOT EXISTS` for the same name at once can both miss the index and the second then
 * fails on the catalog's unique name, so callers outside a transaction go through
 * {@link ensureVectorIndexLocked}.
 */
export async function ensureVectorIndex(db: Queryable, dimensions: number): Promise<void> {
  if (!Number.isSafeInteger(dimensions) || dimensions < 1 || dimensions > MAX_HALFVEC_INDEX_DIMENSIONS) {
    throw new EngineError(
      'INVALID_INPUT',
      `Embedding dimensions must be 1–${MAX_HALFVEC_INDEX_DIMENSIONS} (the most an HNSW index takes, as halfvec).`,
    );
  }
  const type = vectorSearchType(dimensions);
  const operators = dimensions > MAX_VECTOR_INDEX_DIMENSIONS ? 'halfvec_cosine_ops' : 'vector_cosine_ops';
  await db.exec(
    `CREATE INDEX IF NOT EXISTS chunks_embedding_hnsw_${dimensions} ON chunks USING hnsw ((embedding::${type}) ${operators})
       WITH (m = ${HNSW_M}, ef_construction = ${HNSW_EF_CONSTRUCTION}) WHERE embedding_dimensions = ${dimensions}`,
  );
}

/**
 * {@link ensureVectorIndex} in a transaction holding {@link VECTOR_INDEX_LOCK}: servers and workers on
 * one database that create collections of the same dimension at once create its index once.
 */
export async function ensureVectorIndexLocked(db: Transactional, dimensions: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [VECTOR_INDEX_LOCK]);
    await ensureVectorIndex(tx, dimensions);
  });
}

export async function ensureWorkspace(
  db: Queryable,
  id = DEFAULT_WORKSPACE,
  name = 'Default',
): Promise<void> {
  await db.query('INSERT INTO workspaces (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [id, name]);
}

/**
 * Throws NOT_FOUND unless `id` is an existing, enabled workspace. Only the default workspace is ever
 * made on the fly; any other is created on purpose (`createWorkspace`), so a mistyped id is an error.
 */
async function requireWorkspace(db: Queryable, id: string): Promise<void> {
  if (id === DEFAULT_WORKSPACE) return ensureWorkspace(db);
  const result = await db.query('SELECT 1 FROM workspaces WHERE id = $1 AND disabled_at IS NULL', [id]);
  if (result.rows.length === 0)
    throw new EngineError('NOT_FOUND', `No workspace ${JSON.stringify(id.slice(0, 100))}.`);
}

export async function getCollection(
  db: Queryable,
  name: string,
  workspaceId = DEFAULT_WORKSPACE,
): Promise<Collection | null> {
  const result = await db.query<Collection>(
    `SELECT id, workspace_id, name, language, text_search_config::text AS text_search_config, profile, embedding_provider, embedding_model, embedding_dimensions,
            glossary, glossary_sha256 FROM collections WHERE workspace_id = $1 AND name = $2`,
    [workspaceId, name],
  );
  return result.rows[0] ?? null;
}

export async function requireCollection(
  db: Queryable,
  name: string,
  workspaceId = DEFAULT_WORKSPACE,
): Promise<Collection> {
  const collection = await getCollection(db, name, workspaceId);
  if (!collection)
    throw new EngineError('NOT_FOUND', `No collection named "${name}". Ingest documents into it first.`);
  return collection;
}

export async function listCollections(
  db: Queryable,
  workspaceId = DEFAULT_WORKSPACE,
): Promise<(Collection & { documents: number })[]> {
  const result = await db.query<Collection & { documents: number }>(
    `SELECT c.id, c.workspace_id, c.name, c.language, c.text_search_config::text AS text_search_config, c.profile,
            c.embedding_provider, c.embedding_model, c.embedding_dimensions, c.glossary_sha256,
            (SELECT count(*)::integer FROM documents d WHERE d.collection_id = c.id AND d.status = 'READY') AS documents
       FROM collections c WHERE c.workspace_id = $1 ORDER BY c.name`,
    [workspaceId],
  );
  return result.rows;
}

/**
 * Returns the collection, creating it with `language` and the embedding model when it does not exist;
 * the workspace must exist (only the default one is created when missing).
 */
export async function ensureCollection(
  db: Database,
  options: {
    name: string;
    language: 'id' | 'en';
    embedding: { provider: string; model: string; dimensions: number };
    profile?: Record<string, unknown>;
    workspaceId?: string;
  },
): Promise<Collection> {
  if (!NAME.test(options.name)) {
    throw new EngineError(
      'INVALID_INPUT',
      'Collection names are 1–63 characters of a-z, 0-9, ".", "_" and "-".',
    );
  }
  const workspaceId = options.workspaceId ?? DEFAULT_WORKSPACE;
  const profile = checkedProfile(options.profile ?? {});
  const existing = await getCollection(db, options.name, workspaceId);
  if (existing) {
    if (
      existing.embedding_model !== options.embedding.model ||
      existing.embedding_dimensions !== options.embedding.dimensions
    ) {
      throw new EngineError(
        'CONFLICT',
        `Collection "${options.name}" uses ${existing.embedding_model} (${existing.embedding_dimensions} dimensions); re-embed it to switch models.`,
      );
    }
    return existing;
  }
  await requireWorkspace(db, workspaceId);
  await ensureVectorIndexLocked(db, options.embedding.dimensions);
  await db.query(
    `INSERT INTO collections (id, workspace_id, name, language, text_search_config, profile, embedding_provider, embedding_model, embedding_dimensions)
     VALUES ($1, $2, $3, $4, $5::regconfig, $6, $7, $8, $9) ON CONFLICT (workspace_id, name) DO NOTHING`,
    [
      newId('col'),
      workspaceId,
      options.name,
      options.language,
      textSearchConfig(options.language),
      JSON.stringify(profile),
      options.embedding.provider,
      options.embedding.model,
      options.embedding.dimensions,
    ],
  );
  return (await getCollection(db, options.name, workspaceId))!;
}

/** The settings a collection's profile holds besides its policy (`require_anchor`). */
export interface CollectionProfile {
  /** Anyone may chat with a public collection (and read its certificates) without an API key. */
  public?: boolean;
  /** What the collection holds: which answer prompt and rules suit it. */
  domain?: 'legal' | 'budget' | 'docs' | 'general';
  /**
   * Pattern-rule groups of the query rewriter besides those the collection's glossary enables; the
   * words (dictionary, translations) come from the glossary only (docs/glossary.md). None configured
   * and no glossary: no pattern rules.
   */
  rewrite_rules?: ('traffic' | 'budget' | 'docs')[];
  /** Weights of the rewrite variants in the weighted RRF. */
  rewrite_weights?: { legal?: number; original?: number; phrases?: number };
  /**
   * The site the documents are published on (http or https): citations of Markdown pages carry
   * `<page url>#<heading anchor>` (ingest/page-url.ts). Null removes it. Nothing is fetched.
   */
  base_url?: string | null;
  /** The folder of the stored document paths that `base_url` serves (e.g. `docs`); default all. */
  base_url_folder?: string | null;
  /** How people see the collection, per interface language: a human name (`Traffic law (UU 22/2009)`). */
  title?: LocalizedText | null;
  /** One line on what the collection holds, per interface language. */
  description?: LocalizedText | null;
  /** Questions a newcomer can click to start (at most {@link MAX_EXAMPLES}), per interface language. */
  examples?: LocalizedList | null;
  /**
   * The false-assurance risk α answers are released at as answering the question (the answer check,
   * docs/engine.md): at most this share of released answers was wrong in calibration. Default 0.05;
   * a smaller α releases fewer answers. Null restores the default.
   */
  answer_risk?: number | null;
  /**
   * The document packs (docs/engine.md, "Document-type packs") an admin chose for the collection, by
   * id (`legislation`, `budget`, `software-docs`, `plain`); null or absent: every pack, each
   * detecting its documents by their content. Checked by `Collections.configure`.
   */
  packs?: string[] | null;
  /**
   * The answer check calibrated on the collection's own labelled questions (eval/collection-calibration.ts;
   * docs/evaluation.md, "Calibrating a collection"): each answer's features and loss, and their SHA-256.
   * Null removes it.
   */
  answer_calibration?: Record<string, unknown> | null;
}

/** The smallest and largest α a collection may set for its answers. */
export const MIN_ANSWER_RISK = 0.01;
export const MAX_ANSWER_RISK = 0.5;

/** The collection's α for the answer check, or undefined for the default. */
export function answerRiskOf(collection: Pick<Collection, 'profile'>): number | undefined {
  const value = collection.profile['answer_risk'];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The languages a collection's title, description and examples are written in (the web UI's). */
export const PRESENTATION_LANGUAGES = ['id', 'en'] as const;
export type PresentationLanguage = (typeof PRESENTATION_LANGUAGES)[number];
/** A text per interface language; a missing language falls back to another one. */
export type LocalizedText = Partial<Record<PresentationLanguage, string>>;
export type LocalizedList = Partial<Record<PresentationLanguage, string[]>>;

export const MAX_TITLE_LENGTH = 120;
export const MAX_DESCRIPTION_LENGTH = 300;
export const MAX_EXAMPLES = 5;
export const MAX_EXAMPLE_LENGTH = 300;

/**
 * A profile (or a patch of one) with its `base_url` and `base_url_folder` checked and normalized, and
 * its title, description and examples checked (languages `id`/`en`, trimmed, bounded); a bad base URL
 * throws `INVALID_BASE_URL`, bad presentation text `INVALID_INPUT`, before anything is written.
 */
export function checkedProfile<T extends Record<string, unknown>>(profile: T): T {
  const checked: Record<string, unknown> = { ...profile };
  if (checked['base_url'] !== undefined && checked['base_url'] !== null)
    checked['base_url'] = parseBaseUrl(checked['base_url']);
  if (checked['base_url_folder'] !== undefined && checked['base_url_folder'] !== null)
    checked['base_url_folder'] = parseBaseFolder(checked['base_url_folder']);
  if (checked['title'] !== undefined && checked['title'] !== null)
    checked['title'] = localizedText(checked['title'], 'title', MAX_TITLE_LENGTH);
  if (checked['description'] !== undefined && checked['description'] !== null)
    checked['description'] = localizedText(checked['description'], 'description', MAX_DESCRIPTION_LENGTH);
  if (checked['examples'] !== undefined && checked['examples'] !== null)
    checked['examples'] = localizedList(checked['examples']);
  const risk = checked['answer_risk'];
  if (
    risk !== undefined &&
    risk !== null &&
    (typeof risk !== 'number' || !(risk >= MIN_ANSWER_RISK && risk <= MAX_ANSWER_RISK))
  )
    throw new EngineError(
      'INVALID_INPUT',
      `The collection's answer_risk must be a number from ${MIN_ANSWER_RISK} to ${MAX_ANSWER_RISK} (the share of released answers allowed to be wrong).`,
    );
  return checked as T;
}

function languageEntries(value: unknown, field: string): [PresentationLanguage, unknown][] {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new EngineError(
      'INVALID_INPUT',
      `The collection ${field} must be an object keyed by language (id, en).`,
    );
  const entries = Object.entries(value);
  for (const [language] of entries) {
    if (!(PRESENTATION_LANGUAGES as readonly string[]).includes(language))
      throw new EngineError(
        'INVALID_INPUT',
        `The collection ${field} has an unknown language ${JSON.stringify(language.slice(0, 20))}; use id or en.`,
      );
  }
  return entries as [PresentationLanguage, unknown][];
}

function oneLine(value: unknown, field: string, max: number): string {
  const text = typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
  if (text === '' || Array.from(text).length > max)
    throw new EngineError('INVALID_INPUT', `Each collection ${field} must be 1–${max} characters of text.`);
  return text;
}

function localizedText(value: unknown, field: string, max: number): LocalizedText {
  const result: LocalizedText = {};
  for (const [language, text] of languageEntries(value, field)) result[language] = oneLine(text, field, max);
  return result;
}

function localizedList(value: unknown): LocalizedList {
  const result: LocalizedList = {};
  for (const [language, list] of languageEntries(value, 'examples')) {
    if (!Array.isArray(list) || list.length > MAX_EXAMPLES)
      throw new EngineError(
        'INVALID_INPUT',
        `The collection examples are lists of at most ${MAX_EXAMPLES} questions.`,
      );
    result[language] = list.map((item) => oneLine(item, 'example question', MAX_EXAMPLE_LENGTH));
  }
  return result;
}

/** A collection's title, description and examples as its API record shows them (empty when unset). */
export function collectionPresentation(collection: Pick<Collection, 'profile'>): {
  title: LocalizedText;
  description: LocalizedText;
  examples: LocalizedList;
} {
  const { profile } = collection;
  const pick = <V>(
    value: unknown,
    keep: (item: unknown) => item is V,
  ): Partial<Record<PresentationLanguage, V>> => {
    const result: Partial<Record<PresentationLanguage, V>> = {};
    if (typeof value !== 'object' || value === null) return result;
    for (const language of PRESENTATION_LANGUAGES) {
      const item = (value as Record<string, unknown>)[language];
      if (keep(item)) result[language] = item;
    }
    return result;
  };
  const isText = (item: unknown): item is string => typeof item === 'string' && item !== '';
  const isList = (item: unknown): item is string[] => Array.isArray(item) && item.every(isText);
  return {
    title: pick(profile['title'], isText),
    description: pick(profile['description'], isText),
    examples: pick(profile['examples'], isList),
  };
}

/** A collection's base URL as its API record shows it (null when it has none). */
export function collectionBaseUrl(collection: Pick<Collection, 'profile'>): string | null {
  const value = collection.profile['base_url'];
  return typeof value === 'string' ? value : null;
}

/** Merges `patch` into a collection's profile (e.g. `{ require_anchor: true }`); returns the collection. */
export async function updateCollectionProfile(
  db: Database,
  name: string,
  patch: Record<string, unknown>,
  workspaceId = DEFAULT_WORKSPACE,
): Promise<Collection> {
  const checked = checkedProfile(patch);
  const collection = await requireCollection(db, name, workspaceId);
  await db.query('UPDATE collections SET profile = profile || $2::jsonb WHERE id = $1', [
    collection.id,
    JSON.stringify(checked),
  ]);
  return requireCollection(db, name, workspaceId);
}

/**
 * Sets a collection's glossary (checked with `parseGlossary`: `INVALID_GLOSSARY` names the bad entry)
 * and its SHA-256, or removes it with null. Answers cached under the old glossary are no longer found:
 * the cache key holds the glossary's hash (answer/cache.ts).
 */
export async function setCollectionGlossary(
  db: Queryable,
  name: string,
  glossary: unknown,
  workspaceId = DEFAULT_WORKSPACE,
): Promise<Collection> {
  const checked = glossary === null ? null : parseGlossary(glossary);
  const collection = await requireCollection(db, name, workspaceId);
  await db.query('UPDATE collections SET glossary = $2::jsonb, glossary_sha256 = $3 WHERE id = $1', [
    collection.id,
    checked === null ? null : JSON.stringify(checked),
    checked === null ? null : glossarySha256(checked),
  ]);
  return requireCollection(db, name, workspaceId);
}
