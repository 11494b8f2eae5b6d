/**
 * Which of the three outcomes a reader is shown for an authentic answer, read from `verifyBundle`'s
 * result (docs/certificate.md, "The answer check"), and why an answer is only related when it is:
 *
 * - `answers`: the issuer answered, the verifier confirms the answer check (score at or above its
 *   threshold, the question's constraints met, a value of the asked type stated) and some claim may
 *   be shown as verified;
 * - `related`: the issuer released the passages as related, or said "answered" but the verifier's
 *   answer check does not confirm it, or (a certificate before v1.2) the answer is below its
 *   relevance threshold: authentic quotes, not a confirmed answer;
 * - `refused`: the issuer declined to answer;
 * - `not-answered`: neither refused nor related, yet no sentence may be shown as verified.
 *
 * Shared by the verification panel (verdict.ts) and the widget (widget/verdict.ts), so both say the
 * same thing. Pure: no words here, only what the words are chosen by.
 */
import type { BundleVerification, CheckDecision } from '@saksi/proof';

/** What a reader is shown for an authentic answer. */
export type ReaderOutcome = 'answers' | 'related' | 'refused' | 'not-answered';

/** A constraint of the question, by kind: a year, a numbered regulation, a version or a section. */
export interface Constraint {
  kind: 'year' | 'regulation' | 'version' | 'section' | 'other';
  value: string;
}

/** Why an answer is only related, most specific first. */
export type RelatedReason =
  /** The passages do not mention what the question names (a year, a regulation, …). */
  | { kind: 'unmet'; constraints: Constraint[] }
  /** No value of the asked type (an amount, a duration, …) is stated. */
  | { kind: 'value'; asked: string }
  /** The certificate's reading of the question (asked type, constraints) is not the verifier's. */
  | { kind: 'reading' }
  /** The verifier has no rules to read what a question asks for. */
  | { kind: 'rules' }
  /** The answer check's score is below its threshold. */
  | { kind: 'below'; score: number; threshold: number }
  /** A certificate before v1.2: the answer's relevance is below its threshold. */
  | { kind: 'relevance' }
  /** The issuer released the passages as related; nothing more specific is recorded. */
  | { kind: 'issuer' };

export interface AnswerReading {
  outcome: ReaderOutcome;
  /** The answer check (certificate v1.2), when the certificate has one. */
  check?: CheckDecision;
  /** With `related`: why. */
  related?: RelatedReason;
}

/** The answer check of a verification result, when its certificate has one (v1.2). */
export function answerCheckOf(result: BundleVerification): CheckDecision | undefined {
  return result.answer.check;
}

/** `year:2013` → `{ kind: 'year', value: '2013' }`; an unknown kind keeps its whole text. */
export function parseConstraint(text: string): Constraint {
  const colon = text.indexOf(':');
  const kind = colon > 0 ? text.slice(0, colon) : '';
  const value = colon > 0 ? text.slice(colon + 1) : text;
  if (kind === 'year' || kind === 'regulation' || kind === 'version' || kind === 'section')
    return { kind, value };
  return { kind: 'other', value: text };
}

function relatedReason(
  answer: BundleVerification['answer'],
  check: CheckDecision | undefined,
): RelatedReason {
  if (check === undefined)
    return answer.relevant.status === 'not_relevant' ? { kind: 'relevance' } : { kind: 'issuer' };
  const mismatches = new Set(check.mismatches);
  if (check.unmet.length > 0) return { kind: 'unmet', constraints: check.unmet.map(parseConstraint) };
  if (mismatches.has('VALUE_MISSING')) return { kind: 'value', asked: check.asked };
  if (mismatches.has('ASKED_TYPE') || mismatches.has('CONSTRAINTS')) return { kind: 'reading' };
  if (mismatches.has('NO_ASKED_RULES')) return { kind: 'rules' };
  if (mismatches.has('BELOW_THRESHOLD') || !(check.score >= check.threshold))
    return { kind: 'below', score: check.score, threshold: check.threshold };
  return { kind: 'issuer' };
}

/**
 * The outcome a reader is shown for an authentic verification result, and why when it is related.
 * A result that is not authentic is never an answer (`not-answered`); callers show its failure.
 *
 * @example
 * const reading = readAnswer(await verifyBundle(bundle, options));
 * if (reading.outcome === 'related') showRelatedPassages(reading.related);
 */
export function readAnswer(result: BundleVerification): AnswerReading {
  const answer = result.answer;
  const check = answerCheckOf(result);
  const withCheck = <T extends AnswerReading>(reading: T): T =>
    check === undefined ? reading : { ...reading, check };
  if (!result.authentic) return withCheck({ outcome: 'not-answered' });
  if (answer.outcome === 'refused') return withCheck({ outcome: 'refused' });
  if (
    answer.outcome === 'related' ||
    check?.status === 'not_confirmed' ||
    answer.relevant.status === 'not_relevant'
  )
    return withCheck({ outcome: 'related', related: relatedReason(answer, check) });
  if (!answer.answered) return withCheck({ outcome: 'not-answered' });
  return withCheck({ outcome: 'answers' });
}
