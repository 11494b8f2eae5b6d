/**
 * Embeddings from any OpenAI-compatible `/v1/embeddings` endpoint: OpenAI, Ollama, vLLM, TEI,
 * LM Studio (docs/configuration.md). Configuration, not code: a base URL, a model id, the model's dimensions
 * and optionally an API key.
 *
 * The request, its authorization and the retries go through the Vercel AI SDK, as the answer model
 * does (docs/architecture.md, "Seams"): `createOpenAICompatible(...).embeddingModel(modelId)` called by
 * `embedMany` with `maxRetries`, whose policy is exponential backoff from 2 s honouring
 * `Retry-After` / `retry-after-ms` below a minute. The endpoint is untrusted, so a guard around `fetch`
 * gives each attempt its timeout, caps the response size, and parses and checks the response (one finite
 * vector of the configured length per input, matched by `index`) before the SDK sees it; it turns
 * rate limits (429) and server errors (5xx) into retryable SDK errors carrying the typed
 * {@link EmbeddingError}, fails other 4xx answers at once, and fails at once when `Retry-After` asks
 * for more than `maxRetryDelayMs`. The API key is sent only in the `Authorization` header and never
 * appears in an error message.
 */

import type { APICallError } from 'ai';
import { readLimited } from '../util/read-limited.js';
import { EmbeddingError } from './errors.js';
import type { EmbeddingModel, EmbeddingModelCallOptions, EmbeddingModelResult } from './model.js';

/** The AI SDK's embedding model of an OpenAI-compatible provider. */
type SdkEmbeddingModel = ReturnType<
  ReturnType<typeof import('@ai-sdk/openai-compatible').createOpenAICompatible>['embeddingModel']
>;

export const OPENAI_COMPATIBLE_PROVIDER = 'openai-compatible';
export const DEFAULT_OPENAI_MAX_EMBEDDINGS_PER_CALL = 64;
export const DEFAULT_OPENAI_TIMEOUT_MS = 30_000;
export const DEFAULT_OPENAI_MAX_RETRIES = 2;
export const DEFAULT_OPENAI_MAX_RETRY_DELAY_MS = 60_000;
/** Largest response body read (bytes); 64 values × 4,096 floats as JSON is about 6 MB. */
export const DEFAULT_OPENAI_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Options of {@link createOpenAICompatibleEmbeddingModel}. */
export interface OpenAICompatibleEmbeddingModelOptions {
  /**
   * Base URL including the API version, e.g. `http://127.0.0.1:11434/v1`; `/embeddings` is appended.
   * User info (`https://user:password@host/v1`) is sent as Basic authorization when there is no apiKey.
   */
  baseURL: string;
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  /** Model name as the endpoint knows it, e.g. `text-embedding-3-small` or `nomic-embed-text`. */
  modelId: string;
  /** Length of the vectors the model returns; every response is checked against it. */
  dimensions: number;
  /**
   * Also send `dimensions` in the request body, for models that can shorten their vectors
   * (`text-embedding-3-*`). Default false: many servers reject the field.
   */
  sendDimensions?: boolean;
  /** Largest batch per request. Default 64. */
  maxEmbeddingsPerCall?: number;
  /** `fetch` to use (tests, proxies). Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Per-attempt timeout. Default 30,000 ms. */
  timeoutMs?: number;
  /** Retries after the first attempt for 429, 5xx, network errors and timeouts (the SDK's `maxRetries`). Default 2. */
  maxRetries?: number;
  /**
   * Not used any more: the AI SDK's `embedMany` waits 2 s before the first retry and doubles the
   * wait after each (or follows `Retry-After` below a minute); it has no setting for the first delay.
   * @deprecated accepted so existing options still type-check; it has no effect.
   */
  initialRetryDelayMs?: number;
  /** A `Retry-After` longer than this fails at once instead of waiting. Default 60,000 ms. */
  maxRetryDelayMs?: number;
  /** Largest response body accepted. Default 64 MiB. */
  maxResponseBytes?: number;
  /** Extra request headers (e.g. an API gateway's). */
  headers?: Record<string, string>;
}

/**
 * Creates an embedding model backed by an OpenAI-compatible `POST {baseURL}/embeddings`.
 *
 * @example
 * const model = createOpenAICompatibleEmbeddingModel({
 *   baseURL: 'http://127.0.0.1:11434/v1',
 *   modelId: 'nomic-embed-text',
 *   dimensions: 768,
 * });
 * const { embeddings } = await model.doEmbed({ values: ['denda lampu merah'] });
 * @throws RangeError for invalid options (not a URL, non-positive dimensions, …)
 */
export function createOpenAICompatibleEmbeddingModel(
  options: OpenAICompatibleEmbeddingModelOptions,
): EmbeddingModel {
  const { baseURL, queryParams, endpoint, basicAuthorization } = embeddingsEndpoint(options.baseURL);
  const displayEndpoint = redactURL(endpoint);
  const dimensions = positiveInteger('dimensions', options.dimensions);
  const maxEmbeddingsPerCall = positiveInteger(
    'maxEmbeddingsPerCall',
    options.maxEmbeddingsPerCall ?? DEFAULT_OPENAI_MAX_EMBEDDINGS_PER_CALL,
  );
  const timeoutMs = positiveInteger('timeoutMs', options.timeoutMs ?? DEFAULT_OPENAI_TIMEOUT_MS);
  const maxRetries = nonNegativeInteger('maxRetries', options.maxRetries ?? DEFAULT_OPENAI_MAX_RETRIES);
  if (options.initialRetryDelayMs !== undefined)
    nonNegativeInteger('initialRetryDelayMs', options.initialRetryDelayMs);
  const maxRetryDelayMs = nonNegativeInteger(
    'maxRetryDelayMs',
    options.maxRetryDelayMs ?? DEFAULT_OPENAI_MAX_RETRY_DELAY_MS,
  );
  const maxResponseBytes = positiveInteger(
    'maxResponseBytes',
    options.maxResponseBytes ?? DEFAULT_OPENAI_MAX_RESPONSE_BYTES,
  );
  if (options.modelId.trim().length === 0) throw new RangeError('modelId must not be empty');
  const fetchFunction = options.fetch ?? globalThis.fetch;
  const apiKey = options.apiKey === undefined || options.apiKey.length === 0 ? undefined : options.apiKey;
  const secrets = [apiKey, ...secretsOfURL(options.baseURL)].filter(
    (secret): secret is string => secret !== undefined && secret.length >= 4,
  );
  const redact = (text: string): string => redactSecrets(text, secrets);

  const headers: Record<string, string> = { ...options.headers, accept: 'application/json' };
  if (apiKey === undefined && basicAuthorization !== undefined) headers['authorization'] = basicAuthorization;

  // The AI SDK and its provider load at the first call (`load` below): a process that embeds nothing
  // (the hash model, or a command that never embeds) does not load them. Set before the SDK calls back.
  let ai: typeof import('ai') | undefined;

  /** A failure the SDK retries: an `APICallError` marked retryable, carrying the typed error. */
  const retryable = (error: EmbeddingError, response?: Response): APICallError =>
    new ai!.APICallError({
      message: error.message,
      url: displayEndpoint,
      requestBodyValues: {},
      ...(response === undefined
        ? {}
        : { statusCode: response.status, responseHeaders: headerRecord(response.headers) }),
      isRetryable: true,
      cause: error,
    });

  /**
   * One HTTP attempt, guarded: the timeout, the size cap and the checks of the answer. A valid answer
   * reaches the SDK as a plain `{data: [{embedding}], usage}` in input order.
   */
  const guardedFetch: typeof fetch = async (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const callerSignal = init?.signal ?? undefined;
    const signal = callerSignal === undefined ? timeout : AbortSignal.any([callerSignal, timeout]);
    let response: Response;
    let bytes: Uint8Array;
    try {
      response = await fetchFunction(input, { ...init, signal });
      bytes = await readLimited(
        response.body,
        maxResponseBytes,
        () =>
          new EmbeddingError(
            'EMBEDDING_BAD_RESPONSE',
            `The embedding response from ${displayEndpoint} is larger than ${maxResponseBytes} bytes. Lower ` +
              'maxEmbeddingsPerCall or raise maxResponseBytes.',
            { status: response.status },
          ),
        { declaredLength: response.headers.get('content-length') },
      );
    } catch (error) {
      if (callerSignal?.aborted === true || error instanceof EmbeddingError) throw error;
      if (timeout.aborted) {
        throw retryable(
          new EmbeddingError(
            'EMBEDDING_TIMEOUT',
            `The embedding endpoint ${displayEndpoint} did not answer within ${timeoutMs} ms. ` +
              'Check that the server is running and not overloaded, or raise timeoutMs.',
            { retryable: true },
          ),
        );
      }
      throw error; // a network error: the SDK makes it a retryable APICallError
    }
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    if (!response.ok) {
      const error = httpError(response, text);
      const retryAfterMs = parseRetryAfter(response.headers, Date.now());
      if (!error.retryable || (retryAfterMs !== undefined && retryAfterMs > maxRetryDelayMs)) throw error;
      throw retryable(error, response);
    }
    let json: unknown;
    try {
      json = JSON.parse(text) as unknown;
    } catch (cause) {
      throw new EmbeddingError(
        'EMBEDDING_BAD_RESPONSE',
        `The embedding endpoint ${displayEndpoint} answered ${response.status} with a body that is not JSON. ` +
          'Check that baseURL points at an OpenAI-compatible API (usually ending in /v1).',
        { cause, status: response.status },
      );
    }
    const result = parseEmbeddingsResponse(json, inputCount(init?.body), dimensions, displayEndpoint);
    return new Response(
      JSON.stringify({
        data: result.embeddings.map((embedding) => ({ embedding })),
        ...(result.usage === undefined ? {} : { usage: { prompt_tokens: result.usage.tokens } }),
      }),
      { status: response.status, headers: { 'content-type': 'application/json' } },
    );
  };

  function httpError(response: Response, text: string): EmbeddingError {
    const status = response.status;
    const detail = redact(errorDetail(text));
    const withDetail = detail.length > 0 ? ` (${detail})` : '';
    if (status === 429) {
      return new EmbeddingError(
        'EMBEDDING_RATE_LIMITED',
        `The embedding endpoint ${displayEndpoint} is rate limiting requests (HTTP 429)${withDetail}. ` +
          'Wait and retry, lower the ingestion rate, or raise the provider quota.',
        { status, retryable: true },
      );
    }
    return new EmbeddingError(
      'EMBEDDING_HTTP_ERROR',
      `The embedding endpoint ${displayEndpoint} answered HTTP ${status}${withDetail}. ${hintForStatus(status)}`,
      { status, retryable: status >= 500 },
    );
  }

  /** The typed error for whatever `embedMany` threw. */
  function typedError(thrown: unknown): EmbeddingError {
    const { APICallError, RetryError } = ai!;
    const error = RetryError.isInstance(thrown) ? thrown.lastError : thrown;
    if (error instanceof EmbeddingError) return error;
    if (APICallError.isInstance(error) && error.cause instanceof EmbeddingError) return error.cause;
    if (APICallError.isInstance(error) && error.statusCode === undefined) {
      // The SDK's wrapper of a network error; its cause is the error of the connection.
      const cause = error.cause ?? error;
      return new EmbeddingError(
        'EMBEDDING_HTTP_ERROR',
        `Could not reach the embedding endpoint ${displayEndpoint}: ${redact(describe(cause))}. ` +
          'Check baseURL and that the server is running.',
        { cause, retryable: true },
      );
    }
    return new EmbeddingError(
      'EMBEDDING_BAD_RESPONSE',
      `The embedding endpoint ${displayEndpoint} gave an answer the AI SDK could not read: ${redact(describe(error))}.`,
      { cause: error },
    );
  }

  let loading: Promise<SdkEmbeddingModel> | undefined;
  const load = (): Promise<SdkEmbeddingModel> => {
    if (!loading) {
      loading = Promise.all([import('ai'), import('@ai-sdk/openai-compatible')]).then(([sdk, compatible]) => {
        ai = sdk;
        const provider = compatible.createOpenAICompatible({
          name: 'saksi',
          baseURL,
          ...(apiKey === undefined ? {} : { apiKey }),
          headers,
          ...(queryParams === undefined ? {} : { queryParams }),
          fetch: guardedFetch,
        });
        return provider.embeddingModel(options.modelId);
      });
      // A failed load is tried again at the next call.
      loading.catch(() => {
        loading = undefined;
      });
    }
    return loading;
  };

  return {
    specificationVersion: 'v1',
    provider: OPENAI_COMPATIBLE_PROVIDER,
    modelId: options.modelId,
    dimensions,
    maxEmbeddingsPerCall,
    async doEmbed({ values, abortSignal }: EmbeddingModelCallOptions): Promise<EmbeddingModelResult> {
      abortSignal?.throwIfAborted();
      if (values.length > maxEmbeddingsPerCall) {
        throw new RangeError(
          `doEmbed got ${values.length} values but this model accepts at most ${maxEmbeddingsPerCall} per call; ` +
            'use embedMany to batch.',
        );
      }
      if (values.length === 0) return { embeddings: [] };
      const sdkModel = await load();
      try {
        const result = await ai!.embedMany({
          model: sdkModel,
          values,
          maxRetries,
          ...(abortSignal === undefined ? {} : { abortSignal }),
          ...(options.sendDimensions === true
            ? { providerOptions: { openaiCompatible: { dimensions } } }
            : {}),
        });
        const tokens = result.usage.tokens;
        return {
          embeddings: result.embeddings,
          ...(Number.isFinite(tokens) ? { usage: { tokens } } : {}),
        };
      } catch (error) {
        if (abortSignal?.aborted === true) throw abortSignal.reason;
        throw typedError(error);
      }
    },
  };
}

/** Headers as the SDK's errors carry them (lowercase names), for its `Retry-After` handling. */
function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

/** The number of inputs of a request body the SDK built (`{"input": [...]}`). */
function inputCount(body: unknown): number {
  if (typeof body !== 'string') return 0;
  const input = (JSON.parse(body) as { input?: unknown }).input;
  return Array.isArray(input) ? input.length : 1;
}

/** Checks an embeddings response and returns the vectors in input order. */
export function parseEmbeddingsResponse(
  json: unknown,
  expectedCount: number,
  dimensions: number,
  endpoint = 'the embedding endpoint',
): EmbeddingModelResult {
  const bad = (what: string): EmbeddingError =>
    new EmbeddingError(
      'EMBEDDING_BAD_RESPONSE',
      `The embedding response from ${endpoint} is not a valid OpenAI embeddings response: ${what}. ` +
        'Check that the server implements POST /v1/embeddings.',
    );
  if (!isRecord(json) || !Array.isArray(json['data'])) throw bad('no "data" array');
  const data = json['data'] as unknown[];
  if (data.length !== expectedCount) throw bad(`${data.length} embeddings for ${expectedCount} inputs`);
  const embeddings = new Array<number[] | undefined>(expectedCount);
  const indexed = data.every((item) => isRecord(item) && item['index'] !== undefined);
  for (let position = 0; position < data.length; position++) {
    const item = data[position];
    if (!isRecord(item)) throw bad(`data[${position}] is not an object`);
    const index = indexed ? item['index'] : position;
    if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0 || index >= expectedCount) {
      throw bad(`data[${position}].index is not an input index`);
    }
    if (embeddings[index] !== undefined) throw bad(`index ${index} appears twice`);
    const vector = toVector(item['embedding']);
    if (vector === undefined) throw bad(`data[${position}].embedding is not an array of finite numbers`);
    if (vector.length !== dimensions) {
      throw new EmbeddingError(
        'EMBEDDING_DIMENSION_MISMATCH',
        `The embedding model returned vectors of length ${vector.length}, but it is configured with ` +
          `${dimensions} dimensions. Set dimensions to the model's real size (changing it needs a re-embed).`,
      );
    }
    embeddings[index] = vector;
  }
  const result: EmbeddingModelResult = { embeddings: embeddings as number[][] };
  const usage = json['usage'];
  if (isRecord(usage)) {
    const tokens = usage['total_tokens'] ?? usage['prompt_tokens'];
    if (typeof tokens === 'number' && Number.isFinite(tokens) && tokens >= 0) result.usage = { tokens };
  }
  return result;
}

/** A float array, or a base64 little-endian float32 array (servers that ignore `encoding_format`). */
function toVector(value: unknown): number[] | undefined {
  if (Array.isArray(value)) {
    for (const element of value)
      if (typeof element !== 'number' || !Number.isFinite(element)) return undefined;
    return value as number[];
  }
  if (typeof value === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(value)) {
    const bytes = Buffer.from(value, 'base64');
    if (bytes.length % 4 !== 0) return undefined;
    const vector = new Array<number>(bytes.length / 4);
    for (let i = 0; i < vector.length; i++) {
      const element = bytes.readFloatLE(i * 4);
      if (!Number.isFinite(element)) return undefined;
      vector[i] = element;
    }
    return vector;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The base URL without user info (fetch refuses URLs with credentials) or query, the query as the
 * SDK's `queryParams`, `{baseURL}/embeddings` for messages, and the user info as a Basic
 * `Authorization` value when there was one.
 */
function embeddingsEndpoint(baseURL: string): {
  baseURL: string;
  queryParams: Record<string, string> | undefined;
  endpoint: string;
  basicAuthorization: string | undefined;
} {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new RangeError('baseURL must be an absolute http(s) URL such as http://127.0.0.1:11434/v1');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RangeError('baseURL must use http or https');
  }
  const basicAuthorization =
    url.username.length > 0 || url.password.length > 0
      ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
      : undefined;
  url.username = '';
  url.password = '';
  url.hash = '';
  const queryParams = url.search.length > 1 ? Object.fromEntries(url.searchParams) : undefined;
  url.search = '';
  url.pathname = url.pathname.replace(/\/+$/, '');
  const base = url.toString().replace(/\/+$/, '');
  const endpoint = new URL(`${base}/embeddings`);
  if (queryParams !== undefined) endpoint.search = new URLSearchParams(queryParams).toString();
  return { baseURL: base, queryParams, endpoint: endpoint.toString(), basicAuthorization };
}

/** The URL without query (which may carry keys) or fragment, for messages. */
function redactURL(endpoint: string): string {
  const url = new URL(endpoint);
  url.search = '';
  url.hash = '';
  return url.toString();
}

function secretsOfURL(baseURL: string): string[] {
  try {
    const url = new URL(baseURL);
    return [url.username, url.password, ...url.searchParams.values()].map((value) =>
      decodeURIComponent(value),
    );
  } catch {
    return [];
  }
}

function redactSecrets(text: string, secrets: string[]): string {
  let result = text;
  for (const secret of secrets) result = result.split(secret).join('[redacted]');
  return result;
}

/** A short, single-line description of an error body (OpenAI-style `{error: {message}}` if present). */
function errorDetail(text: string): string {
  let detail = text;
  try {
    const json = JSON.parse(text) as unknown;
    if (isRecord(json)) {
      const error = json['error'];
      if (isRecord(error) && typeof error['message'] === 'string') detail = error['message'];
      else if (typeof error === 'string') detail = error;
      else if (typeof json['message'] === 'string') detail = json['message'];
    }
  } catch {
    // not JSON: use the text itself
  }
  const line = detail.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

function hintForStatus(status: number): string {
  if (status === 401 || status === 403) return 'Check the API key and its permissions.';
  if (status === 404)
    return 'Check baseURL (usually ending in /v1) and that the model is available on the server.';
  if (status === 400 || status === 422)
    return 'Check modelId and dimensions; the inputs may also be too long.';
  if (status >= 500) return 'The server failed; try again later.';
  return 'Check the embedding configuration.';
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

/** `retry-after-ms` (OpenAI) or `Retry-After` (seconds or an HTTP date), in milliseconds. */
export function parseRetryAfter(headers: Headers, now: number): number | undefined {
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null) {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = headers.get('retry-after');
  if (retryAfter === null) return undefined;
  const trimmed = retryAfter.trim();
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`${name} must be a non-negative integer`);
  return value;
}
