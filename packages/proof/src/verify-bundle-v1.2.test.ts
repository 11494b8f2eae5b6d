/**
 * Certificate v1.2 end to end (docs/certificate.md, "The answer check"): the answer check's fields
 * and where they are allowed, the outcome `related`, and bundles signed with the test issuer keys —
 * a good answer, a related one, and "relevant" answers forged by a compromised issuer (re-signed with
 * the real keys, so only the verifier's own reading of the answer check can catch them).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  GOLDEN_LABELLED_DOCUMENTS,
  GOLDEN_ORIGIN,
  GOLDEN_QUESTION,
  GOLDEN_RELEVANCE,
  GOLDEN_V11_CLAIMS,
} from '@saksi/test-support/golden';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../test/codes.js';
import { cosigners, issuerKey, logSigner, resign } from '../test/resign.js';
import { buildCertificate, issuerFromSecretKey } from './build-certificate.js';
import {
  type AnswerCheck,
  type Bundle,
  CERTIFICATE_SCHEMA_V1_1,
  CERTIFICATE_SCHEMA_V1_2,
  validateCertificate,
} from './certificate.js';
import { isProofError } from './errors.js';
import { sha256Hex } from './hash.js';
import { MemoryLog } from './memory-log.js';
import { type IssueBundleInput, issueBundle } from './reference-issuer.js';
import { decideAnswer, decideRender } from './render-policy.js';
import { parseTrustedKeys, trustOptions } from './trust.js';
import { type VerifyBundleOptions, verifyBundle } from './verify-bundle.js';
import { SAKSI_VOCABULARY } from './vocabulary.js';

const fixtures = path.resolve(import.meta.dirname, '../__fixtures__');
const keys = parseTrustedKeys(readFileSync(path.join(fixtures, 'golden-keys.json'), 'utf8'));
const committedV11 = JSON.parse(
  readFileSync(path.join(fixtures, 'golden-v1.1-bundle.json'), 'utf8'),
) as Bundle;
const optionsFor = (question: string): VerifyBundleOptions => ({
  ...trustOptions(keys),
  presentedQuestion: question,
  vocabulary: SAKSI_VOCABULARY,
});
const options = optionsFor(GOLDEN_QUESTION);

/** The answer check the good answer carries: "Kalau nerobos lampu merah kena denda berapa?" asks an amount. */
const CHECK: AnswerCheck = {
  method: { id: 'answer-check', version: '1' },
  score: 0.91,
  threshold: 0.62,
  alpha: 0.05,
  calibration_sha256: sha256Hex('calibration report'),
  asked: 'amount',
  constraints: [],
};

/** The rule broken, with no amount in it ("melanggar aturan perintah atau larangan …"). */
const RULE_SPAN = GOLDEN_V11_CLAIMS[1]!.evidence[0]!.span_text;

/** Issues a real v1.2 bundle signed with the golden keys, in a log of its own. */
function issue(input: Partial<IssueBundleInput> = {}): Bundle {
  return issueBundle(inputOf(input));
}

/** The same without an answer check. */
function issueWithoutCheck(input: Partial<IssueBundleInput> = {}): Bundle {
  const { check: _, ...rest } = inputOf(input);
  return issueBundle(rest);
}

function inputOf(input: Partial<IssueBundleInput>): IssueBundleInput {
  return {
    documents: GOLDEN_LABELLED_DOCUMENTS,
    question: GOLDEN_QUESTION,
    answer: GOLDEN_V11_CLAIMS.map((claim) => claim.text).join(' '),
    claims: GOLDEN_V11_CLAIMS,
    retrieved: ['uu22-p287-a2', 'uu22-p287-a1', 'uu22-p287-a3'],
    collection: 'uu-22-2009-llaj',
    answerRelevance: GOLDEN_RELEVANCE,
    outcome: 'answered',
    check: CHECK,
    issuerName: 'saksi-golden',
    issuerSecretKey: issuerKey,
    log: new MemoryLog(GOLDEN_ORIGIN),
    logSigner,
    cosigners,
    issued_at: '2026-11-29T10:00:00Z',
    ...input,
  };
}

const good = issue();
const clone = (): Bundle => structuredClone(good);

describe('certificate v1.2: validation', () => {
  // biome-ignore lint/suspicious/noExplicitAny: tests poke arbitrary wrong values into a copy
  type Loose = Record<string, any>;
  const mutate = (edit: (certificate: Loose) => void, base: Bundle = good): unknown => {
    const copy = structuredClone(base.certificate) as unknown as Loose;
    edit(copy);
    return copy;
  };
  const invalid = (value: unknown) => codeOf(() => validateCertificate(value));
  /** The field validation names, for a certificate it refuses. */
  const fieldOf = (value: unknown): string | undefined => {
    try {
      validateCertificate(value);
    } catch (error) {
      return isProofError(error, 'CERTIFICATE_INVALID') ? error.details : undefined;
    }
    return undefined;
  };

  it('the issuer writes v1.2, with the check as given', () => {
    expect(good.certificate.schema).toBe(CERTIFICATE_SCHEMA_V1_2);
    expect(good.certificate.answer.check).toEqual(CHECK);
    expect(validateCertificate(structuredClone(good.certificate))).toBeTruthy();
    const issuer = issuerFromSecretKey('test', issuerKey);
    const { certificate } = buildCertificate({
      issuer,
      query: { text: 'Berapa denda?' },
      retrieval: {
        collection: 'c',
        parameters: { top_k: 1, rrf_k: 60, weights: {}, rewrite_variants: [] },
        results: [],
      },
      answer: {
        text: '',
        generator: { kind: 'extractive', model: 'm', version: '1' },
        outcome: 'related',
        check: { ...CHECK, score: 0.2 },
      },
      claims: [],
    });
    expect(certificate.schema).toBe(CERTIFICATE_SCHEMA_V1_2);
    expect(certificate.answer).toMatchObject({ outcome: 'related', check: { ...CHECK, score: 0.2 } });
  });

  it('v1.1 refuses the outcome related and the check; older fixtures stay v1.1', () => {
    expect(committedV11.certificate.schema).toBe(CERTIFICATE_SCHEMA_V1_1);
    expect(
      invalid(
        mutate((c) => {
          c.answer.outcome = 'related';
        }, committedV11),
      ),
    ).toBe('CERTIFICATE_INVALID');
    expect(
      invalid(
        mutate((c) => {
          c.answer.check = structuredClone(CHECK);
        }, committedV11),
      ),
    ).toBe('CERTIFICATE_INVALID');
    expect(codeOf(() => issue({ schema: CERTIFICATE_SCHEMA_V1_1 }))).toBe('CERTIFICATE_INVALID');
    expect(codeOf(() => issueWithoutCheck({ schema: CERTIFICATE_SCHEMA_V1_1, outcome: 'related' }))).toBe(
      'CERTIFICATE_INVALID',
    );
    // The reference issuer writes v1.1 when nothing needs v1.2.
    expect(issueWithoutCheck().certificate.schema).toBe(CERTIFICATE_SCHEMA_V1_1);
  });

  it('v1.2 requires the check with answered and related, and refuses it otherwise', () => {
    expect(fieldOf(mutate((c) => delete c.answer.check))).toBe('certificate.answer.check');
    expect(
      invalid(
        mutate((c) => {
          c.answer.outcome = 'related';
          delete c.answer.check;
        }),
      ),
    ).toBe('CERTIFICATE_INVALID');
    expect(
      invalid(
        mutate((c) => {
          c.answer.outcome = 'refused';
          c.answer.refusal = { reason: 'NOT_COVERED' };
        }),
      ),
    ).toBe('CERTIFICATE_INVALID');
    expect(invalid(mutate((c) => delete c.answer.outcome))).toBe('CERTIFICATE_INVALID');
    // Without the check, a refusal and an answer with no outcome are valid v1.2.
    expect(
      invalid(
        mutate((c) => {
          c.answer.outcome = 'refused';
          c.answer.refusal = { reason: 'NOT_COVERED' };
          delete c.answer.check;
        }),
      ),
    ).toBeUndefined();
    expect(
      invalid(
        mutate((c) => {
          delete c.answer.outcome;
          delete c.answer.check;
        }),
      ),
    ).toBeUndefined();
    expect(
      invalid(
        mutate((c) => {
          c.answer.outcome = 'related';
        }),
      ),
    ).toBeUndefined();
  });

  /** Changes to a good check, each of which makes it invalid (`undefined` removes a field). */
  const cases: [string, Loose][] = [
    ['an upper-case calibration hash', { calibration_sha256: CHECK.calibration_sha256.toUpperCase() }],
    ['a short calibration hash', { calibration_sha256: 'abcd' }],
    ['alpha 0', { alpha: 0 }],
    ['alpha 1', { alpha: 1 }],
    ['alpha above 1', { alpha: 1.5 }],
    ['alpha as text', { alpha: '0.05' }],
    ['a score above 1', { score: 1.2 }],
    ['a NaN score', { score: Number.NaN }],
    ['a negative threshold', { threshold: -0.1 }],
    ['a method without a version', { method: { id: 'answer-check' } }],
    ['an empty asked type', { asked: '' }],
    ['an asked type of 1,001 characters', { asked: 'a'.repeat(1001) }],
    ['constraints out of order', { constraints: ['year:2019', 'regulation:12/2018'] }],
    ['a repeated constraint', { constraints: ['year:2019', 'year:2019'] }],
    ['33 constraints', { constraints: Array.from({ length: 33 }, (_, i) => `year:${1950 + i}`) }],
    ['an empty constraint', { constraints: [''] }],
    ['an unknown field', { extra: true }],
    ['a missing field', { calibration_sha256: undefined }],
  ];
  for (const [name, change] of cases) {
    it(`rejects a check with ${name}`, () => {
      const certificate = mutate((c) => Object.assign(c.answer.check, change));
      expect(invalid(certificate)).toBe('CERTIFICATE_INVALID');
      expect(fieldOf(certificate)).toMatch(/^certificate\.answer\.check\b/);
    });
  }

  it('accepts the bounds: score and threshold 0 and 1, 32 sorted constraints', () => {
    expect(
      invalid(
        mutate((c) => {
          Object.assign(c.answer.check, { score: 0, threshold: 1, alpha: 0.001 });
          c.answer.check.constraints = Array.from({ length: 32 }, (_, i) => `year:${1950 + i}`);
        }),
      ),
    ).toBeUndefined();
  });
});

describe('certificate v1.2: the verifier reads the answer check', () => {
  it('a good answer verifies as answered: the check answers, and relevance is the check', async () => {
    const result = await verifyBundle(good, options);
    expect(result.verdict).toBe('verified');
    expect(result.claims.map((claim) => [claim.rendered, claim.reason])).toEqual([
      [true, 'OK'],
      [true, 'OK'],
    ]);
    expect(result.answer).toEqual({
      outcome: 'answered',
      relevant: { status: 'relevant', score: 0.91, threshold: 0.62, method: CHECK.method },
      answered: true,
      check: {
        status: 'answers',
        score: 0.91,
        threshold: 0.62,
        alpha: 0.05,
        method: CHECK.method,
        calibration_sha256: CHECK.calibration_sha256,
        asked: 'amount',
        constraints: [],
        unmet: [],
        mismatches: [],
      },
    });
  });

  it('a question whose constraints the evidence meets: answered', async () => {
    const question = 'Berapa denda menerobos lampu merah menurut UU 22/2009 Pasal 287?';
    const result = await verifyBundle(
      issue({ question, check: { ...CHECK, constraints: ['regulation:22/2009', 'section:287'] } }),
      optionsFor(question),
    );
    expect(result.answer.answered).toBe(true);
    expect(result.answer.check).toMatchObject({
      status: 'answers',
      constraints: ['regulation:22/2009', 'section:287'],
      unmet: [],
    });
  });

  describe('forged "relevant" answers, re-signed with the issuer key, are caught', () => {
    /** Verifies a forged bundle: authentic (the issuer signed it), yet never answered. */
    async function caught(bundle: Bundle, question = GOLDEN_QUESTION) {
      const result = await verifyBundle(bundle, optionsFor(question));
      expect(result.codes).toEqual([]);
      expect(result.authentic).toBe(true);
      expect(result.answer.outcome).toBe('answered');
      expect(result.answer.answered).toBe(false);
      expect(result.answer.relevant.status).toBe('not_relevant');
      expect(result.answer.check?.status).toBe('not_confirmed');
      return result.answer.check!;
    }

    it('(a) the asked type changed to one the question does not ask: ASKED_TYPE', async () => {
      const bundle = clone();
      bundle.certificate.answer.check!.asked = 'definition';
      const check = await caught(resign(bundle));
      expect(check.mismatches).toEqual(['ASKED_TYPE']);
      expect(check.asked).toBe('amount');
    });

    it('(b) a year the question names and no evidence has, with the constraints set to match: CONSTRAINT_UNMET', async () => {
      const question = 'Kalau nerobos lampu merah tahun 2013 kena denda berapa?';
      const bundle = clone();
      bundle.certificate.query.text = question;
      bundle.certificate.query.sha256 = sha256Hex(question);
      bundle.certificate.answer.check!.constraints = ['year:2013'];
      const check = await caught(resign(bundle), question);
      expect(check.mismatches).toEqual(['CONSTRAINT_UNMET']);
      expect(check).toMatchObject({ constraints: ['year:2013'], unmet: ['year:2013'] });
      // Leaving the constraint out of the certificate is caught too: the verifier reads the question.
      bundle.certificate.answer.check!.constraints = [];
      expect((await caught(resign(bundle), question)).mismatches).toEqual([
        'CONSTRAINTS',
        'CONSTRAINT_UNMET',
      ]);
    });

    it('(c) an amount question answered by a claim that states no amount: VALUE_MISSING', async () => {
      const text = `${RULE_SPAN} [1]`;
      const bundle = issue({
        answer: text,
        claims: [
          {
            text,
            evidence: [{ chunk_id: 'uu22-p287-a2', span_text: RULE_SPAN }],
            verification: { label: 'entailed', confidence: 1, verifier: { id: 'verbatim', version: '1' } },
            relevance: GOLDEN_RELEVANCE,
          },
        ],
      });
      const result = await verifyBundle(bundle, options);
      // The quote itself is authentic and supported, and shown as such…
      expect(result.claims[0]).toMatchObject({ rendered: true, supported: { kind: 'verbatim' } });
      // …but it is not an answer to "how much".
      const check = await caught(bundle);
      expect(check.mismatches).toEqual(['VALUE_MISSING']);
      expect(check.asked).toBe('amount');
    });

    it('(d) a score below the threshold with the outcome answered: BELOW_THRESHOLD', async () => {
      const bundle = clone();
      bundle.certificate.answer.check!.score = 0.4;
      const check = await caught(resign(bundle));
      expect(check.mismatches).toEqual(['BELOW_THRESHOLD']);
      const result = await verifyBundle(bundle, options);
      expect(result.answer.relevant).toEqual({
        status: 'not_relevant',
        score: 0.4,
        threshold: 0.62,
        method: CHECK.method,
      });
    });

    it('a high answer relevance cannot stand in for the check', async () => {
      const bundle = clone();
      bundle.certificate.answer.relevance = { ...GOLDEN_RELEVANCE, score: 1 };
      bundle.certificate.answer.check!.score = 0.1;
      const check = await caught(resign(bundle));
      expect(check.mismatches).toEqual(['BELOW_THRESHOLD']);
    });
  });

  it('a related answer: outcome related, never answered, its quotes still shown as related passages', async () => {
    const related = await verifyBundle(
      issue({ outcome: 'related', check: { ...CHECK, score: 0.4 } }),
      options,
    );
    expect(related.verdict).toBe('verified');
    expect(related.answer).toMatchObject({
      outcome: 'related',
      answered: false,
      relevant: { status: 'not_relevant', score: 0.4, threshold: 0.62, method: CHECK.method },
      check: { status: 'not_confirmed', mismatches: ['BELOW_THRESHOLD'] },
    });
    expect(related.claims.map((claim) => claim.rendered)).toEqual([true, true]);
    // Even a check that holds does not make a related answer an answer.
    const holding = await verifyBundle(issue({ outcome: 'related' }), options);
    expect(holding.answer).toMatchObject({
      outcome: 'related',
      answered: false,
      relevant: { status: 'not_relevant' },
      check: { status: 'answers', mismatches: [] },
    });
  });

  it('a verifier without asked rules confirms nothing: NO_ASKED_RULES', async () => {
    const { asked: _, ...withoutRules } = SAKSI_VOCABULARY;
    const result = await verifyBundle(good, { ...options, vocabulary: withoutRules });
    expect(result.verdict).toBe('verified');
    expect(result.answer.answered).toBe(false);
    expect(result.answer.check).toMatchObject({
      status: 'not_confirmed',
      asked: 'other',
      mismatches: ['NO_ASKED_RULES'],
    });
    const empty = await verifyBundle(good, { ...options, vocabulary: { ...SAKSI_VOCABULARY, asked: [] } });
    expect(empty.answer.check?.mismatches).toEqual(['NO_ASKED_RULES']);
    // decideAnswer's call form before v1.2 (no vocabulary) is the same: nothing confirmed.
    const claims = decideRender(good.certificate, { integrityOk: true, vocabulary: SAKSI_VOCABULARY });
    expect(decideAnswer(good.certificate, claims, true).check?.mismatches).toEqual(['NO_ASKED_RULES']);
    expect(decideAnswer(good.certificate, claims, true, SAKSI_VOCABULARY).answered).toBe(true);
  });

  it('a certificate that is not authentic: relevance unknown, no check, not answered', async () => {
    const bundle = clone();
    bundle.certificate.answer.check!.score = 0.99; // by an outsider: the signature breaks
    const result = await verifyBundle(bundle, options);
    expect(result.codes).toContain('SIGNATURE_INVALID');
    expect(result.answer).toEqual({ outcome: 'answered', relevant: { status: 'unknown' }, answered: false });
    const claims = decideRender(good.certificate, { integrityOk: false, vocabulary: SAKSI_VOCABULARY });
    expect(decideAnswer(good.certificate, claims, false, SAKSI_VOCABULARY).check).toBeUndefined();
  });

  it('a v1.1 bundle is read as before: no check, relevance from the answer', async () => {
    const result = await verifyBundle(committedV11, options);
    expect(result.answer).toEqual({
      outcome: 'answered',
      relevant: { status: 'relevant', ...GOLDEN_RELEVANCE },
      answered: true,
    });
  });
});
