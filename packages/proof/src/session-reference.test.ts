/**
 * The session reference (docs/certificate.md, "The session reference"): keyed by the session id and
 * different for every certificate, checked by the session's holder; the unkeyed form of earlier
 * certificates still checks. node:crypto computes the same HMAC-SHA256 and SHA-256 as @noble/hashes.
 */
import { createHash, createHmac } from 'node:crypto';
import {
  GOLDEN_DOCUMENTS,
  GOLDEN_ISSUER,
  GOLDEN_ORIGIN,
  GOLDEN_QUESTION,
  testSecretKey,
} from '@saksi/test-support/golden';
import { describe, expect, it } from 'vitest';
import { isProofError } from './errors.js';
import { buildCertificate, createNoteSigner, issueBundle, issuerFromSecretKey, MemoryLog } from './issue.js';
import { matchSessionReference, sessionReference, unkeyedSessionReference } from './session-reference.js';

const SESSION = 'ses_01a2002dd4797794bc6da490a1b1d78f';
const OTHER_SESSION = 'ses_01a2002dd4797794bc6da490a1b1d790';
const CERTIFICATES = [
  '01a2002d-d388-7935-85c8-7c86b835e811',
  '01a2002d-df40-741f-97b0-c72727d75cd4',
  '01a2002e-0a11-7c3e-9a04-5d1e6b2f0c77',
];

function certificate(id: string, reference: unknown) {
  return { certificate_id: id, query: { text: 'Berapa denda?', session_id: reference } };
}

describe('sessionReference', () => {
  it('is sesmac_ and HMAC-SHA256 keyed by the session id over the context line and the certificate id', () => {
    const expected = createHmac('sha256', SESSION)
      .update(`saksi.session-reference/v2\n${CERTIFICATES[0]}`)
      .digest('hex');
    expect(sessionReference(SESSION, CERTIFICATES[0]!)).toBe(`sesmac_${expected}`);
    // A fixed vector, so the form cannot drift unnoticed.
    expect(sessionReference('ses_x', 'c')).toBe(
      `sesmac_${createHmac('sha256', 'ses_x').update('saksi.session-reference/v2\nc').digest('hex')}`,
    );
  });

  it('differs for every certificate of one session, and from every other session', () => {
    const references = CERTIFICATES.map((id) => sessionReference(SESSION, id));
    expect(new Set(references).size).toBe(3);
    for (const reference of references) expect(reference).toMatch(/^sesmac_[0-9a-f]{64}$/);
    expect(sessionReference(OTHER_SESSION, CERTIFICATES[0]!)).not.toBe(references[0]);
    // Nothing of the session id is in it, and the unkeyed form of the session is not either.
    for (const reference of references) {
      expect(reference).not.toContain(SESSION.slice(4, 20));
      expect(reference).not.toContain(unkeyedSessionReference(SESSION).slice(7));
    }
  });

  it('refuses an empty or overlong session id, or no certificate id', () => {
    const code = (run: () => unknown) => {
      try {
        run();
        return '';
      } catch (error) {
        return isProofError(error) ? error.code : String(error);
      }
    };
    expect(code(() => sessionReference('', CERTIFICATES[0]!))).toBe('INVALID_LENGTH');
    expect(code(() => sessionReference('s'.repeat(1_001), CERTIFICATES[0]!))).toBe('INVALID_LENGTH');
    expect(code(() => sessionReference(SESSION, ''))).toBe('INVALID_LENGTH');
    expect(code(() => matchSessionReference(certificate(CERTIFICATES[0]!, 'x'), ''))).toBe('INVALID_LENGTH');
  });
});

describe('unkeyedSessionReference', () => {
  it('is the form of earlier certificates: sesref_ and 32 hex digits of SHA-256, one per session', () => {
    const hash = createHash('sha256').update(`saksi session reference\n${SESSION}`).digest('hex');
    expect(unkeyedSessionReference(SESSION)).toBe(`sesref_${hash.slice(0, 32)}`);
  });
});

describe('matchSessionReference', () => {
  it("tells the session's holder which certificates belong to it", () => {
    for (const id of CERTIFICATES)
      expect(matchSessionReference(certificate(id, sessionReference(SESSION, id)), SESSION)).toEqual({
        status: 'belongs',
        form: 'keyed',
      });
    // Another session's certificate, or one whose reference was made for another certificate id.
    expect(
      matchSessionReference(
        certificate(CERTIFICATES[0]!, sessionReference(OTHER_SESSION, CERTIFICATES[0]!)),
        SESSION,
      ),
    ).toEqual({ status: 'other', form: 'keyed' });
    expect(
      matchSessionReference(
        certificate(CERTIFICATES[1]!, sessionReference(SESSION, CERTIFICATES[0]!)),
        SESSION,
      ),
    ).toEqual({ status: 'other', form: 'keyed' });
  });

  it('checks the unkeyed reference of earlier certificates', () => {
    const earlier = certificate(CERTIFICATES[0]!, unkeyedSessionReference(SESSION));
    expect(matchSessionReference(earlier, SESSION)).toEqual({ status: 'belongs', form: 'unkeyed' });
    expect(matchSessionReference(earlier, OTHER_SESSION)).toEqual({ status: 'other', form: 'unkeyed' });
  });

  it('says none without a reference and other for one of no known form; hostile input is not an error', () => {
    expect(matchSessionReference({ certificate_id: CERTIFICATES[0], query: { text: 'q' } }, SESSION)).toEqual(
      {
        status: 'none',
      },
    );
    expect(matchSessionReference(certificate(CERTIFICATES[0]!, 'ses_secret'), SESSION)).toEqual({
      status: 'other',
      form: 'unknown',
    });
    expect(matchSessionReference(certificate(CERTIFICATES[0]!, 42), SESSION)).toEqual({
      status: 'other',
      form: 'unknown',
    });
    const keyed = sessionReference(SESSION, CERTIFICATES[0]!);
    expect(matchSessionReference({ query: { session_id: keyed } }, SESSION)).toEqual({
      status: 'other',
      form: 'keyed',
    });
    for (const hostile of [null, undefined, 'certificate', [], { query: null }])
      expect(matchSessionReference(hostile, SESSION)).toEqual({ status: 'none' });
  });
});

describe('buildCertificate given the session', () => {
  it("records the session's keyed reference for the certificate's own id, never the id", () => {
    const issue = (session: string) =>
      issueBundle({
        documents: GOLDEN_DOCUMENTS,
        question: GOLDEN_QUESTION,
        answer: 'Dokumen tidak memuat jawaban untuk pertanyaan ini.',
        claims: [],
        retrieved: ['uu22-p287-a3'],
        outcome: 'refused',
        refusal: { reason: 'NOT_COVERED' },
        issuerName: GOLDEN_ISSUER,
        issuerSecretKey: testSecretKey('issuer'),
        log: new MemoryLog(GOLDEN_ORIGIN),
        logSigner: createNoteSigner(GOLDEN_ORIGIN, testSecretKey('log')),
        session,
      });
    const [first, second] = [issue(SESSION), issue(SESSION)];
    for (const bundle of [first!, second!]) {
      const { certificate } = bundle;
      expect(certificate.query.session_id).toBe(sessionReference(SESSION, certificate.certificate_id));
      expect(matchSessionReference(certificate, SESSION)).toEqual({ status: 'belongs', form: 'keyed' });
      expect(JSON.stringify(bundle)).not.toContain(SESSION.slice(4));
    }
    expect(first!.certificate.query.session_id).not.toBe(second!.certificate.query.session_id);
  });

  it('refuses the session and a reference together', () => {
    let code = '';
    try {
      buildCertificate({
        issuer: issuerFromSecretKey(GOLDEN_ISSUER, testSecretKey('issuer')),
        query: { text: GOLDEN_QUESTION, session: SESSION, session_id: 'sesref_0' },
        retrieval: {
          collection: 'c',
          parameters: { top_k: 1, rrf_k: 60, weights: {}, rewrite_variants: [] },
          results: [],
        },
        answer: { text: '', generator: { kind: 'extractive', model: 'm', version: '1' } },
        claims: [],
      });
    } catch (error) {
      code = isProofError(error) ? error.code : String(error);
    }
    expect(code).toBe('CERTIFICATE_INVALID');
  });
});
