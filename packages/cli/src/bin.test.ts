import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const execFileAsync = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const bin = path.join(repoRoot, 'packages/cli/bin/saksi.js');
const fixtures = path.join(repoRoot, 'packages/proof/__fixtures__');
const goldenBundle = path.join(fixtures, 'golden-bundle.json');
const goldenKeys = path.join(fixtures, 'golden-keys.json');

let directory: string;

/** Runs a script with node; resolves with its exit code and output, never rejects on a non-zero exit. */
async function node(script: string, args: string[]) {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [script, ...args], {
      cwd: directory,
      env: { ...process.env, NO_COLOR: '1' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failure.code !== 'number') throw error;
    return { code: failure.code, stdout: failure.stdout ?? '', stderr: failure.stderr ?? '' };
  }
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-cli-bin-'));
  // The launcher runs the compiled CLI; scripts/vitest-build.ts builds it once before all tests.
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('bin/saksi.js', () => {
  it('runs the compiled CLI with the right exit codes, and explains a missing build', async () => {
    const version = await node(bin, ['--version']);
    expect(version).toMatchObject({ code: 0, stderr: '' });
    expect(version.stdout).toMatch(/^saksi \d+\.\d+\.\d+\n$/);

    const usage = await node(bin, ['frobnicate']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('error: unknown command');

    const missing = await node(bin, ['verify', 'nope.json', '--trust', 'keys.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
    expect(missing.stderr).not.toMatch(/\n\s+at .+:\d+/);

    if (existsSync(goldenBundle) && existsSync(goldenKeys)) {
      const verified = await node(bin, ['verify', goldenBundle, '--trust', goldenKeys]);
      expect(verified.code).toBe(0);
      expect(verified.stdout).toContain('Verdict: VERIFIED');
      const replayed = await node(bin, [
        'verify',
        goldenBundle,
        '--trust',
        goldenKeys,
        '--question',
        'other',
      ]);
      expect(replayed.code).toBe(1);
      expect(replayed.stdout).toContain('QUERY_MISMATCH');
    }

    // A launcher without a dist/ next to it says how to build instead of crashing.
    const unbuilt = path.join(directory, 'unbuilt/bin/saksi.js');
    await mkdir(path.dirname(unbuilt), { recursive: true });
    await copyFile(bin, unbuilt);
    await writeFile(path.join(directory, 'unbuilt/package.json'), '{"type": "module"}');
    const notBuilt = await node(unbuilt, ['--version']);
    expect(notBuilt.code).toBe(2);
    expect(notBuilt.stderr).toContain('npm install');
  });
});
