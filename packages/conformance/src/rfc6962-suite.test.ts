import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  RFC6962_PROBE_COUNT,
  RFC6962_PROBE_KINDS,
  RFC6962_REFERENCE_TREE_COUNT,
  rfc6962Suite,
} from './rfc6962-suite.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const vectorsDir = process.env['SAKSI_VECTORS_DIR'] ?? path.resolve(repoRoot, '../shared/data/vectors');

async function countJsonFiles(folder: string): Promise<number> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.json')).length;
}

describe('rfc6962Suite', () => {
  it('passes every transparency-dev probe and every reference-tree hash', async () => {
    const result = await rfc6962Suite(vectorsDir);
    expect(result).toBeDefined();
    expect(result!.name).toBe('rfc6962');
    expect(result!.source).toContain('transparency-dev/merkle');
    expect(result!.failures).toEqual([]);
    expect(result!.failed).toBe(0);
    expect(result!.passed).toBe(RFC6962_PROBE_COUNT + RFC6962_REFERENCE_TREE_COUNT);
    expect(result!.passed).toBe(542);
  });

  it('counts exactly one vector per probe file on disk', async () => {
    let files = 0;
    for (const kind of RFC6962_PROBE_KINDS) {
      files += await countJsonFiles(path.join(vectorsDir, 'rfc6962', 'testdata', kind));
    }
    expect(files).toBe(RFC6962_PROBE_COUNT);
    const reference = JSON.parse(
      await readFile(path.join(vectorsDir, 'rfc6962', 'reference-tree-8-leaves.json'), 'utf8'),
    ) as { rootHashesBySizeHex: string[]; nodeHashesByLevelHex: string[][] };
    const listed =
      reference.rootHashesBySizeHex.length + reference.nodeHashesByLevelHex.reduce((n, l) => n + l.length, 0);
    expect(listed).toBe(RFC6962_REFERENCE_TREE_COUNT);
  });

  it('reports a probe whose expectation is flipped, and a missing folder', async () => {
    const scratch = await mkdtemp(path.join(tmpdir(), 'saksi-rfc6962-'));
    try {
      const folder = path.join(scratch, 'rfc6962');
      await cp(path.join(vectorsDir, 'rfc6962'), folder, { recursive: true });
      const happy = path.join(folder, 'testdata', 'inclusion', '1', 'happy-path.json');
      const probe = JSON.parse(await readFile(happy, 'utf8')) as { wantErr: boolean };
      await writeFile(happy, JSON.stringify({ ...probe, wantErr: true }));
      const wrong = path.join(folder, 'testdata', 'consistency', '1', 'wrong-root2.json');
      const bad = JSON.parse(await readFile(wrong, 'utf8')) as { wantErr: boolean };
      await writeFile(wrong, JSON.stringify({ ...bad, wantErr: false }));
      await rm(path.join(folder, 'testdata', 'subtreeconsistency'), { recursive: true });

      const result = await rfc6962Suite(scratch);
      expect(result!.failed).toBe(3);
      expect(result!.failures.some((line) => line.startsWith('testdata/inclusion/1/happy-path.json'))).toBe(
        true,
      );
      expect(
        result!.failures.some((line) => line.startsWith('testdata/consistency/1/wrong-root2.json')),
      ).toBe(true);
      expect(result!.failures).toContain('testdata/subtreeconsistency: folder is missing');
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it('resolves undefined when the rfc6962 folder is absent', async () => {
    const scratch = await mkdtemp(path.join(tmpdir(), 'saksi-rfc6962-empty-'));
    try {
      expect(await rfc6962Suite(scratch)).toBeUndefined();
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
