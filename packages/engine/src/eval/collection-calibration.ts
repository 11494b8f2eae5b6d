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
import type { InWorkspace } from '../collection-service.js';
import { answerRiskOf, updateCollectionProfile } from '../collections.js';
import type { Engine } from '../engine.js';
import { EngineError } from '../errors.js';
import { mentions } from './metrics.js';
import { checkFeaturesOf, outcomeOf } from './run.js';
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
  const rows: { row: unknown; where: string }[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((line, index) => {
      if (line.trim() === '') return;
      const where = `line ${index + 1}`;
      try {
        rows.push({ row: JSON.parse(line), where });
      } catch {
        throw new EngineError('INVALID_INPUT', `${where}: not a JSON object.`);
      }
    });
  return calibrationQuestions(rows);
}

/** The questions of a calibration given as objects (the API's `questions`), checked as a file's lines are. */
export function calibrationQuestionsOf(rows: readonly unknown[]): EvalQuestion[] {
  return calibrationQuestions(rows.map((row, index) => ({ row, where: `questions[${index}]` })));
}

function calibrationQuestions(rows: readonly { row: unknown; where: string }[]): EvalQuestion[] {
  if (rows.length > MAX_CALIBRATION_QUESTIONS)
    throw new EngineError(
      'INVALID_INPUT',
      `At most ${MAX_CALIBRATION_QUESTIONS} questions can be calibrated on at once.`,
    );
  const questions = rows.map(({ row, where }, index) => calibrationQuestion(row, where, index));
  if (questions.length < MIN_COLLECTION_POINTS)
    throw new EngineError(
      'INVALID_INPUT',
      `A calibration needs at least ${MIN_COLLECTION_POINTS} questions (got ${questions.length}): with fewer, no threshold can hold the risk.`,
    );
  return questions;
}

function calibrationQuestion(row: unknown, where: string, index: number): EvalQuestion {
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
  return {
    id: `q${index + 1}`,
    question: question.trim(),
    answerable,
    relevant: [],
    must_mention: phrases as string[],
  };
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
 * Asks `questions` of collection `name` afresh (not from the answer cache; each answer is certified
 * and logged like any other), keeps each answer's check features and its loss if released (1 when
 * the question is unanswerable or the shown answer mentions none of its phrases), stores them in the
 * collection's profile as `answer_calibration` and returns the threshold they set at `alpha` (the
 * collection's own `answer_risk` unless given). `onProgress` hears of every question asked.
 */
export async function calibrateCollection(
  engine: Engine,
  name: string,
  questions: readonly EvalQuestion[],
  options: InWorkspace & { alpha?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<CalibrationSummary> {
  const workspace = options.workspaceId ? { workspaceId: options.workspaceId } : {};
  const collection = await engine.collections.get(name, workspace);
  const points: CollectionCalibrationPoint[] = [];
  for (const [index, question] of questions.entries()) {
    const result = await engine.ask(collection, { question: question.question }, { fresh: true });
    const features = checkFeaturesOf(result);
    const shown = outcomeOf(result) !== 'refused';
    const holds = question.must_mention.some((phrase) => mentions(result.answer, phrase));
    points.push({
      features: features ?? { hard_fail: 1 },
      loss: question.answerable && shown && holds ? 0 : 1,
      releasable: shown && features !== undefined,
      answerable: question.answerable,
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
  await updateCollectionProfile(
    engine.db,
    name,
    { answer_calibration: { ...calibration, sha256 } },
    collection.workspace_id,
  );
  return calibrationSummary(
    { ...calibration, sha256 },
    options.alpha ?? answerRiskOf(collection) ?? DEFAULT_ALPHA,
  );
}

/** What releasing a collection's own calibration questions at `alpha` gives. */
export function calibrationSummary(
  calibration: CollectionCalibration & { sha256: string },
  alpha: number,
): CalibrationSummary {
  const lambda = thresholdFor(alpha, undefined, calibration);
  const released = releasedAt(calibration, lambda);
  return {
    calibration,
    sha256: calibration.sha256,
    alpha,
    threshold: Number.isFinite(lambda) ? lambda : 1,
    questions: calibration.questions,
    answerable: calibration.points.filter((point) => point.answerable).length,
    released: released.released,
    releasedWrong: released.wrong,
  };
}
