import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { utf8Decode, utf8Encode } from '@saksi/proof';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkJcsVector,
  createJcsSuite,
  JCS_EXPECTED_VECTOR_COUNT,
  type JcsCanonicalizer,
  type JcsVector,
  jcsSuite,
} from './jcs-suite.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const vectorsDirectory = process.env['SAKSI_VECTORS_DIR'] ?? path.resolve(repoRoot, '../shared/data/vectors');
const testdata = path.join(vectorsDirectory, 'jcs-rfc8785', 'testdata');

const temporaryFolders: string[] = [];
afterAll(async () => {
  for (const dir of temporaryFolders) await rm(dir, { recursive: true, force: true });
});

/** A copy of the vectors folder that a test may damage. */
async function copyOfVectors(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'saksi-jcs-'));
  temporaryFolders.push(dir);
  await cp(path.join(vectorsDirectory, 'jcs-rfc8785'), path.join(dir, 'jcs-rfc8785'), { recursive: true });
  return dir;
}

async function loadVector(name: string): Promise<JcsVector> {
  return {
    name,
    input: await readFile(path.join(testdata, 'input', `${name}.json`)),
    output: await readFile(path.join(testdata, 'output', `${name}.json`)),
    outhex: await readFile(path.join(testdata, 'outhex', `${name}.txt`), 'utf8'),
  };
}

/** A plausible but wrong canonicalizer: JSON.stringify keeps insertion order (integer keys first). */
const stringifyCanonicalizer: JcsCanonicalizer = (input) =>
  utf8Encode(JSON.stringify(JSON.parse(utf8Decode(input))));

describe('jcsSuite', () => {
  it('passes all six RFC 8785 reference vectors', async () => {
    const result = await jcsSuite(vectorsDirectory);
    expect(result).toBeDefined();
    expect(result?.name).toBe('jcs-rfc8785');
    expect(result?.source).toContain('cyberphone/json-canonicalization');
    expect(result?.failures).toEqual([]);
    expect({ passed: result?.passed, failed: result?.failed }).toEqual({ passed: 6, failed: 0 });
    expect(JCS_EXPECTED_VECTOR_COUNT).toBe(6);
  });

  it('resolves undefined when the vectors are absent', async () => {
    await expect(jcsSuite(path.join(tmpdir(), 'saksi-no-such-vectors'))).resolves.toBeUndefined();
  });

  it('fails the vectors a JSON.stringify "canonicalizer" gets wrong', async () => {
    // JSON.stringify keeps member order, so it only matches where the input is already sorted
    // (arrays, french, unicode) and fails structures, values and weird.
    expect(checkJcsVector(await loadVector('values'), stringifyCanonicalizer)).toMatch(/differ/);
    expect(checkJcsVector(await loadVector('values'))).toBeUndefined();
    const result = await createJcsSuite(stringifyCanonicalizer)(vectorsDirectory);
    expect({ passed: result?.passed, failed: result?.failed }).toEqual({ passed: 3, failed: 3 });
    expect(result?.failures.map((line) => line.split(':')[0])).toEqual(['structures', 'values', 'weird']);
  });

  it('counts a canonicalizer that throws as a failure', async () => {
    const throwing: JcsCanonicalizer = () => {
      throw new Error('boom');
    };
    const result = await createJcsSuite(throwing)(vectorsDirectory);
    expect({ passed: result?.passed, failed: result?.failed }).toEqual({ passed: 0, failed: 6 });
  });

  it('compares raw bytes: one changed or trailing byte in output fails that vector', async () => {
    const vector = await loadVector('french');
    const changed = vector.output.slice();
    const last = changed.length - 2;
    changed[last] = changed[last]! ^ 1;
    expect(checkJcsVector({ ...vector, output: changed })).toMatch(/outhex disagree/);
    const extended = new Uint8Array([...vector.output, 0x0a]);
    expect(checkJcsVector({ ...vector, output: extended })).toMatch(/outhex disagree/);
    expect(checkJcsVector({ ...vector, outhex: `${vector.outhex} 0a` })).toMatch(/outhex disagree/);
    expect(checkJcsVector({ ...vector, outhex: 'zz' })).toMatch(/not whitespace-separated hex/);
    // Output and outhex both changed the same way: the canonical bytes no longer match.
    const outhex = Array.from(changed, (byte) => byte.toString(16).padStart(2, '0')).join(' ');
    expect(checkJcsVector({ ...vector, output: changed, outhex })).toMatch(/canonical bytes differ/);
  });

  it('reports a damaged copy: edited output, missing outhex, missing input', async () => {
    const dir = await copyOfVectors();
    const copy = path.join(dir, 'jcs-rfc8785', 'testdata');
    await writeFile(path.join(copy, 'output', 'weird.json'), '{}');
    await rm(path.join(copy, 'outhex', 'arrays.txt'));
    await rm(path.join(copy, 'input', 'unicode.json'));
    const result = await jcsSuite(dir);
    expect(result?.passed).toBe(3);
    expect(result?.failures.map((line) => line.split(':')[0])).toEqual(['arrays', 'weird', 'testdata/input']);
  });
});
