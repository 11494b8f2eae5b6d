/**
 * Tenant isolation (docs/engine.md, "The developer API"): two workspaces with the same collection name, each
 * with documents, jobs, uploads, webhooks, keys, chat sessions and certificates. Every cross-workspace probe
 * — by id, by listing, by retrieval, by chat, by dedupe, by webhook — must return nothing of the other
 * workspace, in both directions. The suite counts its probes and requires at least 100.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SaksiClient } from '@saksi/client';
import { createApiKey, DEFAULT_WORKSPACE } from '@saksi/engine';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../serve.js';

/** What one workspace owns, and the word only its documents contain. */
interface Tenant {
  name: string;
  key: string;
  client: SaksiClient;
  word: string;
  documents: string[];
  jobs: string[];
  chunks: string[];
  roots: string[];
  upload: string;
  webhook: string;
  webhookEvents: string[];
  keyIds: string[];
  session: string;
  certificate: string;
  bytes: Uint8Array[];
}

let test: TestEngine;
let server: RunningServer;
let receiver: Server;
let receiverUrl: string;
const tenants: Tenant[] = [];
let probes = 0;

/** One markdown document about `word` (distinct per tenant and per index). */
function documentAbout(word: string, index: number): Uint8Array {
  return new TextEncoder().encode(
    `# Laporan ${word} ${index}\n\n## Ringkasan\n\nDokumen ini membahas ${word} secara rinci. Anggaran ${word} tahun ${2020 + index} ` +
      `adalah Rp${index + 1}.000.000. Setiap pengelola ${word} wajib melapor setiap bulan.\n\n## Rincian\n\n` +
      `Program ${word} nomor ${index} dilaksanakan di ${index + 3} provinsi dengan pengawasan ketat.\n`,
  );
}

async function until(probe: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function setUpTenant(bootstrap: SaksiClient, name: string, word: string): Promise<Tenant> {
  const created = await bootstrap.createWorkspace({ name });
  const client = new SaksiClient({ baseUrl: server.url, apiKey: created.api_key.key });
  await client.createCollection({ name: 'laporan', language: 'id' });
  const hook = await client.createWebhook({ url: `${receiverUrl}/${name}` });
  const tenant: Tenant = {
    name,
    key: created.api_key.key,
    client,
    word,
    documents: [],
    jobs: [],
    chunks: [],
    roots: [],
    upload: '',
    webhook: hook.webhook.id,
    webhookEvents: [],
    keyIds: [created.api_key.record.id],
    session: '',
    certificate: '',
    bytes: [],
  };
  for (let index = 0; index < 3; index++) {
    const bytes = documentAbout(word, index);
    tenant.bytes.push(bytes);
    const accepted = await client.uploadDocument({
      collection: 'laporan',
      file: bytes,
      filename: `${word}-${index}.md`,
    });
    tenant.documents.push(accepted.document.id);
    tenant.jobs.push(accepted.job.id);
  }
  for (const id of tenant.documents) {
    const ready = await client.waitForDocument(id, { intervalMs: 20, timeoutMs: 60_000 });
    expect(ready.status).toBe('READY');
    tenant.roots.push(ready.root!);
    const chunks = await client.listChunks(id, { limit: 100 });
    tenant.chunks.push(...chunks.items.map((chunk) => chunk.id));
  }
  const upload = await client.createUpload({ collection: 'laporan', filename: 'pending.md' });
  tenant.upload = upload.upload.id;
  const reader = await client.createKey({ name: 'reader', scopes: ['read'] });
  tenant.keyIds.push(reader.record.id);
  const chat = await client.chat({ collection: 'laporan', question: `Berapa anggaran ${word}?` });
  tenant.session = chat.session_id;
  tenant.certificate = (
    chat.bundle as { certificate: { certificate_id: string } }
  ).certificate.certificate_id;
  return tenant;
}

const received: { path: string; body: string }[] = [];

beforeAll(async () => {
  test = await openTestEngine({
    // The webhook receiver listens on 127.0.0.1: allowed explicitly.
    env: {
      SAKSI_ANCHOR: 'none',
      SAKSI_RATE_LIMIT_KEY: '0',
      SAKSI_RATE_LIMIT_IP: '0',
      SAKSI_WEBHOOK_ALLOW_PRIVATE: '1',
    },
  });
  test.engine.workers.start({ pollMs: 50 });
  server = await startServer(test.engine, { port: 0, host: '127.0.0.1' });
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ path: request.url ?? '', body });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const { key } = await createApiKey(test.engine.db, {
    workspaceId: DEFAULT_WORKSPACE,
    name: 'op',
    scopes: ['admin'],
  });
  const bootstrap = new SaksiClient({ baseUrl: server.url, apiKey: key });
  tenants.push(await setUpTenant(bootstrap, 'alpha', 'zebrakuda'));
  tenants.push(await setUpTenant(bootstrap, 'beta', 'gajahterbang'));
  await until(() => received.length >= 6, 'the document.ready webhooks');
}, 180_000);

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await test?.close();
});

interface Reply {
  status: number;
  text: string;
}

async function call(key: string, method: string, route: string, body?: unknown): Promise<Reply> {
  const response = await fetch(`${server.url}/api/v1${route}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, text: await response.text() };
}

/**
 * Nothing of `victim` in a reply: none of its ids, roots, or its word — except `echo`, the id the
 * probe itself sent (a 404 message may repeat what was asked for).
 */
function expectNothingOf(victim: Tenant, reply: Reply, echo?: string): void {
  probes++;
  for (const secret of [
    victim.word,
    ...victim.documents,
    ...victim.jobs,
    ...victim.chunks,
    ...victim.roots,
    victim.upload,
    victim.webhook,
    ...victim.keyIds,
    victim.session,
    victim.certificate,
  ]) {
    if (secret === echo) continue;
    expect(reply.text, `leaked ${secret}`).not.toContain(secret);
  }
}

async function expectNotFound(victim: Tenant, id: string, reply: Promise<Reply>): Promise<void> {
  const settled = await reply;
  expect(settled.status).toBe(404);
  expect(JSON.parse(settled.text).error.code).toBe('NOT_FOUND');
  expectNothingOf(victim, settled, id);
}

/** The parts of a query or chat reply that come from the database (not the echoed question). */
function retrieved(reply: Reply): Reply {
  const body = JSON.parse(reply.text) as {
    results?: unknown;
    answer?: unknown;
    bundle?: { chunks?: unknown; claims?: unknown; certificate?: { claims?: unknown; evidence?: unknown } };
  };
  return {
    status: reply.status,
    text: JSON.stringify([
      body.results,
      body.answer,
      body.bundle?.chunks,
      body.bundle?.certificate?.claims,
      body.bundle?.certificate?.evidence,
    ]),
  };
}

describe.each([
  [0, 1],
  [1, 0],
])('workspace %i probing workspace %i', (attackerIndex, victimIndex) => {
  const attacker = () => tenants[attackerIndex]!;
  const victim = () => tenants[victimIndex]!;

  it("cannot read, list, page or delete the other's documents and chunks", async () => {
    const { key } = attacker();
    for (const id of victim().documents) {
      await expectNotFound(victim(), id, call(key, 'GET', `/documents/${id}`));
      await expectNotFound(victim(), id, call(key, 'GET', `/documents/${id}/chunks`));
      await expectNotFound(victim(), id, call(key, 'DELETE', `/documents/${id}`));
      await expectNotFound(victim(), id, call(key, 'GET', `/anchors/${id}`));
      const anonymous = await fetch(`${server.url}/api/v1/anchors/${id}`);
      const reply = { status: anonymous.status, text: await anonymous.text() };
      expect(reply.status).toBe(404);
      expectNothingOf(victim(), reply, id);
    }
    for (const query of ['', '?collection=laporan', '?status=READY', '?limit=100', '?fiscal_year=2020']) {
      const listed = await call(key, 'GET', `/documents${query}`);
      expect(listed.status).toBe(200);
      expectNothingOf(victim(), listed);
    }
    // The victim's documents are all still there.
    const own = await victim().client.listDocuments({ limit: 100 });
    expect(own.items.map((item) => item.id)).toEqual(expect.arrayContaining(victim().documents));
  });

  it("cannot see the other's jobs, uploads, keys or webhooks", async () => {
    const { key } = attacker();
    for (const id of victim().jobs) await expectNotFound(victim(), id, call(key, 'GET', `/jobs/${id}`));
    for (const query of ['', '?status=SUCCEEDED', '?limit=100']) {
      const listed = await call(key, 'GET', `/jobs${query}`);
      expect(listed.status).toBe(200);
      expectNothingOf(victim(), listed);
    }
    await expectNotFound(victim(), victim().upload, call(key, 'POST', `/uploads/${victim().upload}/process`));
    for (const id of victim().keyIds) await expectNotFound(victim(), id, call(key, 'DELETE', `/keys/${id}`));
    expectNothingOf(victim(), await call(key, 'GET', '/keys'));
    await expectNotFound(victim(), victim().webhook, call(key, 'DELETE', `/webhooks/${victim().webhook}`));
    await expectNotFound(
      victim(),
      victim().webhook,
      call(key, 'GET', `/webhooks/${victim().webhook}/deliveries`),
    );
    expectNothingOf(victim(), await call(key, 'GET', '/webhooks'));
    expectNothingOf(victim(), await call(key, 'GET', '/workspace'));
    expectNothingOf(victim(), await call(key, 'GET', '/collections'));
    // The victim's key still works, its webhook still exists.
    expect((await victim().client.listWebhooks()).map((hook) => hook.id)).toEqual([victim().webhook]);
  });

  it('retrieves only its own chunks, even for the other workspace’s words in a same-named collection', async () => {
    const { key } = attacker();
    const questions = [
      victim().word,
      `anggaran ${victim().word}`,
      `Berapa anggaran ${victim().word} tahun 2021?`,
      `program ${victim().word} provinsi`,
      `pengelola ${victim().word} wajib melapor`,
      'laporan ringkasan anggaran',
      'provinsi pengawasan ketat',
      'Rp1.000.000',
    ];
    for (const question of questions) {
      for (const top_k of [5, 50]) {
        const reply = await call(key, 'POST', '/query', { collection: 'laporan', question, top_k });
        expect(reply.status).toBe(200);
        expectNothingOf(victim(), retrieved(reply));
        const results = JSON.parse(reply.text).results as { document_id: string }[];
        for (const result of results) expect(attacker().documents).toContain(result.document_id);
      }
    }
  });

  it("chats only over its own documents, and cannot continue, read or delete the other's session or certificate", async () => {
    const { key } = attacker();
    for (const question of [`Berapa anggaran ${victim().word}?`, `Apa itu ${victim().word}?`]) {
      const reply = await call(key, 'POST', '/chat', { collection: 'laporan', question });
      expect(reply.status).toBe(200);
      expectNothingOf(victim(), retrieved(reply));
    }
    await expectNotFound(
      victim(),
      victim().session,
      call(key, 'POST', '/chat', { collection: 'laporan', question: 'lanjut', session_id: victim().session }),
    );
    await expectNotFound(victim(), victim().session, call(key, 'GET', `/sessions/${victim().session}`));
    await expectNotFound(victim(), victim().session, call(key, 'DELETE', `/sessions/${victim().session}`));
    await expectNotFound(
      victim(),
      victim().certificate,
      call(key, 'GET', `/certificates/${victim().certificate}`),
    );
    // Without a key, a private collection's session and certificate are not found, exactly like unknown ids.
    for (const [id, route] of [
      [victim().session, `/sessions/${victim().session}`],
      [victim().certificate, `/certificates/${victim().certificate}`],
    ] as const) {
      const response = await fetch(`${server.url}/api/v1${route}`);
      const reply = { status: response.status, text: await response.text() };
      expect(reply.status).toBe(404);
      expect(JSON.parse(reply.text).error.code).toBe('NOT_FOUND');
      expectNothingOf(victim(), reply, id);
    }
    expect((await victim().client.getSession(victim().session)).messages.length).toBeGreaterThan(0);
  });

  it("never receives the other's webhook events", async () => {
    await until(
      () => received.filter((delivery) => delivery.path.endsWith(`/${attacker().name}`)).length >= 3,
      'webhooks',
    );
    for (const delivery of received.filter((entry) => entry.path.endsWith(`/${attacker().name}`))) {
      expectNothingOf(victim(), { status: 200, text: delivery.body });
    }
  });
  it('cannot switch workspace with the admin-session header, and uploading the same bytes is not a dedupe hit', async () => {
    const response = await fetch(`${server.url}/api/v1/documents`, {
      headers: { authorization: `Bearer ${attacker().key}`, 'x-saksi-workspace': `wsp_${victim().name}` },
    });
    const reply = { status: response.status, text: await response.text() };
    expect(reply.status).toBe(200);
    expectNothingOf(victim(), reply);
    const accepted = await attacker().client.uploadDocument({
      collection: 'laporan',
      file: victim().bytes[0]!,
      filename: 'copied.md',
    });
    expect(accepted.deduplicated).toBe(false);
    expect(victim().documents).not.toContain(accepted.document.id);
    probes++;
    const ready = await attacker().client.waitForDocument(accepted.document.id, {
      intervalMs: 20,
      timeoutMs: 60_000,
    });
    expect(ready.status).toBe('READY');
    // Same bytes give the same root, but it is the attacker's own document now.
    expect(victim().roots).toContain(ready.root);
    await attacker().client.deleteDocument(accepted.document.id);
  });
});

describe('the isolation suite', () => {
  it('ran at least 100 cross-workspace probes', () => {
    console.info(`[isolation] ${probes} cross-workspace probes, none returned anything foreign`);
    expect(probes).toBeGreaterThanOrEqual(100);
  });
});
