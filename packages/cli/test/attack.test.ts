/**
 * `saksi attack` end to end: six bundles generated from the demo collections (ingested, anchored on
 * a local anvil, logged and witnessed), every attack run under C0…C7, and the report written.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

let directory: string;
const cli = (argv: string[]) => runCli(argv, { cwd: directory, env: { NO_COLOR: '1' } });

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-attack-cli-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('saksi attack', () => {
  it('generates bundles, attacks them and reports C0 TDR 100%, EDR 100%, FBR 0%', async () => {
    const run = await cli([
      'attack',
      '--bundles',
      'bundles',
      '--report',
      'reports/attacks.md',
      '--generate',
      '6',
      '--byte-mutations',
      '5',
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('C0 meets its targets');
    const markdown = await readFile(path.join(directory, 'reports/attacks.md'), 'utf8');
    expect(markdown).toMatch(/\| TDR \(all tamperings\) \| 100\.0% \[100\.0, 100\.0\] \| 100% \| yes \|/);
    expect(markdown).toMatch(/\| FBR \(untampered bundles failing\) \| 0\.0% \[0\.0, 0\.0\] \| 0% \| yes \|/);
    const report = JSON.parse(await readFile(path.join(directory, 'reports/attacks.json'), 'utf8'));
    expect(report.bundles).toBe(6);
    expect(report.capabilities).toEqual({ onchain: true, consistency: true, equivocation: true });
    expect(report.c0_targets).toEqual({ tdr: true, edr: true, fbr: true });
    expect(report.edr.C0.trials).toBe(18);
    // Switching layers off must cost detection somewhere: the ablation is not a constant.
    expect(report.tdr.ALL.C7.rate).toBeLessThan(1);
    const trust = JSON.parse(await readFile(path.join(directory, 'bundles/trust.json'), 'utf8'));
    expect(trust.registries).toHaveLength(1);
  }, 120_000);

  it('re-reads the bundle directory without --generate (same seed, same figures)', async () => {
    const first = JSON.parse(await readFile(path.join(directory, 'reports/attacks.json'), 'utf8'));
    const run = await cli([
      'attack',
      '--bundles',
      'bundles',
      '--report',
      'again.md',
      '--byte-mutations',
      '5',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const again = JSON.parse(run.stdout);
    expect(again.tdr).toEqual(first.tdr);
    expect(again.fbr).toEqual(first.fbr);
  }, 60_000);

  it('refuses to generate into a directory that holds bundles, and needs trust.json to attack', async () => {
    const mixed = await cli(['attack', '--bundles', 'bundles', '--generate', '3']);
    expect(mixed.code).toBe(2);
    const files = await readdir(path.join(directory, 'bundles'));
    expect(files.filter((name) => name.startsWith('bundle-'))).toHaveLength(6);
    await writeFile(path.join(directory, 'lonely.json'), '{}');
    const untrusted = await cli(['attack', '--bundles', '.', '--report', 'x.md']);
    expect(untrusted.code).toBe(2);
    expect(existsSync(path.join(directory, 'x.md'))).toBe(false);
    const usage = await cli(['attack']);
    expect(usage.code).toBe(2);
  });
});
