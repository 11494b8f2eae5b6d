import {
  type LlmTestScenario,
  type LlmTestServer,
  startLlmTestServer,
} from '@saksi/test-support/openai-test-server';
import { afterEach, describe, expect, it } from 'vitest';
import { type LlmConfig, parseLlmConfig } from './config.js';
import { isLlmError, type LlmError } from './errors.js';
import { type AnswerModel, createAnswerModel, type LlmStreamPart, retryAfterMs } from './model.js';

let server: LlmTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function configFor(url: string, overrides: Record<string, string> = {}): LlmConfig {
  const config = parseLlmConfig({
    SAKSI_LLM: 'openai-compatible:test-model',
    SAKSI_LLM_BASE_URL: url,
    SAKSI_LLM_API_KEY: 'sk-test-secret',
    SAKSI_LLM_STALL_MS: '300',
    SAKSI_LLM_TIMEOUT_MS: '3000',
    ...overrides,
  });
  if (config === null) throw new Error('expected a config');
  return config;
}

async function serve(
  scenarios: LlmTestScenario[] | ((index: number) => LlmTestScenario),
  overrides: Record<string, string> = {},
): Promise<{ model: AnswerModel; server: LlmTestServer }> {
  server = await startLlmTestServer({
    script: (request) => {
      if (typeof scenarios === 'function') return scenarios(request.index);
      const scenario = scenarios[Math.min(request.index, scenarios.length - 1)];
      if (scenario === undefined) throw new Error('no scenario');
      return scenario;
    },
  });
  const model = createAnswerModel(configFor(server.url, overrides), {
    initialRetryDelayMs: 5,
    maxRetryDelayMs: 1500,
    random: () => 0.5,
  });
  return { model, server };
}

const REQUEST = { system: 'Answer only from the sources.', prompt: 'Berapa tarif PPN? [1]' };

async function collect(
  model: AnswerModel,
  request: Parameters<AnswerModel['doStream']>[0] = REQUEST,
): Promise<{ parts: LlmStreamPart[]; error: LlmError | undefined }> {
  const parts: LlmStreamPart[] = [];
  try {
    for await (const part of model.doStream(request)) parts.push(part);
    return { parts, error: undefined };
  } catch (error) {
    if (!isLlmError(error)) throw error;
    return { parts, error };
  }
}

const textOf = (parts: LlmStreamPart[]) =>
  parts.map((part) => (part.type === 'text' ? part.text : '')).join('');

describe('createAnswerModel against the scripted OpenAI-compatible server', () => {
  it('streams text in order, then one finish part with usage', async () => {
    const text = 'Tarif PPN adalah 12% [1]. Berlaku sejak 1 Januari 2025 [1].';
    const { model, server } = await serve([{ kind: 'text', text, chunkSize: 5 }]);
    const { parts, error } = await collect(model);
    expect(error).toBeUndefined();
    expect(parts.filter((part) => part.type === 'text').length).toBeGreaterThan(5);
    expect(textOf(parts)).toBe(text);
    const last = parts.at(-1);
    expect(last?.type).toBe('finish');
    expect(parts.filter((part) => part.type === 'finish')).toHaveLength(1);
    if (last?.type === 'finish') {
      expect(last.finishReason).toBe('stop');
      expect(last.usage.outputTokens).toBe(Math.ceil(text.length / 5));
      expect(last.usage.inputTokens).toBeGreaterThan(0);
    }
    const body = server.requests[0]?.body;
    expect(body?.stream).toBe(true);
    expect(body?.model).toBe('test-model');
    expect(body?.temperature).toBe(0.1);
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer sk-test-secret');
    expect(model.specificationVersion).toBe('saksi-llm-1');
  });

  it('retries a 429 and then succeeds', async () => {
    const { model, server } = await serve([
      { kind: 'status', status: 429, retryAfter: 0 },
      { kind: 'text', text: 'Jawaban [1].' },
    ]);
    const { parts, error } = await collect(model);
    expect(error).toBeUndefined();
    expect(textOf(parts)).toBe('Jawaban [1].');
    expect(server.requests).toHaveLength(2);
  });

  it('honours Retry-After before retrying', async () => {
    const { model } = await serve([
      { kind: 'status', status: 429, retryAfter: 1 },
      { kind: 'text', text: 'Jawaban [1].' },
    ]);
    const started = Date.now();
    const { error } = await collect(model);
    expect(error).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('gives up on a Retry-After beyond the cap at once', async () => {
    const { model, server } = await serve([{ kind: 'status', status: 429, retryAfter: 120 }]);
    const { error } = await collect(model);
    expect(error?.code).toBe('LLM_RATE_LIMITED');
    expect(error?.retryAfterMs).toBe(120_000);
    expect(server.requests).toHaveLength(1);
  });

  it('turns a persistent 429 into LLM_RATE_LIMITED after maxRetries', async () => {
    const { model, server } = await serve([{ kind: 'status', status: 429 }], { SAKSI_LLM_MAX_RETRIES: '2' });
    const { parts, error } = await collect(model);
    expect(error?.code).toBe('LLM_RATE_LIMITED');
    expect(error?.upstreamStatus).toBe(429);
    expect(error?.message_id).toMatch(/sibuk/);
    expect(parts).toHaveLength(0);
    expect(server.requests).toHaveLength(3);
  });

  it('retries 500 and reports LLM_UNAVAILABLE', async () => {
    const { model, server } = await serve([{ kind: 'status', status: 500 }], { SAKSI_LLM_MAX_RETRIES: '1' });
    const { error } = await collect(model);
    expect(error?.code).toBe('LLM_UNAVAILABLE');
    expect(error?.upstreamStatus).toBe(500);
    expect(error?.retryable).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('reports 401 as LLM_AUTH without retrying and without the key in the message', async () => {
    const { model, server } = await serve([{ kind: 'status', status: 401 }]);
    const { error } = await collect(model);
    expect(error?.code).toBe('LLM_AUTH');
    expect(error?.status).toBe(502);
    expect(server.requests).toHaveLength(1);
    expect(`${error?.message} ${error?.message_id}`).not.toContain('sk-test-secret');
  });

  it('reports a refused connection as LLM_UNAVAILABLE after retrying', async () => {
    const closed = await startLlmTestServer({ script: () => ({ kind: 'text', text: 'x' }) });
    await closed.close();
    const model = createAnswerModel(configFor(closed.url, { SAKSI_LLM_MAX_RETRIES: '1' }), {
      initialRetryDelayMs: 5,
    });
    const { error } = await collect(model);
    expect(error?.code).toBe('LLM_UNAVAILABLE');
    expect(error?.upstreamStatus).toBeUndefined();
  });

  it('maps a malformed chunk to LLM_BAD_RESPONSE', async () => {
    const { model, server } = await serve([
      { kind: 'malformed', text: 'Bagian pertama jawaban, lalu bagian kedua.' },
    ]);
    const { parts, error } = await collect(model);
    expect(error?.code).toBe('LLM_BAD_RESPONSE');
    expect(error?.partial).toBe(true);
    expect(textOf(parts).length).toBeGreaterThan(0);
    expect(parts.some((part) => part.type === 'finish')).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('aborts a stalled stream with LLM_TIMEOUT within the stall window', async () => {
    const { model } = await serve([{ kind: 'stall', afterText: 'Tarif PPN adalah' }]);
    const started = Date.now();
    const { parts, error } = await collect(model);
    const elapsed = Date.now() - started;
    expect(error?.code).toBe('LLM_TIMEOUT');
    expect(error?.partial).toBe(true);
    expect(textOf(parts)).toBe('Tarif PPN adalah');
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(1500);
  });

  it('applies the overall timeout even while tokens keep arriving', async () => {
    const { model } = await serve([{ kind: 'text', text: 'a'.repeat(200), chunkSize: 1, chunkDelayMs: 20 }], {
      SAKSI_LLM_TIMEOUT_MS: '400',
    });
    const { parts, error } = await collect(model);
    expect(error?.code).toBe('LLM_TIMEOUT');
    expect(parts.some((part) => part.type === 'finish')).toBe(false);
  });

  it('throws a typed error after the text parts when the connection drops mid-stream', async () => {
    const { model, server } = await serve([{ kind: 'error-mid-stream', afterText: 'Sebagian jawaban [1]' }]);
    const { parts, error } = await collect(model);
    expect(textOf(parts)).toBe('Sebagian jawaban [1]');
    expect(parts.some((part) => part.type === 'finish')).toBe(false);
    expect(error?.code).toBe('LLM_UNAVAILABLE');
    expect(error?.retryable).toBe(true);
    expect(error?.partial).toBe(true);
    expect(server.requests).toHaveLength(1); // never retried once text was handed out
  });

  it('reports an answer without text as LLM_BAD_RESPONSE', async () => {
    const { model } = await serve([{ kind: 'text', text: '' }], { SAKSI_LLM_MAX_RETRIES: '0' });
    const { error } = await collect(model);
    expect(error?.code).toBe('LLM_BAD_RESPONSE');
    expect(error?.partial).toBe(false);
  });

  it('ends with LLM_ABORTED when the caller aborts', async () => {
    const { model } = await serve([{ kind: 'stall', afterText: 'Mulai' }], { SAKSI_LLM_STALL_MS: '5000' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const { error } = await collect(model, { ...REQUEST, signal: controller.signal });
    expect(error?.code).toBe('LLM_ABORTED');
  });

  it('passes an injected fetch through the provider', async () => {
    const { server } = await serve([{ kind: 'text', text: 'Ya [1].' }]);
    const seen: string[] = [];
    const model = createAnswerModel(configFor(server.url), {
      fetch: (input, init) => {
        seen.push(String(input instanceof Request ? input.url : input));
        return fetch(input, init);
      },
    });
    const { error } = await collect(model);
    expect(error).toBeUndefined();
    expect(seen).toEqual([`${server.url}/chat/completions`]);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds, milliseconds and HTTP dates', () => {
    expect(retryAfterMs({ 'retry-after': '2' })).toBe(2000);
    expect(retryAfterMs({ 'Retry-After-Ms': '150' })).toBe(150);
    expect(retryAfterMs({ 'retry-after': new Date(10_000).toUTCString() }, 4000)).toBe(6000);
    expect(retryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});

describe('createAnswerModel for Gemini', () => {
  /** A Gemini `streamGenerateContent?alt=sse` endpoint behind an injected fetch. */
  function gemini(status: number, seen: { url: string; key: string | null }[]): typeof fetch {
    return async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      seen.push({ url, key: new Headers(init?.headers).get('x-goog-api-key') });
      if (status !== 200)
        return new Response(JSON.stringify({ error: { code: status, message: 'x' } }), { status });
      const events = [
        { candidates: [{ content: { role: 'model', parts: [{ text: 'Tarif PPN ' }] } }] },
        {
          candidates: [{ content: { role: 'model', parts: [{ text: '12% [1].' }] }, finishReason: 'STOP' }],
          usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 6, totalTokenCount: 46 },
        },
      ];
      return new Response(events.map((event) => `data: ${JSON.stringify(event)}\r\n\r\n`).join(''), {
        headers: { 'content-type': 'text/event-stream' },
      });
    };
  }
  const config = () => {
    const parsed = parseLlmConfig({ SAKSI_LLM: 'google:gemini-2.5-flash', SAKSI_LLM_API_KEY: 'g-key' });
    if (parsed === null) throw new Error('expected a config');
    return parsed;
  };

  it('streams text and usage through @ai-sdk/google', async () => {
    const seen: { url: string; key: string | null }[] = [];
    const { parts, error } = await collect(createAnswerModel(config(), { fetch: gemini(200, seen) }));
    expect(error).toBeUndefined();
    expect(textOf(parts)).toBe('Tarif PPN 12% [1].');
    expect(parts.at(-1)).toEqual({
      type: 'finish',
      finishReason: 'stop',
      usage: { inputTokens: 40, outputTokens: 6 },
    });
    expect(seen[0]?.url).toContain('/models/gemini-2.5-flash:streamGenerateContent');
    expect(seen[0]?.url).not.toContain('g-key');
    expect(seen[0]?.key).toBe('g-key');
  });

  it('maps Gemini 403 to LLM_AUTH', async () => {
    const seen: { url: string; key: string | null }[] = [];
    const { error } = await collect(createAnswerModel(config(), { fetch: gemini(403, seen) }));
    expect(error?.code).toBe('LLM_AUTH');
    expect(seen).toHaveLength(1);
  });
});
