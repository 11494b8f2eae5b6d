/**
 * A Saksi certificate as a W3C Verifiable Credential (VC Data Model 2.0), secured with a Data
 * Integrity proof (`DataIntegrityProof`, VC Data Integrity 1.0) using the `eddsa-jcs-2022`
 * cryptosuite (Data Integrity EdDSA Cryptosuites v1.0 §3.3).
 *
 * `eddsa-jcs-2022` canonicalizes with RFC 8785 JCS, so no JSON-LD processing happens here: contexts
 * are never fetched or expanded, and `@context` values are compared as JSON. The issuer key is a
 * `did:key` (did:key Method v0.7, W3C CCG), resolved offline from the identifier itself.
 *
 * What is implemented, and what is not:
 * - one proof per document (`proof` is an object; proof sets and chains — arrays — are refused);
 * - `verificationMethod` is resolved only for `did:key` Ed25519 identifiers; any other URL needs
 *   the caller to supply the public key;
 * - a verified proof says the holder of that key signed the document — whether the key belongs to
 *   a trusted issuer is the caller's decision (compare it with a pinned key).
 */
import { base58btcDecode, base58btcEncode, MULTIBASE_BASE58BTC_PREFIX } from './base58.js';
import { concatBytes, constantTimeEqual } from './bytes.js';
import {
  ED25519_PUBLIC_KEY_LENGTH,
  ED25519_SIGNATURE_LENGTH,
  getPublicKey,
  sign,
  verify,
} from './ed25519.js';
import { ProofError } from './errors.js';
import { sha256 } from './hash.js';
import { canonicalize, canonicalizeToBytes } from './jcs.js';

/** VC Data Model 2.0, "Contexts": the base context, which MUST come first in `@context`. */
export const VC_V2_CONTEXT = 'https://www.w3.org/ns/credentials/v2';
/** The Saksi certificate vocabulary, second in the credential's `@context`. */
export const SAKSI_CERTIFICATE_CONTEXT = 'https://saksi.dev/ns/certificate/v1';
/** The credential `type` that marks a Saksi answer certificate (after `VerifiableCredential`). */
export const SAKSI_CREDENTIAL_TYPE = 'SaksiAnswerCertificate';
/** VC Data Integrity 1.0 §2.1: the proof `type`. */
export const DATA_INTEGRITY_PROOF_TYPE = 'DataIntegrityProof';
/** Data Integrity EdDSA Cryptosuites v1.0 §3.3: the cryptosuite identifier. */
export const EDDSA_JCS_2022_CRYPTOSUITE = 'eddsa-jcs-2022';
/** did:key Method v0.7, "Format": the scheme and method prefix of every `did:key`. */
export const DID_KEY_PREFIX = 'did:key:';
/** Multicodec `ed25519-pub` (0xed) as an unsigned varint: the Multikey header of an Ed25519 public key. */
export const ED25519_PUB_MULTICODEC_PREFIX: Uint8Array = Uint8Array.of(0xed, 0x01);

/** Longest `proofValue` read: a 64-byte signature is at most 88 base58 characters plus the `z`. */
const MAX_PROOF_VALUE_LENGTH = 128;
/** Longest `verificationMethod` or `proofPurpose` accepted. */
const MAX_IDENTIFIER_LENGTH = 2048;
/** Longest `created` timestamp accepted before the pattern check. */
const MAX_DATE_TIME_LENGTH = 64;
/** The default proof purpose (VC Data Integrity 1.0 §2.1; CID 1.0 "Verification Relationships"). */
const ASSERTION_METHOD = 'assertionMethod';
/** XML Schema 1.1 Part 2 §3.3.7 `dateTime`, the form `created` MUST take (Data Integrity EdDSA §3.3.5). */
const XSD_DATE_TIME =
  /^-?(?:[1-9][0-9]{3,}|0[0-9]{3})-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]+)?(?:Z|[+-](?:(?:0[0-9]|1[0-3]):[0-5][0-9]|14:00))?$/;
/** RFC 9562 §4: the canonical textual form of a UUID (lowercase, as Saksi writes certificate ids). */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The `proof` of a document secured with `eddsa-jcs-2022` (VC Data Integrity 1.0 §2.1). */
export interface DataIntegrityProof {
  type: typeof DATA_INTEGRITY_PROOF_TYPE;
  cryptosuite: typeof EDDSA_JCS_2022_CRYPTOSUITE;
  created?: string;
  verificationMethod: string;
  proofPurpose: string;
  '@context'?: unknown;
  /** Multibase base58btc (`z…`) of the 64-byte Ed25519 signature. */
  proofValue: string;
}

/** A Saksi certificate as a VC Data Model 2.0 credential, as {@link certificateToCredential} makes it. */
export interface VerifiableCredential {
  '@context': [typeof VC_V2_CONTEXT, typeof SAKSI_CERTIFICATE_CONTEXT];
  id: string;
  type: ['VerifiableCredential', typeof SAKSI_CREDENTIAL_TYPE];
  issuer: string;
  validFrom: string;
  credentialSubject: { id: string; certificate: Record<string, unknown> };
  proof: DataIntegrityProof;
}

/** Options for {@link signDataIntegrity}. */
export interface SignDataIntegrityOptions {
  /** 32-byte Ed25519 secret key (RFC 8032 §5.1.5). */
  secretKey: Uint8Array;
  /** URL of the verification method, e.g. `did:key:z6Mk…#z6Mk…`. */
  verificationMethod: string;
  /** XML Schema `dateTime` put in `proof.created`; omitted when not given. */
  created?: string;
  /** Default `assertionMethod`. */
  proofPurpose?: string;
}

/** Options for {@link verifyDataIntegrity}. */
export interface VerifyDataIntegrityOptions {
  /**
   * The 32-byte Ed25519 public key to verify with. Required when `verificationMethod` is not a
   * `did:key`; when it is, the two must agree (else `KEY_MISMATCH`).
   */
  publicKey?: Uint8Array;
  /** The proof purpose the caller expects (VC Data Integrity 1.0 §4.2); default `assertionMethod`. */
  expectedProofPurpose?: string;
}

/** Why a Data Integrity proof did not verify. */
export type DataIntegrityFailure =
  | 'MALFORMED'
  | 'UNSUPPORTED_CRYPTOSUITE'
  | 'KEY_MISMATCH'
  | 'PROOF_PURPOSE_MISMATCH'
  | 'SIGNATURE_INVALID';

/** Result of {@link verifyDataIntegrity}: `reason` is set exactly when `verified` is false. */
export interface DataIntegrityVerification {
  verified: boolean;
  reason?: DataIntegrityFailure;
}

/** Result of {@link credentialToCertificate}. */
export interface CredentialImport {
  /** The certificate embedded in `credentialSubject.certificate`, as found. */
  certificate: Record<string, unknown>;
  /** True when the proof verifies and the credential's identifiers agree with the certificate. */
  verified: boolean;
  /** A {@link DataIntegrityFailure}, `ISSUER_MISMATCH` or `SUBJECT_MISMATCH` when `verified` is false. */
  reason?: string;
  /** The Ed25519 key named by the proof's `did:key`, when it could be read. Compare it with a pinned key. */
  issuerPublicKey?: Uint8Array;
}

/**
 * The `did:key` of an Ed25519 public key: `did:key:` + multibase base58btc of `0xed01 ‖ key`
 * (did:key Method v0.7; Data Integrity EdDSA v1.0 §2.1.1 Multikey). Throws `KEY_INVALID` unless the
 * key is 32 bytes.
 *
 * @example
 * publicKeyToDidKey(publicKey); // 'did:key:z6Mk…'
 */
export function publicKeyToDidKey(publicKey: Uint8Array): string {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== ED25519_PUBLIC_KEY_LENGTH) {
    throw new ProofError('KEY_INVALID', `An Ed25519 public key must be ${ED25519_PUBLIC_KEY_LENGTH} bytes.`);
  }
  return (
    DID_KEY_PREFIX +
    MULTIBASE_BASE58BTC_PREFIX +
    base58btcEncode(concatBytes(ED25519_PUB_MULTICODEC_PREFIX, publicKey))
  );
}

/**
 * The Ed25519 public key inside a `did:key` (the DID itself, without `#fragment`). Throws `KEY_INVALID`
 * for anything else: another DID method, another multibase, another key type (multicodec header
 * other than `0xed01`), or a key that is not 32 bytes.
 *
 * @example
 * didKeyToPublicKey('did:key:z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2'); // 32 bytes
 */
export function didKeyToPublicKey(did: string): Uint8Array {
  const multibaseLength = 1 + 48; // 'z' + base58 of 34 bytes is at most 48 characters
  if (typeof did !== 'string' || did.length > DID_KEY_PREFIX.length + multibaseLength) {
    throw new ProofError('KEY_INVALID', 'Expected a did:key string of an Ed25519 key.');
  }
  if (!did.startsWith(DID_KEY_PREFIX + MULTIBASE_BASE58BTC_PREFIX)) {
    throw new ProofError('KEY_INVALID', 'Expected a base58btc did:key ("did:key:z…").');
  }
  let bytes: Uint8Array;
  try {
    bytes = base58btcDecode(did.slice(DID_KEY_PREFIX.length + 1));
  } catch (cause) {
    throw new ProofError('KEY_INVALID', 'The did:key is not valid base58btc.', { cause });
  }
  const header = ED25519_PUB_MULTICODEC_PREFIX;
  if (
    bytes.length !== header.length + ED25519_PUBLIC_KEY_LENGTH ||
    bytes[0] !== header[0] ||
    bytes[1] !== header[1]
  ) {
    throw new ProofError(
      'KEY_INVALID',
      'The did:key does not hold an Ed25519 public key (multicodec 0xed01).',
    );
  }
  return bytes.slice(header.length);
}

/**
 * Secures `document` with an `eddsa-jcs-2022` Data Integrity proof (Data Integrity EdDSA v1.0
 * §3.3.1 Create Proof): the proof options, with `@context` copied from the document, are
 * canonicalized with JCS (§3.3.5); the document is canonicalized with JCS (§3.3.3); the signed bytes
 * are SHA-256(proof configuration) ‖ SHA-256(document) (§3.3.4); `proofValue` is the multibase
 * base58btc of the 64-byte Ed25519 signature (§3.3.6). Deterministic. Returns a shallow copy of the
 * document with `proof` added; no JSON-LD processing is done.
 *
 * Throws `CREDENTIAL_INVALID` when the document is not a JSON object, already has a `proof`, or the
 * options are malformed; `KEY_INVALID` for a bad secret key, or when `verificationMethod` is a
 * `did:key` of another key; the JCS codes for values RFC 8785 cannot represent.
 *
 * @example
 * const signed = signDataIntegrity(credential, { secretKey, verificationMethod: `${did}#${did.slice(8)}` });
 */
export function signDataIntegrity(
  document: Record<string, unknown>,
  options: SignDataIntegrityOptions,
): Record<string, unknown> {
  if (!isPlainObject(document))
    throw new ProofError('CREDENTIAL_INVALID', 'The document must be a JSON object.');
  if (Object.hasOwn(document, 'proof')) {
    throw new ProofError(
      'CREDENTIAL_INVALID',
      'The document already has a proof; proof sets are not supported.',
    );
  }
  const { secretKey, verificationMethod, created, proofPurpose = ASSERTION_METHOD } = options;
  if (!isBoundedString(verificationMethod, MAX_IDENTIFIER_LENGTH) || verificationMethod === '') {
    throw new ProofError('CREDENTIAL_INVALID', 'verificationMethod must be a non-empty URL.');
  }
  if (!isBoundedString(proofPurpose, MAX_IDENTIFIER_LENGTH) || proofPurpose === '') {
    throw new ProofError('CREDENTIAL_INVALID', 'proofPurpose must be a non-empty string.');
  }
  if (created !== undefined && !isXsdDateTime(created)) {
    throw new ProofError(
      'CREDENTIAL_INVALID',
      'created must be an XML Schema dateTime, e.g. 2025-01-01T00:00:00Z.',
    );
  }
  const publicKey = getPublicKey(secretKey);
  const methodKey = didKeyOfVerificationMethod(verificationMethod);
  if (methodKey !== undefined && !constantTimeEqual(methodKey, publicKey)) {
    throw new ProofError('KEY_INVALID', 'The secret key does not match the did:key in verificationMethod.');
  }

  const transformedDocument = canonicalizeToBytes(document); // §3.3.3; also checks the document is JSON
  const proof: Record<string, unknown> = {
    type: DATA_INTEGRITY_PROOF_TYPE,
    cryptosuite: EDDSA_JCS_2022_CRYPTOSUITE,
  };
  if (created !== undefined) proof['created'] = created;
  proof['verificationMethod'] = verificationMethod;
  proof['proofPurpose'] = proofPurpose;
  // §3.3.1 step 2: the proof carries the document's @context (a copy, so the two never alias).
  if (document['@context'] !== undefined) proof['@context'] = JSON.parse(canonicalize(document['@context']));
  const hashData = concatBytes(sha256(canonicalizeToBytes(proof)), sha256(transformedDocument));
  proof['proofValue'] = MULTIBASE_BASE58BTC_PREFIX + base58btcEncode(sign(hashData, secretKey));
  return { ...document, proof };
}

/**
 * Verifies the `eddsa-jcs-2022` Data Integrity proof of `securedDocument` (Data Integrity EdDSA
 * v1.0 §3.3.2 Verify Proof, §3.3.7) with strict Ed25519 (RFC 8032 §5.1.7). Never throws.
 *
 * The key is `options.publicKey`, or else the one in a `did:key` `verificationMethod`; when both
 * are present they must agree. `proofPurpose` must equal `options.expectedProofPurpose` (default
 * `assertionMethod`). When the proof has `@context`, the document's `@context` must start with the
 * same values and the proof's is used for hashing (§3.3.2 step 4). No JSON-LD processing is done.
 * Garbage (non-objects, proof arrays, oversized or non-base58 `proofValue`, values RFC 8785 cannot
 * represent, hostile getters) yields `{ verified: false, reason: 'MALFORMED' }` in bounded time.
 *
 * @example
 * verifyDataIntegrity(signed); // { verified: true }
 */
export function verifyDataIntegrity(
  securedDocument: unknown,
  options: VerifyDataIntegrityOptions = {},
): DataIntegrityVerification {
  try {
    return verifyProof(securedDocument, options);
  } catch {
    return failure('MALFORMED');
  }
}

function verifyProof(
  securedDocument: unknown,
  options: VerifyDataIntegrityOptions,
): DataIntegrityVerification {
  if (!isPlainObject(securedDocument)) return failure('MALFORMED');
  const proof = securedDocument['proof'];
  if (!isPlainObject(proof)) return failure('MALFORMED');
  if (proof['type'] !== DATA_INTEGRITY_PROOF_TYPE || proof['cryptosuite'] !== EDDSA_JCS_2022_CRYPTOSUITE) {
    return failure('UNSUPPORTED_CRYPTOSUITE');
  }
  const { proofValue, verificationMethod, proofPurpose, created } = proof;
  if (
    !isBoundedString(proofValue, MAX_PROOF_VALUE_LENGTH) ||
    !proofValue.startsWith(MULTIBASE_BASE58BTC_PREFIX)
  ) {
    return failure('MALFORMED');
  }
  if (!isBoundedString(verificationMethod, MAX_IDENTIFIER_LENGTH)) return failure('MALFORMED');
  if (!isBoundedString(proofPurpose, MAX_IDENTIFIER_LENGTH)) return failure('MALFORMED');
  if (created !== undefined && !isXsdDateTime(created)) return failure('MALFORMED');
  const signature = base58btcDecode(proofValue.slice(1)); // bounded above; throws → MALFORMED
  if (signature.length !== ED25519_SIGNATURE_LENGTH) return failure('MALFORMED');
  if (proofPurpose !== (options.expectedProofPurpose ?? ASSERTION_METHOD))
    return failure('PROOF_PURPOSE_MISMATCH');

  let methodKey: Uint8Array | undefined;
  try {
    methodKey = didKeyOfVerificationMethod(verificationMethod);
  } catch {
    return failure('MALFORMED');
  }
  const givenKey = options.publicKey;
  if (
    givenKey !== undefined &&
    (!(givenKey instanceof Uint8Array) || givenKey.length !== ED25519_PUBLIC_KEY_LENGTH)
  ) {
    return failure('MALFORMED');
  }
  if (givenKey !== undefined && methodKey !== undefined && !constantTimeEqual(givenKey, methodKey)) {
    return failure('KEY_MISMATCH');
  }
  const publicKey = givenKey ?? methodKey;
  if (publicKey === undefined) return failure('MALFORMED'); // a non-did:key method we cannot resolve

  // §3.3.2 steps 1–2: the document without its proof; the proof options without proofValue.
  const { proof: _proof, ...unsecuredDocument } = securedDocument;
  const { proofValue: _proofValue, ...proofOptions } = proof;
  // §3.3.2 step 4: the proof's @context must be a prefix of the document's, and replaces it.
  if (proofOptions['@context'] !== undefined) {
    if (!isContextPrefix(proofOptions['@context'], securedDocument['@context'])) return failure('MALFORMED');
    unsecuredDocument['@context'] = proofOptions['@context'];
  }
  const transformedDocument = canonicalizeToBytes(unsecuredDocument); // §3.3.3
  const proofConfig = canonicalizeToBytes(proofOptions); // §3.3.5
  const hashData = concatBytes(sha256(proofConfig), sha256(transformedDocument)); // §3.3.4
  return verify(signature, hashData, publicKey) ? { verified: true } : failure('SIGNATURE_INVALID'); // §3.3.7
}

/**
 * Exports a Saksi certificate (docs/certificate.md) as a VC Data Model 2.0 credential secured with
 * `eddsa-jcs-2022`: `id` and `credentialSubject.id` are `urn:uuid:<certificate_id>`, `issuer` is the
 * `did:key` of the issuer key, `validFrom` and (by default) `proof.created` are `issued_at`, so the
 * output is deterministic. The certificate is embedded unchanged (as its canonical JSON copy). No
 * JSON-LD processing is done; the Saksi context URL is an identifier, never fetched.
 *
 * Throws `CERTIFICATE_INVALID` when `certificate_id` is not a UUID or `issued_at` not a timestamp,
 * `KEY_INVALID` when the key pair is malformed or does not match.
 *
 * @example
 * const credential = certificateToCredential(certificate, { secretKey, publicKey });
 * credentialToCertificate(credential).verified; // true
 */
export function certificateToCredential(
  certificate: Record<string, unknown>,
  issuer: { secretKey: Uint8Array; publicKey: Uint8Array },
  options: { created?: string } = {},
): VerifiableCredential {
  if (!isPlainObject(certificate))
    throw new ProofError('CERTIFICATE_INVALID', 'The certificate must be a JSON object.');
  const certificateId = certificate['certificate_id'];
  const issuedAt = certificate['issued_at'];
  if (typeof certificateId !== 'string' || !UUID_PATTERN.test(certificateId)) {
    throw new ProofError('CERTIFICATE_INVALID', 'certificate_id must be a lowercase UUID.', {
      details: 'certificate_id',
    });
  }
  if (!isXsdDateTime(issuedAt)) {
    throw new ProofError('CERTIFICATE_INVALID', 'issued_at must be an RFC 3339 timestamp.', {
      details: 'issued_at',
    });
  }
  if (!constantTimeEqual(getPublicKey(issuer.secretKey), issuer.publicKey)) {
    throw new ProofError('KEY_INVALID', 'The issuer public key does not match the secret key.');
  }
  const did = publicKeyToDidKey(issuer.publicKey);
  const subjectId = `urn:uuid:${certificateId}`;
  const credential = {
    '@context': [VC_V2_CONTEXT, SAKSI_CERTIFICATE_CONTEXT],
    id: subjectId,
    type: ['VerifiableCredential', SAKSI_CREDENTIAL_TYPE],
    issuer: did,
    validFrom: issuedAt,
    credentialSubject: { id: subjectId, certificate: JSON.parse(canonicalize(certificate)) },
  };
  return signDataIntegrity(credential, {
    secretKey: issuer.secretKey,
    verificationMethod: verificationMethodOf(did),
    created: options.created ?? issuedAt,
    proofPurpose: ASSERTION_METHOD,
  }) as unknown as VerifiableCredential;
}

/**
 * Imports a credential made by {@link certificateToCredential}: verifies its `eddsa-jcs-2022` proof
 * against the `did:key` in `proof.verificationMethod` (purpose `assertionMethod`), checks that
 * `issuer` is that DID and that `id`, `credentialSubject.id` and `validFrom` agree with the embedded
 * certificate, and returns the certificate. A bad proof or a disagreement gives `verified: false`
 * with a `reason`; `verified: true` does not say the issuer is trusted — compare `issuerPublicKey`
 * with a pinned key. Parse received JSON with `parseJson` (which rejects duplicate keys), not
 * `JSON.parse`. No JSON-LD processing is done.
 *
 * Throws `CREDENTIAL_INVALID` only when the input is not a Saksi credential at all: not an object,
 * `@context` not starting with the VC 2.0 context, `type` lacking `VerifiableCredential` or
 * `SaksiAnswerCertificate`, or no `credentialSubject.certificate` object.
 *
 * @example
 * const { certificate, verified, issuerPublicKey } = credentialToCertificate(parseJson(text));
 */
export function credentialToCertificate(credential: unknown): CredentialImport {
  const shape = readCredentialShape(credential);
  const { certificate } = shape;
  let issuerPublicKey: Uint8Array | undefined;
  let issuerDid: string | undefined;
  try {
    issuerDid = shape.verificationMethod?.split('#', 1)[0];
    issuerPublicKey = didKeyOfVerificationMethod(shape.verificationMethod ?? '');
  } catch {
    issuerPublicKey = undefined;
  }
  const result = (verified: boolean, reason?: string): CredentialImport => ({
    certificate,
    verified,
    ...(reason === undefined ? {} : { reason }),
    ...(issuerPublicKey === undefined ? {} : { issuerPublicKey }),
  });

  const verification = verifyDataIntegrity(credential, { expectedProofPurpose: ASSERTION_METHOD });
  if (!verification.verified) return result(false, verification.reason ?? 'SIGNATURE_INVALID');
  if (issuerPublicKey === undefined || shape.issuer !== issuerDid) return result(false, 'ISSUER_MISMATCH');
  const subjectId = `urn:uuid:${String(certificate['certificate_id'])}`;
  if (
    shape.id !== subjectId ||
    shape.subjectId !== subjectId ||
    shape.validFrom !== certificate['issued_at']
  ) {
    return result(false, 'SUBJECT_MISMATCH');
  }
  return result(true);
}

interface CredentialShape {
  certificate: Record<string, unknown>;
  id: unknown;
  issuer: unknown;
  validFrom: unknown;
  subjectId: unknown;
  verificationMethod: string | undefined;
}

function readCredentialShape(credential: unknown): CredentialShape {
  try {
    if (!isPlainObject(credential)) throw invalidCredential('The credential must be a JSON object.');
    const context = credential['@context'];
    if (!Array.isArray(context) || context[0] !== VC_V2_CONTEXT) {
      throw invalidCredential(`@context must be an array starting with ${VC_V2_CONTEXT}.`);
    }
    const type = credential['type'];
    if (
      !Array.isArray(type) ||
      !type.includes('VerifiableCredential') ||
      !type.includes(SAKSI_CREDENTIAL_TYPE)
    ) {
      throw invalidCredential(`type must include VerifiableCredential and ${SAKSI_CREDENTIAL_TYPE}.`);
    }
    const subject = credential['credentialSubject'];
    if (!isPlainObject(subject) || !isPlainObject(subject['certificate'])) {
      throw invalidCredential('credentialSubject.certificate must be an object.');
    }
    const proof = credential['proof'];
    const verificationMethod = isPlainObject(proof) ? proof['verificationMethod'] : undefined;
    // VC Data Model 2.0, "Issuer": a URL, or an object whose id is that URL.
    const issuer = isPlainObject(credential['issuer']) ? credential['issuer']['id'] : credential['issuer'];
    return {
      certificate: subject['certificate'],
      id: credential['id'],
      issuer,
      validFrom: credential['validFrom'],
      subjectId: subject['id'],
      verificationMethod: isBoundedString(verificationMethod, MAX_IDENTIFIER_LENGTH)
        ? verificationMethod
        : undefined,
    };
  } catch (cause) {
    if (cause instanceof ProofError) throw cause;
    throw invalidCredential('The credential could not be read.', cause);
  }
}

function invalidCredential(message: string, cause?: unknown): ProofError {
  return new ProofError('CREDENTIAL_INVALID', message, cause === undefined ? {} : { cause });
}

/** `did:key:z…#z…`: the did:key verification method id (did:key Method v0.7: the fragment repeats the key). */
function verificationMethodOf(did: string): string {
  return `${did}#${did.slice(DID_KEY_PREFIX.length)}`;
}

/**
 * The key of a `did:key` verification method, or `undefined` when the method is not a `did:key`
 * URL at all. Throws `KEY_INVALID` for a malformed `did:key`, or a fragment other than the key's own.
 */
function didKeyOfVerificationMethod(verificationMethod: string): Uint8Array | undefined {
  if (!verificationMethod.startsWith(DID_KEY_PREFIX)) return undefined;
  const hash = verificationMethod.indexOf('#');
  const did = hash < 0 ? verificationMethod : verificationMethod.slice(0, hash);
  const publicKey = didKeyToPublicKey(did);
  if (hash >= 0 && verificationMethod.slice(hash + 1) !== did.slice(DID_KEY_PREFIX.length)) {
    throw new ProofError('KEY_INVALID', 'A did:key verification method fragment must repeat the key.');
  }
  return publicKey;
}

/** VC Data Integrity / EdDSA §3.3.2 step 4.1: `document` starts with all of `proofContext`, in order. */
function isContextPrefix(proofContext: unknown, documentContext: unknown): boolean {
  const prefix = Array.isArray(proofContext) ? proofContext : [proofContext];
  const whole = Array.isArray(documentContext) ? documentContext : [documentContext];
  if (documentContext === undefined || prefix.length > whole.length) return false;
  return prefix.every((value, index) => canonicalize(value) === canonicalize(whole[index]));
}

function failure(reason: DataIntegrityFailure): DataIntegrityVerification {
  return { verified: false, reason };
}

function isXsdDateTime(value: unknown): value is string {
  return isBoundedString(value, MAX_DATE_TIME_LENGTH) && XSD_DATE_TIME.test(value);
}

function isBoundedString(value: unknown, maxLength: number): value is string {
  return typeof value === 'string' && value.length <= maxLength;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
