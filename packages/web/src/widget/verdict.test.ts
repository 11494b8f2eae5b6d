import type { BundleVerification, Check, ClaimDecision } from '@saksi/proof';
import { describe, expect, it } from 'vitest';
import { CHECK_WORDS } from './strings.js';
import { problemWords, uncheckedVerdict, widgetVerdict } from './verdict.js';

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

  it('an authentic answer below its relevance threshold is not answered', () => {
    const verdict = widgetVerdict(
      result({ answer: { outcome: 'answered', relevant: { status: 'not_relevant' }, answered: false } }, [
        supported('verbatim'),
      ]),
      pin,
      'en',
    );
    expect(verdict).toMatchObject({ state: 'not-answered', authentic: true, relevance: 'not_relevant' });
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
