/** `saksi anchor`: status (data directory and --server), require, deploy, and its errors. */
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AnvilHandle, startAnvil } from '@saksi/contracts';
import { Engine, loadConfig } from '@saksi/engine';
import { startServer } from '@saksi/server';
import { templateDirectory } from '@saksi/test-support/pglite-template';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';

let directory: string;
let anvil: AnvilHandle;
const env = () => ({ SAKSI_DATA_DIR: 'data', NO_COLOR: '1' });
const run = (argv: string[], extra: Record<string, string> = {}) =>
  runCli(argv, { cwd: directory, env: { ...env(), ...extra } });

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-cli-anchor-'));
  await cp(templateDirectory(), path.join(directory, 'data/pglite'), { recursive: true });
  await writeFile(path.join(directory, 'a.md'), '# Helm\n\nPengendara wajib memakai helm.\n');
  anvil = await startAnvil();
});

afterAll(async () => {
  await anvil?.stop();
  await rm(directory, { recursive: true, force: true });
});

describe('saksi anchor', () => {
  let documentId: string;

  it('status shows documents per state and rounds; for one document its anchor', async () => {
    const ingest = await run(['ingest', 'a.md', '--collection', 'helm', '--json']);
    expect(ingest.code, ingest.stdout).toBe(0);
    documentId = JSON.parse(ingest.stdout.split('\n')[0]!).document.id;
    const status = await run(['anchor', 'status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('Documents: 1 ANCHORED, 0 ANCHORING, 0 PENDING_ANCHOR');
    expect(status.stdout).toMatch(/anc_[0-9a-f]+ CONFIRMED 1 root tx 0x[0-9a-f]{64} block \d+/);
    const one = await run(['anchor', 'status', documentId]);
    expect(one.stdout).toContain(`(${documentId})`);
    expect(one.stdout).toMatch(/state: +ANCHORED/);
    expect(one.stdout).toMatch(/batch proof: +leaf 0 of 1, 0 hashes/);
    const json = JSON.parse((await run(['anchor', 'status', documentId, '--json'])).stdout);
    expect(json.document.anchor).toMatchObject({
      chain_id: 31337,
      batch_proof: { leaf_index: 0, tree_size: 1 },
    });
  });

  it('status --server reads a running server', async () => {
    const dataDir = path.join(directory, 'data');
    const engine = await Engine.open({
      config: loadConfig({ SAKSI_DATA_DIR: dataDir, SAKSI_ANCHOR: 'none' }, directory),
    });
    // A document's anchor status is public for a public collection (the command sends no API key).
    await engine.collections.configure('helm', { public: true });
    const server = await startServer(engine, { port: 0, host: '127.0.0.1' });
    try {
      const result = await run(['anchor', 'status', documentId, '--server', server.url]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/state: +ANCHORED/);
      const missing = await run(['anchor', 'status', 'doc_nope', '--server', server.url]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('404');
    } finally {
      await server.close();
      await engine.close();
    }
  });

  it('require sets and lifts the collection policy', async () => {
    const on = await run(['anchor', 'require', 'helm']);
    expect(on.code).toBe(0);
    expect(on.stdout).toContain('now requires anchors');
    const off = await run(['anchor', 'require', 'helm', '--off']);
    expect(off.stdout).toContain('no longer requires anchors');
    expect((await run(['anchor', 'require', 'no-such-collection'])).code).toBe(1);
  });

  it('deploy puts a DocumentRegistry on a chain and prints its address', async () => {
    const result = await run(['anchor', 'deploy', '--rpc', anvil.rpcUrl, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const deployed = JSON.parse(result.stdout);
    expect(deployed).toMatchObject({
      chain_id: 31337,
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
    });
    // A non-local chain needs a key from the environment, never a flag.
    const keyless = await run(['anchor', 'deploy', '--rpc', anvil.rpcUrl, '--chain', '84532']);
    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toContain('SAKSI_ANCHOR_PRIVATE_KEY');
    const badKey = await run(['anchor', 'deploy', '--rpc', anvil.rpcUrl], {
      SAKSI_ANCHOR_PRIVATE_KEY: '0x12',
    });
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).not.toContain('0x12');
  });

  it('usage errors and an unknown document', async () => {
    expect((await run(['anchor'])).code).toBe(2);
    expect((await run(['anchor', 'fly'])).code).toBe(2);
    expect((await run(['anchor', 'deploy'])).code).toBe(2);
    expect((await run(['anchor', 'status', 'doc_missing'])).code).toBe(1);
    const off = await run(['anchor', 'run'], { SAKSI_ANCHOR: 'none' });
    expect(off.code).toBe(2);
    expect(off.stderr).toContain('SAKSI_ANCHOR=none');
  });
});
