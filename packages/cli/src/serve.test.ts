import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DemoProgress, loadDemoCollections } from '@saksi/engine';
import { parseTrustedKeys } from '@saksi/proof';
import { createLogger } from '@saksi/server';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { templateDirectory } from '@saksi/test-support/pglite-template';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anchoredRoundMessage, anchoringLog } from './serve.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const bin = path.join(repoRoot, 'packages/cli/bin/saksi.js');

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-cli-serve-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** The output of a child process so far, and a promise of its exit. */
function watch(child: ChildProcess) {
  const output = { stdout: '', stderr: '' };
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (output.stdout += text));
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (output.stderr += text));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { output, exited };
}

/** Resolves with the first match of `pattern` in the child's stdout; rejects if it exits first. */
async function waitFor(
  watched: ReturnType<typeof watch>,
  pattern: RegExp,
  timeoutMs: number,
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void watched.exited.then(() => (exited = true));
  for (;;) {
    const match = watched.output.stdout.match(pattern);
    if (match) return match;
    if (exited || Date.now() > deadline) {
      throw new Error(
        `no ${pattern} in the server output:\n${watched.output.stdout}\n${watched.output.stderr}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('saksi serve (the compiled CLI)', () => {
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    // The launcher runs the compiled CLI; scripts/vitest-build.ts builds it once before all tests.
  });

  afterAll(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it('listens, serves health and keys, and stops cleanly on SIGTERM', async () => {
    const dataDir = path.join(directory, 'serve-data');
    await cp(templateDirectory(), path.join(dataDir, 'pglite'), { recursive: true });
    const env: NodeJS.ProcessEnv = { ...process.env, SAKSI_DATA_DIR: dataDir, NO_COLOR: '1' };
    delete env['DATABASE_URL'];
    delete env['PORT'];
    child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--no-demo'], {
      cwd: directory,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const watched = watch(child);
    const [, url] = await waitFor(watched, /Listening on (http:\/\/127\.0\.0\.1:\d+)\n/, 15_000);
    expect(watched.output.stdout).toContain(`data in ${dataDir} (PGlite)`);
    expect(watched.output.stdout).not.toContain('demo collections');

    const health = await fetch(`${url}/api/v1/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      status: 'ok',
      database: { ok: true },
      log: { origin: 'saksi.local/log', size: 0 },
    });

    const keys = await fetch(`${url}/.well-known/saksi-keys.json`);
    expect(keys.status).toBe(200);
    const trusted = parseTrustedKeys(await keys.json());
    expect(trusted.issuers).toHaveLength(1);
    expect(trusted.logs[0]?.origin).toBe('saksi.local/log');

    child.kill('SIGTERM');
    const exit = await watched.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(watched.output.stdout).toMatch(/Stopping…\n$/);
    expect(watched.output.stderr).toBe('');
  });
});

describe('anchoredRoundMessage', () => {
  const round = { type: 'round-confirmed' as const, round_id: 'anc_1', tx_hash: '0xab', block_number: 3 };

  it('says what a round anchored, in correct English plurals', () => {
    expect(anchoredRoundMessage({ ...round, documents: 94, log_size: null })).toBe(
      'Anchored 94 document roots (round anc_1): tx 0xab in block 3',
    );
    expect(anchoredRoundMessage({ ...round, documents: 1, log_size: 1 })).toBe(
      'Anchored 1 document root and the transparency log at 1 entry (round anc_1): tx 0xab in block 3',
    );
  });

  it('never announces "0 documents": a round of the log alone says so', () => {
    const line = anchoredRoundMessage({ ...round, documents: 0, log_size: 2 });
    expect(line).toBe('Anchored the transparency log at 2 entries (round anc_1): tx 0xab in block 3');
    expect(anchoredRoundMessage({ ...round, documents: 0, log_size: null })).not.toMatch(/\b0 document/);
  });
});

describe('anchoringLog', () => {
  it('writes the anchoring events as JSON lines at LOG_LEVEL, with the RPC credentials cut out', () => {
    const lines: string[] = [];
    const log = anchoringLog(createLogger('info', (line) => lines.push(line)));
    log.onEvent({
      type: 'round-confirmed',
      round_id: 'anc_1',
      tx_hash: '0xab',
      block_number: 3,
      documents: 2,
      log_size: null,
    });
    log.onEvent({ type: 'round-sent', round_id: 'anc_2', tx_hash: '0xcd' });
    log.onEvent({
      type: 'error',
      round_id: 'anc_2',
      code: 'RPC_UNREACHABLE',
      message: 'POST https://rpc.example/v2?key=sk-live-123 failed: Bearer abc.def',
    });
    log.onWarning(`the account 0x${'11'.repeat(32)} is low on funds`);
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: 'Anchored 2 document roots (round anc_1): tx 0xab in block 3',
        event: 'anchor.round_confirmed',
        round_id: 'anc_1',
        block_number: 3,
      }),
      expect.objectContaining({ level: 'warn', event: 'anchor.error', code: 'RPC_UNREACHABLE' }),
      expect.objectContaining({ level: 'warn', msg: 'anchoring warning' }),
    ]);
    const all = lines.join('');
    for (const secret of ['sk-live-123', 'abc.def', '11'.repeat(32)]) expect(all).not.toContain(secret);

    const quiet: string[] = [];
    anchoringLog(createLogger('error', (line) => quiet.push(line))).onWarning('slow RPC');
    expect(quiet).toEqual([]);
  });
});

describe('loadDemoCollections', () => {
  let test: TestEngine;
  let corpora: string;

  beforeAll(async () => {
    test = await openTestEngine();
    corpora = path.join(directory, 'corpora');
    await mkdir(path.join(corpora, 'uu-22-2009-llaj'), { recursive: true });
    await mkdir(path.join(corpora, 'apbn-uu'), { recursive: true });
    await mkdir(path.join(corpora, 'docs-redux/docs/faq'), { recursive: true });
    // Each corpus ships its glossary, which its collection gets at load.
    for (const folder of ['uu-22-2009-llaj', 'apbn-uu', 'docs-redux'])
      await cp(
        path.join(repoRoot, 'corpora', folder, 'glossary.json'),
        path.join(corpora, folder, 'glossary.json'),
      );
    await writeFile(
      path.join(corpora, 'uu-22-2009-llaj/uu-22-2009-llaj.fulltext.md'),
      'BAB XX KETENTUAN PIDANA\nPasal 287\n(1) Setiap orang yang mengemudikan Kendaraan Bermotor di Jalan dipidana.\n',
    );
    await writeFile(
      path.join(corpora, 'apbn-uu/uu-2019-20.md'),
      'Pasal 1\nPendapatan Negara direncanakan sebesar Rp2.233.196.733.610.000,00.\n',
    );
    await writeFile(
      path.join(corpora, 'docs-redux/docs/faq/General.md'),
      '# General\n\nRedux is a pattern for managing application state.\n',
    );
    await writeFile(path.join(corpora, 'docs-redux/README.md'), '# Not ingested\n');
    await writeFile(path.join(corpora, 'docs-redux/LICENSE.md'), 'MIT\n');
    await writeFile(path.join(corpora, 'docs-redux/logo.png'), new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
  });

  afterAll(async () => {
    await test?.close();
  });

  it('ingests one collection per corpus folder with its metadata, and only once', async () => {
    const progress: DemoProgress[] = [];
    const result = await loadDemoCollections(test.engine, corpora, (event) => progress.push(event));
    expect(result).toEqual({ added: 3, failed: 0 });
    expect(progress.map((event) => [event.collection, event.file, event.index, event.total])).toEqual([
      ['lalu-lintas', 'uu-22-2009-llaj.fulltext.md', 1, 1],
      ['apbn', 'uu-2019-20.md', 1, 1],
      ['docs', 'docs/faq/General.md', 1, 1],
    ]);
    expect(progress.every((event) => event.error === undefined && event.result?.deduplicated === false)).toBe(
      true,
    );

    const collections = await test.engine.collections.list();
    expect(
      Object.fromEntries(collections.map((collection) => [collection.name, collection.language])),
    ).toEqual({ 'lalu-lintas': 'id', apbn: 'id', docs: 'en' });

    const apbn = await test.engine.documents.list({ collection: 'apbn' });
    expect(apbn.items).toHaveLength(1);
    expect(apbn.items[0]).toMatchObject({
      title: 'UU No. 20 Tahun 2019 tentang APBN TA 2020',
      fiscal_year: 2020,
      document_type: 'UU APBN',
      source: 'JDIH / data-peraturan',
      status: 'READY',
    });
    const law = await test.engine.documents.list({ collection: 'lalu-lintas' });
    expect(law.items).toHaveLength(1);
    expect(law.items[0]).toMatchObject({
      title: 'UU No. 22 Tahun 2009 tentang Lalu Lintas dan Angkutan Jalan',
      document_type: 'UU',
      source: 'UU 22/2009',
    });

    // The docs corpus keeps its folders (as `saksi ingest corpora/docs-redux` would), and its
    // citations link to the page on the Redux site: the site serves docs/ at its root.
    const docs = await test.engine.documents.list({ collection: 'docs' });
    expect(docs.items.map((document) => document.filename)).toEqual(['docs/faq/General.md']);
    const found = await test.engine.query('docs', { question: 'pattern for managing application state' });
    expect(found.results[0]?.citation.url).toBe('https://redux.js.org/faq/General#general');
    expect((await test.engine.collections.get('docs')).profile).toMatchObject({
      base_url: 'https://redux.js.org/',
      base_url_folder: 'docs',
    });
    expect((await test.engine.collections.get('docs')).glossary?.pattern_groups).toEqual(['docs']);
    expect((await test.engine.collections.get('lalu-lintas')).glossary_sha256).toMatch(/^[0-9a-f]{64}$/);

    const again = await loadDemoCollections(test.engine, corpora);
    expect(again).toEqual({ added: 0, failed: 0 });
  });

  it('counts a broken file as failed, reports it and goes on', async () => {
    await writeFile(path.join(corpora, 'apbn-uu/uu-2021-6.pdf'), 'not a pdf at all');
    const progress: DemoProgress[] = [];
    const result = await loadDemoCollections(test.engine, corpora, (event) => progress.push(event));
    expect(result).toEqual({ added: 0, failed: 1 });
    const failed = progress.filter((event) => event.error !== undefined);
    expect(failed.map((event) => [event.collection, event.file])).toEqual([['apbn', 'uu-2021-6.pdf']]);
    expect(failed[0]?.result).toBeUndefined();
  });
});
