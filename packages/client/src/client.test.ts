import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SaksiClient } from './client.js';
import { SaksiApiError } from './errors.js';
import { startTestServer, type TestServer } from './test-server.js';
import type { Document, DocumentStatus, Job } from './types.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

type Handler = (request: Received, response: ServerResponse) => void;

const KEY = `saksi_${'A'.repeat(43)}`;
let server: TestServer;
let baseUrl: string;
let received: Received[] = [];
let handler: Handler = (_request, response) =>
  json(response, 404, { error: { code: 'NOT_FOUND', message: 'No route' } });

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

function document(status: DocumentStatus, progress: number): Document {
  return {
    id: 'doc_1',
    collection: 'laws',
    title: 'UU 22/2009',
    filename: 'uu.md',
    mime: 'text/markdown',
    original_sha256: '00'.repeat(32),
    size: 10,
    status,
    stage: status === 'READY' ? 'done' : 'parsing',
    progress,
    error: null,
    root: status === 'READY' ? '11'.repeat(32) : null,
    chunk_count: status === 'READY' ? 3 : 0,
    pages: null,
    document_type: null,
    fiscal_year: null,
    source: null,
    metadata: {},
    anchor_state: 'PENDING_ANCHOR',
    created_at: '2025-01-01T00:00:00Z',
    job_id: 'job_1',
  };
}

const job: Job = {
  id: 'job_1',
  kind: 'ingest',
  status: 'QUEUED',
  stage: 'queued',
  progress: 0,
  attempts: 0,
  max_attempts: 3,
  error: null,
  document_id: 'doc_1',
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
  finished_at: null,
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

const client = (options: { apiKey?: string; timeoutMs?: number } = { apiKey: KEY }) =>
  new SaksiClient({ baseUrl, ...options, headers: { 'X-Saksi-Workspace': 'wsp_default' } });

async function failure(promise: Promise<unknown>): Promise<SaksiApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SaksiApiError);
  return error as SaksiApiError;
}

describe('requests', () => {
  it('sends the key as a bearer token with the configured headers and reads the JSON reply', async () => {
    handler = (_request, response) => json(response, 200, { items: [] });
    expect(await client().listKeys()).toEqual([]);
    expect(received[0]).toMatchObject({ method: 'GET', url: '/api/v1/keys' });
    expect(received[0]!.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(received[0]!.headers['x-saksi-workspace']).toBe('wsp_default');
  });

  it('sends no Authorization header without a key, and accepts a base URL ending in /api/v1', async () => {
    handler = (_request, response) => json(response, 200, { items: [{ name: 'demo' }] });
    const anonymous = new SaksiClient({ baseUrl: `${baseUrl}/api/v1/` });
    expect(await anonymous.listCollections()).toEqual([{ name: 'demo' }]);
    expect(received[0]!.url).toBe('/api/v1/collections');
    expect(received[0]!.headers['authorization']).toBeUndefined();
  });

  it('sends JSON bodies, query strings without absent values and escaped ids', async () => {
    handler = (_request, response) => json(response, 200, { items: [], total: 0, limit: 5, offset: 0 });
    await client().listDocuments({ collection: 'laws', status: 'READY', limit: 5 });
    expect(received[0]!.url).toBe('/api/v1/documents?collection=laws&status=READY&limit=5');
    handler = (_request, response) => json(response, 201, { key: KEY, record: { id: 'key_1' } });
    await client().createKey({ name: 'ci', scopes: ['read', 'ingest'] });
    expect(received[1]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(received[1]!.body.toString())).toEqual({ name: 'ci', scopes: ['read', 'ingest'] });
    handler = (_request, response) => json(response, 200, { id: 'x' });
    await client().getDocument('../keys?x=1');
    expect(received[2]!.url).toBe('/api/v1/documents/..%2Fkeys%3Fx%3D1');
  });

  it('resolves deletions answered 204 with nothing', async () => {
    handler = (_request, response) => {
      response.writeHead(204);
      response.end();
    };
    await expect(client().deleteDocument('doc_1')).resolves.toBeUndefined();
    expect(received[0]).toMatchObject({ method: 'DELETE', url: '/api/v1/documents/doc_1' });
  });

  it('uploads a file as multipart with its fields', async () => {
    handler = (_request, response) =>
      json(response, 202, { document: document('PENDING', 0), job, deduplicated: false });
    const result = await client().uploadDocument({
      collection: 'laws',
      file: new TextEncoder().encode('# Pasal 1\n'),
      filename: 'uu.md',
      fiscal_year: 2009,
      title: 'UU 22/2009',
    });
    expect(result).toMatchObject({ deduplicated: false, job: { status: 'QUEUED' } });
    const request = received[0]!;
    const form = await new Response(new Uint8Array(request.body), {
      headers: { 'content-type': String(request.headers['content-type']) },
    }).formData();
    expect(form.get('collection')).toBe('laws');
    expect(form.get('fiscal_year')).toBe('2009');
    expect(form.get('title')).toBe('UU 22/2009');
    expect(form.has('language')).toBe(false);
    const file = form.get('file') as File;
    expect(file.name).toBe('uu.md');
    expect(await file.text()).toBe('# Pasal 1\n');
  });

  it('uploads a large file in three steps, sending the bytes without the key', async () => {
    handler = (request, response) => {
      if (request.url === '/api/v1/uploads')
        return json(response, 201, {
          upload: { id: 'upl_1', status: 'CREATED', expires_at: '2025-01-01T01:00:00Z' },
          upload_url: `${baseUrl}/api/v1/uploads/upl_1/content?token=one-use`,
          method: 'PUT',
        });
      if (request.method === 'PUT')
        return json(response, 200, { upload: { id: 'upl_1', status: 'UPLOADED', size: 4, sha256: '00' } });
      return json(response, 202, { document: document('PENDING', 0), job, deduplicated: false });
    };
    const result = await client().uploadLarge({
      collection: 'laws',
      filename: 'big.pdf',
      file: new Uint8Array([1, 2, 3, 4]),
    });
    expect(result.document.status).toBe('PENDING');
    expect(received.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /api/v1/uploads',
      'PUT /api/v1/uploads/upl_1/content?token=one-use',
      'POST /api/v1/uploads/upl_1/process',
    ]);
    expect(JSON.parse(received[0]!.body.toString())).toEqual({
      collection: 'laws',
      filename: 'big.pdf',
      size: 4,
    });
    expect(received[1]!.headers['authorization']).toBeUndefined();
    expect(received[1]!.headers['x-saksi-workspace']).toBeUndefined();
    expect([...received[1]!.body]).toEqual([1, 2, 3, 4]);
    expect(received[2]!.headers['authorization']).toBe(`Bearer ${KEY}`);
  });

  it('asks chat for JSON, not a stream', async () => {
    handler = (_request, response) =>
      json(response, 200, { session_id: 'ses_1', answer: 'Ya.', found: true });
    const answer = await client().chat({ collection: 'laws', question: 'Apa?' });
    expect(answer.session_id).toBe('ses_1');
    expect(JSON.parse(received[0]!.body.toString())).toMatchObject({ question: 'Apa?', stream: false });
  });
});

describe('errors', () => {
  it('carries the code, status, message and Indonesian message of an error reply', async () => {
    handler = (_request, response) =>
      json(response, 404, {
        error: { code: 'NOT_FOUND', message: 'No document doc_x.', message_id: 'Tidak ada.' },
      });
    const error = await failure(client().getDocument('doc_x'));
    expect(error).toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
      message: 'No document doc_x.',
      messageId: 'Tidak ada.',
    });
    expect(error.retryAfterSeconds).toBeUndefined();
  });

  it('reads Retry-After of a 429 as seconds, in either form', async () => {
    handler = (_request, response) =>
      json(
        response,
        429,
        { error: { code: 'RATE_LIMITED', message: 'Slow down.' } },
        { 'retry-after': '42' },
      );
    expect(await failure(client().query({ collection: 'laws', question: 'Apa?' }))).toMatchObject({
      code: 'RATE_LIMITED',
      status: 429,
      retryAfterSeconds: 42,
    });
    const later = new Date(Date.now() + 120_000).toUTCString();
    handler = (_request, response) =>
      json(
        response,
        429,
        { error: { code: 'RATE_LIMITED', message: 'Slow down.' } },
        { 'retry-after': later },
      );
    const error = await failure(client().health());
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(118);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(120);
  });

  it('calls a reply that is not a Saksi error or not JSON BAD_RESPONSE', async () => {
    handler = (_request, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<h1>Bad gateway</h1>');
    };
    expect(await failure(client().health())).toMatchObject({ code: 'BAD_RESPONSE', status: 502 });
    handler = (_request, response) => json(response, 500, { message: 'no error object' });
    expect(await failure(client().health())).toMatchObject({ code: 'BAD_RESPONSE', status: 500 });
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('ok');
    };
    expect(await failure(client().health())).toMatchObject({ code: 'BAD_RESPONSE', status: 200 });
  });

  it('calls a refused connection NETWORK_ERROR and a slow reply TIMEOUT', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(new SaksiClient({ baseUrl: `http://127.0.0.1:${port}` }).health());
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
    expect(error.cause).toBeDefined();

    handler = (_request, response) => {
      setTimeout(() => json(response, 200, {}), 1_000).unref();
    };
    expect(await failure(client({ apiKey: KEY, timeoutMs: 50 }).health())).toMatchObject({
      code: 'TIMEOUT',
      status: 0,
    });
  });
});

describe('waitForDocument', () => {
  it('polls until the document is READY, reporting progress', async () => {
    const states: [DocumentStatus, number][] = [
      ['PENDING', 0],
      ['PROCESSING', 0.4],
      ['PROCESSING', 0.8],
      ['READY', 1],
    ];
    let call = 0;
    handler = (_request, response) => {
      const [status, progress] = states[Math.min(call++, states.length - 1)]!;
      json(response, 200, document(status, progress));
    };
    const seen: number[] = [];
    const ready = await client().waitForDocument('doc_1', {
      intervalMs: 5,
      onProgress: (polled) => seen.push(polled.progress),
    });
    expect(ready.status).toBe('READY');
    expect(seen).toEqual([0, 0.4, 0.8, 1]);
    expect(received.every((request) => request.url === '/api/v1/documents/doc_1')).toBe(true);
  });

  it('returns a FAILED document and gives up with TIMEOUT on one that never finishes', async () => {
    handler = (_request, response) =>
      json(response, 200, { ...document('FAILED', 0.2), error: { code: 'NO_TEXT', message: 'No text.' } });
    expect(await client().waitForDocument('doc_1', { intervalMs: 5 })).toMatchObject({
      status: 'FAILED',
      error: { code: 'NO_TEXT' },
    });
    handler = (_request, response) => json(response, 200, document('PROCESSING', 0.5));
    expect(await failure(client().waitForDocument('doc_1', { intervalMs: 5, timeoutMs: 40 }))).toMatchObject({
      code: 'TIMEOUT',
    });
    expect(received.length).toBeGreaterThan(2);
  });

  it('stops at the first error reply', async () => {
    handler = (_request, response) =>
      json(response, 404, { error: { code: 'NOT_FOUND', message: 'No document.' } });
    expect(await failure(client().waitForDocument('doc_x', { intervalMs: 5 }))).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(received).toHaveLength(1);
  });
});
