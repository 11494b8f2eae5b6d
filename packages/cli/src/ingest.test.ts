import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { templateDirectory } from '@saksi/test-support/pglite-template';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const redux = path.resolve(repoRoot, '../shared/data/corpora/docs-redux/docs');
const STACK_FRAME = /\n\s+at .+:\d+/;

let directory: string;

/** Runs `saksi` in-process against the data directory `data/` of the temp folder. */
async function run(argv: string[]) {
  return runCli(argv, { cwd: directory, env: { SAKSI_DATA_DIR: 'data', NO_COLOR: '1' } });
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-cli-ingest-'));
  await cp(templateDirectory(), path.join(directory, 'data/pglite'), { recursive: true });
  await mkdir(path.join(directory, 'docs/faq'), { recursive: true });
  await cp(path.join(redux, 'introduction/CoreConcepts.md'), path.join(directory, 'docs/CoreConcepts.md'));
  await cp(path.join(redux, 'faq/Miscellaneous.md'), path.join(directory, 'docs/faq/Miscellaneous.md'));
  await writeFile(
    path.join(directory, 'docs/notes.txt'),
    'Redux keeps the whole state of an application in a single store.\n\nReducers are pure functions.\n',
  );
  // Not a supported extension: a folder walk skips it.
  await writeFile(path.join(directory, 'docs/image.png'), new Uint8Array([0x89, 0x50, 0x4e, 0x47]));

  await mkdir(path.join(directory, 'mixed'), { recursive: true });
  await writeFile(path.join(directory, 'mixed/a-good.md'), '# Stores\n\nA store holds the state tree.\n');
  const binary = new Uint8Array(4096);
  for (let index = 0; index < binary.length; index++) binary[index] = (index * 131 + 7) % 256;
  await writeFile(path.join(directory, 'mixed/b-bad.pdf'), binary);
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('saksi ingest', () => {
  it('ingests a folder with progress and a summary, then dedupes a second run', async () => {
    const first = await run(['ingest', 'docs', '--collection', 'docs', '--language', 'en']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const lines = first.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^✓ \[1\/3\] docs\/CoreConcepts\.md — \d+ chunks?, root [0-9a-f]{12}…/);
    expect(lines[1]).toMatch(/^✓ \[2\/3\] docs\/faq\/Miscellaneous\.md — \d+ chunks?/);
    expect(lines[2]).toMatch(/^✓ \[3\/3\] docs\/notes\.txt — \d+ chunks?/);
    // The three new roots are anchored in one round, one transaction, on the local chain.
    expect(lines[3]).toMatch(
      /^⚓ anchored 3 roots on chain 31337 \(local anvil\): CONFIRMED, tx 0x[0-9a-f]{64}, block \d+$/,
    );
    expect(lines[4]).toMatch(/^3 of 3 files ingested into "docs" \(\d+ new chunks\) in [\d.]+ s\.$/);
    expect(first.stdout).not.toContain('image.png');

    const second = await run(['ingest', 'docs', '--collection', 'docs', '--language', 'en']);
    expect(second.code).toBe(0);
    const again = second.stdout.trimEnd().split('\n');
    expect(again.slice(0, 3).every((line) => /^✓ \[\d\/3\] .* — already ingested/.test(line))).toBe(true);
    // Nothing new waits: no anchoring round.
    expect(again[3]).toMatch(/^3 of 3 files ingested into "docs" \(0 new chunks\)/);
  });

  it('reports a broken file with its code, ingests the good one and exits 1', async () => {
    const result = await run(['ingest', 'mixed', '--collection', 'mixed']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^✓ \[1\/2\] mixed\/a-good\.md — \d+ chunks?/m);
    expect(result.stdout).toMatch(/^✗ \[2\/2\] mixed\/b-bad\.pdf — MALFORMED_FILE: /m);
    expect(result.stdout).toContain('1 of 2 files ingested into "mixed"');
    expect(result.stdout).toContain('; 1 failed.');
    expect(result.stdout).not.toMatch(STACK_FRAME);

    // The good file really is stored: a second run finds it by its hash.
    const again = await run(['ingest', 'mixed/a-good.md', '--collection', 'mixed']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already ingested');
  });

  it('--json prints one JSON line per file', async () => {
    const result = await run(['ingest', 'mixed', 'docs/notes.txt', '--collection', 'mixed', '--json']);
    expect(result.code).toBe(1);
    const lines = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatchObject({ anchor: { status: 'CONFIRMED', chain_id: 31337, roots: 1 } });
    expect(lines[0]).toMatchObject({ file: 'mixed/a-good.md', ok: true, deduplicated: true });
    expect(lines[0]!['document']).toMatchObject({ filename: 'a-good.md', status: 'READY' });
    expect(lines[1]).toMatchObject({ file: 'mixed/b-bad.pdf', ok: false });
    expect((lines[1]!['error'] as { code: string }).code).toBe('MALFORMED_FILE');
    expect(lines[2]).toMatchObject({ file: 'docs/notes.txt', ok: true, deduplicated: false });
  });

  it('--no-anchor leaves new documents PENDING_ANCHOR until `saksi anchor run`', async () => {
    await writeFile(path.join(directory, 'later.md'), '# Later\n\nAnchored later, in its own round.\n');
    const result = await run(['ingest', 'later.md', '--collection', 'later', '--no-anchor']);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('anchored');
    const before = JSON.parse((await run(['anchor', 'status', '--json'])).stdout);
    expect(before.documents['PENDING_ANCHOR']).toBe(1);
    const anchored = await run(['anchor', 'run']);
    expect(anchored.code, anchored.stdout + anchored.stderr).toBe(0);
    expect(anchored.stdout).toMatch(
      /^✓ round anc_[0-9a-f]+: 1 root, CONFIRMED, tx 0x[0-9a-f]{64} block \d+$/m,
    );
    const after = JSON.parse((await run(['anchor', 'status', '--json'])).stdout);
    expect(after.documents['PENDING_ANCHOR']).toBeUndefined();
    expect((await run(['anchor', 'run'])).stdout).toBe('Nothing waits to be anchored.\n');
  });

  it('stores --document-type and --fiscal-year', async () => {
    const result = await run([
      'ingest',
      'docs/notes.txt',
      '--collection',
      'budget',
      '--document-type',
      'UU APBN',
      '--fiscal-year',
      '2024',
      '--json',
    ]);
    expect(result.code).toBe(0);
    const line = JSON.parse(result.stdout.split('\n')[0]!) as { document: Record<string, unknown> };
    expect(line.document).toMatchObject({ document_type: 'UU APBN', fiscal_year: 2024 });
  });

  it.each([
    [['ingest', 'docs'], '--collection is required'],
    [['ingest', '--collection', 'docs'], 'name at least one file or folder'],
    [['ingest', 'docs', '--collection', 'docs', '--language', 'fr'], '--language must be id or en'],
    [['ingest', 'docs', '--collection', 'docs', '--fiscal-year', 'next'], '--fiscal-year'],
    [['ingest', 'docs', '--collection', 'docs', '--fiscal-year', '20240'], '--fiscal-year'],
    [['ingest', 'docs', '--collection', 'docs', '--fiscal-year', '2024.5'], '--fiscal-year'],
    [['ingest', 'docs', '--collection'], "'--collection"],
  ])('usage error %j exits 2', async (argv, expected) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: /);
    expect(result.stderr).toContain(expected);
    expect(result.stderr).toContain('usage: saksi ingest');
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(result.stdout).toBe('');
  });

  it('a missing path exits 2 with a clear message and ingests nothing', async () => {
    const result = await run(['ingest', 'docs/notes.txt', 'nope/missing.md', '--collection', 'never']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: cannot read nope/missing.md: no such file or folder');
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(result.stdout).toBe('');
  });

  it('a folder without supported files exits 2 with a hint', async () => {
    await mkdir(path.join(directory, 'empty'), { recursive: true });
    const result = await run(['ingest', 'empty', '--collection', 'never']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no supported files');
    expect(result.stderr).toContain('hint: Supported:');
  });
});
