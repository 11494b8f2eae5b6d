/**
 * `saksi attack` — the attack harness (docs/attacks.md): generates (or reads) answer bundles, tampers with
 * them (A1–A7 and byte flips), verifies every presentation under the ablations C0…C7, and writes the
 * TDR / EDR / FBR / UAA report as Markdown and JSON. Exit 0 when C0 meets its targets (TDR 100%,
 * EDR 100%, FBR 0%), 1 when it does not (the report says which attack got through), 2 on bad input.
 */

import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ABLATIONS,
  ATTACK_CLASSES,
  ATTACK_NAMES,
  type AttackReport,
  formatEstimate,
  generateBundles,
  isAttackError,
  renderAttackReport,
  runAttackHarness,
  summarize as summarizeAttacks,
} from '@saksi/attack';
import { isEngineError } from '@saksi/engine';
import { plural } from '@saksi/proof';
import { type Command, flag, integerOption, type OptionValues, stringOption } from './command.js';
import { repositoryRoot } from './engine-io.js';
import { CliError, type Io, UsageError } from './io.js';
import { safeText } from './text.js';

export const DEFAULT_REPORT = 'eval/reports/attacks.md';
/**
 * Bundles generated when the directory is empty and --generate is not given: at least 200, and 210 as
 * in the figures docs/attacks.md publishes.
 */
export const DEFAULT_GENERATE = 210;

export const attackCommand: Command = {
  name: 'attack',
  summary: 'Tamper with answer bundles and measure detection (TDR, EDR, FBR, UAA) under ablations',
  usage: `saksi attack --bundles <dir> [--report ${DEFAULT_REPORT}] [--generate N] [--seed S] [--json]`,
  help: `Runs the attack harness: citation swaps, span substitutions, claim edits, structural edits,
UI tampering, replays, log equivocation and byte flips against every bundle, verified under
the configurations C0 (everything on) to C7 (minimal), with bootstrap 95% intervals.

Options:
  --bundles <dir>        Bundle directory (bundle-*.json, trust.json, checkpoints.json, chain/)
  --generate <N>         First create N bundles there: a fresh temporary data directory, the three
                         demo collections ingested and anchored on a local anvil, N questions asked
                         offline. Default when the directory holds no bundles: ${DEFAULT_GENERATE}
  --report <file.md>     Markdown report; JSON is written beside it. Default: ${DEFAULT_REPORT}
  --seed <S>             Seed of questions, mutations and bootstrap (default 1)
  --byte-mutations <n>   Character flips per bundle (default 20)
  --sets <dir>           Evaluation sets questions come from (default ../shared/data/eval)
  --json                 Print the report as JSON

Exit status: 0 when C0 meets TDR 100%, EDR 100%, FBR 0%; 1 when it does not; 2 on bad input.`,
  options: {
    bundles: { type: 'string' },
    generate: { type: 'string' },
    report: { type: 'string' },
    seed: { type: 'string' },
    'byte-mutations': { type: 'string' },
    sets: { type: 'string' },
    json: { type: 'boolean' },
  },
  run: runAttack,
};

async function hasBundles(directory: string): Promise<boolean> {
  if (!existsSync(directory)) return false;
  const names = await readdir(directory);
  return names.some((name) => /\.json$/.test(name) && !/^(trust|checkpoints|manifest)\.json$/.test(name));
}

async function runAttack(values: OptionValues, positionals: readonly string[], io: Io): Promise<number> {
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  const bundlesOption = stringOption(values, 'bundles');
  if (!bundlesOption) throw new UsageError('saksi attack needs --bundles <dir>');
  const directory = path.resolve(io.cwd, bundlesOption);
  const reportFile = path.resolve(io.cwd, stringOption(values, 'report') ?? DEFAULT_REPORT);
  if (!reportFile.endsWith('.md'))
    throw new UsageError('--report must name a .md file (JSON goes beside it)');
  const seed = integerOption(values, 'seed', 0, 2 ** 31 - 1) ?? 1;
  const byteMutations = integerOption(values, 'byte-mutations', 0, 1000) ?? 20;
  const json = flag(values, 'json');
  const say = (text: string) => io.stderr.write(`${text}\n`);

  let generate = integerOption(values, 'generate', 1, 100_000);
  const existing = await hasBundles(directory);
  if (generate !== undefined && existing) {
    throw new CliError(`${safeText(directory)} already holds bundles; --generate would mix two runs`, {
      hint: 'Point --bundles at an empty (or new) directory, or drop --generate to attack the bundles there.',
    });
  }
  if (generate === undefined && !existing) {
    generate = DEFAULT_GENERATE;
    say(`No bundles in ${safeText(directory)}: generating ${generate}.`);
  }

  try {
    let generationSeconds: number | undefined;
    if (generate !== undefined) {
      const started = performance.now();
      const setsDirectory = path.resolve(
        io.cwd,
        stringOption(values, 'sets') ?? path.join(repositoryRoot(), '../shared/data/eval'),
      );
      await generateBundles({
        directory,
        count: generate,
        seed,
        corporaDirectory: path.join(repositoryRoot(), 'corpora'),
        setsDirectory,
        onProgress: say,
      });
      generationSeconds = (performance.now() - started) / 1000;
      say(
        `Wrote ${plural(generate, 'bundle')} to ${safeText(directory)} in ${generationSeconds.toFixed(1)} s.`,
      );
    }
    const started = performance.now();
    const result = await runAttackHarness(directory, { seed, byteMutations, onProgress: say });
    const report = summarizeAttacks(result, {
      seed,
      runSeconds: (performance.now() - started) / 1000,
      ...(generationSeconds !== undefined ? { generationSeconds } : {}),
    });
    await mkdir(path.dirname(reportFile), { recursive: true });
    await writeFile(reportFile, renderAttackReport(report));
    const jsonFile = reportFile.replace(/\.md$/, '.json');
    await writeFile(jsonFile, `${JSON.stringify(report, null, 2)}\n`);
    if (json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else io.stdout.write(summaryText(report, reportFile, jsonFile));
    const met = report.c0_targets.tdr && report.c0_targets.edr && report.c0_targets.fbr;
    return met ? 0 : 1;
  } catch (error) {
    if (isAttackError(error) || isEngineError(error)) {
      throw new CliError(error.message, {
        hint:
          isAttackError(error) && error.code === 'TRUST_MISSING'
            ? 'Generate a bundle directory with --generate N, or put the pinned keys in trust.json.'
            : 'See saksi attack --help.',
      });
    }
    throw error;
  }
}

function summaryText(report: AttackReport, reportFile: string, jsonFile: string): string {
  const lines: string[] = [];
  const ids = ABLATIONS.map((ablation) => ablation.id);
  lines.push(
    `${plural(report.bundles, 'bundle')}, ${plural(report.presentations, 'presentation')}, ${report.run_seconds} s.`,
    '',
    `C0  TDR ${formatEstimate(report.tdr.ALL.C0)}  EDR ${formatEstimate(report.edr.C0)}  FBR ${formatEstimate(report.fbr.C0)}  UAA ${formatEstimate(report.uaa.C0)}`,
    '',
    `TDR %        ${ids.map((id) => id.padStart(6)).join('')}`,
  );
  for (const attack of [...ATTACK_CLASSES, 'ALL' as const]) {
    const name = attack === 'ALL' ? 'all' : `${attack} ${ATTACK_NAMES[attack]}`.slice(0, 12);
    lines.push(
      `${name.padEnd(13)}${ids
        .map((id) => {
          const rate = report.tdr[attack][id].rate;
          return (rate === null ? '–' : (rate * 100).toFixed(1)).padStart(6);
        })
        .join('')}`,
    );
  }
  for (const [label, metric] of [
    ['EDR', report.edr],
    ['FBR', report.fbr],
    ['UAA', report.uaa],
  ] as const) {
    lines.push(
      `${label.padEnd(13)}${ids
        .map((id) => {
          const rate = metric[id].rate;
          return (rate === null ? '–' : (rate * 100).toFixed(1)).padStart(6);
        })
        .join('')}`,
    );
  }
  const met = report.c0_targets.tdr && report.c0_targets.edr && report.c0_targets.fbr;
  lines.push(
    '',
    met
      ? 'C0 meets its targets (TDR 100%, EDR 100%, FBR 0%).'
      : `C0 MISSES its targets: ${report.misses.C0.map((miss) => `${miss.attack} ${miss.kind}`).join(', ') || 'see the report'}.`,
    `Report: ${reportFile}`,
    `JSON:   ${jsonFile}`,
  );
  return `${lines.join('\n')}\n`;
}
