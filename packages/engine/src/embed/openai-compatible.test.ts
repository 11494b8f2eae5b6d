import {
  type OpenAITestServer,
  startOpenAITestServer,
  testEmbedding,
} from '@saksi/test-support/openai-test-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { embedMany } from './embed-many.js';
import { EmbeddingError, isEmbeddingError } from './errors.js';
import {
  createOpenAICompatibleEmbeddingModel,
  type OpenAICompatibleEmbeddingModelOptions,
  parseEmbeddingsResponse,
  parseRetryAfter,
} from './openai-compatible.js';

const API_KEY = 'sk-test-SECRET-0123456789abcdef';
let server: OpenAITestServer;

beforeAll(async () => {
  server = await startOpenAITestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.setMode('ok');
  server.requests.length = 0;
});

function model(overrides: Partial<OpenAICompatibleEmbeddingModelOptions> = {}) {
  return createOpenAICompatibleEmbeddingModel({
    baseURL: server.url,
    apiKey: API_KEY,
    modelId: 'test-embed',
    dimensions: 8,
    initialRetryDelayMs: 5,
    ...overrides,
  });
}

function modelWithoutKey(overrides: Partial<OpenAICompatibleEmbeddingModelOptions> = {}) {
  return createOpenAICompatibleEmbeddingModel({
    baseURL: server.url,
    modelId: 'test-embed',
    dimensions: 8,
    ...overrides,
  });
}

async function failure(promise: Promise<unknown>): Promise<EmbeddingError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(EmbeddingError);
    const typed = error as EmbeddingError;
    // The API key never leaks, whatever went wrong.
    expect(typed.message).not.toContain(API_KEY);
    expect(JSON.stringify({ ...typed, message: typed.message })).not.toContain(API_KEY);
    return typed;
  }
  throw new Error('expected the call to fail');
}

describe('openai-compatible embedding model', () => {
  it('describes itself as a v1 embedding model', () => {
    const embedding = model();
    expect(embedding.specificationVersion).toBe('v1');
    expect(embedding.provider).toBe('openai-compatible');
    expect(embedding.modelId).toBe('test-embed');
    expect(embedding.dimensions).toBe(8);
    expect(embedding.maxEmbeddingsPerCall).toBe(64);
  });

  it('posts the OpenAI request shape with the bearer key and returns vectors in input order', async () => {
    const result = await model({ baseURL: `${server.url}/`, headers: { 'x-gateway': 'g1' } }).doEmbed({
      values: ['satu', 'dua', 'tiga'],
    });
    expect(result.embeddings).toEqual(['satu', 'dua', 'tiga'].map((text) => testEmbedding(text, 8)));
    expect(result.usage).toEqual({ tokens: 3 });
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/embeddings');
    expect(request.method).toBe('POST');
    expect(request.body).toEqual({
      model: 'test-embed',
      input: ['satu', 'dua', 'tiga'],
      encoding_format: 'float',
    });
    expect(request.headers['authorization']).toBe(`Bearer ${API_KEY}`);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-gateway']).toBe('g1');
  });

  it('sends no authorization without a key and dimensions only when asked', async () => {
    await modelWithoutKey().doEmbed({ values: ['a'] });
    await modelWithoutKey({ sendDimensions: true }).doEmbed({ values: ['a'] });
    expect(server.requests[0]!.headers['authorization']).toBeUndefined();
    expect(server.requests[1]!.headers['authorization']).toBeUndefined();
    expect(server.requests[0]!.body).not.toHaveProperty('dimensions');
    expect(server.requests[1]!.body).toMatchObject({ dimensions: 8 });
  });

  it('batches 150 values into 3 requests of at most 64 and preserves order', async () => {
    const values = Array.from({ length: 150 }, (_, i) => `nilai ${i}`);
    const progress: Array<[number, number]> = [];
    const vectors = await embedMany(model(), values, {
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(server.requests.map((request) => (request.body as { input: string[] }).input.length)).toEqual([
      64, 64, 22,
    ]);
    expect(vectors).toEqual(values.map((value) => testEmbedding(value, 8)));
    expect(progress).toEqual([
      [64, 150],
      [128, 150],
      [150, 150],
    ]);
    expect(await model().doEmbed({ values: [] })).toEqual({ embeddings: [] });
    expect(server.requests).toHaveLength(3);
  });

  it('retries a 429 and honours Retry-After', async () => {
    server.setMode('429', { times: 1, retryAfterSeconds: 1 });
    const started = performance.now();
    const result = await model().doEmbed({ values: ['x'] });
    expect(result.embeddings).toEqual([testEmbedding('x', 8)]);
    expect(server.requests).toHaveLength(2);
    // Backoff alone is ≤ 5 ms here; only Retry-After explains waiting about a second.
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('honours retry-after-ms and fails as rate limited when retries run out', async () => {
    server.setMode('429', { retryAfterMs: 30 });
    const error = await failure(model({ maxRetries: 2 }).doEmbed({ values: ['x'] }));
    expect(error.code).toBe('EMBEDDING_RATE_LIMITED');
    expect(error.status).toBe(429);
    expect(error.retryable).toBe(true);
    expect(server.requests).toHaveLength(3);
  });

  it('gives up at once when Retry-After exceeds maxRetryDelayMs', async () => {
    server.setMode('429', { retryAfterSeconds: 3600 });
    const error = await failure(model({ maxRetryDelayMs: 1000 }).doEmbed({ values: ['x'] }));
    expect(error.code).toBe('EMBEDDING_RATE_LIMITED');
    expect(server.requests).toHaveLength(1);
  });

  it('retries 500 and then fails with a typed HTTP error', async () => {
    server.setMode('500');
    const error = await failure(model({ maxRetries: 2 }).doEmbed({ values: ['x'] }));
    expect(error.code).toBe('EMBEDDING_HTTP_ERROR');
    expect(error.status).toBe(500);
    expect(error.retryable).toBe(true);
    expect(server.requests).toHaveLength(3);
  });

  it('recovers when a 500 is followed by success', async () => {
    server.setMode('500', { times: 2 });
    const result = await model({ maxRetries: 2 }).doEmbed({ values: ['y'] });
    expect(result.embeddings).toEqual([testEmbedding('y', 8)]);
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry other 4xx answers', async () => {
    const error = await failure(
      model({ baseURL: server.url.replace(/\/v1$/, '/v2') }).doEmbed({ values: ['x'] }),
    );
    expect(error.code).toBe('EMBEDDING_HTTP_ERROR');
    expect(error.status).toBe(404);
    expect(error.retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('rejects a response of the wrong shape', async () => {
    server.setMode('bad-shape');
    const error = await failure(model().doEmbed({ values: ['x', 'y'] }));
    expect(error.code).toBe('EMBEDDING_BAD_RESPONSE');
    expect(server.requests).toHaveLength(1);
  });

  it('rejects vectors of the wrong dimension', async () => {
    server.setMode('wrong-dimension');
    const error = await failure(model().doEmbed({ values: ['x'] }));
    expect(error.code).toBe('EMBEDDING_DIMENSION_MISMATCH');
  });

  it('times out a stalled server', async () => {
    server.setMode('stall');
    const error = await failure(model({ timeoutMs: 150, maxRetries: 1 }).doEmbed({ values: ['x'] }));
    expect(error.code).toBe('EMBEDDING_TIMEOUT');
    expect(error.retryable).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('stops when the caller aborts', async () => {
    server.setMode('stall');
    const controller = new AbortController();
    const pending = model({ timeoutMs: 10_000 }).doEmbed({ values: ['x'], abortSignal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 50);
    await expect(pending).rejects.toThrow('stop');
    expect(server.requests).toHaveLength(1);
  });

  it('reports an unreachable server as a retryable HTTP error without leaking credentials', async () => {
    const closed = await startOpenAITestServer();
    const url = new URL(closed.url);
    await closed.close();
    url.search = `?api-key=${API_KEY}`;
    const error = await failure(model({ baseURL: url.toString(), maxRetries: 1 }).doEmbed({ values: ['x'] }));
    expect(error.code).toBe('EMBEDDING_HTTP_ERROR');
    expect(error.status).toBeUndefined();
    expect(error.retryable).toBe(true);
    expect(error.cause).toBeDefined();
  });

  it('sends URL user info as Basic authorization', async () => {
    const url = new URL(server.url);
    url.username = 'user';
    url.password = 'p4ss';
    url.search = '?api-version=1';
    await modelWithoutKey({ baseURL: url.toString() }).doEmbed({ values: ['x'] });
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/embeddings');
    expect(request.headers['authorization']).toBe(`Basic ${Buffer.from('user:p4ss').toString('base64')}`);
  });

  it('never echoes the key even when the server does', async () => {
    const echo = await startOpenAITestServer((request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { message: `Incorrect API key: ${request.headers['authorization']}` } }),
      );
      return true;
    });
    try {
      const error = await failure(model({ baseURL: echo.url }).doEmbed({ values: ['x'] }));
      expect(error.code).toBe('EMBEDDING_HTTP_ERROR');
      expect(error.status).toBe(401);
      expect(error.message).toContain('[redacted]');
    } finally {
      await echo.close();
    }
  });

  it('rejects invalid options and oversized calls', async () => {
    expect(() => model({ baseURL: 'not a url' })).toThrow(RangeError);
    expect(() => model({ baseURL: 'file:///tmp' })).toThrow(RangeError);
    expect(() => model({ dimensions: 0 })).toThrow(RangeError);
    await expect(
      model({ maxEmbeddingsPerCall: 2 }).doEmbed({ values: ['a', 'b', 'c'] }),
    ).rejects.toBeInstanceOf(RangeError);
  });
});

describe('parseEmbeddingsResponse', () => {
  const vector = [0.5, -0.5];
  it('orders by index, accepts base64 floats and reads usage', () => {
    const base64 = Buffer.from(new Float32Array([0.25, -1]).buffer).toString('base64');
    const result = parseEmbeddingsResponse(
      {
        data: [
          { index: 1, embedding: base64 },
          { index: 0, embedding: vector },
        ],
        usage: { prompt_tokens: 4 },
      },
      2,
      2,
    );
    expect(result).toEqual({ embeddings: [vector, [0.25, -1]], usage: { tokens: 4 } });
  });

  it.each([
    ['not an object', 'nope'],
    ['no data', { object: 'list' }],
    ['too few', { data: [{ index: 0, embedding: vector }] }],
    [
      'duplicate index',
      {
        data: [
          { index: 0, embedding: vector },
          { index: 0, embedding: vector },
        ],
      },
    ],
    [
      'index out of range',
      {
        data: [
          { index: 0, embedding: vector },
          { index: 2, embedding: vector },
        ],
      },
    ],
    [
      'non-finite',
      {
        data: [
          { index: 0, embedding: vector },
          { index: 1, embedding: [1, null] },
        ],
      },
    ],
  ])('rejects %s', (_name, json) => {
    let caught: unknown;
    try {
      parseEmbeddingsResponse(json, 2, 2);
    } catch (error) {
      caught = error;
    }
    expect(isEmbeddingError(caught, 'EMBEDDING_BAD_RESPONSE')).toBe(true);
  });
});

describe('parseRetryAfter', () => {
  it('reads retry-after-ms, seconds and HTTP dates', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250' }), now)).toBe(250);
    expect(parseRetryAfter(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(parseRetryAfter(new Headers({ 'retry-after': new Date(now + 3000).toUTCString() }), now)).toBe(
      3000,
    );
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
  });
});
