/**
 * The engine's documents (docs/architecture.md, "Storage"): list and read them, their original bytes
 * and their chunks, delete them, and archive or restore them. A call that names a workspace sees only
 * that workspace's documents: one of another workspace is the same NOT_FOUND as an unknown id.
 */

import { archiveDocument, restoreDocument } from './archive.js';
import type { Collections, InWorkspace } from './collection-service.js';
import { DEFAULT_WORKSPACE } from './collections.js';
import type { Database } from './db/database.js';
import { EngineError } from './errors.js';
import { openBlob } from './ingest/blob-store.js';
import { type DocumentRecord, deleteDocument, getDocument, listDocuments } from './ingest/pipeline.js';
import { loadChunks, type RetrievedChunk, toRetrievedChunk } from './retrieve/retrieve.js';

export interface ListDocumentsQuery extends InWorkspace {
  /** Only this collection's documents (by name). */
  collection?: string;
  status?: string;
  document_type?: string;
  fiscal_year?: number;
  /** 1–100 (default 20). */
  limit?: number;
  /** ≥ 0 (default 0). */
  offset?: number;
}

export interface DocumentPage {
  items: DocumentRecord[];
  total: number;
  limit: number;
  offset: number;
}

export class Documents {
  constructor(
    private readonly db: Database,
    private readonly collections: Collections,
  ) {}

  /** A page of a workspace's documents, newest first, filtered as asked. */
  async list(query: ListDocumentsQuery = {}): Promise<DocumentPage> {
    const workspaceId = query.workspaceId ?? DEFAULT_WORKSPACE;
    const collectionId = query.collection
      ? (await this.collections.get(query.collection, { workspaceId })).id
      : undefined;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 100)
      throw new EngineError('INVALID_INPUT', 'limit must be 1–100.');
    if (!Number.isSafeInteger(offset) || offset < 0)
      throw new EngineError('INVALID_INPUT', 'offset must be ≥ 0.');
    const page = await listDocuments(this.db, {
      workspaceId,
      ...(collectionId ? { collectionId } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(query.document_type ? { documentType: query.document_type } : {}),
      ...(query.fiscal_year !== undefined ? { fiscalYear: query.fiscal_year } : {}),
      limit,
      offset,
    });
    return { ...page, limit, offset };
  }

  /** A document; without `workspaceId`, of any workspace (the CLI and the admin portal). */
  async get(id: string, options: InWorkspace = {}): Promise<DocumentRecord> {
    const document = await getDocument(this.db, id, options.workspaceId);
    if (!document) throw new EngineError('NOT_FOUND', `No document ${id}.`);
    return document;
  }

  /**
   * The original bytes of a document as uploaded (docs/api.md, `GET /documents/{id}/file`), to be sent
   * part by part: the whole file is never held in memory. A document whose stored original is missing
   * or incomplete is `FILE_NOT_FOUND`.
   */
  async file(
    id: string,
    options: InWorkspace = {},
  ): Promise<{ document: DocumentRecord; size: number; parts: AsyncIterable<Uint8Array> }> {
    const document = await this.get(id, options);
    const blob = await openBlob(this.db, document.original_sha256);
    if (!blob || blob.size !== document.size) {
      throw new EngineError(
        'FILE_NOT_FOUND',
        `The original file of document ${id} is missing or incomplete on this server; upload it again to restore it.`,
      );
    }
    return { document, size: blob.size, parts: blob.parts() };
  }

  /** Deletes a document with its chunks (audited); its log entries and anchors stay. */
  async delete(id: string, options: InWorkspace = {}): Promise<void> {
    if (options.workspaceId !== undefined) await this.get(id, options);
    if (!(await deleteDocument(this.db, id))) throw new EngineError('NOT_FOUND', `No document ${id}.`);
  }

  /** A document's chunks in order (citation, context, table HTML, hash and proof each); paged. */
  async chunks(
    id: string,
    options: InWorkspace & { limit: number; offset: number },
  ): Promise<{ items: RetrievedChunk[]; total: number }> {
    const document = await this.get(id, options);
    const ids = await this.db.query<{ id: string }>(
      'SELECT id FROM chunks WHERE document_id = $1 ORDER BY position LIMIT $2 OFFSET $3',
      [document.id, options.limit, options.offset],
    );
    const rows = await loadChunks(
      this.db,
      ids.rows.map((row) => row.id),
    );
    const items = ids.rows.flatMap((row) => {
      const chunk = rows.get(row.id);
      return chunk ? [toRetrievedChunk(chunk, { score: 0, rank: 0, ranks: {} })] : [];
    });
    return { items, total: document.chunk_count };
  }

  /** READY → ARCHIVED (no longer retrieved); NOT_FOUND, or CONFLICT from any other status. */
  archive(id: string): Promise<DocumentRecord> {
    return archiveDocument(this.db, id);
  }

  /** ARCHIVED → READY (retrieved again); NOT_FOUND, or CONFLICT from any other status. */
  restore(id: string): Promise<DocumentRecord> {
    return restoreDocument(this.db, id);
  }
}
