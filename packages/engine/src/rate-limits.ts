/**
 * Request rate limits shared through the database (docs/scaling.md, "Rate limits"): a fixed window
 * per subject, counted by one statement per request, so every server process on one PostgreSQL
 * database enforces the same budget. A subject's window starts at its first request and lasts
 * `windowSeconds`; at most `limit` requests are allowed in it. The database's clock decides, so
 * servers whose clocks differ still agree.
 */
import { createHash } from 'node:crypto';
import type { Queryable } from './db/database.js';

export interface SharedRateLimit {
  /** Names the limit, so one key has separate budgets under separate limits ("ip", "public-chat"). */
  name: string;
  limit: number;
  windowSeconds: number;
}

export interface SharedRateLimitResult {
  allowed: boolean;
  /** Requests left in the window after this one. */
  remaining: number;
  /** Seconds until the window ends: 0 when allowed, at least 1 when refused. */
  retryAfterSeconds: number;
}

/**
 * Counts one request of `key` under `limit`, as `cost` hits (default 1; the verification route
 * charges its work units, docs/api.md). A refused request is counted too (capped at one past the
 * limit), so hammering a closed window never lengthens it.
 */
export async function chargeSharedRateLimit(
  db: Queryable,
  limit: SharedRateLimit,
  key: string,
  cost = 1,
): Promise<SharedRateLimitResult> {
  if (!Number.isSafeInteger(cost) || cost < 1)
    throw new RangeError(`A rate-limit charge must be a positive whole number, not ${cost}.`);
  const subject = createHash('sha256').update(`${limit.name}\n${key}`).digest('hex');
  const result = await db.query<{ hits: number; seconds_left: number }>(
    `INSERT INTO rate_limits AS r (subject, window_end, hits)
       VALUES ($1, now() + make_interval(secs => $2), least($4::integer, $3::integer + 1))
     ON CONFLICT (subject) DO UPDATE SET
       window_end = CASE WHEN r.window_end <= now() THEN EXCLUDED.window_end ELSE r.window_end END,
       hits = CASE WHEN r.window_end <= now() THEN EXCLUDED.hits ELSE least(r.hits + $4, $3::integer + 1) END
     RETURNING hits, extract(epoch FROM r.window_end - now())::float8 AS seconds_left`,
    [subject, limit.windowSeconds, limit.limit, cost],
  );
  const row = result.rows[0]!;
  const allowed = row.hits <= limit.limit;
  return {
    allowed,
    remaining: Math.max(0, limit.limit - row.hits),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(row.seconds_left)),
  };
}

/** Deletes the rows of windows that ended; returns how many. */
export async function sweepSharedRateLimits(db: Queryable): Promise<number> {
  const result = await db.query('DELETE FROM rate_limits WHERE window_end < now()');
  return result.rowCount;
}
