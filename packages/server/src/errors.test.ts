import { type Engine, EngineError, IngestError } from '@saksi/engine';
import { bearer, storedChunks, testApiKey, waitForDocument } from '@saksi/test-support/api-key';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { toErrorResponse } from './errors.js';
import { createLogger } from './observability.js';

/** The upload limit of this file's engine: small, so "too large" is cheap to send. */
const LIMIT = 4_096;

let test: TestEngine;
let app: Hono;
/** The API key header: documents and query need one (chat on an unknown collection does not). */
let auth: Record<string, string>;

interface ErrorJson {
  error: { code: string; message: string; request_id?: string };
}

/** Awaits a response and checks the error envelope (any 4xx when `status` is not given): exactly `{error: {code, message}}`, no stack. */
async function expectError(
  response: Response | Promise<Response>,
  status?: number,
  code?: string,
): Promise<ErrorJson> {
  const resolved = await response;
  const text = await resolved.text();
  if (status === undefined) {
    expect(resolved.status, text).toBeGreaterThanOrEqual(400);
    expect(resolved.status, text).toBeLessThan(500);
  } else {
    expect(resolved.status, text).toBe(status);
  }
  expect(resolved.headers.get('content-type')).toContain('application/json');
  expect(text).not.toMatch(/\n\s+at |\.ts:\d+/);
  const body = JSON.parse(text) as ErrorJson;
  expect(Object.keys(body)).toEqual(['error']);
  // An internal error also names its request, for the logs (docs/operations.md).
  expect(Object.keys(body.error).sort()).toEqual(
    code === 'INTERNAL' ? ['code', 'message', 'request_id'] : ['code', 'message'],
  );
  expect(body.error.message.length).toBeGreaterThan(0);
  if (code !== undefined) expect(body.error.code).toBe(code);
  return body;
}

const postJson = (url: string, body: string, headers: Record<string, string> = {}) =>
  app.request(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });

/** A request with the API key. */
const keyed = (url: string, init: RequestInit = {}) =>
  app.request(url, { ...init, headers: { ...auth, ...(init.headers as Record<string, string>) } });

function uploadForm(bytes: Uint8Array, filename: string, collection = 'files'): FormData {
  const form = new FormData();
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], filename));
  form.set('collection', collection);
  form.set('language', 'en');
  return form;
}

const upload = (form: FormData, headers: Record<string, string> = {}) =>
  keyed('/api/v1/documents', { method: 'POST', body: form, headers });

/** Documents in `status` (all when not given). */
async function documentCount(status?: string): Promise<number> {
  const response = await keyed(`/api/v1/documents${status ? `?status=${status}` : ''}`);
  return ((await response.json()) as { total: number }).total;
}

beforeAll(async () => {
  test = await openTestEngine({ env: { SAKSI_MAX_UPLOAD_BYTES: String(LIMIT) } });
  test.engine.workers.start({ pollMs: 50 });
  app = createApp(test.engine);
  auth = bearer(await testApiKey(test.engine));
});

afterAll(async () => {
  await test?.close();
});

describe('an empty log', () => {
  it('has no checkpoint yet (404) and no proofs (400)', async () => {
    await expectError(app.request('/api/v1/log/checkpoint'), 404, 'NOT_FOUND');
    await expectError(app.request('/api/v1/log/checkpoint.txt'), 404, 'NOT_FOUND');
    await expectError(app.request('/api/v1/log/proof/inclusion?leaf_index=0'), 400, 'INVALID_INPUT');
  });
});

describe('bad JSON and bad fields', () => {
  it('rejects bodies that are not JSON with INVALID_JSON', async () => {
    await expectError(postJson('/api/v1/chat', '{"collection": "docs", "question": '), 400, 'INVALID_JSON');
    await expectError(postJson('/api/v1/chat', ''), 400, 'INVALID_JSON');
    await expectError(postJson('/api/v1/query', '{"a": 1, "a": 2}', auth), 400, 'INVALID_JSON');
    await expectError(
      app.request('/api/v1/chat', { method: 'POST', body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) }),
      400,
      'INVALID_JSON',
    );
    await expectError(postJson('/api/v1/verify', 'not json'), 400, 'INVALID_JSON');
  });

  it('rejects missing or malformed fields with INVALID_INPUT', async () => {
    await expectError(postJson('/api/v1/chat', '{"collection": "docs"}'), 400, 'INVALID_INPUT');
    await expectError(postJson('/api/v1/chat', '{"question": "What is a reducer?"}'), 400, 'INVALID_INPUT');
    await expectError(
      postJson('/api/v1/chat', '{"collection": "docs", "question": "   "}'),
      400,
      'INVALID_INPUT',
    );
    await expectError(
      postJson('/api/v1/chat', '{"collection": "docs", "question": "x", "top_k": 0}'),
      400,
      'INVALID_INPUT',
    );
    await expectError(
      postJson('/api/v1/chat', '{"collection": "docs", "question": "x", "mode": "selection"}'),
      400,
      'INVALID_INPUT',
    );
    await expectError(
      postJson('/api/v1/chat', '{"collection": "docs", "question": "a\\u0000b"}'),
      400,
      'INVALID_INPUT',
    );
    // A lone surrogate cannot be canonicalized (RFC 8785) or stored: the strict JSON parser refuses it.
    await expectError(
      postJson('/api/v1/chat', '{"collection": "docs", "question": "a\\ud800b"}'),
      400,
      'INVALID_JSON',
    );
    await expectError(postJson('/api/v1/chat', '["collection", "question"]'), 400, 'INVALID_INPUT');
    await expectError(
      postJson('/api/v1/query', '{"collection": "Not A Name!", "question": "x"}', auth),
      400,
      'INVALID_INPUT',
    );
    await expectError(
      postJson('/api/v1/query', `{"collection": "docs", "question": "${'x'.repeat(4_001)}"}`, auth),
      400,
      'INVALID_INPUT',
    );
    await expectError(postJson('/api/v1/verify', '[1, 2]'), 400, 'INVALID_INPUT');
    await expectError(keyed('/api/v1/documents?limit=0'), 400, 'INVALID_INPUT');
    await expectError(keyed('/api/v1/documents?offset=-1'), 400, 'INVALID_INPUT');
    await expectError(keyed('/api/v1/documents?status=WHATEVER'), 400, 'INVALID_INPUT');
    await expectError(app.request('/api/v1/log/proof/inclusion'), 400, 'INVALID_INPUT');
    await expectError(app.request('/api/v1/log/proof/inclusion?leaf_index=abc'), 400, 'INVALID_INPUT');
    await expectError(app.request('/api/v1/log/proof/consistency?first=0'), 400, 'INVALID_INPUT');
  });

  it('caps JSON bodies', async () => {
    const huge = JSON.stringify({ collection: 'docs', question: 'x', padding: 'y'.repeat(1_100_000) });
    await expectError(postJson('/api/v1/chat', huge), 413, 'BODY_TOO_LARGE');
  });

  it('returns a failed verification (200), not an error, for a bundle that does not check out', async () => {
    const response = await postJson(
      '/api/v1/verify',
      '{"certificate": {"schema": "x"}, "signature": "AA==", "log": {}, "chunks": []}',
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { verdict: string }).verdict).toBe('failed');
  });
});

describe('unknown things are 404 NOT_FOUND', () => {
  it('routes, collections, documents and certificates', async () => {
    await expectError(app.request('/api/v1/nope'), 404, 'NOT_FOUND');
    await expectError(app.request('/api/v1/health', { method: 'PUT' }), 404, 'NOT_FOUND');
    await expectError(
      postJson('/api/v1/chat', '{"collection": "no-such-collection", "question": "x"}'),
      404,
      'NOT_FOUND',
    );
    await expectError(
      app.request('/api/v1/chat', {
        method: 'POST',
        headers: { accept: 'text/event-stream' },
        body: '{"collection": "no-such-collection", "question": "x"}',
      }),
      404,
      'NOT_FOUND',
    );
    await expectError(
      postJson('/api/v1/query', '{"collection": "no-such-collection", "question": "x"}', auth),
      404,
      'NOT_FOUND',
    );
    await expectError(keyed('/api/v1/documents?collection=no-such-collection'), 404, 'NOT_FOUND');
    await expectError(keyed('/api/v1/documents/doc_0000'), 404, 'NOT_FOUND');
    await expectError(keyed('/api/v1/documents/doc%000'), 404, 'NOT_FOUND');
    await expectError(keyed('/api/v1/documents/doc_0000', { method: 'DELETE' }), 404, 'NOT_FOUND');
    await expectError(
      app.request('/api/v1/certificates/0190f5a4-0000-7000-8000-000000000000'),
      404,
      'NOT_FOUND',
    );
    await expectError(app.request('/api/v1/certificates/..%2F..%2Fetc'), 404, 'NOT_FOUND');
  });
});

describe('uploads', () => {
  it('refuses a file over the limit with 413 FILE_TOO_LARGE, by header or by counting', async () => {
    await expectError(
      upload(uploadForm(new Uint8Array(LIMIT + 1).fill(0x61), 'big.txt')),
      413,
      'FILE_TOO_LARGE',
    );
    // A declared Content-Length over the limit is refused before the body is read.
    await expectError(
      upload(uploadForm(new Uint8Array(10).fill(0x61), 'small.txt'), { 'content-length': '999999999' }),
      413,
      'FILE_TOO_LARGE',
    );
    // Without a length, reading stops once the limit is passed: an endless body still ends in 413.
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(1_024).fill(0x61));
      },
    });
    await expectError(
      keyed('/api/v1/documents', {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        body: endless,
        duplex: 'half',
      } as RequestInit),
      413,
      'FILE_TOO_LARGE',
    );
    expect(pulled).toBeLessThan(200);
  });

  it('refuses a missing file, a non-multipart body and an invalid collection name', async () => {
    const noFile = new FormData();
    noFile.set('collection', 'files');
    await expectError(upload(noFile), 400, 'INVALID_INPUT');
    const textInsteadOfFile = new FormData();
    textInsteadOfFile.set('collection', 'files');
    textInsteadOfFile.set('file', 'just a string');
    await expectError(upload(textInsteadOfFile), 400, 'INVALID_INPUT');
    await expectError(
      upload(uploadForm(new TextEncoder().encode('# x\n\ny\n'), 'a.md', 'Bad Name')),
      400,
      'INVALID_INPUT',
    );
    const fiscal = uploadForm(new TextEncoder().encode('# x\n\ny\n'), 'a.md');
    fiscal.set('fiscal_year', 'last year');
    await expectError(upload(fiscal), 400, 'INVALID_INPUT');
    await expectError(postJson('/api/v1/documents', '{"file": "x"}', auth), 415, 'UNSUPPORTED_MEDIA_TYPE');
    await expectError(
      keyed('/api/v1/documents', {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=abc' },
        body: 'this is not multipart',
      }),
      400,
      'INVALID_INPUT',
    );
  });

  it('fails a binary file named .pdf with a code and no chunks, refuses an empty file; the next upload works', async () => {
    const before = await documentCount();
    const readyBefore = await documentCount('READY');
    // Parsing happens in the worker: the upload is accepted, the document ends FAILED with the parser's code.
    const failed = async (bytes: Uint8Array, filename: string) => {
      const accepted = await upload(uploadForm(bytes, filename));
      expect(accepted.status).toBe(202);
      const id = ((await accepted.json()) as { document: { id: string } }).document.id;
      const document = await waitForDocument(app, id, auth);
      expect(document['status']).toBe('FAILED');
      expect(Object.keys(document['error']).sort()).toEqual(['code', 'message']);
      expect(document['error'].message.length).toBeGreaterThan(0);
      expect(document['error'].message).not.toMatch(/\n\s+at |\.ts:\d+/);
      expect(document['chunk_count']).toBe(0);
      expect(await storedChunks(test.engine, id)).toBe(0);
      const chunks = await keyed(`/api/v1/documents/${id}/chunks`);
      expect(((await chunks.json()) as { items: unknown[] }).items).toEqual([]);
      return document['error'].code as string;
    };
    const binary = new Uint8Array(512);
    for (let i = 0; i < binary.length; i += 1) binary[i] = (i * 37 + 11) % 256;
    expect(['MALFORMED_FILE', 'UNSUPPORTED_TYPE']).toContain(await failed(binary, 'report.pdf'));
    const elf = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Uint8Array(64)]);
    expect(['MALFORMED_FILE', 'UNSUPPORTED_TYPE']).toContain(await failed(elf, 'program.pdf'));
    // A 0-byte file is still refused at once, with the documented code.
    const empty = await expectError(upload(uploadForm(new Uint8Array(0), 'empty.md')), 422);
    expect(empty.error.code).toBe('EMPTY_FILE');
    expect(empty.error.message).toMatch(/empty/i);
    // Only the two failed documents were recorded: nothing half-ingested, nothing for the empty file.
    expect(await documentCount()).toBe(before + 2);
    expect(await documentCount('FAILED')).toBe(2);
    expect(await documentCount('READY')).toBe(readyBefore);

    const good = await upload(
      uploadForm(new TextEncoder().encode('# Notes\n\nA good upload after bad ones.\n'), 'notes.md'),
    );
    expect(good.status).toBe(202);
    const id = ((await good.json()) as { document: { id: string } }).document.id;
    expect((await waitForDocument(app, id, auth))['status']).toBe('READY');
    expect(await storedChunks(test.engine, id)).toBeGreaterThan(0);
    expect(await documentCount('READY')).toBe(readyBefore + 1);
  });
});

describe('errors after a stream has started', () => {
  it('end the stream with an error event and no bundle', async () => {
    // The collection "files" exists once the good upload above went through.
    // "files" is not public: the chat presents the key.
    const response = await keyed('/api/v1/chat', {
      method: 'POST',
      headers: { accept: 'text/event-stream' },
      body: JSON.stringify({
        collection: 'files',
        question: 'What is in the notes?',
        session_id: 'ses_unknown',
      }),
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toMatch(/\n\s+at /);
    const events = text
      .split('\n\n')
      .filter((block) => block.trim() !== '')
      .map((block) => ({
        event: /^event: (.*)$/m.exec(block)?.[1],
        data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as { code?: string; message?: string },
      }));
    expect(events.map((event) => event.event)).toEqual(['error']);
    expect(events[0]!.data.code).toBe('NOT_FOUND');
    expect(Object.keys(events[0]!.data).sort()).toEqual(['code', 'message']);
  });
});

describe('unexpected failures', () => {
  it('become 500 INTERNAL with a generic message and a request id; the details go to the log only', async () => {
    const broken = {
      config: {
        allowedOrigins: [],
        rateLimits: { perKeyPerMinute: 0, perIpPerMinute: 0, publicChatPerHour: 0 },
      },
      health: async () => {
        throw new Error('connection to /secret/path refused');
      },
    } as unknown as Engine;
    const lines: string[] = [];
    const app = createApp(broken, { logger: createLogger('error', (line) => lines.push(line)) });
    const body = await expectError(app.request('/api/v1/health'), 500, 'INTERNAL');
    expect(body.error.message).not.toContain('secret');
    expect(body.error.request_id).toMatch(/^req_[0-9a-f]{24}$/);
    const [line] = lines.map((text) => JSON.parse(text));
    expect(line).toMatchObject({
      level: 'error',
      msg: 'request failed',
      request_id: body.error.request_id,
      route: '/api/v1/health',
      error: { name: 'Error', message: 'connection to /secret/path refused' },
    });
  });
});

describe('toErrorResponse', () => {
  it('maps engine and ingestion errors to their status and the most precise code', () => {
    const unsupported = new EngineError('INGEST_FAILED', 'photo.png is a PNG image.', {
      cause: new IngestError('UNSUPPORTED_TYPE', 'photo.png is a PNG image.'),
      status: 415,
    });
    expect(toErrorResponse(unsupported)).toMatchObject({
      status: 415,
      body: { error: { code: 'UNSUPPORTED_TYPE' } },
      internal: false,
    });
    expect(toErrorResponse(new EngineError('INVALID_INPUT', 'too big', { status: 413 }))).toMatchObject({
      status: 413,
      body: { error: { code: 'FILE_TOO_LARGE' } },
    });
    expect(toErrorResponse(new EngineError('NOT_FOUND', 'No document x.'))).toMatchObject({
      status: 404,
      body: { error: { code: 'NOT_FOUND' } },
    });
    const database = toErrorResponse(
      new EngineError('DATABASE_ERROR', 'password authentication failed for user saksi'),
    );
    expect(database).toMatchObject({
      status: 500,
      body: { error: { code: 'DATABASE_ERROR' } },
      internal: true,
    });
    expect(database.body.error.message).not.toContain('password');
    expect(toErrorResponse(new IngestError('NO_TEXT', 'scanned'))).toMatchObject({
      status: 422,
      body: { error: { code: 'NO_TEXT' } },
    });
    expect(toErrorResponse(new TypeError('x is undefined'))).toMatchObject({
      status: 500,
      body: { error: { code: 'INTERNAL' } },
      internal: true,
    });
    expect(toErrorResponse('a string')).toMatchObject({ status: 500, internal: true });
  });
});
