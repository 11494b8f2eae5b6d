/** Admin authentication on a real database: scrypt hashes, admins, sessions, CSRF, the rate limit, archiving. */
import { statSync } from 'node:fs';
import path from 'node:path';
import { utf8Encode } from '@saksi/proof';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../test/engine-fixture.js';
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

  it('limits failures per email across addresses and refuses a correct password while limited', async () => {
    await createAdmin(test.engine.db, 'limited@example.org', 'long enough password');
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(
        await codeOf(
          login(test.engine.db, 'limited@example.org', 'wrong password!', {
            ip: `198.51.100.${attempt}`,
            secret,
          }),
        ),
      ).toBe('LOGIN_FAILED');
    }
    const limited = await login(test.engine.db, 'limited@example.org', 'long enough password', {
      ip: '198.51.100.99',
      secret,
    }).catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect((limited as RateLimitedError).retryAfterSeconds).toBeGreaterThan(14 * 60);
    expect((limited as RateLimitedError).retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
    // Fifteen minutes later the window has passed.
    const later = await login(test.engine.db, 'limited@example.org', 'long enough password', {
      ip: '198.51.100.99',
      secret,
      now: new Date(Date.now() + 15 * 60_000 + 1_000),
    });
    expect(later.email).toBe('limited@example.org');
  });
});

describe('archiving', () => {
  it('moves READY ↔ ARCHIVED only, and reports unknown ids', async () => {
    const { document } = await test.engine.ingest('archive', {
      bytes: utf8Encode('# Arsip\n\nDokumen ini akan diarsipkan lalu dipulihkan kembali.\n'),
      filename: 'arsip.md',
    });
    expect((await test.engine.archiveDocument(document.id)).status).toBe('ARCHIVED');
    expect(await codeOf(test.engine.archiveDocument(document.id))).toBe('CONFLICT');
    expect((await test.engine.restoreDocument(document.id)).status).toBe('READY');
    expect(await codeOf(test.engine.restoreDocument(document.id))).toBe('CONFLICT');
    expect(await codeOf(test.engine.archiveDocument('doc_unknown'))).toBe('NOT_FOUND');
    expect(await codeOf(test.engine.restoreDocument('doc_unknown'))).toBe('NOT_FOUND');
  });
});
