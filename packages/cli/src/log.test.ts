import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type Bundle,
  createNoteVerifier,
  fromHex,
  hashLeaf,
  logLeafInput,
  parseTrustedKeys,
  verifyCheckpoint,
  verifyConsistencyProof,
  verifyInclusionProof,
} from '@saksi/proof';
import { templateDirectory } from '@saksi/test-support/pglite-template';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';

const STACK_FRAME = /\n\s+at .+:\d+/;

let directory: string;

/** Runs `saksi` in-process with `data/` as its data directory. */
async function run(argv: string[], dataDir = 'data') {
  return runCli(argv, { cwd: directory, env: { SAKSI_DATA_DIR: dataDir, NO_COLOR: '1' } });
}

async function askJson(question: string): Promise<Bundle> {
  const result = await run(['ask', question, '--collection', 'docs', '--json']);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Bundle;
}

/** Verifies a signed checkpoint against the log key of this data directory; returns size and root. */
async function openCheckpoint(note: string): Promise<{ size: number; root: Uint8Array }> {
  const keys = parseTrustedKeys(
    JSON.parse(await readFile(path.join(directory, 'data/keys/saksi-keys.json'), 'utf8')),
  );
  const result = verifyCheckpoint(note, createNoteVerifier(keys.logs[0]!.vkey));
  if (!result.ok) throw new Error(`checkpoint does not verify: ${result.reason}`);
  return { size: result.checkpoint.size, root: result.checkpoint.rootHash };
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-cli-log-'));
  await cp(templateDirectory(), path.join(directory, 'data/pglite'), { recursive: true });
  await writeFile(
    path.join(directory, 'store.md'),
    '# The store\n\nThe store holds the whole state tree of the application.\n\n' +
      '## Reducers\n\nReducers are pure functions that take the previous state and an action.\n',
  );
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('saksi log', () => {
  let first: Bundle;
  let second: Bundle;

  it('on an empty log, checkpoint exits 2 with a hint', async () => {
    const result = await run(['log', 'checkpoint']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: the log is empty');
    expect(result.stderr).toContain('hint: Ask a question first');
    expect(result.stdout).toBe('');
  });

  it('after two asks, prints the latest checkpoint as a C2SP signed note with its cosignature', async () => {
    expect((await run(['ingest', 'store.md', '--collection', 'docs', '--language', 'en'])).code).toBe(0);
    first = await askJson('What does the store hold?');
    second = await askJson('What are reducers?');
    expect([first.log.leaf_index, second.log.leaf_index]).toEqual([0, 1]);

    const result = await run(['log', 'checkpoint']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('saksi.local/log');
    expect(lines[1]).toBe('2');
    expect(lines[2]).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(lines[3]).toBe('');
    expect(lines[4]).toMatch(/^— saksi\.local\/log [A-Za-z0-9+/]+=*$/);
    expect(lines[5]).toMatch(/^— saksi\.local\/witness-1 [A-Za-z0-9+/]+=*$/);
    expect(result.stdout.endsWith('\n')).toBe(true);
    expect((await openCheckpoint(result.stdout)).size).toBe(2);

    const json = await run(['log', 'checkpoint', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ origin: 'saksi.local/log', size: 2 });
  });

  it('inclusion and consistency proofs verify against the signed checkpoints', async () => {
    const latest = await openCheckpoint((await run(['log', 'checkpoint'])).stdout);
    const atOne = await openCheckpoint(first.log.checkpoint);
    expect(atOne.size).toBe(1);

    const inclusion = await run(['log', 'inclusion', '0', '--json']);
    expect(inclusion.code).toBe(0);
    const proof = JSON.parse(inclusion.stdout) as { leaf_index: number; tree_size: number; proof: string[] };
    expect(proof).toMatchObject({ leaf_index: 0, tree_size: 2 });
    const leafHash = hashLeaf(logLeafInput(first.certificate, first.signature));
    const nodes = proof.proof.map((node) => fromHex(node, 32));
    expect(verifyInclusionProof(0, 2, leafHash, nodes, latest.root)).toBe(true);
    // The proof is for this entry only: the other certificate's leaf does not verify with it.
    const otherLeaf = hashLeaf(logLeafInput(second.certificate, second.signature));
    expect(verifyInclusionProof(0, 2, otherLeaf, nodes, latest.root)).toBe(false);

    const sized = await run(['log', 'inclusion', '0', '--size', '1', '--json']);
    expect(sized.code).toBe(0);
    const sizedProof = JSON.parse(sized.stdout) as { tree_size: number; proof: string[] };
    expect(sizedProof.tree_size).toBe(1);
    expect(
      verifyInclusionProof(
        0,
        1,
        leafHash,
        sizedProof.proof.map((node) => fromHex(node, 32)),
        atOne.root,
      ),
    ).toBe(true);

    const consistency = await run(['log', 'consistency', '1', '2', '--json']);
    expect(consistency.code).toBe(0);
    const between = JSON.parse(consistency.stdout) as { first: number; second: number; proof: string[] };
    expect(between).toMatchObject({ first: 1, second: 2 });
    const path12 = between.proof.map((node) => fromHex(node, 32));
    expect(verifyConsistencyProof(1, 2, path12, atOne.root, latest.root)).toBe(true);
    expect(verifyConsistencyProof(1, 2, path12, latest.root, latest.root)).toBe(false);

    const human = await run(['log', 'inclusion', '1']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^entry 1 in tree of 2:\n[0-9a-f]{64}\n$/);
    const humanConsistency = await run(['log', 'consistency', '1', '2']);
    expect(humanConsistency.stdout).toMatch(/^consistency 1 → 2:\n[0-9a-f]{64}\n$/);
  });

  it("tiles audits this data directory's log through its C2SP tiles", async () => {
    const result = await run(['log', 'tiles']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout.split('\n')[0]).toContain("this machine's keys");
    expect(result.stdout).toContain('2 entries, root ');
    expect(result.stdout).toContain('Verdict: VERIFIED');
    const json = await run(['log', 'tiles', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, size: 2, tiles: { hash: 1, entries: 1 } });
  });

  it.each([
    [['log'], 'say which'],
    [['log', 'tail'], 'say which'],
    [['log', 'inclusion'], '<index> must be a whole number'],
    [['log', 'inclusion', 'abc'], '<index> must be a whole number'],
    [['log', 'inclusion', '1.5'], '<index> must be a whole number'],
    [['log', 'inclusion', '0', '--size', 'x'], '--size must be a whole number'],
    [['log', 'inclusion', '2'], 'leaf_index'],
    [['log', 'inclusion', '0', '--size', '3'], 'tree_size'],
    [['log', 'inclusion', '99999999999999999999'], '<index> must be a whole number'],
    [['log', 'consistency', '1'], '<new> must be a whole number'],
    [['log', 'consistency', '2', '1'], 'first must be between'],
    [['log', 'consistency', '0', '2'], 'first must be between'],
    [['log', 'consistency', '1', '3'], 'second must be between'],
    [['log', 'checkpoint', 'extra'], 'unexpected argument "extra"'],
    [['log', 'consistency', '1', '2', '3'], 'unexpected argument "3"'],
    [['log', 'tiles', 'extra'], 'unexpected argument "extra"'],
    [['log', 'tiles', '--log', 'file:///etc'], '--log must be an http or https URL'],
  ])('%j exits 2', async (argv, expected) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: /);
    expect(result.stderr).toContain(expected);
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(result.stdout).toBe('');
  });

  it('checks the command line before opening the data directory', async () => {
    const result = await run(['log', 'inclusion', 'abc'], 'untouched');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('usage: saksi log');
    expect(existsSync(path.join(directory, 'untouched'))).toBe(false);
  });
});
