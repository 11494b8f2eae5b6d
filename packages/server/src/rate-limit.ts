/**
 * Request rate limits (API spec: 429 `RATE_LIMITED` with `Retry-After`): an in-memory token bucket
 * per key (an API key id, a client address). A new key starts with a full bucket of `capacity`
 * tokens, refilled continuously at `refillPerSecond`; a request takes `cost` tokens or is refused.
 * Buckets live in one process, which is right for PGlite (one process by nature). At most `maxKeys`
 * buckets are kept; the least recently used is evicted first (it comes back full, which errs on the
 * side of letting a request through, never of refusing one). On PostgreSQL the servers share one
 * budget per key instead: {@link DatabaseWindowLimiter}, a window per key in the database.
 */
import type { Engine } from '@saksi/engine';
import { RateLimitError } from './errors.js';

export { RateLimitError };

export interface RateLimitResult {
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until `cost` tokens are available again: 0 when allowed, at least 1 when refused. */
  retryAfterSeconds: number;
}

export interface TokenBucketOptions {
  capacity: number;
  refillPerSecond: number;
  /** Buckets kept at most (default 50 000); the least recently used is evicted beyond. */
  maxKeys?: number;
  /** Clock in milliseconds (default `Date.now`); tests inject their own. */
  now?: () => number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export const DEFAULT_MAX_KEYS = 50_000;
const EPSILON = 1e-9;

export class TokenBucketLimiter {
  readonly capacity: number;
  readonly refillPerSecond: number;
  readonly maxKeys: number;
  readonly #now: () => number;
  /** Insertion order is recency order: a bucket is re-inserted on every use. */
  readonly #buckets = new Map<string, Bucket>();

  constructor(options: TokenBucketOptions) {
    const { capacity, refillPerSecond } = options;
    const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
    if (!Number.isFinite(capacity) || capacity <= 0)
      throw new RangeError(`capacity must be a positive number, not ${capacity}.`);
    if (!Number.isFinite(refillPerSecond) || refillPerSecond <= 0)
      throw new RangeError(`refillPerSecond must be a positive number, not ${refillPerSecond}.`);
    if (!Number.isSafeInteger(maxKeys) || maxKeys < 1)
      throw new RangeError(`maxKeys must be a positive whole number, not ${maxKeys}.`);
    this.capacity = capacity;
    this.refillPerSecond = refillPerSecond;
    this.maxKeys = maxKeys;
    this.#now = options.now ?? Date.now;
  }

  /** Buckets currently kept. */
  get size(): number {
    return this.#buckets.size;
  }

  /** Takes `cost` tokens from `key`'s bucket if it holds that many; a refused request takes none. */
  take(key: string, cost = 1): RateLimitResult {
    if (!Number.isFinite(cost) || cost <= 0 || cost > this.capacity)
      throw new RangeError(`cost must be a positive number no larger than the capacity ${this.capacity}.`);
    const now = this.#now();
    const bucket = this.#buckets.get(key);
    let tokens = this.capacity;
    if (bucket) {
      // A clock that steps back refills nothing (rather than draining the bucket).
      const elapsedSeconds = Math.max(0, now - bucket.updatedAt) / 1000;
      tokens = Math.min(this.capacity, bucket.tokens + elapsedSeconds * this.refillPerSecond);
      this.#buckets.delete(key);
    }
    // Rates like 100 per hour are not exact in binary: compare with a tolerance far below one token.
    const allowed = tokens + EPSILON >= cost;
    if (allowed) tokens = Math.max(0, tokens - cost);
    this.#buckets.set(key, { tokens, updatedAt: now });
    if (this.#buckets.size > this.maxKeys) {
      const oldest = this.#buckets.keys().next();
      if (!oldest.done) this.#buckets.delete(oldest.value);
    }
    return {
      allowed,
      remaining: Math.floor(tokens),
      retryAfterSeconds: allowed
        ? 0
        : Math.max(1, Math.ceil((cost - tokens) / this.refillPerSecond - EPSILON)),
    };
  }
}

/**
 * Something that charges a request to a key: a bucket in memory or a window in the database. `cost`
 * (default 1) is what the request counts for: 1 for a request, its work units on `POST /verify`.
 */
export interface Limiter {
  take(key: string, cost?: number): RateLimitResult | Promise<RateLimitResult>;
}

/** Ended windows are deleted at most this often, by whichever request comes first (in the background). */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * `limit` requests per `windowSeconds` per key, counted in the database (`rate_limits`, one statement
 * per request), so every server process sharing the database enforces one budget
 * (docs/scaling.md, "Rate limits"). A key's window starts at its first request.
 */
/** Where shared windows are counted: the engine's `rateLimits` repository. */
export type SharedRateLimitStore = Pick<Engine['rateLimits'], 'charge' | 'sweep'>;

export class DatabaseWindowLimiter implements Limiter {
  readonly #store: SharedRateLimitStore;
  readonly #limit: { name: string; limit: number; windowSeconds: number };
  #sweptAt = Date.now();

  constructor(store: SharedRateLimitStore, limit: { name: string; limit: number; windowSeconds: number }) {
    if (!Number.isSafeInteger(limit.limit) || limit.limit < 1)
      throw new RangeError(`limit must be a positive whole number, not ${limit.limit}.`);
    if (!Number.isFinite(limit.windowSeconds) || limit.windowSeconds <= 0)
      throw new RangeError(`windowSeconds must be a positive number, not ${limit.windowSeconds}.`);
    this.#store = store;
    this.#limit = limit;
  }

  async take(key: string, cost = 1): Promise<RateLimitResult> {
    if (Date.now() - this.#sweptAt >= SWEEP_INTERVAL_MS) {
      this.#sweptAt = Date.now();
      this.#store.sweep().catch((error: unknown) => {
        console.error(`[saksi] deleting ended rate-limit windows failed: ${(error as Error).message}`);
      });
    }
    return this.#store.charge(this.#limit, key, cost);
  }
}

/**
 * A limiter allowing `perWindow` requests per `windowSeconds` (a burst of `perWindow`, refilled evenly
 * over the window), or null when `perWindow` is 0: unlimited.
 */
export function limiterFromRate(
  perWindow: number,
  windowSeconds: number,
  options: { maxKeys?: number; now?: () => number } = {},
): TokenBucketLimiter | null {
  if (perWindow === 0) return null;
  if (!Number.isSafeInteger(perWindow) || perWindow < 0)
    throw new RangeError(
      `A rate limit must be a whole number of requests (0 = unlimited), not ${perWindow}.`,
    );
  if (!Number.isFinite(windowSeconds) || windowSeconds <= 0)
    throw new RangeError(`A rate window must be a positive number of seconds, not ${windowSeconds}.`);
  return new TokenBucketLimiter({
    capacity: perWindow,
    refillPerSecond: perWindow / windowSeconds,
    ...options,
  });
}

/**
 * Charges one request to `key`; throws {@link RateLimitError} when its bucket is empty. `what` names
 * the key for the message ("API key", "address"). Returns the result (null when unlimited) for
 * {@link setRateHeaders}.
 */
export async function enforce(
  limiter: Limiter | null,
  key: string,
  what: string,
): Promise<RateLimitResult | null> {
  if (limiter === null) return null;
  const result = await limiter.take(key);
  if (!result.allowed)
    throw new RateLimitError(
      `Too many requests for this ${what}; try again in ${result.retryAfterSeconds} s.`,
      result.retryAfterSeconds,
    );
  return result;
}

/** Sets `RateLimit-Remaining` (and `Retry-After` when refused); nothing for an unlimited (null) result. */
export function setRateHeaders(headers: Headers, result: RateLimitResult | null): void {
  if (result === null) return;
  headers.set('RateLimit-Remaining', String(result.remaining));
  if (!result.allowed) headers.set('Retry-After', String(result.retryAfterSeconds));
}
