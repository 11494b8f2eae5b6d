/** Configuration parsing: defaults, anchoring providers and presets, and errors that name the variable. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { isEngineError } from './errors.js';

const KEY = `0x${'ab'.repeat(32)}`;
const CONTRACT = `0x${'12'.repeat(20)}`;

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env, '/tmp');
  } catch (error) {
    if (isEngineError(error, 'CONFIG_INVALID')) return error.message;
    throw error;
  }
  throw new Error('expected CONFIG_INVALID');
}

describe('loadConfig: anchoring', () => {
  it('defaults to the local chain with 5 s rounds of up to 1000 roots', () => {
    const config = loadConfig({}, '/tmp');
    expect(config.anchor).toEqual({
      provider: 'local',
      intervalMs: 5_000,
      batchSize: 1_000,
      logIntervalMs: 600_000,
      confirmTimeoutMs: 120_000,
    });
  });

  it('SAKSI_ANVIL_PORT chooses the local chain port (0: a free one); out of range names the variable', () => {
    expect(loadConfig({ SAKSI_ANVIL_PORT: '8545' }, '/tmp').anchor.localPort).toBe(8545);
    expect(loadConfig({ SAKSI_ANVIL_PORT: '0' }, '/tmp').anchor.localPort).toBe(0);
    expect(loadConfig({}, '/tmp').anchor.localPort).toBeUndefined();
    expect(configError({ SAKSI_ANVIL_PORT: '70000' })).toContain('SAKSI_ANVIL_PORT');
  });

  it('presets fill the chain id and RPC URL; evm needs every variable', () => {
    const config = loadConfig(
      { SAKSI_ANCHOR: 'base-sepolia', SAKSI_ANCHOR_PRIVATE_KEY: KEY, SAKSI_ANCHOR_CONTRACT: CONTRACT },
      '/tmp',
    );
    expect(config.anchor).toMatchObject({
      provider: 'evm',
      preset: 'base-sepolia',
      chainId: 84532,
      rpcUrl: 'https://sepolia.base.org',
      contract: CONTRACT,
    });
    expect(loadConfig({ SAKSI_ANCHOR: 'none' }, '/tmp').anchor.provider).toBe('none');
    const missing = configError({ SAKSI_ANCHOR: 'evm' });
    for (const name of [
      'SAKSI_ANCHOR_RPC_URL',
      'SAKSI_ANCHOR_CHAIN_ID',
      'SAKSI_ANCHOR_PRIVATE_KEY',
      'SAKSI_ANCHOR_CONTRACT',
    ]) {
      expect(missing).toContain(name);
    }
  });

  it('rejects bad values by name, without echoing secrets', () => {
    expect(configError({ SAKSI_ANCHOR: 'solana' })).toContain('SAKSI_ANCHOR');
    const badKey = configError({ SAKSI_ANCHOR: 'base', SAKSI_ANCHOR_PRIVATE_KEY: '0xdeadbeefsecret' });
    expect(badKey).toContain('SAKSI_ANCHOR_PRIVATE_KEY');
    expect(badKey).not.toContain('deadbeefsecret');
    expect(configError({ SAKSI_ANCHOR_CONTRACT: '0x12' })).toContain('SAKSI_ANCHOR_CONTRACT');
    expect(configError({ SAKSI_ANCHOR_INTERVAL: '0' })).toContain('SAKSI_ANCHOR_INTERVAL');
    expect(configError({ SAKSI_ANCHOR_RPC_URL: 'not a url' })).toContain('SAKSI_ANCHOR_RPC_URL');
    const wrongChain = configError({
      SAKSI_ANCHOR: 'base',
      SAKSI_ANCHOR_CHAIN_ID: '84532',
      SAKSI_ANCHOR_PRIVATE_KEY: KEY,
      SAKSI_ANCHOR_CONTRACT: CONTRACT,
    });
    expect(wrongChain).toContain('8453');
    expect(wrongChain).not.toContain(KEY.slice(2));
  });
});

describe('loadConfig: language models', () => {
  it('is offline by default, with the lexical verifier, a 0.5 threshold and 4,000-character questions', () => {
    const config = loadConfig({}, '/tmp');
    expect(config).toMatchObject({
      llm: null,
      verifier: 'lexical',
      confidenceThreshold: 0.5,
      maxQuestionChars: 4000,
      queryExpansion: 'none',
      claims: 'sentence',
    });
  });

  it('reads a model and the options that use it; refuses those options without a model', () => {
    const config = loadConfig(
      {
        SAKSI_LLM: 'ollama:llama3.1:8b',
        SAKSI_VERIFIER: 'llm-judge',
        SAKSI_QUERY_EXPANSION: 'llm',
        SAKSI_CLAIMS: 'llm',
        SAKSI_CONFIDENCE_THRESHOLD: '0.8',
      },
      '/tmp',
    );
    expect(config.llm).toMatchObject({ provider: 'ollama', modelId: 'llama3.1:8b' });
    expect(config).toMatchObject({
      verifier: 'llm-judge',
      queryExpansion: 'llm',
      claims: 'llm',
      confidenceThreshold: 0.8,
    });
    for (const env of [
      { SAKSI_VERIFIER: 'llm-judge' },
      { SAKSI_QUERY_EXPANSION: 'llm' },
      { SAKSI_CLAIMS: 'llm' },
    ]) {
      expect(configError(env)).toMatch(/needs a model: set SAKSI_LLM/);
    }
    expect(configError({ SAKSI_CONFIDENCE_THRESHOLD: '1.5' })).toMatch(/SAKSI_CONFIDENCE_THRESHOLD/);
    expect(configError({ SAKSI_VERIFIER: 'vibes' })).toMatch(/SAKSI_VERIFIER/);
    expect(configError({ SAKSI_LLM: 'openai:gpt-4o-mini' })).toMatch(/SAKSI_LLM_API_KEY/);
  });
});

describe('loadConfig: webhooks', () => {
  it('refuses private receivers unless SAKSI_WEBHOOK_ALLOW_PRIVATE is 1 or true', () => {
    expect(loadConfig({}, '/tmp').webhooks).toEqual({
      maxAttempts: 8,
      timeoutMs: 10_000,
      allowPrivate: false,
    });
    expect(loadConfig({ SAKSI_WEBHOOK_ALLOW_PRIVATE: '1' }, '/tmp').webhooks.allowPrivate).toBe(true);
    expect(loadConfig({ SAKSI_WEBHOOK_ALLOW_PRIVATE: 'true' }, '/tmp').webhooks.allowPrivate).toBe(true);
    expect(loadConfig({ SAKSI_WEBHOOK_ALLOW_PRIVATE: '0' }, '/tmp').webhooks.allowPrivate).toBe(false);
    expect(configError({ SAKSI_WEBHOOK_ALLOW_PRIVATE: 'yes' })).toMatch(/SAKSI_WEBHOOK_ALLOW_PRIVATE/);
  });
});

describe('loadConfig: proxies and replicas', () => {
  const load = (env: Record<string, string>) => loadConfig(env, '/tmp');

  it('trusts no proxy by default, or with 0 or false', () => {
    expect(load({}).trustProxy).toBeNull();
    expect(load({ SAKSI_TRUST_PROXY: '0' }).trustProxy).toBeNull();
    expect(load({ SAKSI_TRUST_PROXY: 'false' }).trustProxy).toBeNull();
  });

  it('reads a hop count or a list of addresses and ranges, and the header the proxies write', () => {
    expect(load({ SAKSI_TRUST_PROXY: '2' }).trustProxy).toEqual({ hops: 2, header: 'x-forwarded-for' });
    expect(
      load({ SAKSI_TRUST_PROXY: '10.0.0.0/8, 192.0.2.1,fd00::/8,loopback', SAKSI_PROXY_HEADER: 'forwarded' })
        .trustProxy,
    ).toEqual({
      addresses: ['10.0.0.0/8', '192.0.2.1/32', 'fd00::/8', '127.0.0.0/8', '::1/128'],
      header: 'forwarded',
    });
  });

  it('refuses what is neither, naming the variable', () => {
    for (const value of ['true', '10.0.0.0/33', 'proxy.example.org', '999', '::1/129']) {
      let error: unknown;
      try {
        load({ SAKSI_TRUST_PROXY: value });
      } catch (caught) {
        error = caught;
      }
      expect((error as { code?: string }).code, value).toBe('CONFIG_INVALID');
      expect(String((error as Error).message)).toContain('SAKSI_TRUST_PROXY');
    }
    expect(() => load({ SAKSI_PROXY_HEADER: 'x-real-ip' })).toThrow(/SAKSI_PROXY_HEADER/);
  });

  it('takes DATABASE_READ_URL only with DATABASE_URL', () => {
    const config = load({ DATABASE_URL: 'postgres://a@h/p', DATABASE_READ_URL: 'postgres://a@r/p' });
    expect(config.readUrl).toBe('postgres://a@r/p');
    expect(config.replicaMaxLagSeconds).toBe(5);
    expect(() => load({ DATABASE_READ_URL: 'postgres://a@r/p' })).toThrow(
      /DATABASE_READ_URL needs DATABASE_URL/,
    );
  });
});
