/**
 * The serverless function (docs/deploy.md) run the way the platform runs it: the repository's
 * `api/index.js`, built packages, in plain `node` processes (test/serverless-platform.mjs), each a
 * cold instance, against a real PostgreSQL and a real chain (anvil with the registry deployed).
 * Nothing may be written to local disk: the instances run in a read-only directory with a
 * read-only home. The PostgreSQL part runs in the CI's PostgreSQL pass (`SAKSI_TEST_DATABASE_URL`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ANVIL_DEFAULT_PRIVATE_KEY,
  type AnvilHandle,
  deployDocumentRegistry,
  startAnvil,
} from '@saksi/contracts';
import { keyEnvironment } from '@saksi/engine';
import { type Bundle, parseTrustedKeys, trustOptions, verifyBundle } from '@saksi/proof';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { bearer, testApiKey } from '@saksi/test-support/api-key';
import { openTestEngine, TEST_DATABASE_URL, type TestEngine } from '@saksi/test-support/engine-fixture';
import type { Json } from '@saksi/test-support/sse-events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRON_PATH } from './fetch-handler.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const entry = path.join(root, 'api', 'index.js');
const platform = path.join(root, 'packages', 'server', 'test', 'serverless-platform.mjs');

interface Instance {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  stop(): Promise<void>;
}

/** A cold instance of the function in its own process, with only `env` (and PATH). */
async function coldInstance(env: Record<string, string>, cwd: string): Promise<Instance> {
  const child = spawn(process.execPath, [platform, entry], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '', HOME: cwd, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (piece: Buffer) => {
    stderr += piece.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (piece: Buffer) => {
      stdout += piece.toString();
      const line = stdout.split('\n').find((text) => text.startsWith('{"url"'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`the platform exited (${code}): ${stderr}`)));
  });
  return {
    url,
    child,
    stderr: () => stderr,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function call(
  instance: Instance,
  method: string,
  url: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; json: Json; headers: Headers }> {
  const init: RequestInit = { method, headers: { ...options.headers } };
  if (options.body instanceof FormData) init.body = options.body;
  else if (options.body !== undefined) {
    init.body = JSON.stringify(options.body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const response = await fetch(`${instance.url}${url}`, init);
  const text = await response.text();
  let json: Json = {};
  try {
    json = JSON.parse(text) as Json;
  } catch {
    json = { text };
  }
  return { status: response.status, json, headers: response.headers };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A directory nothing may be written into: the function's working directory and home. */
async function readOnlyDirectory(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), 'saksi-fn-'));
  await chmod(directory, 0o555);
  return directory;
}

const HELMET = `# Helm

Setiap pengendara sepeda motor wajib mengenakan helm yang berstandar nasional Indonesia.

Pengendara yang tidak mengenakan helm dipidana dengan pidana kurungan paling lama 1 (satu) bulan atau denda paling banyak Rp250.000,00 (dua ratus lima puluh ribu rupiah).
`;

describe('the serverless function, configured wrong', () => {
  it('answers 503 CONFIG_INVALID naming the missing variable, with no stack trace and no file written', async () => {
    const cwd = await readOnlyDirectory();
    const instance = await coldInstance({ LOG_LEVEL: 'silent' }, cwd);
    try {
      const response = await call(instance, 'GET', '/api/v1/health');
      expect(response.status).toBe(503);
      expect(response.json['error'].code).toBe('CONFIG_INVALID');
      expect(response.json['error'].message).toContain('DATABASE_URL');
      expect(JSON.stringify(response.json)).not.toMatch(/\bat \S+ \(|node_modules|\.ts:\d/);
      // Keys but no database, and a local chain: each refused with its own variable.
      const keyed = await coldInstance(
        {
          LOG_LEVEL: 'silent',
          DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
          SAKSI_ANCHOR: 'local',
          SAKSI_ISSUER_KEY: 'AAAA',
          SAKSI_LOG_KEY: 'PRIVATE+KEY+x',
        },
        cwd,
      );
      const local = await call(keyed, 'GET', '/api/v1/health');
      await keyed.stop();
      expect(local.status).toBe(503);
      expect(local.json['error'].message).toContain('SAKSI_ANCHOR=local');
      // A cron secret anyone could guess: refused before anything else is tried.
      const guessable = await coldInstance({ LOG_LEVEL: 'silent', CRON_SECRET: 'x' }, cwd);
      const cron = await call(guessable, 'GET', '/api/cron', { headers: { authorization: 'Bearer x' } });
      await guessable.stop();
      expect(cron.status).toBe(503);
      expect(cron.json['error'].message).toContain('CRON_SECRET');
    } finally {
      await instance.stop();
      expect(await readdir(cwd)).toEqual([]);
      await chmod(cwd, 0o755);
      await rm(cwd, { recursive: true, force: true });
    }
  }, 30_000);
});

describe.skipIf(!TEST_DATABASE_URL)('the serverless function on PostgreSQL and a chain', () => {
  let test: TestEngine;
  let anvil: AnvilHandle;
  let cwd: string;
  let env: Record<string, string>;
  let first: Instance;
  let second: Instance;
  let key: string;
  const CRON_SECRET = 'cron-secret-for-the-test-0123456789';

  beforeAll(async () => {
    anvil = await startAnvil();
    const deployed = await deployDocumentRegistry({
      rpcUrl: anvil.rpcUrl,
      privateKey: ANVIL_DEFAULT_PRIVATE_KEY,
      chainId: anvil.chainId,
    });
    // The test's own engine migrates the database and makes the keys and an API key.
    test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
    key = await testApiKey(test.engine);
    env = {
      DATABASE_URL: test.engine.config.databaseUrl!,
      ...(await keyEnvironment(test.engine.config.keysDir)),
      SAKSI_ANCHOR: 'evm',
      SAKSI_ANCHOR_RPC_URL: anvil.rpcUrl,
      SAKSI_ANCHOR_CHAIN_ID: String(anvil.chainId),
      SAKSI_ANCHOR_PRIVATE_KEY: ANVIL_DEFAULT_PRIVATE_KEY,
      SAKSI_ANCHOR_CONTRACT: deployed.address,
      CRON_SECRET,
      LOG_LEVEL: 'warn',
    };
    cwd = await readOnlyDirectory();
    [first, second] = await Promise.all([coldInstance(env, cwd), coldInstance(env, cwd)]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await test?.close();
    await anvil?.stop();
    if (cwd) {
      await chmod(cwd, 0o755);
      await rm(cwd, { recursive: true, force: true });
    }
  });

  it('reports the database, the chain and the signer in health', async () => {
    const health = await call(first, 'GET', '/api/v1/health');
    expect(health.status, JSON.stringify(health.json)).toBe(200);
    expect(health.json['database']).toMatchObject({ kind: 'postgres', ok: true });
    expect(health.json['chain']).toMatchObject({ provider: 'evm', state: 'reachable' });
    expect(health.json['anchor']).toMatchObject({ chain_id: anvil.chainId, running: true });
    expect(health.json['log']['signer']['loaded']).toBe(true);
  });

  it('ingests an upload after answering 202, answers on another instance, and anchors from cron', async () => {
    const created = await call(first, 'POST', '/api/v1/collections', {
      headers: bearer(key),
      // The answer check was not calibrated on this collection: released at the highest risk it may
      // accept, so the answer below is confirmed on the other instance.
      body: { name: 'fungsi', language: 'id', answer_risk: 0.5 },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const form = new FormData();
    form.set('file', new File([HELMET], 'helm.md', { type: 'text/markdown' }));
    form.set('collection', 'fungsi');
    const upload = await call(first, 'POST', '/api/v1/documents', { headers: bearer(key), body: form });
    expect(upload.status, JSON.stringify(upload.json)).toBe(202);
    const documentId = upload.json['document']['id'] as string;

    // No worker process exists: the instance works the job after its response (waitUntil).
    const ready = await until('the document to be READY', async () => {
      const document = await call(second, 'GET', `/api/v1/documents/${documentId}`, { headers: bearer(key) });
      return document.json['status'] === 'READY' || document.json['status'] === 'FAILED'
        ? document.json
        : undefined;
    });
    expect(ready['status'], first.stderr()).toBe('READY');

    // Asked on the other cold instance: the same database, the same keys.
    const asked = await call(second, 'POST', '/api/v1/chat', {
      headers: bearer(key),
      body: { collection: 'fungsi', question: 'Berapa denda tidak memakai helm?' },
    });
    expect(asked.status, JSON.stringify(asked.json)).toBe(200);
    expect(asked.json['found']).toBe(true);
    expect(asked.json['answer']).toContain('Rp250.000,00');
    const keys = await call(first, 'GET', '/.well-known/saksi-keys.json');
    const trusted = parseTrustedKeys(keys.json);
    const verification = await verifyBundle(asked.json['bundle'] as Bundle, {
      ...trustOptions(trusted),
      vocabulary: SAKSI_VOCABULARY,
    });
    expect(verification.verdict, JSON.stringify(verification)).toBe('verified');

    // Streamed (SSE) through the platform: the events arrive in order, the bundle last.
    const streamed = await fetch(`${second.url}/api/v1/chat`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ collection: 'fungsi', question: 'Apakah pengendara motor wajib memakai helm?' }),
    });
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    const events = [...(await streamed.text()).matchAll(/^event: (\S+)$/gm)].map((match) => match[1]);
    expect(events[0]).toBe('session');
    expect(events).toContain('delta');
    expect(events.at(-1)).toBe('done');

    // The conversation continues on the first instance (sessions live in the database).
    const followUp = await call(first, 'POST', '/api/v1/chat', {
      headers: bearer(key),
      body: { collection: 'fungsi', question: 'Kalau kurungannya?', session_id: asked.json['session_id'] },
    });
    expect(followUp.status, JSON.stringify(followUp.json)).toBe(200);
    expect(followUp.json['session_id']).toBe(asked.json['session_id']);

    // Cron: refused without the secret; with it, the document's root goes on chain.
    expect((await call(first, 'GET', '/api/cron')).status).toBe(401);
    const cron = await call(first, 'GET', '/api/cron', {
      headers: { authorization: `Bearer ${CRON_SECRET}` },
    });
    expect(cron.status, JSON.stringify(cron.json)).toBe(200);
    expect(cron.json['anchoring'][0]?.['status']).toBe('CONFIRMED');
    const anchored = await call(second, 'GET', `/api/v1/documents/${documentId}`, { headers: bearer(key) });
    expect(
      anchored.json['anchor_state'] ?? anchored.json['anchor']?.['state'],
      JSON.stringify(anchored.json),
    ).toBe('ANCHORED');

    // Nothing was written to local disk by either instance.
    expect(await readdir(cwd)).toEqual([]);
  }, 120_000);

  it('sends its spans to the OTLP endpoint before the instance may be frozen (waitUntil)', async () => {
    const received: string[] = [];
    const collector = createServer((request, response) => {
      let body = '';
      request.on('data', (piece: Buffer) => {
        body += piece.toString();
      });
      request.on('end', () => {
        received.push(`${request.url} ${body}`);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const { port } = collector.address() as AddressInfo;
    const traced = await coldInstance(
      { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, PLATFORM_FREEZE: '1' },
      cwd,
    );
    const pid = traced.child.pid!;
    const state = () => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    try {
      expect((await call(traced, 'GET', '/api/v1/health')).status).toBe(200);
      // Frozen once the response is out and waitUntil's promises settled: the span left before.
      await until('the instance to be frozen', async () => (state() === 'T' ? true : undefined), 20_000);
      expect(
        received.some((text) => text.startsWith('/v1/traces ') && text.includes('GET /api/v1/health')),
      ).toBe(true);
    } finally {
      traced.child.kill('SIGCONT');
      await traced.stop();
      collector.close();
    }
  }, 60_000);

  it('tells clients apart by the address the platform forwards, not one the client forged', async () => {
    const metrics = await call(first, 'GET', '/metrics', { headers: { 'x-forwarded-for': '127.0.0.1' } });
    // The platform's proxy is the peer: /metrics is not open to it as to a loopback client.
    expect([401, 403]).toContain(metrics.status);
  });
});

describe('vercel.json', () => {
  it('routes the API, the keys and /metrics to the function, its cron to the cron route, the rest to the web app', async () => {
    const { readFile } = await import('node:fs/promises');
    const config = JSON.parse(await readFile(path.join(root, 'vercel.json'), 'utf8')) as {
      functions: Record<string, unknown>;
      rewrites: { source: string; destination: string }[];
      crons: { path: string }[];
      outputDirectory: string;
    };
    expect(Object.keys(config.functions)).toEqual(['api/index.js']);
    const destination = (pathname: string) =>
      config.rewrites.find(({ source }) => {
        const pattern = source.replace(/:path\*/, '.*').replace(/\(\.\*\)/, '.*');
        return new RegExp(`^${pattern}$`).test(pathname);
      })?.destination;
    for (const pathname of ['/api/v1/chat', '/api/cron', '/.well-known/saksi-keys.json', '/metrics'])
      expect(destination(pathname), pathname).toBe('/api/index');
    expect(destination('/admin/usage')).toBe('/index.html');
    expect(config.crons.map((cron) => cron.path)).toEqual([CRON_PATH]);
    expect(config.outputDirectory).toBe('packages/web/dist');
  });
});
