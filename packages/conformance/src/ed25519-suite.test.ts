import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkEd25519Vectors, ED25519_EXPECTED_COUNTS, ed25519Suite } from './ed25519-suite.js';
import { SuiteRecorder } from './suite.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const vectorsDirectory = process.env['SAKSI_VECTORS_DIR'] ?? path.resolve(repoRoot, '../shared/data/vectors');
const folder = path.join(vectorsDirectory, 'ed25519');

const temporaryFolders: string[] = [];
afterAll(async () => {
  for (const dir of temporaryFolders) await rm(dir, { recursive: true, force: true });
});

describe('ed25519Suite', () => {
  it('expects the published per-file counts', () => {
    expect(ED25519_EXPECTED_COUNTS).toEqual({
      'rfc8032-ed25519.json': 4,
      'djb-sign.input.vectors.txt': 1024,
      'edge-cases.json': 12,
      'zip215.json': 196,
      'wycheproof/ed25519_test.json': 151,
    });
  });

  it('passes every vector, each file holding exactly its expected count', async () => {
    const result = await ed25519Suite(vectorsDirectory);
    expect(result).toBeDefined();
    expect(result?.name).toBe('ed25519');
    expect(result?.source).toContain('noble-curves');
    expect(result?.failures).toEqual([]);
    expect(result?.failed).toBe(0);
    // 4 + 1024 + 12 + 196 + 151; a file with another count would add a failure above.
    expect(result?.passed).toBe(1387);
  });

  it('resolves undefined when the vectors are absent', async () => {
    await expect(ed25519Suite(path.join(tmpdir(), 'saksi-no-such-vectors'))).resolves.toBeUndefined();
  });

  it('reports a changed verdict, a wrong signature and a short file as failures', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'saksi-ed25519-'));
    temporaryFolders.push(dir);
    const copy = path.join(dir, 'ed25519');
    await mkdir(path.join(copy, 'wycheproof'), { recursive: true });
    for (const file of [
      'SOURCE.txt',
      'rfc8032-ed25519.json',
      'zip215.json',
      'wycheproof/ed25519_test.json',
    ]) {
      await copyFile(path.join(folder, file), path.join(copy, file));
    }
    // Case 2 of "Taming the many EdDSAs" must verify strictly; swapping in case 0's signature must not.
    const edge = JSON.parse(await readFile(path.join(folder, 'edge-cases.json'), 'utf8')) as {
      signature: string;
    }[];
    edge[2]!.signature = edge[0]!.signature;
    await writeFile(path.join(copy, 'edge-cases.json'), JSON.stringify(edge));
    // Three djb lines, the second with one signature nibble changed.
    const lines = (await readFile(path.join(folder, 'djb-sign.input.vectors.txt'), 'utf8'))
      .split('\n')
      .slice(0, 3);
    const fields = lines[1]!.split(':');
    fields[3] = (fields[3]!.startsWith('0') ? '1' : '0') + fields[3]!.slice(1);
    lines[1] = fields.join(':');
    await writeFile(path.join(copy, 'djb-sign.input.vectors.txt'), lines.join('\n'));

    const recorder = new SuiteRecorder('ed25519', 'test');
    const counts = await checkEd25519Vectors(copy, recorder);
    expect(counts['djb-sign.input.vectors.txt']).toBe(3);
    expect(counts['edge-cases.json']).toBe(12);
    expect(recorder.result.failed).toBe(2);
    expect(recorder.result.failures.join('\n')).toMatch(/djb-sign\.input\.vectors\.txt:2: signature differs/);
    expect(recorder.result.failures.join('\n')).toMatch(/edge-cases\.json#2/);

    const result = await ed25519Suite(dir);
    expect(result?.failed).toBe(3); // the two above and the djb count (3, not 1024)
    expect(result?.failures.some((f) => f.startsWith('djb-sign.input.vectors.txt: expected 1024'))).toBe(
      true,
    );
  });
});
