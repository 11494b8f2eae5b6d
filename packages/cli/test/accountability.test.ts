/**
 * Anchoring and the log (docs/anchoring.md, docs/transparency-log.md), end to end with the embedded defaults
 * and real processes: a document ingested through the CLI is anchored on the local anvil; a certificate
 * citing it verifies with `saksi verify --rpc` (anchor ✓, log ✓, cosignatures ✓ with an independent witness);
 * a server restart keeps all of that verifiable; tampered anchor fields and a forked checkpoint fail with
 * their codes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '@saksi/engine';
import { type Bundle, type Checkpoint, fromHex, parseCheckpoint, parseNote } from '@saksi/proof';
import { createNoteSigner, parseSignerKey, signCheckpoint } from '@saksi/proof/issue';
import { bearer, testApiKey } from '@saksi/test-support/api-key';
import { templateDirectory } from '@saksi/test-support/pglite-template';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const bin = path.join(repoRoot, 'packages/cli/bin/saksi.js');

const LAW = `# UU Contoh Lalu Lintas

## Pasal 106

(8) Setiap orang yang mengemudikan Sepeda Motor dan Penumpang Sepeda Motor wajib mengenakan helm yang memenuhi standar nasional Indonesia.

## Pasal 291

(1) Setiap orang yang mengemudikan Sepeda Motor tidak mengenakan helm standar nasional Indonesia dipidana dengan pidana kurungan paling lama 1 (satu) bulan atau denda paling banyak Rp250.000,00 (dua ratus lima puluh ribu rupiah).
`;

let directory: string;
let dataDir: string;
let env: Record<string, string>;
let server: ChildProcess | undefined;
/** The header of an API key: the collection is not public, so the chat and certificates need one. */
let auth: Record<string, string>;

const cli = (argv: string[]) => runCli(argv, { cwd: directory, env });

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-accountability-'));
  dataDir = path.join(directory, '.saksi');
  await cp(templateDirectory(), path.join(dataDir, 'pglite'), { recursive: true });
  env = { SAKSI_DATA_DIR: dataDir, NO_COLOR: '1' };
  await writeFile(path.join(directory, 'helm.md'), LAW);
  // Created in the database before any process opens it.
  const db = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
  try {
    auth = bearer(await testApiKey(db, ['read']));
  } finally {
    await db.close();
  }
});

afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server?.once('exit', resolve));
  }
  await rm(directory, { recursive: true, force: true });
});

/** Starts `saksi serve` on the data directory; resolves with its URL and the local chain's RPC URL. */
async function startServer(): Promise<{ url: string; rpcUrl: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const name of ['DATABASE_URL', 'PORT', 'SAKSI_ANCHOR', 'SAKSI_KEYS_DIR']) delete childEnv[name];
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--no-demo'], {
    cwd: directory,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = child;
  let stdout = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const match = /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
    if (match) {
      const status = (await (await fetch(`${match[1]}/api/v1/anchors`)).json()) as {
        chain: { rpc_url: string } | null;
      };
      expect(status.chain?.rpc_url, stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      return { url: match[1]!, rpcUrl: status.chain!.rpc_url };
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${stdout}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function stopServer(): Promise<void> {
  const child = server!;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  server = undefined;
}

async function verify(bundle: Bundle, ...options: string[]) {
  const file = path.join(directory, `bundle-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, JSON.stringify(bundle));
  return cli(['verify', file, '--trust', path.join(dataDir, 'keys', 'saksi-keys.json'), ...options]);
}

describe('anchored, logged, witnessed — and still so after a restart', () => {
  let witnessKey: string;
  let bundle: Bundle;
  let url: string;
  let rpcUrl: string;

  it('a document ingested through the CLI reaches ANCHORED on the local chain', async () => {
    const ingest = await cli(['ingest', 'helm.md', '--collection', 'lalu-lintas']);
    expect(ingest.code, ingest.stdout + ingest.stderr).toBe(0);
    expect(ingest.stdout).toMatch(
      /anchored 1 root on chain 31337 \(local anvil\): CONFIRMED, tx 0x[0-9a-f]{64}/,
    );
    const status = await cli(['anchor', 'status', '--json']);
    expect(JSON.parse(status.stdout).documents).toEqual({ ANCHORED: 1 });
    // The local registry is now pinned in the keys file verifiers use.
    const keys = JSON.parse(await readFile(path.join(dataDir, 'keys', 'saksi-keys.json'), 'utf8'));
    expect(keys.registries).toEqual([
      { chain_id: 31337, contract: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) },
    ]);
  });

  it('an independent witness is trusted, cosigns, and the bundle verifies with --rpc and 2 cosignatures', async () => {
    witnessKey = path.join(directory, 'witness.key');
    const keygen = await cli([
      'witness',
      'keygen',
      '--name',
      'witness.example/w1',
      '--out',
      witnessKey,
      '--json',
    ]);
    expect(keygen.code, keygen.stderr).toBe(0);
    const added = await cli(['keys', 'add-witness', JSON.parse(keygen.stdout).vkey, '--required', '2']);
    expect(added.code, added.stderr).toBe(0);

    ({ url, rpcUrl } = await startServer());
    const chat = await fetch(`${url}/api/v1/chat`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        collection: 'lalu-lintas',
        question: 'Apakah pengendara sepeda motor wajib memakai helm?',
      }),
    });
    expect(chat.status).toBe(200);
    const answer = (await chat.json()) as { bundle: Bundle };
    expect(
      answer.bundle.certificate.claims.flatMap((claim) => claim.evidence.map((e) => e.anchor?.chain_id)),
    ).toContain(31337);
    const witness = await cli(['witness', '--log', url, '--key', witnessKey, '--once']);
    expect(witness.code, witness.stdout + witness.stderr).toBe(0);
    bundle = (await (
      await fetch(`${url}/api/v1/certificates/${answer.bundle.certificate.certificate_id}`, {
        headers: auth,
      })
    ).json()) as Bundle;
    expect(bundle.log.cosignatures).toHaveLength(2);

    const result = await verify(bundle, '--rpc', rpcUrl, '--cosignatures', '2');
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/✓ anchor_onchain/);
    expect(result.stdout).toMatch(/✓ anchor_proofs/);
    expect(result.stdout).toMatch(/✓ log_inclusion/);
    expect(result.stdout).toMatch(/✓ cosignatures/);
    expect(result.stdout).toContain('Verdict: VERIFIED');
  });

  it('after stopping and restarting the server everything still verifies (same chain state)', async () => {
    await stopServer();
    ({ url, rpcUrl } = await startServer());
    const result = await verify(bundle, '--rpc', rpcUrl, '--cosignatures', '2');
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toMatch(/✓ anchor_onchain/);
    const served = (await (
      await fetch(`${url}/api/v1/certificates/${bundle.certificate.certificate_id}`, { headers: auth })
    ).json()) as Bundle;
    expect(served).toEqual(bundle);
  });

  it('tampered anchor fields and a forked checkpoint fail with the right codes', async () => {
    const tampered = structuredClone(bundle);
    const anchor = tampered.certificate.claims.flatMap((claim) => claim.evidence).find((e) => e.anchor)!
      .anchor!;
    anchor.tx_hash = `0x${'ab'.repeat(32)}`;
    const bad = await verify(tampered, '--rpc', rpcUrl, '--json');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).codes).toContain('SIGNATURE_INVALID');

    // A checkpoint of the same size with another root, signed with the real log key: a fork.
    const note = parseNote(bundle.log.checkpoint);
    const checkpoint = parseCheckpoint(note.text);
    const forked: Checkpoint = { ...checkpoint, rootHash: fromHex('ee'.repeat(32), 32) };
    const logKey = parseSignerKey((await readFile(path.join(dataDir, 'keys', 'log.key'), 'utf8')).trim());
    const forkFile = path.join(directory, 'fork.txt');
    await writeFile(forkFile, signCheckpoint(forked, createNoteSigner(logKey.name, logKey.secretKey)));
    const fork = await verify(bundle, '--checkpoint', forkFile, '--json');
    expect(fork.code).toBe(1);
    expect(JSON.parse(fork.stdout).codes).toContain('CHECKPOINT_INCONSISTENT');
  });

  it('stopping the server stops its anvil', async () => {
    await stopServer();
    const pidFile = path.join(dataDir, 'anvil', 'anvil.pid');
    await expect(readFile(pidFile, 'utf8')).rejects.toThrow();
  });
});
