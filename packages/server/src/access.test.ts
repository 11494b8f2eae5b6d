/**
 * Who may read what, through the real app on PGlite (docs/api.md "Access"): `public` counts only in
 * the default workspace, so a public-flagged collection of another workspace serves its certificates,
 * sessions and anchors to a key of that workspace only; a session is read or deleted by its own id (the
 * capability the public chat hands its creator) only when it is a public record, otherwise by a key of
 * its workspace; the certificate ids anyone can read in the log's entry tiles open nothing; and an
 * admin session naming a workspace that does not exist gets 404 and creates nothing.
 */
import { createAdmin, createApiKey, createWorkspace, DEFAULT_WORKSPACE } from '@saksi/engine';
import { utf8Decode, utf8Encode } from '@saksi/proof';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import type { Json } from '@saksi/test-support/sse-events';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';

const EMAIL = 'admin@example.org';
const PASSWORD = 'correct horse battery';

const helm = utf8Encode(
  '# Helm\n\nPengendara sepeda motor wajib memakai helm standar nasional Indonesia.\n\n## Lampu\n\nSepeda motor wajib menyalakan lampu utama pada siang hari.\n',
);
const pasar = utf8Encode(
  '# Retribusi Pasar\n\nPedagang pasar membayar retribusi harian sebesar Rp5.000 kepada pengelola pasar.\n\n## Kebersihan\n\nPengelola pasar wajib menjaga kebersihan los dan kios setiap hari.\n',
);

let test: TestEngine;
let app: Hono;

/** What one workspace owns: its key, and one document, chat session and certificate. */
interface Owned {
  key: string;
  document: string;
  session: string;
  certificate: string;
}

/** Workspace A: a plain second workspace, whose key probes B's records. */
let alpha: { id: string; key: string };
/** Workspace B: its collection `terbuka` was created with `public: true`, which counts for nothing there. */
let beta: Owned & { id: string };
/** The default workspace: `demo` is public (the quick start), `rahasia` is not. */
let demo: Owned;
let secret: Owned;
let adminAuth: { cookie: string; csrf: string };

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: Json;
}

async function call(
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['authorization'] = `Bearer ${options.key}`;
  const init: RequestInit = { method, headers };
  if (options.body instanceof FormData) init.body = options.body;
  else if (options.body !== undefined) {
    init.body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const env = { incoming: { socket: { remoteAddress: '192.0.2.44' } } };
  const response = await app.request(`/api/v1${path}`, init, env);
  const text = await response.text();
  expect(text).not.toMatch(/\n\s+at /); // never a stack trace
  const type = response.headers.get('content-type') ?? '';
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: (type.includes('json') ? JSON.parse(text) : null) as Json,
  };
}

/** A signed-in admin call acting on the workspace named by `X-Saksi-Workspace` (none: the default). */
function asAdmin(method: string, path: string, workspace?: string, body?: unknown): Promise<Reply> {
  return call(method, path, {
    headers: {
      cookie: `saksi_session=${adminAuth.cookie}`,
      'x-csrf-token': adminAuth.csrf,
      ...(workspace !== undefined ? { 'x-saksi-workspace': workspace } : {}),
    },
    ...(body !== undefined ? { body } : {}),
  });
}

function expectNotFound(reply: Reply, what: string): void {
  expect(reply.status, `${what}: ${reply.text}`).toBe(404);
  expect(reply.json['error'].code, what).toBe('NOT_FOUND');
}

/** The routes that serve a record of `owned` by its id. */
function recordRoutes(owned: Owned): [string, string][] {
  return [
    ['GET', `/certificates/${owned.certificate}`],
    ['GET', `/sessions/${owned.session}`],
    ['GET', `/anchors/${owned.document}`],
    ['DELETE', `/sessions/${owned.session}`],
  ];
}

async function chat(collection: string, question: string, key?: string) {
  const reply = await call('POST', '/chat', { body: { collection, question }, ...(key ? { key } : {}) });
  expect(reply.status, reply.text).toBe(200);
  return {
    session: reply.json['session_id'] as string,
    certificate: reply.json['bundle'].certificate.certificate_id as string,
  };
}

async function workspaceIds(): Promise<string[]> {
  const result = await test.engine.db.query<{ id: string }>('SELECT id FROM workspaces ORDER BY id');
  return result.rows.map((row) => row.id);
}

async function sessionExists(id: string): Promise<boolean> {
  const result = await test.engine.db.query('SELECT 1 FROM chat_sessions WHERE id = $1', [id]);
  return result.rows.length === 1;
}

/** The leaf inputs of the whole log, read from its public entry tiles as any monitor would. */
async function logLeaves(): Promise<Json[]> {
  const size = (await call('GET', '/log/checkpoint')).json['size'] as number;
  expect(size).toBeLessThan(256);
  const response = await app.request(`/api/v1/log/tiles/tile/entries/000.p/${size}`);
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const leaves: Json[] = [];
  for (let offset = 0; offset < bytes.length; ) {
    const length = (bytes[offset]! << 8) | bytes[offset + 1]!;
    leaves.push(JSON.parse(utf8Decode(bytes.subarray(offset + 2, offset + 2 + length))) as Json);
    offset += 2 + length;
  }
  expect(leaves).toHaveLength(size);
  return leaves;
}

beforeAll(async () => {
  test = await openTestEngine({
    env: { SAKSI_ANCHOR: 'none', SAKSI_RATE_LIMIT_KEY: '0', SAKSI_RATE_LIMIT_IP: '0' },
  });
  app = createApp(test.engine);

  const newWorkspace = async (name: string) => {
    const workspace = await createWorkspace(test.engine.db, { name });
    const { key } = await createApiKey(test.engine.db, {
      workspaceId: workspace.id,
      name: `${name} admin`,
      scopes: ['admin'],
    });
    return { id: workspace.id, key };
  };
  alpha = await newWorkspace('Alpha');
  const betaWorkspace = await newWorkspace('Beta');

  // B flags its collection public through the API, as any key holder of B can.
  const created = await call('POST', '/collections', {
    key: betaWorkspace.key,
    body: { name: 'terbuka', language: 'id', public: true },
  });
  expect(created.status, created.text).toBe(201);
  const betaDocument = await test.engine.ingest(
    'terbuka',
    { bytes: pasar, filename: 'pasar.md' },
    { workspaceId: betaWorkspace.id },
  );
  beta = {
    ...betaWorkspace,
    document: betaDocument.document.id,
    ...(await chat('terbuka', 'Berapa retribusi harian pedagang pasar?', betaWorkspace.key)),
  };

  const demoDocument = await test.engine.ingest(
    'demo',
    { bytes: helm, filename: 'helm.md' },
    { profile: { public: true } },
  );
  demo = {
    key: '',
    document: demoDocument.document.id,
    ...(await chat('demo', 'Apakah pengendara sepeda motor wajib memakai helm?')),
  };
  const secretDocument = await test.engine.ingest('rahasia', { bytes: pasar, filename: 'pasar.md' });
  const secretKey = (
    await createApiKey(test.engine.db, { workspaceId: DEFAULT_WORKSPACE, name: 'default', scopes: ['read'] })
  ).key;
  secret = {
    key: secretKey,
    document: secretDocument.document.id,
    ...(await chat('rahasia', 'Berapa retribusi harian pedagang pasar?', secretKey)),
  };

  await createAdmin(test.engine.db, EMAIL, PASSWORD);
  const login = await call('POST', '/admin/login', { body: { email: EMAIL, password: PASSWORD } });
  expect(login.status, login.text).toBe(200);
  const cookie = /saksi_session=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
  expect(cookie).toBeDefined();
  adminAuth = { cookie: cookie!, csrf: login.json['csrf_token'] as string };
}, 120_000);

afterAll(async () => {
  await test?.close();
});

describe('public outside the default workspace', () => {
  it('serves none of the public-flagged collection’s certificates, sessions or anchors without its key', async () => {
    for (const [method, path] of recordRoutes(beta)) {
      expectNotFound(await call(method, path), `anonymous ${method} ${path}`);
      expectNotFound(await call(method, path, { key: alpha.key }), `key of A: ${method} ${path}`);
      expectNotFound(await call(method, path, { key: secret.key }), `key of the default: ${method} ${path}`);
    }
    expect(await sessionExists(beta.session)).toBe(true);
    // Its own key reads all of it.
    for (const [method, path] of recordRoutes(beta).filter(([method]) => method === 'GET')) {
      expect((await call(method, path, { key: beta.key })).status, `${method} ${path}`).toBe(200);
    }
  });

  it('does not list the collection or chat with it without a key', async () => {
    const listed = await call('GET', '/collections');
    expect(listed.status).toBe(200);
    expect(listed.json['items'].map((item: Json) => item['name'])).not.toContain('terbuka');
    const chatted = await call('POST', '/chat', { body: { collection: 'terbuka', question: 'retribusi' } });
    expectNotFound(chatted, 'anonymous chat');
  });
});

describe('chat sessions', () => {
  it('another workspace’s key cannot read or delete a session: 404, and the session stays', async () => {
    const before = (await call('GET', `/sessions/${beta.session}`, { key: beta.key })).json;
    expect(before['messages'].length).toBeGreaterThan(0);
    expectNotFound(await call('DELETE', `/sessions/${beta.session}`, { key: alpha.key }), 'A deletes B');
    expectNotFound(await call('GET', `/sessions/${beta.session}`, { key: alpha.key }), 'A reads B');
    expect(await sessionExists(beta.session)).toBe(true);
    expect((await call('GET', `/sessions/${beta.session}`, { key: beta.key })).json).toEqual(before);
  });

  it('a private session answers without a key exactly like an unknown one', async () => {
    const unknown = await call('GET', '/sessions/ses_00000000000000000000000000000000');
    expectNotFound(unknown, 'unknown session');
    for (const [method, path] of recordRoutes(secret)) {
      expectNotFound(await call(method, path), `anonymous ${method} ${path}`);
      expectNotFound(await call(method, path, { key: alpha.key }), `key of A: ${method} ${path}`);
    }
    expect(await sessionExists(secret.session)).toBe(true);
    expect((await call('GET', `/sessions/${secret.session}`, { key: secret.key })).status).toBe(200);
  });

  it('its own workspace’s key deletes it', async () => {
    const other = await chat('terbuka', 'Siapa yang menjaga kebersihan los?', beta.key);
    expect((await call('DELETE', `/sessions/${other.session}`, { key: beta.key })).status).toBe(204);
    expect(await sessionExists(other.session)).toBe(false);
  });
});

describe('the log’s entry tiles', () => {
  it('name every certificate, but the id alone opens only public records', async () => {
    const ids = (await logLeaves()).map((leaf) => leaf['certificate_id']);
    // The log is public and lists every certificate id (docs/transparency-log.md) ...
    expect(ids).toEqual(expect.arrayContaining([beta.certificate, secret.certificate, demo.certificate]));
    // ... so the certificate route, not the secrecy of the id, decides.
    for (const id of [beta.certificate, secret.certificate]) {
      expectNotFound(await call('GET', `/certificates/${id}`), `anonymous ${id}`);
      expectNotFound(await call('GET', `/certificates/${id}`, { key: alpha.key }), `key of A: ${id}`);
    }
    expect((await call('GET', `/certificates/${demo.certificate}`)).status).toBe(200);
  });
});

describe('the default workspace’s public collection (the demo and quick start)', () => {
  it('lists, chats and serves its records without a key, to anyone', async () => {
    const listed = await call('GET', '/collections');
    expect(listed.json['items'].map((item: Json) => item['name'])).toEqual(['demo']);
    const fresh = await chat('demo', 'Kapan lampu utama sepeda motor wajib dinyalakan?');
    const owned = { ...demo, ...fresh };
    for (const [method, path] of recordRoutes(owned).filter(([method]) => method === 'GET')) {
      expect((await call(method, path)).status, `anonymous ${method} ${path}`).toBe(200);
      // A public record is public to a key of any workspace too.
      expect((await call(method, path, { key: alpha.key })).status, `key of A: ${method} ${path}`).toBe(200);
    }
    const session = (await call('GET', `/sessions/${fresh.session}`)).json;
    expect(session['messages'][1].certificate_id).toBe(fresh.certificate);
    // The session id is the capability the public chat handed its creator: it deletes the session.
    expect((await call('DELETE', `/sessions/${fresh.session}`)).status).toBe(204);
    expect(await sessionExists(fresh.session)).toBe(false);
    expect((await call('GET', `/certificates/${fresh.certificate}`)).status).toBe(200);
  });
});

describe('X-Saksi-Workspace', () => {
  it('an unknown, malformed or disabled workspace is 404 WORKSPACE_NOT_FOUND, and nothing is created', async () => {
    const disabled = await createWorkspace(test.engine.db, { name: 'Ditutup' });
    await test.engine.db.query('UPDATE workspaces SET disabled_at = now() WHERE id = $1', [disabled.id]);
    const before = await workspaceIds();
    const form = () => {
      const body = new FormData();
      body.set('file', new File([helm as Uint8Array<ArrayBuffer>], 'helm.md'));
      body.set('collection', 'salah-ketik');
      return body;
    };
    for (const workspace of ['wsp_defualt', `${beta.id}x`, 'wsp default', disabled.id]) {
      for (const [method, path, body] of [
        ['POST', '/collections', { name: 'salah-ketik', language: 'id' }],
        ['POST', '/documents', form()],
        ['POST', '/uploads', { collection: 'salah-ketik', filename: 'helm.md' }],
        ['GET', '/collections', undefined],
        ['GET', '/documents', undefined],
        ['GET', '/workspace', undefined],
        ['GET', `/sessions/${demo.session}`, undefined],
      ] as const) {
        const reply = await asAdmin(method, path, workspace, body);
        expect(reply.status, `${workspace} ${method} ${path}: ${reply.text}`).toBe(404);
        expect(reply.json['error'].code).toBe('WORKSPACE_NOT_FOUND');
      }
    }
    expect(await workspaceIds()).toEqual(before);
    const collections = await test.engine.db.query(`SELECT 1 FROM collections WHERE name = 'salah-ketik'`);
    expect(collections.rows).toHaveLength(0);
  });

  it('an existing workspace, or none, is acted on as before', async () => {
    const created = await asAdmin('POST', '/collections', beta.id, { name: 'lewat-admin', language: 'id' });
    expect(created.status, created.text).toBe(201);
    const listed = await call('GET', '/collections', { key: beta.key });
    expect(listed.json['items'].map((item: Json) => item['name'])).toContain('lewat-admin');
    const own = await asAdmin('GET', '/workspace');
    expect(own.status, own.text).toBe(200);
    expect(own.json['workspace'].id).toBe(DEFAULT_WORKSPACE);
    expect((await asAdmin('GET', `/sessions/${beta.session}`, beta.id)).status).toBe(200);
  });
});
