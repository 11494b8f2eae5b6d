/**
 * Issuing a Saksi answer certificate (docs/certificate.md): the builder that computes hashes and
 * offsets from the answer and its chunks, signing, and issuer identities. Part of the
 * `@saksi/proof/issue` entry point; a verifier never needs this file (docs/architecture.md).
 */
import { fromBase64, toBase64, toHex } from './bytes.js';
import {
  type Anchor,
  type Answer,
  type AnswerCheck,
  type AnswerOutcome,
  type BundleChunk,
  CERTIFICATE_SCHEMA,
  type Certificate,
  type CertificateSchema,
  type Citation,
  type Claim,
  type ClaimRelevance,
  type ClaimVerification,
  type Composition,
  codePointLength,
  type DocumentProof,
  type Evidence,
  type Generator,
  type Issuer,
  indexOfCodePoints,
  issuerKeyId,
  normalizeQuestion,
  normalizeText,
  type Policy,
  type Query,
  type QueryMode,
  type Refusal,
  type RenderReason,
  type Retrieval,
  validateCertificate,
} from './certificate.js';
import { renderComposition } from './composition.js';
import { generateKeyPair, getPublicKey, sign } from './ed25519.js';
import { ProofError } from './errors.js';
import { sha256Hex } from './hash.js';
import { canonicalizeToBytes } from './jcs.js';
import { sessionReference } from './session-reference.js';
import type { CompositionTemplates } from './templates.js';
import { fail } from './validate.js';
import { COMPOSITION_TEMPLATES } from './vocabulary.js';

/** Signs the RFC 8785 canonical bytes of `certificate` with Ed25519; returns base64. */
export function signCertificate(certificate: Certificate, secretKey: Uint8Array): string {
  return toBase64(sign(canonicalizeToBytes(certificate), secretKey));
}

/** An issuer identity from a secret key. */
export function issuerFromSecretKey(name: string, secretKey: Uint8Array): Issuer {
  const publicKey = getPublicKey(secretKey);
  return { name, key_id: issuerKeyId(publicKey), public_key: toBase64(publicKey) };
}

/** An issuer identity from a public key (base64 or bytes). */
export function issuerFromPublicKey(name: string, publicKey: Uint8Array | string): Issuer {
  const bytes = typeof publicKey === 'string' ? fromBase64(publicKey, 32) : publicKey;
  return { name, key_id: issuerKeyId(bytes), public_key: toBase64(bytes) };
}

/**
 * UUIDv7 (RFC 9562 §5.7) from a millisecond timestamp and 10 random bytes. Pass `random` for
 * deterministic fixtures.
 */
export function uuidv7(timeMs: number = Date.now(), random?: Uint8Array): string {
  const bytes = new Uint8Array(16);
  const rand = random ?? crypto.getRandomValues(new Uint8Array(10));
  if (rand.length < 10) throw new ProofError('INVALID_LENGTH', 'uuidv7 needs 10 random bytes.');
  let t = Math.floor(timeMs);
  for (let i = 5; i >= 0; i--) {
    bytes[i] = t % 256;
    t = Math.floor(t / 256);
  }
  bytes.set(rand.subarray(0, 10), 6);
  bytes[6] = 0x70 | (bytes[6]! & 0x0f);
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = toHex(bytes);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Input for one claim of {@link buildCertificate}; hashes and offsets are computed for you. */
export interface ClaimInput {
  claim_id?: string;
  /** The claim text; must occur in the answer at or after the previous claim. */
  text: string;
  evidence: EvidenceInput[];
  verification: ClaimVerification;
  render: { rendered: boolean; reason: RenderReason };
  /**
   * v1.1: how `text` is composed from the evidence (its parts' indices point into `evidence`). The
   * builder checks that it renders to exactly `text`.
   */
  composition?: Composition;
  /** v1.1: how well the claim's evidence answers the question. */
  relevance?: ClaimRelevance;
}

/** Evidence input: the chunk text is needed to compute span offsets; it goes into the bundle, not the certificate. */
export interface EvidenceInput {
  chunk_id: string;
  document_id: string;
  chunk_text: string;
  /** The supporting passage; must occur in `chunk_text` (first occurrence at or after `span_from`). */
  span_text: string;
  span_from?: number;
  document_proof: DocumentProof;
  anchor?: Anchor;
  citation: Citation;
}

export interface CertificateInput {
  /**
   * The schema to write (default v1.2, {@link CERTIFICATE_SCHEMA}); v1 refuses the v1.1 fields, v1
   * and v1.1 the v1.2 ones (the outcome `related`, `answer.check`).
   */
  schema?: CertificateSchema;
  /** The registry composed claims must render with (default Saksi's, `COMPOSITION_TEMPLATES`). */
  templates?: CompositionTemplates;
  certificate_id?: string;
  issued_at?: string;
  issuer: Issuer;
  query: {
    text: string;
    nonce?: string;
    mode?: QueryMode;
    selection?: string;
    /**
     * The chat session the question was asked in: its id, a secret that never enters the
     * certificate. The builder records `session_id` as the session's keyed reference for this
     * certificate's id (`sessionReference`, docs/certificate.md, "The session reference").
     */
    session?: string;
    /** A session reference written as given (give `session` instead, so it is the keyed one). */
    session_id?: string;
  };
  retrieval: Retrieval;
  answer: {
    text: string;
    generator: Generator;
    /** v1.1: relevance of all the answer's evidence to the question. */
    relevance?: ClaimRelevance;
    /** v1.1: answered or refused; v1.2 also `related` (passages related to the question, not an answer). */
    outcome?: AnswerOutcome;
    /** v1.1: why the answer was refused (only with outcome `refused`). */
    refusal?: Refusal;
    /** v1.2: the answer check, required with outcome `answered` or `related` and only with them. */
    check?: AnswerCheck;
  };
  claims: ClaimInput[];
  policy?: Partial<Omit<Policy, 'fail_closed'>>;
}

/**
 * Builds a certificate (v1.2 unless `input.schema` says v1 or v1.1) from plain inputs: normalizes
 * text, computes every digest and offset, and validates the result. Throws `CERTIFICATE_INVALID`
 * when a claim is not in the answer, a span is not in its chunk, a composition does not render to
 * its claim's text, an older schema is given fields it lacks, or (v1.2) an answered or related
 * answer has no check.
 *
 * @example
 * const { certificate, chunks } = buildCertificate({
 *   issuer,
 *   query: { text: question },
 *   retrieval,
 *   answer: { text, generator, outcome: 'answered', check }, // check: AnswerCheck, required in v1.2
 *   claims,
 * });
 * const signature = signCertificate(certificate, secretKey);
 */
export function buildCertificate(input: CertificateInput): {
  certificate: Certificate;
  chunks: BundleChunk[];
} {
  const issuedAt = input.issued_at ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const answerText = normalizeText(input.answer.text);
  const queryText = normalizeQuestion(input.query.text);
  const chunks = new Map<string, string>();
  let answerCursor = 0;
  const claims: Claim[] = input.claims.map((claimInput, index) => {
    const claimText = normalizeText(claimInput.text);
    const start = indexOfCodePoints(answerText, claimText, answerCursor);
    if (start < 0) fail('CERTIFICATE_INVALID', `claims[${index}].text`, 'does not occur in the answer');
    const end = start + codePointLength(claimText);
    answerCursor = end;
    const evidence = claimInput.evidence.map((evidenceInput, e): Evidence => {
      const chunkText = normalizeText(evidenceInput.chunk_text);
      const spanText = normalizeText(evidenceInput.span_text);
      const spanStart = indexOfCodePoints(chunkText, spanText, evidenceInput.span_from ?? 0);
      if (spanStart < 0)
        fail('CERTIFICATE_INVALID', `claims[${index}].evidence[${e}].span_text`, 'is not in the chunk');
      chunks.set(evidenceInput.chunk_id, chunkText);
      const item: Evidence = {
        chunk_id: evidenceInput.chunk_id,
        document_id: evidenceInput.document_id,
        chunk_sha256: sha256Hex(chunkText),
        span: {
          start: spanStart,
          end: spanStart + codePointLength(spanText),
          text: spanText,
          sha256: sha256Hex(spanText),
        },
        document_proof: evidenceInput.document_proof,
        citation: evidenceInput.citation,
      };
      if (evidenceInput.anchor) item.anchor = evidenceInput.anchor;
      return item;
    });
    const claim: Claim = {
      claim_id: claimInput.claim_id ?? `c${index + 1}`,
      text: claimText,
      sha256: sha256Hex(claimText),
      answer_start: start,
      answer_end: end,
      evidence,
      verification: claimInput.verification,
      render: claimInput.render,
    };
    if (claimInput.composition !== undefined) {
      const rendered = renderComposition(
        claimInput.composition,
        evidence,
        input.templates ?? COMPOSITION_TEMPLATES,
      );
      if (!rendered.ok)
        fail('CERTIFICATE_INVALID', `claims[${index}].composition`, `does not render (${rendered.message})`);
      if (rendered.text !== claimText)
        fail('CERTIFICATE_INVALID', `claims[${index}].composition`, 'does not render to the claim text');
      claim.composition = claimInput.composition;
    }
    if (claimInput.relevance !== undefined) claim.relevance = claimInput.relevance;
    return claim;
  });
  const query: Query = {
    text: queryText,
    sha256: sha256Hex(queryText),
    nonce: input.query.nonce ?? toHex(crypto.getRandomValues(new Uint8Array(16))),
    mode: input.query.mode ?? 'full',
  };
  if (input.query.selection !== undefined)
    query.selection_sha256 = sha256Hex(normalizeText(input.query.selection));
  if (input.query.session !== undefined && input.query.session_id !== undefined)
    throw new ProofError('CERTIFICATE_INVALID', 'Give the session (its id) or its reference, not both.');
  const certificateId = input.certificate_id ?? uuidv7(Date.parse(issuedAt));
  if (input.query.session !== undefined)
    query.session_id = sessionReference(input.query.session, certificateId);
  if (input.query.session_id !== undefined) query.session_id = input.query.session_id;
  const answer: Answer = {
    text: answerText,
    sha256: sha256Hex(answerText),
    generator: input.answer.generator,
  };
  if (input.answer.relevance !== undefined) answer.relevance = input.answer.relevance;
  if (input.answer.outcome !== undefined) answer.outcome = input.answer.outcome;
  if (input.answer.refusal !== undefined) answer.refusal = input.answer.refusal;
  const check = input.answer.check;
  if (check !== undefined)
    answer.check = { ...check, method: { ...check.method }, constraints: [...check.constraints] };
  const certificate: Certificate = {
    schema: input.schema ?? CERTIFICATE_SCHEMA,
    certificate_id: certificateId,
    issued_at: issuedAt,
    issuer: input.issuer,
    query,
    retrieval: input.retrieval,
    answer,
    claims,
    policy: {
      confidence_threshold: input.policy?.confidence_threshold ?? 0.5,
      require_anchor: input.policy?.require_anchor ?? false,
      fail_closed: true,
    },
  };
  validateCertificate(certificate);
  return { certificate, chunks: [...chunks].map(([chunk_id, chunkText]) => ({ chunk_id, text: chunkText })) };
}

/** A fresh issuer key pair with its identity (for tests, demos and `saksi keys generate`). */
export function generateIssuer(name: string): { issuer: Issuer; secretKey: Uint8Array } {
  const { secretKey } = generateKeyPair();
  return { issuer: issuerFromSecretKey(name, secretKey), secretKey };
}
