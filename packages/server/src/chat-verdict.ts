/**
 * The server's view of an answer for `POST /api/v1/chat` (docs/api.md, "POST /api/v1/chat"): which
 * of the three outcomes its signed certificate states, read from the certificate alone. It is a
 * convenience for clients that show the answer before (or without) verifying it; the verdict a
 * reader should rely on is `verifyBundle`'s, run where the reader is (the web panel, the widget,
 * `saksi verify`). Hence `view: 'server'`.
 *
 * - `answered`: the certificate says answered and its answer check (v1.2) scores at or above its
 *   threshold — for an older certificate, its relevance when it records one;
 * - `related`: the certificate says related, or says answered below its threshold: related passages,
 *   not a confirmed answer;
 * - `refused`: the certificate says refused.
 */
import type { Certificate } from '@saksi/proof';

/** The answer check of a v1.2 certificate, as the chat reply repeats it. */
export interface ChatVerdictCheck {
  score: number;
  threshold: number;
  /** The risk the threshold was calibrated for: at most this share of released answers were wrong. */
  alpha: number;
  method: { id: string; version: string };
}

export interface ChatVerdict {
  outcome: 'answered' | 'related' | 'refused';
  /** True only for `answered`: the signed outcome is answered and the answer check passes. */
  answers_question: boolean;
  check?: ChatVerdictCheck;
  /** Read from the signed certificate by the server, not a verification. */
  view: 'server';
}

/**
 * The server's verdict on `certificate`: its signed outcome, and whether the answer check (score ≥
 * threshold) confirms it answers the question.
 *
 * @example
 * chatVerdict(result.bundle.certificate); // { outcome: 'answered', answers_question: true, check: {…}, view: 'server' }
 */
export function chatVerdict(certificate: Certificate): ChatVerdict {
  const answer = certificate.answer;
  // A certificate before v1.1 states no outcome: an answer has claims, a refusal none.
  const signed = answer.outcome ?? (certificate.claims.length > 0 ? 'answered' : 'refused');
  const signedCheck = answer.check;
  const check: ChatVerdictCheck | undefined = signedCheck && {
    score: signedCheck.score,
    threshold: signedCheck.threshold,
    alpha: signedCheck.alpha,
    method: { id: signedCheck.method.id, version: signedCheck.method.version },
  };
  const relevance = answer.relevance;
  const passes =
    check !== undefined
      ? check.score >= check.threshold
      : relevance !== undefined
        ? relevance.score >= relevance.threshold
        : true;
  const answers = signed === 'answered' && passes;
  return {
    outcome: signed === 'refused' ? 'refused' : answers ? 'answered' : 'related',
    answers_question: answers,
    ...(check !== undefined ? { check } : {}),
    view: 'server',
  };
}
