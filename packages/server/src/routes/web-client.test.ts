/**
 * The web app's calls through `@saksi/client` on a real server: the streamed chat (its events in
 * order, the bundle verified with `@saksi/proof` against the published keys, a session continued and
 * an unknown one refused), and the admin session as the portal uses it (sign-in, the CSRF token on
 * changes, an upload followed through its ingestion stages, archive, usage).
 */

import { type AdminUploadProgress, type ChatStreamEvent, SaksiApiError, SaksiClient } from '@saksi/client';
import { createAdmin } from '@saksi/engine';
import type { Bundle } from '@saksi/proof';
import { parseTrustedKeys, trustOptions, utf8Encode, verifyBundle } from '@saksi/proof';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../serve.js';

const LAW = `# UU Contoh

Pasal 106

(8) Setiap orang yang mengemudikan Sepeda Motor dan Penumpang Sepeda Motor wajib menggunakan helm yang memenuhi standar nasional Indonesia.
`;
const EMAIL = 'admin@example.org';
const PASSWORD = 'correct horse battery';

let test: TestEngine;
let server: RunningServer;

beforeAll(async () => {
  test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
  await test.engine.ingest('hukum', { bytes: utf8Encode(LAW), filename: 'uu.md' });
  // A collection the answer check was not calibrated on is released at the strictest λ; these tests
  // need a released answer, so the collection accepts the highest risk (docs/engine.md).
  await test.engine.collections.configure('hukum', { public: true, answer_risk: 0.5 });
  await createAdmin(test.engine.db, EMAIL, PASSWORD);
  server = await startServer(test.engine, { port: 0, host: '127.0.0.1' });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await test?.close();
});

async function collect(events: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const seen: ChatStreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

/** A fetch that keeps the session cookie, as the browser does for the admin pages. */
function cookieJar(): typeof fetch {
  let cookie: string | undefined;
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    if (cookie !== undefined) headers.set('cookie', cookie);
    const response = await fetch(input, { ...init, headers });
    const set = /saksi_session=[^;]*/.exec(response.headers.get('set-cookie') ?? '')?.[0];
    if (set !== undefined) cookie = set;
    return response;
  };
}

describe('the streamed chat', () => {
  it('streams session, retrieval, deltas, bundle and done; the bundle verifies against the published keys', async () => {
    const client = new SaksiClient({ baseUrl: server.url });
    const events = await collect(client.chatStream({ collection: 'hukum', question: 'Wajib pakai helm?' }));
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('session');
    expect(types[1]).toBe('retrieval');
    expect(types.slice(2, -2).every((type) => type === 'delta')).toBe(true);
    expect(types.slice(-2)).toEqual(['bundle', 'done']);
    const text = events.flatMap((event) => (event.type === 'delta' ? [event.text] : [])).join('');
    expect(text).toContain('helm');
    const bundle = events.find((event) => event.type === 'bundle')?.bundle as unknown as Bundle;
    const done = events.at(-1);
    expect(done).toMatchObject({
      type: 'done',
      found: true,
      certificate_id: bundle.certificate.certificate_id,
    });
    const keys = parseTrustedKeys(await client.trustedKeys());
    const verification = await verifyBundle(bundle, { ...trustOptions(keys), vocabulary: SAKSI_VOCABULARY });
    expect(verification.verdict).toBe('verified');

    // The session continues; an unknown one is refused with NOT_FOUND.
    const session = events[0]?.type === 'session' ? events[0].session_id : '';
    const again = await collect(
      client.chatStream({ collection: 'hukum', question: 'Standar apa?', session_id: session }),
    );
    expect(again[0]).toEqual({ type: 'session', session_id: session });
    const unknown = await collect(
      client.chatStream({
        collection: 'hukum',
        question: 'Helm?',
        session_id: 'ses_00000000000000000000000000',
      }),
    ).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(unknown).toBeInstanceOf(SaksiApiError);
    expect((unknown as SaksiApiError).code).toBe('NOT_FOUND');
  });
});

describe('the admin session', () => {
  it('signs in, uploads with progress, archives with the CSRF token, and reads usage', async () => {
    const page = new SaksiClient({ baseUrl: server.url, credentials: 'same-origin', fetch: cookieJar() });
    const session = await page.admin.login(EMAIL, PASSWORD);
    expect(session.email).toBe(EMAIL);
    expect(await page.admin.session()).toEqual(session);

    // Without the token a change is refused; with it, it goes through.
    const refused = await page.admin.setArchived('doc_x', true).then(
      () => undefined,
      (error: unknown) => error as SaksiApiError,
    );
    expect(refused?.code).toBe('CSRF_INVALID');
    const admin = page.with({ csrfToken: session.csrf_token }).admin;
    const stages: AdminUploadProgress[] = [];
    const uploaded = await admin.uploadDocument(
      {
        file: new Blob([`${LAW}\nPasal 107\n\n(1) Lampu utama wajib dinyalakan pada malam hari.\n`]),
        filename: 'uu-2.md',
        collection: 'hukum',
        document_type: 'other',
      },
      { onProgress: (progress) => stages.push(progress) },
    );
    expect(uploaded.document.status).toBe('READY');
    expect(stages.length).toBeGreaterThan(0);
    expect(stages.every((stage) => stage.progress >= 0 && stage.progress <= 1)).toBe(true);
    const listed = await admin.listDocuments({ collection: 'hukum' });
    expect(listed.items.map((document) => document.id)).toContain(uploaded.document.id);
    expect((await admin.setArchived(uploaded.document.id, true)).status).toBe('ARCHIVED');
    expect((await admin.usage({ days: 7, workspace: 'wsp_default' })).totals.questions).toBeGreaterThan(0);
    await admin.logout();
    const expired = await page.admin.session().then(
      () => undefined,
      (error: unknown) => error as SaksiApiError,
    );
    expect(expired?.status).toBe(401);
  });
});
