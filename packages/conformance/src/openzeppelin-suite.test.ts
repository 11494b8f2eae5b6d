import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { toHex, utf8Encode } from '@saksi/proof';
import { describe, expect, it } from 'vitest';
import { OPENZEPPELIN_EXPECTED_COUNTS, openzeppelinSuite } from './openzeppelin-suite.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const vectorsDir = process.env['SAKSI_VECTORS_DIR'] ?? path.resolve(repoRoot, '../shared/data/vectors');

async function scratchCopy(): Promise<{ scratch: string; dumps: string }> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'saksi-oz-'));
  const folder = path.join(scratch, 'openzeppelin-merkle-negative');
  await cp(path.join(vectorsDir, 'openzeppelin-merkle-negative'), folder, { recursive: true });
  return { scratch, dumps: path.join(folder, 'test', 'dumps') };
}

describe('openzeppelinSuite', () => {
  it('finds every OpenZeppelin proof valid under its own rule and rejected by RFC 6962', async () => {
    const result = await openzeppelinSuite(vectorsDir);
    expect(result).toBeDefined();
    expect(result!.name).toBe('openzeppelin-merkle-negative');
    expect(result!.source).toContain('OpenZeppelin/merkle-tree');
    expect(result!.failures).toEqual([]);
    expect(result!.failed).toBe(0);
    expect(result!.passed).toBe(24);
    expect(Object.values(OPENZEPPELIN_EXPECTED_COUNTS).reduce((a, b) => a + b, 0)).toBe(24);
  });

  it('uses the right keccak-256 (Keccak padding, not SHA3-256)', () => {
    expect(toHex(keccak_256(utf8Encode('')))).toBe(
      'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
  });

  it('fails leaves whose OpenZeppelin proof is broken, so passing means something', async () => {
    const { scratch, dumps } = await scratchCopy();
    try {
      const file = path.join(dumps, 'standard-v1.sorted.1_0_6.json');
      const dump = JSON.parse(await readFile(file, 'utf8')) as { tree: string[] };
      dump.tree[0] = `0x${'00'.repeat(32)}`;
      await writeFile(file, JSON.stringify(dump));
      const result = await openzeppelinSuite(scratch);
      expect(result!.failed).toBe(6);
      expect(result!.passed).toBe(18);
      expect(result!.failures.every((line) => line.includes('does not rebuild tree[0]'))).toBe(true);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it('reports a missing dump and resolves undefined without the folder', async () => {
    const { scratch, dumps } = await scratchCopy();
    try {
      await rm(path.join(dumps, 'simple-v1.unsorted.1_0_6.json'));
      const result = await openzeppelinSuite(scratch);
      expect(result!.passed).toBe(18);
      expect(result!.failures).toEqual(['test/dumps/simple-v1.unsorted.1_0_6.json: dump is missing']);
      expect(await openzeppelinSuite(path.join(scratch, 'nowhere'))).toBeUndefined();
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
