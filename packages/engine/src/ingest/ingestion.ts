/**
 * Ingestion as the engine runs it (docs/architecture.md, "Data flows"): a file ingested now (the CLI),
 * or accepted for the job worker (the API's upload), into a collection created when missing; the
 * quotas in force for a workspace; and the listeners that hear every ingestion end.
 */

import type { Collections, EnsureCollectionOptions } from '../collection-service.js';
import type { CollectionProfile } from '../collections.js';
import type { SaksiConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { EmbeddingModel } from '../embed/model.js';
import type { JobHandler } from '../jobs/worker.js';
import { getWorkspace } from '../workspaces.js';
import {
  type EffectiveQuotas,
  ingestJobHandler,
  type SubmitResult,
  submitDocument,
  workspaceStorage,
} from './async.js';
import { type IngestListener, notifyIngested } from './ingest-report.js';
import {
  type IngestInput,
  type IngestProgress,
  type IngestResult,
  ingestDocument,
  withPlainNames,
} from './pipeline.js';

export interface IngestOptions extends EnsureCollectionOptions {
  onProgress?: (progress: IngestProgress) => void;
  /** Cancels the ingestion when it aborts (nothing is stored; see `IngestContext.signal`). */
  signal?: AbortSignal;
}

export interface SubmitOptions {
  workspaceId: string;
  /** The language of a collection created by this call (default `id`). */
  language?: 'id' | 'en';
  /** The profile of a collection created by this call (an existing one keeps its own). */
  profile?: CollectionProfile;
}

export interface IngestionParts {
  db: Database;
  config: SaksiConfig;
  embedding: EmbeddingModel;
  collections: Collections;
  /** Called when a job was queued, so an idle worker in this process claims it now. */
  onQueued: () => void;
}

export class Ingestion {
  private readonly listeners = new Set<IngestListener>();

  constructor(private readonly parts: IngestionParts) {}

  /** Creates the collection if needed (with this engine's embedding model) and ingests one file now. */
  async ingest(
    collectionName: string,
    input: IngestInput,
    options: IngestOptions = {},
  ): Promise<IngestResult> {
    const { db, config, embedding, collections } = this.parts;
    const { onProgress, signal, ...where } = options;
    const collection = await collections.ensure(collectionName, where);
    return ingestDocument(
      {
        db,
        embedding,
        maxBytes: config.maxUploadBytes,
        maxPages: config.quotas.maxPages,
        limits: config.ingest,
        onIngested: this.notify,
        ...(onProgress ? { onProgress } : {}),
        ...(signal ? { signal } : {}),
      },
      collection,
      withPlainNames(input),
    );
  }

  /**
   * Accepts a file for asynchronous ingestion (the API's `POST /documents`): the document is PENDING
   * and a job is queued, unless the same bytes are already in the workspace (deduplicated, READY).
   * Creates the collection when needed.
   */
  async submit(collectionName: string, input: IngestInput, options: SubmitOptions): Promise<SubmitResult> {
    const { db, config, collections } = this.parts;
    const quotas = await this.quotas(options.workspaceId);
    const collection = await collections.ensure(collectionName, options);
    const result = await submitDocument(
      { db, workspaceId: options.workspaceId, quotas, maxAttempts: config.jobs.maxAttempts },
      collection,
      withPlainNames(input),
    );
    if (!result.deduplicated) this.parts.onQueued();
    return result;
  }

  /** The handler of `ingest` jobs, for a job worker on this engine's database. */
  jobHandler(): JobHandler {
    return ingestJobHandler({
      embedding: this.parts.embedding,
      quotas: (workspaceId) => this.quotas(workspaceId),
      limits: this.parts.config.ingest,
      onIngested: this.notify,
    });
  }

  /** The quotas in force for a workspace: its own overrides of the configured defaults. */
  async quotas(workspaceId: string): Promise<EffectiveQuotas> {
    const { db, config } = this.parts;
    const workspace = await getWorkspace(db, workspaceId);
    return {
      max_document_bytes: workspace.quotas.max_document_bytes ?? config.quotas.maxDocumentBytes,
      max_pages: workspace.quotas.max_pages ?? config.quotas.maxPages,
      max_storage_bytes: workspace.quotas.max_storage_bytes ?? config.quotas.maxStorageBytes,
    };
  }

  /** Documents and stored bytes of a workspace (for its quota). */
  async usage(workspaceId: string): Promise<{ documents: number; storage_bytes: number }> {
    const usage = await workspaceStorage(this.parts.db, workspaceId);
    return { documents: usage.documents, storage_bytes: usage.bytes };
  }

  /**
   * Hears every ingestion this engine runs (synchronous, and the jobs of its worker) as it ends, with
   * its outcome and stage times; returns a function that stops listening.
   */
  observe(listener: IngestListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private readonly notify: IngestListener = (report) => {
    for (const listener of this.listeners) notifyIngested(listener, report);
  };
}
