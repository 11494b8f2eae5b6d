import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTION, pasal287 } from './demo.js';
import type { Io } from './io.js';
import { main } from './main.js';

async function run(argv: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    cwd,
    env: {},
  };
  return { code: await main(argv, io), stdout: () => stdout, stderr: () => stderr };
}

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-demo-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('saksi demo (npm start)', () => {
  it('splits Pasal 287 of the bundled corpus into its six ayat', async () => {
    const corpus = await readFile(
      path.resolve(import.meta.dirname, '../../../corpora/uu-22-2009-llaj/uu-22-2009-llaj.fulltext.md'),
      'utf8',
    );
    const document = pasal287(corpus);
    expect(document.chunks.map((chunk) => chunk.citation?.ayat)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(document.chunks[1]!.text).toContain('Alat Pemberi Isyarat Lalu Lintas');
    expect(document.chunks.every((chunk) => !chunk.text.includes('__'))).toBe(true);
  });

  it('issues, logs and verifies; the second run checks the log only grew', async () => {
    const first = await run(['demo', '--data-dir', 'data'], directory);
    expect(first.stderr()).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout()).toContain('Verdict: VERIFIED');
    expect(first.stdout()).toContain('NUMBER_MISMATCH');
    expect((await stat(path.join(directory, 'data/keys/issuer.key'))).mode & 0o777).toBe(0o600);

    const second = await run(['demo', '--data-dir', 'data', '--json'], directory);
    expect(second.code).toBe(0);
    const report = JSON.parse(second.stdout()) as {
      bundle_file: string;
      result: { checks: { id: string; status: string }[] };
    };
    expect(report.result.checks.find((check) => check.id === 'checkpoint_consistency')?.status).toBe('pass');

    // The bundle it wrote verifies through `saksi verify` with the keys it created.
    const verified = await run(
      ['verify', report.bundle_file, '--trust', 'data/keys/saksi-keys.json', '--question', DEMO_QUESTION],
      directory,
    );
    expect(verified.code).toBe(0);
    const replay = await run(
      ['verify', report.bundle_file, '--trust', 'data/keys/saksi-keys.json', '--question', 'lain'],
      directory,
    );
    expect(replay.code).toBe(1);
    expect(replay.stdout()).toContain('QUERY_MISMATCH');
  });

  it('fails closed when the demo log was tampered with between runs', async () => {
    const dataDir = path.join(directory, 'tampered');
    expect((await run(['demo', '--data-dir', dataDir], directory)).code).toBe(0);
    // Rewrite history: replace the only leaf, so the next checkpoint is not an extension of the last one.
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(dataDir, 'demo/log-leaves.txt'), 'AAAA\n');
    const after = await run(['demo', '--data-dir', dataDir], directory);
    expect(after.code).toBe(1);
    expect(after.stdout()).toContain('CHECKPOINT_INCONSISTENT');
  });
});
