/**
 * A v1.2 answer as a verifier decides it (certificate v1.2, docs/certificate.md "The answer check"):
 * the outcome and the answer check, passing unless `check` changes it. For the tests of the places
 * that show the three outcomes (the CLI, the web panel, the widget) without building a v1.2 bundle.
 */
import type { BundleVerification, CheckDecision } from '@saksi/proof';

export function answerDecision(
  outcome: 'answered' | 'related',
  check: Partial<CheckDecision> = {},
): BundleVerification['answer'] {
  const decision: CheckDecision = {
    status: 'answers',
    score: 0.91,
    threshold: 0.62,
    alpha: 0.05,
    method: { id: 'answer-check', version: '1' },
    calibration_sha256: 'ab'.repeat(32),
    asked: 'amount',
    constraints: [],
    unmet: [],
    mismatches: [],
    ...check,
  };
  const passes = outcome === 'answered' && decision.status === 'answers';
  return {
    outcome,
    answered: passes,
    relevant: {
      status: passes ? 'relevant' : 'not_relevant',
      score: decision.score,
      threshold: decision.threshold,
      method: decision.method,
    },
    check: decision,
  };
}
