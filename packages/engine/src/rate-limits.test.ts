/** Rate limits shared through the database: exact counts under concurrency, windows, the sweep. */

import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeSharedRateLimit, sweepSharedRateLimits } from './rate-limits.js';

let test: TestEngine;
beforeAll(async () => {
  test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
}, 120_000);
afterAll(async () => {
  await test?.close();
});

describe('chargeSharedRateLimit', () => {
  it('allows exactly the limit of concurrent requests in one window', async () => {
    const limit = { name: 'address', limit: 10, windowSeconds: 60 };
    const results = await Promise.all(
      Array.from({ length: 40 }, () => chargeSharedRateLimit(test.engine.db, limit, '198.51.100.7')),
    );
    expect(results.filter((result) => result.allowed)).toHaveLength(10);
    const refused = results.filter((result) => !result.allowed);
    expect(refused).toHaveLength(30);
    for (const result of refused) {
      expect(result.remaining).toBe(0);
      expect(result.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(result.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
    // Another key, and the same key under another limit, have budgets of their own.
    expect((await chargeSharedRateLimit(test.engine.db, limit, '198.51.100.8')).remaining).toBe(9);
    const chat = { ...limit, name: 'public-chat' };
    expect((await chargeSharedRateLimit(test.engine.db, chat, '198.51.100.7')).allowed).toBe(true);
  });

  it('opens a new window once the old one ended, and the sweep deletes ended windows', async () => {
    const limit = { name: 'short', limit: 1, windowSeconds: 0.3 };
    expect((await chargeSharedRateLimit(test.engine.db, limit, 'k')).allowed).toBe(true);
    expect((await chargeSharedRateLimit(test.engine.db, limit, 'k')).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await sweepSharedRateLimits(test.engine.db)).toBeGreaterThanOrEqual(1);
    expect((await chargeSharedRateLimit(test.engine.db, limit, 'k')).allowed).toBe(true);
    // Rows hold digests, never the address itself.
    const rows = await test.engine.db.query<{ subject: string }>('SELECT subject FROM rate_limits');
    for (const row of rows.rows) expect(row.subject).toMatch(/^[0-9a-f]{64}$/);
  });
});
