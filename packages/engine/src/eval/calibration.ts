/**
 * Calibrating the answer check (docs/evaluation.md, "Calibrating the answer check"): pure functions
 * over the per-question records of evaluation reports, no engine.
 *
 * - A logistic model over the check's features says how likely an answer is right ({@link fitLogistic},
 *   {@link scoreOf}).
 * - Its release threshold λ is chosen by split-conformal risk control (Angelopoulos et al., "Conformal
 *   Risk Control", 2022) with the loss bounded by B = 1: the loss of a question is 1 when its answer is
 *   released (score ≥ λ) and would be wrong, so the risk is the false assurance over all questions
 *   ({@link conformalThreshold}).
 * - Leave-one-collection-out cross-validation shows how the rule holds on a collection it never saw
 *   ({@link crossValidateByGroup}); {@link calibrationReport} gathers the folds and the final model.
 * - The risk–coverage curve over a score ({@link riskCoverageCurve}) is what `risk-coverage.svg` draws.
 */
import { createHash } from 'node:crypto';
import { type AnswerRecord, type EvalAnswerOutcome, lossIfReleased } from './run.js';

/** Bad calibration input: no usable rows, α outside (0, 1), feature vectors of different lengths. */
export class CalibrationError extends Error {
  override readonly name: string = 'CalibrationError';
}

/** A logistic model: score = σ(bias + Σ weights[i] · x[i]), the features in the model's order. */
export interface LogisticModel {
  weights: number[];
  bias: number;
}

/** One training row: the feature vector and whether the answer is right (1) or wrong (0). */
export interface LogisticRow {
  x: readonly number[];
  y: 0 | 1;
}

/** How {@link fitLogistic} fits. */
export interface LogisticOptions {
  /** The L2 penalty on the weights (not the bias), added to the mean log loss as l2 / 2 · ‖w‖². */
  l2?: number;
  /** Newton steps at most. */
  iterations?: number;
}

/** The default L2 penalty of {@link fitLogistic}: keeps a separable set's weights finite. */
export const DEFAULT_L2 = 0.01;
/** The default number of Newton steps of {@link fitLogistic} (it usually stops far earlier). */
export const DEFAULT_ITERATIONS = 100;
/** A tiny penalty on the bias, so a set whose rows are all right (or all wrong) still converges. */
const BIAS_RIDGE = 1e-6;

/** The logistic function, computed without overflow for large |z|. */
export function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

/** log(1 + e^z) without overflow. */
const softplus = (z: number) => (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z)));

/** bias + Σ weights[i] · x[i], summed in feature order. */
function linear(model: LogisticModel, x: readonly number[]): number {
  let z = model.bias;
  for (let index = 0; index < model.weights.length; index++)
    z += (model.weights[index] ?? 0) * (x[index] ?? 0);
  return z;
}

/**
 * The model's score of a feature vector: σ(bias + Σ weights[i] · x[i]), the sum taken in feature
 * order. This is the reference computation a release threshold is compared with (score ≥ λ).
 */
export function scoreOf(model: LogisticModel, x: readonly number[]): number {
  return sigmoid(linear(model, x));
}

/** Solves `matrix · solution = vector` by Gaussian elimination with partial pivoting (a copy is changed). */
function solve(matrix: readonly (readonly number[])[], vector: readonly number[]): number[] {
  const size = vector.length;
  const rows = matrix.map((row, index) => [...row, vector[index] ?? 0]);
  const at = (row: number, column: number) => rows[row]?.[column] ?? 0;
  for (let column = 0; column < size; column++) {
    let pivot = column;
    for (let row = column + 1; row < size; row++)
      if (Math.abs(at(row, column)) > Math.abs(at(pivot, column))) pivot = row;
    const pivotRow = rows[pivot];
    const current = rows[column];
    if (pivotRow === undefined || current === undefined) continue;
    rows[column] = pivotRow;
    rows[pivot] = current;
    const divisor = at(column, column);
    if (Math.abs(divisor) < 1e-300) continue;
    for (let row = column + 1; row < size; row++) {
      const factor = at(row, column) / divisor;
      if (factor === 0) continue;
      const target = rows[row];
      const source = rows[column];
      if (target === undefined || source === undefined) continue;
      for (let k = column; k <= size; k++) target[k] = (target[k] ?? 0) - factor * (source[k] ?? 0);
    }
  }
  const solution = new Array<number>(size).fill(0);
  for (let row = size - 1; row >= 0; row--) {
    let sum = at(row, size);
    for (let k = row + 1; k < size; k++) sum -= at(row, k) * (solution[k] ?? 0);
    const divisor = at(row, row);
    solution[row] = Math.abs(divisor) < 1e-300 ? 0 : sum / divisor;
  }
  return solution;
}

/**
 * Fits a logistic model by Newton's method (iteratively reweighted least squares) with a backtracking
 * line search, minimizing the mean log loss plus l2 / 2 · ‖w‖² (and a tiny fixed penalty on the bias).
 * `y = 1` means the answer is right. Features are used as given (no scaling); the fit is
 * deterministic, starting from zero weights.
 *
 * @example
 * const model = fitLogistic([{ x: [0.9], y: 1 }, { x: [0.1], y: 0 }]);
 * scoreOf(model, [0.9]) > scoreOf(model, [0.1]); // true
 */
export function fitLogistic(rows: readonly LogisticRow[], options: LogisticOptions = {}): LogisticModel {
  const first = rows[0];
  if (first === undefined) throw new CalibrationError('Cannot fit a model on no rows.');
  const size = first.x.length;
  if (rows.some((row) => row.x.length !== size))
    throw new CalibrationError('Every row needs the same number of features.');
  const l2 = options.l2 ?? DEFAULT_L2;
  const iterations = options.iterations ?? DEFAULT_ITERATIONS;
  if (!(l2 >= 0)) throw new CalibrationError('The L2 penalty must be 0 or more.');
  const n = rows.length;
  // θ = [w_0 … w_{size-1}, bias]; each row's x extended with a 1 for the bias.
  const extended = rows.map((row) => [...row.x, 1]);
  const penalty = (index: number) => (index === size ? BIAS_RIDGE : l2);
  const modelOf = (theta: readonly number[]): LogisticModel => ({
    weights: theta.slice(0, size),
    bias: theta[size] ?? 0,
  });
  const objective = (theta: readonly number[]) => {
    const model = modelOf(theta);
    let loss = 0;
    for (const row of rows) {
      const z = linear(model, row.x);
      loss += softplus(z) - row.y * z;
    }
    let regularization = 0;
    for (const [index, value] of theta.entries()) regularization += (penalty(index) / 2) * value * value;
    return loss / n + regularization;
  };
  let theta = new Array<number>(size + 1).fill(0);
  let current = objective(theta);
  for (let step = 0; step < iterations; step++) {
    const model = modelOf(theta);
    const gradient = theta.map((value, index) => penalty(index) * value);
    const hessian = theta.map((_, row) => theta.map((__, column) => (row === column ? penalty(row) : 0)));
    for (const [index, row] of rows.entries()) {
      const x = extended[index] ?? [];
      const p = sigmoid(linear(model, row.x));
      const weight = p * (1 - p);
      for (let j = 0; j <= size; j++) {
        const xj = x[j] ?? 0;
        gradient[j] = (gradient[j] ?? 0) + ((p - row.y) * xj) / n;
        const hessianRow = hessian[j];
        if (hessianRow === undefined) continue;
        for (let k = 0; k <= size; k++)
          hessianRow[k] = (hessianRow[k] ?? 0) + (weight * xj * (x[k] ?? 0)) / n;
      }
    }
    const direction = solve(hessian, gradient);
    const slope = direction.reduce((sum, value, index) => sum + value * (gradient[index] ?? 0), 0);
    let length = 1;
    let next = theta;
    let value = current;
    // Backtracking (Armijo): halve the Newton step until the objective falls enough.
    while (length > 1e-10) {
      next = theta.map((entry, index) => entry - length * (direction[index] ?? 0));
      value = objective(next);
      if (value <= current - 1e-4 * length * slope) break;
      length /= 2;
    }
    if (length <= 1e-10) break;
    const moved = Math.max(...next.map((entry, index) => Math.abs(entry - (theta[index] ?? 0))));
    theta = next;
    const improvement = current - value;
    current = value;
    if (moved < 1e-10 || improvement < 1e-14) break;
  }
  return modelOf(theta);
}

/** One calibration example for {@link conformalThreshold}: its score, and 1 when releasing it is wrong. */
export interface ConformalExample {
  score: number;
  loss: 0 | 1;
}

/** The threshold {@link conformalThreshold} chose. */
export interface ConformalThreshold {
  /** λ: release when score ≥ λ; `Infinity` releases nothing. */
  threshold: number;
  /** Calibration examples with loss 1 and score ≥ λ. */
  releasedWrong: number;
  /** Calibration examples. */
  n: number;
}

/** Throws unless 0 < α < 1. */
function checkAlpha(alpha: number): void {
  if (!(alpha > 0 && alpha < 1)) throw new CalibrationError(`α must be between 0 and 1, not ${alpha}.`);
}

/**
 * Split-conformal risk control (Angelopoulos et al., "Conformal Risk Control", 2022) with the loss
 * bounded by B = 1: the smallest λ among the candidates — the distinct scores, and `Infinity`
 * (release nothing) — such that (Σ loss_i · [score_i ≥ λ] + 1) / (n + 1) ≤ α. For a new question
 * exchangeable with the calibration examples, the expected loss at λ is then at most α. When even
 * `Infinity` misses the bound (n + 1 < 1 / α: too few examples) it is still returned: nothing can be
 * released safely.
 *
 * @example
 * // 19 examples, α = 0.1: (k + 1) / 20 ≤ 0.1 allows exactly one wrong release.
 * conformalThreshold(examples, 0.1);
 */
export function conformalThreshold(
  calibration: readonly ConformalExample[],
  alpha: number,
): ConformalThreshold {
  checkAlpha(alpha);
  const n = calibration.length;
  const sorted = [...calibration].sort((a, b) => a.score - b.score);
  let wrong = sorted.reduce((sum, example) => sum + example.loss, 0);
  let index = 0;
  while (index < sorted.length) {
    const lambda = sorted[index]?.score ?? Number.POSITIVE_INFINITY;
    // A small epsilon so a bound exactly on α (in floating point) meets it.
    if (wrong + 1 <= alpha * (n + 1) + 1e-9) return { threshold: lambda, releasedWrong: wrong, n };
    // Raise λ past every example of this score.
    while (index < sorted.length && sorted[index]?.score === lambda) {
      wrong -= sorted[index]?.loss ?? 0;
      index++;
    }
  }
  return { threshold: Number.POSITIVE_INFINITY, releasedWrong: 0, n };
}

/** A question as the release rule sees it: its score, whether releasing it is wrong, whether it can be. */
export interface ReleaseRow {
  score: number;
  /** 1 when the answer would be wrong if released (unanswerable, or no expected fact). */
  loss: 0 | 1;
  answerable: boolean;
  /** Whether a threshold can release it: its outcome is `answered` or `related` (not `refused`). */
  releasable: boolean;
}

/** The release rule at one threshold: what it releases, and its false assurance and coverage. */
export interface RiskCoveragePoint {
  /** λ: release when score ≥ λ; `Infinity` releases nothing. */
  threshold: number;
  released: number;
  released_wrong: number;
  released_with_fact: number;
  /** Released and wrong / all questions. */
  false_assurance: number;
  /** Released with an expected fact / answerable questions (0 when there are none). */
  coverage: number;
}

/** A record as the release rule sees it ({@link lossIfReleased}; a refused answer is never released). */
export function releaseRowOf(record: AnswerRecord): ReleaseRow {
  return {
    score: record.check_score,
    loss: lossIfReleased(record),
    answerable: record.answerable,
    releasable: record.outcome !== 'refused',
  };
}

/** What releasing every releasable row with score ≥ `threshold` gives. */
export function riskCoverageAt(rows: readonly ReleaseRow[], threshold: number): RiskCoveragePoint {
  let released = 0;
  let releasedWrong = 0;
  let releasedWithFact = 0;
  for (const row of rows) {
    if (!row.releasable || !(row.score >= threshold)) continue;
    released++;
    if (row.loss === 1) releasedWrong++;
    else if (row.answerable) releasedWithFact++;
  }
  const answerable = rows.filter((row) => row.answerable).length;
  return {
    threshold,
    released,
    released_wrong: releasedWrong,
    released_with_fact: releasedWithFact,
    false_assurance: rows.length === 0 ? 0 : releasedWrong / rows.length,
    coverage: answerable === 0 ? 0 : releasedWithFact / answerable,
  };
}

/**
 * The risk–coverage curve of a score: one point per threshold, from `Infinity` (nothing released)
 * down through every distinct score of the releasable rows, so coverage and false assurance grow
 * along the list.
 */
export function riskCoverageCurve(rows: readonly ReleaseRow[]): RiskCoveragePoint[] {
  const scores = [...new Set(rows.filter((row) => row.releasable).map((row) => row.score))].sort(
    (a, b) => b - a,
  );
  return [Number.POSITIVE_INFINITY, ...scores].map((threshold) => riskCoverageAt(rows, threshold));
}

/** A row of the cross-validation: its group (a collection), its feature vector and its release facts. */
export interface GroupedRow {
  group: string;
  x: readonly number[];
  loss: 0 | 1;
  answerable: boolean;
  releasable: boolean;
}

/** How the model is fitted and the threshold chosen. */
export interface CalibrationOptions extends LogisticOptions {
  /** The false assurance allowed. */
  alpha: number;
}

/** One fold of {@link crossValidateByGroup}: fitted and thresholded without `group`, measured on it. */
export interface CalibrationFold {
  group: string;
  /** Questions of the group. */
  n: number;
  answerable: number;
  alpha: number;
  /** λ chosen on the other groups (`Infinity`: release nothing). */
  threshold: number;
  /** Questions of the other groups the model was fitted and λ chosen on. */
  trained_on: number;
  released: number;
  released_wrong: number;
  /** Released and wrong / questions of the group. */
  false_assurance: number;
  /** Released with an expected fact / answerable questions of the group. */
  coverage: number;
}

/** Fits on the releasable rows (y = 1 when right) and chooses λ on all rows' in-sample scores. */
function fitAndThreshold(
  rows: readonly GroupedRow[],
  options: CalibrationOptions,
): { model: LogisticModel; threshold: ConformalThreshold } {
  const training = rows.filter((row) => row.releasable);
  if (training.length === 0)
    throw new CalibrationError('No answered or related question to fit the answer check on.');
  const model = fitLogistic(
    training.map((row) => ({ x: row.x, y: row.loss === 0 ? 1 : 0 })),
    options,
  );
  return { model, threshold: thresholdFor(model, rows, options.alpha) };
}

/** λ by {@link conformalThreshold}: a row that cannot be released has no loss at any λ. */
function thresholdFor(model: LogisticModel, rows: readonly GroupedRow[], alpha: number): ConformalThreshold {
  return conformalThreshold(
    rows.map((row) => ({ score: scoreOf(model, row.x), loss: row.releasable ? row.loss : 0 })),
    alpha,
  );
}

/**
 * Leave-one-group-out cross-validation of the answer check: for each group (a collection), a model is
 * fitted on the other groups' answered and related questions, λ is chosen by
 * {@link conformalThreshold} on the other groups' scores, and the group's questions are scored and
 * released at λ. Returns one fold per group (in order of first appearance) and every row's
 * out-of-fold score, in the rows' order. Needs two groups or more.
 */
export function crossValidateByGroup(
  rows: readonly GroupedRow[],
  options: CalibrationOptions,
): { folds: CalibrationFold[]; scores: number[] } {
  checkAlpha(options.alpha);
  const groups = [...new Set(rows.map((row) => row.group))];
  if (groups.length < 2)
    throw new CalibrationError(`Cross-validation by group needs two groups or more, not ${groups.length}.`);
  const scores = new Array<number>(rows.length).fill(0);
  const folds: CalibrationFold[] = [];
  for (const group of groups) {
    const others = rows.filter((row) => row.group !== group);
    const { model, threshold } = fitAndThreshold(others, options);
    const held: ReleaseRow[] = [];
    for (const [index, row] of rows.entries()) {
      if (row.group !== group) continue;
      const score = scoreOf(model, row.x);
      scores[index] = score;
      held.push({ score, loss: row.loss, answerable: row.answerable, releasable: row.releasable });
    }
    const point = riskCoverageAt(held, threshold.threshold);
    folds.push({
      group,
      n: held.length,
      answerable: held.filter((row) => row.answerable).length,
      alpha: options.alpha,
      threshold: threshold.threshold,
      trained_on: others.length,
      released: point.released,
      released_wrong: point.released_wrong,
      false_assurance: point.false_assurance,
      coverage: point.coverage,
    });
  }
  return { folds, scores };
}

/** One held-out collection calibrated on half of its own questions and tested on the other half. */
export interface SplitFold {
  group: string;
  n: number;
  alpha: number;
  /** Random halvings averaged. */
  splits: number;
  /** Mean λ chosen on the calibration halves (+∞ halves left out of the mean; `release_nothing` counts them). */
  threshold: number | null;
  release_nothing: number;
  /** Mean released-and-wrong / questions of the test halves. */
  false_assurance: number;
  /** Mean released-with-a-fact / answerable questions of the test halves. */
  coverage: number;
}

/** A deterministic pseudo-random sequence in [0, 1) (a 32-bit LCG), so the report is the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * Split-conformal within each collection, the way the engine releases a calibrated collection's
 * answers: the model is fitted on the other collections only, λ is chosen by
 * {@link conformalThreshold} on a random half of the held-out collection's questions, and the other
 * half is released at that λ. Averaged over `splits` halvings (deterministic), per collection.
 */
export function splitWithinGroups(
  rows: readonly GroupedRow[],
  options: CalibrationOptions & { splits?: number },
): SplitFold[] {
  const splits = options.splits ?? 20;
  const groups = [...new Set(rows.map((row) => row.group))];
  if (groups.length < 2) return [];
  return groups.map((group, groupIndex) => {
    const training = rows.filter((row) => row.group !== group && row.releasable);
    const model = fitLogistic(
      training.map((row) => ({ x: row.x, y: row.loss === 0 ? 1 : 0 })),
      options,
    );
    const held = rows
      .filter((row) => row.group === group)
      .map((row) => ({
        score: row.releasable ? scoreOf(model, row.x) : 0,
        loss: row.loss,
        answerable: row.answerable,
        releasable: row.releasable,
      }));
    const next = random(groupIndex + 1);
    let falseAssurance = 0;
    let coverage = 0;
    let thresholds = 0;
    let finite = 0;
    for (let split = 0; split < splits; split++) {
      const order = held.map((row) => ({ row, key: next() })).sort((a, b) => a.key - b.key);
      const half = Math.floor(order.length / 2);
      const calibration = order.slice(0, half).map(({ row }) => row);
      const test = order.slice(half).map(({ row }) => row);
      const { threshold } = conformalThreshold(
        calibration.map((row) => ({ score: row.score, loss: row.releasable ? row.loss : 0 })),
        options.alpha,
      );
      const point = riskCoverageAt(test, threshold);
      falseAssurance += point.false_assurance;
      coverage += point.coverage;
      if (Number.isFinite(threshold)) {
        thresholds += threshold;
        finite++;
      }
    }
    return {
      group,
      n: held.length,
      alpha: options.alpha,
      splits,
      threshold: finite > 0 ? thresholds / finite : null,
      release_nothing: splits - finite,
      false_assurance: falseAssurance / splits,
      coverage: coverage / splits,
    };
  });
}

/** One question of a calibration: where it is from, the check's features, and its release facts. */
export interface CalibrationRow {
  set: string;
  id: string;
  /** The collection the set is asked against: the cross-validation's group. */
  group: string;
  features: Record<string, number>;
  answerable: boolean;
  outcome: EvalAnswerOutcome;
  /** 1 when the answer would be wrong if released ({@link lossIfReleased}). */
  loss: 0 | 1;
}

/** The method and version the calibration report and the generated model name. */
export const ANSWER_CHECK_METHOD = 'answer-check';
export const ANSWER_CHECK_VERSION = '1';

/** A threshold as JSON: `null` for `Infinity` (release nothing). */
export type JsonThreshold = number | null;
const jsonThreshold = (threshold: number): JsonThreshold => (Number.isFinite(threshold) ? threshold : null);

/** The calibration report: what `saksi eval calibrate` writes to report.json (JSON-serializable). */
export interface CalibrationReport {
  method: typeof ANSWER_CHECK_METHOD;
  version: typeof ANSWER_CHECK_VERSION;
  /** How the model is fitted and λ chosen, in words. */
  model: string;
  rule: string;
  alpha: number;
  l2: number;
  iterations: number;
  /** The feature names, sorted: the order of the weights. */
  features: string[];
  /** The groups (collections), in order of first appearance. */
  groups: string[];
  /** Questions left out, by reason (e.g. no features). */
  skipped: Record<string, number>;
  /**
   * Every question with whether it can be released, its score under the final model (`score`, in
   * sample) and under the model of the fold that held it out (`out_of_fold_score`; null without folds).
   */
  rows: (CalibrationRow & { releasable: boolean; score: number; out_of_fold_score: number | null })[];
  /** One per group; empty with fewer than two groups. */
  folds: (Omit<CalibrationFold, 'threshold'> & { threshold: JsonThreshold })[];
  /** The model fitted on every row, λ chosen on every row, and what it achieves on them (in sample). */
  final: {
    weights: number[];
    bias: number;
    threshold: JsonThreshold;
    n: number;
    answerable: number;
    released: number;
    released_wrong: number;
    false_assurance: number;
    coverage: number;
    /** (released wrong + 1) / (n + 1): the bound the conformal rule holds to α. */
    conformal_bound: number;
  };
  /**
   * Per collection: λ chosen by the same rule on that collection's own questions under the final
   * model (its questions are exchangeable with later ones asked of it, where another collection's are
   * not), and what it achieves on them (in sample). The engine releases at its collection's λ, and
   * at the pooled λ of {@link CalibrationReport.final} on a collection it was not calibrated on.
   */
  collections: (Omit<CalibrationFold, 'threshold' | 'trained_on'> & { threshold: JsonThreshold })[];
  /** {@link splitWithinGroups}: each collection held out of the fit, calibrated and tested on halves of itself. */
  within_collection: SplitFold[];
}

/** Weights and bias rounded to 6 decimals: the model written out is the model scored. */
const round6 = (value: number) => {
  const rounded = Math.round(value * 1e6) / 1e6;
  return Object.is(rounded, -0) ? 0 : rounded;
};

/**
 * The calibration report of `rows`: their feature names (sorted), the leave-one-collection-out folds
 * (with each row's out-of-fold score), and the final model fitted on every row with its λ chosen on
 * every row (its weights rounded to 6 decimals before λ is chosen, so the written model is the one
 * thresholded). Every row needs every feature name.
 */
export function calibrationReport(input: {
  rows: readonly CalibrationRow[];
  alpha: number;
  l2?: number;
  iterations?: number;
  skipped?: Record<string, number>;
}): CalibrationReport {
  checkAlpha(input.alpha);
  if (input.rows.length === 0) throw new CalibrationError('No usable rows: no question has features.');
  // `hard_fail` is no weight of the model: a hard-failed answer is never released (the engine scores it 0).
  const features = [...new Set(input.rows.flatMap((row) => Object.keys(row.features)))]
    .filter((name) => name !== HARD_FAIL)
    .sort();
  const missing = input.rows.find(
    (row) => row.outcome !== 'refused' && features.some((name) => row.features[name] === undefined),
  );
  if (missing)
    throw new CalibrationError(
      `${missing.set} ${missing.id} lacks some of the features ${features.join(', ')}.`,
    );
  const options: CalibrationOptions = {
    alpha: input.alpha,
    l2: input.l2 ?? DEFAULT_L2,
    iterations: input.iterations ?? DEFAULT_ITERATIONS,
  };
  const grouped: GroupedRow[] = input.rows.map((row) => ({
    group: row.group,
    x: features.map((name) => row.features[name] ?? 0),
    loss: row.loss,
    answerable: row.answerable,
    releasable: releasable(row),
  }));
  const groups = [...new Set(input.rows.map((row) => row.group))];
  const validation = groups.length >= 2 ? crossValidateByGroup(grouped, options) : undefined;
  const fitted = fitAndThreshold(grouped, options).model;
  const model: LogisticModel = { weights: fitted.weights.map(round6), bias: round6(fitted.bias) };
  const threshold = thresholdFor(model, grouped, input.alpha);
  const finalScores = grouped.map((row) => scoreOf(model, row.x));
  const achieved = riskCoverageAt(
    grouped.map((row, index) => ({
      score: finalScores[index] ?? 0,
      loss: row.loss,
      answerable: row.answerable,
      releasable: row.releasable,
    })),
    threshold.threshold,
  );
  const collections = groups.map((group) => {
    const held = grouped.flatMap((row, index) =>
      row.group === group
        ? [
            {
              score: finalScores[index] ?? 0,
              loss: row.loss,
              answerable: row.answerable,
              releasable: row.releasable,
            },
          ]
        : [],
    );
    const own = conformalThreshold(
      held.map((row) => ({ score: row.score, loss: row.releasable ? row.loss : 0 })),
      input.alpha,
    );
    const point = riskCoverageAt(held, own.threshold);
    return {
      group,
      n: held.length,
      answerable: held.filter((row) => row.answerable).length,
      alpha: input.alpha,
      threshold: jsonThreshold(own.threshold),
      released: point.released,
      released_wrong: point.released_wrong,
      false_assurance: point.false_assurance,
      coverage: point.coverage,
    };
  });
  return {
    method: ANSWER_CHECK_METHOD,
    version: ANSWER_CHECK_VERSION,
    model:
      'logistic regression on the answer check features (Newton, mean log loss + l2 / 2 · |w|², features as given), fitted on the answered and related questions; y = 1 when the answer holds an expected fact',
    rule: 'split-conformal risk control (Angelopoulos et al., "Conformal Risk Control", 2022), loss bound B = 1: the smallest λ among the distinct scores and +∞ with (released wrong + 1) / (n + 1) ≤ α; release when score ≥ λ',
    alpha: input.alpha,
    l2: options.l2 ?? DEFAULT_L2,
    iterations: options.iterations ?? DEFAULT_ITERATIONS,
    features,
    groups,
    skipped: input.skipped ?? {},
    rows: input.rows.map((row, index) => ({
      ...row,
      releasable: releasable(row),
      score: finalScores[index] ?? 0,
      out_of_fold_score: validation ? (validation.scores[index] ?? null) : null,
    })),
    folds: (validation?.folds ?? []).map((fold) => ({ ...fold, threshold: jsonThreshold(fold.threshold) })),
    final: {
      weights: model.weights,
      bias: model.bias,
      threshold: jsonThreshold(threshold.threshold),
      n: grouped.length,
      answerable: grouped.filter((row) => row.answerable).length,
      released: achieved.released,
      released_wrong: achieved.released_wrong,
      false_assurance: achieved.false_assurance,
      coverage: achieved.coverage,
      conformal_bound: (threshold.releasedWrong + 1) / (threshold.n + 1),
    },
    collections,
    within_collection: splitWithinGroups(grouped, options),
  };
}

/** The SHA-256 (hex) of the exact text written as report.json, UTF-8 encoded. */
export function calibrationSha256(reportJson: string): string {
  return createHash('sha256').update(reportJson, 'utf8').digest('hex');
}

/** The sets whose reports `saksi eval calibrate` reads, when they exist. */
export const CALIBRATION_SETS = [
  'lalin-dev',
  'lalin-dev2',
  'lalin-spec-cases',
  'apbn-dev',
  'apbn-dev2',
  'redux-dev',
  'redux-dev2',
  'redux-selection-dev',
  'redux-selection-dev2',
] as const;

const isOutcome = (value: unknown): value is EvalAnswerOutcome =>
  value === 'answered' || value === 'related' || value === 'refused';

/** The calibration rows of evaluation reports, and how many questions were left out and why. */
export interface CalibrationRows {
  rows: CalibrationRow[];
  /** Questions whose record has no `features`. */
  withoutFeatures: number;
  /** Questions whose `features` lack a name of the feature set most questions have. */
  incompleteFeatures: number;
}

/** The feature that marks a hard fail of the answer check (a constraint unmet, no value of the asked type). */
export const HARD_FAIL = 'hard_fail';

/** Whether a row's answer could be released at some λ: not refused, not a hard fail. */
function releasable(row: Pick<CalibrationRow, 'outcome' | 'features'>): boolean {
  return row.outcome !== 'refused' && row.features[HARD_FAIL] !== 1;
}

/**
 * The calibration rows of evaluation reports as `saksi eval all` writes them (`{ set, collection,
 * answers: { questions } }`), read defensively: each question with `features` becomes a row grouped by
 * the report's `collection`, its loss from {@link lossIfReleased}. A record without `outcome` (an older
 * report) is `refused` when `refused` is true, else `answered`. The feature names are the set most
 * questions have; questions without features, or lacking one of those names, are left out and counted
 * (names beyond them are dropped).
 */
export function calibrationRowsFromReports(reports: readonly unknown[]): CalibrationRows {
  const candidates: CalibrationRow[] = [];
  let withoutFeatures = 0;
  for (const report of reports) {
    if (typeof report !== 'object' || report === null) continue;
    const { set, collection, answers } = report as { set?: unknown; collection?: unknown; answers?: unknown };
    const questions =
      typeof answers === 'object' && answers !== null
        ? (answers as { questions?: unknown }).questions
        : undefined;
    if (typeof set !== 'string' || typeof collection !== 'string' || !Array.isArray(questions)) continue;
    for (const question of questions as unknown[]) {
      if (typeof question !== 'object' || question === null) continue;
      const record = question as Record<string, unknown>;
      const features = record['features'];
      const entries =
        typeof features === 'object' && features !== null
          ? Object.entries(features).filter(
              (entry): entry is [string, number] => typeof entry[1] === 'number' && Number.isFinite(entry[1]),
            )
          : [];
      const outcome: EvalAnswerOutcome = isOutcome(record['outcome'])
        ? record['outcome']
        : record['refused'] === true
          ? 'refused'
          : 'answered';
      // A refusal has no features: it is a question never released at any λ (loss 0), still counted
      // in n, as false assurance is over all questions.
      if (entries.length === 0 && outcome !== 'refused') {
        withoutFeatures++;
        continue;
      }
      const answerable = record['answerable'] === true;
      const mustMention = Array.isArray(record['must_mention'])
        ? (record['must_mention'] as unknown[]).map((phrase) => ({
            phrase: String((phrase as { phrase?: unknown } | null)?.phrase ?? ''),
            found: (phrase as { found?: unknown } | null)?.found === true,
          }))
        : [];
      const supported = typeof record['supported'] === 'number' ? record['supported'] : 0;
      const factIfReleased = record['fact_if_released'];
      candidates.push({
        set,
        id: typeof record['id'] === 'string' ? record['id'] : `${set}:${candidates.length}`,
        group: collection,
        features: Object.fromEntries(entries),
        answerable,
        outcome,
        loss: lossIfReleased({
          answerable,
          outcome,
          must_mention: mustMention,
          supported,
          ...(typeof factIfReleased === 'boolean' ? { fact_if_released: factIfReleased } : {}),
        }),
      });
    }
  }
  // The feature names are the set most questions have (ties: the larger set, then the first in
  // order); a question lacking one of them is left out, names beyond them are dropped.
  const counts = new Map<string, number>();
  for (const row of candidates) {
    const key = JSON.stringify(Object.keys(row.features).sort());
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const [chosen] = [...counts.entries()].sort(
    ([a, countA], [b, countB]) => countB - countA || b.length - a.length || (a < b ? -1 : a > b ? 1 : 0),
  );
  const names: string[] = chosen ? (JSON.parse(chosen[0]) as string[]) : [];
  const rows = candidates
    .filter(
      (row) =>
        (row.outcome === 'refused' && Object.keys(row.features).length === 0) ||
        names.every((name) => row.features[name] !== undefined),
    )
    .map((row) => ({
      ...row,
      features: Object.fromEntries(names.map((name) => [name, row.features[name] ?? 0])),
    }));
  return { rows, withoutFeatures, incompleteFeatures: candidates.length - rows.length };
}

/** A number as TypeScript source: `Number.POSITIVE_INFINITY` for `Infinity`. */
const numberSource = (value: number) =>
  Number.isFinite(value) ? JSON.stringify(value) : 'Number.POSITIVE_INFINITY';

/**
 * The TypeScript module `packages/engine/src/answer/answer-check-model.ts` that `saksi eval calibrate`
 * writes: `ANSWER_CHECK_MODEL`, the final model of `report` with its threshold, α, the SHA-256 of
 * the report.json it came from, and the calibration points (score, loss) λ was chosen on, from which
 * the threshold for another α follows. Formatted as Biome formats it.
 */
export function answerCheckModelSource(report: CalibrationReport, sha256: string): string {
  const quoted = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const threshold = report.final.threshold === null ? Number.POSITIVE_INFINITY : report.final.threshold;
  return `${[
    '/**',
    " * The answer check's calibrated model: a logistic model over the check's features and its release",
    ' * threshold, chosen by split-conformal risk control so that false assurance stays at most `alpha`',
    ' * (docs/evaluation.md, "Calibrating the answer check"). Generated by `saksi eval calibrate` from',
    ' * eval/calibration/report.json, whose SHA-256 is `calibration_sha256`; do not edit it, run the',
    ' * command again. score = σ(bias + Σ weights[i] · features[i]); release when score ≥ threshold.',
    ' * `calibration` holds the (score, loss, collection) points the threshold was chosen on: the threshold',
    ' * for another α, or for one calibrated collection on its own points, is the smallest λ among their',
    ' * scores with (released wrong + 1) / (n + 1) ≤ α.',
    ' */',
    'export const ANSWER_CHECK_MODEL = {',
    `  method: ${quoted(report.method)},`,
    `  version: ${quoted(report.version)},`,
    arraySource('features', report.features.map(quoted), false),
    arraySource('weights', report.final.weights.map(numberSource), true),
    `  bias: ${numberSource(report.final.bias)},`,
    `  threshold: ${numberSource(threshold)},`,
    `  alpha: ${numberSource(report.alpha)},`,
    `  calibration_sha256: ${quoted(sha256)},`,
    calibrationPointsSource(report),
    '} as const;',
  ].join('\n')}\n`;
}

/**
 * `  calibration: [[score, loss, collection], …]`: the points λ was chosen
 * on — each question's final score and its loss if released (0 for one that cannot be released) — so
 * the threshold for another α is chosen by the same rule. A list of pairs is one pair per line.
 */
function calibrationPointsSource(report: CalibrationReport): string {
  const type = 'readonly (readonly [number, 0 | 1, string])[]';
  const points = report.rows.map(
    (row) =>
      `[${numberSource(row.score)}, ${row.releasable ? row.loss : 0}, '${row.group.replace(/[\\']/g, '')}']`,
  );
  if (points.length === 0) return `  calibration: [] as ${type},`;
  if (points.length === 1) {
    const flat = `  calibration: [${points[0]}] as ${type},`;
    if (flat.length <= LINE_WIDTH) return flat;
  }
  return [`  calibration: [`, ...points.map((point) => `    ${point},`), `  ] as ${type},`].join('\n');
}

/** The source line width the generated model is laid out in (Biome's, biome.json). */
const LINE_WIDTH = 110;

/**
 * `  key: [a, b],` laid out as Biome lays out an array property: on one line when it fits; otherwise
 * one item per line, or, for numbers, as many per line as fit.
 */
function arraySource(key: string, items: readonly string[], fill: boolean): string {
  const flat = `  ${key}: [${items.join(', ')}],`;
  if (flat.length <= LINE_WIDTH) return flat;
  const lines: string[] = [];
  if (!fill) for (const item of items) lines.push(`    ${item},`);
  else {
    let line = '';
    for (const item of items) {
      const next = line === '' ? `    ${item},` : `${line} ${item},`;
      if (line !== '' && next.length > LINE_WIDTH) {
        lines.push(line);
        line = `    ${item},`;
      } else line = next;
    }
    if (line !== '') lines.push(line);
  }
  return [`  ${key}: [`, ...lines, '  ],'].join('\n');
}
