/**
 * The developer's afternoon (docs/api.md, "1. Quick start"), over real HTTP with the typed client: create a
 * workspace with an admin key, register a webhook, upload a PDF and a DOCX (202 + jobs), receive the
 * signed `document.ready` webhooks, query with citations and check each proof against the document
 * root; the two-step upload; dedupe; keys, scopes and rate limits.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Glossary, SaksiApiError, SaksiClient, verifyWebhookSignature } from '@saksi/client';
import { createApiKey, DEFAULT_WORKSPACE, enqueueWebhookEvent, WEBHOOK_DELIVERY_FAILED } from '@saksi/engine';
import {
  type Certificate,
  fromHex,
  hashLeaf,
  normalizeText,
  sha256,
  toHex,
  utf8Encode,
  verifyInclusionProof,
} from '@saksi/proof';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatResponseSchema, chunkPageSchema, queryResponseSchema } from '../api-spec/response-schemas.js';
import { type RunningServer, startServer } from '../serve.js';

const shared = path.resolve(import.meta.dirname, '../../../../../shared/data');
const readShared = (relative: string) => new Uint8Array(readFileSync(path.join(shared, relative)));
const pdf = readShared('corpora/pmk-transfer-pdf/PMK_Nomor_16_Tahun_2014.pdf');
const docx = readShared('files/docx-samples/mammoth/tables.docx');
const markdown = readShared('corpora/docs-redux/docs/api/compose.md');

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

let test: TestEngine;
let server: RunningServer;
let hooks: Server;
let hookUrl: string;
const received: Received[] = [];
let bootstrap: SaksiClient;

beforeAll(async () => {
  // The webhook receivers of these tests listen on 127.0.0.1: allowed explicitly.
  test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none', SAKSI_WEBHOOK_ALLOW_PRIVATE: '1' } });
  test.engine.workers.start({ pollMs: 50 });
  server = await startServer(test.engine, { port: 0, host: '127.0.0.1' });
  hooks = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/saksi`;
  const { key } = await createApiKey(test.engine.db, {
    workspaceId: DEFAULT_WORKSPACE,
    name: 'operator',
    scopes: ['admin'],
  });
  bootstrap = new SaksiClient({ baseUrl: server.url, apiKey: key });
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => hooks?.close(resolve));
  await test?.close();
});

async function until<T>(
  probe: () => T | Promise<T>,
  what: string,
  timeoutMs = 30_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a developer with an API key', () => {
  let acme: SaksiClient;
  let secret: string;
  const documents: Record<string, { id: string; root: string | null }> = {};

  it('creates a workspace and gets its own admin key', async () => {
    const created = await bootstrap.createWorkspace({ name: 'Acme Docs' });
    expect(created.workspace.name).toBe('Acme Docs');
    expect(created.api_key.key).toMatch(/^saksi_[A-Za-z0-9_-]{43}$/);
    expect(created.api_key.record.scopes).toEqual(['admin']);
    expect(JSON.stringify(created.api_key.record)).not.toContain(created.api_key.key);
    acme = new SaksiClient({ baseUrl: server.url, apiKey: created.api_key.key });
    const info = await acme.workspace();
    expect(info.workspace.id).toBe(created.workspace.id);
    expect(info.usage).toEqual({ documents: 0, storage_bytes: 0 });
    expect(info.quotas.max_document_bytes).toBeGreaterThan(0);
  });

  it('registers a webhook; the secret is shown once', async () => {
    const created = await acme.createWebhook({ url: hookUrl });
    secret = created.secret;
    expect(secret).toMatch(/^whsec_/);
    const listed = await acme.listWebhooks();
    expect(listed.map((hook) => hook.id)).toEqual([created.webhook.id]);
    expect(JSON.stringify(listed)).not.toContain(secret);
  });

  it('uploads a PDF and a DOCX: 202 at once, PENDING, then READY through the job statuses', async () => {
    await acme.createCollection({ name: 'handbook', language: 'id' });
    for (const [name, bytes] of [
      ['pmk-16-2014.pdf', pdf],
      ['tables.docx', docx],
    ] as const) {
      const accepted = await acme.uploadDocument({ collection: 'handbook', file: bytes, filename: name });
      expect(accepted.deduplicated).toBe(false);
      expect(accepted.document.status).toBe('PENDING');
      expect(['QUEUED', 'RUNNING']).toContain(accepted.job.status);
      const seen = new Set<string>();
      const ready = await acme.waitForDocument(accepted.document.id, {
        intervalMs: 20,
        timeoutMs: 60_000,
        onProgress: (document) => seen.add(document.status),
      });
      expect(ready.status).toBe('READY');
      expect(ready.root).toMatch(/^[0-9a-f]{64}$/);
      expect(ready.progress).toBe(1);
      expect(ready.error).toBeNull();
      const job = await acme.getJob(accepted.job.id);
      expect(job).toMatchObject({ status: 'SUCCEEDED', stage: 'done', progress: 1, document_id: ready.id });
      documents[name] = { id: ready.id, root: ready.root };
    }
    const jobs = await acme.listJobs({ status: 'SUCCEEDED' });
    expect(jobs.total).toBe(2);
  });

  it('receives a signed document.ready webhook for each document', async () => {
    await until(() => received.length >= 2, 'two webhook deliveries');
    const events = received.map((delivery) => ({
      delivery,
      payload: JSON.parse(delivery.body) as { id: string; type: string; data: { document: { id: string } } },
    }));
    expect(events.map((event) => event.payload.type)).toEqual(['document.ready', 'document.ready']);
    expect(new Set(events.map((event) => event.payload.data.document.id))).toEqual(
      new Set(Object.values(documents).map((document) => document.id)),
    );
    for (const { delivery, payload } of events) {
      const signature = delivery.headers['saksi-signature'] as string;
      expect(await verifyWebhookSignature(secret, signature, delivery.body)).toBe(true);
      expect(await verifyWebhookSignature(secret, signature, delivery.body.replace('READY', 'FAILED'))).toBe(
        false,
      );
      expect(await verifyWebhookSignature('whsec_wrong', signature, delivery.body)).toBe(false);
      expect(delivery.headers['saksi-delivery']).toBe(payload.id);
      expect(delivery.headers['saksi-event']).toBe('document.ready');
    }
  });

  it('queries with citations, parent context, chunk hashes and proofs that check against the document root', async () => {
    const response = await acme.query({ collection: 'handbook', question: 'dana alokasi khusus', top_k: 5 });
    // What the OpenAPI document (and the client's wire types) promise.
    expect(queryResponseSchema.safeParse(response).error).toBeUndefined();
    expect(response.hybrid).toBe(true);
    expect(response.results.length).toBeGreaterThan(0);
    expect(response.results[0]!.citation.document_name).toBe('pmk-16-2014.pdf');
    expect(response.results[0]!.citation.mime).toBe('application/pdf');
    expect(response.tokens.question).toBeGreaterThan(0);
    expect(response.tokens.results).toBe(response.results.reduce((sum, item) => sum + item.token_count, 0));
    for (const key of ['embed_ms', 'lexical_ms', 'vector_ms', 'fuse_ms', 'total_ms'] as const) {
      expect(response.timings[key]).toBeGreaterThanOrEqual(0);
    }
    for (const result of response.results) {
      expect(result.score).toBeGreaterThan(0);
      const source = documents[result.citation.document_name];
      expect(source?.id).toBe(result.document_id);
      expect(result.document.root).toBe(source?.root);
      if (result.citation.document_name.endsWith('.pdf'))
        expect(result.citation.page).toBeGreaterThanOrEqual(1);
      expect(Array.isArray(result.citation.section_path)).toBe(true);
      expect(typeof result.context.before).toBe('string');
      // The chunk hash is SHA-256 of the normalized text, and its proof leads to the published root.
      expect(result.chunk_hash).toBe(toHex(sha256(utf8Encode(normalizeText(result.text)))));
      const leaf = hashLeaf(fromHex(result.chunk_hash));
      expect(
        verifyInclusionProof(
          result.proof.leaf_index,
          result.proof.tree_size,
          leaf,
          result.proof.path.map((hex) => fromHex(hex)),
          fromHex(result.proof.root),
        ),
      ).toBe(true);
      const tampered = hashLeaf(sha256(utf8Encode(`${result.text} `)));
      expect(
        verifyInclusionProof(
          result.proof.leaf_index,
          result.proof.tree_size,
          tampered,
          result.proof.path.map((hex) => fromHex(hex)),
          fromHex(result.proof.root),
        ),
      ).toBe(false);
    }
  });

  it('returns tables as HTML', async () => {
    const chunks = await acme.listChunks(documents['tables.docx']!.id, { limit: 100 });
    expect(chunkPageSchema.safeParse(chunks).error).toBeUndefined();
    const tables = chunks.items.filter((chunk) => chunk.table_html !== null);
    expect(tables.length).toBeGreaterThan(0);
    expect(tables[0]!.table_html).toMatch(/^<table[\s>]/);
    expect(chunks.total).toBe(chunks.items.length);
  });

  it('deduplicates the same bytes in the workspace: instant, same document and root, no parsing', async () => {
    const before = (await acme.listJobs()).total;
    const again = await acme.uploadDocument({ collection: 'handbook', file: pdf, filename: 'again.pdf' });
    expect(again.deduplicated).toBe(true);
    expect(again.document.id).toBe(documents['pmk-16-2014.pdf']!.id);
    expect(again.document.status).toBe('READY');
    expect(again.job.status).toBe('SUCCEEDED');
    expect((await acme.listJobs()).total).toBe(before + 1);
    expect((await acme.listJobs({ status: 'QUEUED' })).total).toBe(0);
  });

  it('uploads a large file in two steps: create, PUT to the upload URL, process', async () => {
    const created = await acme.createUpload({
      collection: 'handbook',
      filename: 'compose.md',
      size: markdown.length,
    });
    expect(created.method).toBe('PUT');
    expect(created.upload_url).toContain(`/api/v1/uploads/${created.upload.id}/content?token=`);
    // Processing before the bytes arrive is a conflict, not a half-made document.
    await expect(acme.processUpload(created.upload.id)).rejects.toMatchObject({ status: 409 });
    const put = await acme.putUploadContent(created.upload_url, markdown);
    expect(put.upload).toMatchObject({ status: 'UPLOADED', size: markdown.length });
    // The bytes sit in the blob store in parts, never as one bytea value in the upload's row.
    const stored = await test.engine.db.query<{ inline: boolean; parts: number }>(
      `SELECT u.bytes IS NOT NULL AS inline, (SELECT count(*)::int FROM blob_parts p WHERE p.sha256 = u.sha256) AS parts
         FROM uploads u WHERE u.id = $1`,
      [created.upload.id],
    );
    expect(stored.rows[0]).toEqual({ inline: false, parts: 1 });
    // The URL is single-use.
    await expect(acme.putUploadContent(created.upload_url, markdown)).rejects.toMatchObject({ status: 409 });
    const accepted = await acme.processUpload(created.upload.id);
    expect(accepted.document.status).toBe('PENDING');
    const ready = await acme.waitForDocument(accepted.document.id, { intervalMs: 20, timeoutMs: 60_000 });
    expect(ready.status).toBe('READY');
    expect(ready.filename).toBe('compose.md');
    // A guessed token is simply not found.
    const forged = created.upload_url.replace(/token=.*/, `token=${'A'.repeat(43)}`);
    await expect(acme.putUploadContent(forged, markdown)).rejects.toMatchObject({ status: 404 });
  });

  it('creates a docs collection with a base URL: query and chat citations link to the page and heading', async () => {
    const collection = await acme.createCollection({
      name: 'redux-api',
      language: 'en',
      domain: 'docs',
      base_url: 'https://redux.js.org/api',
    });
    expect(collection.base_url).toBe('https://redux.js.org/api/');
    expect((await acme.listCollections()).find((item) => item.name === 'handbook')?.base_url).toBeNull();
    // The same bytes are already in "handbook": the chunks (and their heading anchors) are copied.
    const accepted = await acme.uploadDocument({
      collection: 'redux-api',
      file: markdown,
      filename: 'compose.md',
    });
    await acme.waitForDocument(accepted.document.id, { intervalMs: 20, timeoutMs: 60_000 });

    const query = await acme.query({
      collection: 'redux-api',
      question: 'composes functions from right to left',
    });
    const urls = query.results.map((result) => result.citation.url);
    // Frontmatter id "compose" names the page; "## Overview" the heading.
    expect(urls).toContain('https://redux.js.org/api/compose#overview');
    expect(urls.every((url) => url?.startsWith('https://redux.js.org/api/compose'))).toBe(true);
    const plain = await acme.query({
      collection: 'handbook',
      question: 'composes functions from right to left',
    });
    expect(plain.results.every((result) => result.citation.url === undefined)).toBe(true);

    const chat = await acme.chat({
      collection: 'redux-api',
      question: 'What does compose do with functions?',
    });
    expect(
      chat.results.some((result) => result.citation.url?.startsWith('https://redux.js.org/api/compose#')),
    ).toBe(true);
    expect(chatResponseSchema.safeParse(chat).error).toBeUndefined();
    // The document's media type comes with each result: a client reads only Markdown as Markdown.
    expect(chat.results.map((result) => result.citation.mime)).toContain('text/markdown');
    const certificate = chat.bundle.certificate as unknown as Certificate;
    const evidence = certificate.claims.flatMap((claim) => claim.evidence);
    expect(evidence.length).toBeGreaterThan(0);
    for (const item of evidence)
      expect(item.citation.url).toMatch(/^https:\/\/redux\.js\.org\/api\/compose#/);
    // The URL is part of the signed certificate: the server's own verification passes.
    const verification = await acme.verify(chat.bundle);
    expect(verification.verdict, JSON.stringify(verification.codes)).toBe('verified');
  });

  it('creates a collection with a title, description and example questions per language', async () => {
    const collection = await acme.createCollection({
      name: 'budget-notes',
      language: 'id',
      title: { id: 'Catatan anggaran', en: 'Budget notes' },
      description: { en: 'Notes on the budget.' },
      examples: { id: ['Berapa defisitnya?'] },
    });
    expect(collection).toMatchObject({
      title: { id: 'Catatan anggaran', en: 'Budget notes' },
      description: { en: 'Notes on the budget.' },
      examples: { id: ['Berapa defisitnya?'] },
    });
    const listed = (await acme.listCollections()).find((item) => item.name === 'budget-notes');
    expect(listed?.title.en).toBe('Budget notes');
    // Without them the fields are empty objects (a client shows the name).
    expect((await acme.listCollections()).find((item) => item.name === 'handbook')).toMatchObject({
      title: {},
      description: {},
      examples: {},
    });
    // An unknown language or six examples are refused before anything is created.
    await expect(
      acme.createCollection({
        name: 'too-many',
        language: 'en',
        examples: { en: ['a?', 'b?', 'c?', 'd?', 'e?', 'f?'] },
      }),
    ).rejects.toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect((await acme.listCollections()).map((item) => item.name)).not.toContain('too-many');
    // The answer risk it accepts: 0.01–0.5, else refused before anything is created.
    for (const answer_risk of [0, 0.6]) {
      await expect(
        acme.createCollection({ name: 'too-risky', language: 'id', answer_risk }),
      ).rejects.toMatchObject({
        status: 400,
        code: 'INVALID_INPUT',
      });
    }
    expect((await acme.listCollections()).map((item) => item.name)).not.toContain('too-risky');
    await acme.createCollection({ name: 'risky-notes', language: 'id', answer_risk: 0.2 });
    const stored = await test.engine.db.query<{ risk: number }>(
      "SELECT (profile->>'answer_risk')::float8 AS risk FROM collections WHERE name = 'risky-notes'",
    );
    expect(stored.rows.map((row) => row.risk)).toEqual([0.2]);
  });

  it('refuses a collection whose base URL is not http(s): INVALID_BASE_URL, nothing created', async () => {
    for (const base_url of [
      'javascript:alert(1)',
      'ftp://example.org/',
      'no url',
      'https://u:p@example.org/',
    ]) {
      await expect(
        acme.createCollection({ name: 'hostile-docs', language: 'en', base_url }),
      ).rejects.toMatchObject({ status: 400, code: 'INVALID_BASE_URL' });
    }
    expect((await acme.listCollections()).map((item) => item.name)).not.toContain('hostile-docs');
  });

  it("sets, reads and removes a collection's glossary; a bad one is INVALID_GLOSSARY naming the entry", async () => {
    expect(await acme.getCollectionGlossary('handbook')).toEqual({
      collection: 'handbook',
      glossary: null,
      sha256: null,
    });
    const glossary: Glossary = {
      format: 'saksi-glossary',
      version: 1,
      pattern_groups: ['budget'],
      dictionary: [{ terms: ['dau'], expansion: 'Dana Alokasi Umum' }],
    };
    const stored = await acme.putCollectionGlossary('handbook', glossary);
    expect(stored.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.glossary).toMatchObject(glossary);
    expect(await acme.getCollectionGlossary('handbook')).toEqual(stored);
    await expect(
      acme.putCollectionGlossary('handbook', {
        ...glossary,
        dictionary: [
          { terms: ['dau'], expansion: 'x' },
          { terms: ['DAK'], expansion: 'y' },
        ],
      }),
    ).rejects.toMatchObject({
      status: 400,
      code: 'INVALID_GLOSSARY',
      message: expect.stringContaining('dictionary[1].terms[0]'),
    });
    expect((await acme.getCollectionGlossary('handbook')).sha256).toBe(stored.sha256);
    // A read key reads it and cannot change it; another workspace's collection is not found.
    const reader = new SaksiClient({
      baseUrl: server.url,
      apiKey: (await acme.createKey({ name: 'glossary-reader', scopes: ['read'] })).key,
    });
    expect((await reader.getCollectionGlossary('handbook')).sha256).toBe(stored.sha256);
    await expect(reader.deleteCollectionGlossary('handbook')).rejects.toMatchObject({ status: 403 });
    await expect(bootstrap.getCollectionGlossary('handbook')).rejects.toMatchObject({ status: 404 });
    await acme.deleteCollectionGlossary('handbook');
    expect((await acme.getCollectionGlossary('handbook')).glossary).toBeNull();
  });

  it("chooses a collection's document packs, and returns it to detection; an unknown pack is INVALID_INPUT", async () => {
    const detected = await acme.getCollectionPacks('handbook');
    expect(detected).toMatchObject({ collection: 'handbook', override: null });
    expect(detected.active).toEqual(['legislation', 'budget', 'software-docs', 'plain']);
    expect(await acme.putCollectionPacks('handbook', ['software-docs'])).toMatchObject({
      override: ['software-docs'],
      active: ['software-docs'],
    });
    expect((await acme.getCollectionPacks('handbook')).override).toEqual(['software-docs']);
    await expect(
      acme.putCollectionPacks('handbook', ['statutes'] as unknown as ['plain']),
    ).rejects.toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    const reader = new SaksiClient({
      baseUrl: server.url,
      apiKey: (await acme.createKey({ name: 'packs-reader', scopes: ['read'] })).key,
    });
    await expect(reader.putCollectionPacks('handbook', null)).rejects.toMatchObject({ status: 403 });
    await expect(bootstrap.getCollectionPacks('handbook')).rejects.toMatchObject({ status: 404 });
    expect((await acme.putCollectionPacks('handbook', null)).override).toBeNull();
  });

  it("calibrates a collection's answer check on labelled questions, names it in certificates, and removes it", async () => {
    expect(await acme.getCollectionCalibration('handbook')).toEqual({
      collection: 'handbook',
      calibration: null,
    });
    const asked = [
      'Berapa perkiraan alokasi DBH SDA Kehutanan tahun anggaran 2013?',
      'berapa dana bagi hasil kehutanan 2013',
      'Perkiraan alokasi Dana Bagi Hasil Sumber Daya Alam Kehutanan 2013 sebesar berapa?',
    ];
    const questions = [
      ...Array.from({ length: 26 }, (_, index) => ({
        question: `${asked[index % asked.length]}${index >= asked.length ? ` (${index})` : ''}`,
        must_mention: ['Rp1.258.156.181.722,00'],
      })),
      ...['Berapa harga beras?', 'Siapa menteri pertanian?', 'Kapan pemilu?', 'Berapa gaji presiden?'].map(
        (question) => ({ question, answerable: false }),
      ),
    ];
    // A bad question is named and nothing is asked; too few cannot set a threshold.
    await expect(
      acme.putCollectionCalibration('handbook', [{ question: 'Berapa?' }, ...questions.slice(1)]),
    ).rejects.toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      message: expect.stringContaining('questions[0]'),
    });
    await expect(acme.putCollectionCalibration('handbook', questions.slice(0, 10))).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('at least 30 questions (got 10)'),
    });
    const reader = new SaksiClient({
      baseUrl: server.url,
      apiKey: (await acme.createKey({ name: 'calibration-reader', scopes: ['read'] })).key,
    });
    await expect(reader.putCollectionCalibration('handbook', questions)).rejects.toMatchObject({
      status: 403,
    });
    await expect(bootstrap.getCollectionCalibration('handbook')).rejects.toMatchObject({ status: 404 });

    const stored = await acme.putCollectionCalibration('handbook', questions);
    expect(stored.calibration).toMatchObject({ questions: 30, answerable: 26, alpha: 0.05 });
    const calibration = stored.calibration!;
    expect(calibration.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((calibration.released_wrong + 1) / 31).toBeLessThanOrEqual(0.05);
    expect(await reader.getCollectionCalibration('handbook')).toEqual(stored);
    const chat = await acme.chat({ collection: 'handbook', question: asked[0]! });
    const certificate = chat.bundle.certificate as unknown as Certificate;
    expect(certificate.answer.check?.calibration_sha256).toBe(calibration.sha256);

    await acme.deleteCollectionCalibration('handbook');
    expect((await acme.getCollectionCalibration('handbook')).calibration).toBeNull();
  });

  it('reports a malformed file as FAILED with its reason, and sends document.failed', async () => {
    const broken = new TextEncoder().encode('%PDF-1.7\nnot really a PDF at all');
    const accepted = await acme.uploadDocument({
      collection: 'handbook',
      file: broken,
      filename: 'broken.pdf',
    });
    expect(accepted.document.status).toBe('PENDING');
    const failed = await acme.waitForDocument(accepted.document.id, { intervalMs: 20, timeoutMs: 30_000 });
    expect(failed.status).toBe('FAILED');
    expect(failed.error?.code).toBe('MALFORMED_FILE');
    expect((await acme.listChunks(failed.id)).total).toBe(0);
    const job = await acme.getJob(accepted.job.id);
    expect(job.status).toBe('FAILED');
    expect(job.error?.code).toBe('MALFORMED_FILE');
    await until(
      () => received.some((delivery) => JSON.parse(delivery.body).type === 'document.failed'),
      'the document.failed webhook',
    );
  });

  it('manages keys by scope: a read key queries but cannot upload; a revoked key stops working', async () => {
    const created = await acme.createKey({ name: 'reader', scopes: ['read'] });
    expect(created.record.prefix).toBe(created.key.slice(0, 14));
    const reader = new SaksiClient({ baseUrl: server.url, apiKey: created.key });
    expect(
      (await reader.query({ collection: 'handbook', question: 'dana alokasi' })).results.length,
    ).toBeGreaterThan(0);
    await expect(
      reader.uploadDocument({ collection: 'handbook', file: markdown, filename: 'x.md' }),
    ).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    await expect(reader.listKeys()).rejects.toMatchObject({ status: 403 });
    const keys = await acme.listKeys();
    expect(keys.map((key) => key.name)).toContain('reader');
    expect(JSON.stringify(keys)).not.toContain(created.key);
    await acme.revokeKey(created.record.id);
    await expect(reader.query({ collection: 'handbook', question: 'dana' })).rejects.toMatchObject({
      status: 401,
      code: 'UNAUTHENTICATED',
    });
  });

  it('answers 401 without a key and for a malformed one, with no stack and no data', async () => {
    const anonymous = new SaksiClient({ baseUrl: server.url });
    await expect(anonymous.listDocuments()).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    const forged = new SaksiClient({ baseUrl: server.url, apiKey: `saksi_${'x'.repeat(43)}` });
    await expect(forged.query({ collection: 'handbook', question: 'dana' })).rejects.toMatchObject({
      status: 401,
    });
    const response = await fetch(`${server.url}/api/v1/documents`, {
      headers: { authorization: 'Basic abc' },
    });
    expect(response.status).toBe(401);
    expect(await response.text()).not.toMatch(/\n\s+at /);
  });

  it('answers bad input with typed errors and keeps nothing of it', async () => {
    const { key } = await acme.createKey({ name: 'hostile', scopes: ['admin'] });
    const send = async (method: string, route: string, body: string, type = 'application/json') => {
      const response = await fetch(`${server.url}/api/v1${route}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': type },
        body,
      });
      const text = await response.text();
      expect(text).not.toMatch(/\n\s+at /);
      return {
        status: response.status,
        code: (JSON.parse(text) as { error?: { code: string } }).error?.code,
      };
    };
    const keysBefore = (await acme.listKeys()).length;
    expect(await send('POST', '/keys', '{"name": "x", ')).toEqual({ status: 400, code: 'INVALID_JSON' });
    expect(await send('POST', '/keys', '{"name": "x", "scopes": ["root"]}')).toMatchObject({ status: 400 });
    expect((await acme.listKeys()).length).toBe(keysBefore);
    const hooksBefore = (await acme.listWebhooks()).length;
    expect(await send('POST', '/webhooks', '{"url": "ftp://example.org/x"}')).toMatchObject({ status: 400 });
    expect(await send('POST', '/webhooks', '{"url": "http://user:pw@127.0.0.1/x"}')).toMatchObject({
      status: 400,
    });
    expect((await acme.listWebhooks()).length).toBe(hooksBefore);
    expect(
      await send('POST', '/query', '{"collection": "handbook", "question": "dana", "top_k": 500}'),
    ).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
    });
    expect(await send('POST', '/query', '{"collection": "nope", "question": "dana"}')).toMatchObject({
      status: 404,
    });
    expect(await send('POST', '/workspaces', '{"name": ""}')).toMatchObject({ status: 400 });
    expect(await send('POST', '/documents', '{"file": "x"}')).toEqual({
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
    await expect(acme.getJob('job_unknown')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    await expect(acme.getDocument('../../etc/passwd')).rejects.toMatchObject({ status: 404 });
    // A PUT that does not match the declared size stores nothing; the upload still takes the right bytes.
    const created = await acme.createUpload({ collection: 'handbook', filename: 'sized.md', size: 10 });
    await expect(acme.putUploadContent(created.upload_url, markdown)).rejects.toMatchObject({ status: 400 });
    await expect(acme.processUpload(created.upload.id)).rejects.toMatchObject({ status: 409 });
  });

  it("lists a failed delivery with the receiver's status only, never its reply", async () => {
    const failing = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(500).end('root:x:0:0:root:/root:/bin/bash internal-only'));
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    try {
      const { webhook } = await acme.createWebhook({
        url: `http://127.0.0.1:${(failing.address() as AddressInfo).port}/hook`,
        events: ['document.failed'],
      });
      const workspaceId = (await acme.workspace()).workspace.id;
      await enqueueWebhookEvent(test.engine.db, {
        workspaceId,
        event: 'document.failed',
        data: { document: { id: 'doc_probe' } },
      });
      const items = await until(async () => {
        const listed = await acme.listDeliveries(webhook.id);
        return listed.some((item) => item.attempts > 0) ? listed : null;
      }, 'a failed delivery attempt');
      expect(items[0]).toMatchObject({ last_status: 500, last_error: WEBHOOK_DELIVERY_FAILED });
      expect(JSON.stringify(items)).not.toMatch(/root:x|internal-only/);
      await acme.deleteWebhook(webhook.id);
    } finally {
      failing.closeAllConnections();
      await new Promise((resolve) => failing.close(resolve));
    }
  });

  it('serves an OpenAPI 3.1 document listing the developer routes', async () => {
    const document = (await acme.openApi()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    for (const route of [
      '/api/v1/documents',
      '/api/v1/query',
      '/api/v1/uploads',
      '/api/v1/webhooks',
      '/api/v1/jobs/{id}',
    ]) {
      expect(Object.keys(document.paths)).toContain(route);
    }
  });
});

describe('rate limits', () => {
  let limited: TestEngine;
  let limitedServer: RunningServer;

  beforeAll(async () => {
    limited = await openTestEngine({
      env: {
        SAKSI_ANCHOR: 'none',
        SAKSI_RATE_LIMIT_KEY: '3',
        SAKSI_PUBLIC_CHAT_LIMIT: '2',
        SAKSI_RATE_LIMIT_IP: '1000',
      },
    });
    await limited.engine.ingest('open', { bytes: markdown, filename: 'compose.md' }, { language: 'en' });
    await limited.engine.collections.configure('open', { public: true });
    limitedServer = await startServer(limited.engine, { port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await limitedServer?.close();
    await limited?.close();
  });

  it('gives each key a token bucket: over it, 429 with Retry-After', async () => {
    const { key } = await createApiKey(limited.engine.db, {
      workspaceId: DEFAULT_WORKSPACE,
      name: 'busy',
      scopes: ['read'],
    });
    const client = new SaksiClient({ baseUrl: limitedServer.url, apiKey: key });
    for (let i = 0; i < 3; i++) await client.listDocuments();
    const error = await client.listDocuments().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SaksiApiError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect((error as SaksiApiError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // Another key has its own bucket.
    const other = await createApiKey(limited.engine.db, {
      workspaceId: DEFAULT_WORKSPACE,
      name: 'calm',
      scopes: ['read'],
    });
    await new SaksiClient({ baseUrl: limitedServer.url, apiKey: other.key }).listDocuments();
  });

  it('limits the public chat per address', async () => {
    const chat = () =>
      fetch(`${limitedServer.url}/api/v1/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ collection: 'open', question: 'What does compose do?' }),
      });
    expect((await chat()).status).toBe(200);
    expect((await chat()).status).toBe(200);
    const refused = await chat();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
  });
});

describe('webhooks that cannot reach inside (SAKSI_WEBHOOK_ALLOW_PRIVATE unset)', () => {
  let guarded: TestEngine;
  let guardedServer: RunningServer;
  let admin: SaksiClient;

  beforeAll(async () => {
    guarded = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
    guardedServer = await startServer(guarded.engine, { port: 0, host: '127.0.0.1' });
    const { key } = await createApiKey(guarded.engine.db, {
      workspaceId: DEFAULT_WORKSPACE,
      name: 'hooks',
      scopes: ['admin'],
    });
    admin = new SaksiClient({ baseUrl: guardedServer.url, apiKey: key });
  });

  afterAll(async () => {
    await guardedServer?.close();
    await guarded?.close();
  });

  it('answers 400 WEBHOOK_URL_FORBIDDEN for every internal URL and registers none', async () => {
    const accepted: string[] = [];
    for (const url of [
      `http://127.0.0.1:${new URL(guardedServer.url).port}/api/v1/health`,
      'http://127.0.0.1:22/',
      'http://127.0.0.1:1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://0.0.0.0/',
      'http://2130706433/',
      'http://0177.0.0.1/',
      'http://0x7f.1/',
      'http://[::ffff:127.0.0.1]/',
      'http://localhost/',
      'http://10.0.0.1/',
    ]) {
      const error = await admin.createWebhook({ url }).catch((caught: unknown) => caught);
      if (!(error instanceof SaksiApiError && error.status === 400 && error.code === 'WEBHOOK_URL_FORBIDDEN'))
        accepted.push(url);
    }
    expect(accepted).toEqual([]);
    expect(await admin.listWebhooks()).toEqual([]);
    // A public address is still welcome (a literal: no resolver is asked).
    const created = await admin.createWebhook({ url: 'https://93.184.215.14/saksi' });
    expect(created.webhook.url).toBe('https://93.184.215.14/saksi');
  });
});
