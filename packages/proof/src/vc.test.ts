import { describe, expect, it } from 'vitest';
import { codeOf } from '../test/codes.js';
import { base58btcDecode, base58btcEncode } from './base58.js';
import { fromHex, toHex } from './bytes.js';
import { generateKeyPair, getPublicKey } from './ed25519.js';
import {
  certificateToCredential,
  credentialToCertificate,
  didKeyToPublicKey,
  publicKeyToDidKey,
  signDataIntegrity,
  VC_V2_CONTEXT,
  verifyDataIntegrity,
} from './vc.js';

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

// ------------------------------------------------------------------------------------------------
// Official test vector, transcribed from the W3C repository w3c/vc-di-eddsa (Data Integrity EdDSA
// Cryptosuites v1.0, §3.3 eddsa-jcs-2022 and Appendix "Test Vectors"):
//   TestVectors/keyPair.json                              (commit 562e7da7e8469afbc4fd1853a4b9c0b006b83496)
//   TestVectors/eddsa-jcs-2022/signedJCS.json             (commit 369f0f00ad3d08fb51abafc7935f3b6fa6e693c8)
//   TestVectors/eddsa-jcs-2022/sigHexJCS.txt              (commit 369f0f00ad3d08fb51abafc7935f3b6fa6e693c8)
// The unsigned credential is signedJCS.json without `proof`; the proof options are its proof without
// `proofValue` and `@context` (which Create Proof §3.3.1 step 2 copies from the document).
// ------------------------------------------------------------------------------------------------
const W3C_KEY_PAIR = {
  publicKeyMultibase: 'z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2',
  privateKeyMultibase: 'z3u2en7t5LR2WtQH5PfFqMqwVHBeXouLzo6haApm8XHqvjxq',
};
const W3C_UNSIGNED_CREDENTIAL = {
  '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/examples/v2'],
  id: 'urn:uuid:58172aac-d8ba-11ed-83dd-0b3aef56cc33',
  type: ['VerifiableCredential', 'AlumniCredential'],
  name: 'Alumni Credential',
  description: 'A minimum viable example of an Alumni Credential.',
  issuer: 'https://vc.example/issuers/5678',
  validFrom: '2023-01-01T00:00:00Z',
  credentialSubject: { id: 'did:example:abcdefgh', alumniOf: 'The School of Examples' },
};
const W3C_PROOF_OPTIONS = {
  created: '2023-02-24T23:36:38Z',
  verificationMethod: 'https://vc.example/issuers/5678#z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2',
  proofPurpose: 'assertionMethod',
};
const W3C_PROOF_VALUE =
  'z63t83Y53KfzJ5ZosfKTnqfMcKB2dmTrfjSaQjeNNjAD5srBowQfmWqeRb8rRjmeEuCBEsddF9LsVogtuTsijJKh4';
const W3C_SIGNATURE_HEX =
  'fc91dec6565f35fbe185a77352e7fc512f95d1904da305cfef32ab8135469301f5a72d4e7a58368fc6ffc497b44633993bac054e3bc1436e3c846db8f1544503';
// The earlier revision of the same vector, before the proof carried @context:
//   TestVectors/eddsa-jcs-2022/signedJCS.json and sigBTC58JCS.txt (commit 4ced357352f5a9eccb7452dcf173c9fe7ad3be09)
const W3C_PROOF_VALUE_WITHOUT_PROOF_CONTEXT =
  'z3P6rHMUaWG6e3Ac6xYFht8aEvoVXndgKTtEY8kzWYXzk8dKmAo2GJeZiJw4qoZ2PGp4ugdaHx3oQiLpeFBLDqP2M';

/** Multikey private key: multicodec `ed25519-priv` (0x1300 → varint 0x80 0x26) ‖ 32-byte seed. */
function w3cSecretKey(): Uint8Array {
  const bytes = base58btcDecode(W3C_KEY_PAIR.privateKeyMultibase.slice(1));
  expect(toHex(bytes.slice(0, 2))).toBe('8026');
  return bytes.slice(2);
}

describe('eddsa-jcs-2022 official test vector (w3c/vc-di-eddsa TestVectors/eddsa-jcs-2022)', () => {
  it('derives the published public key and its did:key', () => {
    const publicKey = getPublicKey(w3cSecretKey());
    expect(publicKeyToDidKey(publicKey)).toBe(`did:key:${W3C_KEY_PAIR.publicKeyMultibase}`);
    expect(toHex(didKeyToPublicKey(`did:key:${W3C_KEY_PAIR.publicKeyMultibase}`))).toBe(toHex(publicKey));
  });

  it('reproduces the published proofValue byte for byte', () => {
    const signed = signDataIntegrity(clone(W3C_UNSIGNED_CREDENTIAL), {
      secretKey: w3cSecretKey(),
      ...W3C_PROOF_OPTIONS,
    });
    expect(signed['proof']).toEqual({
      type: 'DataIntegrityProof',
      cryptosuite: 'eddsa-jcs-2022',
      ...W3C_PROOF_OPTIONS,
      '@context': W3C_UNSIGNED_CREDENTIAL['@context'],
      proofValue: W3C_PROOF_VALUE,
    });
    expect(toHex(base58btcDecode(W3C_PROOF_VALUE.slice(1)))).toBe(W3C_SIGNATURE_HEX);
    expect(Object.keys(signed)).toEqual([...Object.keys(W3C_UNSIGNED_CREDENTIAL), 'proof']);
  });

  it('verifies the published secured credential with the published key, and only with it', () => {
    const secured = {
      ...clone(W3C_UNSIGNED_CREDENTIAL),
      proof: {
        type: 'DataIntegrityProof',
        cryptosuite: 'eddsa-jcs-2022',
        ...W3C_PROOF_OPTIONS,
        '@context': [...W3C_UNSIGNED_CREDENTIAL['@context']],
        proofValue: W3C_PROOF_VALUE,
      },
    };
    const publicKey = didKeyToPublicKey(`did:key:${W3C_KEY_PAIR.publicKeyMultibase}`);
    expect(verifyDataIntegrity(secured, { publicKey })).toEqual({ verified: true });
    // The method is an https URL: without a key there is nothing to resolve.
    expect(verifyDataIntegrity(secured)).toEqual({ verified: false, reason: 'MALFORMED' });
    expect(verifyDataIntegrity(secured, { publicKey: generateKeyPair().publicKey })).toEqual({
      verified: false,
      reason: 'SIGNATURE_INVALID',
    });
  });

  it('verifies the earlier revision whose proof has no @context', () => {
    const secured = {
      ...clone(W3C_UNSIGNED_CREDENTIAL),
      proof: {
        type: 'DataIntegrityProof',
        cryptosuite: 'eddsa-jcs-2022',
        ...W3C_PROOF_OPTIONS,
        proofValue: W3C_PROOF_VALUE_WITHOUT_PROOF_CONTEXT,
      },
    };
    const publicKey = didKeyToPublicKey(`did:key:${W3C_KEY_PAIR.publicKeyMultibase}`);
    expect(verifyDataIntegrity(secured, { publicKey })).toEqual({ verified: true });
    secured.proof.proofValue = W3C_PROOF_VALUE; // the signature over the proof config with @context
    expect(verifyDataIntegrity(secured, { publicKey }).verified).toBe(false);
  });
});

describe('did:key', () => {
  it('round-trips random keys through z6Mk… identifiers', () => {
    for (let i = 0; i < 20; i++) {
      const { publicKey } = generateKeyPair();
      const did = publicKeyToDidKey(publicKey);
      expect(did.startsWith('did:key:z6Mk')).toBe(true);
      expect(toHex(didKeyToPublicKey(did))).toBe(toHex(publicKey));
    }
  });

  it('rejects keys of the wrong length with KEY_INVALID', () => {
    expect(codeOf(() => publicKeyToDidKey(new Uint8Array(31)))).toBe('KEY_INVALID');
    expect(codeOf(() => publicKeyToDidKey('abc' as unknown as Uint8Array))).toBe('KEY_INVALID');
  });

  const ed25519Did = `did:key:${W3C_KEY_PAIR.publicKeyMultibase}`;
  const x25519Did = `did:key:z${base58btcEncode(fromHex(`ec01${'11'.repeat(32)}`))}`;
  const shortDid = `did:key:z${base58btcEncode(fromHex(`ed01${'11'.repeat(31)}`))}`;
  it.each([
    ['another method', 'did:web:example.com'],
    ['another multibase', `did:key:u${W3C_KEY_PAIR.publicKeyMultibase.slice(1)}`],
    ['a fragment', `${ed25519Did}#${W3C_KEY_PAIR.publicKeyMultibase}`],
    ['a non-base58 character', `${ed25519Did.slice(0, -1)}0`],
    ['an X25519 key (0xec01)', x25519Did],
    ['a 31-byte key', shortDid],
    ['an empty key', 'did:key:z'],
    ['a 1 MB identifier', `did:key:z${'2'.repeat(1024 * 1024)}`],
    ['a non-string', 42],
  ])('rejects %s with KEY_INVALID', (_name, did) => {
    const started = performance.now();
    expect(codeOf(() => didKeyToPublicKey(did as string))).toBe('KEY_INVALID');
    expect(performance.now() - started).toBeLessThan(100);
  });
});

// A certificate-like object in the shape of a v1 certificate (docs/certificate.md; values are made up).
const SAMPLE_CERTIFICATE = {
  schema: 'saksi.certificate/v1',
  certificate_id: '01890a5d-ac96-774b-bcce-b302099a8057',
  issued_at: '2025-03-01T08:30:00Z',
  issuer: { name: 'Saksi test issuer', key_id: 'test-1', public_key: 'AAAA' },
  query: { text: 'Apa sanksi pelanggaran pasal 5?', sha256: 'ab'.repeat(32), nonce: 'n-1', mode: 'full' },
  answer: {
    text: 'Denda paling banyak Rp 1.000.000.',
    sha256: 'cd'.repeat(32),
    generator: { kind: 'extractive', model: 'none', version: '1' },
  },
  claims: [
    {
      claim_id: 'c1',
      text: 'Denda paling banyak Rp 1.000.000.',
      answer_start: 0,
      answer_end: 33,
      evidence: [
        { chunk_id: 'k1', span: { start: 10, end: 43 }, document_proof: { leaf_index: 3, path: ['ef'] } },
      ],
      verification: { label: 'entailed', confidence: 0.93, verifier: { id: 'nli', version: '2' } },
      render: { rendered: true, reason: 'OK' },
    },
  ],
  policy: { confidence_threshold: 0.5, require_anchor: false, fail_closed: true },
};

describe('certificateToCredential / credentialToCertificate', () => {
  const issuer = generateKeyPair();

  it('builds the VC 2.0 shape deterministically and round-trips the certificate', () => {
    const credential = certificateToCredential(clone(SAMPLE_CERTIFICATE), issuer);
    const did = publicKeyToDidKey(issuer.publicKey);
    const id = `urn:uuid:${SAMPLE_CERTIFICATE.certificate_id}`;
    expect(credential).toMatchObject({
      '@context': [VC_V2_CONTEXT, 'https://saksi.dev/ns/certificate/v1'],
      id,
      type: ['VerifiableCredential', 'SaksiAnswerCertificate'],
      issuer: did,
      validFrom: SAMPLE_CERTIFICATE.issued_at,
      credentialSubject: { id, certificate: SAMPLE_CERTIFICATE },
      proof: {
        type: 'DataIntegrityProof',
        cryptosuite: 'eddsa-jcs-2022',
        created: SAMPLE_CERTIFICATE.issued_at,
        verificationMethod: `${did}#${did.slice('did:key:'.length)}`,
        proofPurpose: 'assertionMethod',
      },
    });
    expect(certificateToCredential(clone(SAMPLE_CERTIFICATE), issuer)).toEqual(credential);

    const text = JSON.stringify(credential);
    const imported = credentialToCertificate(JSON.parse(text));
    expect(imported.verified).toBe(true);
    expect(imported.reason).toBeUndefined();
    expect(imported.certificate).toEqual(SAMPLE_CERTIFICATE);
    expect(toHex(imported.issuerPublicKey!)).toBe(toHex(issuer.publicKey));
    expect(verifyDataIntegrity(JSON.parse(text), { publicKey: issuer.publicKey })).toEqual({
      verified: true,
    });
  });

  it('uses options.created when given', () => {
    const credential = certificateToCredential(clone(SAMPLE_CERTIFICATE), issuer, {
      created: '2025-03-02T00:00:00Z',
    });
    expect(credential.proof.created).toBe('2025-03-02T00:00:00Z');
    expect(credentialToCertificate(credential).verified).toBe(true);
  });

  it('turns a change of any value in credentialSubject into verified: false', () => {
    const credential = certificateToCredential(clone(SAMPLE_CERTIFICATE), issuer);
    const paths = leafPaths(credential.credentialSubject);
    expect(paths.length).toBeGreaterThan(30);
    for (const path of paths) {
      const tampered = clone(credential) as unknown as Record<string, unknown>;
      mutateAt(tampered['credentialSubject'], path);
      expect(verifyDataIntegrity(tampered), path.join('.')).toEqual({
        verified: false,
        reason: 'SIGNATURE_INVALID',
      });
      expect(credentialToCertificate(tampered).verified, path.join('.')).toBe(false);
    }
    const added = clone(credential);
    (added.credentialSubject.certificate as Record<string, unknown>)['extra'] = 1;
    expect(credentialToCertificate(added).verified).toBe(false);
    const removed = clone(credential);
    delete (removed.credentialSubject.certificate as Record<string, unknown>)['policy'];
    expect(credentialToCertificate(removed).verified).toBe(false);
  });

  it('turns a change of the proof created, verificationMethod or cryptosuite into verified: false', () => {
    const credential = certificateToCredential(clone(SAMPLE_CERTIFICATE), issuer);
    const created = clone(credential);
    created.proof.created = '2025-03-01T08:30:01Z';
    expect(verifyDataIntegrity(created)).toEqual({ verified: false, reason: 'SIGNATURE_INVALID' });

    const otherDid = publicKeyToDidKey(generateKeyPair().publicKey);
    const method = clone(credential);
    method.proof.verificationMethod = `${otherDid}#${otherDid.slice(8)}`;
    expect(verifyDataIntegrity(method)).toEqual({ verified: false, reason: 'SIGNATURE_INVALID' });
    expect(verifyDataIntegrity(method, { publicKey: issuer.publicKey })).toEqual({
      verified: false,
      reason: 'KEY_MISMATCH',
    });
    expect(credentialToCertificate(method).verified).toBe(false);

    const suite = clone(credential) as unknown as { proof: Record<string, unknown> };
    suite.proof['cryptosuite'] = 'eddsa-rdfc-2022';
    expect(verifyDataIntegrity(suite)).toEqual({ verified: false, reason: 'UNSUPPORTED_CRYPTOSUITE' });
    expect(credentialToCertificate(suite)).toMatchObject({
      verified: false,
      reason: 'UNSUPPORTED_CRYPTOSUITE',
    });

    const purpose = clone(credential);
    purpose.proof.proofPurpose = 'authentication';
    expect(verifyDataIntegrity(purpose)).toEqual({ verified: false, reason: 'PROOF_PURPOSE_MISMATCH' });
    expect(verifyDataIntegrity(purpose, { expectedProofPurpose: 'authentication' })).toEqual({
      verified: false,
      reason: 'SIGNATURE_INVALID',
    });
  });

  it('turns a one-character change anywhere in proofValue into verified: false', () => {
    const credential = certificateToCredential(clone(SAMPLE_CERTIFICATE), issuer);
    const value = credential.proof.proofValue;
    for (let i = 0; i < value.length; i++) {
      for (const replacement of ['1', 'z', 'A']) {
        if (value[i] === replacement) continue;
        const tampered = clone(credential);
        tampered.proof.proofValue = value.slice(0, i) + replacement + value.slice(i + 1);
        const result = verifyDataIntegrity(tampered);
        expect(result.verified, `position ${i} → ${replacement}`).toBe(false);
        expect(['SIGNATURE_INVALID', 'MALFORMED']).toContain(result.reason);
      }
    }
  });

  it('rejects a credential re-signed by another key: KEY_MISMATCH or ISSUER_MISMATCH', () => {
    const credential = certificateToCredential(clone(SAMPLE_CERTIFICATE), issuer);
    const attacker = generateKeyPair();
    const attackerDid = publicKeyToDidKey(attacker.publicKey);
    const { proof: _proof, ...unsigned } = clone(credential);
    const forged = signDataIntegrity(unsigned, {
      secretKey: attacker.secretKey,
      verificationMethod: `${attackerDid}#${attackerDid.slice(8)}`,
      created: credential.proof.created!,
    });
    expect(verifyDataIntegrity(forged)).toEqual({ verified: true }); // valid — but not by the issuer
    expect(verifyDataIntegrity(forged, { publicKey: issuer.publicKey })).toEqual({
      verified: false,
      reason: 'KEY_MISMATCH',
    });
    expect(credentialToCertificate(forged)).toMatchObject({ verified: false, reason: 'ISSUER_MISMATCH' });

    // The attacker's signature under the issuer's verificationMethod.
    const spliced = clone(credential);
    spliced.proof.proofValue = (forged['proof'] as { proofValue: string }).proofValue;
    expect(verifyDataIntegrity(spliced)).toEqual({ verified: false, reason: 'SIGNATURE_INVALID' });
  });

  it('reports identifiers that disagree with the certificate as SUBJECT_MISMATCH', () => {
    const { proof: _proof, ...unsigned } = clone(certificateToCredential(clone(SAMPLE_CERTIFICATE), issuer));
    unsigned.id = 'urn:uuid:00000000-0000-4000-8000-000000000000';
    const did = publicKeyToDidKey(issuer.publicKey);
    const signed = signDataIntegrity(unsigned, {
      secretKey: issuer.secretKey,
      verificationMethod: `${did}#${did.slice(8)}`,
    });
    expect(credentialToCertificate(signed)).toMatchObject({ verified: false, reason: 'SUBJECT_MISMATCH' });
  });

  it('throws CERTIFICATE_INVALID or KEY_INVALID for bad export input', () => {
    const bad = (patch: Record<string, unknown>) => ({ ...clone(SAMPLE_CERTIFICATE), ...patch });
    expect(codeOf(() => certificateToCredential(bad({ certificate_id: 'nope' }), issuer))).toBe(
      'CERTIFICATE_INVALID',
    );
    expect(codeOf(() => certificateToCredential(bad({ issued_at: 'yesterday' }), issuer))).toBe(
      'CERTIFICATE_INVALID',
    );
    expect(codeOf(() => certificateToCredential(bad({ issued_at: undefined }), issuer))).toBe(
      'CERTIFICATE_INVALID',
    );
    expect(codeOf(() => certificateToCredential([] as unknown as Record<string, unknown>, issuer))).toBe(
      'CERTIFICATE_INVALID',
    );
    const mismatched = { secretKey: issuer.secretKey, publicKey: generateKeyPair().publicKey };
    expect(codeOf(() => certificateToCredential(clone(SAMPLE_CERTIFICATE), mismatched))).toBe('KEY_INVALID');
    const short = { secretKey: new Uint8Array(31), publicKey: issuer.publicKey };
    expect(codeOf(() => certificateToCredential(clone(SAMPLE_CERTIFICATE), short))).toBe('KEY_INVALID');
    expect(codeOf(() => certificateToCredential(bad({ claims: [Number.NaN] }), issuer))).toBe(
      'JCS_UNSUPPORTED_VALUE',
    );
  });

  it('throws CREDENTIAL_INVALID only for input that is not a Saksi credential', () => {
    const credential = certificateToCredential(clone(SAMPLE_CERTIFICATE), issuer);
    const broken: unknown[] = [
      null,
      'credential',
      [credential],
      { ...clone(credential), '@context': ['https://www.w3.org/2018/credentials/v1'] },
      { ...clone(credential), type: ['VerifiableCredential'] },
      { ...clone(credential), credentialSubject: { id: credential.id } },
      { ...clone(credential), credentialSubject: { id: credential.id, certificate: 'x' } },
      new Proxy(
        {},
        {
          getPrototypeOf: () => {
            throw new Error('hostile');
          },
        },
      ),
    ];
    for (const input of broken)
      expect(codeOf(() => credentialToCertificate(input))).toBe('CREDENTIAL_INVALID');
    const { proof: _proof, ...unsigned } = clone(credential);
    expect(credentialToCertificate(unsigned)).toMatchObject({ verified: false, reason: 'MALFORMED' });
  });
});

describe('signDataIntegrity input checks', () => {
  const { secretKey, publicKey } = generateKeyPair();
  const did = publicKeyToDidKey(publicKey);
  const method = `${did}#${did.slice(8)}`;

  it('throws typed errors for bad documents and options', () => {
    const sign = (document: unknown, options: Record<string, unknown> = {}) =>
      codeOf(() =>
        signDataIntegrity(document as Record<string, unknown>, {
          secretKey,
          verificationMethod: method,
          ...options,
        }),
      );
    expect(sign([])).toBe('CREDENTIAL_INVALID');
    expect(sign({ proof: {} })).toBe('CREDENTIAL_INVALID');
    expect(sign({}, { verificationMethod: '' })).toBe('CREDENTIAL_INVALID');
    expect(sign({}, { created: '2025-13-01T00:00:00Z' })).toBe('CREDENTIAL_INVALID');
    expect(sign({}, { proofPurpose: 7 })).toBe('CREDENTIAL_INVALID');
    expect(sign({}, { secretKey: new Uint8Array(3) })).toBe('KEY_INVALID');
    expect(sign({}, { secretKey: generateKeyPair().secretKey })).toBe('KEY_INVALID'); // not the did:key's key
    expect(sign({ value: undefined })).toBe('JCS_UNSUPPORTED_VALUE');
    expect(sign({ a: 1 }, { created: '2025-03-01T08:30:00.123+07:00' })).toBeUndefined();
  });

  it('signs documents without @context and verifies them', () => {
    const signed = signDataIntegrity({ hello: 'world' }, { secretKey, verificationMethod: method });
    expect(signed['proof']).not.toHaveProperty('@context');
    expect(signed['proof']).not.toHaveProperty('created');
    expect(verifyDataIntegrity(signed)).toEqual({ verified: true });
  });

  it('checks that the proof @context is a prefix of the document @context', () => {
    const signed = signDataIntegrity(
      { '@context': [VC_V2_CONTEXT, { ex: 'https://example.org/' }], a: 1 },
      { secretKey, verificationMethod: method },
    );
    const swapped = clone(signed);
    swapped['@context'] = [VC_V2_CONTEXT, { ex: 'https://example.com/' }];
    expect(verifyDataIntegrity(swapped)).toEqual({ verified: false, reason: 'MALFORMED' });
    const dropped = clone(signed);
    delete dropped['@context'];
    expect(verifyDataIntegrity(dropped)).toEqual({ verified: false, reason: 'MALFORMED' });
    const proofContext = clone(signed) as { proof: Record<string, unknown> };
    proofContext.proof['@context'] = [VC_V2_CONTEXT];
    expect(verifyDataIntegrity(proofContext)).toEqual({ verified: false, reason: 'SIGNATURE_INVALID' });
  });
});

describe('verifyDataIntegrity on garbage', () => {
  const { secretKey, publicKey } = generateKeyPair();
  const did = publicKeyToDidKey(publicKey);
  const signed = signDataIntegrity(
    { '@context': [VC_V2_CONTEXT], claim: 'x' },
    { secretKey, verificationMethod: `${did}#${did.slice(8)}`, created: '2025-01-01T00:00:00Z' },
  );
  const withProof = (patch: Record<string, unknown>) => {
    const copy = clone(signed) as { proof: Record<string, unknown> };
    Object.assign(copy.proof, patch);
    return copy;
  };
  const huge = '2'.repeat(1024 * 1024);

  it.each<[string, unknown]>([
    ['null', null],
    ['undefined', undefined],
    ['a number', 42],
    ['a string', JSON.stringify(signed)],
    ['an array', [signed]],
    ['a document without proof', { claim: 'x' }],
    ['a proof array (proof set)', { ...clone(signed), proof: [clone(signed)['proof']] }],
    ['a proof string', { ...clone(signed), proof: 'z123' }],
    ['a proofValue that is not base58', withProof({ proofValue: 'z0OIl0OIl' })],
    [
      'a proofValue without the z prefix',
      withProof({ proofValue: (signed['proof'] as { proofValue: string }).proofValue.slice(1) }),
    ],
    [
      'a proofValue of the wrong length',
      withProof({ proofValue: `z${base58btcEncode(new Uint8Array(63).fill(7))}` }),
    ],
    ['a 1 MB base58 proofValue', withProof({ proofValue: `z${huge}` })],
    ['a numeric proofValue', withProof({ proofValue: 5 })],
    ['a 1 MB verificationMethod', withProof({ verificationMethod: `did:key:z${huge}` })],
    ['a malformed did:key method', withProof({ verificationMethod: 'did:key:z6Mk#z6Mk' })],
    ['a did:key method with a foreign fragment', withProof({ verificationMethod: `${did}#key-1` })],
    ['a non-string verificationMethod', withProof({ verificationMethod: { id: did } })],
    ['a bad created', withProof({ created: 'yesterday' })],
    ['a 1 MB created', withProof({ created: huge })],
    ['a missing proofPurpose', withProof({ proofPurpose: undefined })],
    ['a NaN in the document', { ...clone(signed), claim: Number.NaN }],
    [
      'a cyclic document',
      (() => {
        const cyclic: Record<string, unknown> = clone(signed);
        cyclic['self'] = cyclic;
        return cyclic;
      })(),
    ],
    [
      'a document with a throwing getter',
      Object.defineProperty(clone(signed), 'claim', {
        enumerable: true,
        get() {
          throw new Error('hostile');
        },
      }),
    ],
  ])('returns verified: false for %s, quickly and without throwing', (_name, input) => {
    const started = performance.now();
    const result = verifyDataIntegrity(input);
    expect(result.verified).toBe(false);
    expect(result.reason).toBe('MALFORMED');
    expect(performance.now() - started).toBeLessThan(250);
  });

  it('rejects a malformed publicKey option without throwing', () => {
    expect(verifyDataIntegrity(signed, { publicKey: new Uint8Array(5) })).toEqual({
      verified: false,
      reason: 'MALFORMED',
    });
    expect(verifyDataIntegrity(signed, { publicKey: publicKey })).toEqual({ verified: true });
  });
});

type Path = Array<string | number>;

function leafPaths(value: unknown, prefix: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => leafPaths(item, [...prefix, index]));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => leafPaths(item, [...prefix, key]));
  }
  return [prefix];
}

function mutateAt(root: unknown, path: Path): void {
  let parent = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  const value = parent[last];
  if (typeof value === 'string') parent[last] = `${value}x`;
  else if (typeof value === 'number') parent[last] = value + 1;
  else if (typeof value === 'boolean') parent[last] = !value;
  else parent[last] = 0;
}
