/**
 * Stage 6 of `ask`, persist (docs/engine.md, "Answering"): the log append in the same transaction as
 * the certificate row and the session's turn (persist.ts); the bundle is sent only after that
 * transaction commits, and a cacheable answer is stored for the next asker.
 */
import type { Bundle } from '@saksi/proof';
import { storeCachedAnswer } from '../../answer-storage.js';
import type { Collection } from '../../collections.js';
import type { LlmUsage } from '../../llm/model.js';
import type { AskContext, AskEvent } from '../ask-context.js';
import { persistAnswer } from '../persist.js';
import type { CacheSlot } from './cached.js';
import type { Certified } from './certify.js';
import type { Concluded } from './check.js';
import type { Retrieved } from './retrieve.js';
import type { Selected } from './select.js';
import type { Turn } from './turn.js';
import type { Understood } from './understand.js';

export async function persist(
  context: AskContext,
  collection: Collection,
  understood: Understood,
  turn: Turn,
  answer: { retrieved: Retrieved; selected: Pick<Selected, 'generator' | 'usage'>; concluded: Concluded },
  certified: Certified,
  cacheSlot: CacheSlot | undefined,
  onEvent: (event: AskEvent) => void,
): Promise<Bundle> {
  const { concluded, selected } = answer;
  const usage: LlmUsage | undefined = selected.usage;
  const bundle = await persistAnswer(context.log, context.sequencer, {
    certificate: certified.certificate,
    signature: certified.signature,
    chunks: certified.chunks,
    collection,
    sessionId: turn.sessionId,
    question: understood.question,
    answer: concluded.answer,
    generatorModel: selected.generator.model,
    ...(usage ? { usage } : {}),
    maxTurns: turn.sessions.maxTurns,
    latencyMs: Math.round(performance.now() - turn.started),
  });
  onEvent({ type: 'bundle', bundle });
  if (cacheSlot)
    await storeCachedAnswer(context.db, {
      collectionId: collection.id,
      key: cacheSlot.key,
      version: cacheSlot.version,
      question: understood.question,
      answer: concluded.answer,
      found: concluded.outcome === 'answered',
      bundle,
      results: answer.retrieved.sources,
    });
  return bundle;
}
