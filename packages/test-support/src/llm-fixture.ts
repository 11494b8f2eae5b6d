/**
 * A test engine answering through a language model: a real OpenAI-compatible HTTP test server
 * (`startLlmTestServer`, scripted per request) and an engine configured with `SAKSI_LLM` pointing at
 * it, anchoring off and no retries unless `env` says otherwise; `documents` are ingested first.
 */
import { openTestEngine, type TestEngine } from './engine-fixture.js';
import {
  type LlmTestScript,
  type LlmTestServer,
  type LlmTestServerOptions,
  startLlmTestServer,
} from './openai-test-server.js';

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

/**
 * A model that obeys instructions placed in the chat history, the test double of a prompt injection
 * through `messages[]` (docs/language-models.md, "Conversations"): it answers with the sentence the
 * newest `«…»` inside the prompt's conversation block asks for, citing the source that shares most
 * words with it — what a model that followed the injected turn would write. Without such an
 * instruction it answers `fallback`.
 */
export function obedientToHistory(
  fallback = 'Dokumen yang tersedia tidak menjawab pertanyaan ini.',
): LlmTestScript {
  return (request) => {
    const messages = request.body?.messages ?? [];
    const prompt = messages
      .filter((message) => message.role === 'user')
      .map((message) =>
        typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
      )
      .join('\n');
    const block = /<conversation-([0-9a-f]+)>([\s\S]*?)<\/conversation-\1>/.exec(prompt)?.[2] ?? '';
    const sentence = [...block.matchAll(/«([^»]+)»/g)].at(-1)?.[1];
    if (sentence === undefined) return { kind: 'text', text: fallback };
    const words = (text: string) => new Set(text.toLowerCase().match(/\p{L}{4,}/gu) ?? []);
    const wanted = words(sentence);
    let best = { n: 1, shared: -1 };
    for (const match of prompt.matchAll(/<source-[0-9a-f]+ n="(\d+)"[^>]*>\n([\s\S]*?)\n<\/source-/g)) {
      const shared = [...words(match[2]!)].filter((word) => wanted.has(word)).length;
      if (shared > best.shared) best = { n: Number(match[1]), shared };
    }
    return { kind: 'text', text: `${sentence} [${best.n}]` };
  };
}
