/**
 * `GET /api/v1/admin/usage` and `GET /api/v1/admin/usage.csv` over real HTTP (docs/api.md, "Admin
 * routes"): the admin session only, the figures of real answers and feedback, typed errors for a bad
 * query, and the CSV downloads.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createAdmin } from '@saksi/engine';
import { utf8Encode } from '@saksi/proof';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';

const EMAIL = 'admin@example.org';
const PASSWORD = 'correct horse battery';
const LAW = `# UU Contoh

Pasal 106

(8) Setiap orang yang mengemudikan Sepeda Motor dan Penumpang Sepeda Motor wajib menggunakan helm yang memenuhi standar nasional Indonesia.
`;
const QUESTIONS = [
  'Naik motor wajib pakai helm?',
  'Berapa harga tiket kereta ke Bandung?',
  'Siapa penemu lampu pijar?',
];

let test: TestEngine;
let url: string;
let close: () => Promise<void>;
let session: { cookie: string; csrf: string };
const outcomes: string[] = [];

beforeAll(async () => {
  test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
  const { engine } = test;
  await createAdmin(engine.db, EMAIL, PASSWORD);
  await engine.ingest('hukum', { bytes: utf8Encode(LAW), filename: 'uu.md' });
  // A collection the answer check was not calibrated on is released at the strictest λ; these figures
  // count answers, so the collection accepts the highest risk (docs/engine.md, "The answer check").
  await engine.collections.configure('hukum', { public: true, answer_risk: 0.5 });
  const app = createApp(engine);
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      url = `http://127.0.0.1:${info.port}`;
      resolve(started);
    });
  });
  close = () => new Promise((resolve) => server.close(() => resolve()));

  // Real questions over HTTP, and a thumbs down on the first answer.
  for (const question of QUESTIONS) {
    const response = await fetch(`${url}/api/v1/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ collection: 'hukum', question }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: a chat reply read field by field
    const answer = (await response.json()) as any;
    outcomes.push(answer.bundle.certificate.answer.outcome);
    if (outcomes.length === 1) {
      const feedback = await fetch(`${url}/api/v1/feedback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ certificate_id: answer.bundle.certificate.certificate_id, rating: 'down' }),
      });
      expect(feedback.status).toBe(201);
    }
  }
  const login = await fetch(`${url}/api/v1/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  const cookie = /saksi_session=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1] ?? '';
  session = { cookie, csrf: ((await login.json()) as { csrf_token: string }).csrf_token };
}, 180_000);

afterAll(async () => {
  await close?.();
  await test?.close();
});

async function get(path: string, signedIn = true) {
  const response = await fetch(`${url}/api/v1${path}`, {
    headers: signedIn ? { cookie: `saksi_session=${session.cookie}` } : {},
  });
  // The byte order mark stays in `text` (response.text() would drop it).
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer());
  expect(text).not.toMatch(/\n\s+at /); // never a stack trace
  const json = (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : null;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected field by field
  return { status: response.status, headers: response.headers, text, json: json as any };
}

describe('GET /api/v1/admin/usage', () => {
  it('needs the admin session', async () => {
    const response = await get('/admin/usage', false);
    expect([response.status, response.json.error.code]).toEqual([401, 'UNAUTHENTICATED']);
    expect((await get('/admin/usage.csv', false)).status).toBe(401);
  });

  it('reports the questions, refusals and feedback of the period, with the collections to pick from', async () => {
    expect(outcomes).toEqual(['answered', 'refused', 'refused']);
    const response = await get('/admin/usage?days=7&collection=hukum&tz=Asia/Jakarta');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const report = response.json;
    expect(report.period).toMatchObject({ days: 7, time_zone: 'Asia/Jakarta' });
    expect(report.days).toHaveLength(7);
    expect(report.collections).toEqual(['hukum']);
    expect(report.totals).toMatchObject({
      questions: 3,
      answered: 1,
      refused: 2,
      refusal_rate: 2 / 3,
      with_feedback: 1,
      feedback_rate: 1 / 3,
      up: 0,
      down: 1,
    });
    expect(report.top_refused.map((row: { question: string }) => row.question).sort()).toEqual(
      QUESTIONS.slice(1).sort(),
    );
    // The default: 30 days of every collection of the default workspace.
    const defaults = (await get('/admin/usage')).json;
    expect([defaults.days.length, defaults.collection, defaults.workspace_id]).toEqual([
      30,
      null,
      'wsp_default',
    ]);
  });

  it('refuses a bad query with a typed 400 and an unknown collection or workspace with a 404', async () => {
    for (const query of [
      'days=0',
      'days=367',
      'days=abc',
      'tz=Mars/Olympus',
      'tz=%3Bdrop',
      'top=101',
      'collection=A%20B',
    ]) {
      const response = await get(`/admin/usage?${query}`);
      expect([query, response.status, response.json.error.code]).toEqual([query, 400, 'INVALID_INPUT']);
    }
    const collection = await get('/admin/usage?collection=nope');
    expect([collection.status, collection.json.error.code]).toEqual([404, 'NOT_FOUND']);
    const workspace = await get('/admin/usage?workspace=wsp_nope');
    expect([workspace.status, workspace.json.error.code]).toEqual([404, 'NOT_FOUND']);
    expect((await get('/admin/usage.csv?table=everything')).status).toBe(400);
  });

  it('downloads the days, and the refused questions, as CSV files named after what they hold', async () => {
    const days = await get('/admin/usage.csv?days=7&collection=hukum');
    expect(days.status).toBe(200);
    expect(days.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/);
    const disposition = days.headers.get('content-disposition') ?? '';
    expect(disposition).toMatch(
      /^attachment; filename="saksi-usage_wsp_default_hukum_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(days.text.charCodeAt(0)).toBe(0xfeff);
    const lines = days.text.slice(1).split('\r\n');
    expect(lines[0]!.split(',').slice(0, 4)).toEqual(['date', 'questions', 'answered', 'refused']);
    expect(lines).toHaveLength(1 + 7 + 1 + 1);
    expect(lines.at(-2)!.split(',').slice(0, 4)).toEqual(['total', '3', '1', '2']);

    const refused = await get('/admin/usage.csv?days=7&table=refused');
    expect(refused.headers.get('content-disposition')).toMatch(
      /filename="saksi-usage_wsp_default_all_refused_/,
    );
    const rows = refused.text.slice(1).split('\r\n');
    expect(rows[0]).toBe('question,count,last_asked_at');
    expect(
      rows
        .slice(1, 3)
        .map((row) => row.split(',')[0])
        .sort(),
    ).toEqual(
      QUESTIONS.slice(1)
        .map((question) => question)
        .sort(),
    );
  });
});
