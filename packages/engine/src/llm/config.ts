/**
 * Language-model configuration from the environment (docs/configuration.md): `SAKSI_LLM=provider:model` plus
 * key, base URL, timeouts, retries and temperature. Parsed once at start-up; unset `SAKSI_LLM`
 * means "no model" and Saksi stays extractive and offline.
 *
 * The API key is kept on a non-enumerable property so that `JSON.stringify`, `console.log` and
 * structured loggers do not print it; read it as `config.apiKey`.
 */
import { EngineError } from '../errors.js';

export const LLM_PROVIDERS = ['openai-compatible', 'openai', 'groq', 'ollama', 'google'] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

/** Base URLs used when `SAKSI_LLM_BASE_URL` is not set (`openai-compatible` has none). */
export const LLM_DEFAULT_BASE_URLS: Readonly<Record<LlmProvider, string | null>> = {
  'openai-compatible': null,
  openai: 'https://api.openai.com/v1',
  groq: 'https://api.groq.com/openai/v1',
  ollama: 'http://127.0.0.1:11434/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
};

/** Providers that cannot work without `SAKSI_LLM_API_KEY`. */
const KEY_REQUIRED: ReadonlySet<LlmProvider> = new Set(['openai', 'groq', 'google']);

export const LLM_DEFAULTS = {
  timeoutMs: 60_000,
  stallMs: 20_000,
  maxRetries: 2,
  temperature: 0.1,
} as const;

export interface LlmConfig {
  provider: LlmProvider;
  /** Everything after the first `:` of `SAKSI_LLM`, so `ollama:llama3.1:8b` keeps its tag. */
  modelId: string;
  /** Without a trailing slash. */
  baseUrl: string;
  /** Non-enumerable; `null` when the provider needs none (ollama, a local server). */
  readonly apiKey: string | null;
  /** Whole call, retries included. */
  timeoutMs: number;
  /** No stream part for this long aborts the call. */
  stallMs: number;
  /** Retries before the first text part only. */
  maxRetries: number;
  temperature: number;
}

function invalid(message: string): EngineError {
  return new EngineError('CONFIG_INVALID', message);
}

function integer(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw invalid(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`);
  }
  return Number(raw);
}

function baseUrlFrom(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(
      `SAKSI_LLM_BASE_URL must be an http(s) URL such as http://127.0.0.1:11434/v1; got "${raw}".`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(`SAKSI_LLM_BASE_URL must start with http:// or https://; got "${url.protocol}".`);
  }
  if (url.username !== '' || url.password !== '') {
    throw invalid('SAKSI_LLM_BASE_URL must not contain credentials; put the key in SAKSI_LLM_API_KEY.');
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * Reads the language-model settings. Returns `null` when `SAKSI_LLM` is unset or empty; throws
 * `EngineError('CONFIG_INVALID')` with a message naming the variable for anything malformed.
 */
export function parseLlmConfig(env: Record<string, string | undefined>): LlmConfig | null {
  const spec = env['SAKSI_LLM']?.trim();
  if (spec === undefined || spec === '') return null;
  const colon = spec.indexOf(':');
  const providerName = colon === -1 ? spec : spec.slice(0, colon);
  const modelId = colon === -1 ? '' : spec.slice(colon + 1).trim();
  if (!(LLM_PROVIDERS as readonly string[]).includes(providerName)) {
    throw invalid(
      `SAKSI_LLM must be provider:model with provider one of ${LLM_PROVIDERS.join(', ')}; got provider "${providerName}".`,
    );
  }
  const provider = providerName as LlmProvider;
  if (modelId === '') {
    throw invalid(`SAKSI_LLM must name a model after the provider, e.g. ${provider}:model-name.`);
  }

  const rawBaseUrl = env['SAKSI_LLM_BASE_URL']?.trim();
  const defaultBaseUrl = LLM_DEFAULT_BASE_URLS[provider];
  let baseUrl: string;
  if (rawBaseUrl !== undefined && rawBaseUrl !== '') baseUrl = baseUrlFrom(rawBaseUrl);
  else if (defaultBaseUrl !== null) baseUrl = defaultBaseUrl;
  else throw invalid('SAKSI_LLM_BASE_URL is required for openai-compatible (e.g. http://127.0.0.1:8000/v1).');

  const rawKey = env['SAKSI_LLM_API_KEY']?.trim();
  const apiKey = rawKey === undefined || rawKey === '' ? null : rawKey;
  if (apiKey === null && KEY_REQUIRED.has(provider)) {
    throw invalid(`SAKSI_LLM_API_KEY is required for ${provider}.`);
  }
  if (apiKey !== null && /[\s\u0000-\u001f]/.test(apiKey)) {
    throw invalid('SAKSI_LLM_API_KEY contains whitespace or control characters; check how it was copied.');
  }

  const timeoutMs = integer(env, 'SAKSI_LLM_TIMEOUT_MS', LLM_DEFAULTS.timeoutMs, 1, 3_600_000);
  const stallMs = integer(env, 'SAKSI_LLM_STALL_MS', LLM_DEFAULTS.stallMs, 1, 3_600_000);
  const maxRetries = integer(env, 'SAKSI_LLM_MAX_RETRIES', LLM_DEFAULTS.maxRetries, 0, 10);

  const rawTemperature = env['SAKSI_LLM_TEMPERATURE']?.trim();
  let temperature: number = LLM_DEFAULTS.temperature;
  if (rawTemperature !== undefined && rawTemperature !== '') {
    temperature = Number(rawTemperature);
    if (!/^\d+(\.\d+)?$/.test(rawTemperature) || temperature > 2) {
      throw invalid(`SAKSI_LLM_TEMPERATURE must be a number from 0 to 2; got "${rawTemperature}".`);
    }
  }

  const config = { provider, modelId, baseUrl, timeoutMs, stallMs, maxRetries, temperature } as Omit<
    LlmConfig,
    'apiKey'
  >;
  Object.defineProperty(config, 'apiKey', { value: apiKey, enumerable: false, writable: false });
  return config as LlmConfig;
}

/** A one-line description safe to log: provider, model, base URL and whether a key is set. */
export function describeLlmConfig(config: LlmConfig): string {
  return `${config.provider}:${config.modelId} at ${config.baseUrl} (${config.apiKey === null ? 'no key' : 'key set'})`;
}
