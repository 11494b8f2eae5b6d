/**
 * The answer cache as `ask` uses it (cache.ts): an answer that depends on nothing but the question and
 * the content is looked up before anything is searched, and a fresh one is stored after it is
 * persisted. A hit is answered with the earlier answer in a certificate issued again for this asker.
 */
import { cachedAnswer, contentVersion, recordCacheHit } from '../../answer-storage.js';
import type { Collection } from '../../collections.js';
import type { AskContext, AskEvent, AskInput, AskResult } from '../ask-context.js';
import { NO_TIMINGS, streamText } from '../ask-context.js';
import { type AnswerShape, answerCacheKey, type CachedAnswer } from '../cache.js';
import { reissueCertificate } from '../certify.js';
import { persistAnswer } from '../persist.js';
import { EXTRACTIVE_GENERATOR_VERSION, LLM_GENERATOR_VERSION } from './select.js';
import type { Turn } from './turn.js';
import type { Understood } from './understand.js';

/** Where a cacheable answer is stored: its key and the content version it was made on. */
export interface CacheSlot {
  key: string;
  /** Read before answering: an answer made while the content changed is not stored. */
  version: number;
}

export type CacheLookup = { hit: CachedAnswer; key: string } | { hit?: undefined; slot?: CacheSlot };

/** The cached answer to this turn's question, or where to store a fresh one (none when not cacheable). */
export async function lookUpCachedAnswer(
  context: AskContext,
  collection: Collection,
  input: AskInput,
  understood: Understood,
  turn: Turn,
): Promise<CacheLookup> {
  const cacheable =
    context.answerCache === true &&
    understood.mode === 'full' &&
    understood.followUps.length === 0 &&
    turn.conversation.length === 0;
  if (!cacheable) return {};
  const key = answerCacheKey(collection, understood.question, answerShape(context, input, understood.page));
  const hit = await cachedAnswer(context.db, collection.id, key);
  if (hit) return { hit, key };
  return { slot: { key, version: await contentVersion(context.db, collection.id) } };
}

/** What besides the question shapes this answer: the key of the answer cache holds all of it. */
function answerShape(context: AskContext, input: AskInput, page: readonly string[]): AnswerShape {
  const model = context.answerModel;
  return {
    top_k: input.top_k ?? 5,
    page: [...page].sort(),
    document_type: input.document_type ?? null,
    fiscal_year: input.fiscal_year ?? null,
    generator: model
      ? `llm:${model.provider}:${model.modelId}:${LLM_GENERATOR_VERSION}`
      : `extractive:${EXTRACTIVE_GENERATOR_VERSION}`,
    verifiers: [
      ...(context.judge ? ['llm-judge'] : []),
      ...(context.decomposer ? ['llm-decomposition'] : []),
      ...(context.expander ? ['llm-expansion'] : []),
    ],
    confidence_threshold: context.confidenceThreshold,
    require_anchor: context.requireAnchor ?? false,
  };
}

/**
 * A question answered from the cache: the earlier answer and results, in a certificate issued again
 * for this asker (its own id, time and session reference; `reissueCertificate`), appended to the log
 * with the turn in the asker's session. The earlier certificate names the session it was asked in, so
 * it is never handed to another asker.
 */
export async function answerFromCache(
  context: AskContext,
  collection: Collection,
  understood: Understood,
  turn: Turn,
  cached: { hit: CachedAnswer; key: string },
  onEvent: (event: AskEvent) => void,
): Promise<AskResult> {
  const { hit } = cached;
  const { sessionId } = turn;
  onEvent({ type: 'retrieval', results: hit.results, timings: NO_TIMINGS });
  streamText(hit.answer, onEvent);
  // The bundle, as for a fresh answer, only once its log entry is durable.
  const certifyStart = performance.now();
  const { certificate, signature } = reissueCertificate(hit.bundle.certificate, {
    keys: context.keys,
    sessionId,
  });
  const bundle = await persistAnswer(context.log, context.sequencer, {
    certificate,
    signature,
    chunks: hit.bundle.chunks,
    collection,
    sessionId,
    question: understood.question,
    answer: hit.answer,
    generatorModel: certificate.answer.generator.model,
    maxTurns: turn.sessions.maxTurns,
    latencyMs: Math.round(performance.now() - turn.started),
  });
  await recordCacheHit(context.db, { collectionId: collection.id, key: cached.key });
  onEvent({ type: 'bundle', bundle });
  return {
    session_id: sessionId,
    found: hit.found,
    answer: hit.answer,
    bundle,
    results: hit.results,
    plan: understood.plan,
    cached: true,
    timings: {
      ...NO_TIMINGS,
      total_ms: Math.round((performance.now() - turn.started) * 100) / 100,
      answer_ms: 0,
      certify_ms: Math.round((performance.now() - certifyStart) * 100) / 100,
    },
  };
}
