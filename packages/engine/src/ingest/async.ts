/**
 * Asynchronous ingestion (docs/api.md, "Documents"; docs/engine.md, "Ingestion"): `submitDocument`
 * stores the bytes (content-addressed, in parts, so a blob is shared across workspaces), then creates
 * the document PENDING and queues an `ingest` job in one transaction, and answers at once. A worker
 * (`JobWorker`, in-process or `saksi worker`) runs the job: PROCESSING with its stage and progress, the
 * chunks staged in batches (retrieval reads READY documents only), then one short transaction that
 * checks every chunk is there, marks the document READY, completes the job (guarded by its claim
 * token, so a job taken over after a crash commits once) and queues the `document.ready` webhook event.
 *
 * Dedupe: the same bytes in the same collection return the existing document; in another collection
 * of the same workspace (same embedding model) the chunks are copied without parsing, keeping the
 * same root. Another workspace shares only the stored blob — it parses its own copy and sees none of
 * the first workspace's rows.
 */
import { toHex } from '@saksi/proof';
import type { Collection } from '../collections.js';
import type { Database, Queryable } from '../db/database.js';
import type { EmbeddingModel } from '../embed/model.js';
import { EngineError } from '../errors.js';
import { newId } from '../ids.js';
import { type ClaimedJob, completeJob, enqueueJob, getJob, type JobRow } from '../jobs/queue.js';
import { isRetryableJobError, type JobContext, type JobHandler } from '../jobs/worker.js';
import { indexDocument } from '../packs/registry.js';
import { commitKeywords, stageKeywords } from '../retrieve/keyword-index.js';
import { enqueueWebhookEvent } from '../webhooks.js';
import { readBlob, sha256Hex, storeBlob } from './blob-store.js';
import { detectType, MIME_TYPES } from './detect.js';
import { IngestError, isIngestError } from './errors.js';
import { IngestClock, type IngestListener, type IngestOutcome, notifyIngested } from './ingest-report.js';
import { DEFAULT_INGEST_LIMITS, type IngestLimits } from './limits.js';
import {
  type DocumentRecord,
  deleteStagedChunks,
  findDocumentBySha,
  getDocument,
  type IngestInput,
  numberValue,
  prepareDocument,
  requireStagedChunks,
  storeChunks,
  stringValue,
  yieldToEventLoop,
} from './pipeline.js';

/** The quotas in force for one workspace (configured defaults overridden by the workspace's own). */
export interface EffectiveQuotas {
  max_document_bytes: number;
  max_pages: number;
  max_storage_bytes: number;
}

export interface SubmitContext {
  db: Database;
  workspaceId: string;
  quotas: EffectiveQuotas;
  maxAttempts: number;
}

export interface SubmitResult {
  document: DocumentRecord;
  job: JobRow;
  /** True when nothing needs parsing: the bytes were already ingested in this workspace. */
  deduplicated: boolean;
}

/** The ingestion fields kept in the job's payload (the bytes stay in `blobs`). */
interface IngestPayload {
  filename: string;
  mime?: string;
  title?: string;
  metadata?: Record<string, string | number | boolean>;
  document_type?: string;
  fiscal_year?: number;
  source?: string;
  uploader?: string;
}

/** Bytes stored by the workspace's documents (originals, counted once per document). */
export async function workspaceStorage(
  db: Queryable,
  workspaceId: string,
): Promise<{ documents: number; bytes: number }> {
  const result = await db.query<{ documents: number; bytes: string | number }>(
    `SELECT count(*)::integer AS documents, COALESCE(sum(d.size), 0)::bigint AS bytes
       FROM documents d JOIN collections c ON c.id = d.collection_id WHERE c.workspace_id = $1`,
    [workspaceId],
  );
  const row = result.rows[0];
  return { documents: row?.documents ?? 0, bytes: Number(row?.bytes ?? 0) };
}

/** Accepts a file for ingestion; returns at once with the document (PENDING unless deduplicated) and its job. */
export async function submitDocument(
  context: SubmitContext,
  collection: Collection,
  input: IngestInput,
): Promise<SubmitResult> {
  const { db, quotas } = context;
  if (collection.workspace_id !== context.workspaceId) {
    throw new EngineError('NOT_FOUND', `No collection named "${collection.name}".`);
  }
  if (input.bytes.length === 0) {
    const empty = new IngestError(
      'EMPTY_FILE',
      `${input.filename} is empty (0 bytes); upload the file again.`,
    );
    throw new EngineError('INGEST_FAILED', empty.message, { status: 422, cause: empty });
  }
  if (input.bytes.length > quotas.max_document_bytes) {
    throw new EngineError(
      'QUOTA_EXCEEDED',
      `The file is ${input.bytes.length} bytes; this workspace accepts documents up to ${quotas.max_document_bytes} bytes.`,
      { status: 413 },
    );
  }
  const originalSha = await sha256Hex(input.bytes);

  const existing = await findDocumentBySha(db, collection.id, originalSha);
  if (existing) return reuseExisting(context, collection, existing);

  const storage = await workspaceStorage(db, context.workspaceId);
  if (storage.bytes + input.bytes.length > quotas.max_storage_bytes) {
    throw new EngineError(
      'QUOTA_EXCEEDED',
      `This workspace stores ${storage.bytes} bytes; adding ${input.bytes.length} would pass its quota of ${quotas.max_storage_bytes} bytes.`,
      { status: 413 },
    );
  }

  const copied = await copyFromWorkspace(context, collection, input, originalSha);
  if (copied) return copied;

  const payload = ingestPayload(input);
  // The original first, in parts (content-addressed, so a concurrent upload of the same bytes writes
  // the same rows); then the document and its job, at once.
  await storeBlob(db, originalSha, input.bytes);
  const created = await db.transaction(async (tx) => {
    const documentId = newId('doc');
    const inserted = await tx.query(
      `INSERT INTO documents (id, collection_id, title, filename, mime, original_sha256, size, metadata, document_type,
         fiscal_year, source, uploader, status, stage)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'PENDING', 'queued')
       ON CONFLICT (collection_id, original_sha256) DO NOTHING`,
      [
        documentId,
        collection.id,
        input.title ?? input.filename,
        input.filename,
        likelyMime(input),
        originalSha,
        input.bytes.length,
        JSON.stringify(input.metadata ?? {}),
        input.document_type ?? null,
        input.fiscal_year ?? null,
        input.source ?? null,
        input.uploader ?? null,
      ],
    );
    if (inserted.rowCount === 0) return null;
    const job = await enqueueJob(tx, {
      kind: 'ingest',
      workspaceId: context.workspaceId,
      collectionId: collection.id,
      documentId,
      payload: { ...payload },
      maxAttempts: context.maxAttempts,
      stage: 'queued',
    });
    await audit(tx, input.uploader, 'document.submit', documentId, {
      collection: collection.name,
      filename: input.filename,
      sha256: originalSha,
      job: job.id,
    });
    return { documentId, job };
  });
  // Lost a race with an identical upload: that one is the document.
  if (!created) {
    const raced = await findDocumentBySha(db, collection.id, originalSha);
    if (!raced) throw new EngineError('CONFLICT', 'The upload collided with a deletion; send it again.');
    return reuseExisting(context, collection, raced);
  }
  return { document: (await getDocument(db, created.documentId))!, job: created.job, deduplicated: false };
}

/** The same bytes are already in this collection: return that document (or queue it again if it failed). */
async function reuseExisting(
  context: SubmitContext,
  collection: Collection,
  existing: DocumentRecord,
): Promise<SubmitResult> {
  const { db } = context;
  if (existing.status === 'FAILED') {
    const job = await db.transaction(async (tx) => {
      await tx.query(
        `UPDATE documents SET status = 'PENDING', stage = 'queued', error = NULL, updated_at = now() WHERE id = $1`,
        [existing.id],
      );
      const previous = existing.job_id ? await getJob(tx, existing.job_id) : null;
      return enqueueJob(tx, {
        kind: 'ingest',
        workspaceId: context.workspaceId,
        collectionId: collection.id,
        documentId: existing.id,
        payload: previous?.payload ?? { filename: existing.filename },
        maxAttempts: context.maxAttempts,
        stage: 'queued',
      });
    });
    return { document: (await getDocument(db, existing.id))!, job, deduplicated: false };
  }
  if (existing.status === 'PENDING' || existing.status === 'PROCESSING') {
    const job = existing.job_id ? await getJob(db, existing.job_id) : null;
    if (job) return { document: existing, job, deduplicated: true };
  }
  const job = await enqueueFinished(db, context.workspaceId, collection.id, existing.id);
  return { document: existing, job, deduplicated: true };
}

/** A job row recording a request that needed no work (dedupe): SUCCEEDED at once. */
async function enqueueFinished(
  db: Queryable,
  workspaceId: string,
  collectionId: string,
  documentId: string,
): Promise<JobRow> {
  const id = newId('job');
  await db.query(
    `INSERT INTO jobs (id, kind, status, workspace_id, collection_id, document_id, stage, progress, started_at, finished_at)
     VALUES ($1, 'ingest', 'SUCCEEDED', $2, $3, $4, 'done', 1, now(), now())`,
    [id, workspaceId, collectionId, documentId],
  );
  return (await getJob(db, id))!;
}

/**
 * The same bytes are READY in another collection of this workspace with the same embedding model and
 * text-search configuration: copy its chunks (same texts, hashes, proofs, vectors — so the same root).
 */
async function copyFromWorkspace(
  context: SubmitContext,
  collection: Collection,
  input: IngestInput,
  originalSha: string,
): Promise<SubmitResult | null> {
  const { db } = context;
  const source = await db.query<{ id: string }>(
    `SELECT d.id FROM documents d JOIN collections c ON c.id = d.collection_id
      WHERE c.workspace_id = $1 AND d.original_sha256 = $2 AND d.status IN ('READY', 'ARCHIVED')
        AND c.embedding_model = $3 AND c.embedding_dimensions = $4 AND c.text_search_config = $5::regconfig
      ORDER BY d.created_at LIMIT 1`,
    [
      context.workspaceId,
      originalSha,
      collection.embedding_model,
      collection.embedding_dimensions,
      collection.text_search_config,
    ],
  );
  const sourceId = source.rows[0]?.id;
  if (!sourceId) return null;
  const documentId = newId('doc');
  const jobId = newId('job');
  const copied = await db.transaction(async (tx) => {
    const inserted = await tx.query(
      `INSERT INTO documents (id, collection_id, title, filename, mime, original_sha256, size, metadata, document_type,
         fiscal_year, source, uploader, status, stage, root, chunk_count, pages)
       SELECT $1, $2, COALESCE($3, s.title), $4, s.mime, s.original_sha256, s.size, s.metadata || $5::jsonb,
              COALESCE($6, s.document_type), COALESCE($7, s.fiscal_year), COALESCE($8, s.source), $9,
              'READY', 'done', s.root, s.chunk_count, s.pages
         FROM documents s WHERE s.id = $10
       ON CONFLICT (collection_id, original_sha256) DO NOTHING`,
      [
        documentId,
        collection.id,
        input.title ?? null,
        input.filename,
        JSON.stringify(input.metadata ?? {}),
        input.document_type ?? null,
        input.fiscal_year ?? null,
        input.source ?? null,
        input.uploader ?? null,
        sourceId,
      ],
    );
    if (inserted.rowCount === 0) return false;
    await tx.query(
      `INSERT INTO chunks (id, document_id, collection_id, position, text, sha256, kind, page, section_path, legal, table_html,
         context_before, context_after, token_count, proof_path, embedding, embedding_dimensions, text_search_config, anchor,
         ocr_confidence)
       SELECT $1 || '-' || position, $1, $2, position, text, sha256, kind, page, section_path, legal, table_html,
              context_before, context_after, token_count, proof_path, embedding, embedding_dimensions, text_search_config, anchor,
              ocr_confidence
         FROM chunks WHERE document_id = $3`,
      [documentId, collection.id, sourceId],
    );
    await commitKeywords(tx, await stageKeywords(tx, documentId));
    await indexDocument(tx, collection, documentId);
    await tx.query(
      `INSERT INTO jobs (id, kind, status, workspace_id, collection_id, document_id, stage, progress, started_at, finished_at)
       VALUES ($1, 'ingest', 'SUCCEEDED', $2, $3, $4, 'done', 1, now(), now())`,
      [jobId, context.workspaceId, collection.id, documentId],
    );
    await audit(tx, input.uploader, 'document.ingest', documentId, {
      collection: collection.name,
      filename: input.filename,
      sha256: originalSha,
      copied_from: sourceId,
    });
    const document = (await getDocument(tx, documentId))!;
    const job = (await getJob(tx, jobId))!;
    await enqueueWebhookEvent(tx, {
      workspaceId: context.workspaceId,
      event: 'document.ready',
      data: { document: { ...document }, job: { ...publicJob(job) } },
    });
    return true;
  });
  if (!copied) return null;
  return {
    document: (await getDocument(db, documentId))!,
    job: (await getJob(db, jobId))!,
    deduplicated: true,
  };
}

export interface IngestJobContext {
  embedding: EmbeddingModel;
  /** The quotas of a job's workspace. */
  quotas(workspaceId: string): Promise<EffectiveQuotas>;
  /** Chunk, text and memory bounds per document (default {@link DEFAULT_INGEST_LIMITS}). */
  limits?: IngestLimits;
  /** Hears each attempt's outcome with its stage times (metrics, traces, error reports). */
  onIngested?: IngestListener;
}

/**
 * The `ingest` job: parse, chunk, hash, embed; stage the chunks in batches while the document is
 * PROCESSING (invisible to retrieval); then one short transaction checks they are all there, makes the
 * document READY and completes the job — last, so its `finished_at` is when the document became READY.
 */
export function ingestJobHandler(context: IngestJobContext): JobHandler {
  const ingest = ingestJob(context);
  return async (job, worker) => {
    const clock = new IngestClock();
    const fields = {
      jobId: job.id,
      attempt: job.attempts,
      ...(job.document_id ? { documentId: job.document_id } : {}),
    };
    let outcome: { outcome: IngestOutcome; error?: unknown };
    try {
      outcome = await ingest(job, worker, clock);
    } catch (error) {
      // Another worker holds the job now: its outcome is theirs to report.
      if (!isLeaseLost(error) && !worker.signal.aborted) {
        const retry = isRetryableJobError(error) && job.attempts < job.max_attempts;
        notifyIngested(context.onIngested, clock.report(retry ? 'retrying' : 'failed', { ...fields, error }));
      }
      throw error;
    }
    notifyIngested(context.onIngested, clock.report(outcome.outcome, { ...fields, ...outcome }));
  };
}

function ingestJob(
  context: IngestJobContext,
): (
  job: ClaimedJob,
  worker: JobContext,
  clock: IngestClock,
) => Promise<{ outcome: IngestOutcome; error?: unknown }> {
  return async (job, worker, clock) => {
    const { db } = worker;
    const documentId = job.document_id;
    const document = documentId ? await getDocument(db, documentId) : null;
    if (!document || !documentId) {
      const error = new EngineError('NOT_FOUND', 'The document was deleted before it was ingested.');
      await finishFailed(db, job, null, { code: error.code, message: error.message });
      return { outcome: 'failed', error };
    }
    if (document.status === 'READY' || document.status === 'ARCHIVED') {
      // Already committed by an earlier attempt whose worker then died: nothing more to do.
      await db.transaction(async (tx) => completeJob(tx, job, { documentId }));
      return { outcome: 'succeeded' };
    }
    const collection = await collectionById(db, job.collection_id);
    const workspaceId = collection.workspace_id;
    const quotas = await context.quotas(workspaceId);
    const bytes = await readBlob(db, document.original_sha256);
    if (!bytes) throw new EngineError('INGEST_FAILED', 'The stored file is missing; upload it again.');
    const payload = job.payload as unknown as IngestPayload;
    const input: IngestInput = {
      bytes,
      filename: payload.filename ?? document.filename,
      ...(payload.mime ? { mime: payload.mime } : {}),
      ...(payload.title ? { title: payload.title } : {}),
      ...(payload.metadata ? { metadata: payload.metadata } : {}),
      ...(payload.document_type ? { document_type: payload.document_type } : {}),
      ...(payload.fiscal_year !== undefined ? { fiscal_year: payload.fiscal_year } : {}),
      ...(payload.source ? { source: payload.source } : {}),
      ...(payload.uploader ? { uploader: payload.uploader } : {}),
    };
    await db.query(
      `UPDATE documents SET status = 'PROCESSING', stage = 'parsing', error = NULL, updated_at = now()
        WHERE id = $1 AND status IN ('PENDING', 'PROCESSING')`,
      [documentId],
    );
    try {
      const { parsed, prepared, root } = await prepareDocument(
        {
          embedding: context.embedding,
          maxBytes: quotas.max_document_bytes,
          maxPages: quotas.max_pages,
          limits: context.limits ?? DEFAULT_INGEST_LIMITS,
          // A worker that lost the job's lease stops extracting (a scanned PDF's OCR can take minutes).
          signal: worker.signal,
          clock,
        },
        collection,
        input,
        async (stage, progress) => {
          if (worker.signal.aborted) throw new EngineError('CONFLICT', 'Another worker took over this job.');
          await worker.progress(stage, progress);
          await db.query('UPDATE documents SET stage = $2, updated_at = now() WHERE id = $1', [
            documentId,
            stage,
          ]);
        },
      );
      const metadata = { ...parsed.metadata, ...input.metadata };
      const held = () => {
        if (worker.signal.aborted) throw new EngineError('CONFLICT', 'Another worker took over this job.');
      };
      // Chunks an earlier attempt staged before its worker died go first.
      held();
      clock.begin('store');
      await deleteStagedChunks(db, documentId);
      await storeChunks(db, documentId, collection, prepared, held);
      const keywords = await stageKeywords(db, documentId, async () => {
        held();
        await yieldToEventLoop();
      });
      await db.transaction(async (tx) => {
        await requireStagedChunks(tx, documentId, prepared.length);
        const updated = await tx.query(
          `UPDATE documents SET status = 'READY', stage = 'done', error = NULL, title = $2, mime = $3, metadata = $4,
             document_type = COALESCE(document_type, $5), fiscal_year = COALESCE(fiscal_year, $6), source = COALESCE(source, $7),
             root = $8, chunk_count = $9, pages = $10, updated_at = clock_timestamp()
           WHERE id = $1 AND status IN ('PENDING', 'PROCESSING')`,
          [
            documentId,
            input.title ?? parsed.title,
            parsed.mime,
            JSON.stringify(metadata),
            stringValue(metadata['document_type']) ?? null,
            numberValue(metadata['fiscal_year']) ?? null,
            stringValue(metadata['source']) ?? null,
            toHex(root),
            prepared.length,
            parsed.pages ?? null,
          ],
        );
        if (updated.rowCount === 0) {
          throw new EngineError('CONFLICT', 'The document changed while it was being ingested.');
        }
        await commitKeywords(tx, keywords);
        await indexDocument(tx, collection, documentId);
        await audit(tx, input.uploader, 'document.ingest', documentId, {
          collection: collection.name,
          filename: input.filename,
          sha256: document.original_sha256,
          chunks: prepared.length,
          job: job.id,
          attempt: job.attempts,
        });
        await completeJob(tx, job, { documentId });
        const ready = (await getDocument(tx, documentId))!;
        const finished = (await getJob(tx, job.id))!;
        await enqueueWebhookEvent(tx, {
          workspaceId,
          event: 'document.ready',
          data: { document: { ...ready }, job: { ...publicJob(finished) } },
        });
      });
      return { outcome: 'succeeded' };
    } catch (error) {
      if (isLeaseLost(error)) throw error;
      const deterministic = isIngestError(error) || error instanceof EngineError;
      if (!deterministic && job.attempts < job.max_attempts) {
        await db.query(
          `UPDATE documents SET status = 'PENDING', stage = 'retrying', updated_at = now() WHERE id = $1 AND status = 'PROCESSING'`,
          [documentId],
        );
        throw error;
      }
      const code = isIngestError(error)
        ? error.code
        : error instanceof EngineError
          ? error.code
          : 'INGEST_FAILED';
      const message = error instanceof Error ? error.message : 'Ingestion failed.';
      await finishFailed(db, job, documentId, { code, message: message.slice(0, 500) });
      return { outcome: 'failed', error };
    }
  };
}

/** How much of a large text upload {@link likelyMime} looks at (detection decodes what it is given). */
const SNIFF_BYTES = 256 * 1024;

/**
 * The file's type as the document shows it while PENDING: what detection says (the job parses it
 * again and reports any problem as the document's FAILED reason), else what the client declared.
 * Only the start of a large file is looked at, cut at a UTF-8 character boundary, so the upload
 * request does not decode 50 MB; a ZIP (Word) is told by its directory, at the end, so it goes whole.
 */
function likelyMime(input: IngestInput): string {
  const { bytes } = input;
  const zip = bytes[0] === 0x50 && bytes[1] === 0x4b;
  let end = SNIFF_BYTES;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  const sample = zip || bytes.length <= SNIFF_BYTES ? bytes : bytes.subarray(0, end);
  try {
    return MIME_TYPES[detectType(sample, input.filename, input.mime)];
  } catch {
    return input.mime ?? 'application/octet-stream';
  }
}

function isLeaseLost(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'JOB_LEASE_LOST';
}

/** Fails the job and its document in one transaction (guarded by the claim) and queues `document.failed`. */
async function finishFailed(
  db: Database,
  job: ClaimedJob,
  documentId: string | null,
  error: { code: string; message: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    const claimed = await tx.query(
      `UPDATE jobs SET status = 'FAILED', error = $3, finished_at = clock_timestamp(), locked_until = NULL, updated_at = clock_timestamp()
        WHERE id = $1 AND claim_token = $2 AND status = 'RUNNING'`,
      [job.id, job.claim_token, JSON.stringify(error)],
    );
    if (claimed.rowCount === 0 || !documentId) return;
    await failDocument(tx, documentId, error);
  });
}

async function failDocument(
  tx: Queryable,
  documentId: string,
  error: { code: string; message: string },
): Promise<void> {
  const updated = await tx.query(
    `UPDATE documents SET status = 'FAILED', error = $2, updated_at = now() WHERE id = $1 AND status IN ('PENDING', 'PROCESSING')`,
    [documentId, JSON.stringify(error)],
  );
  if (updated.rowCount === 0) return;
  // Nothing partial stays: chunks staged before the failure go with it.
  await tx.query('DELETE FROM chunks WHERE document_id = $1', [documentId]);
  const document = (await getDocument(tx, documentId))!;
  const job = document.job_id ? await getJob(tx, document.job_id) : null;
  const workspace = await tx.query<{ workspace_id: string }>(
    'SELECT c.workspace_id FROM documents d JOIN collections c ON c.id = d.collection_id WHERE d.id = $1',
    [documentId],
  );
  await enqueueWebhookEvent(tx, {
    workspaceId: workspace.rows[0]!.workspace_id,
    event: 'document.failed',
    data: { document: { ...document }, job: job ? { ...publicJob(job) } : null },
  });
}

/**
 * Documents whose job failed without its handler finishing (the queue gave up on a job whose workers
 * kept dying): FAILED with the job's reason, and their `document.failed` events queued.
 */
export async function failOrphanedDocuments(db: Database): Promise<number> {
  const orphans = await db.query<{ id: string; error: { code: string; message: string } | null }>(
    `SELECT d.id, j.error FROM documents d
       JOIN LATERAL (SELECT status, error FROM jobs WHERE document_id = d.id ORDER BY created_at DESC LIMIT 1) j ON true
      WHERE d.status IN ('PENDING', 'PROCESSING') AND j.status = 'FAILED'`,
  );
  for (const orphan of orphans.rows) {
    await db.transaction((tx) =>
      failDocument(tx, orphan.id, orphan.error ?? { code: 'INGEST_FAILED', message: 'Ingestion failed.' }),
    );
  }
  return orphans.rows.length;
}

/** A job as the API shows it: no claim token, no worker internals. */
export function publicJob(job: JobRow) {
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    stage: job.stage,
    progress: job.progress,
    attempts: job.attempts,
    max_attempts: job.max_attempts,
    error: job.error ?? null,
    document_id: job.document_id,
    created_at: job.created_at,
    updated_at: job.updated_at,
    finished_at: job.finished_at,
  };
}

async function collectionById(db: Queryable, id: string | null): Promise<Collection> {
  const result = await db.query<Collection>(
    `SELECT id, workspace_id, name, language, text_search_config::text AS text_search_config, profile, embedding_provider,
            embedding_model, embedding_dimensions FROM collections WHERE id = $1`,
    [id],
  );
  const collection = result.rows[0];
  if (!collection) throw new EngineError('NOT_FOUND', 'The collection of this job no longer exists.');
  return collection;
}

function ingestPayload(input: IngestInput): IngestPayload {
  return {
    filename: input.filename,
    ...(input.mime ? { mime: input.mime } : {}),
    ...(input.title ? { title: input.title } : {}),
    ...(input.metadata ? { metadata: input.metadata } : {}),
    ...(input.document_type ? { document_type: input.document_type } : {}),
    ...(input.fiscal_year !== undefined ? { fiscal_year: input.fiscal_year } : {}),
    ...(input.source ? { source: input.source } : {}),
    ...(input.uploader ? { uploader: input.uploader } : {}),
  };
}

async function audit(
  tx: Queryable,
  actor: string | undefined,
  action: string,
  target: string,
  details: Record<string, unknown>,
): Promise<void> {
  await tx.query('INSERT INTO audit_log (actor, action, target, details) VALUES ($1, $2, $3, $4)', [
    actor ?? null,
    action,
    target,
    JSON.stringify(details),
  ]);
}
