/**
 * `saksi ingest` and where citations point: paths kept relative to the folder given (two files of
 * the same name in different folders do not collide), `--base-url` on a new or existing collection,
 * and the round trip to `citation.url` in query results and in the certificate's evidence.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Engine, loadConfig } from '@saksi/engine';
import type { Bundle } from '@saksi/proof';
import { templateDirectory } from '@saksi/test-support/pglite-template';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';

const STACK_FRAME = /\n\s+at .+:\d+/;
let directory: string;

const ENV = { SAKSI_DATA_DIR: 'data', SAKSI_ANCHOR: 'none', NO_COLOR: '1' };

async function run(argv: string[]) {
  return runCli(argv, { cwd: directory, env: ENV });
}

/** Opens the data directory the CLI wrote (the CLI closes its engine after each run). */
async function withEngine<T>(work: (engine: Engine) => Promise<T>): Promise<T> {
  const engine = await Engine.open({ config: loadConfig({ ...ENV }, directory) });
  try {
    return await work(engine);
  } finally {
    await engine.close();
  }
}

const essentials = `---
id: part-1-overview
title: Essentials, Part 1
---

# Essentials overview

## Reducers

A reducer in the essentials tutorial is a function that receives the current state and an action object and returns the new state.

## Reducers

The essentials tutorial repeats the reducer rules: reducers must not mutate the existing state.
`;

const fundamentals = `---
title: Fundamentals, Part 1
slug: /fundamentals/start
---

# Fundamentals overview

## Store setup {#store}

The fundamentals tutorial creates the store with configureStore and a root reducer function.
`;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-cli-ingest-paths-'));
  await cp(templateDirectory(), path.join(directory, 'data/pglite'), { recursive: true });
  await mkdir(path.join(directory, 'site/tutorials/essentials'), { recursive: true });
  await mkdir(path.join(directory, 'site/tutorials/fundamentals'), { recursive: true });
  await writeFile(path.join(directory, 'site/tutorials/essentials/part-1-overview.md'), essentials);
  await writeFile(path.join(directory, 'site/tutorials/fundamentals/part-1-overview.md'), fundamentals);
  await writeFile(path.join(directory, 'single.md'), '# Single\n\nA single file keeps its own name.\n');
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('saksi ingest: stored paths and citation URLs', () => {
  it('keeps each file path relative to the folder given: same names in two folders are two documents', async () => {
    const result = await run([
      'ingest',
      'site',
      'single.md',
      '--collection',
      'guide',
      '--language',
      'en',
      '--base-url',
      'https://docs.example.com/v1',
      '--json',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trimEnd()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { ok: boolean; deduplicated: boolean; document: { filename: string } },
      );
    expect(lines.map((line) => [line.ok, line.deduplicated, line.document.filename])).toEqual([
      [true, false, 'tutorials/essentials/part-1-overview.md'],
      [true, false, 'tutorials/fundamentals/part-1-overview.md'],
      [true, false, 'single.md'],
    ]);

    const collection = await withEngine((engine) => engine.collections.get('guide'));
    expect(collection.profile['base_url']).toBe('https://docs.example.com/v1/');
  });

  it('gives each document its own citation: page from frontmatter id or slug, anchor from its heading', async () => {
    const urls = await withEngine(async (engine) => {
      const essentials = await engine.query('guide', {
        question: 'essentials reducer state action',
        top_k: 10,
      });
      const fundamentals = await engine.query('guide', {
        question: 'fundamentals configureStore root reducer',
      });
      return [...essentials.results, ...fundamentals.results].map((result) => result.citation.url);
    });
    expect(urls).toContain('https://docs.example.com/v1/tutorials/essentials/part-1-overview#reducers');
    // The second "Reducers" heading of the same page.
    expect(urls).toContain('https://docs.example.com/v1/tutorials/essentials/part-1-overview#reducers-1');
    // slug: /fundamentals/start and the explicit {#store} id.
    expect(urls).toContain('https://docs.example.com/v1/fundamentals/start#store');
  });

  it('puts the URL in the certificate: saksi ask --json, evidence citation', async () => {
    const result = await run([
      'ask',
      'What does a reducer receive and return?',
      '--collection',
      'guide',
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const bundle = JSON.parse(result.stdout) as Bundle;
    const citations = bundle.certificate.claims.flatMap((claim) =>
      claim.evidence.map((item) => item.citation),
    );
    expect(citations.length).toBeGreaterThan(0);
    for (const citation of citations)
      expect(citation.url).toMatch(
        /^https:\/\/docs\.example\.com\/v1\/tutorials\/essentials\/part-1-overview#reducers/,
      );
    // The URL is signed with the rest: the bundle verifies as it is.
    await writeFile(path.join(directory, 'answer.json'), result.stdout);
    const verified = await run(['verify', 'answer.json']);
    expect(verified.code, verified.stdout).toBe(0);
  });

  it('sets, changes or leaves the base URL of an existing collection; without one there is no URL', async () => {
    const plain = await run(['ingest', 'single.md', '--collection', 'plain', '--language', 'en']);
    expect(plain.code).toBe(0);
    const before = await withEngine((engine) => engine.query('plain', { question: 'single file name' }));
    expect(before.results.length).toBeGreaterThan(0);
    expect(before.results.every((item) => item.citation.url === undefined)).toBe(true);

    const again = await run([
      'ingest',
      'single.md',
      '--collection',
      'plain',
      '--base-url',
      'http://127.0.0.1:8080/',
    ]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already ingested');
    const after = await withEngine((engine) => engine.query('plain', { question: 'single file name' }));
    expect(after.results[0]?.citation.url).toBe('http://127.0.0.1:8080/single#single');
  });

  it.each([
    ['javascript:alert(document.cookie)'],
    ['ftp://docs.example.com/'],
    ['not a url'],
    ['https://user:password@docs.example.com/'],
    ['java\tscript:alert(1)'],
  ])('refuses --base-url %j with INVALID_BASE_URL, exit 2, and creates nothing', async (hostile) => {
    const result = await run(['ingest', 'single.md', '--collection', 'hostile', '--base-url', hostile]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('INVALID_BASE_URL');
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(result.stdout).toBe('');
    const names = await withEngine(async (engine) =>
      (await engine.collections.list()).map((item) => item.name),
    );
    expect(names).not.toContain('hostile');
  });

  it('refuses a hostile base URL for an existing collection and keeps the one it had', async () => {
    const result = await run(['ingest', 'single.md', '--collection', 'guide', '--base-url', 'javascript:x']);
    expect(result.code).toBe(2);
    const collection = await withEngine((engine) => engine.collections.get('guide'));
    expect(collection.profile['base_url']).toBe('https://docs.example.com/v1/');
  });

  it('gives the collection the --glossary file, and refuses a bad one with INVALID_GLOSSARY, exit 2, creating nothing', async () => {
    await writeFile(
      path.join(directory, 'glossary.json'),
      JSON.stringify({
        format: 'saksi-glossary',
        version: 1,
        dictionary: [{ terms: ['file'], expansion: 'single' }],
      }),
    );
    const good = await run(['ingest', 'single.md', '--collection', 'worded', '--glossary', 'glossary.json']);
    expect(good.code).toBe(0);
    const collection = await withEngine((engine) => engine.collections.get('worded'));
    expect(collection.glossary?.dictionary).toEqual([{ terms: ['file'], expansion: 'single' }]);
    expect(collection.glossary_sha256).toMatch(/^[0-9a-f]{64}$/);

    await writeFile(
      path.join(directory, 'bad.json'),
      '{"format":"saksi-glossary","version":1,"dictionary":[1]}',
    );
    const bad = await run(['ingest', 'single.md', '--collection', 'badly-worded', '--glossary', 'bad.json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('dictionary[0]');
    expect(bad.stderr).toContain('INVALID_GLOSSARY');
    expect(bad.stderr).not.toMatch(STACK_FRAME);
    const names = await withEngine(async (engine) =>
      (await engine.collections.list()).map((item) => item.name),
    );
    expect(names).not.toContain('badly-worded');
  });
});
