/**
 * Calibrating the answer check on a collection's own questions (docs/evaluation.md, "Calibrating a
 * collection"). The check's model is fitted on the demo collections; on a collection nobody
 * calibrated it releases an answer only at the strictest threshold of every domain it was
 * calibrated on, because the risk guarantee does not carry over to another kind of document. An
 * admin who labels questions of their own collection — each with a phrase a right answer must
 * mention, or marked unanswerable — gets the guarantee back for that collection: the questions are
 * asked, each answer's features and its loss if released are kept in the collection's profile, and
 * from then on answers are released at the λ split-conformal risk control chooses on those points
 * (answer/answer-check.ts, `thresholdFor`). The certificate names the calibration by its SHA-256.
 */
import { canonicalize, sha256Hex } from '@saksi/proof';
import {
  type CollectionCalibration,
  type CollectionCalibrationPoint,
  DEFAULT_ALPHA,
  MIN_COLLECTION_POINTS,
  releasedAt,
  thresholdFor,
} from '../answer/answer-check.js';
import { answerRiskOf, updateCollectionProfile } from '../collections.js';
import type { Engine } from '../engine.js';
import { EngineError } from '../errors.js';
import { evaluateAnswers, lossIfReleased } from './run.js';
import type { EvalQuestion } from './sets.js';

/** The fewest questions a calibration takes. */
export { MIN_COLLECTION_POINTS };

/** At most this many questions are asked for one calibration. */
export const MAX_CALIBRATION_QUESTIONS = 1000;
const MAX_QUESTION_LENGTH = 2000;
const MAX_PHRASES = 20;

/**
 * The questions of a calibration file: one JSON object per line (`question`, `answerable` — default
 * true —, and `must_mention`, the phrases of which a right answer mentions at least one; required for
 * an answerable question), as the evaluation sets write them. A bad line is `INVALID_INPUT` naming it;
 * fewer than {@link MIN_COLLECTION_POINTS} questions cannot set a threshold and are refused too.
 */
export function parseCalibrationQuestions(text: string): EvalQuestion[] {
  const questions: EvalQuestion[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `line ${index + 1}`;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      throw new EngineError('INVALID_INPUT', `${where}: not a JSON object.`);
    }
    if (typeof row !== 'object' || row === null || Array.isArray(row))
      throw new EngineError('INVALID_INPUT', `${where}: not a JSON object.`);
    const { question, answerable = true, must_mention: phrases = [] } = row as Record<string, unknown>;
    if (typeof question !== 'string' || question.trim() === '' || question.length > MAX_QUESTION_LENGTH)
      throw new EngineError(
        'INVALID_INPUT',
        `${where}: "question" must be text of 1 to ${MAX_QUESTION_LENGTH} characters.`,
      );
    if (typeof answerable !== 'boolean')
      throw new EngineError('INVALID_INPUT', `${where}: "answerable" must be true or false.`);
    if (
      !Array.isArray(phrases) ||
      phrases.length > MAX_PHRASES ||
      !phrases.every((phrase) => typeof phrase === 'string' && phrase.trim() !== '')
    )
      throw new EngineError(
        'INVALID_INPUT',
        `${where}: "must_mention" must be a list of at most ${MAX_PHRASES} phrases.`,
      );
    if (answerable && phrases.length === 0)
      throw new EngineError(
        'INVALID_INPUT',
        `${where}: an answerable question needs "must_mention", a phrase a right answer mentions; without one its answer cannot be judged.`,
      );
    questions.push({
      id: `q${questions.length + 1}`,
      question: question.trim(),
      answerable,
      relevant: [],
      must_mention: phrases as string[],
    });
  });
  if (questions.length > MAX_CALIBRATION_QUESTIONS)
    throw new EngineError(
      'INVALID_INPUT',
      `At most ${MAX_CALIBRATION_QUESTIONS} questions can be calibrated on at once.`,
    );
  if (questions.length < MIN_COLLECTION_POINTS)
    throw new EngineError(
      'INVALID_INPUT',
      `A calibration needs at least ${MIN_COLLECTION_POINTS} questions (got ${questions.length}): with fewer, no threshold can hold the risk.`,
    );
  return questions;
}

/** What a calibration found: its record, and what releasing its own questions at α would give. */
export interface CalibrationSummary {
  calibration: CollectionCalibration;
  sha256: string;
  alpha: number;
  /** The release threshold λ chosen on the points (1 when none meets α: nothing is released). */
  threshold: number;
  questions: number;
  answerable: number;
  /** Of the calibration questions, those released at λ, and of them the wrong ones. */
  released: number;
  releasedWrong: number;
}

/**
 * Asks `questions` of collection `name` (answers are not cached; each is certified and logged like any
 * other), keeps each answer's check features and its loss if released, stores them in the
 * collection's profile as `answer_calibration` and returns the threshold they set at `alpha` (the
 * collection's own `answer_risk` unless given). `onProgress` hears of every question asked.
 */
export async function calibrateCollection(
  engine: Engine,
  name: string,
  questions: readonly EvalQuestion[],
  options: { alpha?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<CalibrationSummary> {
  const collection = await engine.collections.get(name);
  const points: CollectionCalibrationPoint[] = [];
  for (const [index, question] of questions.entries()) {
    const report = await evaluateAnswers(
      engine,
      { name: 'calibration', kind: 'docs', collection: name, questions: [question] },
      name,
    );
    const record = report.questions[0]!;
    points.push({
      features: record.features ?? { hard_fail: 1 },
      loss: lossIfReleased(record),
      releasable: record.outcome !== 'refused' && record.features !== undefined,
    });
    options.onProgress?.(index + 1, questions.length);
  }
  const calibration: CollectionCalibration = {
    version: 1,
    calibrated_at: new Date().toISOString(),
    questions: questions.length,
    points,
  };
  const sha256 = sha256Hex(canonicalize(calibration));
  await updateCollectionProfile(engine.db, name, { answer_calibration: { ...calibration, sha256 } });
  const alpha = options.alpha ?? answerRiskOf(collection) ?? DEFAULT_ALPHA;
  const own = { ...calibration, sha256 };
  const lambda = thresholdFor(alpha, name, own);
  const released = releasedAt(own, lambda);
  return {
    calibration,
    sha256,
    alpha,
    threshold: Number.isFinite(lambda) ? lambda : 1,
    questions: questions.length,
    answerable: questions.filter((question) => question.answerable).length,
    released: released.released,
    releasedWrong: released.wrong,
  };
}
