/**
 * `GET /api/v1/health` (docs/api.md, "Meta") on real engines: the database and log signer; anchoring
 * off (`none`); and an `evm` chain whose RPC (a real HTTP endpoint on 127.0.0.1) does not answer —
 * degraded, fast, with no URL or secret in the reply, and one RPC request however many polls arrive.
 * The local chain (anvil) is covered in routes/anchors.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { utf8Encode } from '@saksi/proof';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';

const opened: TestEngine[] = [];
let rpc: Server;
let rpcPort: number;
let rpcRequests = 0;

beforeAll(async () => {
  // An RPC endpoint that takes every request and never answers.
  rpc = createServer(() => {
    rpcRequests++;
  });
  await new Promise<void>((resolve) => rpc.listen(0, '127.0.0.1', resolve));
  rpcPort = (rpc.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const test of opened) await test.close();
  rpc.closeAllConnections();
  await new Promise((resolve) => rpc.close(resolve));
});

async function open(env: Record<string, string>) {
  const test = await openTestEngine({ env });
  opened.push(test);
  return { test, app: createApp(test.engine) };
}

describe('GET /api/v1/health', () => {
  it('with anchoring off: the database, the log signer, the chain as none and no lag', async () => {
    const { test, app } = await open({ SAKSI_ANCHOR: 'none' });
    await test.engine.ingest('helm', {
      bytes: utf8Encode('# Helm\n\nPengendara sepeda motor wajib memakai helm.\n'),
      filename: 'helm.md',
    });
    const health = await (await app.request('/api/v1/health')).json();
    const kind = test.engine.db.kind;
    expect(health).toMatchObject({
      status: 'ok',
      database: { kind, ok: true, name: kind === 'pglite' ? 'PGlite' : 'PostgreSQL' },
      log: { origin: test.engine.log.origin, size: 0, signer: { loaded: true } },
      anchor: { provider: 'none', running: false, chain_id: null, contract: null },
      chain: { provider: 'none', state: 'none', block_number: null, checked_at: null, error: null },
      anchoring: { waiting: 1, oldest_waiting_since: null, lag_seconds: null },
    });
    expect(health.database.latency_ms).toBeGreaterThanOrEqual(0);
    // The key id is the one in the log's published verifier key (`<origin>+<key id>+<key>`).
    const keys = await (await app.request('/.well-known/saksi-keys.json')).json();
    expect(keys.logs[0].vkey.split('+')[1]).toBe(health.log.signer.key_id);
    expect(health.log.signer.key_id).toMatch(/^[0-9a-f]{8}$/);
  });

  it('with an evm chain whose RPC does not answer: degraded within the timeout, no URL, one probe per period', async () => {
    const { app } = await open({
      SAKSI_ANCHOR: 'evm',
      SAKSI_ANCHOR_RPC_URL: `http://user:hunter2@127.0.0.1:${rpcPort}/v3/secret-project-key`,
      SAKSI_ANCHOR_CHAIN_ID: '31337',
      SAKSI_ANCHOR_PRIVATE_KEY: `0x${'11'.repeat(32)}`,
      SAKSI_ANCHOR_CONTRACT: `0x${'22'.repeat(20)}`,
    });
    const started = Date.now();
    const response = await app.request('/api/v1/health');
    expect(Date.now() - started).toBeLessThan(5_000);
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).not.toMatch(/hunter2|secret-project-key|user:|127\.0\.0\.1/);
    const health = JSON.parse(text);
    expect(health.status).toBe('degraded');
    expect(health.chain).toMatchObject({ provider: 'evm', state: 'unreachable', error: 'TIMEOUT' });
    expect(health.anchor).toMatchObject({ provider: 'evm', running: false });
    // A flood of polls within the cache period reuses the probe: no new request reaches the RPC.
    const before = rpcRequests;
    expect(before).toBe(1);
    const polls = await Promise.all(Array.from({ length: 100 }, () => app.request('/api/v1/health')));
    expect(polls.every((poll) => poll.status === 200)).toBe(true);
    expect(rpcRequests).toBe(before);
  });
});
