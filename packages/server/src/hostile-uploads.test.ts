/**
 * The CI subset of the hostile corpus (docs/security.md) uploaded over real HTTP to
 * `POST /api/v1/documents`, under their hostile names, with the job worker running: every upload is
 * refused at once with a typed error, or accepted and then READY with all its chunks or FAILED with a
 * typed code and no chunk. No stack trace in any body; the server keeps answering.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { bearer, storedChunks, testApiKey, waitForDocument } from '@saksi/test-support/api-key';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { hostileBytes, hostileCorpus } from '@saksi/test-support/hostile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from './serve.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const sharedFiles = path.resolve(repoRoot, '../shared/data/files');
const subset = hostileCorpus(existsSync(sharedFiles) ? { sharedFiles } : {}).filter((hostile) => hostile.ci);
const STACK = /\n\s+at |\.ts:\d+|node_modules/;

let test: TestEngine;
let server: RunningServer;
let auth: Record<string, string>;

beforeAll(async () => {
  test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
  test.engine.workers.start({ pollMs: 50 });
  server = await startServer(test.engine, { port: 0, host: '127.0.0.1' });
  auth = bearer(await testApiKey(test.engine));
});

afterAll(async () => {
  await server?.close();
  await test?.close();
});

async function count(sql: string): Promise<number> {
  return (await test.engine.db.query<{ n: number }>(sql)).rows[0]!.n;
}

/** Documents and chunks in the database, chunks of documents that are not READY, and READY documents whose chunk count is wrong. */
async function state() {
  return {
    documents: await count('SELECT count(*)::integer AS n FROM documents'),
    chunks: await count('SELECT count(*)::integer AS n FROM chunks'),
    orphanChunks: await count(
      `SELECT count(*)::integer AS n FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.status <> 'READY'`,
    ),
    incomplete: await count(
      `SELECT count(*)::integer AS n FROM documents d WHERE d.status = 'READY'
         AND d.chunk_count <> (SELECT count(*) FROM chunks c WHERE c.document_id = d.id)`,
    ),
  };
}

function upload(bytes: Uint8Array, filename: string): Promise<Response> {
  const form = new FormData();
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], filename));
  form.set('collection', 'hostile');
  return fetch(`${server.url}/api/v1/documents`, { method: 'POST', body: form, headers: auth });
}

describe('hostile files through POST /api/v1/documents', () => {
  it.each(subset.map((hostile) => [hostile.id, hostile] as const))('%s', async (_id, hostile) => {
    const before = await state();
    const response = await upload(hostileBytes(hostile), hostile.filename);
    const text = await response.text();
    expect(text).not.toMatch(STACK);
    const body = JSON.parse(text) as {
      error?: { code: string; message: string };
      document?: { id: string };
    };
    let outcome: string;
    if (response.status === 202) {
      const id = body.document!.id;
      const document = await waitForDocument(server.url, id, auth);
      const chunks = await storedChunks(test.engine, id);
      // The stored name and title are one path segment without control or format characters (a
      // right-to-left override, a zero-width space), whatever was sent.
      expect(document['filename']).not.toMatch(/[/\\\p{Cc}\p{Cf}]/u);
      expect(document['title']).not.toMatch(/[\p{Cc}\p{Cf}]/u);
      if (document['status'] === 'READY') {
        expect(chunks).toBeGreaterThan(0);
        expect(chunks).toBe(document['chunk_count']);
        outcome = 'ingested';
      } else {
        expect(document['status']).toBe('FAILED');
        expect(Object.keys(document['error']).sort()).toEqual(['code', 'message']);
        expect(document['error'].message).not.toMatch(STACK);
        expect(chunks).toBe(0);
        expect(document['chunk_count']).toBe(0);
        outcome = document['error'].code;
      }
      expect(await state()).toEqual({
        ...before,
        documents: before.documents + 1,
        chunks: before.chunks + chunks,
      });
    } else {
      // Refused before anything was stored: a 4xx with the error envelope, and no new row.
      expect(response.status, text).toBeGreaterThanOrEqual(400);
      expect(response.status, text).toBeLessThan(500);
      expect(Object.keys(body)).toEqual(['error']);
      outcome = body.error!.code;
      expect(await state()).toEqual(before);
    }
    expect(hostile.expect, `${hostile.id} ended in ${outcome}`).toContain(outcome);
  });

  it('keeps serving: health answers and an ordinary upload becomes READY', async () => {
    const health = await fetch(`${server.url}/api/v1/health`);
    expect(health.status).toBe(200);
    const response = await upload(
      new TextEncoder().encode('# Catatan akhir\n\nSetelah berkas-berkas jahat, berkas biasa tetap masuk.\n'),
      'akhir.md',
    );
    expect(response.status).toBe(202);
    const id = ((await response.json()) as { document: { id: string } }).document.id;
    expect((await waitForDocument(server.url, id, auth))['status']).toBe('READY');
    expect(await state()).toMatchObject({ orphanChunks: 0, incomplete: 0 });
  });
});
