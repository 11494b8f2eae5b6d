/**
 * Which offline claims answer the question (docs/engine.md, "Answering"): a quote whose evidence does
 * not answer it is dropped before the answer check.
 */
import type { CheckedClaim } from './check.js';
import { breadth, type QuestionTerms } from './relevance.js';

/** A claim of a relevant answer is kept when its own relevance reaches this share of the threshold. */
export const CLAIM_FLOOR = 0.6;
/**
 * A claim quoting another passage than the kept ones must either answer about as well as the best
 * kept claim (this share of its relevance) or cover question words they leave out (this much breadth).
 */
const NEAR_BEST = 0.9;
const MIN_GAIN = 0.1;

/**
 * The offline claims that answer the question: each relevant enough on its own, and one quoting
 * another passage than those kept before it only when it answers about as well as the best of them or
 * covers words of the question they leave out (a second provision that merely shares the question's
 * words is noise beside the one that answers it). A linked claim (the rule of a sanction) stays
 * exactly when the claim it completes stays; further sentences of a kept passage stay with it.
 */
export function answeringClaims(checked: readonly CheckedClaim[], terms: QuestionTerms): CheckedClaim[] {
  const kept: CheckedClaim[] = [];
  const keptSources = new Set<number>();
  const covered = new Set<string>();
  let best = 0;
  let keptPrevious = false;
  for (const claim of checked) {
    if (claim.claim.linked) {
      if (!keptPrevious) continue;
    } else {
      const { score, threshold } = claim.relevance;
      keptPrevious = score >= threshold * CLAIM_FLOOR;
      const sources = claim.claim.evidence.map((item) => item.sourceIndex);
      if (keptPrevious && kept.length > 0 && !sources.some((index) => keptSources.has(index))) {
        const gain = breadth(terms, new Set([...covered, ...claim.lexemes])) - breadth(terms, covered);
        keptPrevious = score >= best * NEAR_BEST || gain >= MIN_GAIN;
      }
      if (!keptPrevious) continue;
      best = Math.max(best, score);
    }
    kept.push(claim);
    for (const item of claim.claim.evidence) keptSources.add(item.sourceIndex);
    for (const lexeme of claim.lexemes) covered.add(lexeme);
  }
  return kept;
}
