import {
  createCosignatureVerifier,
  createNoteVerifier,
  hashChildren,
  hashLeaf,
  parseNote,
  toHex,
  utf8Encode,
  verifyCheckpoint,
  verifyCosignatures,
} from '@saksi/proof';
import { rootFromLeafHashes } from '@saksi/proof/issue';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEngineError } from '../errors.js';
import {
  checkpointWithCosignatures,
  decodeEntryBundle,
  formatTilePath,
  parseTilePath,
  readEntryBundle,
  readHashTile,
  readTile,
  type TilePath,
  tilesForTreeSize,
} from './tiles.js';

const SIZE = 300;
const leafInput = (i: number) => utf8Encode(`{"entry":${i}${'x'.repeat(i % 7)}}`);
const leafHashes = Array.from({ length: SIZE }, (_, i) => hashLeaf(leafInput(i)));

let test: TestEngine;

beforeAll(async () => {
  test = await openTestEngine();
  await test.engine.db.transaction(async (tx) => {
    for (let i = 0; i < SIZE; i++) await test.engine.log.append(tx, `cert-${i}`, leafInput(i));
  });
});

afterAll(async () => {
  await test?.close();
});

/** Splits a hash tile into its 32-byte hashes. */
function hashesOf(tile: Uint8Array): Uint8Array[] {
  expect(tile.length % 32).toBe(0);
  return Array.from({ length: tile.length / 32 }, (_, i) => tile.slice(i * 32, (i + 1) * 32));
}

async function expectCode(promise: Promise<unknown> | (() => unknown), code: string) {
  let caught: unknown;
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    caught = error;
  }
  expect(isEngineError(caught), String(caught)).toBe(true);
  expect((caught as { code: string }).code).toBe(code);
}

describe('tile paths', () => {
  it.each<[string, TilePath]>([
    ['tile/0/000', { entries: false, level: 0, index: 0, width: null }],
    ['tile/0/001.p/44', { entries: false, level: 0, index: 1, width: 44 }],
    ['tile/1/000.p/1', { entries: false, level: 1, index: 0, width: 1 }],
    ['tile/63/999', { entries: false, level: 63, index: 999, width: null }],
    ['tile/2/x001/000', { entries: false, level: 2, index: 1000, width: null }],
    ['tile/0/x001/x234/067', { entries: false, level: 0, index: 1_234_067, width: null }],
    ['tile/5/x001/x234/067.p/255', { entries: false, level: 5, index: 1_234_067, width: 255 }],
    ['tile/entries/000.p/3', { entries: true, index: 0, width: 3 }],
    ['tile/entries/x012/x000/005', { entries: true, index: 12_000_005, width: null }],
  ])('%s round-trips', (path, tile) => {
    expect(parseTilePath(path)).toEqual(tile);
    expect(formatTilePath(tile)).toBe(path);
  });

  it.each([
    '',
    'tile/0/0',
    'tile/0/0000',
    'tile/00/000',
    'tile/01/000',
    'tile/64/000',
    'tile/0/x000/005',
    'tile/0/001/002',
    'tile/0/x001',
    'tile/0/000.p/0',
    'tile/0/000.p/256',
    'tile/0/000.p/05',
    'tile/0/000.p/',
    '/tile/0/000',
    'tile/0/000/',
    'tile/0/+12',
    'tile/0/０００',
    'tile/entries/x001/x002/x003/x004/x005/x006/007',
    'tile/-1/000',
    'tile/0/../000',
    `tile/0/${'x001/'.repeat(20)}001`,
  ])('rejects %j with INVALID_INPUT', async (path) => {
    await expectCode(() => parseTilePath(path), 'INVALID_INPUT');
  });

  it('refuses to format out-of-range tiles', async () => {
    await expectCode(
      () => formatTilePath({ entries: false, level: 64, index: 0, width: null }),
      'INVALID_INPUT',
    );
    await expectCode(() => formatTilePath({ entries: true, index: -1, width: null }), 'INVALID_INPUT');
    await expectCode(() => formatTilePath({ entries: true, index: 0, width: 256 }), 'INVALID_INPUT');
  });

  it('lists the tiles a tree size needs (the C2SP example of 70,000 entries)', () => {
    const tiles = tilesForTreeSize(70_000).map(formatTilePath);
    expect(tiles.filter((path) => path.startsWith('tile/0/'))).toHaveLength(274);
    expect(tiles).toContain('tile/0/273.p/112');
    expect(tiles.filter((path) => path.startsWith('tile/1/'))).toEqual(['tile/1/000', 'tile/1/001.p/17']);
    expect(tiles.filter((path) => path.startsWith('tile/2/'))).toEqual(['tile/2/000.p/1']);
    expect(tiles.filter((path) => path.startsWith('tile/entries/'))).toHaveLength(274);
    expect(tilesForTreeSize(256).map(formatTilePath)).toEqual([
      'tile/0/000',
      'tile/1/000.p/1',
      'tile/entries/000',
    ]);
    expect(tilesForTreeSize(0)).toEqual([]);
  });
});

describe('reading tiles from the log', () => {
  it('serves level-0 tiles holding the leaf hashes', async () => {
    const full = hashesOf(await readHashTile(test.engine.db, 0, 0));
    expect(full.map(toHex)).toEqual(leafHashes.slice(0, 256).map(toHex));
    const partial = hashesOf(await readHashTile(test.engine.db, 0, 1, 44));
    expect(partial.map(toHex)).toEqual(leafHashes.slice(256).map(toHex));
    // A narrower partial tile (an earlier tree size) holds the same leading hashes.
    const narrower = hashesOf(await readTile(test.engine.db, parseTilePath('tile/0/001.p/3')));
    expect(narrower.map(toHex)).toEqual(leafHashes.slice(256, 259).map(toHex));
  });

  it('serves tile/1/000.p/1: the root of the first 256 leaves', async () => {
    const tile = await readTile(test.engine.db, parseTilePath('tile/1/000.p/1'));
    expect(toHex(tile)).toBe(toHex(rootFromLeafHashes(leafHashes.slice(0, 256))));
  });

  it('serves entry bundles that decode to the leaf inputs', async () => {
    const first = decodeEntryBundle(await readEntryBundle(test.engine.db, 0), 256);
    expect(first.map((entry) => toHex(entry))).toEqual(
      Array.from({ length: 256 }, (_, i) => toHex(leafInput(i))),
    );
    const last = decodeEntryBundle(
      await readTile(test.engine.db, parseTilePath('tile/entries/001.p/44')),
      44,
    );
    expect(last.map((entry) => toHex(hashLeaf(entry)))).toEqual(leafHashes.slice(256).map(toHex));
  });

  it('decodes bundles strictly', async () => {
    expect(decodeEntryBundle(Uint8Array.of(0, 1, 7, 0, 0)).map((entry) => [...entry])).toEqual([[7], []]);
    await expectCode(() => decodeEntryBundle(Uint8Array.of(0, 2, 7)), 'INVALID_INPUT');
    await expectCode(() => decodeEntryBundle(Uint8Array.of(0, 1, 7, 0)), 'INVALID_INPUT');
    await expectCode(() => decodeEntryBundle(Uint8Array.of(0, 1, 7), 2), 'INVALID_INPUT');
  });

  it.each<[string, TilePath]>([
    ['a partial tile wider than the log', { entries: false, level: 0, index: 1, width: 45 }],
    ['a full tile the log has not filled', { entries: false, level: 0, index: 1, width: null }],
    ['a tile beyond the size', { entries: false, level: 0, index: 2, width: 1 }],
    ['a level-1 tile wider than its nodes', { entries: false, level: 1, index: 0, width: 2 }],
    ['a level-2 tile', { entries: false, level: 2, index: 0, width: 1 }],
    ['an entry bundle wider than the log', { entries: true, index: 1, width: 45 }],
    ['a full entry bundle not yet filled', { entries: true, index: 1, width: null }],
    ['a tile at the top level', { entries: false, level: 63, index: 0, width: 1 }],
  ])('%s is NOT_FOUND', async (_, tile) => {
    await expectCode(readTile(test.engine.db, tile), 'NOT_FOUND');
  });

  it('rejects out-of-range arguments with INVALID_INPUT', async () => {
    await expectCode(readHashTile(test.engine.db, 64, 0), 'INVALID_INPUT');
    await expectCode(readHashTile(test.engine.db, 0, -1), 'INVALID_INPUT');
    await expectCode(readEntryBundle(test.engine.db, 0, 0), 'INVALID_INPUT');
  });

  it('serves the checkpoint with its witness cosignatures, and tiles alone rebuild its root', async () => {
    const note = await checkpointWithCosignatures(test.engine.db);
    const keys = test.engine.trustedKeys();
    const verified = verifyCheckpoint(note, createNoteVerifier(keys.logs[0]!.vkey));
    if (!verified.ok) throw new Error(verified.reason);
    expect(verified.checkpoint.size).toBe(SIZE);
    const witnesses = (keys.witnesses ?? []).map((witness) => createCosignatureVerifier(witness.vkey));
    expect(witnesses.length).toBeGreaterThan(0);
    expect(verifyCosignatures(note, witnesses, witnesses.length).ok).toBe(true);
    expect(parseNote(note).signatures).toHaveLength(1 + witnesses.length);

    // Rebuild the root from what a client would fetch: level-0 tiles only, then check level 1.
    const tiles = tilesForTreeSize(verified.checkpoint.size);
    const level0: Uint8Array[] = [];
    for (const tile of tiles.filter((t) => !t.entries && t.level === 0)) {
      level0.push(...hashesOf(await readTile(test.engine.db, tile)));
    }
    expect(toHex(rootFromLeafHashes(level0))).toBe(toHex(verified.checkpoint.rootHash));
    // The same root from the level-1 hash and the partial level-0 tile: root = H(MTH(0..256), MTH(256..300)).
    const level1 = await readHashTile(test.engine.db, 1, 0, 1);
    expect(toHex(hashChildren(level1, rootFromLeafHashes(level0.slice(256))))).toBe(
      toHex(verified.checkpoint.rootHash),
    );
  });

  it('NOT_FOUND for the checkpoint of an empty log', async () => {
    const empty = await openTestEngine();
    try {
      await expectCode(checkpointWithCosignatures(empty.engine.db), 'NOT_FOUND');
      await expectCode(readHashTile(empty.engine.db, 0, 0, 1), 'NOT_FOUND');
    } finally {
      await empty.close();
    }
  });
});
