/** The admin session's routes through the client, against a local HTTP server that answers as the Saksi server does. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminUploadProgress } from './admin.js';
import { SaksiClient } from './client.js';
import { SaksiApiError } from './errors.js';
import { startTestServer, type TestServer } from './test-server.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

let server: TestServer;
let baseUrl: string;
let received: Received[] = [];
let handler: (request: Received, response: ServerResponse) => void = () => {};

function json(
  response: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  if (body === undefined) {
    response.writeHead(status, headers);
    response.end();
    return;
  }
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

const DOCUMENT = {
  id: 'doc_1',
  collection: 'laws',
  title: 'UU 22/2009',
  filename: 'uu.md',
  status: 'READY',
  document_type: 'other',
  fiscal_year: null,
  source: null,
  chunk_count: 3,
  root: '11'.repeat(32),
  anchor_state: 'PENDING_ANCHOR',
  created_at: '2026-01-01T00:00:00Z',
  anchor: null,
};

beforeAll(async () => {
  server = await startTestServer((request, response) => {
    received.push(request);
    handler(request, response);
  });
  baseUrl = server.baseUrl;
});

afterAll(async () => {
  await server?.close();
});

beforeEach(() => {
  received = [];
});

async function failure(promise: Promise<unknown>): Promise<SaksiApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SaksiApiError);
  return error as SaksiApiError;
}

async function form(request: Received): Promise<FormData> {
  return new Response(new Uint8Array(request.body), {
    headers: { 'content-type': String(request.headers['content-type']) },
  }).formData();
}

describe('the admin session', () => {
  it('signs in, reads the session and signs out with the CSRF token', async () => {
    handler = (request, response) => {
      if (request.url === '/api/v1/admin/logout') return json(response, 204);
      json(
        response,
        200,
        { email: 'admin@example.org', csrf_token: 'csrf_1' },
        { 'set-cookie': 'saksi_session=s; Path=/' },
      );
    };
    const client = new SaksiClient({ baseUrl, credentials: 'same-origin' });
    const session = await client.admin.login('admin@example.org', 'a long password');
    expect(session).toEqual({ email: 'admin@example.org', csrf_token: 'csrf_1' });
    expect(JSON.parse(received[0]!.body.toString())).toEqual({
      email: 'admin@example.org',
      password: 'a long password',
    });
    expect(received[0]!.headers['x-csrf-token']).toBeUndefined();
    await expect(client.with({ csrfToken: session.csrf_token }).admin.logout()).resolves.toBeUndefined();
    expect(received[1]).toMatchObject({ method: 'POST', url: '/api/v1/admin/logout' });
    expect(received[1]!.headers['x-csrf-token']).toBe('csrf_1');
  });

  it('reports a refused sign-in and a missing session with their codes and the wait of a rate limit', async () => {
    handler = (_request, response) =>
      json(response, 429, { error: { code: 'RATE_LIMITED', message: 'Too many.' } }, { 'retry-after': '60' });
    expect(await failure(new SaksiClient({ baseUrl }).admin.login('a@b.c', 'x'))).toMatchObject({
      code: 'RATE_LIMITED',
      status: 429,
      retryAfterSeconds: 60,
    });
    handler = (_request, response) =>
      json(response, 401, { error: { code: 'SESSION_EXPIRED', message: 'Sign in again.' } });
    expect(await failure(new SaksiClient({ baseUrl }).admin.session())).toMatchObject({
      code: 'SESSION_EXPIRED',
      status: 401,
    });
  });
});

describe('admin documents', () => {
  const acting = () => new SaksiClient({ baseUrl, csrfToken: 'csrf_1' }).admin;

  it('lists with filters, restores and deletes', async () => {
    handler = (request, response) => {
      if (request.method === 'GET')
        return json(response, 200, { items: [DOCUMENT], total: 1, limit: 20, offset: 0 });
      if (request.method === 'DELETE') return json(response, 204);
      json(response, 200, { document: { ...DOCUMENT, status: 'READY' } });
    };
    const page = await acting().listDocuments({ collection: 'laws', status: 'READY', limit: 20, offset: 0 });
    expect(page.items).toEqual([DOCUMENT]);
    expect((await acting().setArchived('doc_1', false)).id).toBe('doc_1');
    await acting().deleteDocument('doc/1');
    expect(received.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /api/v1/admin/documents?collection=laws&status=READY&limit=20&offset=0',
      'POST /api/v1/admin/documents/doc_1/restore',
      'DELETE /api/v1/admin/documents/doc%2F1',
    ]);
    expect(received[0]!.headers['x-csrf-token']).toBeUndefined();
    expect(received[1]!.headers['x-csrf-token']).toBe('csrf_1');
    expect(received[2]!.headers['x-csrf-token']).toBe('csrf_1');
  });

  it('uploads with the stages of ingestion as they stream in', async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: progress\ndata: {"stage":"parsing","progress":0.25}\n\n');
      response.write('event: progress\ndata: {"stage":"embedding","progress":1.5}\n\n');
      response.end(`event: done\ndata: ${JSON.stringify({ document: DOCUMENT, deduplicated: true })}\n\n`);
    };
    const seen: AdminUploadProgress[] = [];
    const result = await acting().uploadDocument(
      {
        file: new Blob(['# Pasal 1\n']),
        filename: 'uu.md',
        collection: 'laws',
        document_type: 'other',
        fiscal_year: '2009',
      },
      { onProgress: (progress) => seen.push(progress) },
    );
    expect(result).toEqual({ document: DOCUMENT, deduplicated: true });
    expect(seen).toEqual([
      { stage: 'parsing', progress: 0.25 },
      { stage: 'embedding', progress: 1 },
    ]);
    const request = received[0]!;
    expect(request).toMatchObject({ method: 'POST', url: '/api/v1/admin/documents' });
    expect(request.headers['accept']).toBe('text/event-stream');
    expect(request.headers['x-csrf-token']).toBe('csrf_1');
    const fields = await form(request);
    expect(fields.get('collection')).toBe('laws');
    expect(fields.get('fiscal_year')).toBe('2009');
    expect(fields.has('source')).toBe(false);
    expect((fields.get('file') as File).name).toBe('uu.md');
  });

  it('throws an ingestion error event with its code; a stream without done is STREAM_ENDED', async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('event: error\ndata: {"code":"NO_TEXT","message":"The file has no text."}\n\n');
    };
    const upload = () =>
      acting().uploadDocument(
        { file: new Blob(['%PDF']), filename: 'scan.pdf', collection: 'laws' },
        { onProgress: () => {} },
      );
    expect(await failure(upload())).toMatchObject({ code: 'NO_TEXT', message: 'The file has no text.' });
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('event: progress\ndata: {"stage":"parsing","progress":0.1}\n\n');
    };
    expect(await failure(upload())).toMatchObject({ code: 'STREAM_ENDED' });
  });

  it('accepts the JSON reply of a server that does not stream, and asks for JSON without onProgress', async () => {
    handler = (_request, response) => json(response, 201, { document: DOCUMENT, deduplicated: false });
    const file = new Blob(['# Pasal 1\n']);
    const streamed = await acting().uploadDocument(
      { file, filename: 'uu.md', collection: 'laws' },
      { onProgress: () => {} },
    );
    expect(streamed).toEqual({ document: DOCUMENT, deduplicated: false });
    const plain = await acting().uploadDocument({ file, filename: 'uu.md', collection: 'laws' });
    expect(plain).toEqual({ document: DOCUMENT, deduplicated: false });
    expect(received[1]!.headers['accept']).toBe('application/json');
  });
});

describe('workspaces, keys and usage', () => {
  it('lists and creates workspaces, and lists, creates and revokes their keys', async () => {
    const record = {
      id: 'key_1',
      workspace_id: 'wsp_a',
      name: 'ci',
      prefix: 'saksi_AbC',
      scopes: ['read'],
      created_at: '2026-01-01T00:00:00Z',
      last_used_at: null,
      revoked_at: null,
    };
    handler = (request, response) => {
      if (request.url === '/api/v1/admin/workspaces' && request.method === 'GET')
        return json(response, 200, { items: [{ id: 'default', name: 'Default', documents: 3, keys: 1 }] });
      if (request.url === '/api/v1/admin/workspaces')
        return json(response, 201, {
          workspace: { id: 'wsp_a', name: 'Acme', quotas: {}, created_at: 'now' },
        });
      if (request.url.endsWith('/revoke'))
        return json(response, 200, { record: { ...record, revoked_at: 'now' } });
      if (request.method === 'GET') return json(response, 200, { items: [record] });
      json(response, 201, { key: 'saksi_secret', record });
    };
    const admin = new SaksiClient({ baseUrl, csrfToken: 'csrf_1' }).admin;
    expect((await admin.listWorkspaces())[0]).toMatchObject({ id: 'default', documents: 3 });
    expect(await admin.createWorkspace('Acme')).toMatchObject({ id: 'wsp_a', documents: 0, keys: 0 });
    expect(await admin.listKeys('wsp_a')).toEqual([record]);
    expect((await admin.createKey('wsp_a', { name: 'ci', scopes: ['read'] })).key).toBe('saksi_secret');
    expect((await admin.revokeKey('wsp_a', 'key_1')).revoked_at).toBe('now');
    expect(received.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /api/v1/admin/workspaces',
      'POST /api/v1/admin/workspaces',
      'GET /api/v1/admin/workspaces/wsp_a/keys',
      'POST /api/v1/admin/workspaces/wsp_a/keys',
      'POST /api/v1/admin/workspaces/wsp_a/keys/key_1/revoke',
    ]);
    expect(JSON.parse(received[3]!.body.toString())).toEqual({ name: 'ci', scopes: ['read'] });
  });

  it('reads the usage report and builds the CSV address with the same query', async () => {
    handler = (_request, response) =>
      json(response, 200, { workspace_id: 'default', days: [], collections: [] });
    const client = new SaksiClient({ baseUrl });
    const query = { days: 30, workspace: 'default', collection: 'laws', tz: 'Asia/Jakarta' };
    expect((await client.admin.usage(query)).workspace_id).toBe('default');
    expect(received[0]!.url).toBe(
      '/api/v1/admin/usage?days=30&workspace=default&collection=laws&tz=Asia%2FJakarta',
    );
    expect(client.admin.usageCsvUrl(query, 'refused')).toBe(
      `${baseUrl}/api/v1/admin/usage.csv?days=30&workspace=default&collection=laws&tz=Asia%2FJakarta&table=refused`,
    );
  });
});
