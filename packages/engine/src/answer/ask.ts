/**
 * Asking, as named stages (docs/engine.md, "Answering"):
 *
 *   understand → retrieve → select → check → certify → persist
 *
 * - stages/understand.ts: the question's plan (language, intent, slots; understand.ts) and its
 *   rewrite, once; the variants the conversation adds; the documents of the page it is asked on.
 * - stages/retrieve.ts: a slot the collection cannot satisfy (a fiscal year it lacks) is a refusal
 *   that says what is available, before anything is searched (answerability.ts); otherwise the hybrid
 *   search of the rewrite (retrieve/plan.ts).
 * - stages/select.ts: the claims, each with its evidence spans — select.ts + compose.ts offline, or
 *   generate-llm.ts with a language model.
 * - stages/check.ts: support (verbatim, or verified) and relevance per claim; evidence that does not
 *   cover the question's distinctive content is not an answer, and the answer becomes a refusal that
 *   offers the closest passages as related.
 * - stages/certify.ts: the v1.1 certificate under the proof package's render policy, signed.
 * - stages/persist.ts: the log append in the same transaction as the certificate row; the bundle is
 *   returned only after that transaction commits.
 *
 * A question asked again on unchanged content is answered from the answer cache (stages/cached.ts).
 */
import type { Bundle } from '@saksi/proof';
import type { Collection } from '../collections.js';
import type { AnswerCheck } from './answer-check.js';
import type { AskContext, AskEvent, AskInput, AskResult } from './ask-context.js';
import { answerFromCache, lookUpCachedAnswer } from './stages/cached.js';
import { certify } from './stages/certify.js';
import { answers, type Concluded, checkSelected, concludeAnswer } from './stages/check.js';
import { persist } from './stages/persist.js';
import { type Retrieved, retrieveEverywhere, retrieveEvidence } from './stages/retrieve.js';
import { selectClaimsFor, type Wordings, wordingsOf } from './stages/select.js';
import { openTurn, type Turn } from './stages/turn.js';
import { checkQuestion, type Understood, understandQuestion } from './stages/understand.js';

export { answeringClaims } from './answering-claims.js';
export type { AskContext, AskEvent, AskInput, AskResult } from './ask-context.js';
export type { ClaimJudge, ClaimVerification } from './check.js';
export { loadBundle } from './persist.js';
export { EXTRACTIVE_GENERATOR_VERSION, LLM_GENERATOR_VERSION } from './stages/select.js';

export async function ask(
  context: AskContext,
  collection: Collection,
  input: AskInput,
  onEvent: (event: AskEvent) => void = () => {},
): Promise<AskResult> {
  const started = performance.now();
  const asked = checkQuestion(context, input);
  const turn = await openTurn(context, collection, input, started, onEvent);
  const understood = await understandQuestion(context, collection, input, asked, turn);
  const cache = await lookUpCachedAnswer(context, collection, input, understood, turn);
  if (cache.hit) return answerFromCache(context, collection, understood, turn, cache, onEvent);

  let retrieved = await retrieveEvidence(context, collection, input, understood);
  const answerStart = performance.now();
  const wordings = await wordingsOf(context, collection, understood, retrieved);
  // A model streams its answer: the sources are shown before it.
  if (context.answerModel) onEvent(retrievalEvent(retrieved));
  let attempt = await selectAndCheck(context, collection, understood, turn, retrieved, wordings, onEvent);
  // Offline, the page's own passages were searched alone: when they do not answer, the collection is.
  if (retrieved.pageFirst && !answers(attempt.checked)) {
    retrieved = await retrieveEverywhere(context, collection, input, understood, retrieved);
    attempt = await selectAndCheck(context, collection, understood, turn, retrieved, wordings, onEvent);
  }
  if (!context.answerModel) onEvent(retrievalEvent(retrieved));
  const { selected, checked } = attempt;
  const concluded = await concludeAnswer(context, collection, understood, retrieved, checked, onEvent);
  const answerMs = performance.now() - answerStart;

  const certifyStart = performance.now();
  const answer = { retrieved, selected, concluded };
  const certified = await certify(context, collection, understood, turn, answer);
  const bundle = await persist(context, collection, understood, turn, answer, certified, cache.slot, onEvent);
  const timings = {
    ...retrieved.retrieval.timings,
    answer_ms: Math.round(answerMs * 100) / 100,
    certify_ms: Math.round((performance.now() - certifyStart) * 100) / 100,
  };
  return askResult(turn, understood, answer, bundle, timings);
}

/** Selects or generates the claims from the retrieved sources, then checks them. */
async function selectAndCheck(
  context: AskContext,
  collection: Collection,
  understood: Understood,
  turn: Turn,
  retrieved: Retrieved,
  wordings: Wordings,
  onEvent: (event: AskEvent) => void,
) {
  const selected = await selectClaimsFor(context, collection, understood, turn, retrieved, wordings, onEvent);
  const { sources } = retrieved;
  const checked = await checkSelected(context, collection, understood, turn, sources, wordings, selected);
  return { selected, checked };
}

function retrievalEvent({ retrieval }: Retrieved): AskEvent {
  return { type: 'retrieval', results: retrieval.results, timings: retrieval.timings };
}

function askResult(
  turn: Turn,
  understood: Understood,
  { retrieved, concluded }: { retrieved: Retrieved; concluded: Concluded },
  bundle: Bundle,
  timings: AskResult['timings'],
): AskResult {
  return {
    session_id: turn.sessionId,
    found: concluded.outcome === 'answered',
    answer: concluded.answer,
    bundle,
    results: retrieved.sources,
    plan: understood.plan,
    ...(concluded.answerCheck && !concluded.refusal ? { check: checkSummary(concluded.answerCheck) } : {}),
    cached: false,
    timings,
  };
}

function checkSummary(check: AnswerCheck): NonNullable<AskResult['check']> {
  const { score, threshold, alpha, answers, features } = check;
  return { score, threshold, alpha, answers, features };
}
