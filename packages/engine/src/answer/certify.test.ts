/**
 * The certify stage writes certificate v1.1 (docs/certificate.md): each claim's relevance with its
 * method, the answer's relevance and outcome, and a refusal's reason — and a verifier reads the
 * three results back from the signed bundle.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { trustOptions, verifyBundle } from '@saksi/proof';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusalReasonOf, relevanceRecord } from './certify.js';

const repository = path.resolve(import.meta.dirname, '../../../..');
const shared = path.resolve(repository, '../shared/data');

describe('relevance and refusal records', () => {
  it('records the method with its version and the threshold the issuer applied', () => {
    expect(relevanceRecord({ score: 0.7444, threshold: 0.3, method: 'lexical-v3' }, 0.6)).toEqual({
      score: 0.744,
      threshold: 0.18,
      method: { id: 'lexical-v3', version: '3' },
    });
    expect(
      relevanceRecord({ score: 0.5, threshold: 0.4, method: { id: 'llm-judge', version: '2' } }),
    ).toEqual({
      score: 0.5,
      threshold: 0.4,
      method: { id: 'llm-judge', version: '2' },
    });
    expect(relevanceRecord({ score: 0.5, threshold: 0.4, method: 'other-v7' }).method).toEqual({
      id: 'other-v7',
      version: '7',
    });
    // Always inside [0, 1], as the certificate schema requires.
    expect(relevanceRecord({ score: Number.NaN, threshold: 1.7, method: 'lexical-v3' })).toMatchObject({
      score: 0,
      threshold: 1,
    });
  });

  it('maps the engine refusals to the certificate reasons', () => {
    expect(refusalReasonOf('SLOT_UNAVAILABLE')).toBe('MISSING_SLOT');
    expect(refusalReasonOf('NOT_COVERED')).toBe('NOT_COVERED');
    expect(refusalReasonOf('NO_EVIDENCE')).toBe('NO_EVIDENCE');
    expect(refusalReasonOf('INVALID_QUESTION')).toBe('INVALID_QUESTION');
  });
});

let test: TestEngine;

/** UU 22/2009 Pasal 285–291 (BAB XX, Ketentuan Pidana). */
function lawExcerpt(): string {
  const lines = readFileSync(
    path.join(shared, 'corpora/uu-22-2009-llaj/uu-22-2009-llaj.fulltext.md'),
    'utf8',
  ).split('\n');
  const start = lines.findIndex((line) => line.trim() === 'Pasal 285');
  const end = lines.findIndex((line) => line.trim() === 'Pasal 292');
  return `# UU 22/2009 BAB XX KETENTUAN PIDANA\n\n${lines.slice(start, end).join('\n')}\n`;
}

describe('asking writes v1.2 certificates', () => {
  beforeAll(async () => {
    test = await openTestEngine();
    await test.engine.ingest(
      'lalu-lintas',
      {
        bytes: new TextEncoder().encode(lawExcerpt()),
        filename: 'uu-22-2009-pidana.md',
        title: 'UU 22/2009',
      },
      { language: 'id' },
    );
    await test.engine.ingest(
      'apbn',
      {
        bytes: new Uint8Array(readFileSync(path.join(repository, 'corpora/apbn-uu/uu-2022-28.md'))),
        filename: 'uu-2022-28.md',
        fiscal_year: 2023,
      },
      { language: 'id', profile: { domain: 'budget', rewrite_rules: ['budget'] } },
    );
  });
  afterAll(async () => {
    await test?.close();
  });

  it('an answer: claims with their relevance, the answer relevant and answered', async () => {
    const question = 'Berapa denda pengendara sepeda motor yang tidak mengenakan helm standar nasional?';
    const result = await test.engine.ask('lalu-lintas', { question });
    expect(result.found).toBe(true);
    const certificate = result.bundle.certificate;
    expect(certificate.schema).toBe('saksi.certificate/v1.2');
    expect(certificate.answer.outcome).toBe('answered');
    // The answer check: the calibrated score at or above its threshold, the risk and what was read.
    const check = certificate.answer.check!;
    expect(check.method).toEqual({ id: 'answer-check', version: '1' });
    expect(check.score).toBeGreaterThanOrEqual(check.threshold);
    expect(check.alpha).toBe(0.05);
    expect(check.calibration_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(check.asked).toBe('amount');
    expect(check.constraints).toEqual([]);
    expect(certificate.answer.refusal).toBeUndefined();
    expect(certificate.answer.relevance?.method).toEqual({ id: 'lexical-v4', version: '4' });
    expect(certificate.answer.relevance!.score).toBeGreaterThanOrEqual(
      certificate.answer.relevance!.threshold,
    );
    for (const claim of certificate.claims) {
      expect(claim.relevance?.method).toEqual({ id: 'lexical-v4', version: '4' });
      expect(claim.relevance!.threshold).toBe(0.18);
      const verifier = claim.composition ? 'composition' : 'verbatim';
      expect(claim.verification.verifier.id).toBe(verifier);
    }
    const verification = await verifyBundle(result.bundle, {
      ...trustOptions(test.engine.trustedKeys()),
      presentedQuestion: question,
      vocabulary: SAKSI_VOCABULARY,
    });
    expect(verification.authentic).toBe(true);
    expect(verification.answer).toMatchObject({
      outcome: 'answered',
      answered: true,
      relevant: { status: 'relevant' },
    });
    for (const claim of verification.claims) {
      expect(claim.rendered).toBe(true);
      expect(['verbatim', 'composed']).toContain(claim.supported.kind);
      expect(claim.relevant.status).toBe('relevant');
    }
  });

  it('signs the question normalized, so white space around it and its Unicode form do not matter', async () => {
    const question = 'Berapa denda pengendara yang tidak mengenakan helm standar nasional? (café)';
    const asked = `\u00a0 ${question.normalize('NFD')}\r\n`;
    const result = await test.engine.ask('lalu-lintas', { question: asked });
    expect(result.bundle.certificate.query.text).toBe(question);
    const trust = trustOptions(test.engine.trustedKeys());
    for (const presented of [asked, question, ` ${question} `, question.normalize('NFD')]) {
      const verification = await verifyBundle(result.bundle, {
        ...trust,
        presentedQuestion: presented,
        vocabulary: SAKSI_VOCABULARY,
      });
      expect(verification.codes).toEqual([]);
    }
    const other = await verifyBundle(result.bundle, {
      ...trust,
      presentedQuestion: ' Berapa denda pengendara yang tidak mengenakan sabuk pengaman? ',
      vocabulary: SAKSI_VOCABULARY,
    });
    expect(other.codes).toEqual(['QUERY_MISMATCH']);
  });

  it('an answer from another provision than the question names is related passages, and the verifier agrees', async () => {
    const question = 'Berapa denda pengendara motor yang tidak mengenakan helm menurut Pasal 300?';
    const result = await test.engine.ask('lalu-lintas', { question });
    expect(result.found).toBe(false);
    const answer = result.bundle.certificate.answer;
    expect(answer.outcome).toBe('related');
    expect(answer.check).toMatchObject({ asked: 'amount', constraints: ['section:300'] });
    expect(answer.check!.score).toBe(0);
    // The passages are quoted as related, with why they are not the answer.
    expect(result.answer).toMatch(/^Dokumen tidak menjawab pertanyaan ini secara pasti\./);
    expect(result.answer).toContain('Bagian ini tidak menyebut Pasal 300.');
    expect(result.bundle.certificate.claims.length).toBeGreaterThan(0);
    const verification = await verifyBundle(result.bundle, {
      ...trustOptions(test.engine.trustedKeys()),
      vocabulary: SAKSI_VOCABULARY,
    });
    expect(verification.authentic).toBe(true);
    expect(verification.answer.outcome).toBe('related');
    expect(verification.answer.answered).toBe(false);
    expect(verification.answer.check?.status).toBe('not_confirmed');
    expect(verification.answer.check?.mismatches).toContain('CONSTRAINT_UNMET');
  });

  it('a refusal for a fiscal year the collection lacks records MISSING_SLOT', async () => {
    const result = await test.engine.ask('apbn', { question: 'defisit APBN tahun 2021 berapa?' });
    expect(result.found).toBe(false);
    const answer = result.bundle.certificate.answer;
    expect(answer).toMatchObject({ outcome: 'refused', refusal: { reason: 'MISSING_SLOT' } });
    expect(answer.relevance).toBeUndefined();
    const verification = await verifyBundle(result.bundle, {
      ...trustOptions(test.engine.trustedKeys()),
      vocabulary: SAKSI_VOCABULARY,
    });
    expect(verification.authentic).toBe(true);
    expect(verification.answer).toEqual({
      outcome: 'refused',
      refusal: 'MISSING_SLOT',
      relevant: { status: 'unknown' },
      answered: false,
    });
  });

  it('a question the documents do not cover, and one with nothing to search for', async () => {
    const uncovered = await test.engine.ask('lalu-lintas', {
      question: 'How do I bake sourdough bread at home?',
    });
    expect(uncovered.bundle.certificate.answer).toMatchObject({
      outcome: 'refused',
      refusal: { reason: 'NOT_COVERED' },
    });
    const empty = await test.engine.ask('lalu-lintas', { question: '🚗💨🚦' });
    expect(empty.bundle.certificate.answer).toMatchObject({
      outcome: 'refused',
      refusal: { reason: 'INVALID_QUESTION' },
    });
    for (const result of [uncovered, empty]) {
      const verification = await verifyBundle(result.bundle, {
        ...trustOptions(test.engine.trustedKeys()),
        vocabulary: SAKSI_VOCABULARY,
      });
      expect(verification.authentic).toBe(true);
      expect(verification.answer.answered).toBe(false);
    }
  });
});
