import type { BundleVerification, Check, CheckDecision, ClaimDecision } from '@saksi/proof';
import { answerDecision } from '@saksi/test-support/answer-decision';
import { describe, expect, it } from 'vitest';
import { CHECK_WORDS, RELATED_WORDS } from './strings.js';
import { problemWords, relatedWords, uncheckedVerdict, widgetVerdict } from './verdict.js';

const pin = { state: 'pinned' as const, fingerprint: 'ab12cd34ef567890'.padEnd(64, '0') };

function result(
  overrides: Partial<BundleVerification>,
  claims: Partial<ClaimDecision>[] = [],
): BundleVerification {
  return {
    verdict: 'verified',
    authentic: true,
    certificate_id: 'c',
    checks: [],
    codes: [],
    claims: claims as ClaimDecision[],
    answer: { outcome: 'answered', relevant: { status: 'relevant' }, answered: true },
    summary: { verified: 0, blocked: 0, total: 0 },
    checkpoint: null,
    ...overrides,
  };
}

const supported = (kind: string) => ({ supported: { kind, method: kind } }) as Partial<ClaimDecision>;

/** A v1.2 answer as the verifier decides it: the outcome and the answer check (passing unless changed). */
function v12(outcome: 'answered' | 'related', check: Partial<CheckDecision>): BundleVerification['answer'] {
  return answerDecision(outcome, check);
}

describe('widgetVerdict', () => {
  it('counts the claims the verifier found supported, not what the certificate said', () => {
    const verdict = widgetVerdict(
      result({}, [supported('verbatim'), supported('not_supported'), supported('entailed')]),
      pin,
      'id',
    );
    expect(verdict).toMatchObject({ state: 'verified', supported: 2, claims: 3, relevance: 'relevant' });
    expect(verdict.fingerprint).toBe('ab12 cd34 ef56 7890');
  });

  it('an older authentic answer below its relevance threshold is related passages, not an answer', () => {
    const verdict = widgetVerdict(
      result({ answer: { outcome: 'answered', relevant: { status: 'not_relevant' }, answered: false } }, [
        supported('verbatim'),
      ]),
      pin,
      'en',
    );
    expect(verdict).toMatchObject({
      state: 'related',
      authentic: true,
      relevance: 'not_relevant',
      reason: RELATED_WORDS.en.relevance,
    });
  });

  it('an authentic answer with no claim shown as verified is not answered', () => {
    const verdict = widgetVerdict(
      result({ answer: { outcome: 'answered', relevant: { status: 'relevant' }, answered: false } }, [
        supported('not_supported'),
      ]),
      pin,
      'en',
    );
    expect(verdict).toMatchObject({ state: 'not-answered', authentic: true });
    expect(verdict.reason).toBeUndefined();
  });

  it('an answer the v1.2 answer check confirms is verified, with its score, threshold and risk', () => {
    const verdict = widgetVerdict(
      result({ answer: v12('answered', {}) }, [supported('verbatim')]),
      pin,
      'en',
    );
    expect(verdict).toMatchObject({
      state: 'verified',
      relevance: 'relevant',
      check: { score: 0.91, threshold: 0.62, alpha: 0.05 },
    });
    expect(verdict.reason).toBeUndefined();
  });

  it('an "answered" the verifier does not confirm is related passages, never relevant, with why', () => {
    const forged = v12('answered', {
      status: 'not_confirmed',
      unmet: ['year:2013'],
      mismatches: ['CONSTRAINT_UNMET'],
    });
    const english = widgetVerdict(result({ answer: forged }, [supported('verbatim')]), pin, 'en');
    expect(english).toMatchObject({ state: 'related', authentic: true, relevance: 'not_relevant' });
    expect(english.reason).toBe('The passages do not mention 2013.');
    const indonesian = widgetVerdict(result({ answer: forged }, [supported('verbatim')]), pin, 'id');
    expect(indonesian.reason).toBe('Bagian-bagian ini tidak menyebut tahun 2013.');
    // The issuer released it as related: related, even when the check would pass.
    const issued = widgetVerdict(result({ answer: v12('related', {}) }, [supported('verbatim')]), pin, 'en');
    expect(issued).toMatchObject({
      state: 'related',
      relevance: 'not_relevant',
      reason: RELATED_WORDS.en.issuer,
    });
  });

  it('says why passages are only related in both languages', () => {
    expect(relatedWords({ kind: 'value', asked: 'amount' }, 'en')).toBe(
      'No amount is stated in the passages.',
    );
    expect(relatedWords({ kind: 'value', asked: 'steps' }, 'id')).toBe(
      'Tidak ada nilai yang ditanyakan yang disebutkan dalam bagian-bagian ini.',
    );
    expect(relatedWords({ kind: 'below', score: 0.41, threshold: 0.62 }, 'id')).toBe(
      'Pemeriksaan jawaban bernilai 0,41, di bawah batas 0,62.',
    );
    expect(
      relatedWords(
        {
          kind: 'unmet',
          constraints: [
            { kind: 'regulation', value: '17/2003' },
            { kind: 'section', value: '287' },
          ],
        },
        'en',
      ),
    ).toBe('The passages do not mention regulation 17/2003 or section 287.');
    expect(Object.keys(RELATED_WORDS.id).sort()).toEqual(Object.keys(RELATED_WORDS.en).sort());
    for (const key of ['reading', 'rules', 'relevance', 'issuer'] as const)
      expect(RELATED_WORDS.id[key]).not.toBe(RELATED_WORDS.en[key]);
  });

  it('a failed check is failed whatever else the result says, with each failure said once', () => {
    const fail = (id: Check['id']): Check => ({ id, status: 'fail', message: '', problems: [] });
    const verdict = widgetVerdict(
      result({ authentic: false, verdict: 'failed', checks: [fail('signature'), fail('hashes')] }, [
        supported('verbatim'),
      ]),
      pin,
      'id',
    );
    expect(verdict).toMatchObject({ state: 'failed', authentic: false, supported: 0, relevance: 'unknown' });
    expect(verdict.problems).toEqual([CHECK_WORDS.id.signature, CHECK_WORDS.id.hashes]);
    expect(problemWords(['anchor_proofs', 'anchor_proofs'], 'en')).toEqual([CHECK_WORDS.en.anchor_proofs]);
  });

  it('an unchecked answer has no result at all', () => {
    expect(
      uncheckedVerdict('key-changed', {
        state: 'changed',
        fingerprint: 'a'.repeat(64),
        published: 'b'.repeat(64),
      }),
    ).toEqual({
      state: 'key-changed',
      authentic: null,
      supported: 0,
      claims: 0,
      relevance: 'unknown',
      pin: 'changed',
      fingerprint: 'aaaa aaaa aaaa aaaa',
      published: 'bbbb bbbb bbbb bbbb',
      problems: [],
    });
  });
});
