/** `/api/v1/admin` on a real engine: sign-in, cookies, CSRF, the rate limit, SSE uploads and document management. */
import { createHash } from 'node:crypto';
import { createAdmin } from '@saksi/engine';
import { utf8Encode } from '@saksi/proof';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { startServer } from '../serve.js';

const EMAIL = 'admin@example.org';
const PASSWORD = 'correct horse battery';

let test: TestEngine;
let app: Hono;

interface Json {
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected field by field
  [key: string]: any;
}

interface CallOptions {
  body?: unknown;
  cookie?: string;
  csrf?: string;
  ip?: string;
  accept?: string;
  base?: string;
}

async function call(method: string, path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = {};
  const init: RequestInit = { method, headers };
  if (options.body instanceof FormData) init.body = options.body;
  else if (options.body !== undefined) {
    init.body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  if (options.cookie !== undefined) headers['cookie'] = `saksi_session=${options.cookie}`;
  if (options.csrf !== undefined) headers['x-csrf-token'] = options.csrf;
  if (options.accept !== undefined) headers['accept'] = options.accept;
  // The address the node server would take from the socket.
  const env = { incoming: { socket: { remoteAddress: options.ip ?? '192.0.2.10' } } };
  const response = await app.request(`${options.base ?? ''}/api/v1${path}`, init, env);
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

async function signIn(ip = '192.0.2.10') {
  const response = await call('POST', '/admin/login', { body: { email: EMAIL, password: PASSWORD }, ip });
  expect(response.status).toBe(200);
  const cookie = /saksi_session=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  expect(cookie).toBeDefined();
  return { cookie: cookie!, csrf: response.json['csrf_token'] as string };
}

function form(bytes: Uint8Array, filename: string, fields: Record<string, string>) {
  const data = new FormData();
  data.set('file', new File([bytes as Uint8Array<ArrayBuffer>], filename));
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

function parseEvents(text: string): { event: string; data: Json }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      return { event, data: JSON.parse(data) as Json };
    });
}

const LAW = [
  '# Undang-Undang tentang Lalu Lintas',
  '',
  ...Array.from(
    { length: 12 },
    (_, index) =>
      `## Pasal ${index + 1}\n\nSetiap pengendara kendaraan bermotor wajib mematuhi rambu nomor ${index + 1} dan marka jalan di wilayah kota.\n`,
  ),
].join('\n');

beforeAll(async () => {
  test = await openTestEngine();
  app = createApp(test.engine);
  await createAdmin(test.engine.db, EMAIL, PASSWORD);
});

afterAll(async () => {
  await test?.close();
});

describe('sign-in', () => {
  it('sets an HttpOnly, SameSite=Strict session cookie and returns the CSRF token', async () => {
    const response = await call('POST', '/admin/login', {
      body: { email: 'Admin@Example.org', password: PASSWORD },
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ email: EMAIL, csrf_token: expect.any(String) });
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^saksi_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain('Max-Age=43200');
    expect(cookie).not.toContain('Secure');
    const https = await call('POST', '/admin/login', {
      body: { email: EMAIL, password: PASSWORD },
      base: 'https://saksi.example',
    });
    expect(https.headers.get('set-cookie')).toContain('Secure');
  });

  it('answers a wrong password and an unknown email with the same 401', async () => {
    const wrong = await call('POST', '/admin/login', {
      body: { email: EMAIL, password: 'wrong password!' },
      ip: '192.0.2.20',
    });
    const unknown = await call('POST', '/admin/login', {
      body: { email: 'nobody@example.org', password: PASSWORD },
      ip: '192.0.2.20',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.json['error'].code).toBe('LOGIN_FAILED');
    expect(unknown.status).toBe(401);
    expect(unknown.text).toBe(wrong.text);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect((await call('POST', '/admin/login', { body: { email: EMAIL } })).status).toBe(400);
  });

  it('refuses a 21st failure from one address across accounts with 429 and Retry-After, even with the right password', async () => {
    const ip = '203.0.113.7';
    for (let attempt = 0; attempt < 20; attempt++) {
      const failed = await call('POST', '/admin/login', {
        body: { email: `guess${attempt}@example.org`, password: 'wrong password!' },
        ip,
      });
      expect(failed.status).toBe(401);
    }
    const limited = await call('POST', '/admin/login', { body: { email: EMAIL, password: PASSWORD }, ip });
    expect(limited.status).toBe(429);
    expect(limited.json['error'].code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(900);
    expect(limited.headers.get('set-cookie')).toBeNull();
    // Another address is not affected.
    await signIn('203.0.113.8');
  });
});

describe('sign-in limits', () => {
  it('counts at most 5 of 100 parallel wrong passwords; the rest get 429 with Retry-After', async () => {
    const attacker = '198.51.100.50';
    const responses = await Promise.all(
      Array.from({ length: 100 }, () =>
        call('POST', '/admin/login', { body: { email: EMAIL, password: 'wrong password!' }, ip: attacker }),
      ),
    );
    const failed = responses.filter((response) => response.status === 401);
    const limited = responses.filter((response) => response.status === 429);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThanOrEqual(5);
    expect(failed.length + limited.length).toBe(100);
    for (const response of limited) {
      expect(response.json['error'].code).toBe('RATE_LIMITED');
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // The attacker's address stays limited for this account, even with the right password …
    const again = await call('POST', '/admin/login', {
      body: { email: EMAIL, password: PASSWORD },
      ip: attacker,
    });
    expect(again.status).toBe(429);
    // … while the admin signs in from another address.
    await signIn('198.51.100.51');
  });
});

describe('sessions', () => {
  it('me: 401 without a cookie, the email and CSRF token with one, SESSION_EXPIRED once expired', async () => {
    const none = await call('GET', '/admin/me');
    expect(none.status).toBe(401);
    expect(none.json['error'].code).toBe('UNAUTHENTICATED');
    expect((await call('GET', '/admin/me', { cookie: 'made-up-token' })).json['error'].code).toBe(
      'UNAUTHENTICATED',
    );
    const { cookie, csrf } = await signIn();
    const me = await call('GET', '/admin/me', { cookie });
    expect(me.status).toBe(200);
    expect(me.json).toEqual({ email: EMAIL, csrf_token: csrf });
    await test.engine.db.query(
      `UPDATE auth_sessions SET expires_at = now() - interval '1 minute' WHERE token_hash = $1`,
      [createHash('sha256').update(cookie).digest('hex')],
    );
    const expired = await call('GET', '/admin/me', { cookie });
    expect(expired.status).toBe(401);
    expect(expired.json['error'].code).toBe('SESSION_EXPIRED');
  });

  it('acts on the developer API as the admin (CSRF on changes); public routes ignore a stale or CSRF-less cookie', async () => {
    const { cookie, csrf } = await signIn();
    expect((await call('GET', '/documents', { cookie })).status).toBe(200);
    const missing = await call('POST', '/keys', { cookie, body: { name: 'ci', scopes: ['read'] } });
    expect(missing.status).toBe(403);
    expect(missing.json['error'].code).toBe('CSRF_INVALID');
    const created = await call('POST', '/keys', { cookie, csrf, body: { name: 'ci', scopes: ['read'] } });
    expect(created.status).toBe(201);
    expect(created.json['key']).toMatch(/^saksi_/);
    // A signed-in admin using the public chat or /verify sends no CSRF token; a stale cookie is no key.
    for (const stale of [cookie, 'made-up-token']) {
      const verify = await call('POST', '/verify', { cookie: stale, body: { bundle: {} } });
      expect([200, 400]).toContain(verify.status);
      const expired = await call('GET', '/documents', { cookie: 'made-up-token' });
      expect(expired.status).toBe(401);
    }
  });

  it('logout deletes the session and clears the cookie', async () => {
    const { cookie } = await signIn();
    const out = await call('POST', '/admin/logout', { cookie });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/saksi_session=;.*Max-Age=0/);
    const rows = await test.engine.db.query('SELECT 1 FROM auth_sessions WHERE token_hash = $1', [
      createHash('sha256').update(cookie).digest('hex'),
    ]);
    expect(rows.rows).toHaveLength(0);
    expect((await call('GET', '/admin/me', { cookie })).json['error'].code).toBe('UNAUTHENTICATED');
  });
});

describe('documents', () => {
  it('streams upload progress as SSE, then the document', async () => {
    const { cookie, csrf } = await signIn();
    const response = await call('POST', '/admin/documents', {
      cookie,
      csrf,
      accept: 'text/event-stream',
      body: form(utf8Encode(LAW), 'uu-lalu-lintas.md', {
        collection: 'admin-law',
        document_type: 'other',
        fiscal_year: '2024',
        source: 'https://peraturan.example/uu-22-2009',
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = parseEvents(response.text);
    const progress = events.filter((event) => event.event === 'progress');
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.map((event) => event.data['stage'])).toEqual(
      expect.arrayContaining(['parsing', 'chunking', 'embedding', 'storing']),
    );
    const values = progress.map((event) => event.data['progress'] as number);
    for (let index = 1; index < values.length; index++)
      expect(values[index]!).toBeGreaterThanOrEqual(values[index - 1]!);
    expect(values[values.length - 1]!).toBeGreaterThan(values[0]!);
    const last = events[events.length - 1]!;
    expect(last.event).toBe('done');
    expect(last.data['document']).toMatchObject({
      status: 'READY',
      collection: 'admin-law',
      document_type: 'other',
      fiscal_year: 2024,
    });
  });

  it('sends an error event with the parser code and stores nothing for a malformed file', async () => {
    const { cookie, csrf } = await signIn();
    const before = (await test.engine.documents.list({})).total;
    const response = await call('POST', '/admin/documents', {
      cookie,
      csrf,
      accept: 'text/event-stream',
      body: form(utf8Encode('hello world'), 'laporan.pdf', {
        collection: 'admin-law',
        document_type: 'APBN',
      }),
    });
    const events = parseEvents(response.text);
    const last = events[events.length - 1]!;
    expect(last.event).toBe('error');
    expect(last.data['code']).toBe('MALFORMED_FILE');
    expect(events.some((event) => event.event === 'done')).toBe(false);
    expect((await test.engine.documents.list({})).total).toBe(before);
  });

  it('uploads as JSON without SSE and validates the document type', async () => {
    const { cookie, csrf } = await signIn();
    const created = await call('POST', '/admin/documents', {
      cookie,
      csrf,
      body: form(
        utf8Encode('# APBN 2025\n\nBelanja negara tahun 2025 direncanakan sebesar Rp3.621 triliun.\n'),
        'apbn-2025.md',
        {
          collection: 'admin-budget',
          document_type: 'APBN',
          fiscal_year: '2025',
        },
      ),
    });
    expect(created.status).toBe(201);
    expect(created.json['deduplicated']).toBe(false);
    expect(created.json['document']).toMatchObject({ document_type: 'APBN', fiscal_year: 2025 });
    const bad = await call('POST', '/admin/documents', {
      cookie,
      csrf,
      body: form(utf8Encode('# X\n\nTeks.\n'), 'x.md', {
        collection: 'admin-budget',
        document_type: 'RAPBN',
      }),
    });
    expect(bad.status).toBe(400);
    expect(bad.json['error'].code).toBe('INVALID_INPUT');
  });

  it('lists with filters, paging and the anchor column', async () => {
    const { cookie, csrf } = await signIn();
    for (const year of [2023, 2024]) {
      const response = await call('POST', '/admin/documents', {
        cookie,
        csrf,
        body: form(
          utf8Encode(
            `# APBD ${year}\n\nPendapatan daerah tahun ${year} ditetapkan dalam peraturan daerah.\n`,
          ),
          `apbd-${year}.md`,
          { collection: 'admin-region', document_type: 'APBD', fiscal_year: String(year) },
        ),
      });
      expect(response.status).toBe(201);
    }
    const all = await call('GET', '/admin/documents?collection=admin-region', { cookie });
    expect(all.status).toBe(200);
    expect(all.json['total']).toBe(2);
    expect(all.json['items'].map((item: Json) => item['fiscal_year'])).toEqual([2024, 2023]);
    expect(all.json['items'][0]).toMatchObject({
      anchor: null,
      anchor_state: 'PENDING_ANCHOR',
      chunk_count: 1,
    });
    const year = await call('GET', '/admin/documents?document_type=APBD&fiscal_year=2023', { cookie });
    expect(year.json['items'].map((item: Json) => item['filename'])).toEqual(['apbd-2023.md']);
    const page = await call('GET', '/admin/documents?collection=admin-region&limit=1&offset=1', { cookie });
    expect(page.json).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(page.json['items'].map((item: Json) => item['fiscal_year'])).toEqual([2023]);
    expect((await call('GET', '/admin/documents?status=GONE', { cookie })).status).toBe(400);
    expect((await call('GET', '/admin/documents')).status).toBe(401);

    // A confirmed anchoring round for the 2024 document (written as the anchor service writes it).
    const anchored = all.json['items'][0] as Json;
    const tx = `0x${'ab'.repeat(32)}`;
    await test.engine.db.query(
      `INSERT INTO anchor_rounds (id, status, provider, chain_id, contract, batch_root, size, tx_hash, block_number, confirmed_at)
       VALUES ('anc_test', 'CONFIRMED', 'evm', 84532, $1, $2, 1, $3, 77, now())`,
      [`0x${'11'.repeat(20)}`, anchored['root'], tx],
    );
    await test.engine.db.query(
      `INSERT INTO anchor_members (round_id, leaf_index, kind, document_id, root, proof) VALUES ('anc_test', 0, 'document', $1, $2, '[]')`,
      [anchored['id'], anchored['root']],
    );
    const listed = await call('GET', '/admin/documents?collection=admin-region', { cookie });
    expect(listed.json['items'][0]['anchor']).toEqual({
      chain_id: 84532,
      tx_hash: tx,
      block_number: 77,
      explorer_url: `https://sepolia.basescan.org/tx/${tx}`,
    });
    expect(listed.json['items'][1]['anchor']).toBeNull();
  });

  it('refuses state changes without the right CSRF token and changes nothing', async () => {
    const { cookie, csrf } = await signIn();
    const { document } = await test.engine.ingest('admin-csrf', {
      bytes: utf8Encode('# CSRF\n\nDokumen ini tidak boleh diarsipkan tanpa token.\n'),
      filename: 'csrf.md',
    });
    for (const header of [undefined, 'wrong-token', `${csrf}x`]) {
      const archive = await call('POST', `/admin/documents/${document.id}/archive`, {
        cookie,
        ...(header !== undefined ? { csrf: header } : {}),
      });
      expect(archive.status).toBe(403);
      expect(archive.json['error'].code).toBe('CSRF_INVALID');
      const remove = await call('DELETE', `/admin/documents/${document.id}`, {
        cookie,
        ...(header !== undefined ? { csrf: header } : {}),
      });
      expect(remove.status).toBe(403);
    }
    const upload = await call('POST', '/admin/documents', {
      cookie,
      body: form(utf8Encode('# Baru\n\nDokumen baru.\n'), 'baru.md', { collection: 'admin-csrf' }),
    });
    expect(upload.status).toBe(403);
    // A token from another session does not fit this one.
    const other = await signIn();
    expect(
      (await call('POST', `/admin/documents/${document.id}/archive`, { cookie, csrf: other.csrf })).status,
    ).toBe(403);
    expect((await call('POST', `/admin/documents/${document.id}/archive`, { csrf })).status).toBe(401);
    expect((await test.engine.documents.get(document.id)).status).toBe('READY');
    expect((await test.engine.documents.list({ collection: 'admin-csrf' })).total).toBe(1);
  });

  it('archives (not retrieved), restores (retrieved again), deletes (404 afterwards)', async () => {
    const { cookie, csrf } = await signIn();
    const { document } = await test.engine.ingest('admin-archive', {
      bytes: utf8Encode('# Helm\n\nPengendara sepeda motor wajib memakai helm standar nasional Indonesia.\n'),
      filename: 'helm.md',
    });
    // The admin session may query too (the CSRF token is needed for the POST).
    const retrieved = async () => {
      const response = await call('POST', '/query', {
        body: { collection: 'admin-archive', question: 'wajib memakai helm' },
        cookie,
        csrf,
      });
      expect(response.status, response.text).toBe(200);
      return response.json['results'].some(
        (result: Json) => result['document_id'] === document.id,
      ) as boolean;
    };
    expect(await retrieved()).toBe(true);
    const archived = await call('POST', `/admin/documents/${document.id}/archive`, { cookie, csrf });
    expect(archived.status).toBe(200);
    expect(archived.json['document']).toMatchObject({ id: document.id, status: 'ARCHIVED' });
    expect(await retrieved()).toBe(false);
    const again = await call('POST', `/admin/documents/${document.id}/archive`, { cookie, csrf });
    expect(again.status).toBe(409);
    const restored = await call('POST', `/admin/documents/${document.id}/restore`, { cookie, csrf });
    expect(restored.json['document']).toMatchObject({ status: 'READY' });
    expect(await retrieved()).toBe(true);
    const removed = await call('DELETE', `/admin/documents/${document.id}`, { cookie, csrf });
    expect(removed.status).toBe(204);
    expect((await call('GET', `/documents/${document.id}`, { cookie })).status).toBe(404);
    expect((await call('DELETE', `/admin/documents/${document.id}`, { cookie, csrf })).status).toBe(404);
  });

  it('answers 404 for unknown ids', async () => {
    const { cookie, csrf } = await signIn();
    for (const [method, path] of [
      ['POST', '/admin/documents/doc_unknown/archive'],
      ['POST', '/admin/documents/doc_unknown/restore'],
      ['DELETE', '/admin/documents/doc_unknown'],
      ['DELETE', '/admin/documents/not%20an%20id'],
    ] as const) {
      const response = await call(method, path, { cookie, csrf });
      expect(response.status).toBe(404);
      expect(response.json['error'].code).toBe('NOT_FOUND');
    }
  });
});

describe('OpenAPI', () => {
  it('lists every admin route with the cookie and CSRF security schemes', async () => {
    const document = (await call('GET', '/openapi.json')).json;
    for (const route of [
      '/api/v1/admin/login',
      '/api/v1/admin/logout',
      '/api/v1/admin/me',
      '/api/v1/admin/documents',
      '/api/v1/admin/documents/{id}',
      '/api/v1/admin/documents/{id}/archive',
      '/api/v1/admin/documents/{id}/restore',
    ])
      expect(Object.keys(document['paths'])).toContain(route);
    expect(document['components']['securitySchemes']['adminSession']).toMatchObject({
      in: 'cookie',
      name: 'saksi_session',
    });
  });
});

describe('over a real HTTP server', () => {
  it('signs in with fetch, sends the cookie back and takes the address from the socket', async () => {
    const server = await startServer(test.engine, { port: 0, host: '127.0.0.1' });
    try {
      const response = await fetch(`${server.url}/api/v1/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.18.0.1' },
        body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
      });
      expect(response.status).toBe(200);
      const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
      const me = await fetch(`${server.url}/api/v1/admin/me`, { headers: { cookie } });
      expect(((await me.json()) as Json)['email']).toBe(EMAIL);
      const hash = (value: string) => createHash('sha256').update(value).digest('hex');
      const socketAddresses = ['127.0.0.1', '::ffff:127.0.0.1'];
      // A success gives its reservation back: nothing is counted against the address or the pair.
      const failures = await test.engine.db.query<{ n: number }>(
        'SELECT coalesce(sum(cardinality(recent)), 0)::integer AS n FROM login_attempts WHERE subject = ANY($1::text[])',
        [socketAddresses.flatMap((ip) => [hash(`address:${ip}`), hash(`pair:${ip}\n${EMAIL}`)])],
      );
      expect(failures.rows[0]?.n).toBe(0);
      const wrong = await fetch(`${server.url}/api/v1/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.18.0.1' },
        body: JSON.stringify({ email: 'someone@example.org', password: 'wrong password!' }),
      });
      expect(wrong.status).toBe(401);
      const counted = await test.engine.db.query<{ subject: string }>('SELECT subject FROM login_attempts');
      const subjects = counted.rows.map((row) => row.subject);
      expect(socketAddresses.some((ip) => subjects.includes(hash(`pair:${ip}\nsomeone@example.org`)))).toBe(
        true,
      );
      expect(subjects).not.toContain(hash('address:198.18.0.1'));
      expect(subjects).not.toContain(hash('pair:198.18.0.1\nsomeone@example.org'));
    } finally {
      await server.close();
    }
  });
});
