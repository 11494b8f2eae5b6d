/**
 * Originals (`blobs`, content-addressed by SHA-256) written and read in parts of
 * {@link BLOB_PART_BYTES}, one statement per part with a turn of the event loop between them: on the
 * embedded PGlite a statement runs on the calling thread, and a 50 MB `bytea` in one statement would
 * hold it for many seconds (docs/engine.md, "Ingestion"). The parts travel as base64 text
 * (`decode`/`encode` in SQL): PGlite passes a `bytea` parameter or value as hex text built and parsed
 * byte by byte, about ten times slower than base64, which Node and PostgreSQL convert natively.
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/database.js';

/** The size of one stored part. */
export const BLOB_PART_BYTES = 128 * 1024;
/** Bytes hashed between two turns of the event loop. */
const HASH_STEP_BYTES = 2 * 1024 * 1024;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** SHA-256 of `bytes`, hex, hashed in steps with the event loop turning between them. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const hash = createHash('sha256');
  for (let start = 0; start < bytes.length; start += HASH_STEP_BYTES) {
    hash.update(bytes.subarray(start, start + HASH_STEP_BYTES));
    if (start + HASH_STEP_BYTES < bytes.length) await yieldToEventLoop();
  }
  return hash.digest('hex');
}

/**
 * Stores `bytes` under `sha` unless stored already. Idempotent: the row, then every part, are written
 * with `ON CONFLICT DO NOTHING`, so storing the same bytes again completes a blob an interrupted
 * write left short.
 */
export async function storeBlob(db: Queryable, sha: string, bytes: Uint8Array): Promise<void> {
  await db.query(
    `INSERT INTO blobs (sha256, bytes, size) VALUES ($1, '\\x'::bytea, $2) ON CONFLICT (sha256) DO NOTHING`,
    [sha, bytes.length],
  );
  const inline = await db.query<{ stored: number }>(
    'SELECT length(bytes)::integer AS stored FROM blobs WHERE sha256 = $1',
    [sha],
  );
  // Written before parts existed: the bytes are in the row already.
  if ((inline.rows[0]?.stored ?? 0) > 0) return;
  for (let part = 0; part * BLOB_PART_BYTES < bytes.length; part++) {
    const piece = bytes.subarray(part * BLOB_PART_BYTES, (part + 1) * BLOB_PART_BYTES);
    await db.query(
      `INSERT INTO blob_parts (sha256, part, bytes) VALUES ($1, $2, decode($3, 'base64'))
       ON CONFLICT (sha256, part) DO NOTHING`,
      [sha, part, Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength).toString('base64')],
    );
    await yieldToEventLoop();
  }
}

/** The stored bytes of `sha`, or null when missing or incomplete. */
export async function readBlob(db: Queryable, sha: string): Promise<Uint8Array | null> {
  const row = await db.query<{ size: number; stored: number }>(
    'SELECT size, length(bytes)::integer AS stored FROM blobs WHERE sha256 = $1',
    [sha],
  );
  const blob = row.rows[0];
  if (!blob) return null;
  if (blob.stored > 0) {
    const inline = await db.query<{ bytes: Uint8Array }>('SELECT bytes FROM blobs WHERE sha256 = $1', [sha]);
    const bytes = inline.rows[0]?.bytes;
    return bytes ? new Uint8Array(bytes) : null;
  }
  const bytes = new Uint8Array(blob.size);
  const parts = Math.ceil(blob.size / BLOB_PART_BYTES);
  for (let part = 0; part < parts; part++) {
    const found = await db.query<{ base64: string }>(
      `SELECT encode(bytes, 'base64') AS base64 FROM blob_parts WHERE sha256 = $1 AND part = $2`,
      [sha, part],
    );
    const base64 = found.rows[0]?.base64;
    const piece = base64 === undefined ? undefined : Buffer.from(base64, 'base64');
    const expected = Math.min(BLOB_PART_BYTES, blob.size - part * BLOB_PART_BYTES);
    if (!piece || piece.length !== expected) return null;
    bytes.set(piece, part * BLOB_PART_BYTES);
    await yieldToEventLoop();
  }
  return bytes;
}
