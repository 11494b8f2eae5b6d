/** `/api/v1/sessions/:id` on a real engine: a two-turn session in order, deletion, and bad ids. */
import { utf8Encode } from '@saksi/proof';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';

let test: TestEngine;
let app: Hono;

beforeAll(async () => {
  test = await openTestEngine();
  app = createApp(test.engine);
  await test.engine.ingest('helm', {
    bytes: utf8Encode(
      '# Helm\n\nPengendara sepeda motor wajib memakai helm standar nasional Indonesia.\n\n## Lampu\n\nSepeda motor wajib menyalakan lampu utama pada siang hari.\n',
    ),
    filename: 'helm.md',
  });
  // Sessions of public collections are read and deleted without a key, like the web chat does.
  await test.engine.collections.configure('helm', { public: true });
});

afterAll(async () => {
  await test?.close();
});

async function call(method: string, path: string) {
  const response = await app.request(`/api/v1${path}`, { method });
  const text = await response.text();
  expect(text).not.toMatch(/\n\s+at /);
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}

describe('GET and DELETE /api/v1/sessions/:id', () => {
  it('returns the questions and answers in order, then deletes the session', async () => {
    const first = await test.engine.ask('helm', { question: 'Apakah pengendara wajib memakai helm?' });
    const second = await test.engine.ask('helm', {
      question: 'Kapan lampu utama wajib dinyalakan?',
      session_id: first.session_id,
    });
    const { status, body } = await call('GET', `/sessions/${first.session_id}`);
    expect(status).toBe(200);
    expect(body.session_id).toBe(first.session_id);
    expect(body.collection).toBe('helm');
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(body.messages[0]).toMatchObject({
      content: 'Apakah pengendara wajib memakai helm?',
      certificate_id: null,
    });
    expect(body.messages[1]).toMatchObject({
      content: first.answer,
      certificate_id: first.bundle.certificate.certificate_id,
    });
    expect(body.messages[3].certificate_id).toBe(second.bundle.certificate.certificate_id);
    expect(Number.isNaN(Date.parse(body.messages[0].created_at))).toBe(false);

    expect((await call('DELETE', `/sessions/${first.session_id}`)).status).toBe(204);
    const gone = await call('GET', `/sessions/${first.session_id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('NOT_FOUND');
    // The certificate outlives the conversation.
    const bundle = await app.request(`/api/v1/certificates/${first.bundle.certificate.certificate_id}`);
    expect(bundle.status).toBe(200);
  });

  it('unknown and malformed session ids are 404 JSON errors', async () => {
    for (const path of ['/sessions/ses_00000000000000000000000000000000', '/sessions/%3Cscript%3E']) {
      for (const method of ['GET', 'DELETE']) {
        const { status, body } = await call(method, path);
        expect(status).toBe(404);
        expect(body.error.code).toBe('NOT_FOUND');
      }
    }
  });
});
