/**
 * The answer check (docs/engine.md, "The answer check"; docs/certificate.md, "The answer check"):
 * does this answer state what the question asks for? It decides between the three outcomes a
 * reader sees — *answers your question*, *related passages (not a confirmed answer)* and *not
 * answered* — from features that hold on any collection, not rules for one set of documents:
 *
 * - the deterministic reading the proof package shares with every verifier (`readAnswerCheck`): the
 *   asked type (an amount, a duration, an age, a date, a definition, …) must be stated as a value of
 *   that type, and every constraint the question names (a year, a numbered regulation, a version, a
 *   numbered section) must be met by the evidence — either failing is a hard fail, not a lower score;
 * - how much of what was asked the evidence covers: the question's own content words (not its
 *   rewrites), and the worst-covered part of a question with several parts;
 * - the form of the quoted text: a claim that opens with a pronoun or "this"/"them" without what it
 *   refers to, a whole table or code block for a question that asks for neither, a sentence in capitals;
 * - where the evidence ranks in retrieval, and the lexical relevance of the whole answer.
 *
 * The features are combined by a logistic model fitted by collection and released at a threshold
 * chosen by split-conformal risk control, so that among released answers the share that is wrong
 * stays at most α on the calibration questions (`saksi eval calibrate`, docs/evaluation.md).
 */
import { type AnswerCheckReading, type AskedRule, OTHER_ASKED_TYPE, readAnswerCheck } from '@saksi/proof';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { questionPieces } from '../language/question-kinds.js';
import type { RetrievedChunk } from '../retrieve/retrieve.js';
import { ANSWER_CHECK_MODEL } from './answer-check-model.js';
import type { ComposedClaim } from './compose.js';
import { distinctiveText } from './relevance.js';
import { contentWords, type Language } from './stem.js';

export const ANSWER_CHECK_METHOD = { id: ANSWER_CHECK_MODEL.method, version: ANSWER_CHECK_MODEL.version };
/** The false-assurance risk the release threshold is calibrated for, unless a collection sets its own. */
export const DEFAULT_ALPHA = ANSWER_CHECK_MODEL.alpha;

/** The features of one answer, by name; every value is in [0, 1]. */
export type AnswerFeatures = Record<string, number>;

export interface AnswerCheck {
  /** The probability-like score of the calibrated model; 0 on a hard fail. */
  score: number;
  /** The release threshold for `alpha`. */
  threshold: number;
  alpha: number;
  /** Whether the answer is released as answering the question. */
  answers: boolean;
  /** A claim states a figure OCR misread: it is not released, and the reader is told why. */
  misread: boolean;
  features: AnswerFeatures;
  reading: AnswerCheckReading;
  /** The SHA-256 of the calibration the threshold was chosen on: the model's, or the collection's own. */
  calibration_sha256: string;
}

const ASKED_RULES: readonly AskedRule[] = SAKSI_VOCABULARY.asked ?? [];

/** Words a claim may open with that stand for something said before it. */
const ANAPHORA =
  /^(?:it|its|this|that|these|those|they|them|their|such|he|she|ini|itu|tersebut|hal ini|hal tersebut|mereka|beliau|ia|dia|demikian)\b/iu;
/** Plural pronouns that stand for something named before ("You can use them to …"). */
const BACK_REFERENCE = /\b(?:them|they|these|those|tersebut|mereka)\b/iu;

/** Whether a claim opens with, or soon uses, a word standing for what a sentence before it said. */
function refersBack(statement: string): boolean {
  const text = statement.trim();
  return ANAPHORA.test(text) || BACK_REFERENCE.test(text.split(/\s+/u).slice(0, 6).join(' '));
}

/**
 * A figure OCR misread: a letter read for a digit inside an amount or a grouped number
 * ("Rp655.394.9OO.106.0OO,OO", "2O2O", "Rpl4.800"). Such a figure is never released as a verified
 * answer: its digits say what the scan says, not what the document says.
 */
const MISREAD_FIGURE =
  /(?:rp\.?\s?|\d[.,])[\dOoIl]*[OoIl][\dOoIl]*[.,]\d|\d[.,]\d{0,2}[OoIl]{1,3}(?:[.,]|\b)|rp\.?\s?[OoIl]\d/iu;
/** A year with a letter O for a zero ("2O2O", "2O19"). */
const MISREAD_YEAR = /\b(?=[12][\dOo]{3}\b)(?:2[0Oo]|19)[\dOo]*[Oo][\dOo]*\b|\b2[Oo][\dOo]{2}\b/u;

/** Whether `text` states a figure OCR misread ({@link MISREAD_FIGURE}). */
export function hasMisreadFigure(text: string): boolean {
  return MISREAD_FIGURE.test(text) || MISREAD_YEAR.test(text);
}

/** A question that asks for code, a table or an example: a whole block may answer it. */
const ASKS_FOR_BLOCK =
  /\b(?:code|snippet|example|examples|syntax|import|signature|table|tabel|contoh|kode|daftar|list|rincian)\b/iu;

/** Whether `text` is a table (several rows of cells) or a code block rather than a statement. */
export function isBlock(text: string): boolean {
  const lines = text.split('\n').filter((line) => line.trim().length > 0);
  if (/```|^\s{4}\S/mu.test(text)) return true;
  const rows = lines.filter((line) => (line.match(/\||\t/gu) ?? []).length >= 2).length;
  if (rows >= 3) return true;
  const code = lines.filter((line) =>
    /^\s*(?:import |export |const |let |var |function |return |\}|\{|\/\/|<\/?[A-Za-z])|[;{}]\s*$|=>/u.test(
      line,
    ),
  ).length;
  return lines.length > 0 && code / lines.length >= 0.5;
}

/** The parts of a question that asks several things: split at question marks, ";" and " dan/and " between clauses. */
export function questionParts(question: string, language: Language): string[] {
  const pieces = questionPieces(question).filter(
    (piece) => contentWords(distinctiveText(piece), language).length >= 1,
  );
  return pieces.length > 0 ? pieces : [question];
}

function stems(text: string, language: Language): Set<string> {
  return new Set(contentWords(distinctiveText(text), language));
}

/** The share of `wanted` found in `have` (1 when nothing is wanted). */
function share(wanted: ReadonlySet<string>, have: ReadonlySet<string>): number {
  if (wanted.size === 0) return 1;
  let found = 0;
  for (const item of wanted) if (have.has(item)) found++;
  return found / wanted.size;
}

/** The text a claim offers for coverage: its statement, evidence spans and their citations' headings. */
function claimTexts(claim: ComposedClaim, sources: readonly RetrievedChunk[]): string[] {
  const texts = [claim.statement];
  for (const { sourceIndex, span } of claim.evidence) {
    const citation = sources[sourceIndex]?.citation;
    texts.push(span.text);
    if (citation) texts.push(citation.label ?? '', ...(citation.section_path ?? []));
  }
  return texts;
}

/** The claims in the shape the proof package reads (text, spans and citations). */
function readable(claims: readonly ComposedClaim[], sources: readonly RetrievedChunk[]) {
  return claims.map((claim) => ({
    text: claim.statement,
    evidence: claim.evidence.map(({ sourceIndex, span }) => ({
      span: { text: span.text },
      citation: sources[sourceIndex]?.citation ?? { document_title: '' },
    })),
  }));
}

/** The answer check's inputs: the question, the claims that would be released and what retrieval found. */
export interface AnswerCheckInput {
  question: string;
  /** What else the question is about (the selected passage of a selection question), for coverage only. */
  context?: string;
  language: Language;
  claims: readonly ComposedClaim[];
  sources: readonly RetrievedChunk[];
  /** The lexical relevance of all the answer's evidence together (relevance.ts). */
  relevance: number;
  /** Below this lexical relevance the evidence does not cover the question's content: a hard fail. */
  relevanceThreshold?: number;
  /** The risk to release at (default {@link DEFAULT_ALPHA}). */
  alpha?: number;
}

/** The features of an answer (see the module comment). Pure. */
export function answerFeatures(input: AnswerCheckInput): {
  features: AnswerFeatures;
  reading: AnswerCheckReading;
} {
  const { question, language, claims, sources } = input;
  // The proof package's reading works on the certificate's shapes; the evidence's citation is enough.
  const reading = readAnswerCheck(question, readable(claims, sources) as never, ASKED_RULES);
  const evidence = new Set(
    claims.flatMap((claim) => claimTexts(claim, sources)).flatMap((text) => [...stems(text, language)]),
  );
  const about = input.context ? `${question}\n${input.context.slice(0, 400)}` : question;
  const asked = stems(about, language);
  const parts = questionParts(about, language).map((part) => share(stems(part, language), evidence));
  const first = claims[0];
  const top = sources[0]?.score ?? 0;
  const firstSource = first ? sources[first.evidence[0]?.sourceIndex ?? -1] : undefined;
  const statements = claims.map((claim) => claim.statement);
  const answerChars = statements.join(' ').length;
  const letters = statements.join(' ').replace(/[^\p{L}]/gu, '');
  const capitals = letters.replace(/[^\p{Lu}]/gu, '').length;
  const misread = claims.some((claim) => hasMisreadFigure(claim.statement));
  const typed = ASKED_RULES.some((rule) => rule.type === reading.asked && rule.value !== undefined);
  const features: AnswerFeatures = {
    relevance: clamp(input.relevance),
    coverage: share(asked, evidence),
    coverage_worst_part: parts.length > 0 ? Math.min(...parts) : 0,
    parts: Math.min(parts.length, 4) / 4,
    hard_fail:
      claims.length === 0 ||
      misread ||
      reading.unmet.length > 0 ||
      !reading.value_stated ||
      input.relevance < (input.relevanceThreshold ?? 0)
        ? 1
        : 0,
    constrained: reading.constraints.length > 0 ? 1 : 0,
    typed: typed ? 1 : 0,
    asked_other: reading.asked === OTHER_ASKED_TYPE ? 1 : 0,
    anaphora: first && refersBack(first.statement) ? 1 : 0,
    block: !ASKS_FOR_BLOCK.test(question) && claims.some((claim) => isBlock(claim.statement)) ? 1 : 0,
    capitals: letters.length > 0 && capitals / letters.length > 0.6 ? 1 : 0,
    top_source: first && first.evidence[0]?.sourceIndex === 0 ? 1 : 0,
    source_score: top > 0 && firstSource ? clamp(firstSource.score / top) : 0,
    claims: Math.min(claims.length, 5) / 5,
    answer_length: clamp(Math.log10(1 + answerChars) / 4),
    question_length: Math.min(contentWords(question, language).length, 30) / 30,
  };
  return { features, reading };
}

function clamp(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

/** The calibrated model's score of `features` (unrounded); 0 on a hard fail. */
export function scoreFeatures(features: AnswerFeatures): number {
  if ((features['hard_fail'] ?? 0) >= 1) return 0;
  let sum: number = ANSWER_CHECK_MODEL.bias;
  ANSWER_CHECK_MODEL.features.forEach((name, index) => {
    sum += (ANSWER_CHECK_MODEL.weights[index] ?? 0) * (features[name] ?? 0);
  });
  return 1 / (1 + Math.exp(-sum));
}

/** A collection calibrated on fewer questions than this is released at the pooled threshold. */
export const MIN_COLLECTION_POINTS = 30;

/** One question of a collection's own calibration: its answer's features and its loss if released. */
export interface CollectionCalibrationPoint {
  features: AnswerFeatures;
  /** 1 when the answer would be wrong if released (unanswerable, or no expected fact). */
  loss: 0 | 1;
  /** A refusal is never released, whatever its score. */
  releasable: boolean;
  /** Whether the documents answer the question (an unanswerable one is wrong whenever released). */
  answerable: boolean;
}

/**
 * A collection's own calibration (eval/collection-calibration.ts), kept in its profile as
 * `answer_calibration`; `sha256` is the SHA-256 of the JCS form of the rest, which certificates record.
 */
export interface CollectionCalibration {
  version: 1;
  calibrated_at: string;
  questions: number;
  points: CollectionCalibrationPoint[];
}

/**
 * The (score, loss) points of a collection's calibration under the current model: a refusal scores 0
 * and loses nothing (it is never released), as in the model's own calibration.
 */
function ownPoints(calibration: CollectionCalibration): [number, number, string][] {
  return calibration.points.map((point) =>
    releasable(point) ? [scoreFeatures(point.features), point.loss, 'own'] : [0, 0, 'own'],
  );
}

/** A point whose answer could be released: not a refusal, and no hard fail. */
function releasable(point: CollectionCalibrationPoint): boolean {
  return point.releasable && (point.features['hard_fail'] ?? 0) === 0;
}

/** The calibration questions released at `lambda`, and of them the wrong ones. */
export function releasedAt(
  calibration: CollectionCalibration,
  lambda: number,
): { released: number; wrong: number } {
  const released = calibration.points.filter(
    (point) => releasable(point) && scoreFeatures(point.features) >= lambda,
  );
  return { released: released.length, wrong: released.filter((point) => point.loss === 1).length };
}

/** A collection's calibration from its profile, or undefined when it has none (or not this version). */
export function collectionCalibrationOf(
  profile: Record<string, unknown>,
): (CollectionCalibration & { sha256: string }) | undefined {
  const value = profile['answer_calibration'] as
    | Partial<CollectionCalibration & { sha256: string }>
    | undefined;
  if (typeof value !== 'object' || value === null || value.version !== 1) return undefined;
  if (!Array.isArray(value.points) || typeof value.sha256 !== 'string') return undefined;
  return value as CollectionCalibration & { sha256: string };
}

/**
 * The smallest λ among `points`' scores with (released-and-wrong + 1) / (n + 1) ≤ α (split-conformal
 * risk control); above every score (nothing released) when no λ meets it.
 */
function conformalLambda(points: readonly (readonly [number, number, string])[], alpha: number): number {
  const n = points.length;
  const candidates = [...new Set(points.map(([score]) => score))].sort((a, b) => a - b);
  let wrong = points.filter(([, loss]) => loss === 1).length;
  // Released-and-wrong at λ = each candidate in ascending order: points below λ drop out.
  const byScore = [...points].sort((a, b) => a[0] - b[0]);
  let next = 0;
  for (const lambda of candidates) {
    while (next < byScore.length && byScore[next]![0] < lambda) {
      if (byScore[next]![1] === 1) wrong--;
      next++;
    }
    if ((wrong + 1) / (n + 1) <= alpha) return lambda;
  }
  return Number.POSITIVE_INFINITY;
}

/**
 * The release threshold for risk `alpha`. A collection the model was calibrated on with enough of its
 * own questions is released at the λ chosen on them (they are exchangeable with the questions asked
 * of it later). Any other collection — a user's own documents — is released at the strictest λ among
 * the calibrated collections' and the pooled one: the guarantee does not carry over to another
 * domain, and the held-out folds show a new domain can need a λ far above the pooled one
 * (docs/evaluation.md, "Calibrating the answer check"), so an answer there is confirmed only when
 * it would have been in every domain the check was calibrated on.
 */
export function thresholdFor(
  alpha: number,
  collection?: string,
  calibration?: CollectionCalibration,
): number {
  const all: readonly (readonly [number, number, string])[] = ANSWER_CHECK_MODEL.calibration;
  // The collection's own calibration, when an admin made one, holds for it alone (its questions are
  // the ones exchangeable with those it is asked).
  if (calibration && calibration.points.length >= MIN_COLLECTION_POINTS)
    return conformalLambda(ownPoints(calibration), alpha);
  const own = all.filter((point) => point[2] === collection);
  if (own.length >= MIN_COLLECTION_POINTS) return conformalLambda(own, alpha);
  let strictest =
    alpha === ANSWER_CHECK_MODEL.alpha ? ANSWER_CHECK_MODEL.threshold : conformalLambda(all, alpha);
  for (const group of new Set(all.map((point) => point[2]))) {
    const points = all.filter((point) => point[2] === group);
    if (points.length >= MIN_COLLECTION_POINTS)
      strictest = Math.max(strictest, conformalLambda(points, alpha));
  }
  return strictest;
}

function claimsMisread(claims: readonly ComposedClaim[]): boolean {
  return claims.some((claim) => hasMisreadFigure(claim.statement));
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/**
 * Checks an answer: its features, score, threshold and whether it is released as answering. The
 * decision compares the unrounded score with λ; the certificate records both rounded to three
 * decimals (rounding keeps order, so a released answer's recorded score is never below its threshold).
 */
export function checkAnswer(
  input: AnswerCheckInput & {
    collection?: string;
    /** The collection's own calibration ({@link collectionCalibrationOf}). */
    calibration?: CollectionCalibration & { sha256: string };
  },
): AnswerCheck {
  const { features, reading } = answerFeatures(input);
  const alpha = input.alpha ?? DEFAULT_ALPHA;
  const raw = scoreFeatures(features);
  const own = input.calibration && input.calibration.points.length >= MIN_COLLECTION_POINTS;
  const lambda = thresholdFor(alpha, input.collection, own ? input.calibration : undefined);
  const answers = features['hard_fail'] === 0 && raw >= lambda;
  return {
    score: round3(raw),
    threshold: Number.isFinite(lambda) ? Math.min(1, round3(lambda)) : 1,
    alpha,
    answers,
    misread: claimsMisread(input.claims),
    features,
    reading,
    calibration_sha256: own ? input.calibration!.sha256 : ANSWER_CHECK_MODEL.calibration_sha256,
  };
}
