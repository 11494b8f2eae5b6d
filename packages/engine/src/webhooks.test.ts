/** Webhooks on a real database, delivered to real HTTP servers on 127.0.0.1. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../test/engine-fixture.js';
import type { Database } from './db/database.js';
import { EngineError } from './errors.js';
import {
  createWebhook,
  deleteWebhook,
  deliverDueWebhooks,
  enqueueWebhookEvent,
  listDeliveries,
  listWebhooks,
  MAX_WEBHOOKS_PER_WORKSPACE,
  signWebhookPayload,
  verifyWebhookSignature,
  WEBHOOK_EVENTS,
  webhookBackoffMs,
} from './webhooks.js';

let test: TestEngine;
let db: Database;
const WORKSPACE_A = 'wsp_hooks_a';
const WORKSPACE_B = 'wsp_hooks_b';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  requests: Received[];
  close(): Promise<void>;
}

/** A local receiver answering each request with the next status of `statuses` (the last one repeats). */
async function startReceiver(statuses: number[] | 'hang', responseBody = 'ok'): Promise<Receiver> {
  const requests: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (statuses === 'hang') return;
      const status = statuses[Math.min(requests.length - 1, statuses.length - 1)] ?? 200;
      response.writeHead(status, { 'content-type': 'text/plain' }).end(responseBody);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return error instanceof EngineError ? error.code : `not an EngineError: ${String(error)}`;
  }
  return undefined;
}

async function deliveryRows(webhookId: string) {
  const result = await db.query<{
    status: string;
    attempts: number;
    last_status: number | null;
    last_error: string | null;
    event_id: string;
  }>(
    'SELECT status, attempts, last_status, last_error, event_id FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY id',
    [webhookId],
  );
  return result.rows;
}

const receivers: Receiver[] = [];
async function receiver(statuses: number[] | 'hang', responseBody?: string): Promise<Receiver> {
  const started = await startReceiver(statuses, responseBody);
  receivers.push(started);
  return started;
}

beforeAll(async () => {
  test = await openTestEngine();
  db = test.engine.db;
  await db.query('INSERT INTO workspaces (id, name) VALUES ($1, $2), ($3, $4)', [
    WORKSPACE_A,
    'Hooks A',
    WORKSPACE_B,
    'Hooks B',
  ]);
});

beforeEach(async () => {
  await db.query('DELETE FROM webhooks');
});

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((started) => started.close()));
});

afterAll(async () => {
  await test?.close();
});

describe('signatures', () => {
  const secret = 'whsec_test-secret';
  const body = '{"id":"evt_1","type":"document.ready"}';
  const now = 1_700_000_000;

  it('verifies with the secret and fails with another secret, a tampered body or an old timestamp', () => {
    const header = signWebhookPayload(secret, now, body);
    expect(header).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(secret, header, body, { now })).toBe(true);
    expect(verifyWebhookSignature(secret, header, body, { now: now + 299 })).toBe(true);
    expect(verifyWebhookSignature('whsec_other', header, body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, header, `${body} `, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, header, body, { now: now + 301 })).toBe(false);
    expect(verifyWebhookSignature(secret, header, body, { now: now - 301 })).toBe(false);
    expect(verifyWebhookSignature(secret, header, body, { now: now + 3_000, toleranceSeconds: 3_600 })).toBe(
      true,
    );
  });

  it('accepts any of several v1 signatures (secret rotation) and ignores other schemes', () => {
    const current = signWebhookPayload(secret, now, body).split(',')[1]!;
    const previous = signWebhookPayload('whsec_previous', now, body).split(',')[1]!;
    expect(verifyWebhookSignature(secret, `t=${now},${previous},${current}`, body, { now })).toBe(true);
    expect(verifyWebhookSignature(secret, `t=${now}, v0=abc, ${current}`, body, { now })).toBe(true);
    expect(verifyWebhookSignature(secret, `t=${now},${previous}`, body, { now })).toBe(false);
  });

  it('rejects malformed headers without throwing', () => {
    const signature = signWebhookPayload(secret, now, body);
    const v1 = signature.split(',')[1]!;
    for (const header of [
      null,
      undefined,
      '',
      'garbage',
      v1,
      `t=${now}`,
      `t=abc,${v1}`,
      `t=${now},t=${now},${v1}`,
      `t=${now},v1=zz`,
      `t=${now},${v1.slice(0, -2)}`,
      `t=${now},=x,${v1}`,
      `t=${now},${v1},${'x'.repeat(5_000)}`,
    ]) {
      expect(verifyWebhookSignature(secret, header, body, { now })).toBe(false);
    }
  });

  it('backs off 10 s × 3^(n−1), capped at an hour, with ±20% jitter', () => {
    expect(webhookBackoffMs(1, () => 0.5)).toBe(10_000);
    expect(webhookBackoffMs(2, () => 0.5)).toBe(30_000);
    expect(webhookBackoffMs(3, () => 0.5)).toBe(90_000);
    expect(webhookBackoffMs(20, () => 0.5)).toBe(3_600_000);
    expect(webhookBackoffMs(1, () => 0)).toBe(8_000);
    expect(webhookBackoffMs(1, () => 1)).toBe(12_000);
  });
});

describe('webhook records', () => {
  it('creates with a shown-once secret, lists without it, and defaults to every event', async () => {
    const { webhook, secret } = await createWebhook(db, {
      workspaceId: WORKSPACE_A,
      url: 'https://example.com/hooks',
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(webhook).toMatchObject({
      workspace_id: WORKSPACE_A,
      url: 'https://example.com/hooks',
      events: [...WEBHOOK_EVENTS],
    });
    expect(webhook.id).toMatch(/^whk_/);
    expect(webhook).not.toHaveProperty('secret');
    const listed = await listWebhooks(db, WORKSPACE_A);
    expect(listed).toEqual([webhook]);
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect(await listWebhooks(db, WORKSPACE_B)).toEqual([]);
  });

  it('rejects bad urls and events with INVALID_INPUT', async () => {
    const create = (url: string, events?: string[]) =>
      codeOf(createWebhook(db, { workspaceId: WORKSPACE_A, url, ...(events ? { events } : {}) }));
    expect(await create('not a url')).toBe('INVALID_INPUT');
    expect(await create('/relative')).toBe('INVALID_INPUT');
    expect(await create('ftp://example.com/')).toBe('INVALID_INPUT');
    expect(await create('javascript:alert(1)')).toBe('INVALID_INPUT');
    expect(await create('https://user:pass@example.com/')).toBe('INVALID_INPUT');
    expect(await create('https://user@example.com/')).toBe('INVALID_INPUT');
    expect(await create(`https://example.com/${'a'.repeat(2_048)}`)).toBe('INVALID_INPUT');
    expect(await create('https://example.com/', [])).toBe('INVALID_INPUT');
    expect(await create('https://example.com/', ['document.deleted'])).toBe('INVALID_INPUT');
    expect(
      (
        await createWebhook(db, {
          workspaceId: WORKSPACE_A,
          url: 'http://example.com/',
          events: ['document.failed', 'document.failed'],
        })
      ).webhook.events,
    ).toEqual(['document.failed']);
  });

  it(`allows at most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks per workspace`, async () => {
    for (let index = 0; index < MAX_WEBHOOKS_PER_WORKSPACE; index += 1)
      await createWebhook(db, { workspaceId: WORKSPACE_A, url: `https://example.com/${index}` });
    expect(await codeOf(createWebhook(db, { workspaceId: WORKSPACE_A, url: 'https://example.com/x' }))).toBe(
      'CONFLICT',
    );
    // Another workspace has its own allowance.
    await createWebhook(db, { workspaceId: WORKSPACE_B, url: 'https://example.com/b' });
    expect(await codeOf(createWebhook(db, { workspaceId: 'wsp_missing', url: 'https://example.com/' }))).toBe(
      'NOT_FOUND',
    );
  });

  it("deletes only the workspace's own webhooks; another workspace's id is NOT_FOUND like an unknown one", async () => {
    const { webhook } = await createWebhook(db, { workspaceId: WORKSPACE_A, url: 'https://example.com/a' });
    const foreign = await deleteWebhook(db, WORKSPACE_B, webhook.id).catch((error: unknown) => error);
    const unknown = await deleteWebhook(db, WORKSPACE_B, 'whk_unknown').catch((error: unknown) => error);
    expect(foreign).toBeInstanceOf(EngineError);
    expect((foreign as EngineError).code).toBe('NOT_FOUND');
    expect((unknown as EngineError).code).toBe('NOT_FOUND');
    expect((foreign as EngineError).message.replace(webhook.id, 'ID')).toBe(
      (unknown as EngineError).message.replace('whk_unknown', 'ID'),
    );
    expect(await codeOf(listDeliveries(db, WORKSPACE_B, webhook.id))).toBe('NOT_FOUND');
    expect(
      await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.ready', data: {} }),
    ).toBe(1);
    expect(await listDeliveries(db, WORKSPACE_A, webhook.id)).toHaveLength(1);
    await deleteWebhook(db, WORKSPACE_A, webhook.id);
    expect(await listWebhooks(db, WORKSPACE_A)).toEqual([]);
    // The deliveries went with it.
    expect(await deliveryRows(webhook.id)).toEqual([]);
  });
});

describe('enqueueing', () => {
  it('writes one delivery per subscribed webhook, sharing one event id, and none for other events', async () => {
    const both = await createWebhook(db, { workspaceId: WORKSPACE_A, url: 'https://example.com/both' });
    const failedOnly = await createWebhook(db, {
      workspaceId: WORKSPACE_A,
      url: 'https://example.com/failed',
      events: ['document.failed'],
    });
    expect(
      await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.ready', data: { n: 1 } }),
    ).toBe(1);
    expect(await deliveryRows(failedOnly.webhook.id)).toEqual([]);
    expect(
      await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.failed', data: { n: 2 } }),
    ).toBe(2);
    const [first, second] = [await deliveryRows(both.webhook.id), await deliveryRows(failedOnly.webhook.id)];
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(1);
    expect(first[1]!.event_id).toBe(second[0]!.event_id);
    expect(first[0]!.event_id).not.toBe(first[1]!.event_id);
    const deliveries = await listDeliveries(db, WORKSPACE_A, failedOnly.webhook.id);
    expect(deliveries[0]).toMatchObject({ event: 'document.failed', status: 'PENDING', attempts: 0 });
  });

  it('exists only if the enclosing transaction commits', async () => {
    const { webhook } = await createWebhook(db, { workspaceId: WORKSPACE_A, url: 'https://example.com/' });
    await db
      .transaction(async (tx) => {
        await enqueueWebhookEvent(tx, { workspaceId: WORKSPACE_A, event: 'document.ready', data: {} });
        throw new Error('the work failed');
      })
      .catch(() => undefined);
    expect(await deliveryRows(webhook.id)).toEqual([]);
    await db.transaction((tx) =>
      enqueueWebhookEvent(tx, { workspaceId: WORKSPACE_A, event: 'document.ready', data: {} }),
    );
    expect(await deliveryRows(webhook.id)).toHaveLength(1);
  });
});

describe('delivery', () => {
  it('delivers a signed payload that verifies with the secret, and the workspace only gets its own events', async () => {
    const a = await receiver([200]);
    const b = await receiver([200]);
    const hookA = await createWebhook(db, { workspaceId: WORKSPACE_A, url: a.url });
    await createWebhook(db, { workspaceId: WORKSPACE_B, url: b.url });
    await enqueueWebhookEvent(db, {
      workspaceId: WORKSPACE_B,
      event: 'document.ready',
      data: { document: { id: 'doc_b' } },
    });
    expect(await deliverDueWebhooks(db, { timeoutMs: 5_000, maxAttempts: 3 })).toEqual({
      delivered: 1,
      retrying: 0,
      failed: 0,
    });
    expect(a.requests).toEqual([]);
    expect(b.requests).toHaveLength(1);

    await enqueueWebhookEvent(db, {
      workspaceId: WORKSPACE_A,
      event: 'document.ready',
      data: { document: { id: 'doc_a', title: 'Perda Nomor 1 — “APBD”' } },
    });
    await deliverDueWebhooks(db, { timeoutMs: 5_000, maxAttempts: 3 });
    expect(b.requests).toHaveLength(1);
    expect(a.requests).toHaveLength(1);
    const request = a.requests[0]!;
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe('Saksi-Webhooks/1');
    expect(request.headers['saksi-event']).toBe('document.ready');
    const signature = request.headers['saksi-signature'] as string;
    expect(verifyWebhookSignature(hookA.secret, signature, request.body)).toBe(true);
    expect(verifyWebhookSignature('whsec_wrong', signature, request.body)).toBe(false);
    const payload = JSON.parse(request.body) as Record<string, unknown>;
    expect(payload).toMatchObject({
      id: request.headers['saksi-delivery'],
      type: 'document.ready',
      workspace_id: WORKSPACE_A,
      data: { document: { id: 'doc_a', title: 'Perda Nomor 1 — “APBD”' } },
    });
    expect(new Date(payload['created_at'] as string).toISOString()).toBe(payload['created_at']);
    const [delivery] = await listDeliveries(db, WORKSPACE_A, hookA.webhook.id);
    expect(delivery).toMatchObject({ status: 'DELIVERED', attempts: 1, last_status: 200, last_error: null });
    expect(delivery!.delivered_at).not.toBeNull();
  });

  it('retries 500, 500, then delivers on 200 with attempts 3 and the same Saksi-Delivery each time', async () => {
    const target = await receiver([500, 500, 200], 'x'.repeat(1_000));
    const { webhook } = await createWebhook(db, { workspaceId: WORKSPACE_A, url: target.url });
    await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.failed', data: {} });
    let clock = new Date(Date.now() + 1_000);
    const options = { timeoutMs: 5_000, maxAttempts: 5, now: () => clock };

    expect(await deliverDueWebhooks(db, options)).toEqual({ delivered: 0, retrying: 1, failed: 0 });
    const [afterFirst] = await listDeliveries(db, WORKSPACE_A, webhook.id);
    expect(afterFirst).toMatchObject({ status: 'PENDING', attempts: 1, last_status: 500 });
    expect(afterFirst!.last_error).toMatch(/^HTTP 500: x+…$/);
    expect(afterFirst!.last_error!.length).toBeLessThanOrEqual(220);
    // Not due yet: the backoff (8–12 s) has not passed on the injected clock.
    expect(await deliverDueWebhooks(db, options)).toEqual({ delivered: 0, retrying: 0, failed: 0 });
    const due = new Date(afterFirst!.next_attempt_at).getTime() - clock.getTime();
    expect(due).toBeGreaterThanOrEqual(7_999);
    expect(due).toBeLessThanOrEqual(12_001);

    clock = new Date(clock.getTime() + 60_000);
    expect(await deliverDueWebhooks(db, options)).toEqual({ delivered: 0, retrying: 1, failed: 0 });
    clock = new Date(clock.getTime() + 60 * 60_000);
    expect(await deliverDueWebhooks(db, options)).toEqual({ delivered: 1, retrying: 0, failed: 0 });

    expect(target.requests).toHaveLength(3);
    const ids = new Set(target.requests.map((request) => request.headers['saksi-delivery']));
    expect(ids.size).toBe(1);
    expect(new Set(target.requests.map((request) => request.body)).size).toBe(1);
    const [delivery] = await listDeliveries(db, WORKSPACE_A, webhook.id);
    expect(delivery).toMatchObject({ status: 'DELIVERED', attempts: 3, last_status: 200, last_error: null });
    expect(delivery!.event_id).toBe([...ids][0]);
  });

  it('marks a delivery FAILED after maxAttempts, counting a redirect as a failure', async () => {
    const target = await receiver([302]);
    const { webhook } = await createWebhook(db, { workspaceId: WORKSPACE_A, url: target.url });
    await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.ready', data: {} });
    let clock = new Date(Date.now() + 1_000);
    const options = { timeoutMs: 5_000, maxAttempts: 3, now: () => clock };
    const totals = { delivered: 0, retrying: 0, failed: 0 };
    for (let round = 0; round < 5; round += 1) {
      const result = await deliverDueWebhooks(db, options);
      totals.delivered += result.delivered;
      totals.retrying += result.retrying;
      totals.failed += result.failed;
      clock = new Date(clock.getTime() + 2 * 60 * 60_000);
    }
    expect(totals).toEqual({ delivered: 0, retrying: 2, failed: 1 });
    expect(target.requests).toHaveLength(3);
    const [delivery] = await listDeliveries(db, WORKSPACE_A, webhook.id);
    expect(delivery).toMatchObject({ status: 'FAILED', attempts: 3, last_status: 302 });
    expect(delivery!.last_error).toContain('redirect');
  });

  it('gives up on a receiver that never answers after timeoutMs, and records a timeout', async () => {
    const target = await receiver('hang');
    const { webhook } = await createWebhook(db, { workspaceId: WORKSPACE_A, url: target.url });
    await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.ready', data: {} });
    const started = Date.now();
    expect(await deliverDueWebhooks(db, { timeoutMs: 200, maxAttempts: 3 })).toEqual({
      delivered: 0,
      retrying: 1,
      failed: 0,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(target.requests).toHaveLength(1);
    const [delivery] = await listDeliveries(db, WORKSPACE_A, webhook.id);
    expect(delivery).toMatchObject({
      status: 'PENDING',
      attempts: 1,
      last_status: null,
      last_error: 'Timed out after 200 ms.',
    });
  });

  it('records a refused connection as a retryable failure', async () => {
    const target = await receiver([200]);
    const url = target.url;
    await target.close();
    const { webhook } = await createWebhook(db, { workspaceId: WORKSPACE_A, url });
    await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.ready', data: {} });
    expect(await deliverDueWebhooks(db, { timeoutMs: 2_000, maxAttempts: 3 })).toEqual({
      delivered: 0,
      retrying: 1,
      failed: 0,
    });
    const [delivery] = await listDeliveries(db, WORKSPACE_A, webhook.id);
    expect(delivery!.last_error).toMatch(/^Request failed/);
  });

  it('sends each attempt once when two senders run at the same time', async () => {
    const target = await receiver([200]);
    await createWebhook(db, { workspaceId: WORKSPACE_A, url: target.url });
    const events = 12;
    for (let index = 0; index < events; index += 1)
      await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.ready', data: { index } });
    const options = { timeoutMs: 5_000, maxAttempts: 3, limit: 8 };
    const [first, second] = await Promise.all([
      deliverDueWebhooks(db, options),
      deliverDueWebhooks(db, options),
    ]);
    const third = await deliverDueWebhooks(db, options);
    expect(first.delivered + second.delivered + third.delivered).toBe(events);
    expect(target.requests).toHaveLength(events);
    expect(new Set(target.requests.map((request) => request.headers['saksi-delivery'])).size).toBe(events);
  });

  it('does not send deliveries of a disabled webhook', async () => {
    const target = await receiver([200]);
    const { webhook } = await createWebhook(db, { workspaceId: WORKSPACE_A, url: target.url });
    await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.ready', data: {} });
    await db.query('UPDATE webhooks SET disabled_at = now() WHERE id = $1', [webhook.id]);
    expect(await deliverDueWebhooks(db, { timeoutMs: 1_000, maxAttempts: 3 })).toEqual({
      delivered: 0,
      retrying: 0,
      failed: 0,
    });
    expect(target.requests).toEqual([]);
    expect(
      await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.ready', data: {} }),
    ).toBe(0);
  });
});
