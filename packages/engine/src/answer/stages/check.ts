/**
 * Stage 4 of `ask`, check (docs/engine.md, "Answering"): each claim's support (verbatim, or
 * verified) and relevance (check.ts); offline, quotes whose evidence does not answer the question are
 * dropped (answering-claims.ts); then the answer check (answer-check.ts) decides whether the claims
 * are released as answering the question or shown as related passages; the answer's text follows.
 */
import { answerRiskOf, type Collection } from '../../collections.js';
import { unreadableEvidence } from '../../packs/registry.js';
import type { RetrievedChunk } from '../../retrieve/retrieve.js';
import { type AnswerCheck, checkAnswer, collectionCalibrationOf } from '../answer-check.js';
import { type Refusal, refusalText } from '../answerability.js';
import { answeringClaims } from '../answering-claims.js';
import { type AskContext, type AskEvent, streamText } from '../ask-context.js';
import { type CheckedClaim, checkClaims } from '../check.js';
import { relatedText } from '../related.js';
import type { RelevanceResult } from '../relevance.js';
import type { Retrieved } from './retrieve.js';
import type { Selected, Wordings } from './select.js';
import type { Turn } from './turn.js';
import type { Understood } from './understand.js';

export interface Checked {
  /** The claims as checked: offline, only those that answer the question. */
  claims: CheckedClaim[];
  /** The relevance of the answer as a whole. */
  relevance: RelevanceResult;
  /** The answer check, for an answer with claims. */
  answerCheck?: AnswerCheck;
  refusal?: Refusal;
}

export async function checkSelected(
  context: AskContext,
  collection: Collection,
  understood: Understood,
  turn: Turn,
  sources: RetrievedChunk[],
  wordings: Wordings,
  selected: Selected,
): Promise<Checked> {
  const { question, plan } = understood;
  const { conversation } = turn;
  let refusal = selected.refusal;
  const check = await checkClaims(
    context.db,
    collection,
    {
      ...(context.judge ? { judge: context.judge } : {}),
      ...(context.decomposer ? { decomposer: context.decomposer } : {}),
      // The conversation reached the model as context: a claim that only it supports is not supported.
      ...(conversation.length > 0
        ? {
            history: {
              text: conversation.map((item) => `${item.question}\n${item.answer}`).join('\n'),
              question,
            },
          }
        : {}),
    },
    plan,
    wordings.terms,
    selected.claims,
    sources,
    collection.language,
  );
  let claims: CheckedClaim[] = check.claims;
  // Offline, a quote whose evidence does not answer the question is dropped; a model's claims stay in
  // the certificate, each under the render policy (blocked claims are shown as blocked).
  if (!refusal && context.answerModel === undefined) {
    claims = answeringClaims(claims, wordings.terms);
    if (claims.length === 0) refusal = { reason: 'NOT_COVERED' };
  }
  if (refusal) return { claims, relevance: check.answer, refusal };
  const risk = answerRiskOf(collection);
  const calibration = collectionCalibrationOf(collection.profile);
  const answerCheck = checkAnswer({
    question,
    collection: collection.name,
    ...(calibration ? { calibration } : {}),
    ...(understood.selection ? { context: understood.selection } : {}),
    language: plan.language,
    claims: claims.map((item) => item.claim),
    sources,
    relevance: check.answer.score,
    relevanceThreshold: check.answer.threshold,
    ...(risk !== undefined ? { alpha: risk } : {}),
  });
  return { claims, relevance: check.answer, answerCheck };
}

/** Whether the checked claims answer the question (not a refusal, and released by the answer check). */
export function answers(checked: Checked): boolean {
  return checked.refusal === undefined && checked.answerCheck?.answers === true;
}

/** The answer the checks conclude: its outcome, the claims it shows and its text. */
export interface Concluded {
  outcome: 'answered' | 'related' | 'refused';
  /** The claims shown (none for a refusal). */
  claims: CheckedClaim[];
  answer: string;
  refusal?: Refusal;
  answerCheck?: AnswerCheck;
  relevance: RelevanceResult;
}

/**
 * The answer's text: a refusal's (naming a figure OCR misread instead of quoting it), the related
 * passages with why they are not an answer, or the claims quoted. Offline answers and refusals are
 * streamed here; a model's answer was streamed as it was generated.
 */
export async function concludeAnswer(
  context: AskContext,
  collection: Collection,
  understood: Understood,
  { sources }: Pick<Retrieved, 'sources'>,
  checked: Checked,
  onEvent: (event: AskEvent) => void,
): Promise<Concluded> {
  const { db } = context;
  const { plan } = understood;
  const { answerCheck, relevance } = checked;
  let refusal = checked.refusal;
  // A figure or assumption the statute states but OCR misread is named, not quoted (a document
  // pack's refusal explanation: packs/budget/answer.ts, packs/budget/assumptions.ts).
  if (refusal?.reason === 'NOT_COVERED' || refusal?.reason === 'NO_EVIDENCE') {
    const unreadable = await unreadableEvidence(db, collection, plan);
    if (unreadable) refusal = { ...refusal, unreadable };
  }
  if (refusal) {
    const answer = refusalText(refusal, plan, sources);
    streamText(answer, onEvent);
    return { outcome: 'refused', claims: [], answer, refusal, relevance };
  }
  const { claims } = checked;
  const quoted = claims
    .map((item) => item.claim.text)
    // Composed claims and multi-line quotes read as paragraphs; short quotes as one.
    .join(claims.some((c) => c.claim.composition || c.claim.text.includes('\n')) ? '\n\n' : ' ');
  // Claims that do not answer the question are shown as related passages, never as the answer.
  const related = answerCheck?.answers !== true;
  const answer = related ? relatedText(plan, answerCheck, quoted) : quoted;
  if (context.answerModel === undefined) streamText(answer, onEvent);
  return {
    outcome: related ? 'related' : 'answered',
    claims,
    answer,
    ...(answerCheck ? { answerCheck } : {}),
    relevance,
  };
}
