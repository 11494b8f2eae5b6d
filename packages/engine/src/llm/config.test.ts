import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isEngineError } from '../errors.js';
import { describeLlmConfig, parseLlmConfig } from './config.js';

function configError(env: Record<string, string>): string | undefined {
  try {
    parseLlmConfig(env);
    return undefined;
  } catch (error) {
    if (!isEngineError(error)) throw error;
    return error.code;
  }
}

describe('parseLlmConfig', () => {
  it('returns null without SAKSI_LLM', () => {
    expect(parseLlmConfig({})).toBeNull();
    expect(parseLlmConfig({ SAKSI_LLM: '  ' })).toBeNull();
  });

  it('applies provider defaults and keeps model tags after the first colon', () => {
    const config = parseLlmConfig({ SAKSI_LLM: 'ollama:llama3.1:8b' });
    expect(config).toMatchObject({
      provider: 'ollama',
      modelId: 'llama3.1:8b',
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: null,
      timeoutMs: 60_000,
      stallMs: 20_000,
      maxRetries: 2,
      temperature: 0.1,
    });
    expect(parseLlmConfig({ SAKSI_LLM: 'openai:gpt-4o-mini', SAKSI_LLM_API_KEY: 'sk-1' })?.baseUrl).toBe(
      'https://api.openai.com/v1',
    );
    expect(
      parseLlmConfig({ SAKSI_LLM: 'google:gemini-2.5-flash', SAKSI_LLM_API_KEY: 'k' })?.baseUrl,
    ).toContain('generativelanguage.googleapis.com');
  });

  it('reads every variable', () => {
    const config = parseLlmConfig({
      SAKSI_LLM: 'openai-compatible:qwen',
      SAKSI_LLM_BASE_URL: 'http://localhost:8000/v1/',
      SAKSI_LLM_API_KEY: 'sk-secret-value',
      SAKSI_LLM_TIMEOUT_MS: '1000',
      SAKSI_LLM_STALL_MS: '200',
      SAKSI_LLM_MAX_RETRIES: '0',
      SAKSI_LLM_TEMPERATURE: '0.7',
    });
    expect(config).toMatchObject({
      baseUrl: 'http://localhost:8000/v1',
      apiKey: 'sk-secret-value',
      timeoutMs: 1000,
      stallMs: 200,
      maxRetries: 0,
      temperature: 0.7,
    });
  });

  it('never shows the key when the config is printed or serialised', () => {
    const config = parseLlmConfig({ SAKSI_LLM: 'groq:llama-3.3-70b', SAKSI_LLM_API_KEY: 'gsk-very-secret' });
    expect(config?.apiKey).toBe('gsk-very-secret');
    expect(JSON.stringify(config)).not.toContain('gsk-very-secret');
    expect(inspect(config)).not.toContain('gsk-very-secret');
    expect(`${config === null ? '' : describeLlmConfig(config)}`).not.toContain('gsk-very-secret');
  });

  it.each([
    [{ SAKSI_LLM: 'anthropic:claude' }],
    [{ SAKSI_LLM: 'ollama' }],
    [{ SAKSI_LLM: 'ollama:' }],
    [{ SAKSI_LLM: 'openai-compatible:m' }],
    [{ SAKSI_LLM: 'openai:gpt-4o' }],
    [{ SAKSI_LLM: 'google:gemini' }],
    [{ SAKSI_LLM: 'ollama:m', SAKSI_LLM_BASE_URL: 'not a url' }],
    [{ SAKSI_LLM: 'ollama:m', SAKSI_LLM_BASE_URL: 'ftp://host/v1' }],
    [{ SAKSI_LLM: 'ollama:m', SAKSI_LLM_BASE_URL: 'http://user:pw@host/v1' }],
    [{ SAKSI_LLM: 'ollama:m', SAKSI_LLM_TIMEOUT_MS: '0' }],
    [{ SAKSI_LLM: 'ollama:m', SAKSI_LLM_TIMEOUT_MS: '10s' }],
    [{ SAKSI_LLM: 'ollama:m', SAKSI_LLM_STALL_MS: '-5' }],
    [{ SAKSI_LLM: 'ollama:m', SAKSI_LLM_MAX_RETRIES: '11' }],
    [{ SAKSI_LLM: 'ollama:m', SAKSI_LLM_MAX_RETRIES: '1.5' }],
    [{ SAKSI_LLM: 'ollama:m', SAKSI_LLM_TEMPERATURE: '2.5' }],
    [{ SAKSI_LLM: 'ollama:m', SAKSI_LLM_TEMPERATURE: 'warm' }],
    [{ SAKSI_LLM: 'ollama:m', SAKSI_LLM_API_KEY: 'two words' }],
  ])('rejects %o with CONFIG_INVALID', (env) => {
    expect(configError(env)).toBe('CONFIG_INVALID');
  });

  it('does not echo the key in errors', () => {
    try {
      parseLlmConfig({ SAKSI_LLM: 'ollama:m', SAKSI_LLM_API_KEY: 'sk secret' });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).not.toContain('sk secret');
    }
  });
});
