/**
 * A scripted OpenAI-compatible chat server for tests and CI (docs/language-models.md, "Measuring it"): a real
 * `node:http` server that answers `POST /v1/chat/completions`, streaming (`stream: true`, server-sent events
 * in OpenAI's chunk format, usage in the last chunk, then `data: [DONE]`) or not. Each request is
 * answered by the {@link LlmTestScenario} the `script` returns for it, so a test can say "429 once,
 * then text", "stall after two words" or "drop the connection mid-answer".
 *
 * It listens on 127.0.0.1 only and never calls out; nothing here is used in production.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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

/** One request the server received, in arrival order. */
export interface LlmTestRequest {
  /** 0-based arrival index. */
  index: number;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (`null` when it was not JSON). */
  body: ChatCompletionRequestBody | null;
}

/** The fields of an OpenAI chat request the server reads. */
export interface ChatCompletionRequestBody {
  model?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  temperature?: number;
  messages?: { role: string; content: unknown }[];
  [key: string]: unknown;
}

export interface LlmTestServerOptions {
  /** Picks the answer for each chat request. */
  script: (request: LlmTestRequest) => LlmTestScenario | Promise<LlmTestScenario>;
}

export interface LlmTestServer {
  /** Base URL ending in `/v1`, ready for `SAKSI_LLM_BASE_URL`. */
  url: string;
  /** Every request received so far (chat completions and anything else). */
  requests: LlmTestRequest[];
  /** Closes the server and drops open connections (stalled streams included). */
  close(): Promise<void>;
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

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.on('error', reject);
  });
}

function sendJson(
  response: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(value);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  response.end(body);
}

const ERROR_TYPES: Record<number, string> = {
  401: 'invalid_request_error',
  403: 'permission_denied',
  404: 'not_found_error',
  429: 'rate_limit_exceeded',
};

async function answer(
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

/** Starts the scripted server on 127.0.0.1 and an ephemeral port. */
export async function startLlmTestServer(options: LlmTestServerOptions): Promise<LlmTestServer> {
  const requests: LlmTestRequest[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const raw = await readBody(request);
      let body: ChatCompletionRequestBody | null = null;
      try {
        const parsed: unknown = JSON.parse(raw);
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
          body = parsed as ChatCompletionRequestBody;
        }
      } catch {
        body = null;
      }
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      const record: LlmTestRequest = {
        index: requests.length,
        method: request.method ?? 'GET',
        path,
        headers: { ...request.headers },
        body,
      };
      requests.push(record);
      if (request.method !== 'POST' || path !== '/v1/chat/completions') {
        sendJson(response, 404, {
          error: { message: `No route ${request.method} ${path}.`, type: 'not_found' },
        });
        return;
      }
      if (body === null) {
        sendJson(response, 400, {
          error: { message: 'Body must be a JSON object.', type: 'invalid_request_error' },
        });
        return;
      }
      const scenario = await options.script(record);
      await answer(scenario, body, record.index, response);
    })().catch(() => {
      if (!response.headersSent)
        sendJson(response, 500, { error: { message: 'Test server script failed.' } });
      else response.socket?.destroy();
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
