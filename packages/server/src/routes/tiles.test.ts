import { checkpointWithCosignatures, decodeEntryBundle } from '@saksi/engine';
import { createNoteVerifier, hashLeaf, toHex, utf8Encode, verifyCheckpoint } from '@saksi/proof';
import { rootFromLeafHashes } from '@saksi/proof/issue';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';

const SIZE = 300;
const leafInput = (i: number) => utf8Encode(`{"tile-test":${i}}`);
const leafHashes = Array.from({ length: SIZE }, (_, i) => hashLeaf(leafInput(i)));
const IMMUTABLE = 'public, max-age=31536000, immutable';

let test: TestEngine;
let app: Hono;

beforeAll(async () => {
  test = await openTestEngine();
  app = createApp(test.engine);
});

afterAll(async () => {
  await test?.close();
});

async function get(path: string) {
  const response = await app.request(`/api/v1/log/tiles/${path}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const type = response.headers.get('content-type') ?? '';
  const text = new TextDecoder().decode(bytes);
  expect(text).not.toMatch(/\n\s+at /); // never a stack trace
  return {
    status: response.status,
    type,
    cache: response.headers.get('cache-control'),
    bytes,
    text,
    error: type.includes('json')
      ? (JSON.parse(text) as { error: { code: string; message: string } }).error
      : null,
  };
}

const hashesOf = (tile: Uint8Array) =>
  Array.from({ length: tile.length / 32 }, (_, i) => toHex(tile.subarray(i * 32, (i + 1) * 32)));

describe('an empty log', () => {
  it('has no checkpoint and no tiles (404 JSON)', async () => {
    for (const path of ['checkpoint', 'tile/0/000.p/1', 'tile/entries/000.p/1']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(response.error?.code).toBe('NOT_FOUND');
    }
  });
});

describe('a log of 300 entries', () => {
  beforeAll(async () => {
    await test.engine.db.transaction(async (tx) => {
      for (let i = 0; i < SIZE; i++) await test.engine.log.append(tx, `tile-cert-${i}`, leafInput(i));
    });
  });

  it('serves the cosigned checkpoint as text/plain, not cached', async () => {
    const response = await get('checkpoint');
    expect(response.status).toBe(200);
    expect(response.type).toBe('text/plain; charset=utf-8');
    expect(response.cache).toBe('no-cache');
    expect(response.text).toBe(await checkpointWithCosignatures(test.engine.db));
    const verified = verifyCheckpoint(
      response.text,
      createNoteVerifier(test.engine.trustedKeys().logs[0]!.vkey),
    );
    expect(verified.ok && verified.checkpoint.size).toBe(SIZE);
    // The log's signature line, then one cosignature line per witness.
    const signatureLines = response.text.split('\n\n')[1]!.trimEnd().split('\n');
    expect(signatureLines).toHaveLength(1 + (test.engine.trustedKeys().witnesses?.length ?? 0));
    expect(signatureLines.length).toBeGreaterThan(1);
  });

  it('serves full level-0 tiles as immutable octet-streams of leaf hashes', async () => {
    const response = await get('tile/0/000');
    expect(response.status).toBe(200);
    expect(response.type).toBe('application/octet-stream');
    expect(response.cache).toBe(IMMUTABLE);
    expect(response.bytes).toHaveLength(256 * 32);
    expect(hashesOf(response.bytes)).toEqual(leafHashes.slice(0, 256).map(toHex));
  });

  it('serves partial tiles, not cached, and tile/1/000.p/1 is the root of the first 256 leaves', async () => {
    const partial = await get('tile/0/001.p/44');
    expect(partial.status).toBe(200);
    expect(partial.cache).toBe('no-cache');
    expect(hashesOf(partial.bytes)).toEqual(leafHashes.slice(256).map(toHex));
    const level1 = await get('tile/1/000.p/1');
    expect(level1.status).toBe(200);
    expect(toHex(level1.bytes)).toBe(toHex(rootFromLeafHashes(leafHashes.slice(0, 256))));
  });

  it('serves entry bundles that decode to the leaf inputs', async () => {
    const full = await get('tile/entries/000');
    expect(full.status).toBe(200);
    expect(full.type).toBe('application/octet-stream');
    expect(full.cache).toBe(IMMUTABLE);
    const entries = decodeEntryBundle(full.bytes, 256);
    expect(entries.map((entry) => toHex(hashLeaf(entry)))).toEqual(leafHashes.slice(0, 256).map(toHex));
    const partial = await get('tile/entries/001.p/44');
    expect(partial.cache).toBe('no-cache');
    expect(decodeEntryBundle(partial.bytes, 44).map((entry) => new TextDecoder().decode(entry))).toEqual(
      Array.from({ length: 44 }, (_, i) => `{"tile-test":${256 + i}}`),
    );
  });

  it.each([
    'tile/0/001.p/45',
    'tile/0/001',
    'tile/0/002.p/1',
    'tile/1/000',
    'tile/2/000.p/1',
    'tile/entries/001',
  ])('%s is beyond the log: 404 NOT_FOUND', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(response.type).toContain('application/json');
    expect(response.error?.code).toBe('NOT_FOUND');
  });

  it.each([
    'tile/0/1',
    'tile/0/x000/001',
    'tile/0/000.p/0',
    'tile/0/000.p/256',
    'tile/64/000',
    'tile/0/abc',
    'tile/0/000/',
  ])('%s is malformed: 400 INVALID_INPUT', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(400);
    expect(response.error?.code).toBe('INVALID_INPUT');
  });

  it('lists the tile routes in the OpenAPI document', async () => {
    const document = (await (await app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/log/tiles/checkpoint',
        '/api/v1/log/tiles/tile/{level}/{index}',
        '/api/v1/log/tiles/tile/entries/{index}',
      ]),
    );
  });
});
