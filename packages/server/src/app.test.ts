import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type Bundle,
  fromHex,
  hashLeaf,
  logLeafInput,
  parseCheckpoint,
  parseNote,
  verifyConsistencyProof,
  verifyInclusionProof,
} from '@saksi/proof';
import { bearer, testApiKey, waitForDocument } from '@saksi/test-support/api-key';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { type Json, parseSse } from '@saksi/test-support/sse-events';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy, createApp } from './app.js';
import { startServer } from './serve.js';

const shared = path.resolve(import.meta.dirname, '../../../../shared/data');
const readShared = (relative: string) => new Uint8Array(readFileSync(path.join(shared, relative)));
const reduxCompose = readShared('corpora/docs-redux/docs/api/compose.md');
const reduxCombine = readShared('corpora/docs-redux/docs/api/combineReducers.md');
/** BAB XX (Ketentuan Pidana) of UU 22/2009 up to Pasal 289: Pasal 287 is in it. */
const uuPidana = new TextEncoder().encode(
  new TextDecoder()
    .decode(readShared('corpora/uu-22-2009-llaj/uu-22-2009-llaj.fulltext.md'))
    .split('\n')
    .slice(1736, 1800)
    .join('\n'),
);

let test: TestEngine;
let app: Hono;
/** The API key header of the data routes (documents, query, collections of the workspace). */
let auth: Record<string, string>;

async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const response = await app.request(url, init);
  const text = await response.text();
  expect(text).not.toMatch(/\n\s+at /); // never a stack trace
  const type = response.headers.get('content-type') ?? '';
  return {
    status: response.status,
    type,
    text,
    json: (type.includes('json') ? JSON.parse(text) : null) as Json,
  };
}

function upload(bytes: Uint8Array, filename: string, fields: Record<string, string>) {
  const form = new FormData();
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], filename));
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  return call('POST', '/api/v1/documents', form, auth);
}

/** Uploads a file: accepted (202, PENDING), then READY once the worker has ingested it. */
async function ingest(bytes: Uint8Array, filename: string, fields: Record<string, string>) {
  const accepted = await upload(bytes, filename, fields);
  expect(accepted.status, accepted.text).toBe(202);
  expect(accepted.json).toMatchObject({ document: { status: 'PENDING' }, deduplicated: false });
  const document = await waitForDocument(app, accepted.json['document'].id, auth);
  expect(document['status'], JSON.stringify(document['error'])).toBe('READY');
  return document;
}

function checkpointOf(note: string) {
  return parseCheckpoint(parseNote(note).text);
}

/** Parses a complete `text/event-stream` body into events. */

const documentIds: Record<string, string> = {};

beforeAll(async () => {
  test = await openTestEngine();
  test.engine.workers.start({ pollMs: 50 });
  app = createApp(test.engine);
  auth = bearer(await testApiKey(test.engine));
  const docs = await ingest(reduxCompose, 'compose.md', {
    collection: 'docs',
    language: 'en',
    document_type: 'guide',
  });
  documentIds['compose'] = docs['id'];
  const law = await ingest(uuPidana, 'uu-22-2009-bab-xx.md', {
    collection: 'lalu-lintas',
    language: 'id',
    title: 'UU 22/2009 BAB XX',
    document_type: 'undang-undang',
    fiscal_year: '2009',
    source: 'https://peraturan.go.id/',
  });
  documentIds['law'] = law['id'];
  // The chat below is the public one (no key), like the web app's on the demo collections.
  await test.engine.collections.configure('docs', { public: true });
  await test.engine.collections.configure('lalu-lintas', { public: true });
});

afterAll(async () => {
  await test?.close();
});

describe('health, collections, documents', () => {
  it('reports health', async () => {
    const response = await call('GET', '/api/v1/health');
    expect(response.status).toBe(200);
    expect(response.json['status']).toBe('ok');
    expect(response.json['database'].ok).toBe(true);
  });

  it('lists collections with their languages and document counts', async () => {
    const response = await call('GET', '/api/v1/collections', undefined, auth);
    expect(response.status).toBe(200);
    const byName = Object.fromEntries(response.json['items'].map((item: Json) => [item['name'], item]));
    expect(byName['docs']).toMatchObject({ language: 'en', documents: 1 });
    expect(byName['lalu-lintas']).toMatchObject({ language: 'id', documents: 1 });
    // Title, description and examples are always there (empty when the collection has none).
    expect(byName['docs']).toMatchObject({ title: {}, description: {}, examples: {} });
  });

  it('lists the title, description and example questions a collection is given', async () => {
    await test.engine.collections.configure('lalu-lintas', {
      title: { id: 'Lalu lintas', en: 'Traffic law' },
      description: { id: 'UU 22/2009.', en: 'The traffic act.' },
      examples: { id: ['Berapa denda tanpa helm?'], en: ['What is the fine for riding without a helmet?'] },
    });
    try {
      const response = await call('GET', '/api/v1/collections');
      const item = response.json['items'].find((entry: Json) => entry['name'] === 'lalu-lintas');
      expect(item).toMatchObject({
        title: { id: 'Lalu lintas', en: 'Traffic law' },
        description: { id: 'UU 22/2009.', en: 'The traffic act.' },
        examples: { en: ['What is the fine for riding without a helmet?'] },
      });
    } finally {
      await test.engine.collections.configure('lalu-lintas', {
        title: null,
        description: null,
        examples: null,
      });
    }
  });

  it('lists documents with filters and paging, and gets one by id', async () => {
    const all = await call('GET', '/api/v1/documents', undefined, auth);
    expect(all.status).toBe(200);
    expect(all.json).toMatchObject({ total: 2, limit: 20, offset: 0 });
    const law = await call(
      'GET',
      '/api/v1/documents?collection=lalu-lintas&fiscal_year=2009&document_type=undang-undang',
      undefined,
      auth,
    );
    expect(law.json['total']).toBe(1);
    expect(law.json['items'][0]).toMatchObject({
      id: documentIds['law'],
      title: 'UU 22/2009 BAB XX',
      status: 'READY',
      fiscal_year: 2009,
      source: 'https://peraturan.go.id/',
    });
    const paged = await call('GET', '/api/v1/documents?limit=1&offset=1', undefined, auth);
    expect(paged.json).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(paged.json['items']).toHaveLength(1);
    const one = await call('GET', `/api/v1/documents/${documentIds['compose']}`, undefined, auth);
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({
      id: documentIds['compose'],
      collection: 'docs',
      filename: 'compose.md',
      document_type: 'guide',
    });
    expect(one.json['root']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('dedupes the same bytes (200, same document) and deletes documents (204, then 404)', async () => {
    const again = await upload(reduxCompose, 'renamed.md', { collection: 'docs' });
    expect(again.status).toBe(200);
    expect(again.json['deduplicated']).toBe(true);
    expect(again.json['document'].id).toBe(documentIds['compose']);
    expect(again.json['document'].status).toBe('READY');

    const extra = await ingest(reduxCombine, 'combineReducers.md', { collection: 'docs' });
    const id = extra['id'] as string;
    expect((await call('DELETE', `/api/v1/documents/${id}`, undefined, auth)).status).toBe(204);
    expect((await call('GET', `/api/v1/documents/${id}`, undefined, auth)).json['error'].code).toBe(
      'NOT_FOUND',
    );
    expect((await call('DELETE', `/api/v1/documents/${id}`, undefined, auth)).status).toBe(404);
  });

  it('needs an API key for the documents and lists only public collections without one', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/documents'],
      ['GET', `/api/v1/documents/${documentIds['compose']}`],
      ['DELETE', `/api/v1/documents/${documentIds['compose']}`],
    ] as const) {
      const response = await call(method, url);
      expect(response.status, `${method} ${url}`).toBe(401);
      expect(response.json['error'].code).toBe('UNAUTHENTICATED');
    }
    await test.engine.ingest('private-notes', {
      bytes: new TextEncoder().encode('# Private\n\nOnly key holders see this collection.\n'),
      filename: 'private.md',
    });
    const anonymous = await call('GET', '/api/v1/collections');
    expect(anonymous.status).toBe(200);
    const names = anonymous.json['items'].map((item: Json) => item['name']);
    expect(names).toEqual(expect.arrayContaining(['docs', 'lalu-lintas']));
    expect(names).not.toContain('private-notes');
    const keyed = await call('GET', '/api/v1/collections', undefined, auth);
    expect(keyed.json['items'].map((item: Json) => item['name'])).toContain('private-notes');
  });
});

describe('query', () => {
  it('returns ranked chunks with citations, parent context and timings', async () => {
    const response = await call(
      'POST',
      '/api/v1/query',
      {
        collection: 'lalu-lintas',
        question: 'Berapa denda melanggar Alat Pemberi Isyarat Lalu Lintas?',
        top_k: 3,
        ignored_field: true,
      },
      auth,
    );
    expect(response.status, response.text).toBe(200);
    const results = response.json['results'] as Json[];
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(3);
    // The slice starts at Pasal 273, so the engine indexes it as plain text (its Pasal parser needs the
    // numbering from Pasal 1); the passage of Pasal 287 ayat (2) is still what comes back.
    expect(results.some((result) => result['text'].includes('Alat Pemberi Isyarat Lalu Lintas'))).toBe(true);
    for (const result of results) {
      expect(typeof result['id']).toBe('string');
      expect(result).not.toHaveProperty('chunk_id');
      expect(result['document_id']).toBe(documentIds['law']);
      expect(result['chunk_hash']).toMatch(/^[0-9a-f]{64}$/);
      expect(result['citation'].document_title).toBe('UU 22/2009 BAB XX');
      expect(result['citation'].document_name).toBe('uu-22-2009-bab-xx.md');
      expect(Array.isArray(result['citation'].section_path)).toBe(true);
      expect(result['citation']).toHaveProperty('section_header');
      expect(typeof result['score']).toBe('number');
      expect(typeof result['context'].before).toBe('string');
      expect(typeof result['context'].after).toBe('string');
      expect(result).toHaveProperty('table_html');
      expect(result['proof']).toMatchObject({ root: result['document'].root });
      expect(result['proof'].leaf_index).toBeLessThan(result['proof'].tree_size);
      expect(Array.isArray(result['proof'].path)).toBe(true);
    }
    expect(response.json['timings'].total_ms).toBeGreaterThan(0);
    expect(typeof response.json['hybrid']).toBe('boolean');
    expect(response.json['tokens'].question).toBeGreaterThan(0);
    expect(response.json['parameters']).toMatchObject({ top_k: 3 });
  });

  it('needs an API key', async () => {
    const response = await call('POST', '/api/v1/query', {
      collection: 'lalu-lintas',
      question: 'Berapa denda melanggar Alat Pemberi Isyarat Lalu Lintas?',
    });
    expect(response.status).toBe(401);
    expect(response.json['error'].code).toBe('UNAUTHENTICATED');
  });
});

describe('chat, certificates and the log', () => {
  const question = 'Berapa denda melanggar Alat Pemberi Isyarat Lalu Lintas?';
  let first: Json;

  it('answers as JSON with a bundle that verifies and matches the log checkpoint', async () => {
    const response = await call('POST', '/api/v1/chat', {
      collection: 'lalu-lintas',
      question,
      page_url: 'https://example.org/',
    });
    expect(response.status, response.text).toBe(200);
    first = response.json;
    expect(first['session_id']).toMatch(/^ses_/);
    expect(first['found']).toBe(true);
    expect(first['answer']).toContain('Rp500.000,00');
    expect(first['results'][0]).toHaveProperty('snippet');
    expect(first['results'][0]['kind']).toBe('text');
    expect(first['results'][0]).not.toHaveProperty('proof_path');
    // The server's view of the signed certificate: its outcome, and whether its answer check passes.
    const verdict = first['verdict'];
    expect(verdict['view']).toBe('server');
    expect(['answered', 'related', 'refused']).toContain(verdict['outcome']);
    expect(verdict['answers_question']).toBe(verdict['outcome'] === 'answered');
    const certificate = first['bundle'].certificate;
    const check = certificate.answer.check;
    if (check !== undefined) {
      expect(verdict['check']).toEqual({
        score: check.score,
        threshold: check.threshold,
        alpha: check.alpha,
        method: check.method,
      });
      expect(verdict['answers_question']).toBe(
        certificate.answer.outcome === 'answered' && check.score >= check.threshold,
      );
    } else expect(verdict).not.toHaveProperty('check');
    expect(verdict['outcome'] === 'refused').toBe(certificate.answer.outcome === 'refused');

    const verification = await call('POST', '/api/v1/verify', first['bundle']);
    expect(verification.status).toBe(200);
    expect(verification.json['verdict']).toBe('verified');
    const wrapped = await call('POST', '/api/v1/verify', { bundle: first['bundle'], question });
    expect(wrapped.json['verdict']).toBe('verified');
    const replayed = await call('POST', '/api/v1/verify', {
      bundle: first['bundle'],
      question: 'Something else?',
    });
    expect(replayed.status).toBe(200);
    expect(replayed.json['verdict']).toBe('failed');
    expect(replayed.json['codes']).toContain('QUERY_MISMATCH');

    const checkpoint = await call('GET', '/api/v1/log/checkpoint');
    expect(checkpoint.status).toBe(200);
    const bundled = checkpointOf(first['bundle'].log.checkpoint);
    expect(checkpoint.json['size']).toBe(bundled.size);
    expect(checkpoint.json['root_hash']).toBe(Buffer.from(bundled.rootHash).toString('hex'));

    const note = await call('GET', '/api/v1/log/checkpoint.txt');
    expect(note.status).toBe(200);
    expect(note.type).toContain('text/plain');
    expect(note.text.startsWith(checkpoint.json['checkpoint'])).toBe(true);
    const cosigned = parseNote(note.text);
    expect(cosigned.signatures).toHaveLength(1 + checkpoint.json['cosignatures'].length);
    expect(parseCheckpoint(cosigned.text).size).toBe(bundled.size);
  });

  it('continues the session, and serves the bundle again by certificate id', async () => {
    const id = first['bundle'].certificate.certificate_id as string;
    const stored = await call('GET', `/api/v1/certificates/${id}`);
    expect(stored.status).toBe(200);
    expect(stored.json).toEqual(first['bundle']);

    const followUp = await call('POST', '/api/v1/chat', {
      collection: 'lalu-lintas',
      message: 'Berapa lama pidana kurungan untuk pelanggaran rambu?',
      session_id: first['session_id'],
    });
    expect(followUp.status, followUp.text).toBe(200);
    expect(followUp.json['session_id']).toBe(first['session_id']);
  });

  it('takes the conversation as messages[]: the last user message is the question, the rest context', async () => {
    const response = await call('POST', '/api/v1/chat', {
      collection: 'lalu-lintas',
      messages: [
        { role: 'user', content: question },
        { role: 'assistant', content: first['answer'] },
        { role: 'user', content: 'Kalau pidana kurungannya?' },
      ],
      context: { pageUrl: 'https://example.org/uu-22-2009' },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.json['bundle'].certificate.query.text).toBe('Kalau pidana kurungannya?');
    // The follow-up is read with the client's earlier question: the sanction of the same Pasal.
    expect(response.json['found']).toBe(true);
    expect(response.json['answer']).toMatch(/kurungan paling lama/);

    // Bounded: more messages than allowed, or none from the user, are clear 400s.
    const flood = await call('POST', '/api/v1/chat', {
      collection: 'lalu-lintas',
      messages: Array.from({ length: 10_001 }, () => ({ role: 'user', content: 'a' })),
    });
    expect(flood.status).toBe(400);
    expect(flood.json['error']['code']).toBe('INVALID_INPUT');
    const noQuestion = await call('POST', '/api/v1/chat', {
      collection: 'lalu-lintas',
      messages: [{ role: 'assistant', content: 'Dendanya Rp1,00.' }],
    });
    expect(noQuestion.status).toBe(400);
    expect(noQuestion.json['error']['message']).toMatch(/question/);
  });

  it('streams SSE events in order; the final bundle verifies', async () => {
    const response = await app.request('/api/v1/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ collection: 'docs', question: 'What does compose do?' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = parseSse(await response.text());
    const names = events.map((event) => event.event);
    expect(names[0]).toBe('session');
    expect(names[1]).toBe('retrieval');
    expect(names.slice(-2)).toEqual(['bundle', 'done']);
    expect(names.slice(2, -2).every((name) => name === 'delta')).toBe(true);
    expect(names).not.toContain('error');
    const retrieval = events[1]!.data;
    expect(retrieval['results'][0]).toMatchObject({ rank: 1 });
    expect(retrieval['results'][0]).not.toHaveProperty('text');
    const bundle = events.at(-2)!.data as Bundle;
    const text = events
      .filter((event) => event.event === 'delta')
      .map((event) => event.data['text'])
      .join('');
    expect(text).toBe(bundle.certificate.answer.text);
    expect(events.at(-1)!.data['certificate_id']).toBe(bundle.certificate.certificate_id);
    // The final event carries the server's verdict, read from the bundle it follows.
    const done = events.at(-1)!.data['verdict'];
    expect(done).toMatchObject({ view: 'server' });
    expect(done['answers_question']).toBe(done['outcome'] === 'answered');
    expect(done['outcome'] === 'refused').toBe(bundle.certificate.answer.outcome === 'refused');
    expect((await call('POST', '/api/v1/verify', bundle)).json['verdict']).toBe('verified');

    // ?stream=1 and "stream": true choose SSE too.
    for (const [url, body] of [
      ['/api/v1/chat?stream=1', { collection: 'docs', question: 'What is compose?' }],
      ['/api/v1/chat', { collection: 'docs', question: 'What is compose?', stream: true }],
    ] as const) {
      const streamed = await app.request(url, { method: 'POST', body: JSON.stringify(body) });
      expect(streamed.headers.get('content-type')).toContain('text/event-stream');
      expect(parseSse(await streamed.text()).at(-1)!.event).toBe('done');
    }
  });

  it('serves inclusion and consistency proofs that verify against the checkpoint roots', async () => {
    const latest = await call('GET', '/api/v1/log/checkpoint');
    const size = latest.json['size'] as number;
    const root = fromHex(latest.json['root_hash'], 32);
    const bundle = first['bundle'] as Bundle;
    const old = checkpointOf(bundle.log.checkpoint);
    expect(size).toBeGreaterThan(old.size);

    const inclusion = await call(
      'GET',
      `/api/v1/log/proof/inclusion?leaf_index=${bundle.log.leaf_index}&tree_size=${size}`,
    );
    expect(inclusion.status).toBe(200);
    expect(inclusion.json).toMatchObject({ leaf_index: bundle.log.leaf_index, tree_size: size });
    const leaf = hashLeaf(logLeafInput(bundle.certificate, bundle.signature));
    const path = (inclusion.json['proof'] as string[]).map((node) => fromHex(node, 32));
    expect(verifyInclusionProof(bundle.log.leaf_index, size, leaf, path, root)).toBe(true);
    expect(verifyInclusionProof(bundle.log.leaf_index, size, leaf, path, old.rootHash)).toBe(false);

    const consistency = await call('GET', `/api/v1/log/proof/consistency?first=${old.size}&second=${size}`);
    expect(consistency.status).toBe(200);
    const proof = (consistency.json['proof'] as string[]).map((node) => fromHex(node, 32));
    expect(verifyConsistencyProof(old.size, size, proof, old.rootHash, root)).toBe(true);

    // A client that has seen the newer checkpoint still accepts the older bundle.
    const remembered = await call('POST', '/api/v1/verify', {
      bundle,
      last_checkpoint: latest.json['checkpoint'],
    });
    expect(remembered.json['verdict']).toBe('verified');
  });
});

describe('discovery', () => {
  it('publishes the trusted keys', async () => {
    const response = await call('GET', '/.well-known/saksi-keys.json');
    expect(response.status).toBe(200);
    expect(response.json).toEqual(test.engine.trustedKeys());
    expect(response.json['issuers'].length).toBeGreaterThan(0);
    expect(response.json['logs'][0].origin).toBe(test.engine.log.origin);
  });

  it('serves an OpenAPI 3.1 document listing every route', async () => {
    const response = await call('GET', '/api/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.json['openapi']).toBe('3.1.0');
    const paths = Object.keys(response.json['paths']);
    for (const route of [
      '/api/v1/health',
      '/api/v1/collections',
      '/api/v1/chat',
      '/api/v1/query',
      '/api/v1/documents',
      '/api/v1/documents/{id}',
      '/api/v1/verify',
      '/api/v1/certificates/{id}',
      '/api/v1/log/checkpoint',
      '/api/v1/log/checkpoint.txt',
      '/api/v1/log/proof/inclusion',
      '/api/v1/log/proof/consistency',
      '/.well-known/saksi-keys.json',
    ]) {
      expect(paths).toContain(route);
    }
    for (const schema of ['Error', 'Bundle', 'ChatResponse', 'QueryResponse']) {
      expect(response.json['components'].schemas).toHaveProperty(schema);
    }
    // The generated document inlines the request bodies (no named ChatRequest / QueryRequest).
    for (const route of ['/api/v1/chat', '/api/v1/query']) {
      const body = response.json['paths'][route].post.requestBody;
      expect(body.required).toBe(true);
      const schema = body.content['application/json'].schema;
      expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['collection', 'question']));
      expect(schema.required).toContain('collection');
    }
  });

  it('serves a home page at / without a web build', async () => {
    const response = await call('GET', '/');
    expect(response.status).toBe(200);
    expect(response.type).toContain('text/html');
    expect(response.text).toContain('<title>Saksi</title>');
    expect(response.text).toContain('/api/v1/openapi.json');
    expect(response.text).toContain('/.well-known/saksi-keys.json');
  });
});

describe('web assets', () => {
  it('serves a web build at / with a single-page fallback, and keeps API errors JSON', async () => {
    const webRoot = mkdtempSync(path.join(tmpdir(), 'saksi-web-'));
    try {
      writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>Saksi web</title>');
      mkdirSync(path.join(webRoot, 'assets'));
      writeFileSync(path.join(webRoot, 'assets', 'app.js'), 'console.log(1);');
      const web = createApp(test.engine, { webRoot });
      const home = await web.request('/');
      expect(await home.text()).toContain('Saksi web');
      const csp = home.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("connect-src 'self' http://127.0.0.1:* http://localhost:* https:");
      expect(home.headers.get('x-content-type-options')).toBe('nosniff');
      expect(home.headers.get('referrer-policy')).toBe('no-referrer');
      const script = await web.request('/assets/app.js');
      expect(script.headers.get('content-type')).toContain('javascript');
      expect(script.headers.get('x-content-type-options')).toBe('nosniff');
      expect(script.headers.get('content-security-policy')).toBeNull();
      const fallback = await web.request('/verify/x');
      expect(fallback.headers.get('content-security-policy')).toBe(csp);
      expect((await web.request('/api/v1/health')).headers.get('content-security-policy')).toBeNull();
      expect(await script.text()).toBe('console.log(1);');
      expect(await (await web.request('/verify/some-certificate')).text()).toContain('Saksi web');
      const api = await web.request('/api/v1/nope');
      expect(api.status).toBe(404);
      expect(((await api.json()) as Json)['error'].code).toBe('NOT_FOUND');
      expect((await web.request('/api/v1/health')).status).toBe(200);
      expect((await web.request('/assets/../../etc/passwd')).status).not.toBe(500);
    } finally {
      rmSync(webRoot, { recursive: true, force: true });
    }
  });
});

describe('contentSecurityPolicy', () => {
  it("allows the running chain's RPC origin, or any loopback port when it is not known", () => {
    expect(contentSecurityPolicy('http://127.0.0.1:8545/')).toContain(
      "connect-src 'self' http://127.0.0.1:8545 https:;",
    );
    const fallback = contentSecurityPolicy(null);
    expect(fallback).toContain("connect-src 'self' http://127.0.0.1:* http://localhost:* https:;");
    expect(fallback).toContain(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:",
    );
    expect(fallback).toContain(
      "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
    );
  });
});

describe('a real listening server', () => {
  it('answers over HTTP with fetch and closes cleanly', async () => {
    const server = await startServer(test.engine, { port: 0, host: '127.0.0.1' });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const health = await fetch(`${server.url}/api/v1/health`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as Json)['status']).toBe('ok');

      const form = new FormData();
      form.set(
        'file',
        new File(
          [new TextEncoder().encode('# Server test\n\nThe listening server ingests this note.\n')],
          'note.md',
        ),
      );
      form.set('collection', 'server-notes');
      form.set('language', 'en');
      const uploaded = await fetch(`${server.url}/api/v1/documents`, {
        method: 'POST',
        headers: auth,
        body: form,
      });
      expect(uploaded.status).toBe(202);
      const accepted = (await uploaded.json()) as Json;
      const ready = await waitForDocument(server.url, accepted['document'].id, auth);
      expect(ready['status']).toBe('READY');

      const chat = await fetch(`${server.url}/api/v1/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({
          collection: 'lalu-lintas',
          question: 'Apa sanksi melanggar rambu lalu lintas?',
        }),
      });
      expect(chat.headers.get('content-type')).toContain('text/event-stream');
      const events = parseSse(await chat.text());
      expect(events.map((event) => event.event).slice(-2)).toEqual(['bundle', 'done']);
      const verified = await fetch(`${server.url}/api/v1/verify`, {
        method: 'POST',
        body: JSON.stringify(events.at(-2)!.data),
      });
      expect(((await verified.json()) as Json)['verdict']).toBe('verified');

      const missing = await fetch(`${server.url}/nope`);
      expect(missing.status).toBe(404);
      expect(((await missing.json()) as Json)['error'].code).toBe('NOT_FOUND');
    } finally {
      await server.close();
    }
    await expect(fetch(`${server.url}/api/v1/health`)).rejects.toThrow();
  });
});
