/**
 * Crash safety (docs/anchoring.md, "Crash safety"; docs/transparency-log.md): the real `saksi serve` process
 * is SIGKILLed at awkward moments and restarted on the same data directory.
 *
 * - Anchoring: killed after the anchoring transaction was sent but before its receipt (anvil with
 *   automine off). On restart the round is confirmed by the same transaction — whether it was mined
 *   meanwhile or dropped from the pool (then rebroadcast from the stored bytes) — and a root is never
 *   sent twice.
 * - Log: killed while concurrent chats are being integrated. After the restart every certificate a
 *   client received is still served and verifies, the new checkpoint is consistent with every one a
 *   client saw, and the next entry follows without a gap or a duplicate.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ANVIL_DEFAULT_PRIVATE_KEY,
  type AnvilHandle,
  deployDocumentRegistry,
  documentRegistryAbi,
  registryChain,
  startAnvil,
} from '@saksi/contracts';
import { openDatabase } from '@saksi/engine';
import {
  type Bundle,
  fromHex,
  parseCheckpoint,
  parseNote,
  parseTrustedKeys,
  type TrustedKeys,
  trustOptions,
  verifyBundle,
  verifyConsistencyProof,
} from '@saksi/proof';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { bearer, testApiKey, waitForDocument } from '@saksi/test-support/api-key';
import { templateDirectory } from '@saksi/test-support/pglite-template';
import { createPublicClient, type Hex, http, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const bin = path.join(repoRoot, 'packages/cli/bin/saksi.js');
const LAW = '/work/shared/data/corpora/uu-22-2009-llaj/uu-22-2009-llaj.fulltext.md';

let directory: string;
/** Every server process this file started, so none outlives it. */
const servers = new Set<ChildProcess>();

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-crash-'));
});

afterAll(async () => {
  for (const child of servers) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  await Promise.all([...servers].map((child) => exitOf(child)));
  for (const child of servers) expect(isAlive(child.pid!)).toBe(false);
  await rm(directory, { recursive: true, force: true });
});

function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface Server {
  url: string;
  child: ChildProcess;
  output: { stdout: string; stderr: string };
  /** SIGKILL: no handler runs, nothing is flushed or closed. */
  kill(): Promise<void>;
  /** SIGTERM: the clean stop (`Stopping…`, database closed). */
  stop(): Promise<void>;
}

/** Starts `saksi serve` (the compiled CLI) on a free port and resolves once it listens. */
async function startServer(dataDir: string, env: Record<string, string>): Promise<Server> {
  // Only this test's Saksi settings: none inherited from the shell running the tests.
  const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith('SAKSI_'));
  const processEnv: NodeJS.ProcessEnv = {
    ...Object.fromEntries(inherited),
    SAKSI_DATA_DIR: dataDir,
    SAKSI_DEMO: '0',
    PORT: '0',
    NO_COLOR: '1',
    ...env,
  };
  delete processEnv['DATABASE_URL'];
  const child = spawn(process.execPath, [bin, 'serve'], {
    cwd: directory,
    env: processEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  servers.add(child);
  const output = { stdout: '', stderr: '' };
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (output.stdout += text));
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (output.stderr += text));
  const exited = exitOf(child);
  const deadline = Date.now() + 20_000;
  let url: string | undefined;
  while (!url) {
    url = /Listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(output.stdout)?.[1];
    if (url) break;
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`saksi serve did not start:\n${output.stdout}\n${output.stderr}`);
    }
    await sleep(25);
  }
  return {
    url,
    child,
    output,
    async kill() {
      process.kill(child.pid!, 'SIGKILL');
      await exited;
      expect(child.signalCode).toBe('SIGKILL');
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      expect({ code: child.exitCode, stderr: output.stderr }).toEqual({ code: 0, stderr: '' });
    },
  };
}

/** A response with an error status (as opposed to a connection the kill cut). */
class HttpError extends Error {}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `probe` until it returns a value other than undefined. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function getJson<T>(url: string, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The header of a new API key, written to the data directory's database before a server opens it. */
async function apiKeyHeader(dataDir: string): Promise<Record<string, string>> {
  const db = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
  try {
    return bearer(await testApiKey(db, ['read', 'ingest']));
  } finally {
    await db.close();
  }
}

/** Uploads a document (accepted, 202) and waits until the server's worker made it READY. */
async function upload(
  server: Server,
  auth: Record<string, string>,
  collection: string,
  filename: string,
  text: string,
): Promise<{ id: string; root: string }> {
  const form = new FormData();
  form.set('file', new Blob([text], { type: 'text/markdown' }), filename);
  form.set('collection', collection);
  const response = await fetch(`${server.url}/api/v1/documents`, {
    method: 'POST',
    headers: auth,
    body: form,
  });
  expect(response.status).toBe(202);
  const body = (await response.json()) as { document: { id: string; status: string } };
  expect(body.document.status).toBe('PENDING');
  const document = await waitForDocument(server.url, body.document.id, auth);
  expect(document['status'], JSON.stringify(document['error'])).toBe('READY');
  expect(document['root']).toMatch(/^[0-9a-f]{64}$/);
  return { id: document['id'] as string, root: document['root'] as string };
}

describe.concurrent('anchoring: killed after the transaction is sent, before its receipt', () => {
  const account = privateKeyToAccount(ANVIL_DEFAULT_PRIVATE_KEY);
  let anvil: AnvilHandle;
  let client: PublicClient;
  let contract: `0x${string}`;
  let env: Record<string, string>;
  let dataDir: string;
  let server: Server;
  let auth: Record<string, string>;

  interface DocumentStatus {
    rounds: { status: string; tx_hash: string | null; batch_root: string }[];
    document: { anchor_state: string; anchor: { tx_hash: string; batch_root: string } | null };
  }

  const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const response = await fetch(anvil.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = (await response.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  };
  const nonce = async () => Number(await rpc<string>('eth_getTransactionCount', [account.address, 'latest']));
  const transaction = (hash: string) =>
    rpc<{ hash: string; blockNumber: string | null } | null>('eth_getTransactionByHash', [hash]);
  const rootCount = () =>
    client.readContract({ address: contract, abi: documentRegistryAbi, functionName: 'getRootCount' });
  const anchoredEvents = async (root: string) =>
    (
      await client.getContractEvents({
        address: contract,
        abi: documentRegistryAbi,
        eventName: 'RootAnchored',
        args: { root: `0x${root}` as Hex },
        fromBlock: 0n,
      })
    ).map((log) => log.transactionHash);

  const status = (documentId: string) =>
    getJson<DocumentStatus>(`${server.url}/api/v1/anchors/${documentId}`, auth);

  /** Uploads a document and waits until its round is SENT and the transaction sits in anvil's pool. */
  async function uploadUntilSent(name: string): Promise<{ id: string; txHash: string; batchRoot: string }> {
    const document = await upload(
      server,
      auth,
      'anchored',
      `${name}.md`,
      `# ${name}\n\nPasal 1\nDokumen ${name} dicatat pada ${new Date().toISOString()}.\n`,
    );
    const sent = await until(`round of ${name} SENT`, async () => {
      const round = (await status(document.id)).rounds[0];
      return round?.status === 'SENT' && round.tx_hash ? round : undefined;
    });
    // SENT is committed before the broadcast: wait until anvil has it, unmined (automine is off).
    const pending = await until('the transaction in the pool', () =>
      transaction(sent.tx_hash!).then((tx) => tx ?? undefined),
    );
    expect(pending.blockNumber).toBeNull();
    return { id: document.id, txHash: sent.tx_hash!, batchRoot: sent.batch_root };
  }

  async function waitAnchored(documentId: string): Promise<DocumentStatus> {
    return until(`document ${documentId} ANCHORED`, async () => {
      const current = await status(documentId);
      return current.document.anchor_state === 'ANCHORED' ? current : undefined;
    });
  }

  beforeAll(async () => {
    anvil = await startAnvil();
    const deployed = await deployDocumentRegistry({
      rpcUrl: anvil.rpcUrl,
      privateKey: ANVIL_DEFAULT_PRIVATE_KEY,
      chainId: anvil.chainId,
    });
    contract = deployed.address;
    await rpc('evm_setAutomine', [false]);
    client = createPublicClient({
      chain: registryChain(anvil.chainId, anvil.rpcUrl),
      transport: http(anvil.rpcUrl),
    });
    dataDir = path.join(directory, 'anchored');
    await cp(templateDirectory(), path.join(dataDir, 'pglite'), { recursive: true });
    env = {
      SAKSI_ANCHOR: 'evm',
      SAKSI_ANCHOR_RPC_URL: anvil.rpcUrl,
      SAKSI_ANCHOR_CHAIN_ID: String(anvil.chainId),
      SAKSI_ANCHOR_PRIVATE_KEY: ANVIL_DEFAULT_PRIVATE_KEY,
      SAKSI_ANCHOR_CONTRACT: contract,
      SAKSI_ANCHOR_INTERVAL: '0.1',
      SAKSI_ANCHOR_CONFIRM_TIMEOUT: '1',
    };
    auth = await apiKeyHeader(dataDir);
    server = await startServer(dataDir, env);
  });

  afterAll(async () => {
    await anvil?.stop();
    if (anvil) expect(isAlive(anvil.pid)).toBe(false);
  });

  it.sequential('confirms the stored transaction after a restart once it was mined', async () => {
    const before = await nonce();
    const sent = await uploadUntilSent('first');
    await server.kill();

    await rpc('evm_mine');
    server = await startServer(dataDir, env);
    const anchored = await waitAnchored(sent.id);
    expect(anchored.rounds[0]).toMatchObject({ status: 'CONFIRMED', tx_hash: sent.txHash });
    expect(anchored.document.anchor).toMatchObject({ tx_hash: sent.txHash, batch_root: sent.batchRoot });
    expect(await nonce()).toBe(before + 1);
    expect(await rootCount()).toBe(1n);
    expect(await anchoredEvents(sent.batchRoot)).toEqual([sent.txHash]);
  });

  it.sequential('rebroadcasts the stored bytes (same hash) when the pending transaction was lost', async () => {
    const before = await nonce();
    const sent = await uploadUntilSent('second');
    await server.kill();

    await rpc('anvil_dropTransaction', [sent.txHash]);
    expect(await transaction(sent.txHash)).toBeNull();
    // Blocks go by meanwhile (the base fee falls), so a transaction signed anew would differ in hash.
    await rpc('evm_mine');
    server = await startServer(dataDir, env);
    // The restarted server finds the transaction unknown and sends the same signed bytes again.
    await until('the rebroadcast transaction', () => transaction(sent.txHash).then((tx) => tx ?? undefined));
    await rpc('evm_mine');
    const anchored = await waitAnchored(sent.id);
    expect(anchored.rounds[0]).toMatchObject({ status: 'CONFIRMED', tx_hash: sent.txHash });
    expect(await nonce()).toBe(before + 1);
    expect(await rootCount()).toBe(2n);
    expect(await anchoredEvents(sent.batchRoot)).toEqual([sent.txHash]);

    // Nothing is left to send: a later block carries no second anchoring transaction.
    await sleep(300);
    await rpc('evm_mine');
    expect(await nonce()).toBe(before + 1);
    await server.stop();
  });
});

describe.concurrent('log: killed in the middle of integration', () => {
  const questions = [
    'Apakah menerobos lampu merah melanggar aturan?',
    'Berapa denda tidak memakai helm?',
    'Apa sanksi mengemudi tanpa SIM?',
    'Apa hukuman melanggar rambu lalu lintas?',
  ];
  let dataDir: string;
  let server: Server;
  let auth: Record<string, string>;
  let keys: TrustedKeys;
  const env = { SAKSI_ANCHOR: 'none' };
  /** Every bundle a client received, across all runs. */
  const received: Bundle[] = [];
  /**
   * Questions asked so far, across all runs: each question is made unique with it, so each is answered
   * afresh with its own log entry (a repeated one would come from the answer cache, docs/engine.md).
   */
  let sequence = 0;
  /** The largest checkpoint (signed note) a client saw. */
  let largest: { size: number; root: Uint8Array; note: string } | null = null;

  const checkpointOf = (note: string) => {
    const checkpoint = parseCheckpoint(parseNote(note).text);
    return { size: checkpoint.size, root: checkpoint.rootHash, note };
  };

  async function chat(question: string): Promise<Bundle> {
    const response = await fetch(`${server.url}/api/v1/chat`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ collection: 'lalu-lintas', question }),
    });
    if (response.status !== 200) throw new HttpError(`chat: ${response.status} ${await response.text()}`);
    const bundle = ((await response.json()) as { bundle: Bundle }).bundle;
    received.push(bundle);
    const seen = checkpointOf(bundle.log.checkpoint);
    if (!largest || seen.size > largest.size) largest = seen;
    return bundle;
  }

  /**
   * Up to `total` chats, `concurrency` at a time; SIGKILLs the server `delayMs` after the `killAfter`th
   * answer arrived, while the others are in flight.
   */
  async function chatUntilKilled(run: {
    total: number;
    concurrency: number;
    killAfter: number;
    delayMs: number;
  }) {
    let issued = 0;
    let completed = 0;
    let failed = 0;
    const errors: string[] = [];
    let killing: Promise<void> | undefined;
    let killed = false;
    const worker = async () => {
      while (issued < run.total && !killed) {
        const question = `${questions[issued++ % questions.length]!} (${sequence++})`;
        try {
          await chat(question);
          completed++;
          if (completed === run.killAfter) {
            killing = sleep(run.delayMs).then(() => {
              killed = true;
              return server.kill();
            });
          }
        } catch (error) {
          // The connection died with the server; an HTTP error response is a failure of its own.
          if (error instanceof HttpError) errors.push(error.message);
          else failed++;
        }
      }
    };
    await Promise.all(Array.from({ length: run.concurrency }, worker));
    await killing;
    return { issued, completed, failed, errors };
  }

  /** After a restart: every invariant a client can check against what it received before the crash. */
  async function checkAfterRestart() {
    const current = await getJson<{ size: number; root_hash: string; checkpoint: string }>(
      `${server.url}/api/v1/log/checkpoint`,
    );
    expect(checkpointOf(current.checkpoint)).toMatchObject({ size: current.size });
    for (const bundle of received) expect(current.size).toBeGreaterThanOrEqual(bundle.log.leaf_index + 1);

    // The new checkpoint is consistent with the largest one a client saw before the kill.
    const seen = largest!;
    const consistency = await getJson<{ proof: string[] }>(
      `${server.url}/api/v1/log/proof/consistency?first=${seen.size}&second=${current.size}`,
    );
    expect(
      verifyConsistencyProof(
        seen.size,
        current.size,
        consistency.proof.map((node) => fromHex(node, 32)),
        seen.root,
        fromHex(current.root_hash, 32),
      ),
    ).toBe(true);

    const fetchConsistencyProof = async (first: number, second: number) =>
      (
        await getJson<{ proof: string[] }>(
          `${server.url}/api/v1/log/proof/consistency?first=${first}&second=${second}`,
        )
      ).proof;
    for (const bundle of received) {
      const id = bundle.certificate.certificate_id;
      // The bundle as the client holds it, against the server's newest checkpoint.
      const held = await verifyBundle(bundle, {
        ...trustOptions(keys),
        lastCheckpoint: current.checkpoint,
        fetchConsistencyProof,
        vocabulary: SAKSI_VOCABULARY,
      });
      expect({ id, verdict: held.verdict, codes: held.codes }).toEqual({
        id,
        verdict: 'verified',
        codes: [],
      });
      // The bundle as the restarted server serves it.
      const served = await getJson<Bundle>(`${server.url}/api/v1/certificates/${id}`, auth);
      expect(served.signature).toBe(bundle.signature);
      expect(served.log.leaf_index).toBe(bundle.log.leaf_index);
      const verified = await verifyBundle(served, { ...trustOptions(keys), vocabulary: SAKSI_VOCABULARY });
      expect({ id, verdict: verified.verdict }).toEqual({ id, verdict: 'verified' });
    }

    // The next entry follows the recovered log: no gap, no duplicate.
    const next = await chat(`${questions[0]!} (${sequence++})`);
    expect(next.log.leaf_index).toBe(current.size);
  }

  beforeAll(async () => {
    dataDir = path.join(directory, 'log');
    await cp(templateDirectory(), path.join(dataDir, 'pglite'), { recursive: true });
    auth = await apiKeyHeader(dataDir);
    server = await startServer(dataDir, env);
    const law = await readFile(LAW, 'utf8');
    const start = law.indexOf('\nPasal 285\n');
    const end = law.indexOf('\nPasal 292\n');
    expect(start).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(start);
    await upload(
      server,
      auth,
      'lalu-lintas',
      'uu-22-2009-pidana.md',
      `BAB XX KETENTUAN PIDANA${law.slice(start, end)}\n`,
    );
    keys = parseTrustedKeys(await getJson(`${server.url}/.well-known/saksi-keys.json`));
  });

  it.sequential.each([
    { killAfter: 2, delayMs: 1, total: 40, concurrency: 12 },
    { killAfter: 8, delayMs: 15, total: 40, concurrency: 12 },
    { killAfter: 15, delayMs: 40, total: 40, concurrency: 12 },
  ])(
    'keeps every certificate a client received when killed $delayMs ms after $killAfter answers',
    async (run) => {
      const result = await chatUntilKilled(run);
      expect(result.completed).toBeGreaterThanOrEqual(run.killAfter);
      expect(result.errors).toEqual([]);
      expect(result.failed).toBeGreaterThan(0);
      server = await startServer(dataDir, env);
      await checkAfterRestart();
    },
  );

  it.sequential('leaves a gapless log with no certificate outside it', async () => {
    await server.stop();
    const db = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
    try {
      const entries = await db.query<{ leaf_index: number }>(
        'SELECT leaf_index::integer AS leaf_index FROM log_entries ORDER BY leaf_index',
      );
      const indices = entries.rows.map((row) => row.leaf_index);
      expect(indices).toEqual(Array.from({ length: indices.length }, (_, index) => index));
      expect(indices.length).toBeGreaterThanOrEqual(received.length);
      const orphans = await db.query(
        'SELECT c.id FROM certificates c LEFT JOIN log_entries e ON e.leaf_index = c.leaf_index WHERE e.leaf_index IS NULL',
      );
      expect(orphans.rows).toEqual([]);
      const certificates = await db.query<{ count: number }>(
        'SELECT count(*)::integer AS count FROM certificates',
      );
      expect(certificates.rows[0]?.count).toBe(indices.length);
      const checkpoint = await db.query<{ size: number }>(
        'SELECT max(size)::integer AS size FROM log_checkpoints',
      );
      expect(checkpoint.rows[0]?.size).toBe(indices.length);
      const ids = new Set(
        (await db.query<{ id: string }>('SELECT id FROM certificates')).rows.map((row) => row.id),
      );
      for (const bundle of received) expect(ids.has(bundle.certificate.certificate_id)).toBe(true);
    } finally {
      await db.close();
    }
  });
});
