/**
 * The answer-model seam (docs/architecture.md, "Packages and layers"), in the style of the AI SDK's provider
 * specs: a small versioned interface with one `do*` method, so answering code does not depend on which SDK or
 * provider produced the text. {@link createAnswerModel} implements it on the Vercel AI SDK 6 (`streamText`)
 * with `@ai-sdk/openai-compatible` (OpenAI, Groq, Ollama, vLLM, …) and `@ai-sdk/google` (Gemini).
 *
 * Behaviour every caller can rely on:
 * - text arrives as `{type:'text'}` parts in order, then exactly one `{type:'finish'}` part;
 * - the whole call (retries included) is bounded by `timeoutMs`, and `stallMs` without any stream
 *   part aborts it (`LLM_TIMEOUT`);
 * - 429 (honouring Retry-After up to a cap), 5xx and network errors are retried with exponential
 *   backoff and jitter, but only before the first text part: once text has been handed out a
 *   failure always throws an {@link LlmError} with `partial: true`, and the caller must issue no
 *   certificate for the unfinished answer;
 * - every failure is an {@link LlmError}; the AI SDK's own `maxRetries` is switched off so there is
 *   exactly one retry policy.
 */
import type { LanguageModel } from 'ai';
import type { LlmConfig } from './config.js';
import { LlmError } from './errors.js';

export type LlmFinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

/** Token counts as the provider reports them; `null` when it reports none. */
export interface LlmUsage {
  inputTokens: number | null;
  outputTokens: number | null;
}

export type LlmStreamPart =
  | { type: 'text'; text: string }
  | { type: 'finish'; usage: LlmUsage; finishReason: LlmFinishReason };

export interface AnswerModelRequest {
  system: string;
  prompt: string;
  /** Aborting it ends the call with `LLM_ABORTED`. */
  signal?: AbortSignal;
}

/** A streaming answer model. Implementations fail only with {@link LlmError}. */
export interface AnswerModel {
  readonly specificationVersion: 'saksi-llm-1';
  /** Provider name from the configuration, e.g. `openai-compatible`, `ollama`, `google`. */
  readonly provider: string;
  readonly modelId: string;
  doStream(request: AnswerModelRequest): AsyncIterable<LlmStreamPart>;
}

export interface CreateAnswerModelOptions {
  /** Replaces the global `fetch` (tests, proxies). */
  fetch?: typeof globalThis.fetch;
  /** First backoff delay; doubles per retry. Default 500 ms. */
  initialRetryDelayMs?: number;
  /**
   * Longest single wait between attempts, also the cap on a provider's Retry-After: a longer
   * Retry-After ends the call at once with `LLM_RATE_LIMITED`. Default 10 000 ms.
   */
  maxRetryDelayMs?: number;
  /** Source of jitter in [0, 1); default `Math.random`. */
  random?: () => number;
}

const DEFAULT_INITIAL_RETRY_DELAY_MS = 500;
const DEFAULT_MAX_RETRY_DELAY_MS = 10_000;

type AbortCause = 'timeout' | 'stall' | 'caller';

/** Thrown into the retry loop when our own timers or the caller aborted an attempt. */
class Aborted extends Error {
  constructor(readonly reason: AbortCause) {
    super(reason);
  }
}

/** The stream ended in a way no answer can come from (no finish, no text, a provider error). */
class BadStream extends Error {}

/** The AI SDK (`ai`), loaded with the provider package at the first call (see {@link createAnswerModel}). */
type AiSdk = typeof import('ai');

/** Retry-After (seconds or HTTP date) or retry-after-ms, in milliseconds. */
export function retryAfterMs(
  headers: Record<string, string> | undefined,
  now = Date.now(),
): number | undefined {
  if (headers === undefined) return undefined;
  const lower: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) lower[key.toLowerCase()] = value;
  const ms = lower['retry-after-ms'];
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const after = lower['retry-after']?.trim();
  if (after === undefined || after === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(after)) return Math.ceil(Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function isNetworkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (
    typeof code === 'string' &&
    /^(ECONN|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|UND_ERR)/.test(code)
  ) {
    return true;
  }
  if (error.name === 'TypeError' && /fetch failed|terminated|network|socket/i.test(error.message))
    return true;
  return error.cause !== undefined && error.cause !== error && isNetworkError(error.cause);
}

/**
 * Maps anything the AI SDK or fetch throws to an {@link LlmError}; `ai` is the loaded SDK, undefined
 * when loading it failed (then nothing it throws can have been thrown).
 */
function classify(error: unknown, partial: boolean, ai: AiSdk | undefined): LlmError {
  if (error instanceof LlmError) return error;
  if (error instanceof BadStream) return new LlmError('LLM_BAD_RESPONSE', { partial, detail: error.message });
  if (error instanceof Aborted) {
    return error.reason === 'caller'
      ? new LlmError('LLM_ABORTED', { partial })
      : new LlmError('LLM_TIMEOUT', { partial, detail: error.reason === 'stall' ? 'stalled' : 'timed out' });
  }
  if (ai === undefined) return new LlmError('LLM_UNAVAILABLE', { cause: error, partial });
  const { APICallError, EmptyResponseBodyError, InvalidResponseDataError, JSONParseError } = ai;
  const { NoOutputGeneratedError, RetryError, TypeValidationError } = ai;
  const inner = RetryError.isInstance(error) ? (error.lastError ?? error) : error;
  if (APICallError.isInstance(inner)) {
    const status = inner.statusCode;
    const base = { cause: inner, partial, ...(status === undefined ? {} : { upstreamStatus: status }) };
    if (status !== undefined && status >= 200 && status < 300) {
      // "Failed to process successful response": the body broke off or could not be read.
      return isNetworkError(inner.cause)
        ? new LlmError('LLM_UNAVAILABLE', { ...base, retryable: true, detail: 'connection lost' })
        : new LlmError('LLM_BAD_RESPONSE', { ...base, detail: 'unreadable response' });
    }
    if (status === 401 || status === 403)
      return new LlmError('LLM_AUTH', { ...base, detail: `HTTP ${status}` });
    if (status === 429) {
      const wait = retryAfterMs(inner.responseHeaders);
      return new LlmError('LLM_RATE_LIMITED', {
        ...base,
        retryable: true,
        detail: 'HTTP 429',
        ...(wait === undefined ? {} : { retryAfterMs: wait }),
      });
    }
    if (status === undefined || status >= 500 || status === 408) {
      return new LlmError('LLM_UNAVAILABLE', {
        ...base,
        retryable: true,
        detail: status === undefined ? 'network error' : `HTTP ${status}`,
      });
    }
    return new LlmError('LLM_UNAVAILABLE', {
      ...base,
      detail: `the provider rejected the request with HTTP ${status}`,
    });
  }
  if (
    JSONParseError.isInstance(inner) ||
    TypeValidationError.isInstance(inner) ||
    InvalidResponseDataError.isInstance(inner) ||
    EmptyResponseBodyError.isInstance(inner) ||
    NoOutputGeneratedError.isInstance(inner)
  ) {
    return new LlmError('LLM_BAD_RESPONSE', { cause: inner, partial, detail: 'malformed stream' });
  }
  if (isNetworkError(inner)) {
    return new LlmError('LLM_UNAVAILABLE', {
      cause: inner,
      partial,
      retryable: true,
      detail: 'connection lost',
    });
  }
  return new LlmError('LLM_UNAVAILABLE', { cause: inner, partial });
}

async function languageModelFor(
  config: LlmConfig,
  fetchImpl: typeof globalThis.fetch | undefined,
): Promise<LanguageModel> {
  const fetchOption = fetchImpl === undefined ? {} : { fetch: fetchImpl };
  if (config.provider === 'google') {
    const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
    return createGoogleGenerativeAI({
      baseURL: config.baseUrl,
      apiKey: config.apiKey ?? '',
      ...fetchOption,
    })(config.modelId);
  }
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
  return createOpenAICompatible({
    name: config.provider,
    baseURL: config.baseUrl,
    includeUsage: true,
    ...(config.apiKey === null ? {} : { apiKey: config.apiKey }),
    ...fetchOption,
  }).chatModel(config.modelId);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const FINISH_REASONS: ReadonlySet<string> = new Set([
  'stop',
  'length',
  'content-filter',
  'tool-calls',
  'error',
  'other',
]);

/**
 * Builds the {@link AnswerModel} for a parsed configuration. Nothing is contacted until `doStream`,
 * and the AI SDK and the provider's package are loaded only then (once): a process that never asks a
 * language model does not load them.
 */
export function createAnswerModel(config: LlmConfig, options: CreateAnswerModelOptions = {}): AnswerModel {
  let loading: Promise<{ ai: AiSdk; model: LanguageModel }> | undefined;
  let ai: AiSdk | undefined;
  const load = (): Promise<{ ai: AiSdk; model: LanguageModel }> => {
    if (!loading) {
      loading = Promise.all([import('ai'), languageModelFor(config, options.fetch)]).then(([sdk, model]) => {
        ai = sdk;
        return { ai: sdk, model };
      });
      // A failed load is tried again at the next call.
      loading.catch(() => {
        loading = undefined;
      });
    }
    return loading;
  };
  const initialDelay = options.initialRetryDelayMs ?? DEFAULT_INITIAL_RETRY_DELAY_MS;
  const maxDelay = options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
  const random = options.random ?? Math.random;

  /** One `streamText` call; throws `Aborted` or whatever the SDK reports. */
  async function* attempt(
    request: AnswerModelRequest,
    callSignal: AbortSignal,
    abortCause: () => AbortCause | null,
  ): AsyncGenerator<LlmStreamPart> {
    // Loading the SDK (the first call only) is not the model stalling: the stall timer starts after.
    const { ai, model } = await load();
    const controller = new AbortController();
    let stalled = false;
    let stallTimer: ReturnType<typeof setTimeout> | undefined;
    const armStall = () => {
      clearTimeout(stallTimer);
      stallTimer = setTimeout(() => {
        stalled = true;
        controller.abort(new Aborted('stall'));
      }, config.stallMs);
    };
    const whyAborted = (): Aborted | null => {
      if (stalled) return new Aborted('stall');
      const cause = abortCause();
      return cause === null ? null : new Aborted(cause);
    };
    const onCallAbort = () => controller.abort(callSignal.reason);
    // A signal that fired before this attempt fires no event: abort at once.
    if (callSignal.aborted) onCallAbort();
    callSignal.addEventListener('abort', onCallAbort, { once: true });
    armStall();
    try {
      const result = ai.streamText({
        model,
        system: request.system,
        prompt: request.prompt,
        temperature: config.temperature,
        maxRetries: 0,
        abortSignal: controller.signal,
        // Errors are read from the stream below; the SDK must not print them (they may echo prompts).
        onError: () => {},
      });
      for await (const part of result.fullStream) {
        armStall();
        switch (part.type) {
          case 'text-delta':
            if (part.text !== '') yield { type: 'text', text: part.text };
            break;
          case 'error':
            throw whyAborted() ?? part.error;
          case 'abort':
            throw whyAborted() ?? new Aborted('caller');
          case 'finish': {
            const finishReason = FINISH_REASONS.has(part.finishReason)
              ? (part.finishReason as LlmFinishReason)
              : 'other';
            yield {
              type: 'finish',
              finishReason,
              usage: {
                inputTokens: part.totalUsage.inputTokens ?? null,
                outputTokens: part.totalUsage.outputTokens ?? null,
              },
            };
            return;
          }
          default:
            break;
        }
      }
      throw whyAborted() ?? new BadStream('the stream ended without a finish');
    } catch (error) {
      throw whyAborted() ?? error;
    } finally {
      clearTimeout(stallTimer);
      callSignal.removeEventListener('abort', onCallAbort);
      if (!controller.signal.aborted) controller.abort(new Aborted('caller'));
    }
  }

  async function* doStream(request: AnswerModelRequest): AsyncGenerator<LlmStreamPart> {
    const call = new AbortController();
    let cause: AbortCause | null = null;
    const timeout = setTimeout(() => {
      cause ??= 'timeout';
      call.abort(new Aborted('timeout'));
    }, config.timeoutMs);
    const onCallerAbort = () => {
      cause ??= 'caller';
      call.abort(new Aborted('caller'));
    };
    if (request.signal?.aborted) onCallerAbort();
    request.signal?.addEventListener('abort', onCallerAbort, { once: true });

    let textSeen = false;
    try {
      for (let retry = 0; ; retry++) {
        try {
          let text = '';
          for await (const part of attempt(request, call.signal, () => cause)) {
            if (part.type === 'text') {
              textSeen = true;
              text += part.text;
            } else if (text.trim() === '') {
              throw new BadStream('the model returned no text');
            } else if (part.finishReason === 'error') {
              throw new BadStream('the model reported an error');
            }
            yield part;
          }
          return;
        } catch (error) {
          const failure = classify(error, textSeen, ai);
          if (textSeen || !failure.retryable || retry >= config.maxRetries) throw failure;
          let delay = Math.min(maxDelay, initialDelay * 2 ** retry);
          delay = delay / 2 + (delay / 2) * random(); // "equal jitter"
          if (failure.retryAfterMs !== undefined) {
            if (failure.retryAfterMs > maxDelay) throw failure;
            delay = Math.max(delay, failure.retryAfterMs);
          }
          try {
            await sleep(Math.round(delay), call.signal);
          } catch {
            throw classify(new Aborted(cause ?? 'caller'), false, ai);
          }
        }
      }
    } finally {
      clearTimeout(timeout);
      request.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  return {
    specificationVersion: 'saksi-llm-1',
    provider: config.provider,
    modelId: config.modelId,
    doStream,
  };
}
