/**
 * Per-address limits over real HTTP (docs/configuration.md, "Behind a reverse proxy"): without a
 * trusted proxy a forged X-Forwarded-For buys no new budget; with loopback trusted, each forwarded
 * client has its own, and hops a client writes itself are not believed. On PGlite the limits are in
 * memory; in CI's PostgreSQL pass they are the shared windows of the database.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppOptions, createApp } from './app.js';

let test: TestEngine;
beforeAll(async () => {
  test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none', SAKSI_RATE_LIMIT_IP: '2' } });
}, 120_000);
afterAll(async () => {
  await test?.close();
});

async function withServer(options: AppOptions, use: (url: string) => Promise<void>): Promise<void> {
  const app = createApp(test.engine, options);
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>(
    (resolve) => {
      const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
        resolve({ server, port: info.port }),
      );
    },
  );
  try {
    await use(`http://127.0.0.1:${port}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

const status = async (url: string, forwardedFor: string) => {
  const response = await fetch(`${url}/api/v1/collections`, { headers: { 'x-forwarded-for': forwardedFor } });
  await response.arrayBuffer();
  return response.status;
};

describe('the per-address limit', () => {
  it('ignores X-Forwarded-For without SAKSI_TRUST_PROXY: forged addresses share the peer budget', async () => {
    await withServer({}, async (url) => {
      expect([
        await status(url, '1.1.1.1'),
        await status(url, '2.2.2.2'),
        await status(url, '3.3.3.3'),
      ]).toEqual([200, 200, 429]);
    });
  });

  it('with loopback trusted, counts each forwarded client, and not what it forged left of the proxy', async () => {
    const trustProxy = { addresses: ['127.0.0.0/8', '::1/128'], header: 'x-forwarded-for' as const };
    await withServer({ trustProxy }, async (url) => {
      expect(await status(url, '198.51.100.7')).toBe(200);
      expect(await status(url, '10.0.0.1, 198.51.100.7')).toBe(200);
      // The same client again, whatever it wrote before the proxy's hop: its budget of 2 is spent.
      expect(await status(url, '203.0.113.99, 198.51.100.7')).toBe(429);
      expect(await status(url, '198.51.100.8')).toBe(200);
    });
  });
});

describe('/metrics behind a trusted proxy on the same machine', () => {
  const metrics = async (url: string, headers: Record<string, string>) => {
    const response = await fetch(`${url}/metrics`, { headers });
    await response.arrayBuffer();
    return response.status;
  };

  it('is refused to a forwarded client, and not bought by a forged loopback hop', async () => {
    const trustProxy = { hops: 1, header: 'x-forwarded-for' as const };
    await withServer({ trustProxy }, async (url) => {
      // The proxy (the loopback peer) names the client: the client is not on this machine.
      expect(await metrics(url, { 'x-forwarded-for': '8.8.8.8' })).toBe(403);
      // A client that writes a loopback hop itself: the proxy appends the address it really saw.
      expect(await metrics(url, { 'x-forwarded-for': '127.0.0.1, 8.8.8.8' })).toBe(403);
      // A scraper on this machine that bypasses the proxy has no forwarded hop: it is loopback.
      expect(await metrics(url, {})).toBe(200);
    });
  });
});
