import { randomBytes } from 'node:crypto';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOB_PART_BYTES, readBlob, sha256Hex, storeBlob } from './blob-store.js';

let test: TestEngine;

beforeAll(async () => {
  test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
});

afterAll(async () => {
  await test?.close();
});

describe('blob store', () => {
  it('hashes like sha256sum, in steps', async () => {
    expect(await sha256Hex(new TextEncoder().encode('abc'))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('stores bytes in parts and reads them back whole', async () => {
    const { db } = test.engine;
    const bytes = new Uint8Array(randomBytes(2 * BLOB_PART_BYTES + 12_345));
    const sha = await sha256Hex(bytes);
    await storeBlob(db, sha, bytes);
    const parts = await db.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM blob_parts WHERE sha256 = $1',
      [sha],
    );
    expect(parts.rows[0]!.n).toBe(3);
    expect(Buffer.from((await readBlob(db, sha))!).equals(Buffer.from(bytes))).toBe(true);
    // Storing the same bytes again changes nothing.
    await storeBlob(db, sha, bytes);
    expect(Buffer.from((await readBlob(db, sha))!).equals(Buffer.from(bytes))).toBe(true);
  });

  it('reports a blob with a missing part as missing, and storing it again completes it', async () => {
    const { db } = test.engine;
    const bytes = new Uint8Array(randomBytes(BLOB_PART_BYTES + 10));
    const sha = await sha256Hex(bytes);
    await storeBlob(db, sha, bytes);
    await db.query('DELETE FROM blob_parts WHERE sha256 = $1 AND part = 1', [sha]);
    expect(await readBlob(db, sha)).toBeNull();
    await storeBlob(db, sha, bytes);
    expect(Buffer.from((await readBlob(db, sha))!).equals(Buffer.from(bytes))).toBe(true);
  });

  it('reads a blob stored whole in its row (written before parts existed)', async () => {
    const { db } = test.engine;
    const bytes = new TextEncoder().encode('# Lama\n\nDisimpan utuh.\n');
    const sha = await sha256Hex(bytes);
    await db.query('INSERT INTO blobs (sha256, bytes, size) VALUES ($1, $2, $3)', [sha, bytes, bytes.length]);
    expect(new TextDecoder().decode((await readBlob(db, sha))!)).toBe('# Lama\n\nDisimpan utuh.\n');
    await storeBlob(db, sha, bytes);
    const parts = await db.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM blob_parts WHERE sha256 = $1',
      [sha],
    );
    expect(parts.rows[0]!.n).toBe(0);
    expect(await readBlob(db, 'f'.repeat(64))).toBeNull();
  });
});
