/**
 * Admin authentication (docs/configuration.md, "Admin sign-in"): admin users with scrypt password
 * hashes, cookie sessions stored as SHA-256 hashes of random tokens, a CSRF token bound to each
 * session, and sign-in limits kept in the database (so they survive restarts and hold across server
 * processes sharing it).
 *
 * Password hashes are encoded `scrypt$N$r$p$salt$hash` (salt and hash in base64, 16-byte salt,
 * 32-byte hash). The CSRF token is HMAC-SHA256(secret, session id); the secret is 32 random bytes in
 * `admin-csrf.key` in the keys directory (mode 0600), created on first use.
 */

import {
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  type ScryptOptions,
  scrypt as scryptCallback,
  timingSafeEqual,
} from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { plural } from '@saksi/proof';
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

/**
 * A sign-in limit for one kind of subject: at most `maxAttempts` attempts in any `windowSeconds`;
 * and once a subject has more than `freeAttempts` attempts since its last success, after its n-th it
 * waits `baseDelaySeconds × 2^(n − freeAttempts − 1)` seconds, at most `maxDelaySeconds`.
 */
export interface SignInLimit {
  maxAttempts: number;
  windowSeconds: number;
  freeAttempts: number;
  baseDelaySeconds: number;
  maxDelaySeconds: number;
}

/**
 * Per (client address, account): 5 failures in any 15 minutes; from the third failure on, the next
 * attempt waits 2, 4, 8, … seconds, at most an hour. Other addresses are not affected, so wrong
 * passwords cannot lock an admin out.
 */
export const PAIR_LIMIT: SignInLimit = {
  maxAttempts: 5,
  windowSeconds: 15 * 60,
  freeAttempts: 2,
  baseDelaySeconds: 2,
  maxDelaySeconds: 60 * 60,
};

/** Per client address, whatever the account: 20 failures in any 15 minutes (guessing across accounts). */
export const ADDRESS_LIMIT: SignInLimit = {
  maxAttempts: 20,
  windowSeconds: 15 * 60,
  freeAttempts: 20,
  baseDelaySeconds: 0,
  maxDelaySeconds: 0,
};

/** A subject's attempts are forgotten a day after its last one. */
export const FORGET_ATTEMPTS_SECONDS = 24 * 60 * 60;
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

/**
 * The CSRF secret when the keys come from the environment (docs/deploy.md): `SAKSI_AUTH_SECRET` when
 * set (base64 of at least 32 bytes), else derived from the issuer's secret key with HKDF-SHA256 under
 * a label of its own, so every instance of a deployment holds the same secret and none writes a file.
 */
export function authSecretFromSecrets(secrets: { auth?: string }, issuerSecretKey: Uint8Array): Uint8Array {
  if (secrets.auth !== undefined) {
    const secret = Buffer.from(secrets.auth.trim(), 'base64');
    if (secret.length < 32)
      throw new EngineError('CONFIG_INVALID', 'SAKSI_AUTH_SECRET must be base64 of at least 32 bytes.');
    return new Uint8Array(secret);
  }
  return new Uint8Array(
    hkdfSync('sha256', issuerSecretKey, new Uint8Array(0), 'saksi-admin-csrf-secret', 32),
  );
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
  /** The client's address, for the per-address and per-(address, account) limits. */
  ip: string;
  secret: Uint8Array;
  /** Now, for tests; defaults to the clock. */
  now?: Date;
}

/** A sign-in refused by a limit; `retryAfterSeconds` is when the next attempt is allowed. */
export class RateLimitedError extends EngineError {
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number) {
    super(
      'RATE_LIMITED',
      `Too many failed sign-in attempts; try again in ${
        retryAfterSeconds < 120
          ? plural(retryAfterSeconds, 'second')
          : plural(Math.ceil(retryAfterSeconds / 60), 'minute')
      }.`,
    );
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * The earliest time (SQL, of the row `a`) a subject may try again under the limit in parameters
 * $4–$8: after the delay its attempt count asks for, and — once the window holds `maxAttempts`
 * attempts — after the oldest of them leaves the window.
 */
const NEXT_ALLOWED = `greatest(
  a.last_at + make_interval(secs => CASE WHEN a.attempts > $6::integer
    THEN least($8::float8, $7::float8 * power(2, least(a.attempts - $6::integer - 1, 40)))
    ELSE 0 END),
  CASE WHEN cardinality(a.recent) >= $4::integer
    THEN a.recent[1] + make_interval(secs => $5::float8) ELSE '-infinity'::timestamptz END)`;

/** True (SQL) when row `a` was last tried more than a day before $2: its attempts are forgotten. */
const FORGOTTEN = `a.last_at <= $2::timestamptz - make_interval(secs => $3::float8)`;

/**
 * Reserves one attempt for `subject` under `limit` with a single statement, so concurrent attempts —
 * in this process or another on the same database — are counted one by one: the row is locked by the
 * upsert and the limit is checked against its latest version. Returns 0 when reserved, or the seconds
 * until the subject may try again (at least 1).
 */
async function reserveAttempt(
  db: Queryable,
  subject: string,
  limit: SignInLimit,
  now: Date,
): Promise<number> {
  const parameters = [
    subject,
    now.toISOString(),
    FORGET_ATTEMPTS_SECONDS,
    limit.maxAttempts,
    limit.windowSeconds,
    limit.freeAttempts,
    limit.baseDelaySeconds,
    limit.maxDelaySeconds,
  ];
  const reserved = await db.query(
    `INSERT INTO login_attempts AS a (subject, attempts, recent, last_at)
     VALUES ($1, 1, ARRAY[$2::timestamptz], $2::timestamptz)
     ON CONFLICT (subject) DO UPDATE SET
       attempts = CASE WHEN ${FORGOTTEN} THEN 1 ELSE a.attempts + 1 END,
       recent = CASE WHEN ${FORGOTTEN} THEN ARRAY[$2::timestamptz]
         ELSE (a.recent || $2::timestamptz)[greatest(1, cardinality(a.recent) + 2 - $4::integer):] END,
       last_at = $2::timestamptz
     WHERE ${FORGOTTEN} OR $2::timestamptz >= ${NEXT_ALLOWED}
     RETURNING a.attempts`,
    parameters,
  );
  if (reserved.rows.length > 0) return 0;
  const next = await db.query<{ next_at: number }>(
    `SELECT extract(epoch FROM CASE WHEN ${FORGOTTEN} THEN $2::timestamptz ELSE ${NEXT_ALLOWED} END)::float8 AS next_at
     FROM login_attempts a WHERE a.subject = $1`,
    parameters,
  );
  const nextAt = next.rows[0]?.next_at ?? 0;
  return Math.max(1, Math.ceil(nextAt - now.getTime() / 1000));
}

/**
 * Signs an admin in: a new session and its CSRF token. A wrong password and an unknown email fail
 * alike (LOGIN_FAILED, same message, same scrypt work). Before the password is checked the attempt is
 * reserved against {@link ADDRESS_LIMIT} and {@link PAIR_LIMIT} (RATE_LIMITED, with the seconds to
 * wait, when either refuses — even for a correct password, whose hash is then not checked). A success
 * clears the pair's attempts and gives back its address's reservation.
 */
export async function login(
  db: Queryable,
  email: string,
  password: string,
  options: LoginOptions,
): Promise<LoginResult> {
  const now = options.now ?? new Date();
  const normalized = normalizeEmail(email);
  const address = sha256Hex(`address:${options.ip}`);
  const pair = sha256Hex(`pair:${options.ip}\n${normalized}`);
  const addressWait = await reserveAttempt(db, address, ADDRESS_LIMIT, now);
  if (addressWait > 0) throw new RateLimitedError(addressWait);
  const pairWait = await reserveAttempt(db, pair, PAIR_LIMIT, now);
  if (pairWait > 0) throw new RateLimitedError(pairWait);

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
    await db.query(`DELETE FROM login_attempts WHERE last_at < $1::timestamptz - make_interval(secs => $2)`, [
      now.toISOString(),
      FORGET_ATTEMPTS_SECONDS,
    ]);
    throw new EngineError('LOGIN_FAILED', LOGIN_FAILED_MESSAGE);
  }

  await db.query('DELETE FROM login_attempts WHERE subject = $1', [pair]);
  await db.query(
    `UPDATE login_attempts SET attempts = greatest(attempts - 1, 0), recent = array_remove(recent, $2::timestamptz)
     WHERE subject = $1`,
    [address, now.toISOString()],
  );
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
