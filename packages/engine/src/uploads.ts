/**
 * Two-step uploads for large files (docs/api.md): create (metadata, API key) → PUT the bytes to a URL
 * carrying a one-use token (no key, so a browser or `curl -T` can send it directly) → process
 * (API key), which submits the stored bytes like `POST /documents`. Only SHA-256(token) is stored;
 * the URL expires; an upload is processed once.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from './db/database.js';
import { EngineError } from './errors.js';
import { newId } from './ids.js';
import { readBlob, sha256Hex, storeBlob } from './ingest/blob-store.js';

export type UploadStatus = 'CREATED' | 'UPLOADED' | 'PROCESSED';

export interface UploadFields {
  title?: string;
  language?: 'id' | 'en';
  document_type?: string;
  fiscal_year?: number;
  source?: string;
}

export interface UploadRecord {
  id: string;
  workspace_id: string;
  collection: string;
  filename: string;
  mime: string | null;
  fields: UploadFields;
  declared_size: number | null;
  status: UploadStatus;
  sha256: string | null;
  size: number | null;
  document_id: string | null;
  job_id: string | null;
  expires_at: string;
  created_at: string;
}

const COLUMNS = `id, workspace_id, collection, filename, mime, fields, declared_size::float8 AS declared_size, status, sha256,
  size::float8 AS size, document_id, job_id, to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS expires_at, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`;

function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export async function createUpload(
  db: Queryable,
  options: {
    workspaceId: string;
    collection: string;
    filename: string;
    mime?: string;
    declaredSize?: number;
    fields: UploadFields;
    ttlSeconds: number;
    maxBytes: number;
  },
): Promise<{ upload: UploadRecord; token: string }> {
  if (options.declaredSize !== undefined && options.declaredSize > options.maxBytes) {
    throw new EngineError(
      'QUOTA_EXCEEDED',
      `The file is ${options.declaredSize} bytes; this workspace accepts documents up to ${options.maxBytes} bytes.`,
      { status: 413 },
    );
  }
  const token = randomBytes(32).toString('base64url');
  const result = await db.query<UploadRecord>(
    `INSERT INTO uploads (id, workspace_id, collection, fields, filename, mime, declared_size, token_hash, status, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'CREATED', now() + make_interval(secs => $9))
     RETURNING ${COLUMNS}`,
    [
      newId('upl'),
      options.workspaceId,
      options.collection,
      JSON.stringify(options.fields),
      options.filename,
      options.mime ?? null,
      options.declaredSize ?? null,
      hashToken(token),
      options.ttlSeconds,
    ],
  );
  return { upload: result.rows[0]!, token };
}

/** An upload of `workspaceId`; another workspace's is not found. */
export async function getUpload(db: Queryable, workspaceId: string, id: string): Promise<UploadRecord> {
  const result = await db.query<UploadRecord>(
    `SELECT ${COLUMNS} FROM uploads WHERE id = $1 AND workspace_id = $2`,
    [id, workspaceId],
  );
  const upload = result.rows[0];
  if (!upload) throw new EngineError('NOT_FOUND', `No upload ${JSON.stringify(id.slice(0, 100))}.`);
  return upload;
}

/**
 * Stores the bytes of an upload whose token matches; once only, before it expires. A wrong token, an
 * unknown id and an expired upload fail alike (NOT_FOUND), so the URL reveals nothing when guessed.
 */
export async function putUploadContent(
  db: Queryable,
  id: string,
  token: string,
  bytes: Uint8Array,
  maxBytes: number,
): Promise<UploadRecord> {
  const found = await db.query<UploadRecord & { expired: boolean }>(
    `SELECT ${COLUMNS}, expires_at < now() AS expired FROM uploads WHERE id = $1 AND token_hash = $2`,
    [id, hashToken(token)],
  );
  const upload = found.rows[0];
  if (!upload || upload.expired) {
    throw new EngineError('NOT_FOUND', 'No upload at this URL, or it has expired; create a new one.');
  }
  if (upload.status !== 'CREATED') {
    throw new EngineError(
      'CONFLICT',
      'This upload already has its content; create a new upload to send another file.',
    );
  }
  if (bytes.length === 0) throw new EngineError('INVALID_INPUT', 'The body is empty; PUT the file bytes.');
  if (bytes.length > maxBytes) {
    throw new EngineError(
      'QUOTA_EXCEEDED',
      `The file is ${bytes.length} bytes; this workspace accepts documents up to ${maxBytes} bytes.`,
      { status: 413 },
    );
  }
  if (upload.declared_size !== null && upload.declared_size !== bytes.length) {
    throw new EngineError(
      'INVALID_INPUT',
      `The upload declared ${upload.declared_size} bytes but ${bytes.length} arrived; send the whole file.`,
    );
  }
  // The bytes go to the blob store in parts, each its own short statement: one 50 MB bytea value
  // would hold PGlite (and so the server) for seconds (docs/engine.md, "Ingestion").
  const sha = await sha256Hex(bytes);
  await storeBlob(db, sha, bytes);
  const updated = await db.query<UploadRecord>(
    `UPDATE uploads SET sha256 = $2, size = $3, status = 'UPLOADED' WHERE id = $1 AND status = 'CREATED'
     RETURNING ${COLUMNS}`,
    [id, sha, bytes.length],
  );
  if (!updated.rows[0]) throw new EngineError('CONFLICT', 'This upload already has its content.');
  return updated.rows[0];
}

/** The bytes of an UPLOADED upload, for processing; CONFLICT before the PUT or after processing. */
export async function uploadBytes(db: Queryable, workspaceId: string, id: string): Promise<Uint8Array> {
  const upload = await getUpload(db, workspaceId, id);
  if (upload.status === 'CREATED') {
    throw new EngineError('CONFLICT', 'The upload has no content yet: PUT the file to its upload_url first.');
  }
  if (upload.status === 'PROCESSED') throw new EngineError('CONFLICT', 'This upload was already processed.');
  const bytes = upload.sha256 === null ? null : await readBlob(db, upload.sha256);
  if (bytes === null) {
    throw new EngineError('CONFLICT', 'The content of this upload is no longer stored; create a new upload.');
  }
  return bytes;
}

/** Marks an upload processed (the document holds its blob now; the upload's own bytes column stays empty). */
export async function markUploadProcessed(
  db: Queryable,
  id: string,
  documentId: string,
  jobId: string,
): Promise<UploadRecord> {
  const result = await db.query<UploadRecord>(
    `UPDATE uploads SET status = 'PROCESSED', bytes = NULL, document_id = $2, job_id = $3 WHERE id = $1 AND status = 'UPLOADED'
     RETURNING ${COLUMNS}`,
    [id, documentId, jobId],
  );
  if (!result.rows[0]) throw new EngineError('CONFLICT', 'This upload was already processed.');
  return result.rows[0];
}

/** An upload as the API shows it (no bytes, no token). */
export function publicUpload(upload: UploadRecord) {
  return {
    id: upload.id,
    status: upload.status,
    collection: upload.collection,
    filename: upload.filename,
    size: upload.size,
    sha256: upload.sha256,
    document_id: upload.document_id,
    job_id: upload.job_id,
    expires_at: upload.expires_at,
    created_at: upload.created_at,
  };
}
