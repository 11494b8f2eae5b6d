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
import { SaksiError } from '../errors.js';

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
  if (blob.stored > 0) return readInline(db, sha);
  const bytes = new Uint8Array(blob.size);
  const parts = Math.ceil(blob.size / BLOB_PART_BYTES);
  for (let part = 0; part < parts; part++) {
    const piece = await readPart(db, sha, part, blob.size);
    if (!piece) return null;
    bytes.set(piece, part * BLOB_PART_BYTES);
    await yieldToEventLoop();
  }
  return bytes;
}

/** A stored original opened to be sent part by part (the API's document download). */
export interface BlobReader {
  /** Bytes in the blob. */
  size: number;
  /**
   * The bytes in order, one stored part at a time, hashed on the way. The last part is given only
   * once the SHA-256 of the whole matches the blob's name; a part gone missing since {@link openBlob},
   * or a digest that differs, throws {@link BlobIncompleteError} instead, so a reader that counts
   * the bytes never receives a complete but different file.
   */
  parts(): AsyncGenerator<Uint8Array, void, undefined>;
}

/** A blob that is missing parts, or whose bytes do not hash to its name. */
export class BlobIncompleteError extends SaksiError<'BLOB_INCOMPLETE'> {
  override readonly name = 'BlobIncompleteError';

  constructor(message: string, options: { cause?: unknown } = {}) {
    super('BLOB_INCOMPLETE', message, options);
  }
}

/**
 * Opens the blob `sha` for reading part by part, or null when it is missing or incomplete. Only the
 * parts' lengths are read here, so the whole file is never held in memory at once.
 */
export async function openBlob(db: Queryable, sha: string): Promise<BlobReader | null> {
  const row = await db.query<{ size: number; inline: number; parts: number; stored: string | number }>(
    `SELECT b.size, length(b.bytes)::integer AS inline,
            (SELECT count(*)::integer FROM blob_parts p WHERE p.sha256 = b.sha256) AS parts,
            (SELECT coalesce(sum(length(p.bytes)), 0)::bigint FROM blob_parts p WHERE p.sha256 = b.sha256) AS stored
       FROM blobs b WHERE b.sha256 = $1`,
    [sha],
  );
  const blob = row.rows[0];
  if (!blob) return null;
  const inline = blob.inline > 0;
  if (inline ? blob.inline !== blob.size : blob.parts !== Math.ceil(blob.size / BLOB_PART_BYTES)) return null;
  if (!inline && Number(blob.stored) !== blob.size) return null;
  const size = blob.size;
  return {
    size,
    async *parts() {
      const hash = createHash('sha256');
      const count = inline ? 1 : Math.ceil(size / BLOB_PART_BYTES);
      let held: Uint8Array | null = null;
      for (let part = 0; part < count; part++) {
        const piece = inline ? await readInline(db, sha) : await readPart(db, sha, part, size);
        if (!piece) throw new BlobIncompleteError(`Part ${part} of blob ${sha} is missing.`);
        hash.update(piece);
        if (held) yield held;
        held = piece;
      }
      if (hash.digest('hex') !== sha)
        throw new BlobIncompleteError(`The bytes of blob ${sha} do not hash to its name.`);
      if (held) yield held;
    },
  };
}

async function readInline(db: Queryable, sha: string): Promise<Uint8Array | null> {
  const inline = await db.query<{ bytes: Uint8Array }>('SELECT bytes FROM blobs WHERE sha256 = $1', [sha]);
  const bytes = inline.rows[0]?.bytes;
  return bytes ? new Uint8Array(bytes) : null;
}

/** Part `part` of a blob of `size` bytes, or null when it is missing or not its expected length. */
async function readPart(db: Queryable, sha: string, part: number, size: number): Promise<Uint8Array | null> {
  const found = await db.query<{ base64: string }>(
    `SELECT encode(bytes, 'base64') AS base64 FROM blob_parts WHERE sha256 = $1 AND part = $2`,
    [sha, part],
  );
  const base64 = found.rows[0]?.base64;
  const piece = base64 === undefined ? undefined : Buffer.from(base64, 'base64');
  const expected = Math.min(BLOB_PART_BYTES, size - part * BLOB_PART_BYTES);
  if (!piece || piece.length !== expected) return null;
  return piece;
}
