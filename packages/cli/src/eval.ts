/**
 * `saksi eval` — the evaluation harness (docs/evaluation.md): retrieval metrics per configuration,
 * answer metrics (false assurance and coverage, citations, must_mention, refusals, EM / F1 / ROUGE-L,
 * per intent), the full report under eval/reports with the risk–coverage curve, the calibration of the
 * answer check (eval/calibration and the generated answer-check model), and the CI gate on Recall@5
 * and answer metrics against eval/baseline.json.
 */

import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Engine, isEngineError, isLlmError, loadDemoCollections } from '@saksi/engine';
import {
  type AnswersReport,
  answerCheckModelSource,
  answersTable,
  CALIBRATION_SETS,
  CalibrationError,
  type CalibrationReport,
  type CalibrationSummary,
  type CrossSet,
  calibrateCollection,
  calibrationMarkdown,
  calibrationReport,
  calibrationRowsFromReports,
  calibrationSha256,
  checkTargets,
  crossCorpusComparison,
  crossCorpusTable,
  DEFAULT_CONFIG,
  type EvalSet,
  evaluateAnswers,
  evaluateRetrieval,
  gateFailures,
  ingestBeirCorpus,
  ingestCrossCorpus,
  intentTable,
  JSONL_SET_KINDS,
  type JsonlSetKind,
  knownSetKind,
  loadBeirSet,
  loadCrossSets,
  loadEvalSet,
  loadSquadSet,
  type MetricDirection,
  MIN_COLLECTION_POINTS,
  OVERFITTING_GAP,
  parseCalibrationQuestions,
  RETRIEVAL_CONFIGS,
  type RetrievalConfig,
  type RetrievalReport,
  recallChartSvg,
  releaseRowOf,
  retrievalTable,
  riskCoverageCurve,
  riskCoverageSvg,
  sampleAnswerable,
  setMarkdown,
  TARGET_DOMAINS,
  TARGET_THRESHOLDS,
  targetsTable,
} from '@saksi/engine/eval';
import { plural } from '@saksi/proof';
import { type Command, flag, type OptionValues, stringOption } from './command.js';
import { configFrom, openEngine, repositoryRoot } from './engine-io.js';
import { CliError, type Io, UsageError } from './io.js';

/** The dev sets the CI gate checks. */
export const GATE_SETS = [
  'lalin-dev',
  'apbn-dev',
  'redux-dev',
  'lalin-dev2',
  'apbn-dev2',
  'redux-dev2',
] as const;
/**
 * Answer metrics the gate also holds, stored in the baseline's "answers" object under
 * "<set> <metric>"; "answered" is 1 − the false-refusal rate. Which way each is better:
 * {@link GATE_METRIC_DIRECTIONS}.
 */
export const GATE_ANSWER_METRICS = [
  'must_mention_hit_rate',
  'citation_precision',
  'refusal_accuracy',
  'answered',
  'false_assurance',
] as const;
export type GateAnswerMetric = (typeof GATE_ANSWER_METRICS)[number];
/**
 * Which way each gated answer metric is better. A `higher` metric fails the gate when it falls more
 * than the tolerance below its baseline, a `lower` one (false assurance) when it rises more than the
 * tolerance above it. Recall@5 is `higher`.
 */
export const GATE_METRIC_DIRECTIONS: Readonly<Record<GateAnswerMetric, MetricDirection>> = {
  must_mention_hit_rate: 'higher',
  citation_precision: 'higher',
  refusal_accuracy: 'higher',
  answered: 'higher',
  false_assurance: 'lower',
};

/** The direction of a gated figure by its baseline key: `<set>` (Recall@5) or `<set> <metric>`. */
export function gateMetricDirection(key: string): MetricDirection {
  const metric = key.slice(key.indexOf(' ') + 1);
  return key.includes(' ') && metric in GATE_METRIC_DIRECTIONS
    ? GATE_METRIC_DIRECTIONS[metric as GateAnswerMetric]
    : 'higher';
}
/** Every JSONL set `saksi eval all` runs (retrieval on all but the selection sets; answers on all). */
const ALL_SETS = [
  'lalin-spec-cases',
  'lalin-dev',
  'apbn-dev',
  'redux-dev',
  'redux-selection-dev',
  'lalin-dev2',
  'apbn-dev2',
  'redux-dev2',
  'redux-selection-dev2',
] as const;
export const GATE_TOLERANCE = 0.02;
/** SQuAD 2.0 questions `eval all` asks by default (every k-th of 6,078; all 646 paragraphs ingested). */
const DEFAULT_SQUAD_SAMPLE = 600;
/** FacQA questions `eval all` asks for the answer metrics (every k-th of 311; retrieval runs on all). */
const DEFAULT_FACQA_SAMPLE = 150;
/** The false assurance the answer check is calibrated to allow (`--alpha`). */
export const DEFAULT_CALIBRATION_ALPHA = 0.05;
/** Where the generated answer-check model goes, from the repository root. */
const ANSWER_CHECK_MODEL_FILE = 'packages/engine/src/answer/answer-check-model.ts';

export const evalCommand: Command = {
  name: 'eval',
  summary: 'Measure retrieval and answers on the evaluation sets, calibrate the answer check; the CI gate',
  usage:
    'saksi eval retrieval|answers --set <file.jsonl> --collection <name> [--kind K] [--config C] [--json] | saksi eval all [--out DIR] | saksi eval cross [--out DIR] | saksi eval calibrate [--reports DIR] [--alpha A] [--out DIR] | saksi eval calibrate --collection C --set F [--alpha A] | saksi eval gate --baseline FILE [--write]',
  help: `Sub-commands:
  retrieval --set F --collection C   Recall@1/3/5/10, full recall, Precision@5, MRR, nDCG@10 of the set's
                                     answerable questions (top 10) against the data directory's engine.
      --config C   hybrid+rewrite (default: what queries use), hybrid, lexical, vector, or all
      --kind K     ${JSONL_SET_KINDS.join('|')}: what the set's relevance means, for a
                   set whose file name does not say it (lalin-, apbn-, redux-, redux-selection-)
  answers --set F --collection C     Asks every question: false assurance (answered while unanswerable
                                     or without an expected fact, over all questions), coverage,
                                     the related share, citation precision/recall, must_mention hit
                                     rate (numbers normalized), refusal accuracy, false-refusal rate,
                                     EM / F1 / ROUGE-L where the set has gold answers, all per intent too.
                                     Each question's record has its outcome, check score and features.
      --kind K                       As for retrieval.
      --llm provider:model           Answer with a language model instead of extractively (as SAKSI_LLM;
      --llm-base-url URL             key from SAKSI_LLM_API_KEY); the report names the generator.
  all [--out eval/reports]           Ingests the demo corpora into a fresh temporary data directory and
                                     runs every set in every configuration; writes <set>.md/.json,
                                     retrieval.svg, risk-coverage.svg and README.md (with the quality
                                     targets) to --out, then calibrates the answer check on the reports
                                     it wrote, as calibrate does (--alpha, --model; the calibration to
                                     --calibration-out, default the calibration folder beside --out).
                                     Also ingests facqa-id (BEIR, 275 passages, 311 questions; answers
                                     on every k-th question against its gold spans, --facqa-sample N,
                                     default ${DEFAULT_FACQA_SAMPLE}; 0 = all) and squad2-dev (SQuAD 2.0, English, 646
                                     paragraphs; every k-th question, --squad-sample N of 6,078, default
                                     ${DEFAULT_SQUAD_SAMPLE}; 0 = all), retrieval and answers.
  cross [--out eval/reports]         The cross-corpus sets (--cross, default eval/cross: collections no
                                     answer rule was written for, ingested as a user's own documents:
                                     their language, no profile) beside the dev sets they are compared
                                     with, in the default configuration: each metric's dev and
                                     cross-corpus figure and the gap; a gap above ${OVERFITTING_GAP} is called
                                     overfitting. Writes cross-corpus.md and each cross set's reports.
                                     \`all\` runs the cross-corpus sets too and adds the table to README.md.
  calibrate --collection C --set F [--alpha A]
                                     Calibrates the answer check on a collection's own questions: F has
                                     one JSON object per line, {"question", "answerable" (default true),
                                     "must_mention": [phrases a right answer mentions one of]}, at least
                                     ${MIN_COLLECTION_POINTS}. Each is asked; the answers' check features and
                                     whether each would be wrong if released are stored in the
                                     collection's profile, and its answers are then released at the λ
                                     chosen on them for α (--alpha, else the collection's answer_risk,
                                     else ${DEFAULT_CALIBRATION_ALPHA}). Without it a collection nobody
                                     calibrated is released at the strictest λ of the demo collections.
  calibrate [--reports eval/reports] [--alpha ${DEFAULT_CALIBRATION_ALPHA}] [--out eval/calibration]
                                     Reads the <set>.json reports of ${CALIBRATION_SETS.join(', ')}
                                     that exist, and fits the answer check on their questions' features:
                                     a logistic model, grouped by collection, with leave-one-collection-out
                                     cross-validation; the release threshold λ is the smallest with
                                     (answers released and wrong + 1) / (n + 1) ≤ alpha (split-conformal
                                     risk control). Writes report.json, report.md and risk-coverage.svg
                                     (out-of-fold scores) to --out, and the model with the SHA-256 of
                                     report.json to --model (default ${ANSWER_CHECK_MODEL_FILE}).
                                     Questions without features are skipped and counted.
  gate --baseline eval/baseline.json Fresh temporary data directory, retrieval and answers on
                                     ${GATE_SETS.join(', ')} in the
                                     default configuration; exit 1 when a Recall@5 or an answer metric
                                     (must_mention hit rate, citation precision, unanswerable refused,
                                     answered = 1 − answerable refused) is more than ${GATE_TOLERANCE} below its
                                     baseline, or false assurance (lower is better) more than ${GATE_TOLERANCE} above
                                     it; a metric the baseline lacks is not checked. --write stores the
                                     run as the baseline.

Options:
  --sets <dir>      Where the sets are (default ../shared/data/eval beside the repository)
  --cross <dir>     Where the cross-corpus sets are (default eval/cross in the repository)
  --data-dir <dir>  The data directory for retrieval/answers (default $SAKSI_DATA_DIR or ./.saksi)
  --json            Print the report as JSON

Exit status: 0 on success, 1 when the gate fails, 2 on bad input (also: calibrate without a reports
directory, without a question that has features, or with alpha outside (0, 1)).`,
  options: {
    set: { type: 'string' },
    collection: { type: 'string' },
    kind: { type: 'string' },
    config: { type: 'string' },
    out: { type: 'string' },
    sets: { type: 'string' },
    cross: { type: 'string' },
    baseline: { type: 'string' },
    write: { type: 'boolean' },
    'squad-sample': { type: 'string' },
    'facqa-sample': { type: 'string' },
    reports: { type: 'string' },
    alpha: { type: 'string' },
    model: { type: 'string' },
    'calibration-out': { type: 'string' },
    llm: { type: 'string' },
    'llm-base-url': { type: 'string' },
    'data-dir': { type: 'string' },
    json: { type: 'boolean' },
  },
  run: runEval,
};

function configsFrom(values: OptionValues): RetrievalConfig[] {
  const config = stringOption(values, 'config') ?? DEFAULT_CONFIG;
  if (config === 'all') return [...RETRIEVAL_CONFIGS];
  if (!(RETRIEVAL_CONFIGS as readonly string[]).includes(config))
    throw new UsageError(`--config must be one of ${RETRIEVAL_CONFIGS.join(', ')} or all`);
  return [config as RetrievalConfig];
}

/** `--kind`: one of the JSONL set kinds, or undefined when absent. */
function kindFrom(values: OptionValues): JsonlSetKind | undefined {
  const kind = stringOption(values, 'kind');
  if (kind === undefined) return undefined;
  if (!(JSONL_SET_KINDS as readonly string[]).includes(kind))
    throw new UsageError(`--kind must be one of ${JSONL_SET_KINDS.join(', ')}`);
  return kind as JsonlSetKind;
}

/**
 * Loads a set: a folder as a BEIR set, a JSONL file by its name's kind or by `options.kind`; a name
 * that says no kind without `--kind` is a usage error that asks for it.
 */
async function loadSet(
  file: string,
  options: { kind?: JsonlSetKind; collection?: string } = {},
): Promise<EvalSet> {
  const folder = existsSync(file) && !file.endsWith('.jsonl');
  const name = path.basename(file).replace(/\.jsonl$/, '');
  if (!folder && options.kind === undefined && knownSetKind(name) === null)
    throw new UsageError(
      `cannot tell the kind of the set ${JSON.stringify(name)} from its name: pass --kind ${JSONL_SET_KINDS.join('|')}`,
    );
  try {
    return folder ? await loadBeirSet(file) : await loadEvalSet(file, options);
  } catch (error) {
    if (isEngineError(error)) throw new CliError(error.message, { exitCode: 2 });
    throw error;
  }
}

function setsDirectory(values: OptionValues, io: Io): string {
  return path.resolve(
    io.cwd,
    stringOption(values, 'sets') ?? path.join(repositoryRoot(), '../shared/data/eval'),
  );
}

function crossDirectory(values: OptionValues, io: Io): string {
  return path.resolve(io.cwd, stringOption(values, 'cross') ?? path.join(repositoryRoot(), 'eval/cross'));
}

/** Ingests each cross-corpus set's folder into its own collection; a file that fails ends the run. */
async function ingestCrossSets(engine: Engine, sets: readonly CrossSet[], say: (text: string) => void) {
  for (const cross of sets) {
    const started = performance.now();
    const result = await ingestCrossCorpus(engine, cross);
    say(
      `Ingested ${plural(result.added, `${cross.set.name} document`)} (${result.failed.length} failed) in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
    );
    for (const failure of result.failed) say(`  ${failure.file}: ${failure.error}`);
    if (result.failed.length > 0)
      throw new CliError(
        `${plural(result.failed.length, `${cross.set.name} document`)} failed to ingest; the evaluation would be meaningless.`,
      );
  }
}

/** Writes a set's Markdown and JSON reports to `out`. */
async function writeSetReports(
  out: string,
  set: EvalSet,
  retrieval: RetrievalReport[],
  answers: AnswersReport | undefined,
): Promise<void> {
  await writeFile(path.join(out, `${set.name}.md`), setMarkdown(set.name, retrieval, answers));
  await writeFile(
    path.join(out, `${set.name}.json`),
    `${JSON.stringify({ set: set.name, collection: set.collection, retrieval, answers: answers ?? null }, null, 2)}\n`,
  );
}

/** `saksi eval cross`: the cross-corpus sets beside the dev sets, in the default configuration. */
async function runCross(values: OptionValues, io: Io, say: (text: string) => void): Promise<number> {
  const started = performance.now();
  const out = path.resolve(io.cwd, stringOption(values, 'out') ?? 'eval/reports');
  const crossSets = await loadCross(values, io);
  if (crossSets.length === 0)
    throw new CliError(
      `No cross-corpus sets: ${path.join(crossDirectory(values, io), 'sets.json')} is missing.`,
      {
        exitCode: 2,
      },
    );
  const directory = setsDirectory(values, io);
  const devSets = await Promise.all(GATE_SETS.map((name) => loadSet(path.join(directory, `${name}.jsonl`))));
  const { engine, done } = await freshDemoEngine(io, say);
  const retrieval: RetrievalReport[] = [];
  const answers: AnswersReport[] = [];
  try {
    await ingestCrossSets(engine, crossSets, say);
    await mkdir(out, { recursive: true });
    for (const set of [...devSets, ...crossSets.map((cross) => cross.set)]) {
      const ranked = await evaluateRetrieval(engine, set, DEFAULT_CONFIG);
      const answered = await evaluateAnswers(engine, set);
      say(
        `${set.name}: Recall@5 ${ranked.metrics['recall@5'].toFixed(3)}, answers ${JSON.stringify(answered.metrics)}`,
      );
      retrieval.push(ranked);
      answers.push(answered);
      if (crossSets.some((cross) => cross.set.name === set.name))
        await writeSetReports(out, set, [ranked], answered);
    }
  } finally {
    await done();
  }
  const table = crossCorpusTable(
    crossCorpusComparison(
      retrieval,
      answers,
      crossSets.map((cross) => cross.set),
    ),
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  await writeFile(
    path.join(out, 'cross-corpus.md'),
    `# Dev and cross-corpus sets\n\nWritten by \`saksi eval cross\` (${new Date().toISOString().slice(0, 10)}, ${seconds} s) with the offline defaults. ${CROSS_EXPLANATION}\n\n${table}\n`,
  );
  if (flag(values, 'json')) io.stdout.write(`${JSON.stringify({ retrieval, answers }, null, 2)}\n`);
  else io.stdout.write(`${table}\n\nReports written to ${out} in ${seconds} s.\n`);
  return 0;
}

/** What the dev and cross-corpus table shows, for the reports. */
const CROSS_EXPLANATION = `Each cross-corpus set (eval/cross: collections no answer rule was written for, ingested as a user's own documents, with questions written before any rule change and never used to tune) beside the dev sets of its kind pooled by question (docs: redux-dev + redux-dev2; regulations: lalin-dev, lalin-dev2, apbn-dev, apbn-dev2). The gap is how much worse the cross-corpus figure is; above ${OVERFITTING_GAP} it is called overfitting (eval/cross/README.md).`;

async function loadCross(values: OptionValues, io: Io): Promise<CrossSet[]> {
  try {
    return await loadCrossSets(crossDirectory(values, io));
  } catch (error) {
    if (isEngineError(error)) throw new CliError(error.message, { exitCode: 2 });
    throw error;
  }
}

/** A fresh engine in a temporary data directory (always PGlite) with the demo collections loaded. */
async function freshDemoEngine(
  io: Io,
  say: (text: string) => void,
): Promise<{ engine: Engine; done(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'saksi-eval-'));
  // An evaluation measures answering: no answer from the cache (docs/engine.md).
  const env: Record<string, string | undefined> = {
    ...io.env,
    SAKSI_DATA_DIR: dataDir,
    SAKSI_ANSWER_CACHE: 'off',
  };
  delete env['DATABASE_URL'];
  // Many questions over the whole demo corpus: PGlite's default buffer pool, as a server has.
  const engine = await openEngine(configFrom({ ...io, env }), { longRunning: true });
  const started = performance.now();
  const result = await loadDemoCollections(engine, path.join(repositoryRoot(), 'corpora'));
  say(
    `Ingested the demo corpora (${plural(result.added, 'document')}, ${result.failed} failed) in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );
  if (result.failed > 0) {
    await engine.close();
    throw new CliError(
      `${result.failed} demo documents failed to ingest; the evaluation would be meaningless.`,
    );
  }
  return {
    engine,
    async done() {
      await engine.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function runEval(values: OptionValues, positionals: readonly string[], io: Io): Promise<number> {
  const [sub, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
  const json = flag(values, 'json');
  const say = (text: string) => {
    if (!json) io.stderr.write(`${text}\n`);
  };
  if (sub === 'retrieval' || sub === 'answers') {
    const setFile = stringOption(values, 'set');
    const collection = stringOption(values, 'collection');
    if (!setFile || !collection) throw new UsageError(`saksi eval ${sub} needs --set and --collection`);
    const configs = configsFrom(values);
    const kind = kindFrom(values);
    const set = await loadSet(path.resolve(io.cwd, setFile), { ...(kind ? { kind } : {}), collection });
    const dataDir = stringOption(values, 'data-dir');
    const engine = await openEngine(
      configFrom(io, {
        ...(dataDir ? { SAKSI_DATA_DIR: path.resolve(io.cwd, dataDir) } : {}),
        // An evaluation measures answering, so every question is answered afresh.
        SAKSI_ANSWER_CACHE: 'off',
        ...llmOverrides(values),
      }),
      { longRunning: true },
    );
    try {
      await engine.collections.get(collection);
      if (sub === 'retrieval') {
        const reports: RetrievalReport[] = [];
        for (const config of configs) reports.push(await evaluateRetrieval(engine, set, config, collection));
        io.stdout.write(
          json
            ? `${JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2)}\n`
            : `${retrievalTable(reports)}\n`,
        );
      } else {
        const report = await evaluateAnswers(engine, set, collection);
        io.stdout.write(
          json
            ? `${JSON.stringify(report, null, 2)}\n`
            : `${answersTable([report])}\n\nPer intent:\n\n${intentTable(report)}\n`,
        );
      }
      return 0;
    } catch (error) {
      if (isEngineError(error)) throw new CliError(error.message, { exitCode: 2 });
      if (isLlmError(error))
        throw new CliError(error.message, {
          exitCode: 1,
          hint: 'The language model failed; check SAKSI_LLM, its base URL and key, or try again later.',
        });
      throw error;
    } finally {
      await engine.close();
    }
  }
  if (sub === 'all') return runAll(values, io, say);
  if (sub === 'cross') return runCross(values, io, say);
  if (sub === 'calibrate') return runCalibrate(values, io);
  if (sub === 'gate') return runGate(values, io, say);
  throw new UsageError(
    sub === undefined
      ? 'missing sub-command: retrieval, answers, all, calibrate or gate'
      : `unknown sub-command ${JSON.stringify(sub)}`,
  );
}

/** `--alpha`: the false assurance allowed, strictly between 0 and 1 (default 0.05). */
function alphaFrom(values: OptionValues): number {
  const text = stringOption(values, 'alpha');
  if (text === undefined) return DEFAULT_CALIBRATION_ALPHA;
  const alpha = Number(text);
  if (text.trim() === '' || !Number.isFinite(alpha) || alpha <= 0 || alpha >= 1)
    throw new UsageError(`--alpha must be a number between 0 and 1 (exclusive), not ${JSON.stringify(text)}`);
  return alpha;
}

/** What {@link calibrate} reads and writes. */
export interface CalibrateOptions {
  /** The folder of `<set>.json` evaluation reports. */
  reports: string;
  alpha: number;
  /** The folder report.json, report.md and risk-coverage.svg go to. */
  out: string;
  /** The generated TypeScript module of the model. */
  model: string;
}

/** What {@link calibrate} wrote. */
export interface CalibrateResult {
  report: CalibrationReport;
  sha256: string;
  /** The sets whose reports were read. */
  sets: string[];
  /** Questions skipped: without features, or without a feature name other questions have. */
  withoutFeatures: number;
  incompleteFeatures: number;
}

/**
 * Calibrates the answer check on the evaluation reports in `options.reports` (the sets of
 * `CALIBRATION_SETS` that have a `<set>.json`): the cross-validated report (report.json, report.md),
 * the out-of-fold risk–coverage curve per collection, and the generated model module holding the
 * SHA-256 of report.json's bytes. A missing folder, reports without a usable question, or a bad α are
 * {@link CliError}s with exit code 2.
 */
export async function calibrate(options: CalibrateOptions): Promise<CalibrateResult> {
  if (!(options.alpha > 0 && options.alpha < 1))
    throw new UsageError(`--alpha must be a number between 0 and 1 (exclusive), not ${options.alpha}`);
  if (!existsSync(options.reports) || !statSync(options.reports).isDirectory())
    throw new CliError(`No reports directory ${options.reports}.`, {
      exitCode: 2,
      hint: 'Write the reports with saksi eval all, or pass --reports DIR.',
    });
  const reports: unknown[] = [];
  const sets: string[] = [];
  for (const set of CALIBRATION_SETS) {
    const file = path.join(options.reports, `${set}.json`);
    if (!existsSync(file)) continue;
    try {
      reports.push(JSON.parse(await readFile(file, 'utf8')));
    } catch {
      throw new CliError(`${file} is not a JSON evaluation report.`, { exitCode: 2 });
    }
    sets.push(set);
  }
  const { rows, withoutFeatures, incompleteFeatures } = calibrationRowsFromReports(reports);
  // Refusals are rows without features (never released); with no other row there is nothing to fit.
  const featureless = rows.filter((row) => Object.keys(row.features).length === 0).length;
  if (featureless === rows.length)
    throw new CliError(
      sets.length === 0
        ? `No usable rows: ${options.reports} holds no report of ${CALIBRATION_SETS.join(', ')}.`
        : `No usable rows: none of the questions of ${sets.join(', ')} has features (${plural(withoutFeatures + featureless, 'question')} without).`,
      {
        exitCode: 2,
        hint: 'Write the reports with saksi eval all from an engine whose answers carry the answer check.',
      },
    );
  let report: CalibrationReport;
  try {
    report = calibrationReport({
      rows,
      alpha: options.alpha,
      skipped: { 'without features': withoutFeatures, 'with incomplete features': incompleteFeatures },
    });
  } catch (error) {
    if (error instanceof CalibrationError) throw new CliError(error.message, { exitCode: 2 });
    throw error;
  }
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const sha256 = calibrationSha256(json);
  await mkdir(options.out, { recursive: true });
  await writeFile(path.join(options.out, 'report.json'), json);
  await writeFile(path.join(options.out, 'report.md'), calibrationMarkdown(report));
  if (report.folds.length > 0)
    await writeFile(
      path.join(options.out, 'risk-coverage.svg'),
      riskCoverageSvg(
        report.groups.map((group) => ({
          name: group,
          points: riskCoverageCurve(
            report.rows
              .filter((row) => row.group === group)
              .map((row) => ({
                score: row.out_of_fold_score ?? 0,
                loss: row.loss,
                answerable: row.answerable,
                releasable: row.releasable,
              })),
          ),
        })),
        {
          alpha: options.alpha,
          title: 'Out-of-fold risk–coverage of the calibrated answer check, per collection',
        },
      ),
    );
  await mkdir(path.dirname(options.model), { recursive: true });
  await writeFile(options.model, answerCheckModelSource(report, sha256));
  return { report, sha256, sets, withoutFeatures, incompleteFeatures };
}

/** One line about a calibration: rows, folds within α, the final λ and the skipped questions. */
function calibrationSummary(result: CalibrateResult, out: string, model: string): string {
  const { report } = result;
  const within = report.folds.filter((fold) => fold.false_assurance <= fold.alpha + 1e-9).length;
  const skipped = result.withoutFeatures + result.incompleteFeatures;
  return [
    `Calibrated the answer check on ${plural(report.rows.length, 'question')} of ${result.sets.join(', ')} (α = ${report.alpha}).`,
    skipped > 0
      ? `Skipped ${plural(result.withoutFeatures, 'question')} without features${result.incompleteFeatures > 0 ? ` and ${result.incompleteFeatures} with incomplete features` : ''}.`
      : 'Skipped no question.',
    report.folds.length > 0
      ? `Leave-one-collection-out: ${within} of ${plural(report.folds.length, 'fold')} within α (${report.folds.map((fold) => `${fold.group} ${fold.false_assurance.toFixed(3)}`).join(', ')}).`
      : 'One collection only: no cross-validation.',
    `Final λ = ${report.final.threshold === null ? '∞ (release nothing)' : report.final.threshold.toFixed(4)}: false assurance ${report.final.false_assurance.toFixed(3)}, coverage ${report.final.coverage.toFixed(3)} (in sample).`,
    `Written to ${out} and ${model} (calibration_sha256 ${result.sha256.slice(0, 12)}…).`,
  ].join('\n');
}

/**
 * `saksi eval calibrate --collection C --set F`: the answer check calibrated on a collection's own
 * labelled questions (eval/collection-calibration.ts), stored in its profile.
 */
async function runCollectionCalibrate(values: OptionValues, io: Io, collection: string): Promise<number> {
  const setFile = stringOption(values, 'set');
  if (!setFile) throw new UsageError('saksi eval calibrate --collection needs --set <questions.jsonl>');
  const alpha = stringOption(values, 'alpha') === undefined ? undefined : alphaFrom(values);
  let text: string;
  try {
    text = await readFile(path.resolve(io.cwd, setFile), 'utf8');
  } catch {
    throw new CliError(`cannot read ${setFile}`, { exitCode: 2 });
  }
  let questions: ReturnType<typeof parseCalibrationQuestions>;
  try {
    questions = parseCalibrationQuestions(text);
  } catch (error) {
    if (isEngineError(error)) throw new CliError(`${setFile}: ${error.message}`, { exitCode: 2 });
    throw error;
  }
  const dataDir = stringOption(values, 'data-dir');
  const engine = await openEngine(
    configFrom(io, {
      ...(dataDir ? { SAKSI_DATA_DIR: path.resolve(io.cwd, dataDir) } : {}),
      // Each question is answered afresh: a cached answer carries the threshold it was checked at.
      SAKSI_ANSWER_CACHE: 'off',
    }),
    { longRunning: true },
  );
  try {
    await engine.collections.get(collection);
    io.stderr.write(`Asking ${plural(questions.length, 'question')} of ${collection}…\n`);
    const summary = await calibrateCollection(engine, collection, questions, {
      ...(alpha !== undefined ? { alpha } : {}),
      onProgress: (done, total) => {
        if (done % 10 === 0 || done === total) io.stderr.write(`  ${done} of ${total}\n`);
      },
    });
    if (flag(values, 'json')) {
      const { calibration: _points, ...rest } = summary;
      io.stdout.write(`${JSON.stringify(rest, null, 2)}\n`);
    } else io.stdout.write(`${collectionCalibrationSummary(collection, summary)}\n`);
    return 0;
  } catch (error) {
    if (isEngineError(error)) throw new CliError(error.message, { exitCode: 2 });
    throw error;
  } finally {
    await engine.close();
  }
}

function collectionCalibrationSummary(collection: string, summary: CalibrationSummary): string {
  const nothing = summary.released === 0;
  return [
    `Calibrated ${collection} on ${plural(summary.questions, 'question')} (${summary.answerable} answerable).`,
    nothing
      ? `At α = ${summary.alpha}, no threshold keeps the risk: nothing is released as an answer (related passages are still shown). More questions, or a larger α (answer_risk), release more.`
      : `At α = ${summary.alpha}, answers are released from a check score of ${summary.threshold.toFixed(3)}: ${summary.released} of these questions would be released, ${summary.releasedWrong} of them wrongly.`,
    `Stored in the collection's profile (calibration SHA-256 ${summary.sha256.slice(0, 12)}…); certificates record it. Calibrate again after the documents or Saksi change.`,
  ].join('\n');
}

async function runCalibrate(values: OptionValues, io: Io): Promise<number> {
  const collection = stringOption(values, 'collection');
  if (collection !== undefined) return runCollectionCalibrate(values, io, collection);
  const alpha = alphaFrom(values);
  const reports = path.resolve(io.cwd, stringOption(values, 'reports') ?? 'eval/reports');
  const out = path.resolve(io.cwd, stringOption(values, 'out') ?? 'eval/calibration');
  const model = path.resolve(
    io.cwd,
    stringOption(values, 'model') ?? path.join(repositoryRoot(), ANSWER_CHECK_MODEL_FILE),
  );
  const result = await calibrate({ reports, alpha, out, model });
  io.stdout.write(
    flag(values, 'json')
      ? `${JSON.stringify({ folds: result.report.folds, final: result.report.final, sha256: result.sha256, skipped: result.report.skipped }, null, 2)}\n`
      : `${calibrationSummary(result, out, model)}\n`,
  );
  return 0;
}

/** `--llm provider:model [--llm-base-url URL]`: answer with that model (its key from SAKSI_LLM_API_KEY). */
function llmOverrides(values: OptionValues): Record<string, string | undefined> {
  const llm = stringOption(values, 'llm');
  const baseUrl = stringOption(values, 'llm-base-url');
  if (baseUrl && !llm) throw new UsageError('--llm-base-url needs --llm provider:model');
  return { ...(llm ? { SAKSI_LLM: llm } : {}), ...(baseUrl ? { SAKSI_LLM_BASE_URL: baseUrl } : {}) };
}

async function runAll(values: OptionValues, io: Io, say: (text: string) => void): Promise<number> {
  const started = performance.now();
  const out = path.resolve(io.cwd, stringOption(values, 'out') ?? 'eval/reports');
  const directory = setsDirectory(values, io);
  const squadSample = Number(stringOption(values, 'squad-sample') ?? DEFAULT_SQUAD_SAMPLE);
  if (!Number.isSafeInteger(squadSample) || squadSample < 0)
    throw new UsageError('--squad-sample is a number of questions (0: all 6,078)');
  const facqaSample = Number(stringOption(values, 'facqa-sample') ?? DEFAULT_FACQA_SAMPLE);
  if (!Number.isSafeInteger(facqaSample) || facqaSample < 0)
    throw new UsageError('--facqa-sample is a number of questions (0: all 311)');
  const alpha = alphaFrom(values);
  const calibrationOut = path.resolve(
    io.cwd,
    stringOption(values, 'calibration-out') ?? path.join(path.dirname(out), 'calibration'),
  );
  const model = path.resolve(
    io.cwd,
    stringOption(values, 'model') ?? path.join(repositoryRoot(), ANSWER_CHECK_MODEL_FILE),
  );
  // Each set with the questions its answers run asks: every question of the JSONL sets, a sample of
  // FacQA's (its gold spans), and the SQuAD 2.0 questions already sampled when loaded.
  const runs: { set: EvalSet; answers: EvalSet | undefined }[] = (
    await Promise.all(ALL_SETS.map((name) => loadSet(path.join(directory, `${name}.jsonl`))))
  ).map((set) => ({ set, answers: set }));
  const facqa = await loadSet(path.join(directory, 'facqa-id/derived-beir-test'));
  runs.push({ set: facqa, answers: facqa.answers ? sampleAnswerable(facqa, facqaSample) : undefined });
  try {
    const squad = await loadSquadSet(path.join(directory, 'squad2-dev/dev-v2.0.json'), squadSample);
    runs.push({ set: squad, answers: squad });
  } catch (error) {
    if (isEngineError(error)) throw new CliError(error.message, { exitCode: 2 });
    throw error;
  }
  const crossSets = await loadCross(values, io);
  runs.push(...crossSets.map((cross) => ({ set: cross.set, answers: cross.set })));
  const { engine, done } = await freshDemoEngine(io, say);
  const retrieval: RetrievalReport[] = [];
  const answers: AnswersReport[] = [];
  try {
    await ingestCrossSets(engine, crossSets, say);
    await mkdir(out, { recursive: true });
    for (const { set, answers: answerSet } of runs) {
      if (set.kind === 'beir') {
        const ingestStart = performance.now();
        const count = await ingestBeirCorpus(engine, set);
        say(
          `Ingested ${plural(count, `${set.name} passage`)} in ${((performance.now() - ingestStart) / 1000).toFixed(1)} s.`,
        );
      }
      const setRetrieval: RetrievalReport[] = [];
      if (set.kind !== 'selection') {
        for (const config of RETRIEVAL_CONFIGS) {
          const report = await evaluateRetrieval(engine, set, config);
          say(`${set.name} ${config}: Recall@5 ${report.metrics['recall@5'].toFixed(3)} (${report.ms} ms)`);
          setRetrieval.push(report);
        }
      }
      const setAnswers = answerSet ? await evaluateAnswers(engine, answerSet) : undefined;
      if (setAnswers) say(`${set.name} answers: ${JSON.stringify(setAnswers.metrics)} (${setAnswers.ms} ms)`);
      retrieval.push(...setRetrieval);
      if (setAnswers) answers.push(setAnswers);
      await writeSetReports(out, set, setRetrieval, setAnswers);
    }
  } finally {
    await done();
  }
  const targets = checkTargets(retrieval, answers);
  await writeFile(path.join(out, 'retrieval.svg'), recallChartSvg(retrieval));
  await writeFile(
    path.join(out, 'risk-coverage.svg'),
    riskCoverageSvg(
      answers.map((report) => ({
        name: report.set,
        points: riskCoverageCurve(report.questions.map(releaseRowOf)),
      })),
      { alpha },
    ),
  );
  // The answer check calibrated on the reports just written; reports without the check's features
  // (an engine without it) leave the calibration as it was.
  let calibration: string;
  try {
    calibration = calibrationSummary(
      await calibrate({ reports: out, alpha, out: calibrationOut, model }),
      calibrationOut,
      model,
    );
  } catch (error) {
    if (!(error instanceof CliError) || !error.message.startsWith('No usable rows')) throw error;
    calibration = `Calibration skipped: ${error.message}`;
  }
  say(calibration);
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  await writeFile(
    path.join(out, 'README.md'),
    reportsReadme({
      seconds,
      targets: targetsTable(targets),
      retrieval,
      answers,
      facqaSample,
      squadSample,
      alpha,
      cross:
        crossSets.length === 0
          ? undefined
          : crossCorpusTable(
              crossCorpusComparison(
                retrieval,
                answers,
                crossSets.map((cross) => cross.set),
              ),
            ),
    }),
  );
  if (flag(values, 'json')) io.stdout.write(`${JSON.stringify({ retrieval, answers, targets }, null, 2)}\n`);
  else io.stdout.write(`${targetsTable(targets)}\n\nReports written to ${out} in ${seconds} s.\n`);
  return 0;
}

/** eval/reports/README.md: how the figures were made, the targets, and the retrieval and answer tables. */
function reportsReadme(run: {
  seconds: string;
  targets: string;
  retrieval: readonly RetrievalReport[];
  answers: readonly AnswersReport[];
  facqaSample: number;
  squadSample: number;
  alpha: number;
  /** The dev and cross-corpus table, when the run had cross-corpus sets. */
  cross: string | undefined;
}): string {
  const domains = TARGET_DOMAINS.map(
    (domain) =>
      `${domain.name} (${domain.sets.join(' + ')}; must_mention ≥ ${domain.mustMention.toFixed(2)})`,
  ).join(', ');
  return `${[
    '# Evaluation reports',
    '',
    `Written by \`saksi eval all\` (${new Date().toISOString().slice(0, 10)}, ${run.seconds} s) on the demo corpora with the offline defaults (hash embedding, no language model). Configurations: \`lexical\` and \`vector\` run one arm alone, \`hybrid\` fuses both, \`hybrid+rewrite\` adds the dictionary rewrites (the default). Retrieval counts the answerable questions, top 10 per question. Answers are asked in the default configuration. How each figure is computed: [docs/evaluation.md](../../docs/evaluation.md).`,
    '',
    "Relevance: the Pasal (traffic law; its body or its elucidation), the document and Pasal (budgets: `documents` × `relevant_pasal_by_doc`; a row without Pasal counts the document), the file (docs: a stored path matches when one is a path-suffix of the other at a `/`; the heading-level figure is in each docs set's report), the passage (facqa-id, squad2-dev).",
    '',
    'Answers: a claim is supported when it is rendered (`render.rendered`), labelled `entailed`, and its evidence comes from a relevant item; citation precision = supported claims / claims of the answers to answerable questions; citation recall = answerable questions with at least one supported claim. must_mention hit rate = phrases found in the answer / all phrases of answerable questions — a figure-only phrase matches an amount of the answer under `amountsMatch` of @saksi/proof (so `Rp222,5 triliun` matches `Rp222.506.897.630.000,00`), any other phrase as text after number normalization (`Rp`, thousands dots, `,00` dropped); "any" = questions with at least one phrase found. A refusal is an answer whose certificate says `refused` (or, from an older certificate, `found: false`); an answer whose outcome is `related` (related passages, not a confirmed answer) counts as refused in these figures and in the targets. EM, F1 and ROUGE-L compare the answer text (citation markers removed; a refusal scores 0) with the gold answers — SQuAD 2.0 and FacQA answer spans, a budget row\'s `answer` — the best gold answer per question, after SQuAD normalization (English) or figure and punctuation normalization (Indonesian). Each set\'s report groups its answers by the intent the engine read from the question.',
    '',
    `facqa-id: retrieval on all 311 questions, answers on ${run.facqaSample === 0 ? 'all of them' : `every k-th (about ${run.facqaSample})`} against their gold spans. squad2-dev: ${run.squadSample === 0 ? 'all 6,078 questions' : `every k-th of the 6,078 questions (about ${run.squadSample})`}, all 646 paragraphs ingested; its unanswerable questions are written against the same paragraphs on purpose and are not part of the targets.`,
    '',
    '![Recall@5 per set and configuration](retrieval.svg)',
    '',
    `False assurance: questions answered (outcome \`answered\`) while unanswerable or without an expected fact (a \`must_mention\` phrase found, or for a question without phrases a supported claim), over all questions; coverage: answerable questions answered with an expected fact, over answerable questions; related: questions shown related passages, not an answer. The curve releases the answered and related answers whose answer-check score is at least a threshold, for every threshold; the dashed line is α = ${run.alpha}, the false assurance the calibration (eval/calibration) allows.`,
    '',
    '![False assurance against coverage per set, over the answer-check threshold](risk-coverage.svg)',
    '',
    '## Targets',
    '',
    `The targets of the answer-quality work, each met or MISSED with its figure and, after the colon, its parts. Per domain — ${domains} — Recall@5 ≥ ${TARGET_THRESHOLDS['recall@5'].toFixed(2)} and the must_mention hit rate pool the dev and dev2 sets by question; the refusal and citation targets pool the six sets.`,
    '',
    run.targets,
    '',
    ...(run.cross ? ['## Dev and cross-corpus', '', CROSS_EXPLANATION, '', run.cross, ''] : []),
    '## Retrieval',
    '',
    retrievalTable(run.retrieval),
    '',
    '## Answers',
    '',
    answersTable(run.answers),
    '',
  ].join('\n')}`;
}

/**
 * The floors of a baseline file, flattened: Recall@5 per set (`"recall@5": { "lalin-dev": 0.9 }`) and
 * the answer metrics (`"answers": { "lalin-dev citation_precision": 0.7 }`).
 */
export function parseBaseline(text: string, file: string): Record<string, number> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError(`${file} is not JSON.`, { exitCode: 2 });
  }
  const recall = (parsed as { 'recall@5'?: unknown } | null)?.['recall@5'];
  if (typeof recall !== 'object' || recall === null)
    throw new CliError(`${file} has no "recall@5" object.`, { exitCode: 2 });
  const answers = (parsed as { answers?: unknown } | null)?.answers ?? {};
  if (typeof answers !== 'object' || answers === null)
    throw new CliError(`${file}: "answers" must be an object.`, { exitCode: 2 });
  const result: Record<string, number> = {};
  for (const [group, entries] of [
    ['recall@5', recall],
    ['answers', answers],
  ] as const) {
    for (const [key, value] of Object.entries(entries)) {
      if (typeof value !== 'number' || value < 0 || value > 1)
        throw new CliError(`${file}: "${group}"."${key}" must be a number from 0 to 1.`, { exitCode: 2 });
      result[key] = value;
    }
  }
  return result;
}

async function runGate(values: OptionValues, io: Io, say: (text: string) => void): Promise<number> {
  const started = performance.now();
  const baselineFile = path.resolve(io.cwd, stringOption(values, 'baseline') ?? 'eval/baseline.json');
  const write = flag(values, 'write');
  let baseline: Record<string, number> = {};
  if (!write) {
    let text: string;
    try {
      text = await readFile(baselineFile, 'utf8');
    } catch {
      throw new CliError(`Cannot read the baseline ${baselineFile}.`, {
        exitCode: 2,
        hint: 'Create it with saksi eval gate --write --baseline eval/baseline.json.',
      });
    }
    baseline = parseBaseline(text, baselineFile);
  }
  const directory = setsDirectory(values, io);
  const sets = await Promise.all(GATE_SETS.map((name) => loadSet(path.join(directory, `${name}.jsonl`))));
  const { engine, done } = await freshDemoEngine(io, say);
  const current: Record<string, number> = {};
  try {
    for (const set of sets) {
      current[set.name] = (await evaluateRetrieval(engine, set, DEFAULT_CONFIG)).metrics['recall@5'];
      const answers = (await evaluateAnswers(engine, set)).metrics;
      const values: Record<GateAnswerMetric, number | null> = {
        must_mention_hit_rate: answers.must_mention_hit_rate,
        citation_precision: answers.citation_precision,
        refusal_accuracy: answers.refusal_accuracy,
        answered: answers.false_refusal_rate === null ? null : 1 - answers.false_refusal_rate,
        false_assurance: answers.false_assurance,
      };
      for (const metric of GATE_ANSWER_METRICS) {
        const value = values[metric];
        if (value !== null && value !== undefined)
          current[`${set.name} ${metric}`] = Math.round(value * 1e4) / 1e4;
      }
    }
  } finally {
    await done();
  }
  const seconds = Math.round((performance.now() - started) / 1000);
  if (write) {
    await mkdir(path.dirname(baselineFile), { recursive: true });
    await writeFile(
      baselineFile,
      `${JSON.stringify(
        {
          config: DEFAULT_CONFIG,
          tolerance: GATE_TOLERANCE,
          'recall@5': Object.fromEntries(Object.entries(current).filter(([key]) => !key.includes(' '))),
          answers: Object.fromEntries(Object.entries(current).filter(([key]) => key.includes(' '))),
        },
        null,
        2,
      )}\n`,
    );
    io.stdout.write(`Baseline written to ${baselineFile}: ${JSON.stringify(current)} (${seconds} s)\n`);
    return 0;
  }
  const failures = gateFailures(baseline, current, GATE_TOLERANCE, gateMetricDirection);
  if (flag(values, 'json')) {
    io.stdout.write(`${JSON.stringify({ baseline, current, failures, seconds }, null, 2)}\n`);
  } else {
    for (const [set, value] of Object.entries(current)) {
      const expected = baseline[set];
      const failed = failures.some((failure) => failure.set === set);
      io.stdout.write(
        `${failed ? 'FAIL' : 'ok  '} ${set.includes(' ') ? set.replace(' ', ': ') : `${set}: Recall@5`} ${value.toFixed(3)} (baseline ${expected === undefined ? '—' : expected.toFixed(3)})\n`,
      );
    }
    for (const failure of failures.filter((f) => !(f.set in current)))
      io.stdout.write(`FAIL ${failure.set}: not run (baseline ${failure.baseline.toFixed(3)})\n`);
    io.stdout.write(
      failures.length > 0
        ? `${plural(failures.length, 'figure')} moved more than ${GATE_TOLERANCE} the wrong way from the baseline: below it, or above it for false assurance (${seconds} s).\n`
        : `Quality gate passed: Recall@5 and answer metrics (${seconds} s).\n`,
    );
  }
  return failures.length > 0 ? 1 : 0;
}
