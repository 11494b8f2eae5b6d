/** `/api/v1/anchors` on a real engine and a real local anvil: status, one document, and bad ids. */
import { utf8Encode } from '@saksi/proof';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';

let test: TestEngine;
let app: Hono;
let documentId: string;

beforeAll(async () => {
  test = await openTestEngine({ env: { SAKSI_ANCHOR: 'local' } });
  app = createApp(test.engine);
  const result = await test.engine.ingest('helm', {
    bytes: utf8Encode('# Helm\n\nPengendara sepeda motor wajib memakai helm.\n'),
    filename: 'helm.md',
  });
  documentId = result.document.id;
  // A public collection's document anchors are public; a private one's need a key (isolation.test.ts).
  await test.engine.collections.configure('helm', { public: true });
});

afterAll(async () => {
  await test?.close();
});

async function get(path: string) {
  const response = await app.request(`/api/v1${path}`);
  const text = await response.text();
  expect(text).not.toMatch(/\n\s+at /);
  return { status: response.status, body: JSON.parse(text) };
}

describe('GET /api/v1/anchors', () => {
  it('before anchoring starts: the provider, no chain, documents pending', async () => {
    const { status, body } = await get('/anchors');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      provider: 'local',
      chain: null,
      documents: { PENDING_ANCHOR: 1 },
      rounds: [],
    });
    const health = await (await app.request('/api/v1/health')).json();
    expect(health.anchor).toEqual({ provider: 'local', running: false, chain_id: null, contract: null });
    // Before anvil runs there is no RPC to probe; the document's root waits.
    expect(health.chain).toMatchObject({ provider: 'local', state: 'not_started', block_number: null });
    expect(health.anchoring.waiting).toBe(1);
    expect(health.anchoring.lag_seconds).toBeGreaterThanOrEqual(0);
    expect(Date.parse(health.anchoring.oldest_waiting_since)).not.toBeNaN();
  });

  it('after a round: the chain, the confirmed round and the document anchor', async () => {
    await test.engine.anchoring.runNow();
    const { body } = await get('/anchors');
    expect(body.chain).toMatchObject({
      provider: 'local',
      chain_id: 31337,
      rpc_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    });
    expect(body.documents).toEqual({ ANCHORED: 1 });
    expect(body.rounds).toHaveLength(1);
    expect(body.rounds[0]).toMatchObject({
      status: 'CONFIRMED',
      size: 1,
      explorer_url: null,
      last_error: null,
    });
    const one = await get(`/anchors/${documentId}`);
    expect(one.status).toBe(200);
    expect(one.body.document).toMatchObject({
      id: documentId,
      anchor_state: 'ANCHORED',
      anchor: {
        chain_id: 31337,
        tx_hash: body.rounds[0].tx_hash,
        batch_proof: { leaf_index: 0, tree_size: 1, path: [] },
      },
    });
    const health = await (await app.request('/api/v1/health')).json();
    expect(health.anchor).toMatchObject({ running: true, chain_id: 31337 });
    // The running anvil answers the probe; nothing waits any more. No RPC URL in health.
    expect(health.status).toBe('ok');
    expect(health.chain).toMatchObject({ provider: 'local', state: 'reachable', error: null });
    expect(health.chain.block_number).toBeGreaterThanOrEqual(1);
    expect(health.anchoring).toEqual({ waiting: 0, oldest_waiting_since: null, lag_seconds: null });
    expect(JSON.stringify(health)).not.toContain(body.chain.rpc_url);
    // The keys a verifier pins now list the registry.
    const keys = await (await app.request('/.well-known/saksi-keys.json')).json();
    expect(keys.registries).toEqual([{ chain_id: 31337, contract: body.chain.contract }]);
  });

  it('unknown and malformed document ids are 404 JSON errors', async () => {
    for (const id of ['doc_missing', '%00%01', 'x'.repeat(300), "1'%20OR%20'1'='1"]) {
      const { status, body } = await get(`/anchors/${id}`);
      expect(status).toBe(404);
      expect(body.error.code).toBe('NOT_FOUND');
    }
  });
});
