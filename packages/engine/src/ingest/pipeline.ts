/**
 * Ingestion (docs/engine.md, "Ingestion"): bytes → SHA-256 (dedupe) → job → extraction (parse, chunk,
 * normalize, chunk hashes, document Merkle tree and per-chunk proofs; `extract.ts`, in the extraction
 * process for all but small text files) → embeddings in slices → storing.
 *
 * Storing is staged so that no step holds the event loop or the embedded database for long: one short
 * transaction writes the blob and the document as PROCESSING, the chunks follow in batches (retrieval
 * reads READY documents only), and a last short transaction checks that every chunk is there and makes
 * the document READY. Nothing partial is ever visible: a failure at any stage removes what was staged
 * and leaves only the job row saying which stage failed and why; the same bytes ingested again into
 * the same collection return the existing document.
 */

import { plainLabel, toHex } from '@saksi/proof';
import type { Collection } from '../collections.js';
import { type Database, type Queryable, runsOnPostgres } from '../db/database.js';
import { embedMany } from '../embed/embed-many.js';
import type { EmbeddingModel } from '../embed/model.js';
import { EngineError } from '../errors.js';
import { newId } from '../ids.js';
import { indexDocument, packOverride } from '../packs/registry.js';
import { commitKeywords, deleteKeywords, stageKeywords } from '../retrieve/keyword-index.js';
import { sha256Hex, storeBlob } from './blob-store.js';
import { detectType } from './detect.js';
import { IngestError, isIngestError } from './errors.js';
import {
  type DocumentSummary,
  type ExtractedChunk,
  type ExtractInput,
  type ExtractOptions,
  extractDocument,
} from './extract.js';
import { extractInProcess } from './extract-process.js';
import { IngestClock, type IngestListener, notifyIngested } from './ingest-report.js';
import { DEFAULT_INGEST_LIMITS, DEFAULT_OCR_SETTINGS, type IngestLimits } from './limits.js';
import { ocrLanguageOf } from './ocr-options.js';
import { foregroundBusy, giveWayToForeground } from './priority.js';
import { storableMetadata, storableText } from './storable.js';

export type IngestStage = 'queued' | 'parsing' | 'chunking' | 'embedding' | 'storing' | 'done';

export interface IngestInput {
  bytes: Uint8Array;
  filename: string;
  mime?: string;
  /** Overrides the parsed title. */
  title?: string;
  metadata?: Record<string, string | number | boolean>;
  document_type?: string;
  fiscal_year?: number;
  source?: string;
  uploader?: string;
}

/**
 * `input` with its file name and title as names are shown (`plainLabel`: no bidi overrides or other
 * invisible characters; docs/security.md), before either is stored, logged or parsed; and its other
 * fields storable (`storable.ts`: no NUL, which PostgreSQL's text and jsonb reject).
 */
export function withPlainNames(input: IngestInput): IngestInput {
  const filename = plainLabel(input.filename) || 'document';
  const title = input.title === undefined ? undefined : plainLabel(input.title);
  const { title: _given, ...rest } = input;
  const fields: IngestInput = { ...rest, filename };
  if (rest.metadata !== undefined) fields.metadata = storableMetadata(rest.metadata);
  for (const key of ['document_type', 'source', 'uploader'] as const) {
    const value = rest[key];
    if (value !== undefined) fields[key] = storableText(value);
  }
  return title ? { ...fields, title } : fields;
}

export interface IngestProgress {
  stage: IngestStage;
  /** 0–1 within the whole ingestion. */
  progress: number;
  detail?: string;
}

export interface DocumentRecord {
  id: string;
  collection: string;
  title: string;
  filename: string;
  mime: string;
  original_sha256: string;
  size: number;
  status: string;
  root: string | null;
  chunk_count: number;
  pages: number | null;
  document_type: string | null;
  fiscal_year: number | null;
  source: string | null;
  metadata: Record<string, unknown>;
  /** PENDING_ANCHOR → ANCHORING (in a sent round) → ANCHORED (its round is confirmed on chain). */
  anchor_state: 'PENDING_ANCHOR' | 'ANCHORING' | 'ANCHORED';
  created_at: string;
  updated_at: string;
  /** The ingestion stage last reached (parsing, chunking, embedding, storing, done). */
  stage: string | null;
  /** 0–1, from the document's latest job. */
  progress: number;
  /** Why ingestion failed (status FAILED). */
  error: { code: string; message: string } | null;
  /** The document's latest ingestion job. */
  job_id: string | null;
}

export interface IngestResult {
  document: DocumentRecord;
  job_id: string;
  deduplicated: boolean;
}

export interface IngestContext {
  db: Database;
  embedding: EmbeddingModel;
  maxBytes: number;
  /** Documents with more pages fail with QUOTA_EXCEEDED. */
  maxPages?: number;
  /** Chunk, text and memory bounds (default {@link DEFAULT_INGEST_LIMITS}); passing one is QUOTA_EXCEEDED. */
  limits?: IngestLimits;
  onProgress?: (progress: IngestProgress) => void;
  /**
   * Cancels the ingestion when it aborts: extraction stops (between PDF pages, or by ending the
   * extraction process) and nothing is stored; the ingestion rejects with the signal's reason.
   */
  signal?: AbortSignal;
  /** Times the stages (`ingest-report.ts`); the synchronous path and the job worker report them. */
  clock?: IngestClock;
  /** Hears each finished ingestion with its outcome and stage times. */
  onIngested?: IngestListener;
}

const DOCUMENT_COLUMNS = `d.id, c.name AS collection, d.title, d.filename, d.mime, d.original_sha256, d.size, d.status, d.root,
  d.chunk_count, d.pages, d.document_type, d.fiscal_year, d.source, d.metadata, d.anchor_state,
  to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at, d.stage, d.error, to_char(d.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at,
  (SELECT j.id FROM jobs j WHERE j.document_id = d.id ORDER BY j.created_at DESC LIMIT 1) AS job_id,
  COALESCE((SELECT j.progress FROM jobs j WHERE j.document_id = d.id ORDER BY j.created_at DESC LIMIT 1),
    CASE WHEN d.status IN ('READY', 'ARCHIVED') THEN 1 ELSE 0 END)::real AS progress`;

export async function findDocumentBySha(
  db: Queryable,
  collectionId: string,
  sha: string,
): Promise<DocumentRecord | null> {
  const result = await db.query<DocumentRecord>(
    `SELECT ${DOCUMENT_COLUMNS} FROM documents d JOIN collections c ON c.id = d.collection_id WHERE d.collection_id = $1 AND d.original_sha256 = $2`,
    [collectionId, sha],
  );
  return result.rows[0] ?? null;
}

/** A document by id; with `workspaceId`, only if it belongs to that workspace. */
export async function getDocument(
  db: Queryable,
  id: string,
  workspaceId?: string,
): Promise<DocumentRecord | null> {
  const result = await db.query<DocumentRecord>(
    `SELECT ${DOCUMENT_COLUMNS} FROM documents d JOIN collections c ON c.id = d.collection_id
      WHERE d.id = $1 AND ($2::text IS NULL OR c.workspace_id = $2)`,
    [id, workspaceId ?? null],
  );
  return result.rows[0] ?? null;
}

export interface ListDocumentsOptions {
  workspaceId?: string;
  collectionId?: string;
  status?: string;
  documentType?: string;
  fiscalYear?: number;
  limit: number;
  offset: number;
}

export async function listDocuments(
  db: Queryable,
  options: ListDocumentsOptions,
): Promise<{ items: DocumentRecord[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (options.workspaceId) add('c.workspace_id = ?', options.workspaceId);
  if (options.collectionId) add('d.collection_id = ?', options.collectionId);
  if (options.status) add('d.status = ?', options.status);
  if (options.documentType) add('d.document_type = ?', options.documentType);
  if (options.fiscalYear !== undefined) add('d.fiscal_year = ?', options.fiscalYear);
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const total = await db.query<{ n: number }>(
    `SELECT count(*)::integer AS n FROM documents d JOIN collections c ON c.id = d.collection_id ${clause}`,
    params,
  );
  const items = await db.query<DocumentRecord>(
    `SELECT ${DOCUMENT_COLUMNS} FROM documents d JOIN collections c ON c.id = d.collection_id ${clause}
      ORDER BY d.created_at DESC, d.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, options.limit, options.offset],
  );
  return { items: items.rows, total: total.rows[0]?.n ?? 0 };
}

async function setJob(
  db: Database,
  id: string,
  fields: { status?: string; stage?: string; progress?: number; error?: unknown; document_id?: string },
) {
  await db.query(
    `UPDATE jobs SET status = COALESCE($2, status), stage = COALESCE($3, stage), progress = COALESCE($4, progress),
       error = COALESCE($5, error), document_id = COALESCE($6, document_id), updated_at = now() WHERE id = $1`,
    [
      id,
      fields.status ?? null,
      fields.stage ?? null,
      fields.progress ?? null,
      fields.error === undefined ? null : JSON.stringify(fields.error),
      fields.document_id ?? null,
    ],
  );
}

/** A chunk ready to store: the draft plus its hash, proof and vector. */
export interface PreparedChunk extends ExtractedChunk {
  embedding: number[];
}

/** What parsing, chunking, hashing and embedding made of a file, ready to store. */
export interface PreparedDocument {
  parsed: DocumentSummary;
  prepared: PreparedChunk[];
  root: Uint8Array;
}

/**
 * Text files up to this size are read in place (a few milliseconds of work); larger
 * ones, and every PDF and Word file (whose text can be far larger than the file), in the extraction
 * process.
 */
export const INLINE_EXTRACT_MAX_BYTES = 64 * 1024;

/** The time one synchronous step of ingestion may hold the event loop before it yields. */
const STEP_BUDGET_MS = 25;

/** Lets timers, I/O and other callers (queued database statements included) run. */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Parses, chunks, normalizes, hashes (document tree and per-chunk proofs) and embeds a file; stores
 * nothing. `onStage` hears each stage as it starts (the synchronous path and the job worker record it).
 * Extraction runs in the extraction process (`extract-process.ts`) unless the file is small text; the
 * embedding goes in slices that each hold the event loop for about {@link STEP_BUDGET_MS}.
 */
export async function prepareDocument(
  context: Pick<
    IngestContext,
    'embedding' | 'maxBytes' | 'maxPages' | 'limits' | 'onProgress' | 'signal' | 'clock'
  >,
  collection: Collection,
  input: IngestInput,
  onStage: (stage: IngestStage, progress: number) => Promise<unknown> = async () => undefined,
): Promise<PreparedDocument> {
  const limits = context.limits ?? DEFAULT_INGEST_LIMITS;
  const { clock } = context;
  const report = (stage: IngestStage, progress: number, detail?: string) =>
    context.onProgress?.({ stage, progress, ...(detail ? { detail } : {}) });
  clock?.begin('parse');
  report('parsing', 0.05);
  await onStage('parsing', 0.05);
  // Stage writes run beside the work; the first one that fails (a lost job lease) fails the
  // ingestion once the work returns, instead of rejecting unobserved.
  const stageFailures: unknown[] = [];
  const beside = (stage: IngestStage, progress: number) => {
    onStage(stage, progress).catch((error: unknown) => {
      stageFailures.push(error);
    });
  };
  const extractInput: ExtractInput = {
    bytes: input.bytes,
    filename: input.filename,
    ...(input.mime ? { mime: input.mime } : {}),
  };
  // An admin's choice of the collection's document packs; without one every pack reads the document.
  const override = packOverride(collection);
  const options: ExtractOptions = {
    maxBytes: context.maxBytes,
    ...(context.maxPages !== undefined ? { maxPages: context.maxPages } : {}),
    maxChunks: limits.maxChunks,
    maxTextChars: limits.maxTextChars,
    // Scanned pages are read in the collection's language.
    ocr: { ...(limits.ocr ?? DEFAULT_OCR_SETTINGS), language: ocrLanguageOf(collection.language) },
    ...(override ? { packs: override } : {}),
  };
  const onChunking = () => {
    clock?.begin('chunk');
    report('chunking', 0.2);
    beside('chunking', 0.2);
  };
  // OCR is most of the parsing stage of a scanned PDF: its pages move the progress from 0.05 to 0.2.
  let ocrReported = 0;
  const onOcrPage = (done: number, total: number) => {
    if (clock) clock.ocrPages = total;
    const progress = 0.05 + 0.15 * (done / Math.max(1, total));
    report('parsing', progress, `OCR ${done}/${total} pages`);
    if (progress - ocrReported >= 0.015 || done === total) {
      ocrReported = progress;
      beside('parsing', progress);
    }
  };
  const control = { onOcrPage, ...(context.signal ? { signal: context.signal } : {}) };
  const extracted = readsInProcess(input)
    ? await extractInProcess(extractInput, options, limits.memoryMb, onChunking, control)
    : await extractDocument(extractInput, options, onChunking, control);
  clock?.end();
  if (stageFailures.length > 0) throw stageFailures[0];
  context.signal?.throwIfAborted();

  const { chunks } = extracted;
  await onStage('embedding', 0.3);
  clock?.begin('embed');
  let reported = 0;
  const vectors = await embedInSlices(context.embedding, chunks, (done, total) => {
    const progress = 0.3 + 0.6 * (done / total);
    report('embedding', progress, `${done}/${total} chunks`);
    // Persist coarse steps only: one write per tenth of the embedding work.
    if (progress - reported >= 0.06) {
      reported = progress;
      beside('embedding', progress);
    }
  });
  clock?.end();
  if (stageFailures.length > 0) throw stageFailures[0];
  const wrong = vectors.findIndex((vector) => vector?.length !== collection.embedding_dimensions);
  if (wrong >= 0 || vectors.length !== chunks.length) {
    throw new EngineError(
      'INGEST_FAILED',
      `The embedding model returned ${vectors[wrong]?.length ?? 'no'} dimensions; collection "${collection.name}" uses ${collection.embedding_dimensions}.`,
    );
  }
  const prepared = chunks.map((chunk, index): PreparedChunk => ({ ...chunk, embedding: vectors[index]! }));
  context.signal?.throwIfAborted();
  await onStage('storing', 0.92);
  report('storing', 0.92);
  return { parsed: extracted.summary, prepared, root: extracted.root };
}

/** Whether a file is read in the extraction process (see {@link INLINE_EXTRACT_MAX_BYTES}). */
function readsInProcess(input: IngestInput): boolean {
  if (input.bytes.length > INLINE_EXTRACT_MAX_BYTES) return true;
  try {
    const type = detectType(input.bytes, input.filename, input.mime);
    return type === 'pdf' || type === 'docx';
  } catch {
    // Not a supported type: the inline parser says so.
    return false;
  }
}

/**
 * Embeds the chunks in slices, yielding to the event loop between them. A slice is sized by the time
 * the model held the thread for the previous one (an in-process model such as the hash model computes
 * synchronously; a remote one only waits), so it grows to the model's `maxEmbeddingsPerCall` for a
 * remote model and stays near {@link STEP_BUDGET_MS} of work for an in-process one.
 */
async function embedInSlices(
  model: EmbeddingModel,
  chunks: readonly { text: string }[],
  onProgress: (done: number, total: number) => void,
): Promise<number[][]> {
  const most = Number.isFinite(model.maxEmbeddingsPerCall)
    ? Math.max(1, Math.floor(model.maxEmbeddingsPerCall))
    : chunks.length;
  let size = Math.min(most, 8);
  const vectors: number[][] = [];
  while (vectors.length < chunks.length) {
    const texts = chunks.slice(vectors.length, vectors.length + size).map((chunk) => chunk.text);
    const started = performance.now();
    const pending = embedMany(model, texts);
    const held = performance.now() - started;
    for (const vector of await pending) vectors.push(vector);
    onProgress(vectors.length, chunks.length);
    size = nextStepSize(size, held, most);
    await yieldToEventLoop();
  }
  return vectors;
}

/** The next batch size: scaled so a step takes about `budgetMs` ({@link STEP_BUDGET_MS}), at most doubling. */
function nextStepSize(size: number, elapsedMs: number, most: number, budgetMs = STEP_BUDGET_MS): number {
  const scaled = elapsedMs <= 0 ? size * 2 : Math.floor((size * budgetMs) / elapsedMs);
  return Math.max(1, Math.min(most, size * 2, scaled));
}

/** Ingests one document into `collection`. Throws `EngineError` (INGEST_FAILED / INVALID_INPUT / QUOTA_EXCEEDED) on failure. */
export async function ingestDocument(
  context: IngestContext,
  collection: Collection,
  input: IngestInput,
): Promise<IngestResult> {
  const { db } = context;
  const report = (stage: IngestStage, progress: number, detail?: string) =>
    context.onProgress?.({ stage, progress, ...(detail ? { detail } : {}) });
  if (input.bytes.length > context.maxBytes) {
    // The same typed error as a file the parser finds too large (INGEST_FAILED, cause FILE_TOO_LARGE, 413).
    throw toEngineError(
      new IngestError(
        'FILE_TOO_LARGE',
        `The file is ${input.bytes.length} bytes; the limit is ${context.maxBytes} bytes.`,
      ),
      'queued',
    );
  }
  const clock = context.clock ?? new IngestClock();
  const originalSha = await sha256Hex(input.bytes);
  const existing = await findDocumentBySha(db, collection.id, originalSha);
  const jobId = newId('job');
  if (existing) {
    notifyIngested(context.onIngested, clock.report('deduplicated', { jobId, documentId: existing.id }));
    await db.query(
      `INSERT INTO jobs (id, kind, status, collection_id, document_id, stage, progress, started_at, finished_at)
       VALUES ($1, 'ingest', 'SUCCEEDED', $2, $3, 'done', 1, now(), now())`,
      [jobId, collection.id, existing.id],
    );
    report('done', 1, 'already ingested (same SHA-256)');
    return { document: existing, job_id: jobId, deduplicated: true };
  }
  await db.query(
    `INSERT INTO jobs (id, kind, status, collection_id, stage, started_at) VALUES ($1, 'ingest', 'RUNNING', $2, 'parsing', now())`,
    [jobId, collection.id],
  );

  let stage: IngestStage = 'parsing';
  let staged: { blob: string; documentId?: string } | undefined;
  try {
    const { parsed, prepared, root } = await prepareDocument(
      { ...context, clock },
      collection,
      input,
      (next, progress) => {
        stage = next;
        return setJob(db, jobId, { stage: next, progress });
      },
    );

    stage = 'storing';
    clock.begin('store');
    const documentId = newId('doc');
    const metadata = { ...parsed.metadata, ...input.metadata };
    const title = input.title ?? parsed.title;
    // Staged: the document is PROCESSING while its chunks go in, batch by batch; retrieval reads READY
    // documents only, and the last transaction makes it READY at once.
    await storeBlob(db, originalSha, input.bytes);
    staged = { blob: originalSha };
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO documents (id, collection_id, title, filename, mime, original_sha256, size, metadata, document_type, fiscal_year,
           source, uploader, status, stage, root, chunk_count, pages)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'PROCESSING', 'storing', $13, $14, $15)`,
        [
          documentId,
          collection.id,
          title,
          input.filename,
          parsed.mime,
          originalSha,
          input.bytes.length,
          JSON.stringify(metadata),
          input.document_type ?? stringValue(metadata['document_type']) ?? null,
          input.fiscal_year ?? numberValue(metadata['fiscal_year']) ?? null,
          input.source ?? stringValue(metadata['source']) ?? null,
          input.uploader ?? null,
          toHex(root),
          prepared.length,
          parsed.pages ?? null,
        ],
      );
    });
    staged = { blob: originalSha, documentId };
    await storeChunks(db, documentId, collection, prepared);
    const keywords = await stageKeywords(db, documentId, yieldToEventLoop);
    await db.transaction(async (tx) => {
      await requireStagedChunks(tx, documentId, prepared.length);
      const ready = await tx.query(
        `UPDATE documents SET status = 'READY', stage = 'done', updated_at = clock_timestamp() WHERE id = $1 AND status = 'PROCESSING'`,
        [documentId],
      );
      if (ready.rowCount === 0) {
        throw new EngineError('CONFLICT', 'The document was deleted while it was being ingested.');
      }
      await commitKeywords(tx, keywords);
      await indexDocument(tx, collection, documentId);
      await tx.query(
        `INSERT INTO audit_log (actor, action, target, details) VALUES ($1, 'document.ingest', $2, $3)`,
        [
          input.uploader ?? null,
          documentId,
          JSON.stringify({
            collection: collection.name,
            filename: input.filename,
            sha256: originalSha,
            chunks: prepared.length,
          }),
        ],
      );
      // Last, so the job says finished when its document is READY (the commit is moments later).
      await tx.query(
        `UPDATE jobs SET status = 'SUCCEEDED', stage = 'done', progress = 1, document_id = $2, finished_at = clock_timestamp(),
           updated_at = clock_timestamp() WHERE id = $1`,
        [jobId, documentId],
      );
    });
    staged = undefined;
    notifyIngested(context.onIngested, clock.report('succeeded', { jobId, documentId }));
    report('done', 1, `${prepared.length} chunks`);
    const document = await getDocument(db, documentId);
    return { document: document!, job_id: jobId, deduplicated: false };
  } catch (error) {
    // Nothing of a failed ingestion stays: its staged document and chunks go.
    if (staged !== undefined) await discardStaged(db, staged).catch(() => undefined);
    // Same bytes stored by a concurrent ingestion between our check and our insert: that is a dedupe.
    const raced = await findDocumentBySha(db, collection.id, originalSha).catch(() => null);
    if (raced) {
      await setJob(db, jobId, { status: 'SUCCEEDED', stage: 'done', progress: 1, document_id: raced.id });
      notifyIngested(context.onIngested, clock.report('deduplicated', { jobId, documentId: raced.id }));
      return { document: raced, job_id: jobId, deduplicated: true };
    }
    const code = isIngestError(error) ? error.code : error instanceof EngineError ? error.code : 'INTERNAL';
    const message = error instanceof Error ? error.message : 'Ingestion failed.';
    await setJob(db, jobId, { status: 'FAILED', stage, error: { code, message } }).catch(() => undefined);
    notifyIngested(context.onIngested, clock.report('failed', { jobId, error }));
    throw toEngineError(error, stage);
  }
}

/**
 * The engine's error for a failed ingestion: `QUOTA_EXCEEDED` (413) past a limit, `INGEST_FAILED`
 * for any other unreadable file (413 too large, 415 unsupported, 422 otherwise), engine errors as
 * they are.
 */
export function toEngineError(error: unknown, stage: IngestStage): EngineError {
  if (isIngestError(error)) {
    if (error.code === 'QUOTA_EXCEEDED') {
      return new EngineError('QUOTA_EXCEEDED', error.message, { cause: error, status: 413 });
    }
    return new EngineError('INGEST_FAILED', error.message, {
      cause: error,
      status: error.code === 'FILE_TOO_LARGE' ? 413 : error.code === 'UNSUPPORTED_TYPE' ? 415 : 422,
    });
  }
  if (error instanceof EngineError) return error;
  const message = error instanceof Error ? error.message : 'Ingestion failed.';
  return new EngineError('INGEST_FAILED', `Ingestion failed while ${stage}: ${message}`, { cause: error });
}

export function stringValue(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0
    ? value
    : typeof value === 'number'
      ? String(value)
      : undefined;
}

export function numberValue(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isSafeInteger(number) ? number : undefined;
}

/** Most rows in one INSERT on PGlite; fewer when the rows take long to write (see {@link storeChunks}). */
const MAX_ROWS_PER_INSERT = 200;
/** Most rows in one INSERT on PostgreSQL, where a statement holds no event loop. */
const MAX_ROWS_PER_INSERT_POSTGRES = 1_000;
/** The time one INSERT of chunks may take on PostgreSQL (its statements run in the database's processes). */
const POSTGRES_STEP_BUDGET_MS = 250;
const FIRST_ROWS_PER_INSERT = 4;
/** While queries run, a batch is at most this many rows, after waiting up to {@link GIVE_WAY_MS} for them. */
const FOREGROUND_ROWS_PER_INSERT = 8;
const GIVE_WAY_MS = 100;

/**
 * Writes a document's chunks in batches, each its own statement, yielding to the event loop between
 * them. On the embedded PGlite a statement runs on this thread (a chunk costs milliseconds of index
 * upkeep there), so one big statement — or one big transaction, which holds PGlite's single
 * connection — would stall everything else: a batch is sized by how long the previous one took, to
 * about {@link STEP_BUDGET_MS}, up to {@link MAX_ROWS_PER_INSERT} rows. On PostgreSQL a statement holds
 * no event loop, and batches grow to {@link POSTGRES_STEP_BUDGET_MS} and
 * {@link MAX_ROWS_PER_INSERT_POSTGRES} rows (fewer statements, each parsed and planned once).
 *
 * Ingestion gives way to queries (`priority.ts`): while one runs in this process, the next batch
 * waits for it (up to {@link GIVE_WAY_MS}) and holds at most {@link FOREGROUND_ROWS_PER_INSERT} rows.
 *
 * The rows are staged: call it only for a document that is not READY (retrieval reads READY documents
 * only), and make the document READY afterwards in one transaction. `beforeBatch` runs before each
 * batch and may throw to stop (a job that lost its lease).
 */
export async function storeChunks(
  db: Queryable,
  documentId: string,
  collection: Collection,
  chunks: readonly PreparedChunk[],
  beforeBatch: () => void = () => undefined,
): Promise<void> {
  const postgres = runsOnPostgres(db);
  const [budget, most] = postgres
    ? [POSTGRES_STEP_BUDGET_MS, MAX_ROWS_PER_INSERT_POSTGRES]
    : [STEP_BUDGET_MS, MAX_ROWS_PER_INSERT];
  let size = FIRST_ROWS_PER_INSERT;
  for (let start = 0; start < chunks.length; ) {
    beforeBatch();
    const gaveWay = await giveWayToForeground(GIVE_WAY_MS);
    if (gaveWay) beforeBatch();
    const rows = gaveWay || foregroundBusy() ? Math.min(size, FOREGROUND_ROWS_PER_INSERT) : size;
    const batch = chunks.slice(start, start + rows);
    const started = performance.now();
    await insertChunkRows(db, documentId, collection, batch);
    size = nextStepSize(rows, performance.now() - started, most, budget);
    start += batch.length;
    await yieldToEventLoop();
  }
}

/**
 * One `INSERT … SELECT FROM unnest(…)` for a batch: a column is one array parameter, so the statement
 * has 19 parameters whatever the batch size (a multi-row VALUES list had 18 per row, thousands to bind
 * and a new statement text for every batch size).
 */
async function insertChunkRows(
  db: Queryable,
  documentId: string,
  collection: Collection,
  batch: readonly PreparedChunk[],
): Promise<void> {
  const column = <T>(value: (chunk: PreparedChunk) => T): T[] => batch.map(value);
  await db.query(
    `INSERT INTO chunks (id, document_id, collection_id, position, text, sha256, kind, page, section_path, legal, table_html,
       context_before, context_after, token_count, proof_path, embedding, embedding_dimensions, text_search_config, anchor,
       ocr_confidence)
     SELECT $1 || '-' || t.position, $1, $2, t.position, t.text, t.sha256, t.kind, t.page, t.section_path::jsonb,
            t.legal::jsonb, t.table_html, t.context_before, t.context_after, t.token_count, t.proof_path::jsonb,
            t.embedding::vector, $3::integer, $4::regconfig, t.anchor, t.ocr_confidence
       FROM unnest($5::integer[], $6::text[], $7::text[], $8::text[], $9::integer[], $10::text[], $11::text[],
                   $12::text[], $13::text[], $14::text[], $15::integer[], $16::text[], $17::text[], $18::text[],
                   $19::real[])
         AS t(position, text, sha256, kind, page, section_path, legal, table_html, context_before, context_after,
              token_count, proof_path, embedding, anchor, ocr_confidence)`,
    [
      documentId,
      collection.id,
      collection.embedding_dimensions,
      collection.text_search_config,
      column((chunk) => chunk.position),
      column((chunk) => chunk.text),
      column((chunk) => chunk.sha256),
      column((chunk) => chunk.kind),
      column((chunk) => chunk.page ?? null),
      column((chunk) => JSON.stringify(chunk.section_path)),
      column((chunk) => (chunk.legal ? JSON.stringify(chunk.legal) : null)),
      column((chunk) => chunk.table_html ?? null),
      column((chunk) => chunk.context_before),
      column((chunk) => chunk.context_after),
      column((chunk) => chunk.token_count),
      column((chunk) => JSON.stringify(chunk.proof)),
      column((chunk) => `[${chunk.embedding.join(',')}]`),
      column((chunk) => chunk.anchor ?? null),
      column((chunk) => chunk.ocr_confidence ?? null),
    ],
  );
}

/**
 * Inside the transaction that makes a document READY: its staged chunks must all be there (a lost
 * job lease or a concurrent clean-up could have left fewer), or the document would be partial.
 */
export async function requireStagedChunks(
  tx: Queryable,
  documentId: string,
  expected: number,
): Promise<void> {
  const found = await tx.query<{ n: number }>(
    'SELECT count(*)::integer AS n FROM chunks WHERE document_id = $1',
    [documentId],
  );
  const count = found.rows[0]?.n ?? 0;
  if (count !== expected) {
    throw new Error(
      `${count} of the document's ${expected} chunks were stored; the ingestion is tried again.`,
    );
  }
}

/**
 * Deletes a document's staged chunks in batches (each its own statement, yielding between them), and
 * their keyword postings.
 */
export async function deleteStagedChunks(db: Queryable, documentId: string): Promise<void> {
  await deleteKeywords(db, documentId);
  for (;;) {
    const started = performance.now();
    const deleted = await db.query(
      `DELETE FROM chunks WHERE id IN (SELECT id FROM chunks WHERE document_id = $1 LIMIT ${MAX_ROWS_PER_INSERT * 5})`,
      [documentId],
    );
    if (deleted.rowCount === 0) return;
    if (performance.now() - started > STEP_BUDGET_MS / 2) await yieldToEventLoop();
  }
}

/**
 * A synchronous ingestion that failed after staging: its chunks, its document, then its original
 * unless another document, or an upload waiting to be processed, holds the same bytes.
 */
async function discardStaged(db: Database, staged: { blob: string; documentId?: string }): Promise<void> {
  if (staged.documentId !== undefined) {
    await deleteStagedChunks(db, staged.documentId);
    await db.query(`DELETE FROM documents WHERE id = $1 AND status = 'PROCESSING'`, [staged.documentId]);
  }
  await db.query(
    `DELETE FROM blobs WHERE sha256 = $1 AND NOT EXISTS (SELECT 1 FROM documents WHERE original_sha256 = $1)
       AND NOT EXISTS (SELECT 1 FROM uploads WHERE sha256 = $1 AND status = 'UPLOADED')`,
    [staged.blob],
  );
}

/** Deletes a document and its chunks (its blob stays if another document shares it). */
export async function deleteDocument(db: Database, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const result = await tx.query('DELETE FROM documents WHERE id = $1', [id]);
    if (result.rowCount > 0) {
      await tx.query(`INSERT INTO audit_log (action, target) VALUES ('document.delete', $1)`, [id]);
    }
    return result.rowCount > 0;
  });
}
