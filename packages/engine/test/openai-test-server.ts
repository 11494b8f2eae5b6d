/**
 * A real, local OpenAI-compatible HTTP server for tests (docs/architecture.md, "Tests"): `node:http` on
 * 127.0.0.1, an ephemeral port, no mocks of `fetch`.
 *
 * Built in: `POST /v1/embeddings`, answering with deterministic vectors derived from each input text
 * ({@link testEmbedding}), so tests can check order and batching. Failure modes are switched with
 * `setMode`. Other routes (e.g. `POST /v1/chat/completions` with SSE streaming) are added by passing a
 * `handler`, which sees every request first and returns `true` when it has answered:
 *
 * ```ts
 * const server = await startOpenAITestServer(async (request, response) => {
 *   if (request.path !== '/v1/chat/completions') return false;
 *   response.writeHead(200, { 'content-type': 'text/event-stream' });
 *   response.end('data: [DONE]\n\n');
 *   return true;
 * });
 * ```
 */

import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the built-in `/v1/embeddings` route does. */
export type OpenAITestServerMode =
  /** Valid vectors. */
  | 'ok'
  /** HTTP 429 with `Retry-After` (see {@link SetModeOptions}). */
  | '429'
  /** HTTP 500 with an OpenAI-style error body. */
  | '500'
  /** HTTP 200 with a body that is not an embeddings response. */
  | 'bad-shape'
  /** Accepts the request and never answers (until the client gives up or the server closes). */
  | 'stall'
  /** Valid shape, vectors one element longer than asked. */
  | 'wrong-dimension';

export interface SetModeOptions {
  /** Apply the mode to this many requests, then go back to `ok`. Default: until the next `setMode`. */
  times?: number;
  /** `Retry-After` header (seconds) for `429`. Default `0`. */
  retryAfterSeconds?: number;
  /** `retry-after-ms` header for `429`, instead of `Retry-After`. */
  retryAfterMs?: number;
}

/** A request as the server saw it. `body` is parsed JSON, or the raw text when it is not JSON. */
export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
  /** Lowercase header names; repeated headers joined with `, `. */
  headers: Record<string, string>;
}

/** Answers a request; returns `true` when it did, `false` to fall through to the built-in routes. */
export type OpenAITestHandler = (
  request: RecordedRequest,
  response: ServerResponse,
) => boolean | Promise<boolean>;

export interface OpenAITestServerOptions {
  /** Vector length when the request does not ask for `dimensions`. Default 8. */
  dimensions?: number;
}

export interface OpenAITestServer {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:54321/v1`. */
  url: string;
  /** Every request received, in arrival order. */
  requests: RecordedRequest[];
  setMode(mode: OpenAITestServerMode, options?: SetModeOptions): void;
  /** Stops listening and drops open connections (including stalled ones). */
  close(): Promise<void>;
}

export const DEFAULT_TEST_DIMENSIONS = 8;

/**
 * The vector the test server returns for `text`: SHA-256-derived values in [-1, 1), deterministic,
 * different for different texts.
 */
export function testEmbedding(text: string, dimensions = DEFAULT_TEST_DIMENSIONS): number[] {
  const vector: number[] = [];
  for (let block = 0; vector.length < dimensions; block++) {
    const digest = createHash('sha256').update(`${block}\u0000${text}`).digest();
    for (let i = 0; i + 2 <= digest.length && vector.length < dimensions; i += 2) {
      vector.push(digest.readUInt16BE(i) / 32768 - 1);
    }
  }
  return vector;
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) result[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/** Starts the server on 127.0.0.1 with an ephemeral port. Close it in `afterAll`/`afterEach`. */
export async function startOpenAITestServer(
  handler?: OpenAITestHandler,
  options: OpenAITestServerOptions = {},
): Promise<OpenAITestServer> {
  const defaultDimensions = options.dimensions ?? DEFAULT_TEST_DIMENSIONS;
  const requests: RecordedRequest[] = [];
  let mode: OpenAITestServerMode = 'ok';
  let modeOptions: SetModeOptions = {};
  let remaining = Number.POSITIVE_INFINITY;
  const stalled = new Set<ServerResponse>();

  /** The mode for the next embeddings request, counting down `times`. */
  const takeMode = (): { mode: OpenAITestServerMode; options: SetModeOptions } => {
    if (remaining <= 0) {
      mode = 'ok';
      modeOptions = {};
      remaining = Number.POSITIVE_INFINITY;
    }
    remaining--;
    return { mode, options: modeOptions };
  };

  const embeddings = (request: RecordedRequest, response: ServerResponse): void => {
    const body = request.body;
    if (typeof body !== 'object' || body === null) {
      sendJson(response, 400, { error: { message: 'body must be JSON', type: 'invalid_request_error' } });
      return;
    }
    const { input, dimensions, model } = body as { input?: unknown; dimensions?: unknown; model?: unknown };
    const inputs = typeof input === 'string' ? [input] : input;
    if (
      !Array.isArray(inputs) ||
      !inputs.every((value) => typeof value === 'string') ||
      typeof model !== 'string'
    ) {
      sendJson(response, 400, {
        error: {
          message: 'model and input (string or string[]) are required',
          type: 'invalid_request_error',
        },
      });
      return;
    }
    const size = typeof dimensions === 'number' ? dimensions : defaultDimensions;
    const current = takeMode();
    switch (current.mode) {
      case '429': {
        const headers: Record<string, string> =
          current.options.retryAfterMs !== undefined
            ? { 'retry-after-ms': String(current.options.retryAfterMs) }
            : { 'retry-after': String(current.options.retryAfterSeconds ?? 0) };
        sendJson(
          response,
          429,
          {
            error: {
              message: 'Rate limit reached',
              type: 'rate_limit_exceeded',
              code: 'rate_limit_exceeded',
            },
          },
          headers,
        );
        return;
      }
      case '500':
        sendJson(response, 500, { error: { message: 'The server had an error', type: 'server_error' } });
        return;
      case 'bad-shape':
        sendJson(response, 200, {
          object: 'list',
          data: inputs.map((_, index) => ({ index, vector: 'nope' })),
        });
        return;
      case 'stall':
        stalled.add(response);
        response.on('close', () => stalled.delete(response));
        return;
      default: {
        const extra = current.mode === 'wrong-dimension' ? 1 : 0;
        const data = (inputs as string[]).map((text, index) => ({
          object: 'embedding',
          index,
          embedding: testEmbedding(text, size + extra),
        }));
        // Answer in reverse index order: clients must sort by `index`, as OpenAI documents.
        data.reverse();
        const tokens = (inputs as string[]).reduce((sum, text) => sum + text.split(/\s+/).length, 0);
        sendJson(response, 200, {
          object: 'list',
          data,
          model,
          usage: { prompt_tokens: tokens, total_tokens: tokens },
        });
      }
    }
  };

  const server = createServer((incoming, response) => {
    const parts: Buffer[] = [];
    incoming.on('data', (part: Buffer) => parts.push(part));
    incoming.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      let body: unknown = text;
      try {
        body = text.length > 0 ? JSON.parse(text) : undefined;
      } catch {
        // keep the raw text
      }
      const request: RecordedRequest = {
        method: incoming.method ?? 'GET',
        path: new URL(incoming.url ?? '/', 'http://127.0.0.1').pathname,
        body,
        headers: flattenHeaders(incoming.headers),
      };
      requests.push(request);
      void (async () => {
        try {
          if (handler !== undefined && (await handler(request, response))) return;
          if (request.method === 'POST' && request.path === '/v1/embeddings') {
            embeddings(request, response);
            return;
          }
          sendJson(response, 404, { error: { message: `no route ${request.method} ${request.path}` } });
        } catch (error) {
          if (!response.headersSent) sendJson(response, 500, { error: { message: String(error) } });
          else response.destroy();
        }
      })();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    setMode(next, nextOptions = {}) {
      mode = next;
      modeOptions = nextOptions;
      remaining = nextOptions.times ?? Number.POSITIVE_INFINITY;
    },
    close() {
      for (const response of stalled) response.destroy();
      stalled.clear();
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      });
    },
  };
}
