import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Engine, loadConfig } from '@saksi/engine';
import { type LlmTestServer, startLlmTestServer } from '@saksi/test-support/openai-test-server';
import { templateDirectory } from '@saksi/test-support/pglite-template';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';
import { parseBaseline } from './eval.js';

const REDUX = path.resolve(import.meta.dirname, '../../../corpora/docs-redux');

let directory: string;

async function run(argv: string[]) {
  return runCli(argv, { cwd: directory, env: { SAKSI_DATA_DIR: 'data', NO_COLOR: '1' } });
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-cli-eval-'));
  await cp(templateDirectory(), path.join(directory, 'data/pglite'), { recursive: true });
  const engine = await Engine.open({
    config: loadConfig({ SAKSI_DATA_DIR: path.join(directory, 'data') }, directory),
  });
  const docs: Record<string, string> = {
    'docs/store.md':
      '# Store\n\nA store holds the whole state tree of your application. Call dispatch to change it.\n',
    'docs/reducers.md':
      '# Reducers\n\nA reducer is a pure function that takes the previous state and an action, and returns the next state.\n',
  };
  for (const [filename, text] of Object.entries(docs))
    await engine.ingest('docs', { bytes: new TextEncoder().encode(text), filename }, { language: 'en' });
  await engine.close();
  const rows = [
    {
      id: 'q1',
      question: 'what is a reducer function',
      relevant_files: ['docs/reducers.md'],
      must_mention: ['pure function'],
    },
    {
      id: 'q2',
      question: 'where does the state tree live',
      relevant_files: ['docs/store.md'],
      must_mention: [],
    },
    {
      id: 'q3',
      question: 'how do I bake sourdough bread',
      answerable: false,
      relevant_files: [],
      must_mention: [],
    },
  ];
  await writeFile(
    path.join(directory, 'redux-mini.jsonl'),
    `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`,
  );
}, 60_000);

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('saksi eval', () => {
  it('measures retrieval on a set as JSON, in every configuration', async () => {
    const result = await run([
      'eval',
      'retrieval',
      '--set',
      'redux-mini.jsonl',
      '--collection',
      'docs',
      '--json',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { config: string; metrics: Record<string, number> };
    expect(report.config).toBe('hybrid+rewrite');
    expect(report.metrics.questions).toBe(2);
    expect(Object.keys(report.metrics)).toEqual(
      expect.arrayContaining([
        'recall@1',
        'recall@3',
        'recall@5',
        'recall@10',
        'precision@5',
        'mrr',
        'ndcg@10',
      ]),
    );
    expect(report.metrics['recall@10']).toBe(1);

    const all = await run([
      'eval',
      'retrieval',
      '--set',
      'redux-mini.jsonl',
      '--collection',
      'docs',
      '--config',
      'all',
    ]);
    expect(all.code).toBe(0);
    for (const config of ['lexical', 'vector', 'hybrid', 'hybrid+rewrite'])
      expect(all.stdout).toContain(`| redux-mini | ${config} | 2 |`);
  });

  it('scores answers: refusal of the unanswerable question is counted', async () => {
    const result = await run([
      'eval',
      'answers',
      '--set',
      'redux-mini.jsonl',
      '--collection',
      'docs',
      '--json',
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { metrics: Record<string, number | null> };
    expect(report.metrics['answerable']).toBe(2);
    expect(report.metrics['unanswerable']).toBe(1);
    expect(report.metrics['refusal_accuracy']).not.toBeNull();
  });

  it('rejects bad input with exit code 2 and no stack', async () => {
    const missing = await run(['eval', 'retrieval', '--collection', 'docs']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/needs --set and --collection/);
    const config = await run([
      'eval',
      'retrieval',
      '--set',
      'redux-mini.jsonl',
      '--collection',
      'docs',
      '--config',
      'x',
    ]);
    expect(config.code).toBe(2);
    const gate = await run(['eval', 'gate', '--baseline', 'nope.json']);
    expect(gate.code).toBe(2);
    expect(gate.stderr).toMatch(/^error: Cannot read the baseline/);
    const unknown = await run(['eval', 'frobnicate']);
    expect(unknown.code).toBe(2);
    const baseUrlAlone = await run([
      'eval',
      'answers',
      '--set',
      'redux-mini.jsonl',
      '--collection',
      'docs',
      '--llm-base-url',
      'http://127.0.0.1:9/v1',
    ]);
    expect(baseUrlAlone.code).toBe(2);
    expect(baseUrlAlone.stderr).toMatch(/--llm-base-url needs --llm/);
    expect(`${missing.stderr}${gate.stderr}`).not.toMatch(/\n\s+at .+:\d+/);
  });

  it('scores answers from a language model with --llm (a real OpenAI-compatible test server)', async () => {
    // The "model" answers with the first sentence of source 1, cited, and refuses the bread question.
    const server: LlmTestServer = await startLlmTestServer({
      script: (request) => {
        const prompt = request.body?.messages?.map((message) => String(message.content)).join('\n') ?? '';
        if (/sourdough/.test(prompt))
          return { kind: 'text', text: 'The available documents do not answer this question.' };
        const source = /<source-[0-9a-f]+ n="1"[^>]*>\s*([\s\S]*?)<\/source-/.exec(prompt)?.[1] ?? '';
        const sentence =
          source
            .replace(/^#.*\n+/gm, '')
            .split(/(?<=\.)\s/)[0]
            ?.trim() ?? '';
        return { kind: 'text', text: `${sentence.replace(/\.$/, '')} [1].` };
      },
    });
    try {
      const result = await runCli(
        [
          'eval',
          'answers',
          '--set',
          'redux-mini.jsonl',
          '--collection',
          'docs',
          '--json',
          '--llm',
          'openai-compatible:echo',
          '--llm-base-url',
          server.url,
        ],
        { cwd: directory, env: { SAKSI_DATA_DIR: 'data', NO_COLOR: '1', SAKSI_LLM_MAX_RETRIES: '0' } },
      );
      expect(result.code, result.stderr).toBe(0);
      const report = JSON.parse(result.stdout);
      expect(report.generator).toBe('llm:openai-compatible:echo');
      expect(report.metrics).toMatchObject({ answerable: 2, unanswerable: 1, refusal_accuracy: 1 });
      // The model's claims go through the answer check: released, or shown as related passages, never
      // refused for an answerable question the model answered.
      const outcomes = (report.questions as { answerable: boolean; outcome: string }[])
        .filter((question) => question.answerable)
        .map((question) => question.outcome);
      expect(outcomes).toHaveLength(2);
      expect(outcomes.every((outcome) => outcome === 'answered' || outcome === 'related')).toBe(true);
      expect(outcomes).toContain('answered');
      expect(report.metrics.citation_precision).toBeGreaterThan(0);
      expect(server.requests.length).toBe(3);
      // A model that fails: a clear error, exit 1, no stack.
      const failing = await runCli(
        [
          'eval',
          'answers',
          '--set',
          'redux-mini.jsonl',
          '--collection',
          'docs',
          '--llm',
          'openai-compatible:echo',
          '--llm-base-url',
          'http://127.0.0.1:9/v1',
        ],
        { cwd: directory, env: { SAKSI_DATA_DIR: 'data', NO_COLOR: '1', SAKSI_LLM_MAX_RETRIES: '0' } },
      );
      expect(failing.code).toBe(1);
      expect(failing.stderr).toMatch(/^error: /);
      expect(failing.stderr).not.toMatch(/\n\s+at .+:\d+/);
    } finally {
      await server.close();
    }
  });

  it("measures a collection ingested with saksi ingest: stored paths match the set's files", async () => {
    // A copy of a few Redux pages laid out as in the corpus (docs/api/…), ingested from that folder.
    const corpus = path.join(directory, 'my-redux');
    for (const file of ['docs/api/Store.md', 'docs/api/combineReducers.md', 'docs/api/compose.md']) {
      await mkdir(path.dirname(path.join(corpus, file)), { recursive: true });
      await cp(path.join(REDUX, file), path.join(corpus, file));
    }
    const ingest = await run([
      'ingest',
      'my-redux',
      '--collection',
      'mine',
      '--language',
      'en',
      '--no-anchor',
    ]);
    expect(ingest.code, ingest.stdout).toBe(0);
    const rows = [
      {
        id: 'm1',
        question: 'How do I split my root reducer into slices with combineReducers?',
        relevant_files: ['docs/api/combineReducers.md'],
        relevant_headings: ['combineReducers(reducers)'],
        must_mention: ['combineReducers'],
      },
      {
        id: 'm2',
        question: 'What does store.getState return?',
        relevant_files: ['docs/api/Store.md'],
        must_mention: ['getState'],
      },
      {
        id: 'm3',
        question: 'What is the capital of Peru?',
        answerable: false,
        relevant_files: [],
        must_mention: [],
      },
    ];
    await writeFile(
      path.join(directory, 'redux-mine.jsonl'),
      rows.map((row) => JSON.stringify(row)).join('\n'),
    );
    const retrieval = await run([
      'eval',
      'retrieval',
      '--set',
      'redux-mine.jsonl',
      '--collection',
      'mine',
      '--json',
    ]);
    expect(retrieval.code, retrieval.stderr).toBe(0);
    const report = JSON.parse(retrieval.stdout) as {
      collection: string;
      metrics: Record<string, number>;
      questions: { id: string; first_relevant: number | null }[];
    };
    expect(report.collection).toBe('mine');
    expect(report.metrics['questions']).toBe(2);
    expect(report.metrics['recall@5']).toBeGreaterThan(0);
    expect(report.metrics['recall@10']).toBe(1);
    expect(report.questions.every((question) => question.first_relevant !== null)).toBe(true);

    const answers = await run([
      'eval',
      'answers',
      '--set',
      'redux-mine.jsonl',
      '--collection',
      'mine',
      '--json',
    ]);
    expect(answers.code, answers.stderr).toBe(0);
    const answered = JSON.parse(answers.stdout) as {
      metrics: Record<string, number | null>;
      by_intent: { intent: string; questions: number }[];
      questions: { id: string; outcome: string; refused: boolean; claims: number; supported: number }[];
    };
    expect(answered.metrics['answerable']).toBe(2);
    // This collection was never calibrated: its answers are released at the pooled threshold or shown
    // as related passages, each quoting the set's files; an answer shown as one cites a relevant file
    // (stored under another path than the set names, as the retrieval figures above show).
    const quoted = answered.questions.filter((question) => question.id !== 'm3');
    expect(quoted.every((question) => question.outcome !== 'refused')).toBe(true);
    for (const question of quoted.filter((item) => item.outcome === 'answered'))
      expect(question.supported).toBeGreaterThan(0);
    expect(answered.by_intent.reduce((sum, group) => sum + group.questions, 0)).toBe(3);
    const text = await run(['eval', 'answers', '--set', 'redux-mine.jsonl', '--collection', 'mine']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/\| EM \| F1 \| ROUGE-L \|/);
    expect(text.stdout).toMatch(/^Per intent:$/m);
  });

  it('parses a baseline and rejects malformed ones', () => {
    expect(parseBaseline('{"recall@5":{"lalin-dev":0.8}}', 'b.json')).toEqual({ 'lalin-dev': 0.8 });
    expect(() => parseBaseline('{', 'b.json')).toThrow(/not JSON/);
    expect(() => parseBaseline('{"recall@5":{"x":2}}', 'b.json')).toThrow(/from 0 to 1/);
    expect(
      parseBaseline('{"recall@5":{"lalin-dev":0.8},"answers":{"lalin-dev answered":0.9}}', 'b.json'),
    ).toEqual({ 'lalin-dev': 0.8, 'lalin-dev answered': 0.9 });
    expect(() => parseBaseline('{"recall@5":{},"answers":{"x y":-1}}', 'b.json')).toThrow(/from 0 to 1/);
  });
});
