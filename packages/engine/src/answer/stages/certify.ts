/**
 * Stage 5 of `ask`, certify (docs/engine.md, "Answering"): the v1.1 certificate of the answer under
 * the proof package's render policy (certify.ts), with the anchors of the documents it read, signed.
 */
import type { Anchor } from '@saksi/proof';
import type { Collection } from '../../collections.js';
import { CLAIM_FLOOR } from '../answering-claims.js';
import type { AskContext } from '../ask-context.js';
import { certifyAnswer } from '../certify.js';
import type { Concluded } from './check.js';
import type { Retrieved } from './retrieve.js';
import type { Selected } from './select.js';
import type { Turn } from './turn.js';
import type { Understood } from './understand.js';

export type Certified = ReturnType<typeof certifyAnswer>;

export async function certify(
  context: AskContext,
  collection: Collection,
  understood: Understood,
  turn: Turn,
  answer: { retrieved: Retrieved; selected: Pick<Selected, 'generator'>; concluded: Concluded },
): Promise<Certified> {
  const { retrieved, concluded } = answer;
  const { generator } = answer.selected;
  const { sources } = retrieved;
  const { refusal, answerCheck } = concluded;
  const anchors = context.anchors
    ? await context.anchors([...new Set(sources.map((result) => result.document_id))])
    : new Map<string, Anchor>();
  return certifyAnswer({
    keys: context.keys,
    collection,
    question: understood.question,
    mode: understood.mode,
    ...(understood.selection ? { selection: understood.selection } : {}),
    sessionId: turn.sessionId,
    retrieval: retrieved.retrieval,
    sources,
    answer: concluded.answer,
    generator,
    claims: concluded.claims,
    // The certificate records the threshold each kept claim was held to (a share of relevance.ts's).
    claimThresholdShare: CLAIM_FLOOR,
    outcome: concluded.outcome,
    ...(refusal ? { refusal: refusal.reason } : { answerRelevance: concluded.relevance }),
    ...(answerCheck && !refusal ? { answerCheck } : {}),
    anchors,
    confidenceThreshold: context.confidenceThreshold,
    requireAnchor: context.requireAnchor ?? false,
  });
}
