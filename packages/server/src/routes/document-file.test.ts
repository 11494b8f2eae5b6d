/**
 * `GET /api/v1/documents/{id}/file` (docs/api.md, "Documents") on a real engine: the original bytes with
 * their media type, name and SHA-256; across stored parts and over a real socket; the access rules of
 * `GET /documents/{id}`; a missing part as `FILE_NOT_FOUND`; bytes that fail their hash cut short.
 */
import { createHash, randomBytes } from 'node:crypto';
import { SaksiApiError, SaksiClient } from '@saksi/client';
import { BLOB_PART_BYTES, createApiKey, createWorkspace, DEFAULT_WORKSPACE } from '@saksi/engine';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { type RunningServer, startServer } from '../serve.js';
import { contentDisposition } from './v1.js';

let test: TestEngine;
let app: Hono;
let reader: string;
let ingester: string;
let stranger: string;

const markdown = new TextEncoder().encode(
  '# Anggaran\n\nBelanja negara tahun 2023 adalah Rp3.061,2 triliun.\n',
);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A document whose bytes are stored (ingestion is not needed for the original to be there). */
async function submit(bytes: Uint8Array, filename: string, workspaceId = DEFAULT_WORKSPACE, mime?: string) {
  const { document } = await test.engine.submit(
    'arsip',
    { bytes, filename, ...(mime ? { mime } : {}) },
    { workspaceId },
  );
  return document;
}

async function get(path: string, key?: string) {
  return app.request(`/api/v1${path}`, key ? { headers: { authorization: `Bearer ${key}` } } : {});
}

async function errorOf(response: Response) {
  const text = await response.text();
  expect(text).not.toMatch(/\n\s+at /);
  return { status: response.status, code: (JSON.parse(text) as { error: { code: string } }).error.code };
}

beforeAll(async () => {
  test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
  app = createApp(test.engine);
  const key = (scopes: ('read' | 'ingest' | 'admin')[], workspaceId = DEFAULT_WORKSPACE) =>
    createApiKey(test.engine.db, { workspaceId, name: scopes.join('+'), scopes }).then(
      (created) => created.key,
    );
  reader = await key(['read']);
  ingester = await key(['ingest']);
  const other = await createWorkspace(test.engine.db, { name: 'Other office' });
  stranger = await key(['admin'], other.id);
});

afterAll(async () => {
  await test?.close();
});

describe('GET /api/v1/documents/{id}/file', () => {
  it('returns the original bytes with their media type, name, length and SHA-256', async () => {
    const document = await submit(markdown, 'Laporan “APBN” 2023; final.md');
    const response = await get(`/documents/${document.id}/file`, reader);
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Buffer.from(bytes).equals(Buffer.from(markdown))).toBe(true);
    const digest = sha256(markdown);
    expect(document.original_sha256).toBe(digest);
    expect(response.headers.get('content-type')).toBe(document.mime);
    expect(response.headers.get('content-length')).toBe(String(markdown.length));
    expect(response.headers.get('x-saksi-sha256')).toBe(digest);
    expect(response.headers.get('repr-digest')).toBe(
      `sha-256=:${Buffer.from(digest, 'hex').toString('base64')}:`,
    );
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Laporan _APBN_ 2023; final.md"; filename*=UTF-8''Laporan%20%E2%80%9CAPBN%E2%80%9D%202023%3B%20final.md`,
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    // The scope rule is the document route's: a key without `read` (nor `admin`) is refused by both.
    const refused = await errorOf(await get(`/documents/${document.id}/file`, ingester));
    expect(refused).toEqual(await errorOf(await get(`/documents/${document.id}`, ingester)));
    expect(refused).toEqual({ status: 403, code: 'FORBIDDEN' });
  });

  it('stores, titles and names for download a file name without the right-to-left override it came with', async () => {
    // Shown as "ringkasanexe.md" (the override reverses what follows it); stored as it really is.
    const document = await submit(
      new TextEncoder().encode('# Ringkasan\n\nTeks ringkasan.\n'),
      'ringkasan\u202Edm.exe\u200B.md',
    );
    expect(document.filename).toBe('ringkasandm.exe.md');
    expect(document.title).toBe('ringkasandm.exe.md');
    const response = await get(`/documents/${document.id}/file`, reader);
    await response.arrayBuffer();
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="ringkasandm.exe.md"; filename*=UTF-8''ringkasandm.exe.md`,
    );
  });

  it('streams a file of several stored parts, through the typed client over a real socket', async () => {
    const bytes = new Uint8Array(randomBytes(3 * BLOB_PART_BYTES + 777));
    const document = await submit(bytes, 'scan.pdf', DEFAULT_WORKSPACE, 'application/pdf');
    let server: RunningServer | undefined;
    try {
      server = await startServer(test.engine, { port: 0, host: '127.0.0.1' });
      const client = new SaksiClient({ baseUrl: server.url, apiKey: reader });
      const file = await client.downloadDocument(document.id);
      expect(file.size).toBe(bytes.length);
      expect(file.sha256).toBe(sha256(bytes));
      expect(file.filename).toBe('scan.pdf');
      expect(file.mime).toBe('application/pdf');
      expect(Buffer.from(file.bytes).equals(Buffer.from(bytes))).toBe(true);
    } finally {
      await server?.close();
    }
  });

  it('follows the rules of GET /documents/{id}: a key of the workspace; anyone else gets the 404 of an unknown id', async () => {
    const document = await submit(
      new TextEncoder().encode('# Rahasia\n\nHanya untuk kantor ini.\n'),
      'rahasia.md',
    );
    expect(await errorOf(await get(`/documents/${document.id}/file`))).toEqual({
      status: 401,
      code: 'UNAUTHENTICATED',
    });
    const foreign = await errorOf(await get(`/documents/${document.id}/file`, stranger));
    const unknown = await errorOf(
      await get('/documents/doc_00000000000000000000000000000000/file', stranger),
    );
    expect(foreign).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(unknown).toEqual(foreign);
    expect((await get(`/documents/${document.id}`, stranger)).status).toBe(404);
    for (const id of ['%00', 'x'.repeat(300), "1'%20OR%20'1'='1"]) {
      expect(await errorOf(await get(`/documents/${id}/file`, reader))).toEqual({
        status: 404,
        code: 'NOT_FOUND',
      });
    }
  });

  it('says FILE_NOT_FOUND, not 500, when a stored part is missing', async () => {
    const bytes = new Uint8Array(randomBytes(BLOB_PART_BYTES + 10));
    const document = await submit(bytes, 'partial.txt', DEFAULT_WORKSPACE, 'text/plain');
    await test.engine.db.query('DELETE FROM blob_parts WHERE sha256 = $1 AND part = 1', [
      document.original_sha256,
    ]);
    expect(await errorOf(await get(`/documents/${document.id}/file`, reader))).toEqual({
      status: 404,
      code: 'FILE_NOT_FOUND',
    });
  });

  it('cuts the response short when the stored bytes do not hash to the document’s SHA-256', async () => {
    const bytes = new Uint8Array(randomBytes(2 * BLOB_PART_BYTES + 5));
    const document = await submit(bytes, 'altered.txt', DEFAULT_WORKSPACE, 'text/plain');
    const altered = Buffer.from(bytes.subarray(BLOB_PART_BYTES, 2 * BLOB_PART_BYTES));
    altered[0] = altered[0]! ^ 0xff;
    await test.engine.db.query(
      `UPDATE blob_parts SET bytes = decode($2, 'base64') WHERE sha256 = $1 AND part = 1`,
      [document.original_sha256, altered.toString('base64')],
    );
    const response = await get(`/documents/${document.id}/file`, reader);
    expect(response.status).toBe(200);
    await expect(response.arrayBuffer()).rejects.toThrow();
  });

  it('sends an unparseable stored media type as octets', async () => {
    const document = await submit(new TextEncoder().encode('teks biasa\n'), 'a.txt');
    await test.engine.db.query('UPDATE documents SET mime = $2 WHERE id = $1', [
      document.id,
      'text/html\r\nSet-Cookie: x=1',
    ]);
    const response = await get(`/documents/${document.id}/file`, reader);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('the typed client reports a missing document as SaksiApiError NOT_FOUND', async () => {
    const client = new SaksiClient({
      baseUrl: 'http://saksi.test',
      apiKey: reader,
      fetch: (input, init) => Promise.resolve(app.request(input instanceof URL ? input.href : input, init)),
    });
    const error = await client
      .downloadDocument('doc_00000000000000000000000000000000')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SaksiApiError);
    expect((error as SaksiApiError).code).toBe('NOT_FOUND');
  });
});

describe('Content-Disposition', () => {
  it('keeps every name to one quoted ASCII parameter and one RFC 8187 parameter', () => {
    expect(contentDisposition('report.pdf')).toBe(
      `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`,
    );
    expect(contentDisposition('a"b\\c%d\r\nX-Injected: 1.txt')).toBe(
      `attachment; filename="a_b_c_dX-Injected: 1.txt"; filename*=UTF-8''a%22b%5Cc%25dX-Injected%3A%201.txt`,
    );
    expect(contentDisposition("it's (final)*.md")).toBe(
      `attachment; filename="it's (final)*.md"; filename*=UTF-8''it%27s%20%28final%29%2A.md`,
    );
    expect(contentDisposition('Перечень.docx')).toMatch(
      /^attachment; filename="_+\.docx"; filename\*=UTF-8''%D0%9F/,
    );
    expect(contentDisposition('\u0000')).toBe(`attachment; filename="download"; filename*=UTF-8''download`);
    // A name stored before ingestion made names plain: its bidi controls are not sent either.
    expect(contentDisposition('laporan\u202Efdp.exe\u2066')).toBe(
      `attachment; filename="laporanfdp.exe"; filename*=UTF-8''laporanfdp.exe`,
    );
  });
});
