/**
 * Running an evaluation set against an engine: retrieval in four configurations (lexical only, vector
 * only, hybrid, hybrid + rewriting — the default), and answers (false assurance and coverage,
 * citations, `must_mention`, refusals, EM / F1 / ROUGE-L against gold answers, all grouped by the
 * question's intent too). Never tuned to individual questions: it only measures (docs/evaluation.md).
 */
import path from 'node:path';
import type { Claim } from '@saksi/proof';
import type { Engine } from '../engine.js';
import type { RetrievalArms, RetrievedChunk } from '../retrieve/retrieve.js';
import {
  type AnswerLanguage,
  type AnswerTextScores,
  answerTextScores,
  hitAt,
  mentions,
  type RankedQuestion,
  type RetrievalMetrics,
  reciprocalRank,
  retrievalMetrics,
} from './metrics.js';
import type { EvalQuestion, EvalSet, EvalSetKind, RelevantItem } from './sets.js';

export const RETRIEVAL_CONFIGS = ['lexical', 'vector', 'hybrid', 'hybrid+rewrite'] as const;
export type RetrievalConfig = (typeof RETRIEVAL_CONFIGS)[number];
/** What `engine.query` runs by default. */
export const DEFAULT_CONFIG: RetrievalConfig = 'hybrid+rewrite';

export function configOptions(config: RetrievalConfig): { arms: RetrievalArms; rewrite: boolean } {
  if (config === 'hybrid+rewrite') return { arms: 'hybrid', rewrite: true };
  return { arms: config, rewrite: false };
}

const samePasal = (a: string | undefined, b: string | undefined) =>
  a !== undefined &&
  b !== undefined &&
  a.replace(/\s+/g, '').toLowerCase() === b.replace(/\s+/g, '').toLowerCase();

const baseName = (filename: string) =>
  path.posix.basename(filename.replace(/\\/g, '/')).replace(/\.[^.]+$/, '');
/** Path segments (`\` read as `/`), empty and `.` segments dropped. */
const segmentsOf = (filename: string) =>
  filename
    .replace(/\\/g, '/')
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.');

/**
 * Whether a stored document path and a set's file name the same file: one is a path-suffix of the
 * other at a `/` boundary, so `api/Store.md`, `docs/api/Store.md` and `/home/me/redux/docs/api/Store.md`
 * all match `docs/api/Store.md` (a collection ingested from another folder than the demo's), but
 * `Store.md` does not match `docs/api/MyStore.md`.
 */
export function sameFile(stored: string, wanted: string): boolean {
  const a = segmentsOf(stored);
  const b = segmentsOf(wanted);
  const length = Math.min(a.length, b.length);
  if (length === 0) return false;
  for (let index = 1; index <= length; index++) if (a[a.length - index] !== b[b.length - index]) return false;
  return true;
}
const normalizeHeading = (heading: string) =>
  heading
    .replace(/[`*_#]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/** What a result or an evidence span points at, for matching against relevant items. */
export interface Located {
  filename: string;
  pasal?: string | undefined;
  section_path?: readonly string[] | undefined;
}

/** The key of the relevant item `located` matches, or null. `withHeading` also requires the heading (docs). */
export function matchRelevant(
  kind: EvalSetKind,
  located: Located,
  relevant: readonly RelevantItem[],
  withHeading = false,
): string | null {
  for (const item of relevant) {
    if (kind === 'legal') {
      // Pasal level: the body of the Pasal or its elucidation (Penjelasan Pasal demi Pasal) both count;
      // in the named document when the set names one.
      if (item.document !== undefined && item.document !== baseName(located.filename)) continue;
      if (item.pasal === undefined || samePasal(item.pasal, located.pasal)) return item.key;
    } else if (kind === 'budget' || kind === 'beir') {
      if (item.document !== baseName(located.filename)) continue;
      if (item.pasal === undefined || samePasal(item.pasal, located.pasal)) return item.key;
    } else if (item.file !== undefined && sameFile(located.filename, item.file)) {
      if (!withHeading || item.heading === undefined) return item.key;
      const wanted = normalizeHeading(item.heading);
      if ((located.section_path ?? []).some((heading) => normalizeHeading(heading) === wanted))
        return item.key;
    }
  }
  return null;
}

function locate(result: RetrievedChunk): Located {
  return {
    filename: result.document.filename,
    pasal: result.legal?.pasal ?? result.citation.pasal,
    section_path: result.citation.section_path,
  };
}

export interface QuestionRanking {
  id: string;
  /** Rank (1-based) of the first relevant result in the top 10, or null. */
  first_relevant: number | null;
  'hit@5': boolean;
  top: string[];
}

export interface RetrievalReport {
  set: string;
  collection: string;
  config: RetrievalConfig;
  metrics: RetrievalMetrics;
  /** Docs sets: Recall@5 when the heading must match as well as the file. */
  'heading_recall@5'?: number;
  questions: QuestionRanking[];
  ms: number;
}

const describe = (result: RetrievedChunk) => {
  const pasal = result.legal?.pasal ?? result.citation.pasal;
  return `${baseName(result.document.filename)}${pasal ? ` Pasal ${pasal}` : ''}${
    !pasal && result.citation.section_path?.length ? ` › ${result.citation.section_path.at(-1)}` : ''
  }`;
};

/** Retrieval metrics of `set` (its answerable questions) in `config`, top 10 per question. */
export async function evaluateRetrieval(
  engine: Engine,
  set: EvalSet,
  config: RetrievalConfig = DEFAULT_CONFIG,
  collection = set.collection,
): Promise<RetrievalReport> {
  const started = performance.now();
  const ranked: RankedQuestion[] = [];
  const withHeadings: RankedQuestion[] = [];
  const questions: QuestionRanking[] = [];
  for (const question of set.questions) {
    if (!question.answerable || question.relevant.length === 0) continue;
    const { results } = await engine.query(collection, {
      question: question.question,
      top_k: 10,
      ...configOptions(config),
    });
    const ranking = results.map((result) => matchRelevant(set.kind, locate(result), question.relevant));
    ranked.push({ ranking, relevantCount: question.relevant.length });
    if (set.kind === 'docs')
      withHeadings.push({
        ranking: results.map((result) => matchRelevant(set.kind, locate(result), question.relevant, true)),
        relevantCount: question.relevant.length,
      });
    const rr = reciprocalRank(ranking);
    questions.push({
      id: question.id,
      first_relevant: rr > 0 ? Math.round(1 / rr) : null,
      'hit@5': hitAt(ranking, 5) === 1,
      top: results.slice(0, 5).map(describe),
    });
  }
  return {
    set: set.name,
    collection,
    config,
    metrics: retrievalMetrics(ranked),
    ...(set.kind === 'docs' ? { 'heading_recall@5': retrievalMetrics(withHeadings)['recall@5'] } : {}),
    questions,
    ms: Math.round(performance.now() - started),
  };
}

export interface AnswerMetrics {
  answerable: number;
  unanswerable: number;
  /**
   * Questions answered (outcome `answered`) while the question is unanswerable or the answer holds no
   * expected fact ({@link isFalseAssurance}) / all questions of the set. Lower is better.
   */
  false_assurance: number;
  /**
   * Answerable questions answered (outcome `answered`) with an expected fact ({@link holdsExpectedFact})
   * / answerable questions.
   */
  coverage: number | null;
  /** Questions whose outcome is `related` (related passages shown, no confirmed answer) / all questions. */
  related_rate: number;
  /**
   * Supported claims / claims, over the answers to answerable questions: a claim is supported when it
   * is rendered (`render.rendered`), labelled `entailed`, and one of its evidence spans comes from a
   * relevant item.
   */
  citation_precision: number;
  /** Answerable questions whose answer has at least one supported claim / answerable questions. */
  citation_recall: number;
  /** `must_mention` phrases found in the answer / all phrases (answerable questions). */
  must_mention_hit_rate: number | null;
  /** Answerable questions whose answer contains at least one of their `must_mention` phrases. */
  must_mention_any_rate: number | null;
  /** Unanswerable questions refused / unanswerable questions. */
  refusal_accuracy: number | null;
  /** Answerable questions refused / answerable questions. */
  false_refusal_rate: number | null;
  /** Mean exact match against the gold answers (answerable questions that have them; a refusal scores 0). */
  exact_match: number | null;
  /** Mean token F1 against the gold answers (the best gold answer per question). */
  f1: number | null;
  /** Mean ROUGE-L F-measure against the gold answers (the best gold answer per question). */
  rouge_l: number | null;
}

/**
 * How an answer ended, from its signed certificate (`certificate.answer.outcome`): `answered`, `related`
 * (related passages shown, not a confirmed answer) or `refused`. An older certificate says only
 * answered or refused; a result with `found: false` is refused.
 */
export type EvalAnswerOutcome = 'answered' | 'related' | 'refused';

export interface AnswerRecord {
  id: string;
  answerable: boolean;
  /** The question's intent as the engine understood it (`plan.intent`), `other` when it gives none. */
  intent: string;
  /** `found` of the ask result. */
  found: boolean;
  /** How the answer ended ({@link outcomeOf}). */
  outcome: EvalAnswerOutcome;
  /**
   * Not shown as an answer: the outcome is `refused` or `related`. The citation and `must_mention`
   * metrics treat a related answer as they treat a refusal (no claims, no phrase found), and so do
   * refusal accuracy and the false-refusal rate.
   */
  refused: boolean;
  /** The answer check's score in [0, 1] ({@link checkScoreOf}); 0 when the certificate has none. */
  check_score: number;
  /** The answer check's features (`check.features` of the ask result), when it has them. */
  features?: Record<string, number>;
  /**
   * Outcome `related` only: whether the related answer would hold an expected fact if it were released
   * as an answer — a `must_mention` phrase in its text, or, for a question without phrases, an entailed
   * claim (rendered or not) citing a relevant item. Read by {@link lossIfReleased}.
   */
  fact_if_released?: boolean;
  /** Claims of the answer shown (0 for a refused or related answer). */
  claims: number;
  /** Claims shown as verified (`render.rendered`). */
  rendered: number;
  /** Rendered, entailed claims with evidence from a relevant item. */
  supported: number;
  /** Where each claim's first evidence span is: the file, and its Pasal or section when it has one. */
  cited: string[];
  /** Each `must_mention` phrase and whether the answer shown holds it (never for a refused or related answer). */
  must_mention: { phrase: string; found: boolean }[];
  /** EM, token F1 and ROUGE-L against the question's gold answers, when it has any. */
  scores?: AnswerTextScores;
  answer: string;
}

/** The answer metrics of the questions of one intent. */
export interface IntentAnswerMetrics {
  intent: string;
  questions: number;
  metrics: AnswerMetrics;
}

export interface AnswersReport {
  set: string;
  collection: string;
  /** `extractive`, or `llm:<provider>:<model>` when a language model answered. */
  generator?: string;
  metrics: AnswerMetrics;
  /** The same metrics per question intent, most frequent first. */
  by_intent: IntentAnswerMetrics[];
  questions: AnswerRecord[];
  ms: number;
}

const ratio = (numerator: number, denominator: number) =>
  denominator === 0 ? null : Math.round((numerator / denominator) * 1e4) / 1e4;

/**
 * The intent an ask result's question plan names (`plan.intent`), or `other`. Read defensively: a
 * result without a plan (an older engine) counts as `other`.
 */
export function intentOf(result: unknown): string {
  const plan =
    typeof result === 'object' && result !== null ? (result as { plan?: unknown }).plan : undefined;
  const intent =
    typeof plan === 'object' && plan !== null ? (plan as { intent?: unknown }).intent : undefined;
  return typeof intent === 'string' && intent.length > 0 ? intent : 'other';
}

/**
 * Whether an ask result is a refusal: `found` is false, or its certificate says so
 * (`certificate.answer.outcome === 'refused'`, certificate v1.1; docs/certificate.md).
 */
export function isRefusal(result: { found: boolean; bundle?: unknown }): boolean {
  if (!result.found) return true;
  const bundle = result.bundle as { certificate?: { answer?: { outcome?: unknown } } } | null | undefined;
  return bundle?.certificate?.answer?.outcome === 'refused';
}

/** A non-null object's fields, or undefined. */
const fieldsOf = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;

/** The `certificate.answer` object of an ask result's bundle, read defensively. */
const certificateAnswerOf = (result: unknown): Record<string, unknown> | undefined =>
  fieldsOf(fieldsOf(fieldsOf(fieldsOf(result)?.['bundle'])?.['certificate'])?.['answer']);

/** A finite number in [0, 1], or undefined. */
const unitScore = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1 ? value : undefined;

/**
 * How an ask result ended: the certificate's `answer.outcome` when it says `refused` or `related`;
 * otherwise `answered` when `found` is true and `refused` when it is false (an older certificate
 * knows only answered and refused).
 */
export function outcomeOf(result: unknown): EvalAnswerOutcome {
  const outcome = certificateAnswerOf(result)?.['outcome'];
  if (outcome === 'refused' || outcome === 'related') return outcome;
  return fieldsOf(result)?.['found'] === true ? 'answered' : 'refused';
}

/**
 * The answer check's score of an ask result: the certificate's `answer.check.score`, else the
 * answer's relevance score (`answer.relevance.score`), else 0. Read defensively: a value outside
 * [0, 1] or not a number counts as absent.
 */
export function checkScoreOf(result: unknown): number {
  const answer = certificateAnswerOf(result);
  return (
    unitScore(fieldsOf(answer?.['check'])?.['score']) ??
    unitScore(fieldsOf(answer?.['relevance'])?.['score']) ??
    0
  );
}

/**
 * The answer check's features of an ask result (`result.check.features`: name → number), or
 * undefined when it has none. Entries that are not finite numbers are left out.
 */
export function checkFeaturesOf(result: unknown): Record<string, number> | undefined {
  const features = fieldsOf(fieldsOf(fieldsOf(result)?.['check'])?.['features']);
  if (features === undefined) return undefined;
  const kept = Object.entries(features).filter(
    (entry): entry is [string, number] => typeof entry[1] === 'number' && Number.isFinite(entry[1]),
  );
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/** What {@link holdsExpectedFact} and {@link isFalseAssurance} read of a record. */
export type FactRecord = Pick<AnswerRecord, 'answerable' | 'outcome' | 'must_mention' | 'supported'>;

/**
 * Whether the answer shown holds an expected fact: the outcome is `answered`, the question is
 * answerable, and at least one of its `must_mention` phrases is found — or, for a question without
 * phrases, the answer has a supported claim (rendered, entailed, citing a relevant item).
 */
export function holdsExpectedFact(record: FactRecord): boolean {
  if (record.outcome !== 'answered' || !record.answerable) return false;
  if (record.must_mention.length > 0) return record.must_mention.some((phrase) => phrase.found);
  return record.supported > 0;
}

/**
 * False assurance: the engine answered (outcome `answered`) while the question is unanswerable or the
 * answer holds no expected fact ({@link holdsExpectedFact}).
 */
export function isFalseAssurance(record: FactRecord): boolean {
  return record.outcome === 'answered' && !holdsExpectedFact(record);
}

/**
 * 1 when the answer would be wrong if it were released as an answer, else 0: the question is
 * unanswerable, or the answer holds no expected fact — {@link holdsExpectedFact} for an answered
 * record, `fact_if_released` for a related one. A refusal holds nothing (1); it is never released.
 */
export function lossIfReleased(record: FactRecord & Pick<AnswerRecord, 'fact_if_released'>): 0 | 1 {
  if (!record.answerable) return 1;
  if (record.outcome === 'answered') return holdsExpectedFact(record) ? 0 : 1;
  if (record.outcome === 'related') return record.fact_if_released === true ? 0 : 1;
  return 1;
}

/** The answer text that is scored against gold answers: citation markers (`[1]`, `[2, 3]`) removed. */
export function answerTextForScoring(answer: string): string {
  return answer
    .replace(/\[\d+(?:\s*,\s*\d+)*\]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Asks every question of `set` (selected-text rows in selection mode) and scores the answers. A claim
 * is supported when it is rendered, its verification label is `entailed` and one of its evidence spans
 * comes from a relevant item (Pasal, document + Pasal, or file). Each record carries the answer's
 * outcome ({@link outcomeOf}), the answer check's score and features; a refused or related answer
 * counts as not shown (no claims, no phrase found) and scores 0 against gold answers.
 */
export async function evaluateAnswers(
  engine: Engine,
  set: EvalSet,
  collection = set.collection,
): Promise<AnswersReport> {
  const started = performance.now();
  const filenames = new Map<string, string>();
  const filenameOf = async (documentId: string) => {
    let name = filenames.get(documentId);
    if (name === undefined) {
      name = (await engine.documents.get(documentId)).filename;
      filenames.set(documentId, name);
    }
    return name;
  };
  /** Whether an entailed claim (rendered, or any when `rendered` is false) cites a relevant item. */
  const citesRelevant = async (question: EvalQuestion, claim: Claim, rendered: boolean) => {
    if ((rendered && !claim.render.rendered) || claim.verification.label !== 'entailed') return false;
    for (const evidence of claim.evidence) {
      const located: Located = {
        filename: await filenameOf(evidence.document_id),
        pasal: evidence.citation.pasal,
        section_path: evidence.citation.section_path,
      };
      if (question.relevant.length === 0 || matchRelevant(set.kind, located, question.relevant) !== null)
        return true;
    }
    return false;
  };
  const language: AnswerLanguage = set.language ?? 'id';
  const records: AnswerRecord[] = [];
  for (const question of set.questions) {
    const result = await engine.ask(collection, {
      question: question.question,
      ...(question.selection ? { mode: 'selection' as const, selection: question.selection } : {}),
    });
    const outcome = outcomeOf(result);
    const refused = outcome !== 'answered';
    const claims: Claim[] = refused ? [] : result.bundle.certificate.claims;
    let supported = 0;
    const cited: string[] = [];
    for (const claim of claims) {
      const first = claim.evidence[0];
      if (first) {
        const where = first.citation.pasal
          ? `Pasal ${first.citation.pasal}`
          : first.citation.section_path?.at(-1);
        cited.push([await filenameOf(first.document_id), where].filter(Boolean).join(' › '));
      }
      if (await citesRelevant(question, claim, true)) supported++;
    }
    let factIfReleased: boolean | undefined;
    if (outcome === 'related') {
      if (!question.answerable) factIfReleased = false;
      else if (question.must_mention.length > 0)
        factIfReleased = question.must_mention.some((phrase) => mentions(result.answer, phrase));
      else {
        factIfReleased = false;
        for (const claim of result.bundle?.certificate?.claims ?? [])
          if (await citesRelevant(question, claim, false)) {
            factIfReleased = true;
            break;
          }
      }
    }
    const scores =
      question.answerable && question.gold_answers
        ? answerTextScores(
            refused ? '' : answerTextForScoring(result.answer),
            question.gold_answers,
            language,
          )
        : null;
    const features = checkFeaturesOf(result);
    records.push({
      id: question.id,
      answerable: question.answerable,
      intent: intentOf(result),
      found: result.found,
      outcome,
      refused,
      check_score: checkScoreOf(result),
      ...(features ? { features } : {}),
      ...(factIfReleased === undefined ? {} : { fact_if_released: factIfReleased }),
      claims: claims.length,
      rendered: claims.filter((claim) => claim.render.rendered).length,
      supported,
      cited,
      must_mention: question.must_mention.map((phrase) => ({
        phrase,
        found: !refused && mentions(result.answer, phrase),
      })),
      ...(scores ? { scores } : {}),
      answer: result.answer,
    });
  }
  const model = engine.answerModel;
  return {
    set: set.name,
    collection,
    generator: model ? `llm:${model.provider}:${model.modelId}` : 'extractive',
    metrics: answerMetrics(set.questions, records),
    by_intent: answerMetricsByIntent(set.questions, records),
    questions: records,
    ms: Math.round(performance.now() - started),
  };
}

export function answerMetrics(
  questions: readonly EvalQuestion[],
  records: readonly AnswerRecord[],
): AnswerMetrics {
  const answerable = records.filter((record) => record.answerable);
  const unanswerable = records.filter((record) => !record.answerable);
  const answered = answerable.filter((record) => !record.refused);
  const withRelevant = new Set(questions.filter((q) => q.relevant.length > 0).map((q) => q.id));
  const cited = answered.filter((record) => withRelevant.has(record.id) || withRelevant.size === 0);
  const phrases = answerable.flatMap((record) => record.must_mention);
  const withPhrases = answerable.filter((record) => record.must_mention.length > 0);
  const scored = answerable.flatMap((record) => (record.scores ? [record.scores] : []));
  const meanScore = (key: keyof AnswerTextScores) =>
    ratio(
      scored.reduce((sum, scores) => sum + scores[key], 0),
      scored.length,
    );
  return {
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    false_assurance: ratio(records.filter(isFalseAssurance).length, records.length) ?? 0,
    coverage: ratio(answerable.filter(holdsExpectedFact).length, answerable.length),
    related_rate: ratio(records.filter((record) => record.outcome === 'related').length, records.length) ?? 0,
    citation_precision:
      ratio(
        cited.reduce((sum, record) => sum + record.supported, 0),
        cited.reduce((sum, record) => sum + record.claims, 0),
      ) ?? 0,
    citation_recall:
      ratio(
        answerable.filter((record) => record.supported > 0).length,
        answerable.filter((record) => withRelevant.has(record.id) || withRelevant.size === 0).length,
      ) ?? 0,
    must_mention_hit_rate: ratio(phrases.filter((phrase) => phrase.found).length, phrases.length),
    must_mention_any_rate: ratio(
      withPhrases.filter((record) => record.must_mention.some((phrase) => phrase.found)).length,
      withPhrases.length,
    ),
    refusal_accuracy: ratio(unanswerable.filter((record) => record.refused).length, unanswerable.length),
    false_refusal_rate: ratio(answerable.filter((record) => record.refused).length, answerable.length),
    exact_match: meanScore('exact_match'),
    f1: meanScore('f1'),
    rouge_l: meanScore('rouge_l'),
  };
}

/** {@link answerMetrics} per intent, the most frequent intent first (ties by name). */
export function answerMetricsByIntent(
  questions: readonly EvalQuestion[],
  records: readonly AnswerRecord[],
): IntentAnswerMetrics[] {
  const groups = new Map<string, AnswerRecord[]>();
  for (const record of records) groups.set(record.intent, [...(groups.get(record.intent) ?? []), record]);
  return (
    [...groups.entries()]
      // All the set's questions: which of them have relevant items is decided over the whole set.
      .map(([intent, group]) => ({
        intent,
        questions: group.length,
        metrics: answerMetrics(questions, group),
      }))
      .sort((a, b) => b.questions - a.questions || a.intent.localeCompare(b.intent))
  );
}

/**
 * Ingests a BEIR corpus as one text document per passage (`<id>.txt`) into `collection`, a general
 * collection: the traffic-law and budget rewrite rules do not belong to news passages.
 */
export async function ingestBeirCorpus(
  engine: Engine,
  set: EvalSet,
  collection = set.collection,
): Promise<number> {
  let count = 0;
  for (const [id, text] of set.corpus ?? []) {
    await engine.ingest(
      collection,
      { bytes: new TextEncoder().encode(text), filename: `${id}.txt`, title: id },
      { language: set.language ?? 'id', profile: { domain: 'general', rewrite_rules: [] } },
    );
    count++;
  }
  if (count > 0) await engine.analyze();
  return count;
}
