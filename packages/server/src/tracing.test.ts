/**
 * Traces (docs/operations.md) against a real local HTTP server acting as the OTLP collector: a real
 * server's requests, an answer's stages and an ingestion's stages arrive as spans, with an incoming
 * `traceparent` continued and nothing secret in any attribute. Without the variables nothing is sent.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { loadConfig } from '@saksi/engine';
import { utf8Encode } from '@saksi/proof';
import { bearer, testApiKey } from '@saksi/test-support/api-key';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from './observability.js';
import { startServer } from './serve.js';
import { startTracing } from './tracing.js';

const LAW = `# UU Contoh

Pasal 291

(1) Setiap orang yang mengemudikan Sepeda Motor tidak menggunakan helm standar nasional Indonesia dipidana dengan pidana kurungan paling lama 1 (satu) bulan atau denda paling banyak Rp250.000,00 (dua ratus lima puluh ribu rupiah).
`;
const QUESTION = 'Berapa denda tidak pakai helm?';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: OtlpValue }[];
  status?: { code?: number };
}

/** An OTLP/HTTP collector: keeps the spans of every export and the headers they came with. */
async function collector() {
  const spans: OtlpSpan[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const paths: string[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (text: string) => (body += text));
    request.on('end', () => {
      headers.push(request.headers);
      paths.push(request.url ?? '');
      const exported = JSON.parse(body) as {
        resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
      };
      for (const resource of exported.resourceSpans)
        for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    spans,
    headers,
    paths,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const attribute = (span: OtlpSpan | undefined, key: string) => {
  const value = span?.attributes.find((item) => item.key === key)?.value;
  return value?.stringValue ?? value?.intValue ?? value?.boolValue ?? value?.doubleValue;
};

describe('traces', () => {
  let test: TestEngine;
  let key: string;

  beforeAll(async () => {
    test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
    key = await testApiKey(test.engine);
  }, 120_000);

  afterAll(async () => {
    await test?.close();
  });

  it('exports a span per request, the answer’s stages under it, and each ingestion’s stages', async () => {
    const otlp = await collector();
    try {
      const config = loadConfig(
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
          OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20otlp-secret-123',
          OTEL_SERVICE_NAME: 'saksi-test',
        },
        '/tmp',
      );
      const tracing = await startTracing(config.traces, { version: '0.1.0' });
      expect(tracing).not.toBeNull();
      const server = await startServer(test.engine, {
        port: 0,
        host: '127.0.0.1',
        logger: createLogger('silent'),
        tracing: tracing!,
      });
      let sessionId = '';
      try {
        await test.engine.ingest('hukum', { bytes: utf8Encode(LAW), filename: 'uu.md' });
        const asked = await fetch(`${server.url}/api/v1/chat`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`,
            'x-request-id': 'trace-me-1',
            ...bearer(key),
          },
          body: JSON.stringify({ collection: 'hukum', question: QUESTION }),
        });
        expect(asked.status).toBe(200);
        sessionId = ((await asked.json()) as { session_id: string }).session_id;
        const session = await fetch(`${server.url}/api/v1/sessions/${sessionId}`, { headers: bearer(key) });
        expect(session.status).toBe(200);
        // A malformed traceparent starts a trace of its own.
        await fetch(`${server.url}/api/v1/health`, { headers: { traceparent: 'not-a-trace' } });
      } finally {
        await server.close();
        await tracing!.shutdown();
      }

      expect(otlp.paths.every((path) => path === '/v1/traces')).toBe(true);
      expect(otlp.headers[0]?.['authorization']).toBe('Bearer otlp-secret-123');
      const named = (name: string) => otlp.spans.filter((span) => span.name === name);

      const [chat] = named('POST /api/v1/chat');
      expect(chat).toMatchObject({ traceId: TRACE_ID, parentSpanId: PARENT_ID, kind: 2 });
      expect(attribute(chat, 'http.route')).toBe('/api/v1/chat');
      expect(Number(attribute(chat, 'http.response.status_code'))).toBe(200);
      expect(attribute(chat, 'saksi.request_id')).toBe('trace-me-1');
      for (const stage of ['answer.retrieval', 'answer.generation', 'answer.certification']) {
        const [span] = named(stage);
        expect(span, stage).toMatchObject({ traceId: TRACE_ID, parentSpanId: chat?.spanId });
      }

      const [session] = named('GET /api/v1/sessions/:id');
      expect(session?.traceId).not.toBe(TRACE_ID);
      const [health] = named('GET /api/v1/health');
      expect(health?.parentSpanId ?? '').toBe('');

      const [ingest] = named('ingest');
      expect(attribute(ingest, 'saksi.ingest.outcome')).toBe('succeeded');
      for (const stage of ['parse', 'chunk', 'embed', 'store'])
        expect(named(`ingest.${stage}`)[0], stage).toMatchObject({
          traceId: ingest?.traceId,
          parentSpanId: ingest?.spanId,
        });

      const attributes = JSON.stringify(otlp.spans.map((span) => [span.name, span.attributes]));
      for (const secret of [key, sessionId, sessionId.slice(4), QUESTION, 'helm', 'otlp-secret'])
        expect(attributes).not.toContain(secret);
    } finally {
      await otlp.close();
    }
  }, 120_000);

  it('without the variables loads nothing and opens no connection but the client’s own', async () => {
    const config = loadConfig({}, '/tmp');
    expect(config.traces).toBeUndefined();
    expect(config.errorReports).toBeUndefined();
    expect(await startTracing(config.traces, { version: '0.1.0' })).toBeNull();

    // Every outgoing connection of this process is recorded while the server works.
    const connections: unknown[] = [];
    const connect = net.Socket.prototype.connect;
    const originalFetch = globalThis.fetch;
    net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
      connections.push(args[0]);
      return (connect as (...rest: unknown[]) => net.Socket).apply(this, args);
    } as typeof connect;
    const fetched: string[] = [];
    globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      fetched.push(String(input instanceof Request ? input.url : input));
      return originalFetch(input, init);
    }) as typeof fetch;
    const server = await startServer(test.engine, {
      port: 0,
      host: '127.0.0.1',
      logger: createLogger('silent'),
    });
    try {
      await test.engine.ingest('offline', { bytes: utf8Encode(`${LAW}\nPasal 292\n`), filename: 'b.md' });
      const asked = await originalFetch(`${server.url}/api/v1/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(key) },
        body: JSON.stringify({ collection: 'offline', question: QUESTION }),
      });
      expect(asked.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    } finally {
      net.Socket.prototype.connect = connect;
      globalThis.fetch = originalFetch;
      await server.close();
    }
    expect(fetched).toEqual([]);
    // The recorder works: it saw the client's own connection.
    expect(connections.length).toBeGreaterThan(0);
    const port = Number(new URL(server.url).port);
    const database = process.env['SAKSI_TEST_DATABASE_URL'];
    const databasePort = database ? Number(new URL(database).port || 5432) : undefined;
    for (const target of connections) {
      const options = (Array.isArray(target) ? target[0] : target) as { port?: unknown; path?: unknown };
      const to = Number(options?.port);
      // The client's own connection to the server, or the database's (PostgreSQL runs).
      expect([port, databasePort]).toContain(to);
    }
  }, 120_000);
});
