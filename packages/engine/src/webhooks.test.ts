/**
 * Webhooks on a real database, delivered to real HTTP servers on 127.0.0.1. Delivering there needs
 * `allowPrivate` (SAKSI_WEBHOOK_ALLOW_PRIVATE), passed explicitly wherever a test means to; host names
 * are resolved by injected resolvers, so nothing asks a real DNS server.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from './db/database.js';
import { EngineError } from './errors.js';
import type { HostResolver, ResolvedAddress } from './net/address-guard.js';
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
  WEBHOOK_DELIVERY_FAILED,
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
async function startReceiver(
  statuses: number[] | 'hang',
  responseBody = 'ok',
  responseHeaders: Record<string, string> = {},
): Promise<Receiver> {
  const requests: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (statuses === 'hang') return;
      const status = statuses[Math.min(requests.length - 1, statuses.length - 1)] ?? 200;
      response.writeHead(status, { 'content-type': 'text/plain', ...responseHeaders }).end(responseBody);
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
async function receiver(
  statuses: number[] | 'hang',
  responseBody?: string,
  responseHeaders?: Record<string, string>,
): Promise<Receiver> {
  const started = await startReceiver(statuses, responseBody, responseHeaders);
  receivers.push(started);
  return started;
}

/** A documentation-free public address (example.com's), the answer of {@link publicDns}. */
const PUBLIC_ADDRESS: ResolvedAddress = { address: '93.184.215.14', family: 4 };
/** Every name resolves to a public address: registrations of https://example.com/… pass the check offline. */
const publicDns: HostResolver = async () => [PUBLIC_ADDRESS];

/** Registers with `publicDns`, or the given options. */
function register(options: Parameters<typeof createWebhook>[1]) {
  return createWebhook(db, { resolve: publicDns, ...options });
}

/** Delivery to the local receivers: private addresses allowed, explicitly. */
const LOCAL = { allowPrivate: true } as const;

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
    const { webhook, secret } = await register({
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
      codeOf(register({ workspaceId: WORKSPACE_A, url, ...(events ? { events } : {}) }));
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
        await register({
          workspaceId: WORKSPACE_A,
          url: 'http://example.com/',
          events: ['document.failed', 'document.failed'],
        })
      ).webhook.events,
    ).toEqual(['document.failed']);
  });

  it(`allows at most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks per workspace`, async () => {
    for (let index = 0; index < MAX_WEBHOOKS_PER_WORKSPACE; index += 1)
      await register({ workspaceId: WORKSPACE_A, url: `https://example.com/${index}` });
    expect(await codeOf(register({ workspaceId: WORKSPACE_A, url: 'https://example.com/x' }))).toBe(
      'CONFLICT',
    );
    // Another workspace has its own allowance.
    await register({ workspaceId: WORKSPACE_B, url: 'https://example.com/b' });
    expect(await codeOf(register({ workspaceId: 'wsp_missing', url: 'https://example.com/' }))).toBe(
      'NOT_FOUND',
    );
  });

  it("deletes only the workspace's own webhooks; another workspace's id is NOT_FOUND like an unknown one", async () => {
    const { webhook } = await register({ workspaceId: WORKSPACE_A, url: 'https://example.com/a' });
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
    const both = await register({ workspaceId: WORKSPACE_A, url: 'https://example.com/both' });
    const failedOnly = await register({
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
    const { webhook } = await register({ workspaceId: WORKSPACE_A, url: 'https://example.com/' });
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
    const hookA = await createWebhook(db, { workspaceId: WORKSPACE_A, url: a.url, ...LOCAL });
    await createWebhook(db, { workspaceId: WORKSPACE_B, url: b.url, ...LOCAL });
    await enqueueWebhookEvent(db, {
      workspaceId: WORKSPACE_B,
      event: 'document.ready',
      data: { document: { id: 'doc_b' } },
    });
    expect(await deliverDueWebhooks(db, { timeoutMs: 5_000, maxAttempts: 3, ...LOCAL })).toEqual({
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
    await deliverDueWebhooks(db, { timeoutMs: 5_000, maxAttempts: 3, ...LOCAL });
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
    const { webhook } = await createWebhook(db, { workspaceId: WORKSPACE_A, url: target.url, ...LOCAL });
    await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.failed', data: {} });
    let clock = new Date(Date.now() + 1_000);
    const options = { timeoutMs: 5_000, maxAttempts: 5, now: () => clock, ...LOCAL };

    expect(await deliverDueWebhooks(db, options)).toEqual({ delivered: 0, retrying: 1, failed: 0 });
    const [afterFirst] = await listDeliveries(db, WORKSPACE_A, webhook.id);
    expect(afterFirst).toMatchObject({ status: 'PENDING', attempts: 1, last_status: 500 });
    // Only the status: the reply's body is neither kept nor shown.
    expect(afterFirst!.last_error).toBe(WEBHOOK_DELIVERY_FAILED);
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

  it('marks a delivery FAILED after maxAttempts, counting a redirect as a failure and never following it', async () => {
    const elsewhere = await receiver([200]);
    const target = await receiver([302], '', { location: elsewhere.url });
    const { webhook } = await createWebhook(db, { workspaceId: WORKSPACE_A, url: target.url, ...LOCAL });
    await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.ready', data: {} });
    let clock = new Date(Date.now() + 1_000);
    const options = { timeoutMs: 5_000, maxAttempts: 3, now: () => clock, ...LOCAL };
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
    expect(delivery!.last_error).toBe(WEBHOOK_DELIVERY_FAILED);
    expect(elsewhere.requests).toEqual([]);
  });

  it('gives up on a receiver that never answers after timeoutMs, and records a timeout', async () => {
    const target = await receiver('hang');
    const { webhook } = await createWebhook(db, { workspaceId: WORKSPACE_A, url: target.url, ...LOCAL });
    await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.ready', data: {} });
    const started = Date.now();
    expect(await deliverDueWebhooks(db, { timeoutMs: 200, maxAttempts: 3, ...LOCAL })).toEqual({
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
      last_error: WEBHOOK_DELIVERY_FAILED,
    });
  });

  it('records a refused connection as a retryable failure', async () => {
    const target = await receiver([200]);
    const url = target.url;
    await target.close();
    const { webhook } = await createWebhook(db, { workspaceId: WORKSPACE_A, url, ...LOCAL });
    await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.ready', data: {} });
    expect(await deliverDueWebhooks(db, { timeoutMs: 2_000, maxAttempts: 3, ...LOCAL })).toEqual({
      delivered: 0,
      retrying: 1,
      failed: 0,
    });
    const [delivery] = await listDeliveries(db, WORKSPACE_A, webhook.id);
    expect(delivery).toMatchObject({ last_status: null, last_error: WEBHOOK_DELIVERY_FAILED });
  });

  it('sends each attempt once when two senders run at the same time', async () => {
    const target = await receiver([200]);
    await createWebhook(db, { workspaceId: WORKSPACE_A, url: target.url, ...LOCAL });
    const events = 12;
    for (let index = 0; index < events; index += 1)
      await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.ready', data: { index } });
    const options = { timeoutMs: 5_000, maxAttempts: 3, limit: 8, ...LOCAL };
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
    const { webhook } = await createWebhook(db, { workspaceId: WORKSPACE_A, url: target.url, ...LOCAL });
    await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.ready', data: {} });
    await db.query('UPDATE webhooks SET disabled_at = now() WHERE id = $1', [webhook.id]);
    expect(await deliverDueWebhooks(db, { timeoutMs: 1_000, maxAttempts: 3, ...LOCAL })).toEqual({
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

describe('webhooks cannot reach inside', () => {
  /** The URLs of the audit, and the other spellings of the same addresses. */
  const INTERNAL_URLS = [
    'http://127.0.0.1:8080/hook',
    'http://127.0.0.1:22/',
    'http://127.0.0.1:1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/',
    'http://[::1]:22/',
    'http://0.0.0.0/',
    'http://0.0.0.0:3000/',
    'http://[::]/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.1/',
    'http://0x7f000001/',
    'http://127.1/',
    'http://0/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::ffff:169.254.169.254]/latest/meta-data/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://[2002:a9fe:a9fe::1]/',
    'http://[fe80::1]/',
    'http://[fd00:ec2::254]/',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://192.0.2.10/',
    'http://localhost/',
    'http://localhost:22/',
    'http://LOCALHOST./',
    'https://admin.localhost/',
    'http://internal.example.org/',
    'http://metadata.example.org/latest/meta-data/',
    'http://mixed.example.org/',
    'http://mixed6.example.org/',
  ];
  const internalDns = (asked: string[]): HostResolver => {
    const table: Record<string, ResolvedAddress[]> = {
      'internal.example.org': [{ address: '10.1.2.3', family: 4 }],
      'metadata.example.org': [{ address: '169.254.169.254', family: 4 }],
      // One private address among public ones is enough to refuse.
      'mixed.example.org': [PUBLIC_ADDRESS, { address: '192.168.0.10', family: 4 }],
      'mixed6.example.org': [
        { address: '2606:4700::1111', family: 6 },
        { address: '::1', family: 6 },
      ],
    };
    return async (hostname) => {
      asked.push(hostname);
      const answer = table[hostname];
      if (!answer) throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
      return answer;
    };
  };

  it('refuses every internal URL at registration with WEBHOOK_URL_FORBIDDEN (0 accepted)', async () => {
    const asked: string[] = [];
    const resolve = internalDns(asked);
    const accepted: string[] = [];
    for (const url of INTERNAL_URLS) {
      const code = await codeOf(createWebhook(db, { workspaceId: WORKSPACE_A, url, resolve }));
      if (code !== 'WEBHOOK_URL_FORBIDDEN') accepted.push(`${url} → ${code ?? 'accepted'}`);
    }
    expect(accepted).toEqual([]);
    expect(await listWebhooks(db, WORKSPACE_A)).toEqual([]);
    // Literals and localhost are judged without a resolver; only names are looked up.
    expect(asked.sort()).toEqual([
      'internal.example.org',
      'metadata.example.org',
      'mixed.example.org',
      'mixed6.example.org',
    ]);
  });

  it('says why, as a 400, naming the range of a literal but not what a name resolves to', async () => {
    const refusal = (url: string) =>
      createWebhook(db, { workspaceId: WORKSPACE_A, url, resolve: internalDns([]) }).catch(
        (error: unknown) => error as EngineError,
      );
    const metadata = await refusal('http://169.254.169.254/latest/meta-data/');
    expect(metadata).toBeInstanceOf(EngineError);
    expect(metadata).toMatchObject({ code: 'WEBHOOK_URL_FORBIDDEN', status: 400 });
    expect((metadata as EngineError).message).toMatch(/link-local/);
    expect((metadata as EngineError).message).toMatch(/SAKSI_WEBHOOK_ALLOW_PRIVATE/);
    const named = (await refusal('http://internal.example.org/')) as EngineError;
    expect(named.code).toBe('WEBHOOK_URL_FORBIDDEN');
    expect(named.message).not.toContain('10.1.2.3');
  });

  it('accepts a public name, a public literal, and a name that does not resolve yet', async () => {
    await register({ workspaceId: WORKSPACE_A, url: 'https://hooks.example.org/saksi' });
    await createWebhook(db, { workspaceId: WORKSPACE_A, url: 'https://93.184.215.14/saksi' });
    await createWebhook(db, { workspaceId: WORKSPACE_A, url: 'https://[2606:4700::1111]/saksi' });
    await createWebhook(db, {
      workspaceId: WORKSPACE_A,
      url: 'https://not-yet.example.org/saksi',
      resolve: internalDns([]),
    });
    expect(await listWebhooks(db, WORKSPACE_A)).toHaveLength(4);
  });

  it('with allowPrivate (SAKSI_WEBHOOK_ALLOW_PRIVATE) registers loopback and localhost', async () => {
    for (const url of ['http://127.0.0.1:9/hook', 'http://localhost:9/hook', 'http://[::1]:9/hook']) {
      await createWebhook(db, { workspaceId: WORKSPACE_A, url, allowPrivate: true });
    }
    expect(await listWebhooks(db, WORKSPACE_A)).toHaveLength(3);
  });

  it('checks again at delivery: a name that answered public, then private (DNS rebinding), is not sent', async () => {
    const target = await receiver([200]);
    const port = new URL(target.url).port;
    const answers: ResolvedAddress[][] = [[PUBLIC_ADDRESS], [{ address: '127.0.0.1', family: 4 }]];
    let asked = 0;
    const rebinding: HostResolver = async () => answers[Math.min(asked++, answers.length - 1)]!;
    const { webhook } = await createWebhook(db, {
      workspaceId: WORKSPACE_A,
      url: `http://rebind.example.org:${port}/hook`,
      resolve: rebinding,
    });
    await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.ready', data: {} });
    expect(await deliverDueWebhooks(db, { timeoutMs: 2_000, maxAttempts: 1, resolve: rebinding })).toEqual({
      delivered: 0,
      retrying: 0,
      failed: 1,
    });
    expect(asked).toBe(2);
    expect(target.requests).toEqual([]);
    const [delivery] = await listDeliveries(db, WORKSPACE_A, webhook.id);
    expect(delivery).toMatchObject({
      status: 'FAILED',
      last_status: null,
      last_error: WEBHOOK_DELIVERY_FAILED,
    });
  });

  it('does not send to an internal URL stored before the check existed', async () => {
    const target = await receiver([200]);
    await db.query(
      `INSERT INTO webhooks (id, workspace_id, url, secret, events) VALUES ($1, $2, $3, 'whsec_x', $4::jsonb)`,
      ['whk_legacy', WORKSPACE_A, target.url, JSON.stringify(WEBHOOK_EVENTS)],
    );
    await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.ready', data: {} });
    expect(await deliverDueWebhooks(db, { timeoutMs: 2_000, maxAttempts: 3 })).toEqual({
      delivered: 0,
      retrying: 1,
      failed: 0,
    });
    expect(target.requests).toEqual([]);
  });

  it('connects to the address it checked, never asking another resolver', async () => {
    const target = await receiver([204]);
    const port = new URL(target.url).port;
    let asked = 0;
    // The system resolver does not know this name: a delivery can only arrive through the pinned address.
    const resolve: HostResolver = async () => {
      asked += 1;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const { webhook } = await createWebhook(db, {
      workspaceId: WORKSPACE_A,
      url: `http://receiver.saksi-test.invalid:${port}/hook`,
      allowPrivate: true,
    });
    await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.ready', data: {} });
    expect(
      await deliverDueWebhooks(db, { timeoutMs: 2_000, maxAttempts: 3, allowPrivate: true, resolve }),
    ).toEqual({ delivered: 1, retrying: 0, failed: 0 });
    expect(asked).toBe(1);
    expect(target.requests).toHaveLength(1);
    expect(target.requests[0]!.headers.host).toBe(`receiver.saksi-test.invalid:${port}`);
    const [delivery] = await listDeliveries(db, WORKSPACE_A, webhook.id);
    expect(delivery).toMatchObject({ status: 'DELIVERED', last_status: 204, last_error: null });
  });

  it('records one uniform failure: no reply body, and a closed port looks like an open one', async () => {
    const secretReply = await receiver([500], 'ami-id: i-0123456789 SECRET internal reply');
    const hanging = await receiver('hang');
    const closed = await receiver([200]);
    const closedUrl = closed.url;
    await closed.close();
    // An open port that does not speak HTTP (an SSH banner).
    const banner = createTcpServer((socket) => {
      socket.resume();
      socket.end('SSH-2.0-OpenSSH_9.6\r\n');
    });
    await new Promise<void>((resolve) => banner.listen(0, '127.0.0.1', resolve));
    const bannerUrl = `http://127.0.0.1:${(banner.address() as AddressInfo).port}/`;
    try {
      const hooks = {
        reply: (await createWebhook(db, { workspaceId: WORKSPACE_A, url: secretReply.url, ...LOCAL }))
          .webhook,
        hang: (await createWebhook(db, { workspaceId: WORKSPACE_A, url: hanging.url, ...LOCAL })).webhook,
        closed: (await createWebhook(db, { workspaceId: WORKSPACE_A, url: closedUrl, ...LOCAL })).webhook,
        banner: (await createWebhook(db, { workspaceId: WORKSPACE_A, url: bannerUrl, ...LOCAL })).webhook,
      };
      await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.ready', data: {} });
      expect(await deliverDueWebhooks(db, { timeoutMs: 300, maxAttempts: 3, ...LOCAL })).toEqual({
        delivered: 0,
        retrying: 4,
        failed: 0,
      });
      const [reply] = await listDeliveries(db, WORKSPACE_A, hooks.reply.id);
      expect(reply).toMatchObject({ last_status: 500, last_error: WEBHOOK_DELIVERY_FAILED });
      const noAnswer = await Promise.all(
        [hooks.hang, hooks.closed, hooks.banner].map(
          async (hook) => (await listDeliveries(db, WORKSPACE_A, hook.id))[0]!,
        ),
      );
      for (const delivery of noAnswer)
        expect(delivery).toMatchObject({ last_status: null, last_error: WEBHOOK_DELIVERY_FAILED });
      const stored = await db.query<{ last_error: string | null }>(
        'SELECT last_error FROM webhook_deliveries',
      );
      expect(JSON.stringify(stored.rows)).not.toMatch(/SECRET|ami-id|SSH|ECONNREFUSED|timed out/i);
    } finally {
      await new Promise((resolve) => banner.close(resolve));
    }
  });

  it('never lists a reply excerpt stored by an earlier version', async () => {
    const { webhook } = await register({ workspaceId: WORKSPACE_A, url: 'https://example.com/hooks' });
    await enqueueWebhookEvent(db, { workspaceId: WORKSPACE_A, event: 'document.ready', data: {} });
    await db.query(
      `UPDATE webhook_deliveries SET attempts = 1, last_status = 500, last_error = 'HTTP 500: root:x:0:0' WHERE webhook_id = $1`,
      [webhook.id],
    );
    const [delivery] = await listDeliveries(db, WORKSPACE_A, webhook.id);
    expect(delivery).toMatchObject({ last_status: 500, last_error: WEBHOOK_DELIVERY_FAILED });
  });
});
