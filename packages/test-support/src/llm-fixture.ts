/**
 * A test engine answering through a language model: a real OpenAI-compatible HTTP test server
 * (`startLlmTestServer`, scripted per request) and an engine configured with `SAKSI_LLM` pointing at
 * it, anchoring off and no retries unless `env` says otherwise; `documents` are ingested first.
 */
import { openTestEngine, type TestEngine } from './engine-fixture.js';
import { type LlmTestServer, type LlmTestServerOptions, startLlmTestServer } from './openai-test-server.js';

export interface LlmTestEngine extends TestEngine {
  server: LlmTestServer;
}

export async function openLlmTestEngine(options: {
  script: LlmTestServerOptions['script'];
  env?: Record<string, string>;
  documents?: { collection: string; filename: string; text: string; language?: 'id' | 'en' }[];
}): Promise<LlmTestEngine> {
  const server = await startLlmTestServer({ script: options.script });
  const test = await openTestEngine({
    env: {
      SAKSI_ANCHOR: 'none',
      SAKSI_LLM: 'openai-compatible:test-model',
      SAKSI_LLM_BASE_URL: server.url,
      SAKSI_LLM_MAX_RETRIES: '0',
      // The scripted model answers each request its own way, so the same question asked again must
      // reach it: no answer cache unless a test turns it on.
      SAKSI_ANSWER_CACHE: 'off',
      ...options.env,
    },
  });
  for (const document of options.documents ?? []) {
    await test.engine.ingest(
      document.collection,
      { bytes: new TextEncoder().encode(document.text), filename: document.filename },
      { language: document.language ?? 'id' },
    );
  }
  return {
    ...test,
    server,
    async close() {
      await test.close();
      await server.close();
    },
  };
}
