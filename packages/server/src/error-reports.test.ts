/**
 * The error hook (docs/operations.md) against a real local HTTP server acting as the Sentry
 * endpoint: a real server's internal error becomes one envelope with the DSN's key, the request id and
 * the route pattern, redacted; the client gets its 500 at once even while the endpoint hangs.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type EngineError, loadConfig, parseDsn } from '@saksi/engine';
import { testApiKey } from '@saksi/test-support/api-key';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createErrorReporter, errorEvent } from './error-reports.js';
import { createLogger } from './observability.js';
import { type RunningServer, startServer } from './serve.js';

interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A Sentry stand-in: records each request; with `hang`, never answers. */
async function sentryEndpoint(options: { hang: boolean }) {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (text: string) => (body += text));
    request.on('end', () => {
      received.push({ url: request.url ?? '', headers: request.headers, body });
      if (!options.hang) response.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    dsn: `http://0123456789abcdef0123456789abcdef@127.0.0.1:${port}/42`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('SENTRY_DSN', () => {
  it('parses into the envelope endpoint and key; a DSN that does not parse is a config error naming no secret', () => {
    expect(parseDsn('https://abc123@o1.ingest.example.io/7')).toEqual({
      envelopeUrl: 'https://o1.ingest.example.io/api/7/envelope/',
      publicKey: 'abc123',
    });
    expect(parseDsn('https://abc123@sentry.example.org/path/7').envelopeUrl).toBe(
      'https://sentry.example.org/path/api/7/envelope/',
    );
    for (const bad of [
      'not a url',
      'https://sentry.example.org/7',
      'https://k3y@sentry.example.org/',
      'ftp://k@h/1',
    ]) {
      try {
        loadConfig({ SENTRY_DSN: bad }, '/tmp');
        expect.unreachable(bad);
      } catch (error) {
        expect((error as EngineError).code).toBe('CONFIG_INVALID');
        expect((error as Error).message).toContain('SENTRY_DSN');
        expect((error as Error).message).not.toContain('k3y');
      }
    }
  });

  it('redacts the event: credentials in messages and stacks, session ids', () => {
    const error = new Error(`connect postgres://saksi:hunter2@db/saksi for ses_${'ab'.repeat(16)}`);
    const event = errorEvent(error, { request_id: 'req_1', route: '/api/v1/sessions/:id' }, {});
    const text = JSON.stringify(event);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('ab'.repeat(16));
    expect(event.exception.values[0]?.stacktrace?.frames.length).toBeGreaterThan(0);
    expect(event).toMatchObject({ level: 'error', environment: 'production', tags: { request_id: 'req_1' } });
  });
});

describe('a server’s internal errors, reported', () => {
  let test: TestEngine;
  let key: string;

  beforeAll(async () => {
    test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
    key = await testApiKey(test.engine);
    // Break the engine's database under it: reading the collections now fails unexpectedly (500).
    await test.engine.db.query('ALTER TABLE collections RENAME TO collections_moved');
  }, 120_000);

  afterAll(async () => {
    await test.engine.db.query('ALTER TABLE collections_moved RENAME TO collections').catch(() => undefined);
    await test?.close();
  });

  async function serving(dsn: string, use: (server: RunningServer) => Promise<void>) {
    const config = loadConfig(
      { SENTRY_DSN: dsn, SENTRY_ENVIRONMENT: 'staging', SENTRY_RELEASE: 'saksi@1.2.3' },
      '/tmp',
    );
    const errors = createErrorReporter({ ...config.errorReports!, timeoutMs: 1_000 });
    const server = await startServer(test.engine, {
      port: 0,
      host: '127.0.0.1',
      logger: createLogger('silent'),
      errors,
    });
    try {
      await use(server);
    } finally {
      await server.close();
      await errors.flush(2_000);
    }
  }

  it('sends one envelope with the key, the request id, the route pattern, redacted', async () => {
    const sentry = await sentryEndpoint({ hang: false });
    try {
      await serving(sentry.dsn, async (server) => {
        const response = await fetch(`${server.url}/api/v1/collections`, {
          headers: { authorization: `Bearer ${key}`, 'x-request-id': 'ticket-500' },
        });
        expect(response.status).toBe(500);
        const deadline = Date.now() + 5_000;
        while (sentry.received.length === 0 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 20));
        // A request that succeeds sends nothing.
        expect((await fetch(`${server.url}/api/v1/openapi.json`)).status).toBe(200);
      });
      expect(sentry.received).toHaveLength(1);
      const [request] = sentry.received;
      expect(request?.url).toBe('/api/42/envelope/');
      expect(request?.headers['x-sentry-auth']).toMatch(
        /^Sentry sentry_version=7, sentry_key=0123456789abcdef0123456789abcdef, sentry_client=saksi\/\d+\.\d+\.\d+$/,
      );
      const [header, item, payload] = (request?.body ?? '').trimEnd().split('\n');
      const event = JSON.parse(payload!);
      expect(JSON.parse(header!)).toMatchObject({ event_id: event.event_id });
      expect(JSON.parse(item!)).toEqual({
        type: 'event',
        content_type: 'application/json',
        length: Buffer.byteLength(payload!),
      });
      expect(event).toMatchObject({
        level: 'error',
        platform: 'node',
        environment: 'staging',
        release: 'saksi@1.2.3',
        tags: { request_id: 'ticket-500', route: '/api/v1/collections', method: 'GET' },
      });
      expect(event.exception.values[0].value).toContain('collections');
      expect(typeof event.timestamp).toBe('number');
      expect(request?.body).not.toContain(key);
    } finally {
      await sentry.close();
    }
  }, 60_000);

  it('answers the 500 at once while the endpoint hangs', async () => {
    const sentry = await sentryEndpoint({ hang: true });
    try {
      await serving(sentry.dsn, async (server) => {
        const started = performance.now();
        const response = await fetch(`${server.url}/api/v1/collections`);
        expect(response.status).toBe(500);
        await response.json();
        expect(performance.now() - started).toBeLessThan(500);
        const deadline = Date.now() + 5_000;
        while (sentry.received.length === 0 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect(sentry.received).toHaveLength(1);
      });
    } finally {
      await sentry.close();
    }
  }, 60_000);
});
