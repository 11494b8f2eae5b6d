/**
 * The answer cache (docs/engine.md, "The answer cache"). A question asked again on a collection
 * whose content has not changed since is answered with the earlier answer, its results and its
 * certificate's content, which the engine issues again for the new asker (`reissueCertificate`: its
 * own id, time and session reference), since the earlier certificate names the session it was asked
 * in. The key holds the question as the verifier normalizes it, so the certificate passes the replay
 * check for the new asker too. Every setting that shapes an answer is part of the key (the profile, the
 * glossary's SHA-256, the answer shape), and the collection's content version
 * (bumped by the database whenever a document becomes or stops being READY, or a READY one's root,
 * anchor state or metadata changes) must match. Answers that depend on a conversation (a follow-up read
 * with an earlier question, a model shown earlier turns) and selection questions are not cached.
 */
import { createHash } from 'node:crypto';
import { type Bundle, normalizeQuestion } from '@saksi/proof';
import type { Collection } from '../collections.js';
import type { RetrievedChunk } from '../retrieve/retrieve.js';

/** Everything besides the question that shapes an answer, as the key records it. */
export interface AnswerShape {
  top_k: number;
  /** The documents searched first: those of the page the question was asked on. */
  page: string[];
  document_type: string | null;
  fiscal_year: number | null;
  /** The generator (`saksi-extractive` and its version, or the model and the prompt version). */
  generator: string;
  /** The verifiers and model layers in use (judge, decomposition, query expansion). */
  verifiers: string[];
  confidence_threshold: number;
  require_anchor: boolean;
}

/** A cached answer, as a hit returns it. */
export interface CachedAnswer {
  certificateId: string;
  answer: string;
  found: boolean;
  bundle: Bundle;
  results: RetrievedChunk[];
}

/** The cache key of `question` on `collection` under `shape`: SHA-256, hex. */
export function answerCacheKey(collection: Collection, question: string, shape: AnswerShape): string {
  return createHash('sha256')
    .update(
      JSON.stringify({
        question: normalizeQuestion(question),
        language: collection.language,
        // The profile, its calibration by its SHA-256: the points are large and change only with it.
        profile: profileForKey(collection.profile),
        // A changed glossary rewrites questions differently: answers cached under another are not found.
        glossary: collection.glossary_sha256 ?? null,
        ...shape,
      }),
    )
    .digest('hex');
}

function profileForKey(profile: Record<string, unknown>): Record<string, unknown> {
  const calibration = profile['answer_calibration'];
  if (typeof calibration !== 'object' || calibration === null) return profile;
  const sha256 = (calibration as { sha256?: unknown }).sha256;
  return { ...profile, answer_calibration: typeof sha256 === 'string' ? sha256 : null };
}
