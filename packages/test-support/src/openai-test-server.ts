/**
 * The one local OpenAI-compatible HTTP server for tests (docs/architecture.md, "Tests"; docs/language-models.md,
 * "Measuring it"): `node:http` on 127.0.0.1, an ephemeral port, no mocks of `fetch`, never calling out.
 * Test code only: it is not part of `@saksi/engine`'s public index; other packages' tests import it by
 * this path.
 *
 * Routes, in order:
 * - a `handler`, if given, sees every request first and returns `true` when it has answered;
 * - `POST /v1/chat/completions` with a `script`: each request is answered by the {@link LlmTestScenario}
 *   the script returns for it, streaming (`stream: true`: server-sent events in OpenAI's chunk format,
 *   usage in the last chunk, then `data: [DONE]`) or not, so a test can say "429 once, then text",
 *   "stall after two words" or "drop the connection mid-answer";
 * - `POST /v1/embeddings`: deterministic vectors derived from each input text ({@link testEmbedding}),
 *   so tests can check order and batching; failure modes are switched with `setMode`;
 * - anything else: 404 in OpenAI's error format.
 *
 * ```ts
 * const embeddings = await startOpenAITestServer();
 * const chat = await startLlmTestServer({ script: () => ({ kind: 'text', text: 'Halo' }) });
 * ```
 *
 * Exports: {@link startOpenAITestServer}, {@link startLlmTestServer}, {@link testEmbedding},
 * {@link DEFAULT_TEST_DIMENSIONS} and their types.
 */

import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// ---------------------------------------------------------------------------------------------
// Requests and options
// ---------------------------------------------------------------------------------------------

/** A request as the server saw it, in arrival order. */
export interface RecordedRequest<Body = unknown> {
  /** 0-based arrival index. */
  index: number;
  method: string;
  path: string;
  /** The parsed JSON body; `null` when the body is empty or not JSON. */
  body: Body;
  /** Lowercase header names; repeated headers joined with `, `. */
  headers: Record<string, string>;
}

/** Answers a request; returns `true` when it did, `false` to fall through to the built-in routes. */
export type OpenAITestHandler = (
  request: RecordedRequest,
  response: ServerResponse,
) => boolean | Promise<boolean>;

export interface OpenAITestServerOptions {
  /** Vector length when an embeddings request does not ask for `dimensions`. Default 8. */
  dimensions?: number;
  /** Picks the answer for each chat completion; without it the chat route is a 404. */
  script?: LlmTestScript;
}

export interface OpenAITestServer {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:54321/v1`, ready for `SAKSI_LLM_BASE_URL`. */
  url: string;
  /** Every request received, in arrival order. */
  requests: RecordedRequest[];
  /** Sets what the built-in `/v1/embeddings` route does. */
  setMode(mode: OpenAITestServerMode, options?: SetModeOptions): void;
  /** Stops listening and drops open connections (stalled ones included). */
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Embeddings
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Chat completions
// ---------------------------------------------------------------------------------------------

export type LlmTestScenario =
  /** Streams `text` in pieces of `chunkSize` characters (default 8), `chunkDelayMs` apart. */
  | {
      kind: 'text';
      text: string;
      chunkSize?: number;
      chunkDelayMs?: number;
      usage?: { promptTokens: number; completionTokens: number };
    }
  /** Streams part of `text`, then a `data:` line that is not JSON, then the rest. */
  | { kind: 'malformed'; text?: string }
  /** Streams `afterText`, then sends nothing more and keeps the connection open. */
  | { kind: 'stall'; afterText: string }
  /** Streams `afterText`, then destroys the socket without finishing the response. */
  | { kind: 'error-mid-stream'; afterText: string }
  /** Answers with an HTTP error status in OpenAI's error format; `retryAfter` in seconds. */
  | { kind: 'status'; status: 429 | 500 | 502 | 503 | 401 | 403 | 404; retryAfter?: number };

/** The fields of an OpenAI chat request the server reads. */
export interface ChatCompletionRequestBody {
  model?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  temperature?: number;
  messages?: { role: string; content: unknown }[];
  [key: string]: unknown;
}

/** A request seen by a chat server; for chat completions `body` is always a JSON object. */
export type LlmTestRequest = RecordedRequest<ChatCompletionRequestBody | null>;

export type LlmTestScript = (request: LlmTestRequest) => LlmTestScenario | Promise<LlmTestScenario>;

export interface LlmTestServerOptions {
  /** Picks the answer for each chat request. */
  script: LlmTestScript;
}

export interface LlmTestServer {
  /** Base URL ending in `/v1`, ready for `SAKSI_LLM_BASE_URL`. */
  url: string;
  /** Every request received so far (chat completions and anything else). */
  requests: LlmTestRequest[];
  /** Closes the server and drops open connections (stalled streams included). */
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------------------------

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

const CREATED = 1_700_000_000;

function messageChars(body: ChatCompletionRequestBody | null): number {
  let total = 0;
  for (const message of body?.messages ?? []) {
    total +=
      typeof message.content === 'string' ? message.content.length : JSON.stringify(message.content).length;
  }
  return total;
}

function pieces(text: string, size: number): string[] {
  const characters = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < characters.length; i += size) out.push(characters.slice(i, i + size).join(''));
  return out;
}

function chunk(
  id: string,
  model: string,
  delta: Record<string, unknown>,
  finishReason: string | null,
): Record<string, unknown> {
  return {
    id,
    object: 'chat.completion.chunk',
    created: CREATED,
    model,
    system_fingerprint: 'saksi-test',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
}

function usageFor(
  body: ChatCompletionRequestBody | null,
  completionPieces: number,
  override?: { promptTokens: number; completionTokens: number },
): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  const prompt = override?.promptTokens ?? Math.ceil(messageChars(body) / 4);
  const completion = override?.completionTokens ?? completionPieces;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const ERROR_TYPES: Record<number, string> = {
  401: 'invalid_request_error',
  403: 'permission_denied',
  404: 'not_found_error',
  429: 'rate_limit_exceeded',
};

async function answerChat(
  scenario: LlmTestScenario,
  body: ChatCompletionRequestBody | null,
  index: number,
  response: ServerResponse,
): Promise<void> {
  const model = typeof body?.model === 'string' ? body.model : 'test-model';
  const id = `chatcmpl-saksi-${index}`;

  if (scenario.kind === 'status') {
    const headers: Record<string, string> = {};
    if (scenario.retryAfter !== undefined) headers['retry-after'] = String(scenario.retryAfter);
    sendJson(
      response,
      scenario.status,
      {
        error: {
          message: `Scripted HTTP ${scenario.status} from the Saksi test server.`,
          type: ERROR_TYPES[scenario.status] ?? 'server_error',
          param: null,
          code: null,
        },
      },
      headers,
    );
    return;
  }

  const fullText =
    scenario.kind === 'text'
      ? scenario.text
      : scenario.kind === 'malformed'
        ? (scenario.text ?? 'Jawaban sebagian [1]. Lalu rusak.')
        : scenario.afterText;
  const size = scenario.kind === 'text' ? Math.max(1, scenario.chunkSize ?? 8) : 8;
  const textPieces = pieces(fullText, size);

  if (body?.stream !== true) {
    if (scenario.kind !== 'text') {
      // Without streaming the only faithful failure is a dropped connection.
      response.socket?.destroy();
      return;
    }
    sendJson(response, 200, {
      id,
      object: 'chat.completion',
      created: CREATED,
      model,
      system_fingerprint: 'saksi-test',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: fullText },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: usageFor(body, textPieces.length, scenario.usage),
    });
    return;
  }

  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  response.flushHeaders();
  const send = (value: unknown) => response.write(`data: ${JSON.stringify(value)}\n\n`);
  send(chunk(id, model, { role: 'assistant', content: '' }, null));

  const delay = scenario.kind === 'text' ? (scenario.chunkDelayMs ?? 0) : 0;
  const malformedAt = scenario.kind === 'malformed' ? Math.max(1, Math.floor(textPieces.length / 2)) : -1;
  for (const [position, piece] of textPieces.entries()) {
    if (position === malformedAt)
      response.write('data: {"id":"chatcmpl-broken","choices":[{"delta":{"content":\n\n');
    send(chunk(id, model, { content: piece }, null));
    if (delay > 0) await sleep(delay);
  }

  if (scenario.kind === 'stall') return; // keep the socket open and silent until close()
  if (scenario.kind === 'error-mid-stream') {
    // Let the written text reach the client before the connection disappears.
    await sleep(20);
    response.socket?.destroy();
    return;
  }

  send(chunk(id, model, {}, 'stop'));
  send({
    id,
    object: 'chat.completion.chunk',
    created: CREATED,
    model,
    system_fingerprint: 'saksi-test',
    choices: [],
    usage: usageFor(body, textPieces.length, scenario.kind === 'text' ? scenario.usage : undefined),
  });
  response.write('data: [DONE]\n\n');
  response.end();
}

/**
 * Starts the server on 127.0.0.1 with an ephemeral port. Close it in `afterAll`/`afterEach`.
 * `handler` answers first; `options.script` turns on the chat route.
 */
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

  const chat = async (request: RecordedRequest, response: ServerResponse, script: LlmTestScript) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      sendJson(response, 400, {
        error: { message: 'Body must be a JSON object.', type: 'invalid_request_error' },
      });
      return;
    }
    const chatRequest = request as LlmTestRequest;
    const scenario = await script(chatRequest);
    await answerChat(scenario, chatRequest.body, request.index, response);
  };

  const server = createServer((incoming, response) => {
    const parts: Buffer[] = [];
    incoming.on('data', (part: Buffer) => parts.push(part));
    incoming.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      let body: unknown = null;
      try {
        if (text.length > 0) body = JSON.parse(text);
      } catch {
        body = null;
      }
      const request: RecordedRequest = {
        index: requests.length,
        method: incoming.method ?? 'GET',
        path: new URL(incoming.url ?? '/', 'http://127.0.0.1').pathname,
        body,
        headers: flattenHeaders(incoming.headers),
      };
      requests.push(request);
      void (async () => {
        try {
          if (handler !== undefined && (await handler(request, response))) return;
          if (request.method === 'POST' && request.path === '/v1/chat/completions' && options.script) {
            await chat(request, response, options.script);
            return;
          }
          if (request.method === 'POST' && request.path === '/v1/embeddings') {
            embeddings(request, response);
            return;
          }
          sendJson(response, 404, {
            error: { message: `No route ${request.method} ${request.path}.`, type: 'not_found' },
          });
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
      return new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

/** Starts a scripted chat server: {@link startOpenAITestServer} with only a `script`. */
export async function startLlmTestServer(options: LlmTestServerOptions): Promise<LlmTestServer> {
  const server = await startOpenAITestServer(undefined, { script: options.script });
  return { url: server.url, requests: server.requests as LlmTestRequest[], close: () => server.close() };
}
