/**
 * The streamed chat, the browser options (same-origin base URL, credentials, the admin CSRF token) and
 * the public calls the web app uses, against a local HTTP server that answers as the Saksi server does.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ChatStreamEvent, chatStream } from './chat-stream.js';
import { SaksiClient } from './client.js';
import { SaksiApiError } from './errors.js';
import { giveFeedback } from './feedback.js';
import { startTestServer, type TestServer } from './test-server.js';
import { trustedKeys } from './trusted-keys.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (request: Received, response: ServerResponse) => void;

let server: TestServer;
let baseUrl: string;
let received: Received[] = [];
let handler: Handler = (_request, response) =>
  json(response, 404, { error: { code: 'NOT_FOUND', message: 'No route' } });

function json(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Writes `events` as Server-Sent Events, one write each, then ends the stream unless `open`. */
function stream(response: ServerResponse, events: [string, unknown][], options: { open?: boolean } = {}) {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events) response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  if (!options.open) response.end();
}

const BUNDLE = {
  certificate: {
    schema: 'saksi.certificate/v1',
    certificate_id: 'cert_1',
    issued_at: '2026-01-01T00:00:00Z',
  },
  signature: 'sig',
  log: { origin: 'saksi.local/log', leaf_index: 0, inclusion_proof: [], checkpoint: 'cp', cosignatures: [] },
  chunks: [],
};

const ANSWER: [string, unknown][] = [
  ['session', { session_id: 'ses_1' }],
  [
    'retrieval',
    {
      results: [{ chunk_id: 'chk_1', document_id: 'doc_1', score: 1, rank: 1, snippet: 'Pasal 287' }],
      timings: { retrieval_ms: 3 },
    },
  ],
  ['delta', { text: 'Denda ' }],
  ['delta', { text: 'Rp500.000 [1]' }],
  ['bundle', BUNDLE],
  [
    'done',
    { session_id: 'ses_1', certificate_id: 'cert_1', found: true, cached: false, timings: { total_ms: 9 } },
  ],
];

beforeAll(async () => {
  server = await startTestServer((request, response) => {
    const entry = { ...request, body: request.body.toString() };
    received.push(entry);
    handler(entry, response);
  });
  baseUrl = server.baseUrl;
});

afterAll(async () => {
  await server?.close();
});

beforeEach(() => {
  received = [];
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function collect(events: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const seen: ChatStreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

async function failure(promise: Promise<unknown>): Promise<SaksiApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SaksiApiError);
  return error as SaksiApiError;
}

describe('chatStream', () => {
  it('yields the typed events of a streamed answer in order and asks for a stream', async () => {
    handler = (_request, response) => stream(response, ANSWER);
    const client = new SaksiClient({ baseUrl });
    const events = await collect(
      client.chatStream({ collection: 'laws', question: 'Denda lampu merah?', session_id: 'ses_1' }),
    );
    expect(events).toEqual([
      { type: 'session', session_id: 'ses_1' },
      {
        type: 'retrieval',
        results: [{ chunk_id: 'chk_1', document_id: 'doc_1', score: 1, rank: 1, snippet: 'Pasal 287' }],
        timings: { retrieval_ms: 3 },
      },
      { type: 'delta', text: 'Denda ' },
      { type: 'delta', text: 'Rp500.000 [1]' },
      { type: 'bundle', bundle: BUNDLE },
      {
        type: 'done',
        session_id: 'ses_1',
        certificate_id: 'cert_1',
        found: true,
        cached: false,
        timings: { total_ms: 9 },
      },
    ]);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/api/v1/chat' });
    expect(received[0]!.headers['accept']).toBe('text/event-stream');
    expect(JSON.parse(received[0]!.body)).toEqual({
      collection: 'laws',
      question: 'Denda lampu merah?',
      session_id: 'ses_1',
      stream: true,
    });
  });

  it('reads a refusal as done with found false, and skips events it does not know', async () => {
    handler = (_request, response) =>
      stream(response, [
        ['session', { session_id: 'ses_2' }],
        ['heartbeat', { at: 1 }],
        [
          'done',
          {
            session_id: 'ses_2',
            certificate_id: 'cert_2',
            found: false,
            cached: false,
            timings: {},
            verdict: { outcome: 'refused', answers_question: false, view: 'server' },
          },
        ],
      ]);
    const events = await collect(chatStream({ baseUrl }, { collection: 'laws', question: 'Cuaca?' }));
    expect(events.map((event) => event.type)).toEqual(['session', 'done']);
    expect(events[1]).toMatchObject({
      found: false,
      verdict: { outcome: 'refused', answers_question: false, view: 'server' },
    });
  });

  it('throws an error event as the server code, after the events before it', async () => {
    handler = (_request, response) =>
      stream(response, [
        ['session', { session_id: 'ses_3' }],
        ['error', { code: 'LLM_UNAVAILABLE', message: 'The model is down.', message_id: 'Model mati.' }],
      ]);
    const seen: string[] = [];
    const error = await failure(
      (async () => {
        for await (const event of chatStream({ baseUrl }, { collection: 'laws', question: 'Apa?' }))
          seen.push(event.type);
      })(),
    );
    expect(seen).toEqual(['session']);
    expect(error).toMatchObject({
      code: 'LLM_UNAVAILABLE',
      status: 200,
      message: 'The model is down.',
      messageId: 'Model mati.',
    });
  });

  it('throws an error reply before the stream with its code and status', async () => {
    handler = (_request, response) =>
      json(response, 404, { error: { code: 'NOT_FOUND', message: 'No session ses_x.' } });
    const error = await failure(collect(chatStream({ baseUrl }, { collection: 'laws', question: 'Apa?' })));
    expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('calls a stream that ends before done STREAM_ENDED and a reply that is no stream BAD_RESPONSE', async () => {
    handler = (_request, response) => stream(response, ANSWER.slice(0, 3));
    expect(
      await failure(collect(chatStream({ baseUrl }, { collection: 'laws', question: 'Apa?' }))),
    ).toMatchObject({
      code: 'STREAM_ENDED',
    });
    handler = (_request, response) => json(response, 200, { answer: 'not streamed' });
    expect(
      await failure(collect(chatStream({ baseUrl }, { collection: 'laws', question: 'Apa?' }))),
    ).toMatchObject({
      code: 'BAD_RESPONSE',
      status: 200,
    });
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('event: delta\ndata: {"text":\n\n');
    };
    expect(
      await failure(collect(chatStream({ baseUrl }, { collection: 'laws', question: 'Apa?' }))),
    ).toMatchObject({
      code: 'BAD_RESPONSE',
    });
  });

  it('stops with ABORTED when the signal is aborted mid-stream', async () => {
    handler = (_request, response) => stream(response, ANSWER.slice(0, 3), { open: true });
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await failure(
      (async () => {
        for await (const event of chatStream(
          { baseUrl },
          { collection: 'laws', question: 'Apa?' },
          { signal: controller.signal },
        )) {
          seen.push(event.type);
          if (event.type === 'delta') controller.abort();
        }
      })(),
    );
    expect(error.code).toBe('ABORTED');
    expect(seen).toEqual(['session', 'retrieval', 'delta']);
  });
});

describe('in a browser', () => {
  it("resolves baseUrl '' against the page's origin and passes credentials to fetch", async () => {
    vi.stubGlobal('location', { href: `${baseUrl}/admin` });
    const inits: RequestInit[] = [];
    const recording: typeof fetch = (input, init) => {
      inits.push(init ?? {});
      return fetch(input, init);
    };
    handler = (_request, response) => json(response, 200, { items: [{ name: 'laws' }] });
    const client = new SaksiClient({ baseUrl: '', credentials: 'same-origin', fetch: recording });
    expect(await client.listCollections()).toEqual([{ name: 'laws' }]);
    expect(received[0]!.url).toBe('/api/v1/collections');
    expect(received[0]!.headers['authorization']).toBeUndefined();
    expect(inits[0]!.credentials).toBe('same-origin');
    expect(client.admin.usageCsvUrl({ days: 7, workspace: 'default', collection: '' }, 'days')).toBe(
      '/api/v1/admin/usage.csv?days=7&workspace=default&table=days',
    );
  });

  it('calls the fetch it is given as a plain function, as a browser requires of window.fetch', async () => {
    handler = (_request, response) => json(response, 200, { issuers: [] });
    const receivers: unknown[] = [];
    const strict = function (this: unknown, input: RequestInfo | URL, init?: RequestInit) {
      receivers.push(this);
      return fetch(input, init);
    } as typeof fetch;
    expect(await trustedKeys({ baseUrl, fetch: strict })).toEqual({ issuers: [] });
    expect(receivers).toEqual([undefined]);
  });

  it("refuses baseUrl '' where there is no page, as INVALID_BASE_URL", async () => {
    vi.stubGlobal('location', undefined);
    expect(await failure(new SaksiClient({ baseUrl: '' }).health())).toMatchObject({
      code: 'INVALID_BASE_URL',
      status: 0,
    });
  });

  it('sends the CSRF token on changes only, and with() keeps the other options', async () => {
    handler = (request, response) =>
      request.method === 'GET'
        ? json(response, 200, { email: 'admin@example.org', csrf_token: 'csrf_1' })
        : json(response, 200, { document: { id: 'doc_1' } });
    const base = new SaksiClient({ baseUrl, headers: { 'X-Saksi-Workspace': 'wsp_a' } });
    const session = await base.admin.session();
    const acting = base.with({ csrfToken: session.csrf_token });
    await acting.admin.session();
    await acting.admin.setArchived('doc_1', true);
    expect(received.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /api/v1/admin/me',
      'GET /api/v1/admin/me',
      'POST /api/v1/admin/documents/doc_1/archive',
    ]);
    expect(received[1]!.headers['x-csrf-token']).toBeUndefined();
    expect(received[2]!.headers['x-csrf-token']).toBe('csrf_1');
    expect(received[2]!.headers['x-saksi-workspace']).toBe('wsp_a');
  });
});

describe('public calls', () => {
  it('fetches the well-known keys from the root, anchors and a consistency proof', async () => {
    handler = (request, response) => {
      if (request.url === '/.well-known/saksi-keys.json') return json(response, 200, { issuers: [] });
      if (request.url === '/api/v1/anchors')
        return json(response, 200, { provider: 'local', chain: null, documents: {}, rounds: [] });
      return json(response, 200, { first: 1, second: 2, proof: ['ab'] });
    };
    const client = new SaksiClient({ baseUrl });
    expect(await client.trustedKeys()).toEqual({ issuers: [] });
    expect(await trustedKeys({ baseUrl: `${baseUrl}/api/v1`, credentials: 'omit' })).toEqual({ issuers: [] });
    expect((await client.anchors()).provider).toBe('local');
    expect((await client.consistencyProof(1, 2)).proof).toEqual(['ab']);
    expect(received.map((request) => request.url)).toEqual([
      '/.well-known/saksi-keys.json',
      '/.well-known/saksi-keys.json',
      '/api/v1/anchors',
      '/api/v1/log/proof/consistency?first=1&second=2',
    ]);
  });

  it('sends feedback with the free function as the client does', async () => {
    handler = (_request, response) =>
      json(response, 200, { feedback: { certificate_id: 'cert_1', rating: 'up' }, replaced: false });
    await giveFeedback({ baseUrl }, { certificate_id: 'cert_1', rating: 'up', comment: 'Jelas.' });
    expect(received[0]).toMatchObject({ method: 'POST', url: '/api/v1/feedback' });
    expect(JSON.parse(received[0]!.body)).toEqual({
      certificate_id: 'cert_1',
      rating: 'up',
      comment: 'Jelas.',
    });
  });
});
