import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const vectors = process.env['SAKSI_VECTORS_DIR'] ?? path.resolve(repoRoot, '../shared/data/vectors');

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-cli-vectors-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function run(argv: string[], env: Record<string, string> = {}) {
  return runCli(argv, { cwd: directory, env: env });
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);

describe('saksi vectors', () => {
  it('passes every vector of the real folder and ends with "N passed, 0 failed"', async () => {
    const result = await run(['vectors', vectors]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const match = /^(\d+) passed, 0 failed$/.exec(lastLine(result.stdout) ?? '');
    expect(match).not.toBeNull();
    expect(Number(match![1])).toBeGreaterThan(1800);
    expect(result.stdout).toMatch(/^✓ jcs-rfc8785\s+\d+\/\d+ {2}\(/m);
  });

  it('finds the folder through SAKSI_VECTORS_DIR and prints JSON with --json', async () => {
    const jcsOnly = path.join(directory, 'jcs-only');
    await cp(path.join(vectors, 'jcs-rfc8785'), path.join(jcsOnly, 'jcs-rfc8785'), { recursive: true });
    const result = await run(['vectors', '--json'], { SAKSI_VECTORS_DIR: jcsOnly });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.directory).toBe(jcsOnly);
    expect(report.results.map((suite: { name: string }) => suite.name)).toEqual(['jcs-rfc8785']);
    expect(report.passed).toBeGreaterThan(0);
    expect(report.failed).toBe(0);
  });

  it('reports a corrupted jcs output file and exits 1', async () => {
    const copy = path.join(directory, 'corrupt');
    await cp(path.join(vectors, 'jcs-rfc8785'), path.join(copy, 'jcs-rfc8785'), { recursive: true });
    const outputs = path.join(copy, 'jcs-rfc8785/testdata/output');
    const victim = readdirSync(outputs).find((name) => name.endsWith('.json'))!;
    const original = readFileSync(path.join(outputs, victim), 'utf8');
    await writeFile(
      path.join(outputs, victim),
      original.replace(/\d/, (digit) => String((Number(digit) + 1) % 10)),
    );

    const result = await run(['vectors', copy]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^✗ jcs-rfc8785/m);
    expect(result.stdout).toContain(victim.replace(/\.json$/, ''));
    expect(lastLine(result.stdout)).toMatch(/^\d+ passed, [1-9]\d* failed$/);
  });

  it('exits 1 when no suite finds its vectors', async () => {
    const empty = path.join(directory, 'empty');
    await cp(path.join(vectors, 'jcs-rfc8785/SOURCE.txt'), path.join(empty, 'README.txt'));
    const result = await run(['vectors', empty]);
    expect(result.code).toBe(1);
    expect(lastLine(result.stdout)).toBe('0 passed, 0 failed');
  });

  it('exits 2 when the folder does not exist', async () => {
    const result = await run(['vectors', path.join(directory, 'missing')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('does not exist');
    expect(result.stderr).toContain('SAKSI_VECTORS_DIR');
    expect(existsSync(path.join(directory, 'missing'))).toBe(false);
  });
});
