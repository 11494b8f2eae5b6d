/** Token-bucket rate limits with an injected clock. */
import { describe, expect, it } from 'vitest';
import {
  enforce,
  limiterFromRate,
  RateLimitError,
  setRateHeaders,
  TokenBucketLimiter,
} from './rate-limit.js';

function clock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

describe('TokenBucketLimiter', () => {
  it('gives a new key a full bucket and refuses once it is empty', () => {
    const time = clock();
    const limiter = new TokenBucketLimiter({ capacity: 3, refillPerSecond: 1, now: time.now });
    expect(limiter.take('a')).toEqual({ allowed: true, remaining: 2, retryAfterSeconds: 0 });
    expect(limiter.take('a')).toEqual({ allowed: true, remaining: 1, retryAfterSeconds: 0 });
    expect(limiter.take('a')).toEqual({ allowed: true, remaining: 0, retryAfterSeconds: 0 });
    expect(limiter.take('a')).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    // Another key has its own bucket.
    expect(limiter.take('b')).toEqual({ allowed: true, remaining: 2, retryAfterSeconds: 0 });
  });

  it('refills continuously, never beyond capacity', () => {
    const time = clock();
    const limiter = new TokenBucketLimiter({ capacity: 2, refillPerSecond: 0.5, now: time.now });
    limiter.take('a');
    limiter.take('a');
    expect(limiter.take('a').allowed).toBe(false);
    time.advance(1_999);
    expect(limiter.take('a').allowed).toBe(false);
    time.advance(1);
    expect(limiter.take('a')).toEqual({ allowed: true, remaining: 0, retryAfterSeconds: 0 });
    time.advance(60 * 60_000);
    expect(limiter.take('a')).toEqual({ allowed: true, remaining: 1, retryAfterSeconds: 0 });
    // A refused request takes nothing.
    expect(limiter.take('a').remaining).toBe(0);
    expect(limiter.take('a').allowed).toBe(false);
    time.advance(2_000);
    expect(limiter.take('a').allowed).toBe(true);
  });

  it('says how many whole seconds until cost tokens are back', () => {
    const time = clock();
    // 100 per hour: one token every 36 s.
    const limiter = limiterFromRate(100, 3600, { now: time.now })!;
    for (let index = 0; index < 100; index += 1) expect(limiter.take('ip').allowed).toBe(true);
    expect(limiter.take('ip')).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 36 });
    time.advance(35_500);
    expect(limiter.take('ip').retryAfterSeconds).toBe(1);
    time.advance(500);
    expect(limiter.take('ip').allowed).toBe(true);

    const costly = new TokenBucketLimiter({ capacity: 10, refillPerSecond: 2, now: time.now });
    expect(costly.take('k', 10).allowed).toBe(true);
    // 5 tokens at 2 per second: 2.5 s, rounded up.
    expect(costly.take('k', 5)).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 3 });
    time.advance(100);
    // Sub-second waits still say at least 1.
    const fast = new TokenBucketLimiter({ capacity: 1, refillPerSecond: 100, now: time.now });
    fast.take('k');
    expect(fast.take('k')).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
  });

  it('keeps at most maxKeys buckets, evicting the least recently used', () => {
    const time = clock();
    const limiter = new TokenBucketLimiter({
      capacity: 1,
      refillPerSecond: 0.001,
      maxKeys: 3,
      now: time.now,
    });
    limiter.take('a');
    limiter.take('b');
    limiter.take('c');
    // Using "a" again makes "b" the least recently used.
    expect(limiter.take('a').allowed).toBe(false);
    limiter.take('d');
    expect(limiter.size).toBe(3);
    // "b" was evicted and comes back with a full bucket; "a", "c", "d" are still empty.
    expect(limiter.take('b').allowed).toBe(true);
    expect(limiter.take('d').allowed).toBe(false);
    expect(limiter.take('a').allowed).toBe(false);
    for (let index = 0; index < 1_000; index += 1) limiter.take(`flood-${index}`);
    expect(limiter.size).toBe(3);
  });

  it('ignores a clock that steps back and rejects nonsense options', () => {
    const time = clock();
    const limiter = new TokenBucketLimiter({ capacity: 1, refillPerSecond: 1, now: time.now });
    limiter.take('a');
    time.advance(-10_000);
    expect(limiter.take('a').allowed).toBe(false);
    expect(() => new TokenBucketLimiter({ capacity: 0, refillPerSecond: 1 })).toThrow(RangeError);
    expect(() => new TokenBucketLimiter({ capacity: 1, refillPerSecond: 0 })).toThrow(RangeError);
    expect(() => new TokenBucketLimiter({ capacity: 1, refillPerSecond: 1, maxKeys: 0 })).toThrow(RangeError);
    expect(() => limiter.take('a', 2)).toThrow(RangeError);
    expect(() => limiter.take('a', 0)).toThrow(RangeError);
  });
});

describe('limiterFromRate', () => {
  it('is null (unlimited) for 0 and a bucket of perWindow refilled over the window otherwise', () => {
    expect(limiterFromRate(0, 60)).toBeNull();
    const limiter = limiterFromRate(120, 60)!;
    expect(limiter.capacity).toBe(120);
    expect(limiter.refillPerSecond).toBe(2);
    expect(() => limiterFromRate(-1, 60)).toThrow(RangeError);
    expect(() => limiterFromRate(1.5, 60)).toThrow(RangeError);
    expect(() => limiterFromRate(10, 0)).toThrow(RangeError);
  });
});

describe('enforce', () => {
  it('lets everything through without a limiter', async () => {
    for (let index = 0; index < 1_000; index += 1) expect(await enforce(null, 'k', 'API key')).toBeNull();
  });

  it('throws RateLimitError (429, RATE_LIMITED, retryAfterSeconds) once the bucket is empty', async () => {
    const time = clock();
    const limiter = limiterFromRate(2, 60, { now: time.now });
    expect(await enforce(limiter, 'key_1', 'API key')).toEqual({
      allowed: true,
      remaining: 1,
      retryAfterSeconds: 0,
    });
    await enforce(limiter, 'key_1', 'API key');
    let error: unknown;
    try {
      await enforce(limiter, 'key_1', 'API key');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(RateLimitError);
    const limited = error as RateLimitError;
    expect(limited.code).toBe('RATE_LIMITED');
    expect(limited.status).toBe(429);
    expect(limited.retryAfterSeconds).toBe(30);
    expect(limited.message).toBe('Too many requests for this API key; try again in 30 s.');
    await expect(enforce(limiter, 'key_2', 'API key')).resolves.not.toBeNull();
  });
});

describe('setRateHeaders', () => {
  it('sets RateLimit-Remaining, and Retry-After when refused', () => {
    const headers = new Headers();
    setRateHeaders(headers, { allowed: true, remaining: 7, retryAfterSeconds: 0 });
    expect(headers.get('RateLimit-Remaining')).toBe('7');
    expect(headers.get('Retry-After')).toBeNull();
    setRateHeaders(headers, { allowed: false, remaining: 0, retryAfterSeconds: 12 });
    expect(headers.get('RateLimit-Remaining')).toBe('0');
    expect(headers.get('Retry-After')).toBe('12');
    const untouched = new Headers();
    setRateHeaders(untouched, null);
    expect(Array.from(untouched as unknown as Iterable<unknown>)).toEqual([]);
  });
});
