import { buildGoldenFixture, testSecretKey } from '@saksi/test-support/golden';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../test/codes.js';
import { buildCertificate, issuerFromSecretKey, signCertificate, uuidv7 } from './build-certificate.js';
import {
  type Certificate,
  codePointLength,
  indexOfCodePoints,
  normalizeQuestion,
  normalizeText,
  sliceCodePoints,
  validateBundle,
  validateCertificate,
} from './certificate.js';
import { getPublicKey } from './ed25519.js';
import { sha256Hex } from './hash.js';
import { MemoryLog } from './memory-log.js';
import { verifyInclusionProof } from './merkle.js';
import { certificateToCredential, credentialToCertificate } from './vc.js';

const golden = buildGoldenFixture();

describe('code point offsets', () => {
  it('count astral characters once and slice exactly', () => {
    const text = 'a😀b\u{1F1EE}\u{1F1E9}c';
    expect(codePointLength(text)).toBe(6);
    expect(sliceCodePoints(text, 1, 2)).toBe('😀');
    expect(sliceCodePoints(text, 2, 6)).toBe('b\u{1F1EE}\u{1F1E9}c');
    expect(sliceCodePoints(text, 0, 0)).toBe('');
    expect(sliceCodePoints(text, 6, 6)).toBe('');
    expect(sliceCodePoints(text, 5, 7)).toBeUndefined();
    expect(sliceCodePoints(text, -1, 2)).toBeUndefined();
    expect(sliceCodePoints(text, 3, 2)).toBeUndefined();
    expect(sliceCodePoints(text, 0.5, 2)).toBeUndefined();
    expect(indexOfCodePoints(text, 'c')).toBe(5);
    expect(indexOfCodePoints(text, 'b', 3)).toBe(-1);
  });

  it('normalizes to NFC and LF', () => {
    expect(normalizeText('e\u0301\r\nx\ry')).toBe('é\nx\ny');
  });

  it('normalizes a question: NFC, LF, and no white space at either end', () => {
    expect(normalizeQuestion('  Apa itu re\u0301sume\u0301?\r\n')).toBe('Apa itu résumé?');
    expect(normalizeQuestion('\ufeff\u00a0\u3000a  b\r\nc\t\u2029')).toBe('a  b\nc');
    expect(normalizeQuestion(' \r\n\t ')).toBe('');
    // U+0085 and U+200B are not white space; they stay.
    expect(normalizeQuestion('\u0085a\u200b')).toBe('\u0085a\u200b');
    // The white space removed is exactly what ECMAScript's trim removes, code point by code point.
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const character = String.fromCharCode(code);
      const trimmed = `${character}x${character}`.trim() === 'x';
      expect(normalizeQuestion(`${character}x${character}`) === 'x', `U+${code.toString(16)}`).toBe(trimmed);
    }
  });
});

describe('uuidv7', () => {
  it('encodes the timestamp, version and variant', () => {
    const id = uuidv7(Date.UTC(2026, 10, 21), new Uint8Array(10));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.UTC(2026, 10, 21));
    expect(uuidv7()).not.toBe(uuidv7());
  });
});

describe('buildCertificate', () => {
  const issuer = issuerFromSecretKey('test', testSecretKey('issuer'));
  const base = {
    issuer,
    query: { text: 'Berapa denda?', nonce: '00'.repeat(16) },
    retrieval: {
      collection: 'c',
      parameters: { top_k: 1, rrf_k: 60, weights: {}, rewrite_variants: [] },
      results: [],
    },
    answer: {
      text: 'Dendanya Rp500.000,00.',
      generator: { kind: 'extractive' as const, model: 'm', version: '1' },
    },
  };
  const proof = { leaf_index: 0, tree_size: 1, path: [], document_root: '00'.repeat(32) };

  it('computes digests and offsets', () => {
    const { certificate, chunks } = buildCertificate({
      ...base,
      claims: [
        {
          text: 'Dendanya Rp500.000,00.',
          evidence: [
            {
              chunk_id: 'k',
              document_id: 'd',
              chunk_text: 'denda paling banyak Rp500.000,00 (lima ratus ribu rupiah)',
              span_text: 'Rp500.000,00',
              document_proof: proof,
              citation: { document_title: 'UU' },
            },
          ],
          verification: { label: 'entailed', confidence: 1, verifier: { id: 'v', version: '1' } },
          render: { rendered: true, reason: 'OK' },
        },
      ],
    });
    expect(certificate.claims[0]).toMatchObject({ answer_start: 0, answer_end: 22 });
    expect(certificate.claims[0]!.evidence[0]!.span).toMatchObject({
      start: 20,
      end: 32,
      text: 'Rp500.000,00',
    });
    expect(chunks).toHaveLength(1);
    expect(certificate.policy).toEqual({
      confidence_threshold: 0.5,
      require_anchor: false,
      fail_closed: true,
    });
  });

  it('signs the question normalized (docs/certificate.md, "The question")', () => {
    const { certificate } = buildCertificate({
      ...base,
      query: { ...base.query, text: '\u00a0 Berapa denda di kafe\u0301?\r\n' },
      claims: [],
    });
    expect(certificate.query.text).toBe('Berapa denda di kafé?');
    expect(certificate.query.sha256).toBe(sha256Hex('Berapa denda di kafé?'));
  });

  it('refuses a claim that is not in the answer and a span that is not in its chunk', () => {
    const claim = {
      text: 'Something else.',
      evidence: [],
      verification: { label: 'entailed' as const, confidence: 1, verifier: { id: 'v', version: '1' } },
      render: { rendered: true, reason: 'OK' as const },
    };
    expect(codeOf(() => buildCertificate({ ...base, claims: [claim] }))).toBe('CERTIFICATE_INVALID');
    const badSpan = {
      ...claim,
      text: 'Dendanya',
      evidence: [
        {
          chunk_id: 'k',
          document_id: 'd',
          chunk_text: 'abc',
          span_text: 'xyz',
          document_proof: proof,
          citation: { document_title: 'UU' },
        },
      ],
    };
    expect(codeOf(() => buildCertificate({ ...base, claims: [badSpan] }))).toBe('CERTIFICATE_INVALID');
  });
});

describe('validation of hostile certificates', () => {
  const certificate = golden.bundle.certificate;
  // biome-ignore lint/suspicious/noExplicitAny: tests poke arbitrary wrong values into a copy
  type Loose = Record<string, any>;
  const mutate = (edit: (c: Loose) => void): unknown => {
    const copy = structuredClone(certificate) as unknown as Loose;
    edit(copy);
    return copy;
  };
  const cases: [string, unknown][] = [
    [
      'unknown field',
      mutate((c) => {
        c.extra = 1;
      }),
    ],
    [
      'missing field',
      mutate((c) => {
        delete c.answer;
      }),
    ],
    [
      'uppercase hex',
      mutate((c) => {
        c.answer.sha256 = c.answer.sha256.toUpperCase();
      }),
    ],
    [
      'short hash',
      mutate((c) => {
        c.query.sha256 = 'abcd';
      }),
    ],
    [
      'bad uuid',
      mutate((c) => {
        c.certificate_id = 'x';
      }),
    ],
    [
      'bad time',
      mutate((c) => {
        c.issued_at = '2026-11-21 09:30';
      }),
    ],
    [
      'NaN confidence',
      mutate((c) => {
        c.claims[0].verification.confidence = Number.NaN;
      }),
    ],
    [
      'confidence > 1',
      mutate((c) => {
        c.claims[0].verification.confidence = 2;
      }),
    ],
    [
      'unknown label',
      mutate((c) => {
        c.claims[0].verification.label = 'probably';
      }),
    ],
    [
      'fail_closed false',
      mutate((c) => {
        c.policy.fail_closed = false;
      }),
    ],
    [
      'leaf index ≥ size',
      mutate((c) => {
        c.claims[0].evidence[0].document_proof.leaf_index = 9;
      }),
    ],
    [
      'proof of 65 hashes',
      mutate((c) => {
        c.claims[0].evidence[0].document_proof.path = Array(65).fill('00'.repeat(32));
      }),
    ],
    [
      'end before start',
      mutate((c) => {
        c.claims[0].answer_end = 0;
        c.claims[0].answer_start = 5;
      }),
    ],
    [
      'malformed glossary hash',
      mutate((c) => {
        c.retrieval.parameters.glossary_sha256 = 'not-a-digest';
      }),
    ],
    [
      'uppercase glossary hash',
      mutate((c) => {
        c.retrieval.parameters.glossary_sha256 = 'AB'.repeat(32);
      }),
    ],
    ['array instead of object', []],
    ['class instance', new Date()],
    [
      'prototype pollution key',
      mutate((c) => {
        Object.defineProperty(c, '__proto__', { value: {}, enumerable: true });
      }),
    ],
  ];
  for (const [name, value] of cases) {
    it(`rejects ${name}`, () => {
      expect(codeOf(() => validateCertificate(value))).toBe('CERTIFICATE_INVALID');
    });
  }

  it('accepts the golden certificate and bundle', () => {
    expect(validateCertificate(structuredClone(certificate))).toBeTruthy();
    // The optional hash of the collection's glossary (docs/certificate.md).
    expect(
      validateCertificate(
        mutate((c) => {
          c.retrieval.parameters.glossary_sha256 = 'ab'.repeat(32);
        }),
      ),
    ).toBeTruthy();
    expect(validateBundle(structuredClone(golden.bundle))).toBeTruthy();
    expect(codeOf(() => validateBundle({ ...golden.bundle, signature: 'short' }))).toBe('BUNDLE_INVALID');
  });
});

describe('signing and the log leaf', () => {
  it('signs deterministically and differently for any change', () => {
    const key = testSecretKey('issuer');
    const certificate = structuredClone(golden.bundle.certificate);
    expect(signCertificate(certificate, key)).toBe(golden.bundle.signature);
    certificate.answer.text += ' ';
    expect(signCertificate(certificate, key)).not.toBe(golden.bundle.signature);
  });

  it('memory log proofs verify against its roots', () => {
    const log = new MemoryLog('o');
    for (let i = 0; i < 9; i++) log.append(new Uint8Array([i]));
    const proof = log.inclusionProof(4, 7);
    const leaf = golden.log; // the golden log has 5 entries
    expect(leaf.size).toBe(5);
    expect(
      verifyInclusionProof(4, 7, log.inclusionProof(4, 7).length ? hashOf(4) : hashOf(4), proof, log.root(7)),
    ).toBe(true);
    expect(codeOf(() => log.root(10))).toBe('MERKLE_INDEX_OUT_OF_RANGE');
    function hashOf(i: number) {
      const single = new MemoryLog('x');
      single.append(new Uint8Array([i]));
      return single.root();
    }
  });
});

describe('W3C VC export (eddsa-jcs-2022)', () => {
  it('round-trips the golden certificate and detects tampering', () => {
    const secretKey = testSecretKey('issuer');
    const credential = certificateToCredential(
      golden.bundle.certificate as unknown as Record<string, unknown>,
      {
        secretKey,
        publicKey: getPublicKey(secretKey),
      },
    );
    const imported = credentialToCertificate(JSON.parse(JSON.stringify(credential)));
    expect(imported.verified).toBe(true);
    expect(imported.certificate as unknown as Certificate).toEqual(golden.bundle.certificate);
    const tampered = JSON.parse(JSON.stringify(credential));
    tampered.credentialSubject.certificate.claims[1].text = 'Dendanya Rp5.000.000,00.';
    expect(credentialToCertificate(tampered).verified).toBe(false);
  });
});
