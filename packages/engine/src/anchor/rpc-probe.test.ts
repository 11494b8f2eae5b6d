/**
 * The chain RPC probe of health (rpc-probe.ts) against real HTTP endpoints on 127.0.0.1: a node that
 * answers, one that never answers, one that fails, a closed port; one request per cache period
 * however many callers; credentials sent as Basic auth and never in the result.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRpcProbe } from './rpc-probe.js';

interface Seen {
  path: string;
  authorization: string | undefined;
  body: string;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
let block = 0x2a;

/** `/node`: eth_blockNumber; `/hang`: never answers; `/fail`: 503; `/junk`: 200 that is not JSON-RPC. */
function handle(request: IncomingMessage, response: ServerResponse) {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    seen.push({ path: request.url ?? '', authorization: request.headers.authorization, body });
    if (request.url?.startsWith('/hang')) return;
    if (request.url?.startsWith('/fail')) return response.writeHead(503).end('upstream down: key=abc');
    if (request.url?.startsWith('/junk')) return response.writeHead(200).end('<html>hello</html>');
    const id = (JSON.parse(body) as { id: number }).id;
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', id, result: `0x${block.toString(16)}` }));
  });
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the chain RPC probe', () => {
  it('reports a node that answers, with its block number', async () => {
    const probe = createRpcProbe();
    const result = await probe.check(`${base}/node`);
    expect(result).toMatchObject({ reachable: true, block_number: 42, error: null });
    expect(result.latency_ms).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(seen.at(-1)!.body)).toMatchObject({ method: 'eth_blockNumber', params: [] });
  });

  it('gives up on a node that does not answer within the timeout', async () => {
    const probe = createRpcProbe({ timeoutMs: 200 });
    const started = Date.now();
    const result = await probe.check(`${base}/hang`);
    expect(result).toMatchObject({ reachable: false, block_number: null, error: 'TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reports failures by code only: HTTP errors, replies that are not JSON-RPC, closed ports', async () => {
    const probe = createRpcProbe();
    const failed = await probe.check(`${base}/fail`);
    expect(failed).toMatchObject({ reachable: false, error: 'HTTP_ERROR' });
    expect(JSON.stringify(failed)).not.toContain('key=abc');
    expect(await createRpcProbe().check(`${base}/junk`)).toMatchObject({ error: 'BAD_RESPONSE' });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await createRpcProbe().check(`http://127.0.0.1:${port}/`)).toMatchObject({
      reachable: false,
      error: 'UNREACHABLE',
    });
    expect(await createRpcProbe().check('not a url')).toMatchObject({ error: 'UNREACHABLE' });
  });

  it('sends user-info as Basic credentials and never puts the URL in its result', async () => {
    const probe = createRpcProbe();
    const result = await probe.check(`http://alice:s3cr%40t@127.0.0.1:${new URL(base).port}/node/apikey123`);
    expect(result.reachable).toBe(true);
    expect(seen.at(-1)!.authorization).toBe(`Basic ${Buffer.from('alice:s3cr@t').toString('base64')}`);
    expect(seen.at(-1)!.path).toBe('/node/apikey123');
    expect(JSON.stringify(result)).not.toMatch(/alice|s3cr|apikey123|127\.0\.0\.1/);
  });

  it('sends one request per cache period however many callers ask, and refreshes a stale result in the background', async () => {
    let clock = 1_000_000;
    const probe = createRpcProbe({ cacheMs: 5_000, now: () => clock });
    const url = `${base}/node/flood`;
    const count = () => seen.filter((request) => request.path === '/node/flood').length;
    const results = await Promise.all(Array.from({ length: 50 }, () => probe.check(url)));
    expect(count()).toBe(1);
    expect(new Set(results.map((result) => result.block_number))).toEqual(new Set([42]));
    for (let i = 0; i < 50; i++) await probe.check(url);
    expect(count()).toBe(1);
    // Stale: the old result comes back at once, one refresh goes out, its result is used next.
    block = 0x2b;
    clock += 5_000;
    expect((await probe.check(url)).block_number).toBe(42);
    await Promise.all(Array.from({ length: 20 }, () => probe.check(url)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(count()).toBe(2);
    expect((await probe.check(url)).block_number).toBe(43);
  });
});
