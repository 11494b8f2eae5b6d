/** Admin authentication on a real database: scrypt hashes, admins, sessions, CSRF, the rate limit, archiving. */
import { statSync } from 'node:fs';
import path from 'node:path';
import { utf8Encode } from '@saksi/proof';
import { openTestEngine, TEST_DATABASE_URL, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CSRF_SECRET_FILE,
  checkCsrfToken,
  createAdmin,
  ensureFirstAdmin,
  hashPassword,
  loadOrCreateAuthSecret,
  login,
  logout,
  RateLimitedError,
  sessionFor,
  verifyPassword,
} from './auth.js';
import type { Queryable } from './db/database.js';
import { Engine } from './engine.js';
import { EngineError } from './errors.js';

let test: TestEngine;
let secret: Uint8Array;

beforeAll(async () => {
  test = await openTestEngine();
  secret = await loadOrCreateAuthSecret(test.engine.config.keysDir);
});

afterAll(async () => {
  await test?.close();
});

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return error instanceof EngineError ? error.code : `not an EngineError: ${String(error)}`;
  }
  return undefined;
}

describe('password hashing', () => {
  it('round-trips, uses a fresh salt each time and rejects tampered or malformed hashes', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
    expect(await hashPassword('correct horse battery')).not.toBe(hash);
    const parts = hash.split('$');
    const digest = Buffer.from(parts[5]!, 'base64');
    digest[0] = digest[0]! ^ 1;
    const tampered = [...parts.slice(0, 5), digest.toString('base64')].join('$');
    expect(await verifyPassword('correct horse battery', tampered)).toBe(false);
    expect(await verifyPassword('correct horse battery', hash.replace('$32768$', '$16384$'))).toBe(false);
    expect(await verifyPassword('x', 'scrypt$1073741824$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAA')).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$whatever')).toBe(false);
    expect(await verifyPassword('x', '')).toBe(false);
  });
});

describe('admins, sessions and CSRF', () => {
  it('validates new admins and refuses a second admin with the same email', async () => {
    expect(await codeOf(createAdmin(test.engine.db, 'not-an-email', 'long enough password'))).toBe(
      'INVALID_INPUT',
    );
    expect(await codeOf(createAdmin(test.engine.db, 'a@example.org', 'short'))).toBe('INVALID_INPUT');
    const admin = await createAdmin(test.engine.db, 'Admin@Example.org', 'long enough password');
    expect(admin.email).toBe('admin@example.org');
    expect(await codeOf(createAdmin(test.engine.db, 'admin@example.org ', 'another password!'))).toBe(
      'CONFLICT',
    );
    expect(await ensureFirstAdmin(test.engine.db, 'other@example.org', 'long enough password')).toBeNull();
    const stored = await test.engine.db.query<{ password_hash: string }>(
      'SELECT password_hash FROM admin_users WHERE username = $1',
      ['admin@example.org'],
    );
    expect(stored.rows[0]?.password_hash).not.toContain('long enough password');
  });

  it('signs in, finds the session by its token, binds the CSRF token to it and logs out', async () => {
    const result = await login(test.engine.db, 'ADMIN@example.org', 'long enough password', {
      ip: '192.0.2.1',
      secret,
    });
    expect(result.email).toBe('admin@example.org');
    expect(Buffer.from(result.token, 'base64url')).toHaveLength(32);
    const session = await sessionFor(test.engine.db, result.token, { secret });
    expect(session.csrf_token).toBe(result.csrf_token);
    expect(checkCsrfToken(secret, session.session_id, result.csrf_token)).toBe(true);
    const flipped = `${result.csrf_token.slice(0, -1)}${result.csrf_token.endsWith('A') ? 'B' : 'A'}`;
    expect(checkCsrfToken(secret, session.session_id, flipped)).toBe(false);
    expect(checkCsrfToken(secret, session.session_id, undefined)).toBe(false);
    const other = await loadOrCreateAuthSecret(path.join(test.dataDir, 'other-keys'));
    expect(checkCsrfToken(other, session.session_id, result.csrf_token)).toBe(false);
    const stored = await test.engine.db.query<{ token_hash: string }>('SELECT token_hash FROM auth_sessions');
    expect(stored.rows.map((row) => row.token_hash)).not.toContain(result.token);
    expect(
      await codeOf(
        sessionFor(test.engine.db, result.token, { secret, now: new Date(Date.now() + 13 * 3600_000) }),
      ),
    ).toBe('SESSION_EXPIRED');
    expect(await logout(test.engine.db, result.token)).toBe(true);
    expect(await codeOf(sessionFor(test.engine.db, result.token, { secret }))).toBe('UNAUTHENTICATED');
    expect(await codeOf(sessionFor(test.engine.db, undefined, { secret }))).toBe('UNAUTHENTICATED');
  });

  it('keeps the CSRF secret in a 0600 file that survives a reload', async () => {
    const file = path.join(test.engine.config.keysDir, CSRF_SECRET_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(await loadOrCreateAuthSecret(test.engine.config.keysDir))).toEqual(
      Buffer.from(secret),
    );
  });
});

/** The error code of a sign-in, or 'OK'; with the wait when it was RATE_LIMITED. */
async function attempt(
  db: Queryable,
  email: string,
  password: string,
  ip: string,
  now: Date,
): Promise<{ code: string; wait?: number }> {
  try {
    await login(db, email, password, { ip, secret, now });
    return { code: 'OK' };
  } catch (error) {
    if (error instanceof RateLimitedError) return { code: error.code, wait: error.retryAfterSeconds };
    if (error instanceof EngineError) return { code: error.code };
    throw error;
  }
}

const at = (start: Date, seconds: number) => new Date(start.getTime() + seconds * 1000);

describe('sign-in limits', () => {
  const PASSWORD = 'long enough password';

  it('reserves each attempt before the password check: of 100 parallel wrong passwords at most 5 are checked', async () => {
    await createAdmin(test.engine.db, 'parallel@example.org', PASSWORD);
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        attempt(test.engine.db, 'parallel@example.org', 'wrong password!', '198.51.100.1', new Date()),
      ),
    );
    const failed = results.filter((result) => result.code === 'LOGIN_FAILED').length;
    const limited = results.filter((result) => result.code === 'RATE_LIMITED');
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThanOrEqual(5);
    expect(failed + limited.length).toBe(100);
    expect(limited.every((result) => (result.wait ?? 0) >= 1)).toBe(true);
    // The right password from that address waits too; from another address it signs in.
    expect(
      (await attempt(test.engine.db, 'parallel@example.org', PASSWORD, '198.51.100.1', new Date())).code,
    ).toBe('RATE_LIMITED');
    expect(
      (await attempt(test.engine.db, 'parallel@example.org', PASSWORD, '198.51.100.2', new Date())).code,
    ).toBe('OK');
  });

  it('wrong passwords from one address do not block the right password from another', async () => {
    await createAdmin(test.engine.db, 'target@example.org', PASSWORD);
    const start = new Date('2031-01-01T00:00:00Z');
    let now = start;
    let failures = 0;
    while (failures < 5) {
      const result = await attempt(
        test.engine.db,
        'target@example.org',
        'wrong password!',
        '203.0.113.1',
        now,
      );
      if (result.code === 'LOGIN_FAILED') failures++;
      else now = at(now, result.wait!);
    }
    expect((await attempt(test.engine.db, 'target@example.org', PASSWORD, '203.0.113.1', now)).code).toBe(
      'RATE_LIMITED',
    );
    expect((await attempt(test.engine.db, 'target@example.org', PASSWORD, '203.0.113.2', now)).code).toBe(
      'OK',
    );
    // Fifteen minutes after its first failure the limited address may try again.
    expect(
      (await attempt(test.engine.db, 'target@example.org', PASSWORD, '203.0.113.1', at(start, 15 * 60))).code,
    ).toBe('OK');
  });

  it('slows failures down with growing waits, at most 5 in any 15 minutes', async () => {
    await createAdmin(test.engine.db, 'slow@example.org', PASSWORD);
    const ip = '203.0.113.9';
    let now = new Date('2031-02-01T00:00:00Z');
    /** When each failure happened, and how long the attempt right after it had to wait (0: none). */
    const times: number[] = [];
    const waits: number[] = [];
    while (times.length < 16) {
      const result = await attempt(test.engine.db, 'slow@example.org', 'wrong password!', ip, now);
      if (result.code !== 'LOGIN_FAILED') {
        // Only the first two failures come without a wait.
        expect(result.code).toBe('RATE_LIMITED');
        expect(times.length).toBeGreaterThanOrEqual(3);
        waits[times.length - 1] = result.wait!;
        now = at(now, result.wait!);
        const retried = await attempt(test.engine.db, 'slow@example.org', 'wrong password!', ip, now);
        expect(retried.code).toBe('LOGIN_FAILED');
      } else if (times.length > 0) waits[times.length - 1] = 0;
      times.push(now.getTime());
    }
    // After the n-th failure: 2^(n-2) s from the third on, at most an hour — or longer while 5 failures
    // lie in the last 15 minutes, until the oldest of them leaves the window.
    for (let n = 1; n < times.length; n++) {
      const delay = n >= 3 ? Math.min(2 ** (n - 2), 3600) : 0;
      const window = n >= 5 ? Math.ceil((times[n - 5]! + 900_000 - times[n - 1]!) / 1000) : 0;
      expect(waits[n - 1], `wait after failure ${n}`).toBe(Math.max(delay, window));
    }
    expect(waits.slice(0, 4)).toEqual([0, 0, 2, 4]);
    expect(waits.at(-1)).toBe(3600);
    for (const from of times) {
      expect(times.filter((time) => time >= from && time < from + 900_000).length).toBeLessThanOrEqual(5);
    }
  });

  it('a success clears its pair, so the next typos are not slowed down', async () => {
    await createAdmin(test.engine.db, 'typo@example.org', PASSWORD);
    const now = new Date('2031-03-01T00:00:00Z');
    const codes: string[] = [];
    for (const password of ['wrong password!', 'wrong password!', PASSWORD, 'wrong', 'wrong', 'wrong'])
      codes.push((await attempt(test.engine.db, 'typo@example.org', password, '203.0.113.20', now)).code);
    expect(codes).toEqual([
      'LOGIN_FAILED',
      'LOGIN_FAILED',
      'OK',
      'LOGIN_FAILED',
      'LOGIN_FAILED',
      'LOGIN_FAILED',
    ]);
    expect((await attempt(test.engine.db, 'typo@example.org', 'wrong', '203.0.113.20', now)).code).toBe(
      'RATE_LIMITED',
    );
  });

  it('limits failures per address across accounts; successes do not count', async () => {
    await createAdmin(test.engine.db, 'often@example.org', PASSWORD);
    const start = new Date('2031-04-01T00:00:00Z');
    for (let i = 0; i < 25; i++)
      expect(
        (await attempt(test.engine.db, 'often@example.org', PASSWORD, '203.0.113.30', at(start, i))).code,
      ).toBe('OK');
    for (let i = 0; i < 20; i++)
      expect(
        (
          await attempt(
            test.engine.db,
            `guess${i}@example.org`,
            'wrong password!',
            '203.0.113.30',
            at(start, 60),
          )
        ).code,
      ).toBe('LOGIN_FAILED');
    const limited = await attempt(
      test.engine.db,
      'often@example.org',
      PASSWORD,
      '203.0.113.30',
      at(start, 61),
    );
    expect(limited).toEqual({ code: 'RATE_LIMITED', wait: 899 });
    expect(
      (await attempt(test.engine.db, 'often@example.org', PASSWORD, '203.0.113.31', at(start, 61))).code,
    ).toBe('OK');
    expect(
      (await attempt(test.engine.db, 'often@example.org', PASSWORD, '203.0.113.30', at(start, 960))).code,
    ).toBe('OK');
  });

  it('stores neither addresses nor emails in clear', async () => {
    const rows = await test.engine.db.query<{ subject: string }>('SELECT subject FROM login_attempts');
    expect(rows.rows.length).toBeGreaterThan(0);
    for (const row of rows.rows) expect(row.subject).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe.skipIf(!TEST_DATABASE_URL)('sign-in limits across engines on one PostgreSQL database', () => {
  it('counts the attempts of two engines together', async () => {
    const second = await Engine.open({ config: test.engine.config });
    try {
      await createAdmin(test.engine.db, 'shared@example.org', 'long enough password');
      const engines = [test.engine, second];
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          attempt(engines[i % 2]!.db, 'shared@example.org', 'wrong password!', '192.0.2.77', new Date()),
        ),
      );
      expect(results.filter((result) => result.code === 'LOGIN_FAILED').length).toBeLessThanOrEqual(5);
      expect(results.filter((result) => result.code === 'RATE_LIMITED').length).toBeGreaterThanOrEqual(95);
      for (const engine of engines) {
        expect(
          (await attempt(engine.db, 'shared@example.org', 'long enough password', '192.0.2.77', new Date()))
            .code,
        ).toBe('RATE_LIMITED');
      }
      expect(
        (await attempt(second.db, 'shared@example.org', 'long enough password', '192.0.2.78', new Date()))
          .code,
      ).toBe('OK');
    } finally {
      await second.close();
    }
  });
});

describe('archiving', () => {
  it('moves READY ↔ ARCHIVED only, and reports unknown ids', async () => {
    const { document } = await test.engine.ingest('archive', {
      bytes: utf8Encode('# Arsip\n\nDokumen ini akan diarsipkan lalu dipulihkan kembali.\n'),
      filename: 'arsip.md',
    });
    expect((await test.engine.documents.archive(document.id)).status).toBe('ARCHIVED');
    expect(await codeOf(test.engine.documents.archive(document.id))).toBe('CONFLICT');
    expect((await test.engine.documents.restore(document.id)).status).toBe('READY');
    expect(await codeOf(test.engine.documents.restore(document.id))).toBe('CONFLICT');
    expect(await codeOf(test.engine.documents.archive('doc_unknown'))).toBe('NOT_FOUND');
    expect(await codeOf(test.engine.documents.restore('doc_unknown'))).toBe('NOT_FOUND');
  });
});
