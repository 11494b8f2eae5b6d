/**
 * Ingestion (DESIGN.md §4): bytes → SHA-256 (dedupe) → job → parse → chunk → normalize → chunk hashes
 * → document Merkle tree and per-chunk proofs → embeddings in batches → ONE transaction that writes
 * the blob, the document (READY), its chunks with vectors, proofs and text-search vectors.
 *
 * Nothing partial is ever visible: a failure at any stage leaves only the job row saying which stage
 * failed and why; the same bytes ingested again into the same collection return the existing document.
 */
import { hashLeaf, normalizeText, sha256, toHex, utf8Encode } from '@saksi/proof';
import { indexBudgetFigures } from '../budget/figure-table.js';
import type { Collection } from '../collections.js';
import type { Database, Queryable } from '../db/database.js';
import { embedMany } from '../embed/embed-many.js';
import type { EmbeddingModel } from '../embed/model.js';
import { EngineError } from '../errors.js';
import { newId } from '../ids.js';
import type { ChunkDraft, ParsedDocument } from '../types.js';
import { chunkDocument } from './chunk.js';
import { baseName } from './detect.js';
import { buildDocumentTree } from './document-tree.js';
import { isIngestError } from './errors.js';
import { parseRegulation } from './legal-structure.js';
import { parseDocument } from './parse.js';

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
  onProgress?: (progress: IngestProgress) => void;
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
export interface PreparedChunk extends ChunkDraft {
  sha256: string;
  proof: string[];
  embedding: number[];
}

/** What parsing, chunking, hashing and embedding made of a file, ready to store. */
export interface PreparedDocument {
  parsed: ParsedDocument;
  prepared: PreparedChunk[];
  root: Uint8Array;
}

/**
 * Parses, chunks, normalizes, hashes (document tree and per-chunk proofs) and embeds a file; stores
 * nothing. `onStage` hears each stage as it starts (the synchronous path and the job worker record it).
 */
export async function prepareDocument(
  context: Pick<IngestContext, 'embedding' | 'maxBytes' | 'maxPages' | 'onProgress'>,
  collection: Collection,
  input: IngestInput,
  onStage: (stage: IngestStage, progress: number) => Promise<unknown> = async () => undefined,
): Promise<PreparedDocument> {
  const report = (stage: IngestStage, progress: number, detail?: string) =>
    context.onProgress?.({ stage, progress, ...(detail ? { detail } : {}) });
  report('parsing', 0.05);
  await onStage('parsing', 0.05);
  let parsed = await parseDocument(input.bytes, {
    filename: input.filename,
    ...(input.mime ? { mime: input.mime } : {}),
    maxBytes: context.maxBytes,
  });
  if (context.maxPages !== undefined && parsed.pages !== undefined && parsed.pages > context.maxPages) {
    throw new EngineError(
      'QUOTA_EXCEEDED',
      `The document has ${parsed.pages} pages; the limit is ${context.maxPages}.`,
      { status: 413 },
    );
  }
  // Regulations in text or Markdown form: BAB / Bagian / Pasal / ayat / Penjelasan structure.
  if (parsed.mime === 'text/markdown' || parsed.mime === 'text/plain') {
    // The file's own name, not its folders: a regulation without a title line is named after it.
    const regulation = parseRegulation(new TextDecoder().decode(input.bytes), baseName(input.filename));
    if (regulation)
      parsed = {
        ...regulation,
        mime: parsed.mime,
        metadata: { ...parsed.metadata, ...regulation.metadata },
      };
  }
  await onStage('chunking', 0.2);
  report('chunking', 0.2);
  const drafts = chunkDocument(parsed).map((draft) => ({ ...draft, text: normalizeText(draft.text) }));
  if (drafts.length === 0) throw new EngineError('INGEST_FAILED', 'The document has no text to index.');
  const leafHashes = drafts.map((draft) => hashLeaf(sha256(utf8Encode(draft.text))));
  const tree = buildDocumentTree(leafHashes);

  await onStage('embedding', 0.3);
  let reported = 0;
  // Progress writes run beside the embedding; the first one that fails (a lost job lease) fails the
  // ingestion once the embedding returns, instead of rejecting unobserved.
  let stageFailure: { error: unknown } | undefined;
  const vectors = await embedMany(
    context.embedding,
    drafts.map((draft) => draft.text),
    {
      onProgress: (done, total) => {
        const progress = 0.3 + 0.6 * (done / total);
        report('embedding', progress, `${done}/${total} chunks`);
        // Persist coarse steps only: one write per tenth of the embedding work.
        if (progress - reported >= 0.06) {
          reported = progress;
          onStage('embedding', progress).catch((error: unknown) => {
            stageFailure ??= { error };
          });
        }
      },
    },
  );
  if (stageFailure) throw stageFailure.error;
  const wrong = vectors.findIndex((vector) => vector?.length !== collection.embedding_dimensions);
  if (wrong >= 0 || vectors.length !== drafts.length) {
    throw new EngineError(
      'INGEST_FAILED',
      `The embedding model returned ${vectors[wrong]?.length ?? 'no'} dimensions; collection "${collection.name}" uses ${collection.embedding_dimensions}.`,
    );
  }
  const prepared: PreparedChunk[] = drafts.map((draft, index) => ({
    ...draft,
    sha256: toHex(sha256(utf8Encode(draft.text))),
    proof: tree.proof(index).map(toHex),
    embedding: vectors[index]!,
  }));
  await onStage('storing', 0.92);
  report('storing', 0.92);
  return { parsed, prepared, root: tree.root };
}

/** Ingests one document into `collection`. Throws `EngineError` (INGEST_FAILED / INVALID_INPUT) on failure. */
export async function ingestDocument(
  context: IngestContext,
  collection: Collection,
  input: IngestInput,
): Promise<IngestResult> {
  const { db } = context;
  const report = (stage: IngestStage, progress: number, detail?: string) =>
    context.onProgress?.({ stage, progress, ...(detail ? { detail } : {}) });
  if (input.bytes.length > context.maxBytes) {
    throw new EngineError(
      'INVALID_INPUT',
      `The file is ${input.bytes.length} bytes; the limit is ${context.maxBytes}.`,
      { status: 413 },
    );
  }
  const originalSha = toHex(sha256(input.bytes));
  const existing = await findDocumentBySha(db, collection.id, originalSha);
  const jobId = newId('job');
  if (existing) {
    await db.query(
      `INSERT INTO jobs (id, kind, status, collection_id, document_id, stage, progress) VALUES ($1, 'ingest', 'SUCCEEDED', $2, $3, 'done', 1)`,
      [jobId, collection.id, existing.id],
    );
    report('done', 1, 'already ingested (same SHA-256)');
    return { document: existing, job_id: jobId, deduplicated: true };
  }
  await db.query(
    `INSERT INTO jobs (id, kind, status, collection_id, stage) VALUES ($1, 'ingest', 'RUNNING', $2, 'parsing')`,
    [jobId, collection.id],
  );

  let stage: IngestStage = 'parsing';
  try {
    const { parsed, prepared, root } = await prepareDocument(context, collection, input, (next, progress) => {
      stage = next;
      return setJob(db, jobId, { stage: next, progress });
    });

    stage = 'storing';
    const documentId = newId('doc');
    const metadata = { ...parsed.metadata, ...input.metadata };
    const title = input.title ?? parsed.title;
    await db.transaction(async (tx) => {
      await tx.query(
        'INSERT INTO blobs (sha256, bytes, size) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING',
        [originalSha, input.bytes, input.bytes.length],
      );
      await tx.query(
        `INSERT INTO documents (id, collection_id, title, filename, mime, original_sha256, size, metadata, document_type, fiscal_year,
           source, uploader, status, stage, root, chunk_count, pages)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'READY', 'done', $13, $14, $15)`,
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
      await insertChunks(tx, documentId, collection, prepared);
      await indexBudgetFigures(tx, documentId);
      await tx.query(
        `UPDATE jobs SET status = 'SUCCEEDED', stage = 'done', progress = 1, document_id = $2, updated_at = now() WHERE id = $1`,
        [jobId, documentId],
      );
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
    });
    report('done', 1, `${prepared.length} chunks`);
    const document = await getDocument(db, documentId);
    return { document: document!, job_id: jobId, deduplicated: false };
  } catch (error) {
    // Same bytes stored by a concurrent ingestion between our check and our insert: that is a dedupe.
    const raced = await findDocumentBySha(db, collection.id, originalSha).catch(() => null);
    if (raced) {
      await setJob(db, jobId, { status: 'SUCCEEDED', stage: 'done', progress: 1, document_id: raced.id });
      return { document: raced, job_id: jobId, deduplicated: true };
    }
    const code = isIngestError(error) ? error.code : error instanceof EngineError ? error.code : 'INTERNAL';
    const message = error instanceof Error ? error.message : 'Ingestion failed.';
    await setJob(db, jobId, { status: 'FAILED', stage, error: { code, message } }).catch(() => undefined);
    if (isIngestError(error)) {
      throw new EngineError('INGEST_FAILED', message, {
        cause: error,
        status: error.code === 'FILE_TOO_LARGE' ? 413 : error.code === 'UNSUPPORTED_TYPE' ? 415 : 422,
      });
    }
    if (error instanceof EngineError) throw error;
    throw new EngineError('INGEST_FAILED', `Ingestion failed while ${stage}: ${message}`, { cause: error });
  }
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

const CHUNK_COLUMNS = 18;
const ROWS_PER_INSERT = 200;

export async function insertChunks(
  tx: Queryable,
  documentId: string,
  collection: Collection,
  chunks: PreparedChunk[],
): Promise<void> {
  for (let start = 0; start < chunks.length; start += ROWS_PER_INSERT) {
    const batch = chunks.slice(start, start + ROWS_PER_INSERT);
    const params: unknown[] = [];
    const rows = batch.map((chunk, row) => {
      params.push(
        `${documentId}-${chunk.position}`,
        documentId,
        collection.id,
        chunk.position,
        chunk.text,
        chunk.sha256,
        chunk.kind,
        chunk.page ?? null,
        JSON.stringify(chunk.section_path),
        chunk.legal ? JSON.stringify(chunk.legal) : null,
        chunk.table_html ?? null,
        chunk.context_before,
        chunk.context_after,
        chunk.token_count,
        JSON.stringify(chunk.proof),
        `[${chunk.embedding.join(',')}]`,
        collection.text_search_config,
        chunk.anchor ?? null,
      );
      const base = row * CHUNK_COLUMNS;
      const p = (i: number) => `$${base + i}`;
      return `(${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)}, ${p(10)}, ${p(11)}, ${p(12)}, ${p(13)}, ${p(14)}, ${p(15)}, ${p(16)}::vector, ${collection.embedding_dimensions}, ${p(17)}::regconfig, ${p(18)})`;
    });
    await tx.query(
      `INSERT INTO chunks (id, document_id, collection_id, position, text, sha256, kind, page, section_path, legal, table_html,
         context_before, context_after, token_count, proof_path, embedding, embedding_dimensions, text_search_config, anchor)
       VALUES ${rows.join(', ')}`,
      params,
    );
  }
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
