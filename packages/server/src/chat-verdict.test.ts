/**
 * The chat reply's `verdict`: the server's view of the three outcomes, read from the signed
 * certificate — answered only when the certificate says answered and its answer check passes.
 */
import type { Certificate } from '@saksi/proof';
import { buildGoldenFixture } from '@saksi/test-support/golden';
import { describe, expect, it } from 'vitest';
import { chatVerdict } from './chat-verdict.js';

const golden = buildGoldenFixture({ version: 'v1.1' }).bundle.certificate;

/** The golden v1.1 certificate with `answer` changed (a v1.2 outcome and answer check, say). */
function withAnswer(answer: Record<string, unknown>): Certificate {
  const certificate = structuredClone(golden);
  Object.assign(certificate.answer, answer);
  return certificate;
}

const check = (score: number) => ({
  method: { id: 'answer-check', version: '1' },
  score,
  threshold: 0.62,
  alpha: 0.05,
  calibration_sha256: 'ab'.repeat(32),
  asked: 'amount',
  constraints: [],
});

describe('chatVerdict', () => {
  it('an answer whose check passes answers the question, with the check repeated', () => {
    expect(chatVerdict(withAnswer({ outcome: 'answered', check: check(0.91) }))).toEqual({
      outcome: 'answered',
      answers_question: true,
      check: { score: 0.91, threshold: 0.62, alpha: 0.05, method: { id: 'answer-check', version: '1' } },
      view: 'server',
    });
  });

  it('related passages, or an "answered" below its threshold, never answer the question', () => {
    expect(chatVerdict(withAnswer({ outcome: 'related', check: check(0.41) }))).toMatchObject({
      outcome: 'related',
      answers_question: false,
      check: { score: 0.41 },
    });
    expect(chatVerdict(withAnswer({ outcome: 'answered', check: check(0.41) }))).toMatchObject({
      outcome: 'related',
      answers_question: false,
    });
  });

  it('a refusal is refused; an older certificate follows its outcome and relevance', () => {
    const refused = withAnswer({ outcome: 'refused', refusal: { reason: 'NOT_COVERED' } });
    delete refused.answer.relevance;
    expect(chatVerdict(refused)).toEqual({ outcome: 'refused', answers_question: false, view: 'server' });
    expect(chatVerdict(golden)).toEqual({ outcome: 'answered', answers_question: true, view: 'server' });
    const weak = withAnswer({ relevance: { ...golden.answer.relevance, score: 0.1 } });
    expect(chatVerdict(weak)).toMatchObject({ outcome: 'related', answers_question: false });
  });
});
