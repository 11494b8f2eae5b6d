import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type Bundle,
  createCosignatureVerifier,
  logLeafInput,
  openNote,
  parseCheckpoint,
  parseNote,
  parseTrustedKeys,
  type TrustedKeys,
  toHex,
  trustOptions,
  utf8Encode,
  type VerifyBundleOptions,
  verifyBundle,
} from '@saksi/proof';
import {
  cosignatureLine,
  createCosigner,
  createNoteSigner,
  formatCosignatureVerifierKey,
  formatVerifierKey,
  generateKeyPair,
  MemoryLog,
  type NoteSigner,
  parseSignerKey,
} from '@saksi/proof/issue';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { type RunningServer, startServer } from '@saksi/server';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const bin = path.join(repoRoot, 'packages/cli/bin/saksi.js');
const compose = new Uint8Array(
  readFileSync(path.resolve(repoRoot, '../shared/data/corpora/docs-redux/docs/api/compose.md')),
);

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-cli-witness-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const run = (argv: string[]) => runCli(argv, { cwd: directory, env: {} });
const mode = (file: string) => statSync(path.join(directory, file)).mode & 0o777;
const read = (file: string) => readFileSync(path.join(directory, file), 'utf8');
// biome-ignore lint/suspicious/noExplicitAny: --json output is inspected field by field
const jsonOf = (stdout: string): any => JSON.parse(stdout);

/** `saksi witness keygen`; returns the printed cosignature vkey. */
async function keygen(name: string, file: string): Promise<string> {
  const result = await run(['witness', 'keygen', '--name', name, '--out', file, '--json']);
  expect(result.code, result.stderr).toBe(0);
  return jsonOf(result.stdout).vkey as string;
}

/**
 * A small misbehaving log over real HTTP: it serves whichever tree (and size) the test chooses —
 * honest, forked or rolled back — signed with its log key, with RFC 9162 consistency proofs from that
 * tree, and stores the cosignatures witnesses send it.
 */
class FakeLog {
  readonly origin = 'fake.test/log';
  private readonly key = generateKeyPair();
  readonly vkey = formatVerifierKey(this.origin, this.key.publicKey);
  signer: NoteSigner = createNoteSigner(this.origin, this.key.secretKey);
  tree!: MemoryLog;
  size = 0;
  readonly received: { size: number; cosignature: string }[] = [];
  keyRequests = 0;
  private server!: Server;
  url = '';

  serve(tree: MemoryLog, size: number): string {
    this.tree = tree;
    this.size = size;
    return this.note();
  }

  note(): string {
    return this.tree.signedCheckpoint(this.signer, this.size);
  }

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://fake.test');
      const reply = (status: number, body: string, type = 'application/json') => {
        response.writeHead(status, { 'content-type': type });
        response.end(body);
      };
      if (request.method === 'GET' && url.pathname === '/api/v1/log/checkpoint.txt') {
        const note = this.note();
        const text = parseNote(note).text;
        // Cosignatures received for exactly this checkpoint text are served with it, as Saksi does.
        const lines = this.received
          .map((entry) => entry.cosignature)
          .filter((line) => {
            try {
              return parseNote(`${text}\n${line}\n`).signatures.length === 1 && isOver(text, line);
            } catch {
              return false;
            }
          });
        return reply(200, note + lines.map((line) => `${line}\n`).join(''), 'text/plain');
      }
      if (request.method === 'GET' && url.pathname === '/api/v1/log/proof/consistency') {
        const first = Number(url.searchParams.get('first'));
        const second = Number(url.searchParams.get('second'));
        if (!(first >= 1 && first <= second && second <= this.size)) {
          return reply(400, JSON.stringify({ error: { code: 'INVALID_INPUT', message: 'bad sizes' } }));
        }
        const proof = this.tree.consistencyProof(first, second).map(toHex);
        return reply(200, JSON.stringify({ first, second, proof }));
      }
      if (request.method === 'GET' && url.pathname === '/.well-known/saksi-keys.json') {
        this.keyRequests++;
        return reply(200, JSON.stringify({ issuers: [], logs: [{ origin: this.origin, vkey: this.vkey }] }));
      }
      if (request.method === 'POST' && url.pathname === '/api/v1/log/cosignatures') {
        let body = '';
        request.setEncoding('utf8');
        request.on('data', (chunk: string) => (body += chunk));
        request.on('end', () => {
          const parsed = JSON.parse(body) as { size: number; cosignature: string };
          this.received.push(parsed);
          reply(200, JSON.stringify({ size: parsed.size, cosignatures: [parsed.cosignature] }));
        });
        return;
      }
      reply(404, JSON.stringify({ error: { code: 'NOT_FOUND', message: 'no route' } }));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** True when `line` is a cosignature over `text` by the witness it names (any of the test witnesses). */
const witnessKeys: string[] = [];
function isOver(text: string, line: string): boolean {
  const verifiers = witnessKeys.map((vkey) => createCosignatureVerifier(vkey));
  return openNote(`${text}\n${line}\n`, verifiers).verified.length === 1;
}

function tree(prefix: string, count: number, shared = 0): MemoryLog {
  const log = new MemoryLog('fake.test/log');
  for (let index = 0; index < count; index++) {
    log.append(utf8Encode(index < shared ? `entry ${index}` : `${prefix} ${index}`));
  }
  return log;
}

describe('saksi witness against a log that forks and rolls back', () => {
  const fake = new FakeLog();
  const honest = tree('entry', 8, 8);
  const forked = tree('forked', 8, 3); // the same first 3 entries, then different ones
  let once: (extra?: string[]) => ReturnType<typeof run>;

  beforeAll(async () => {
    await fake.start();
    witnessKeys.push(await keygen('witness.test/w1', 'w1.key'));
    once = (extra = []) =>
      run(['witness', '--log', fake.url, '--key', 'w1.key', '--log-key', fake.vkey, '--once', ...extra]);
  });

  afterAll(async () => {
    await fake.stop();
  });

  it('keygen writes a 0600 signer key and prints its cosignature vkey; it will not overwrite it', async () => {
    expect(mode('w1.key')).toBe(0o600);
    const key = parseSignerKey(read('w1.key').trim());
    expect(witnessKeys[0]).toBe(formatCosignatureVerifierKey('witness.test/w1', key.publicKey));
    const again = await run(['witness', 'keygen', '--name', 'witness.test/w1', '--out', 'w1.key']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('refusing to overwrite');
    expect((await run(['witness', 'keygen', '--name', 'bad name', '--out', 'x.key'])).code).toBe(2);
  });

  it('cosigns the first checkpoint, then only what is consistent with it, and keeps its state', async () => {
    fake.serve(honest, 3);
    const first = await once(['--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(jsonOf(first.stdout)).toMatchObject({
      status: 'cosigned',
      checkpoint: { size: 3 },
      previous_size: null,
    });
    expect(fake.received).toHaveLength(1);
    expect(isOver(parseNote(fake.note()).text, fake.received[0]!.cosignature)).toBe(true);
    expect(mode('w1.key.state.json')).toBe(0o600);

    const unchanged = read('w1.key.state.json');
    const second = await once(['--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(jsonOf(second.stdout)).toMatchObject({ status: 'unchanged', resubmitted: false });
    expect(read('w1.key.state.json')).toBe(unchanged);
    expect(fake.received).toHaveLength(1);

    fake.serve(honest, 5);
    const grown = await once();
    expect(grown.code, grown.stderr).toBe(0);
    expect(grown.stdout).toContain('cosigned fake.test/log size 5');
    expect(grown.stdout).toContain('consistent with size 3');
    expect(fake.received.map((entry) => entry.size)).toEqual([3, 5]);
    expect(JSON.parse(read('w1.key.state.json'))).toMatchObject({
      size: 5,
      root_hash: toHex(honest.root(5)),
    });
  });

  it('refuses a fork (same size, other root), a rollback and an inconsistent larger tree; state unchanged', async () => {
    const before = read('w1.key.state.json');
    const cases: [MemoryLog, number, string, RegExp][] = [
      [forked, 5, 'FORK', /REFUSED \(FORK\): the log serves a different root for size 5/],
      [
        honest,
        4,
        'ROLLBACK',
        /REFUSED \(ROLLBACK\): the log now serves a tree of 4 entries, smaller than the 5/,
      ],
      [forked, 7, 'INCONSISTENT', /does not extend the tree of size 5/],
    ];
    for (const [served, size, reason, message] of cases) {
      fake.serve(served, size);
      const result = await once();
      expect(result.code, `${reason}: ${result.stderr}`).toBe(3);
      expect(result.stderr).toContain(`REFUSED (${reason})`);
      expect(result.stderr).toMatch(message);
      // Both checkpoints are in the report.
      expect(result.stderr).toContain(`last cosigned:  fake.test/log size 5 root ${toHex(honest.root(5))}`);
      expect(result.stderr).toContain(
        `now served:     fake.test/log size ${size} root ${toHex(served.root(size))}`,
      );
      expect(result.stdout).toBe('');
      expect(read('w1.key.state.json')).toBe(before);
    }
    expect(fake.received.map((entry) => entry.size)).toEqual([3, 5]);

    // A checkpoint that is not signed by the pinned log key is refused too.
    const honestSigner = fake.signer;
    fake.signer = createNoteSigner(fake.origin, generateKeyPair().secretKey);
    fake.serve(honest, 6);
    const forged = await once(['--json']);
    fake.signer = honestSigner;
    expect(forged.code).toBe(3);
    expect(jsonOf(forged.stdout)).toMatchObject({ status: 'refused', reason: 'SIGNATURE_INVALID' });
    expect(read('w1.key.state.json')).toBe(before);

    // The honest log moving on is cosigned again.
    fake.serve(honest, 7);
    const recovered = await once();
    expect(recovered.code, recovered.stderr).toBe(0);
    expect(fake.received.map((entry) => entry.size)).toEqual([3, 5, 7]);
  });

  it('keeps polling and keeps refusing a fork until stopped (compiled CLI), exiting 3', async () => {
    fake.serve(forked, 7);
    const before = read('w1.key.state.json');
    const child: ChildProcess = spawn(
      process.execPath,
      [bin, 'witness', '--log', fake.url, '--key', 'w1.key', '--log-key', fake.vkey, '--interval', '1'],
      { cwd: directory, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 20_000;
      while ((stderr.match(/REFUSED \(FORK\)/g) ?? []).length < 2) {
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`no second refusal:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      child.kill('SIGTERM');
      expect(await exited).toBe(3);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    expect(read('w1.key.state.json')).toBe(before);
    expect(fake.received.map((entry) => entry.size)).toEqual([3, 5, 7]);
  });

  it('exits 1 when the log cannot be reached, and 2 for bad usage', async () => {
    const unreachable = await run(['witness', '--log', 'http://127.0.0.1:1', '--key', 'w1.key', '--once']);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('cannot reach http://127.0.0.1:1/api/v1/log/checkpoint.txt');
    expect((await run(['witness', '--key', 'w1.key', '--once'])).code).toBe(2);
    expect((await run(['witness', '--log', 'ftp://x', '--key', 'w1.key', '--once'])).code).toBe(2);
    expect((await run(['witness', '--log', fake.url, '--key', 'missing.key', '--once'])).code).toBe(2);
  });

  it('pins the published log key on first use when none is given, then uses the pinned one', async () => {
    witnessKeys.push(await keygen('witness.test/w2', 'w2.key'));
    fake.serve(honest, 7);
    const args = ['witness', '--log', fake.url, '--key', 'w2.key', '--state', 'w2.json', '--once'];
    const first = await run(args);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('trusting the key the log publishes, on first use');
    expect(first.stderr).toContain(fake.vkey);
    expect(JSON.parse(read('w2.json')).log).toMatchObject({ vkey: fake.vkey, pinned: 'trust-on-first-use' });
    expect(fake.keyRequests).toBe(1);

    fake.serve(honest, 8);
    const second = await run(args);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toBe('');
    expect(fake.keyRequests).toBe(1);

    // A state pinned to this log cannot be reused with another log key.
    const other = formatVerifierKey(fake.origin, generateKeyPair().publicKey);
    const mismatch = await run([...args, '--log-key', other]);
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr).toContain('not the log key given');
  });
});

describe('saksi witness against a real Saksi server', () => {
  let test: TestEngine;
  let server: RunningServer;
  let externalVkey: string;
  let trusted: TrustedKeys;
  const asked: Bundle[] = [];
  const stranger = formatCosignatureVerifierKey('witness.test/stranger', generateKeyPair().publicKey);
  const keysDir = () => path.join(directory, 'server-keys');

  async function ask(question: string): Promise<Bundle> {
    const result = await test.engine.ask('docs', { question });
    asked.push(result.bundle);
    return result.bundle;
  }

  async function get(route: string): Promise<Response> {
    return fetch(`${server.url}${route}`);
  }

  async function post(body: unknown, raw?: string): Promise<{ status: number; code: string | undefined }> {
    const response = await fetch(`${server.url}/api/v1/log/cosignatures`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: raw ?? JSON.stringify(body),
    });
    const json = (await response.json()) as { error?: { code: string } };
    return { status: response.status, code: json.error?.code };
  }

  const witnessOnce = () =>
    run([
      'witness',
      '--log',
      server.url,
      '--key',
      'external.key',
      '--trust',
      'server-keys/saksi-keys.json',
      '--once',
      '--json',
    ]);

  beforeAll(async () => {
    expect((await run(['keys', 'generate', '--out', 'server-keys'])).code).toBe(0);
    externalVkey = await keygen('witness.test/external', 'external.key');
    witnessKeys.push(externalVkey);
    const added = await run(['keys', 'add-witness', externalVkey, '--out', 'server-keys', '--required', '2']);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('added witness witness.test/external');
    expect(added.stdout).toContain('Restart the server');
    test = await openTestEngine({ env: { SAKSI_KEYS_DIR: keysDir() } });
    await test.engine.ingest('docs', { bytes: compose, filename: 'compose.md' }, { language: 'en' });
    // Certificates of a public collection are served without an API key.
    await test.engine.collections.configure('docs', { public: true });
    await ask('What does compose do?');
    await ask('What does compose return?');
    server = await startServer(test.engine, { port: 0, host: '127.0.0.1' });
    trusted = parseTrustedKeys(await (await get('/.well-known/saksi-keys.json')).json());
  });

  afterAll(async () => {
    await server?.close();
    await test?.close();
  });

  it('keys add-witness trusts the witness (the server publishes it) and checks what it is given', async () => {
    expect(trusted.witnesses?.map((witness) => witness.vkey)).toEqual([
      test.engine.trustedKeys().witnesses![0]!.vkey,
      externalVkey,
    ]);
    expect(trusted.required_cosignatures).toBe(2);
    expect(mode('server-keys/saksi-keys.json')).toBe(0o644);
    const again = await run(['keys', 'add-witness', externalVkey, '--out', 'server-keys']);
    expect(again.stdout).toContain('already trusted');
    const rotated = formatCosignatureVerifierKey('witness.test/external', generateKeyPair().publicKey);
    const clash = await run(['keys', 'add-witness', rotated, '--out', 'server-keys']);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain('already trusts a witness named witness.test/external');
    expect((await run(['keys', 'add-witness', trusted.logs[0]!.vkey, '--out', 'server-keys'])).code).toBe(2);
    expect(
      (await run(['keys', 'add-witness', stranger, '--out', 'server-keys', '--required', '9'])).code,
    ).toBe(2);
    expect(parseTrustedKeys(read('server-keys/saksi-keys.json'))).toEqual(trusted);
  });

  it('cosigns the checkpoint, the server stores it, and later bundles carry it', async () => {
    const result = await witnessOnce();
    expect(result.code, result.stderr).toBe(0);
    expect(jsonOf(result.stdout)).toMatchObject({
      status: 'cosigned',
      checkpoint: { origin: 'saksi.local/log', size: 2 },
    });
    const served = await (await get('/api/v1/log/checkpoint.txt')).text();
    expect(served).toContain('— witness.test/external ');

    const response = await get(`/api/v1/certificates/${asked[0]!.certificate.certificate_id}`);
    const bundle = (await response.json()) as Bundle;
    expect(parseCheckpoint(parseNote(bundle.log.checkpoint).text).size).toBe(2);
    expect(bundle.log.cosignatures).toHaveLength(2);
    const options = trustOptions(trusted);
    expect(options.requiredCosignatures).toBe(2);
    expect((await verifyBundle(bundle, { ...options, vocabulary: SAKSI_VOCABULARY })).codes).toEqual([]);
    const withStranger = { ...options, witnesses: [options.witnesses![0]!, stranger] };
    expect((await verifyBundle(bundle, { ...withStranger, vocabulary: SAKSI_VOCABULARY })).codes).toEqual([
      'COSIGNATURES_MISSING',
    ]);
    // The bundle handed out when the question was asked had only the server's own witness.
    expect((await verifyBundle(asked[0]!, { ...options, vocabulary: SAKSI_VOCABULARY })).codes).toEqual([
      'COSIGNATURES_MISSING',
    ]);

    await writeFile(path.join(directory, 'cosigned.json'), JSON.stringify(bundle));
    await writeFile(path.join(directory, 'asked.json'), JSON.stringify(asked[0]));
  });

  it('finds nothing new on a second run (state persisted), and cosigns again once the log grows', async () => {
    const state = read('external.key.state.json');
    const second = await witnessOnce();
    expect(second.code, second.stderr).toBe(0);
    expect(jsonOf(second.stdout)).toMatchObject({ status: 'unchanged', resubmitted: false });
    expect(read('external.key.state.json')).toBe(state);

    await ask('Is compose a store enhancer?');
    const grown = await witnessOnce();
    expect(grown.code, grown.stderr).toBe(0);
    expect(jsonOf(grown.stdout)).toMatchObject({
      status: 'cosigned',
      checkpoint: { size: 3 },
      previous_size: 2,
    });
  });

  it('saksi verify --cosignatures 2 passes with both cosignatures and fails with one', async () => {
    const verify = (file: string, ...extra: string[]) =>
      run(['verify', file, '--trust', 'server-keys/saksi-keys.json', ...extra]);
    const both = await verify('cosigned.json', '--cosignatures', '2');
    expect(both.code, both.stdout).toBe(0);
    expect(both.stdout).toContain('Cosigned by 2 trusted witnesses');
    const one = await verify('asked.json', '--cosignatures', '2');
    expect(one.code).toBe(1);
    expect(one.stdout).toContain('COSIGNATURES_MISSING');
    expect((await verify('asked.json', '--cosignatures', '1')).code).toBe(0);
    expect((await verify('asked.json', '--require-cosignatures', '1')).code).toBe(0);
    expect((await verify('asked.json', '--cosignatures', '1', '--require-cosignatures', '2')).code).toBe(2);
  });

  it('POST /log/cosignatures rejects bad lines, unknown witnesses and unknown sizes with their codes', async () => {
    const note = await (await get('/api/v1/log/checkpoint.txt')).text();
    const text = parseNote(note).text;
    const size = parseCheckpoint(text).size;
    const external = parseSignerKey(read('external.key').trim());
    const good = cosignatureLine(text, createCosigner(external.name, external.secretKey));
    const strangerLine = cosignatureLine(
      text,
      createCosigner('witness.test/stranger', generateKeyPair().secretKey),
    );
    const otherText = parseNote(asked[0]!.log.checkpoint).text; // size 1
    const overOther = cosignatureLine(otherText, createCosigner(external.name, external.secretKey));

    expect(await post(undefined, '{"size": 1,')).toEqual({ status: 400, code: 'INVALID_JSON' });
    expect(await post({ size: 'two', cosignature: good })).toEqual({ status: 400, code: 'INVALID_INPUT' });
    expect(await post({ size, cosignature: `${good}\n${good}` })).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
    });
    expect(await post({ size, cosignature: 'not a cosignature' })).toEqual({
      status: 400,
      code: 'COSIGNATURE_INVALID',
    });
    expect(await post({ size, cosignature: overOther })).toEqual({
      status: 400,
      code: 'COSIGNATURE_INVALID',
    });
    expect(await post({ size, cosignature: strangerLine })).toEqual({ status: 403, code: 'WITNESS_UNKNOWN' });
    expect(await post({ size: 99, cosignature: good })).toEqual({ status: 404, code: 'NOT_FOUND' });
    const accepted = await fetch(`${server.url}/api/v1/log/cosignatures`, {
      method: 'POST',
      body: JSON.stringify({ size, cosignature: good }),
    });
    expect(accepted.status).toBe(200);
    expect(((await accepted.json()) as { cosignatures: string[] }).cosignatures).toContain(good);

    const openapi = (await (await get('/api/v1/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(openapi.paths)).toContain('/api/v1/log/cosignatures');
  });

  it('verifyBundle flags a fork of a checkpoint already seen, and a smaller one without a consistency proof', async () => {
    // The log key itself signs a second view of size 2 in which the certificate sits at the same index.
    const logKey = parseSignerKey(read('server-keys/log.key').trim());
    const localWitness = parseSignerKey(read('server-keys/witness.key').trim());
    const original = asked[0]!;
    const other = new MemoryLog(logKey.name);
    other.append(logLeafInput(original.certificate, original.signature));
    other.append(utf8Encode('{"hidden":"entry"}'));
    const forkNote = other.signedCheckpoint(createNoteSigner(logKey.name, logKey.secretKey));
    const fork: Bundle = {
      ...original,
      log: {
        ...original.log,
        leaf_index: 0,
        inclusion_proof: other.inclusionProof(0).map(toHex),
        checkpoint: forkNote,
        cosignatures: [
          cosignatureLine(
            parseNote(forkNote).text,
            createCosigner(localWitness.name, localWitness.secretKey),
          ),
        ],
      },
    };
    // The checkpoint of size 2 the witness cosigned (from the bundle fetched after it did).
    const seenAtTwo = (JSON.parse(read('cosigned.json')) as Bundle).log.checkpoint;
    expect(parseCheckpoint(parseNote(seenAtTwo).text).size).toBe(2);
    const options: VerifyBundleOptions = {
      ...trustOptions(trusted),
      requiredCosignatures: 1,
      vocabulary: SAKSI_VOCABULARY,
    };
    expect((await verifyBundle(fork, options)).codes).toEqual([]); // on its own the fork looks fine
    expect((await verifyBundle(fork, { ...options, lastCheckpoint: seenAtTwo })).codes).toEqual([
      'CHECKPOINT_INCONSISTENT',
    ]);

    // A checkpoint smaller than the last one seen needs a consistency proof.
    const latest = (await (await get('/api/v1/log/checkpoint')).json()) as {
      checkpoint: string;
      size: number;
    };
    expect(latest.size).toBe(3);
    const withLatest = { ...options, lastCheckpoint: latest.checkpoint };
    expect((await verifyBundle(original, withLatest)).codes).toEqual(['CHECKPOINT_INCONSISTENT']);
    const fetchConsistencyProof = async (first: number, second: number) => {
      const response = await get(`/api/v1/log/proof/consistency?first=${first}&second=${second}`);
      return ((await response.json()) as { proof: string[] }).proof;
    };
    expect((await verifyBundle(original, { ...withLatest, fetchConsistencyProof })).codes).toEqual([]);
    expect((await verifyBundle(fork, { ...withLatest, fetchConsistencyProof })).codes).toEqual([
      'CHECKPOINT_INCONSISTENT',
    ]);
  });
});
