/**
 * `POST /api/v1/feedback` over real HTTP (docs/api.md, "Feedback"): the access of reading the
 * certificate (anyone for a public one, a key of its workspace otherwise, 404 for everyone else), one
 * feedback per certificate and submitter, the hourly budget of an address without a key, typed 400s
 * for bad input, the typed client, and the widget's cross-origin call.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { SaksiApiError, SaksiClient } from '@saksi/client';
import { createApiKey, createWorkspace } from '@saksi/engine';
import { utf8Encode } from '@saksi/proof';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';

const LAW = `# UU Contoh

Pasal 106

(8) Setiap orang yang mengemudikan Sepeda Motor dan Penumpang Sepeda Motor wajib menggunakan helm yang memenuhi standar nasional Indonesia.
`;
const ORIGIN = 'https://docs.example.org';
/** Feedbacks an address may give per hour without a key (SAKSI_PUBLIC_CHAT_LIMIT). */
const HOURLY = 3;

let test: TestEngine;
let url: string;
let close: () => Promise<void>;
let publicCertificate: string;
let privateCertificate: string;
let ownKey: string;
let otherKey: string;

beforeAll(async () => {
  test = await openTestEngine({
    env: { SAKSI_ANCHOR: 'none', SAKSI_PUBLIC_CHAT_LIMIT: String(HOURLY), SAKSI_ALLOWED_ORIGINS: ORIGIN },
  });
  const { engine } = test;
  await engine.ingest('hukum', { bytes: utf8Encode(LAW), filename: 'uu.md' });
  await engine.collections.configure('hukum', { public: true });
  await engine.ingest('internal', { bytes: utf8Encode(LAW), filename: 'uu.md' });
  publicCertificate = (await engine.ask('hukum', { question: 'Wajib pakai helm?' })).bundle.certificate
    .certificate_id;
  privateCertificate = (await engine.ask('internal', { question: 'Wajib pakai helm?' })).bundle.certificate
    .certificate_id;
  ownKey = (await createApiKey(engine.db, { workspaceId: 'wsp_default', name: 'reader', scopes: ['read'] }))
    .key;
  const other = await createWorkspace(engine.db, { name: 'Other' });
  otherKey = (await createApiKey(engine.db, { workspaceId: other.id, name: 'other', scopes: ['read'] })).key;

  // Loopback is a trusted proxy: each test names its client in X-Forwarded-For.
  const app = createApp(engine, {
    trustProxy: { addresses: ['127.0.0.0/8', '::1/128'], header: 'x-forwarded-for' },
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      url = `http://127.0.0.1:${info.port}`;
      resolve(started);
    });
  });
  close = () => new Promise((resolve) => server.close(() => resolve()));
}, 120_000);

afterAll(async () => {
  await close?.();
  await test?.close();
});

async function post(
  body: unknown,
  options: { address?: string; key?: string; raw?: string; origin?: string } = {},
) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-forwarded-for': options.address ?? '198.51.100.1',
  };
  if (options.key !== undefined) headers['authorization'] = `Bearer ${options.key}`;
  if (options.origin !== undefined) headers['origin'] = options.origin;
  const response = await fetch(`${url}/api/v1/feedback`, {
    method: 'POST',
    headers,
    body: options.raw ?? JSON.stringify(body),
  });
  const text = await response.text();
  expect(text).not.toMatch(/\n\s+at /); // never a stack trace
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected field by field
  return { status: response.status, headers: response.headers, json: JSON.parse(text) as any };
}

async function stored(certificateId: string) {
  const result = await test.engine.db.query<{ submitter: string; rating: string; comment: string | null }>(
    'SELECT submitter, rating, comment FROM answer_feedback WHERE certificate_id = $1 ORDER BY created_at, submitter',
    [certificateId],
  );
  return result.rows;
}

describe('POST /api/v1/feedback', () => {
  it('takes feedback on a public answer without a key; the same address replaces its own', async () => {
    const first = await post(
      { certificate_id: publicCertificate, rating: 'down', comment: 'Pasalnya kurang lengkap.' },
      { address: '198.51.100.1' },
    );
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({
      feedback: { certificate_id: publicCertificate, rating: 'down', comment: 'Pasalnya kurang lengkap.' },
      replaced: false,
    });
    const again = await post(
      { certificate_id: publicCertificate, rating: 'up' },
      { address: '198.51.100.1' },
    );
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ feedback: { rating: 'up', comment: null }, replaced: true });
    const other = await post(
      { certificate_id: publicCertificate, rating: 'down' },
      { address: '198.51.100.2' },
    );
    expect(other.status).toBe(201);
    const rows = await stored(publicCertificate);
    expect(rows.map((row) => row.rating)).toEqual(['up', 'down']);
    // The address itself is never stored.
    for (const row of rows) {
      expect(row.submitter).toMatch(/^address:[0-9a-f]{64}$/);
      expect(row.submitter).not.toContain('198.51.100');
    }
  });

  it('answers 404 for a private answer without its workspace key, and for an unknown certificate', async () => {
    const anonymous = await post(
      { certificate_id: privateCertificate, rating: 'up' },
      { address: '198.51.100.3' },
    );
    expect([anonymous.status, anonymous.json.error.code]).toEqual([404, 'NOT_FOUND']);
    const elsewhere = await post({ certificate_id: privateCertificate, rating: 'up' }, { key: otherKey });
    expect([elsewhere.status, elsewhere.json.error.code]).toEqual([404, 'NOT_FOUND']);
    const unknown = await post(
      { certificate_id: '01a2002d-0000-7000-8000-000000000000', rating: 'up' },
      { key: ownKey },
    );
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'NOT_FOUND']);
    expect(await stored(privateCertificate)).toEqual([]);

    // The typed client with a key of the owning workspace.
    const client = new SaksiClient({ baseUrl: url, apiKey: ownKey });
    const given = await client.giveFeedback({
      certificate_id: privateCertificate,
      rating: 'up',
      comment: 'Jelas.',
    });
    expect(given).toMatchObject({ feedback: { rating: 'up', comment: 'Jelas.' }, replaced: false });
    expect(await stored(privateCertificate)).toEqual([
      { submitter: expect.stringMatching(/^key:key_/), rating: 'up', comment: 'Jelas.' },
    ]);
    const refused = await new SaksiClient({ baseUrl: url })
      .giveFeedback({ certificate_id: privateCertificate, rating: 'down' })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(SaksiApiError);
    expect((refused as SaksiApiError).code).toBe('NOT_FOUND');
  });

  it('refuses bad input with a typed 400, storing nothing', async () => {
    const before = await stored(publicCertificate);
    const cases: [unknown, string][] = [
      [{ certificate_id: 'not-a-uuid', rating: 'up' }, 'INVALID_INPUT'],
      [{ certificate_id: publicCertificate.toUpperCase(), rating: 'up' }, 'INVALID_INPUT'],
      [{ certificate_id: publicCertificate, rating: 'meh' }, 'INVALID_INPUT'],
      [{ certificate_id: publicCertificate }, 'INVALID_INPUT'],
      [{ certificate_id: publicCertificate, rating: 'up', comment: 'x'.repeat(1_001) }, 'INVALID_INPUT'],
      [{ certificate_id: publicCertificate, rating: 'up', comment: 'a\u0000b' }, 'INVALID_INPUT'],
      [[publicCertificate, 'up'], 'INVALID_INPUT'],
    ];
    for (const [index, [body, code]] of cases.entries()) {
      const response = await post(body, { address: `203.0.113.${index + 1}` });
      expect([index, response.status, response.json.error.code]).toEqual([index, 400, code]);
    }
    const notJson = await post(undefined, { raw: '{"certificate_id":', address: '203.0.113.99' });
    expect([notJson.status, notJson.json.error.code]).toEqual([400, 'INVALID_JSON']);
    expect(await stored(publicCertificate)).toEqual(before);
  });

  it(`limits an address without a key to ${HOURLY} feedbacks an hour; other addresses and keys go on`, async () => {
    const address = '192.0.2.77';
    const statuses: number[] = [];
    for (let index = 0; index <= HOURLY; index++)
      statuses.push(
        (await post({ certificate_id: publicCertificate, rating: index % 2 ? 'up' : 'down' }, { address }))
          .status,
      );
    expect(statuses).toEqual([201, 200, 200, 429]);
    const refused = await post({ certificate_id: publicCertificate, rating: 'up' }, { address });
    expect(refused.json.error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(
      (await post({ certificate_id: publicCertificate, rating: 'up' }, { address: '192.0.2.78' })).status,
    ).toBe(201);
    expect(
      (await post({ certificate_id: publicCertificate, rating: 'up' }, { address, key: ownKey })).status,
    ).toBe(201);
  });

  it("may be called by the widget from an allowed origin (and not from another's)", async () => {
    const allowed = await post(
      { certificate_id: publicCertificate, rating: 'up' },
      { address: '198.51.100.50', origin: ORIGIN },
    );
    expect(allowed.status).toBe(201);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const other = await post(
      { certificate_id: publicCertificate, rating: 'up' },
      { address: '198.51.100.51', origin: 'https://evil.example' },
    );
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${url}/api/v1/feedback`, {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    await preflight.arrayBuffer();
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
  });
});
