/**
 * Admin authentication (DESIGN.md §7, §11): admin users with scrypt password hashes, cookie sessions
 * stored as SHA-256 hashes of random tokens, a CSRF token bound to each session, and a login rate
 * limit kept in the database (so it survives restarts and holds across server processes).
 *
 * Password hashes are encoded `scrypt$N$r$p$salt$hash` (salt and hash in base64, 16-byte salt,
 * 32-byte hash). The CSRF token is HMAC-SHA256(secret, session id); the secret is 32 random bytes in
 * `admin-csrf.key` in the keys directory (mode 0600), created on first use.
 */
import {
  createHash,
  createHmac,
  randomBytes,
  type ScryptOptions,
  scrypt as scryptCallback,
  timingSafeEqual,
} from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Queryable } from './db/database.js';
import { EngineError } from './errors.js';
import { newId } from './ids.js';

/** Scrypt cost (N = 2^15, r = 8, p = 1: 32 MiB and ~0.1 s per hash on one core). */
export const SCRYPT_COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** Largest cost a stored hash may ask for (a tampered hash must not exhaust memory). */
const MAX_SCRYPT_N = 2 ** 20;

export const MIN_PASSWORD_LENGTH = 10;
const MAX_PASSWORD_LENGTH = 1_024;
/** Sessions last 12 hours (the cookie's Max-Age). */
export const SESSION_SECONDS = 12 * 60 * 60;
/** At most this many failed logins per IP and per email within {@link RATE_WINDOW_SECONDS}. */
export const MAX_LOGIN_FAILURES = 5;
export const RATE_WINDOW_SECONDS = 15 * 60;
export const CSRF_SECRET_FILE = 'admin-csrf.key';

const LOGIN_FAILED_MESSAGE = 'Email or password is wrong.';
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/;

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, keyLength, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

function scryptOptions(N: number, r: number, p: number): ScryptOptions {
  return { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
}

/** Hashes a password with scrypt and a fresh 16-byte salt: `scrypt$N$r$p$salt$hash`. */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p } = SCRYPT_COST;
  const salt = randomBytes(SALT_BYTES);
  const hash = await scrypt(password.normalize('NFC'), salt, HASH_BYTES, scryptOptions(N, r, p));
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** True when `password` matches `encoded`; false (never a throw) for a wrong password or a malformed hash. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (!Number.isSafeInteger(N) || N < 2 || N > MAX_SCRYPT_N || (N & (N - 1)) !== 0) return false;
  if (!Number.isSafeInteger(r) || r < 1 || r > 32 || !Number.isSafeInteger(p) || p < 1 || p > 16)
    return false;
  const salt = Buffer.from(parts[4] ?? '', 'base64');
  const expected = Buffer.from(parts[5] ?? '', 'base64');
  if (salt.length < SALT_BYTES || expected.length < 16 || expected.length > 64) return false;
  try {
    const actual = await scrypt(password.normalize('NFC'), salt, expected.length, scryptOptions(N, r, p));
    return timingSafeEqual(actual, expected);
  } catch {
    return false;
  }
}

/** A hash no password matches, verified for unknown emails so they take as long as known ones. */
let dummyHash: Promise<string> | undefined;

function normalizeEmail(email: string): string {
  return email.trim().normalize('NFC').toLowerCase();
}

function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export interface AdminUser {
  id: string;
  email: string;
  created_at: string;
}

/** Creates an admin; the email is stored lower-case (in `admin_users.username`). CONFLICT if it exists. */
export async function createAdmin(db: Queryable, email: string, password: string): Promise<AdminUser> {
  const normalized = normalizeEmail(email);
  if (!EMAIL.test(normalized) || normalized.length > 254)
    throw new EngineError('INVALID_INPUT', `"${email.slice(0, 100)}" is not an email address.`);
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new EngineError(
      'INVALID_INPUT',
      `The password is too short: use at least ${MIN_PASSWORD_LENGTH} characters.`,
    );
  if (password.length > MAX_PASSWORD_LENGTH)
    throw new EngineError('INVALID_INPUT', `The password is longer than ${MAX_PASSWORD_LENGTH} characters.`);
  const passwordHash = await hashPassword(password);
  const result = await db.query<AdminUser>(
    `INSERT INTO admin_users (id, username, password_hash) VALUES ($1, $2, $3)
     ON CONFLICT (username) DO NOTHING RETURNING id, username AS email, created_at::text AS created_at`,
    [newId('usr'), normalized, passwordHash],
  );
  const user = result.rows[0];
  if (!user) throw new EngineError('CONFLICT', `An admin with the email ${normalized} already exists.`);
  await db.query(`INSERT INTO audit_log (actor, action, target) VALUES ($1, 'admin.create', $1)`, [user.id]);
  return user;
}

/**
 * Creates the first admin from configuration (e.g. `SAKSI_ADMIN_EMAIL` / `SAKSI_ADMIN_PASSWORD`) when
 * no admin exists yet; returns the admin created, or null when one already existed.
 */
export async function ensureFirstAdmin(
  db: Queryable,
  email: string,
  password: string,
): Promise<AdminUser | null> {
  const existing = await db.query<{ n: number }>('SELECT count(*)::integer AS n FROM admin_users');
  if ((existing.rows[0]?.n ?? 0) > 0) return null;
  try {
    return await createAdmin(db, email, password);
  } catch (error) {
    // Another process created it between the count and the insert.
    if (error instanceof EngineError && error.code === 'CONFLICT') return null;
    throw error;
  }
}

/** Reads the CSRF secret from `<keysDir>/admin-csrf.key`, creating it (32 random bytes, mode 0600) if missing. */
export async function loadOrCreateAuthSecret(keysDir: string): Promise<Uint8Array> {
  const file = path.join(keysDir, CSRF_SECRET_FILE);
  const read = async () => {
    const secret = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
    if (secret.length < 32)
      throw new EngineError(
        'KEYS_INVALID',
        `${file} does not hold a 32-byte base64 secret; delete it to make a new one.`,
      );
    return new Uint8Array(secret);
  };
  try {
    return await read();
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
  }
  await mkdir(keysDir, { recursive: true });
  try {
    await writeFile(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    await chmod(file, 0o600);
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
  }
  return read();
}

/** The CSRF token of a session: HMAC-SHA256(secret, session id), base64url. */
export function csrfTokenFor(secret: Uint8Array, sessionId: string): string {
  return createHmac('sha256', secret).update(`saksi-admin-csrf\n${sessionId}`).digest('base64url');
}

/** True when `presented` is the session's CSRF token (constant-time). */
export function checkCsrfToken(
  secret: Uint8Array,
  sessionId: string,
  presented: string | undefined,
): boolean {
  if (presented === undefined) return false;
  const expected = Buffer.from(csrfTokenFor(secret, sessionId));
  const actual = Buffer.from(presented);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export interface LoginResult {
  /** The session token for the cookie; only its SHA-256 is stored. */
  token: string;
  email: string;
  csrf_token: string;
  expires_at: string;
}

export interface LoginOptions {
  /** The client's address, for the per-IP limit. */
  ip: string;
  secret: Uint8Array;
  /** Now, for tests; defaults to the clock. */
  now?: Date;
}

/** A login refused by the rate limit; `retryAfterSeconds` is when the oldest counted failure expires. */
export class RateLimitedError extends EngineError {
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number) {
    super(
      'RATE_LIMITED',
      `Too many failed sign-in attempts; try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s).`,
    );
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Seconds until `subjects` may try again, or 0 when none of them is over the limit. */
async function retryAfter(db: Queryable, subjects: string[], now: Date): Promise<number> {
  const result = await db.query<{ subject: string; n: number; oldest: number }>(
    `SELECT subject, count(*)::integer AS n, extract(epoch FROM min(failed_at))::float8 AS oldest FROM (
       SELECT subject, failed_at, row_number() OVER (PARTITION BY subject ORDER BY failed_at DESC) AS recent
       FROM auth_failures WHERE subject = ANY($1::text[]) AND failed_at > $2::timestamptz - make_interval(secs => $3)
     ) latest WHERE recent <= $4 GROUP BY subject`,
    [subjects, now.toISOString(), RATE_WINDOW_SECONDS, MAX_LOGIN_FAILURES],
  );
  let wait = 0;
  for (const row of result.rows) {
    if (row.n < MAX_LOGIN_FAILURES) continue;
    const until = (row.oldest + RATE_WINDOW_SECONDS) * 1000;
    wait = Math.max(wait, Math.ceil((until - now.getTime()) / 1000));
  }
  return wait;
}

/**
 * Signs an admin in: a new session and its CSRF token. A wrong password and an unknown email fail
 * alike (LOGIN_FAILED, same message, same scrypt work); more than {@link MAX_LOGIN_FAILURES} failures
 * in {@link RATE_WINDOW_SECONDS} for the IP or the email refuse even a correct password (RATE_LIMITED).
 */
export async function login(
  db: Queryable,
  email: string,
  password: string,
  options: LoginOptions,
): Promise<LoginResult> {
  const now = options.now ?? new Date();
  const normalized = normalizeEmail(email);
  const subjects = [sha256Hex(`ip:${options.ip}`), sha256Hex(`email:${normalized}`)];
  const wait = await retryAfter(db, subjects, now);
  if (wait > 0) throw new RateLimitedError(wait);

  const found = await db.query<{ id: string; email: string; password_hash: string }>(
    'SELECT id, username AS email, password_hash FROM admin_users WHERE username = $1',
    [normalized],
  );
  const user = found.rows[0];
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  const matches = await verifyPassword(
    password.slice(0, MAX_PASSWORD_LENGTH + 1),
    user?.password_hash ?? (await dummyHash),
  );
  if (!user || !matches || password.length > MAX_PASSWORD_LENGTH) {
    await db.query(
      'INSERT INTO auth_failures (subject, failed_at) VALUES ($1, $3::timestamptz), ($2, $3::timestamptz)',
      [subjects[0], subjects[1], now.toISOString()],
    );
    await db.query(
      `DELETE FROM auth_failures WHERE failed_at < $1::timestamptz - make_interval(secs => $2)`,
      [now.toISOString(), RATE_WINDOW_SECONDS],
    );
    throw new EngineError('LOGIN_FAILED', LOGIN_FAILED_MESSAGE);
  }

  await db.query('DELETE FROM auth_failures WHERE subject = ANY($1::text[])', [subjects]);
  await db.query(`DELETE FROM auth_sessions WHERE expires_at < $1::timestamptz - interval '1 day'`, [
    now.toISOString(),
  ]);
  const token = randomBytes(32).toString('base64url');
  const sessionId = newId('ses');
  const expires = new Date(now.getTime() + SESSION_SECONDS * 1000);
  await db.query('INSERT INTO auth_sessions (id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, $4)', [
    sessionId,
    user.id,
    sha256Hex(token),
    expires.toISOString(),
  ]);
  await db.query(`INSERT INTO audit_log (actor, action, target) VALUES ($1, 'admin.login', $2)`, [
    user.id,
    sessionId,
  ]);
  return {
    token,
    email: user.email,
    csrf_token: csrfTokenFor(options.secret, sessionId),
    expires_at: expires.toISOString(),
  };
}

export interface AdminSession {
  session_id: string;
  user_id: string;
  email: string;
  csrf_token: string;
  expires_at: string;
}

/** The session a cookie token belongs to: UNAUTHENTICATED when none, SESSION_EXPIRED when past its time. */
export async function sessionFor(
  db: Queryable,
  token: string | undefined,
  options: { secret: Uint8Array; now?: Date },
): Promise<AdminSession> {
  if (!token || token.length > 200)
    throw new EngineError('UNAUTHENTICATED', 'Sign in first: this request has no admin session.');
  const result = await db.query<{ id: string; user_id: string; email: string; expires_at: number }>(
    `SELECT s.id, s.user_id, u.username AS email, extract(epoch FROM s.expires_at)::float8 AS expires_at
     FROM auth_sessions s JOIN admin_users u ON u.id = s.user_id WHERE s.token_hash = $1`,
    [sha256Hex(token)],
  );
  const row = result.rows[0];
  if (!row) throw new EngineError('UNAUTHENTICATED', 'Sign in first: the admin session is unknown or ended.');
  const now = options.now ?? new Date();
  if (row.expires_at * 1000 <= now.getTime())
    throw new EngineError('SESSION_EXPIRED', 'The admin session has expired; sign in again.');
  return {
    session_id: row.id,
    user_id: row.user_id,
    email: row.email,
    csrf_token: csrfTokenFor(options.secret, row.id),
    expires_at: new Date(row.expires_at * 1000).toISOString(),
  };
}

/** Ends the session of `token` (if any); true when a session was deleted. */
export async function logout(db: Queryable, token: string | undefined): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const result = await db.query('DELETE FROM auth_sessions WHERE token_hash = $1', [sha256Hex(token)]);
  return result.rowCount > 0;
}
