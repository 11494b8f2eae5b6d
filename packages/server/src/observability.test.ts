/**
 * Logs and metrics (docs/operations.md) on a real listening server: JSON lines with request ids and
 * route patterns, nothing secret in them (keys, passwords, session ids), `X-Request-Id` returned, and
 * Prometheus metrics at /metrics for loopback clients or the metrics key only.
 */
import { createAdmin } from '@saksi/engine';
import { utf8Encode } from '@saksi/proof';
import { bearer, testApiKey } from '@saksi/test-support/api-key';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { createLogger, redact, redactText } from './observability.js';
import { type RunningServer, startServer } from './serve.js';

const LAW = `# UU Contoh

Pasal 291

(1) Setiap orang yang mengemudikan Sepeda Motor tidak menggunakan helm standar nasional Indonesia dipidana dengan pidana kurungan paling lama 1 (satu) bulan atau denda paling banyak Rp250.000,00 (dua ratus lima puluh ribu rupiah).
`;
const PASSWORD = 'correct horse battery staple';
const METRICS_KEY = 'metrics-key-0123456789abcdef';

describe('redaction', () => {
  it('cuts credentials out of strings and fields, and keeps the rest', () => {
    const key = `saksi_${'A'.repeat(43)}`;
    expect(redactText(`Authorization: Bearer ${key} and ${key}`)).toBe(
      'Authorization: Bearer [redacted] and [redacted]',
    );
    expect(redactText('postgres://saksi:hunter2@db.internal:5432/saksi')).toBe(
      'postgres://saksi:[redacted]@db.internal:5432/saksi',
    );
    expect(redactText(`key 0x${'ab'.repeat(32)} session ses_${'0f'.repeat(16)} upload ?token=abc&x=1`)).toBe(
      'key [redacted] session ses_[redacted] upload ?token=[redacted]&x=1',
    );
    // A transaction hash has a key's form but is public, and what an operator looks up on the chain.
    const tx = `0x${'cd'.repeat(32)}`;
    expect(redactText(`Anchored 1 document root (round 3): tx ${tx} in block 7`)).toContain(tx);
    expect(redact({ tx_hash: tx, txHash: tx, block_hash: tx, key: tx, value: tx })).toEqual({
      tx_hash: tx,
      txHash: tx,
      block_hash: tx,
      key: '[redacted]',
      value: '[redacted]',
    });
    expect(redactText(`SAKSI_ANCHOR_PRIVATE_KEY=${tx}`)).toBe('SAKSI_ANCHOR_PRIVATE_KEY=[redacted]');
    expect(redact({ password: 'p', apiKey: 'k', nested: { Authorization: 'x', ok: 'fine' } })).toEqual({
      password: '[redacted]',
      apiKey: '[redacted]',
      nested: { Authorization: '[redacted]', ok: 'fine' },
    });
    const error = new Error(`connect to postgres://u:secret@h/db failed`);
    expect(JSON.stringify(redact({ error }))).not.toContain('secret');
  });

  it('writes only the lines at or above its level', () => {
    const lines: string[] = [];
    const logger = createLogger('warn', (line) => lines.push(line));
    logger.info('request', { status: 200 });
    logger.warn('slow', { ms: 900 });
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['slow']);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'warn', ms: 900 });
  });
});

describe('a server’s logs and metrics', () => {
  let test: TestEngine;
  let server: RunningServer;
  let key: string;
  const lines: string[] = [];

  beforeAll(async () => {
    test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
    await test.engine.ingest('hukum', { bytes: utf8Encode(LAW), filename: 'uu.md' });
    // A collection the answer check was not calibrated on is released at the strictest λ; these figures
    // count answers, so the collection accepts the highest risk (docs/engine.md, "The answer check").
    await test.engine.collections.configure('hukum', { answer_risk: 0.5 });
    await test.engine.db.query(
      `UPDATE collections SET profile = profile || '{"public": true}'::jsonb WHERE name = 'hukum'`,
    );
    await createAdmin(test.engine.db, 'admin@example.org', PASSWORD);
    key = await testApiKey(test.engine);
    server = await startServer(test.engine, {
      port: 0,
      host: '127.0.0.1',
      logger: createLogger('info', (line) => lines.push(line)),
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await test?.close();
  });

  const chat = (question: string) =>
    fetch(`${server.url}/api/v1/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(key) },
      body: JSON.stringify({ collection: 'hukum', question }),
    });

  it('logs one JSON line per request with its id and route pattern, and no secret', async () => {
    const asked = await chat('Berapa denda tidak pakai helm?');
    expect(asked.status).toBe(200);
    const answer = (await asked.json()) as { session_id: string };
    const session = await fetch(`${server.url}/api/v1/sessions/${answer.session_id}`, {
      headers: { ...bearer(key), 'x-request-id': 'support-ticket-42' },
    });
    expect(session.status).toBe(200);
    expect(session.headers.get('x-request-id')).toBe('support-ticket-42');
    const forged = await fetch(`${server.url}/api/v1/collections`, {
      headers: { 'x-request-id': 'no spaces or "quotes" allowed' },
    });
    expect(forged.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
    const login = await fetch(`${server.url}/api/v1/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.org', password: PASSWORD }),
    });
    expect(login.status).toBe(200);

    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = logged.filter((line) => line['msg'] === 'request');
    expect(requests.length).toBeGreaterThanOrEqual(4);
    for (const line of requests) {
      expect(line).toMatchObject({ level: 'info' });
      expect(typeof line['request_id']).toBe('string');
      expect(typeof line['ms']).toBe('number');
    }
    expect(requests.map((line) => line['route'])).toEqual(
      expect.arrayContaining([
        '/api/v1/chat',
        '/api/v1/sessions/:id',
        '/api/v1/collections',
        '/api/v1/admin/login',
      ]),
    );
    expect(requests.find((line) => line['route'] === '/api/v1/sessions/:id')?.['request_id']).toBe(
      'support-ticket-42',
    );
    const all = lines.join('');
    for (const secret of [key, PASSWORD, answer.session_id, answer.session_id.slice(4)])
      expect(all).not.toContain(secret);
  });

  it('serves Prometheus metrics to loopback clients: latency per route, answers by cache, gauges', async () => {
    await chat('Berapa denda tidak pakai helm?');
    const metrics = await fetch(`${server.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    const text = await metrics.text();
    expect(text).toMatch(
      /^saksi_http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/chat",status="2xx"\} 2$/m,
    );
    expect(text).toMatch(/^saksi_answers_total\{outcome="answered",cached="false"\} 1$/m);
    expect(text).toMatch(/^saksi_answers_total\{outcome="answered",cached="true"\} 1$/m);
    expect(text).toMatch(/^saksi_answer_stage_seconds_count\{stage="certify"\} 1$/m);
    expect(text).toMatch(/^saksi_jobs\{status="QUEUED"\} 0$/m);
    expect(text).toMatch(/^saksi_log_entries [1-9]\d*$/m);
    expect(text).toMatch(/^saksi_cached_answers 1$/m);
    expect(text).toMatch(/^saksi_anchor_lag_seconds \d/m);
  });

  it('refuses /metrics to other clients, and needs the key once one is set', async () => {
    // No socket: not a loopback client.
    const inProcess = createApp(test.engine, { logger: createLogger('silent') });
    const refused = await inProcess.request('/metrics');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
    const keyed = await openTestEngine({ env: { SAKSI_ANCHOR: 'none', SAKSI_METRICS_KEY: METRICS_KEY } });
    try {
      const app = createApp(keyed.engine, { logger: createLogger('silent') });
      expect((await app.request('/metrics')).status).toBe(401);
      expect(
        (await app.request('/metrics', { headers: { authorization: 'Bearer wrong-key-0123456789' } })).status,
      ).toBe(401);
      const allowed = await app.request('/metrics', { headers: { authorization: `Bearer ${METRICS_KEY}` } });
      expect(allowed.status).toBe(200);
      expect(await allowed.text()).toContain('saksi_log_entries');
    } finally {
      await keyed.close();
    }
  }, 60_000);
});
