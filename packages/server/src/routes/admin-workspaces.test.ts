/** `/api/v1/admin/workspaces` on a real engine: sessions, CSRF, workspaces, and keys shown once. */
import { createAdmin } from '@saksi/engine';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';

const EMAIL = 'admin@example.org';
const PASSWORD = 'correct horse battery';

let test: TestEngine;
let app: Hono;
let auth: { cookie: string; csrf: string };

interface Json {
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected field by field
  [key: string]: any;
}

async function call(
  method: string,
  path: string,
  options: { body?: unknown; raw?: string; cookie?: string; csrf?: string } = {},
) {
  const headers: Record<string, string> = {};
  const init: RequestInit = { method, headers };
  if (options.raw !== undefined) init.body = options.raw;
  else if (options.body !== undefined) init.body = JSON.stringify(options.body);
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (options.cookie !== undefined) headers['cookie'] = `saksi_session=${options.cookie}`;
  if (options.csrf !== undefined) headers['x-csrf-token'] = options.csrf;
  const env = { incoming: { socket: { remoteAddress: '192.0.2.30' } } };
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

/** A signed-in call: the session cookie, and the CSRF token unless `csrf` is false. */
function admin(method: string, path: string, body?: unknown, csrf = true) {
  return call(method, path, {
    cookie: auth.cookie,
    ...(csrf ? { csrf: auth.csrf } : {}),
    ...(body !== undefined ? { body } : {}),
  });
}

beforeAll(async () => {
  test = await openTestEngine();
  app = createApp(test.engine);
  await createAdmin(test.engine.db, EMAIL, PASSWORD);
  const response = await call('POST', '/admin/login', { body: { email: EMAIL, password: PASSWORD } });
  expect(response.status).toBe(200);
  const cookie = /saksi_session=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  expect(cookie).toBeDefined();
  auth = { cookie: cookie!, csrf: response.json['csrf_token'] as string };
});

afterAll(async () => {
  await test?.close();
});

describe('admin workspaces and keys', () => {
  it('needs a session on every route (401) and the CSRF token on every change (403)', async () => {
    const routes: [string, string, unknown][] = [
      ['GET', '/admin/workspaces', undefined],
      ['POST', '/admin/workspaces', { name: 'Nope' }],
      ['GET', '/admin/workspaces/wsp_default/keys', undefined],
      ['POST', '/admin/workspaces/wsp_default/keys', { name: 'k', scopes: ['read'] }],
      ['POST', '/admin/workspaces/wsp_default/keys/key_x/revoke', undefined],
    ];
    for (const [method, path, body] of routes) {
      const anonymous = await call(method, path, body === undefined ? {} : { body });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      expect(anonymous.json['error'].code).toBe('UNAUTHENTICATED');
    }
    for (const [method, path, body] of routes.filter(([method]) => method === 'POST')) {
      const forged = await call(method, path, {
        cookie: auth.cookie,
        csrf: 'not-the-token',
        ...(body === undefined ? {} : { body }),
      });
      expect(forged.status, `${method} ${path}`).toBe(403);
      expect(forged.json['error'].code).toBe('CSRF_INVALID');
      const missing = await admin(method, path, body, false);
      expect(missing.status, `${method} ${path}`).toBe(403);
      expect(missing.json['error'].code).toBe('CSRF_INVALID');
    }
    const names = (await admin('GET', '/admin/workspaces', undefined, false)).json['items'].map(
      (item: Json) => item['name'],
    );
    expect(names).not.toContain('Nope');
  });

  it('creates and lists workspaces with their counts', async () => {
    const created = await admin('POST', '/admin/workspaces', { name: '  Dinas Keuangan  ' });
    expect(created.status).toBe(201);
    const workspace = created.json['workspace'];
    expect(workspace).toEqual({
      id: expect.stringMatching(/^wsp_/),
      name: 'Dinas Keuangan',
      quotas: {},
      created_at: expect.any(String),
    });
    const list = await admin('GET', '/admin/workspaces', undefined, false);
    expect(list.status).toBe(200);
    expect(list.json['items']).toContainEqual({ ...workspace, documents: 0, keys: 0 });

    for (const body of [{}, { name: '' }, { name: '!bad' }, { name: 'x'.repeat(81) }, { name: 7 }]) {
      const refused = await admin('POST', '/admin/workspaces', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.json['error'].code).toBe('INVALID_INPUT');
    }
    const broken = await call('POST', '/admin/workspaces', {
      raw: '{"name":',
      cookie: auth.cookie,
      csrf: auth.csrf,
    });
    expect(broken.status).toBe(400);
    expect(broken.json['error'].code).toBe('INVALID_JSON');
  });

  it('creates a key shown once, lists it without its secret, and revokes it', async () => {
    const workspace = (await admin('POST', '/admin/workspaces', { name: 'Keys' })).json['workspace'];
    const base = `/admin/workspaces/${workspace.id}/keys`;
    const created = await admin('POST', base, { name: 'ingest bot', scopes: ['ingest', 'read', 'read'] });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const key = created.json['key'] as string;
    expect(key).toMatch(/^saksi_[A-Za-z0-9_-]{43}$/);
    const record = created.json['record'];
    expect(record).toEqual({
      id: expect.stringMatching(/^key_/),
      workspace_id: workspace.id,
      name: 'ingest bot',
      prefix: key.slice(0, 14),
      scopes: ['read', 'ingest'],
      created_at: expect.any(String),
      last_used_at: null,
      revoked_at: null,
    });
    expect(Object.keys(created.json).sort()).toEqual(['key', 'record']);

    const list = await admin('GET', base, undefined, false);
    expect(list.status).toBe(200);
    expect(list.json['items']).toEqual([record]);
    expect(list.text).not.toContain(key);
    expect(list.text).not.toContain(key.slice(14));
    expect(list.text).not.toContain('key_hash');
    const workspaces = await admin('GET', '/admin/workspaces', undefined, false);
    expect(workspaces.json['items'].find((item: Json) => item['id'] === workspace.id)?.keys).toBe(1);

    const revoked = await admin('POST', `${base}/${record.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.json['record']).toEqual({ ...record, revoked_at: expect.any(String) });
    expect(revoked.text).not.toContain(key);
    const again = await admin('POST', `${base}/${record.id}/revoke`);
    expect(again.status).toBe(200);
    expect(again.json['record'].revoked_at).toBe(revoked.json['record'].revoked_at);
    const after = await admin('GET', base, undefined, false);
    expect(after.json['items'][0].revoked_at).toBe(revoked.json['record'].revoked_at);

    const audit = await test.engine.db.query<{ actor: string; action: string; target: string }>(
      `SELECT actor, action, target FROM audit_log WHERE target = $1 ORDER BY id`,
      [record.id],
    );
    expect(audit.rows.map((row) => [row.actor, row.action])).toEqual([
      [EMAIL, 'api_key.create'],
      [EMAIL, 'api_key.revoke'],
      [EMAIL, 'api_key.revoke'],
    ]);
    const stored = await test.engine.db.query<{ created_by: string }>(
      'SELECT created_by FROM api_keys WHERE id = $1',
      [record.id],
    );
    expect(stored.rows[0]?.created_by).toBe(EMAIL);
  });

  it('refuses invalid scopes and names with 400', async () => {
    const workspace = (await admin('POST', '/admin/workspaces', { name: 'Strict' })).json['workspace'];
    const base = `/admin/workspaces/${workspace.id}/keys`;
    for (const body of [
      { name: 'k', scopes: [] },
      { name: 'k', scopes: ['write'] },
      { name: 'k', scopes: ['read', 'owner'] },
      { name: 'k', scopes: 'read' },
      { name: 'k' },
      { scopes: ['read'] },
      { name: '   ', scopes: ['read'] },
      { name: 'bell\u0007', scopes: ['read'] },
    ]) {
      const refused = await admin('POST', base, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.json['error'].code).toBe('INVALID_INPUT');
    }
    expect((await admin('GET', base, undefined, false)).json['items']).toEqual([]);
  });

  it('answers 404 for unknown or impossible workspaces and keys, and for a key of another workspace', async () => {
    for (const id of ['wsp_missing', 'no%20such', 'x'.repeat(101)]) {
      const list = await admin('GET', `/admin/workspaces/${id}/keys`, undefined, false);
      expect(list.status, id).toBe(404);
      expect(list.json['error'].code).toBe('NOT_FOUND');
      const create = await admin('POST', `/admin/workspaces/${id}/keys`, { name: 'k', scopes: ['read'] });
      expect(create.status, id).toBe(404);
      const revoke = await admin('POST', `/admin/workspaces/${id}/keys/key_x/revoke`);
      expect(revoke.status, id).toBe(404);
    }
    const mine = (await admin('POST', '/admin/workspaces', { name: 'Mine' })).json['workspace'];
    const other = (await admin('POST', '/admin/workspaces', { name: 'Other' })).json['workspace'];
    const record = (
      await admin('POST', `/admin/workspaces/${other.id}/keys`, { name: 'theirs', scopes: ['admin'] })
    ).json['record'];
    const crossed = await admin('POST', `/admin/workspaces/${mine.id}/keys/${record.id}/revoke`);
    expect(crossed.status).toBe(404);
    expect(crossed.json['error'].code).toBe('NOT_FOUND');
    const impossible = await admin('POST', `/admin/workspaces/${other.id}/keys/bad%20id/revoke`);
    expect(impossible.status).toBe(404);
    const listed = await admin('GET', `/admin/workspaces/${other.id}/keys`, undefined, false);
    expect(listed.json['items'][0].revoked_at).toBeNull();
  });
});
