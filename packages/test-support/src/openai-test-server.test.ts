import { afterEach, describe, expect, it } from 'vitest';
import { type LlmTestScenario, type LlmTestServer, startLlmTestServer } from './openai-test-server.js';

let server: LlmTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(scenario: LlmTestScenario): Promise<LlmTestServer> {
  server = await startLlmTestServer({ script: () => scenario });
  return server;
}

function chat(url: string, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Halo dunia' }], ...body }),
  });
}

/** The `data:` payloads of an SSE body, in order. */
function events(body: string): string[] {
  return body
    .split('\n\n')
    .filter((event) => event.startsWith('data: '))
    .map((event) => event.slice('data: '.length));
}

describe('startLlmTestServer', () => {
  it('streams OpenAI chat chunks, usage in the last chunk, then [DONE]', async () => {
    const { url, requests } = await start({ kind: 'text', text: 'Satu dua tiga', chunkSize: 4 });
    const response = await chat(url, { stream: true, stream_options: { include_usage: true } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const data = events(await response.text());
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((line) => JSON.parse(line));
    expect(chunks[0]).toMatchObject({ object: 'chat.completion.chunk', model: 'm' });
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    const content = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('');
    expect(content).toBe('Satu dua tiga');
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 4 } });
    expect(requests[0]?.body?.stream).toBe(true);
    expect(requests[0]?.headers['authorization']).toBe('Bearer k');
  });

  it('answers without streaming in the chat.completion format', async () => {
    const { url } = await start({
      kind: 'text',
      text: 'Jawaban',
      usage: { promptTokens: 10, completionTokens: 2 },
    });
    const json = (await (await chat(url, { stream: false })).json()) as Record<string, unknown>;
    expect(json).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { role: 'assistant', content: 'Jawaban' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    });
  });

  it('sends scripted statuses with Retry-After', async () => {
    const { url } = await start({ kind: 'status', status: 429, retryAfter: 3 });
    const response = await chat(url, { stream: true });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3');
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe('rate_limit_exceeded');
  });

  it('puts a non-JSON data line in the middle of a malformed stream', async () => {
    const { url } = await start({ kind: 'malformed', text: 'abcdefghijklmnopqrstuvwx' });
    const data = events(await (await chat(url, { stream: true })).text());
    const broken = data.findIndex((line) => {
      if (line === '[DONE]') return false;
      try {
        JSON.parse(line);
        return false;
      } catch {
        return true;
      }
    });
    expect(broken).toBeGreaterThan(1);
    expect(broken).toBeLessThan(data.length - 2);
  });

  it('drops the connection mid-stream after the scripted text', async () => {
    const { url } = await start({ kind: 'error-mid-stream', afterText: 'Sebagian' });
    const response = await chat(url, { stream: true });
    await expect(response.text()).rejects.toThrow();
  });

  it('keeps a stalled stream open until close()', async () => {
    const { url, close } = await start({ kind: 'stall', afterText: 'Mulai' });
    const response = await chat(url, { stream: true });
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toContain('chat.completion.chunk');
    const pending = reader?.read().then(
      () => 'ended',
      () => 'dropped',
    );
    const raced = await Promise.race([
      pending,
      new Promise((resolve) => setTimeout(() => resolve('waiting'), 100)),
    ]);
    expect(raced).toBe('waiting');
    await close();
    server = undefined;
    expect(await pending).toMatch(/ended|dropped/);
  });

  it('answers unknown routes and non-JSON bodies with typed errors', async () => {
    const { url, requests } = await start({ kind: 'text', text: 'x' });
    expect((await fetch(`${url}/models`)).status).toBe(404);
    const response = await fetch(`${url}/chat/completions`, { method: 'POST', body: 'not json' });
    expect(response.status).toBe(400);
    expect(requests.map((request) => request.path)).toEqual(['/v1/models', '/v1/chat/completions']);
  });
});
