/**
 * The certify stage: the checked claims become a v1.1 certificate (docs/certificate.md) — each
 * claim with its evidence at exact offsets, its chunk's inclusion proof to the document root, its
 * anchor when the root is anchored, its verification (`verbatim` for a quote, `composition` for a
 * claim composed from spans and template words, with the composition a verifier recomputes) and its
 * relevance; the answer with its relevance, its outcome and, for a refusal, the reason. The issuer
 * applies the proof package's fail-closed render policy, the one a verifier applies, and signs.
 */
import {
  type Anchor,
  type AnswerCheck as AnswerCheckRecord,
  type Bundle,
  type Certificate,
  type ClaimRelevance,
  codePointLength,
  decideRender,
  type RefusalReason,
  type RelevanceMethod,
  sessionReference,
  toHex,
  validateCertificate,
} from '@saksi/proof';
import { buildCertificate, type ClaimInput, signCertificate, uuidv7 } from '@saksi/proof/issue';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import type { Collection } from '../collections.js';
import type { SigningKeys } from '../keys.js';
import type { RetrievedChunk, RetrieveResult } from '../retrieve/retrieve.js';
import { ANSWER_CHECK_METHOD, type AnswerCheck } from './answer-check.js';
import type { Refusal } from './answerability.js';
import type { CheckedClaim } from './check.js';

/** The verifier id of a composed claim: its support is its recomputation from the evidence. */
export const COMPOSITION_VERIFIER = { id: 'composition', version: '1' } as const;

/**
 * Query variants made from the session's earlier questions (a follow-up's, follow-up.ts). A certificate
 * does not record them: their text is an earlier question of the conversation, which would tie this
 * answer to that one for anyone (docs/certificate.md, "The session reference").
 */
const SESSION_VARIANT_KINDS: ReadonlySet<string> = new Set(['follow-up', 'follow-up-legal']);

/** Versions of the relevance methods the engine records, by method id. */
const RELEVANCE_VERSIONS: Record<string, string> = { 'lexical-v3': '3', 'lexical-v4': '4' };

/** A relevance as the check stage computes it: a method id (or id and version), score and threshold. */
export interface RelevanceScore {
  score: number;
  threshold: number;
  method: string | RelevanceMethod;
  version?: string;
}

/** The refusal reason a certificate records for an engine refusal (a missing fiscal year is a missing slot). */
export function refusalReasonOf(reason: Refusal['reason']): RefusalReason {
  return reason === 'SLOT_UNAVAILABLE' ? 'MISSING_SLOT' : reason;
}

function unit(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, Math.round(value * 1000) / 1000)) : 0;
}

/**
 * The certificate's record of a relevance: score and threshold in [0, 1] (the threshold times
 * `share`, the part of it the issuer held the evidence to) and the method with its version.
 */
export function relevanceRecord(relevance: RelevanceScore, share = 1): ClaimRelevance {
  const method =
    typeof relevance.method === 'string'
      ? {
          id: relevance.method,
          version:
            relevance.version ??
            RELEVANCE_VERSIONS[relevance.method] ??
            /-v(\d+)$/.exec(relevance.method)?.[1] ??
            '1',
        }
      : { id: relevance.method.id, version: relevance.method.version };
  return { score: unit(relevance.score), threshold: unit(relevance.threshold * share), method };
}

export interface CertifyInput {
  keys: SigningKeys;
  collection: Collection;
  question: string;
  mode: 'full' | 'selection';
  selection?: string;
  sessionId: string;
  retrieval: Pick<RetrieveResult, 'parameters'>;
  /** Every chunk the answer read, cited ones included, in rank order. */
  sources: readonly RetrievedChunk[];
  answer: string;
  generator: { kind: 'extractive' | 'llm'; model: string; version: string };
  claims: readonly CheckedClaim[];
  /**
   * The share of a claim's relevance threshold its evidence had to reach to stay in the answer
   * (default 1); the certificate records the threshold the issuer applied.
   */
  claimThresholdShare?: number;
  /**
   * Whether the question was answered, answered only by related passages (the answer check did not
   * confirm it), or refused; a refusal carries the engine's reason.
   */
  outcome: 'answered' | 'related' | 'refused';
  /** The answer check of an answered or related answer (answer-check.ts), recorded as `answer.check`. */
  answerCheck?: AnswerCheck;
  refusal?: Refusal['reason'];
  /** The relevance of all the answer's evidence together (recorded for an answered question). */
  answerRelevance?: RelevanceScore;
  anchors: Map<string, Anchor>;
  confidenceThreshold: number;
  requireAnchor: boolean;
}

/** The certificate's record of the answer check: method, score, threshold, α, report hash and reading. */
export function checkRecord(check: AnswerCheck): AnswerCheckRecord {
  return {
    method: { ...ANSWER_CHECK_METHOD },
    score: unit(check.score),
    threshold: unit(check.threshold),
    alpha: check.alpha,
    calibration_sha256: check.calibration_sha256,
    asked: check.reading.asked,
    constraints: [...check.reading.constraints],
  };
}

/** Builds, decides and signs the certificate; returns it with its signature and cited chunks. */
export function certifyAnswer(input: CertifyInput): {
  certificate: Certificate;
  signature: string;
  chunks: Bundle['chunks'];
} {
  const share = input.claimThresholdShare ?? 1;
  const claims: ClaimInput[] = input.claims.map(({ claim, verification, relevance }) => {
    const evidence = claim.evidence.map(({ sourceIndex, span }) => {
      const source = input.sources[sourceIndex]!;
      const anchor = input.anchors.get(source.document_id);
      return {
        chunk_id: source.chunk_id,
        document_id: source.document_id,
        chunk_text: source.text,
        span_text: span.text,
        span_from: codePointLength(source.text.slice(0, span.start)),
        document_proof: {
          leaf_index: source.position,
          tree_size: source.document.chunk_count,
          path: source.proof_path,
          document_root: source.document.root,
        },
        ...(anchor ? { anchor } : {}),
        citation: source.citation,
      };
    });
    const claimInput: ClaimInput = {
      text: claim.text,
      evidence,
      // A composed claim is supported by construction: a verifier recomputes it from its evidence.
      verification: claim.composition
        ? { label: 'entailed', confidence: 1, verifier: { ...COMPOSITION_VERIFIER } }
        : verification,
      // Decided below by the render policy, as a verifier decides.
      render: { rendered: true, reason: 'OK' },
      relevance: relevanceRecord(relevance, share),
    };
    if (claim.composition) claimInput.composition = claim.composition;
    return claimInput;
  });
  const { certificate, chunks } = buildCertificate({
    issuer: input.keys.issuer,
    query: {
      text: input.question,
      mode: input.mode,
      ...(input.mode === 'selection' && input.selection ? { selection: input.selection } : {}),
      // Not the session id, which reads the conversation: its keyed reference for this certificate
      // alone, which links it to no other answer of the session for anyone without the id.
      session: input.sessionId,
    },
    retrieval: {
      collection: input.collection.name,
      parameters: {
        ...input.retrieval.parameters,
        rewrite_variants: input.retrieval.parameters.rewrite_variants.filter(
          (variant) => !SESSION_VARIANT_KINDS.has(variant.kind),
        ),
        // The vocabulary the question was rewritten with (docs/glossary.md).
        ...(input.collection.glossary_sha256 ? { glossary_sha256: input.collection.glossary_sha256 } : {}),
      },
      results: input.sources.map((result, index) => ({
        chunk_id: result.chunk_id,
        document_id: result.document_id,
        chunk_sha256: result.sha256,
        rank: index + 1,
        score: result.score,
      })),
    },
    answer: {
      text: input.answer,
      generator: input.generator,
      outcome: input.outcome,
      ...(input.outcome === 'refused' && input.refusal
        ? { refusal: { reason: refusalReasonOf(input.refusal) } }
        : {}),
      ...(input.outcome !== 'refused' && input.answerRelevance
        ? { relevance: relevanceRecord(input.answerRelevance) }
        : {}),
      ...(input.outcome !== 'refused' && input.answerCheck ? { check: checkRecord(input.answerCheck) } : {}),
    },
    claims,
    policy: { confidence_threshold: input.confidenceThreshold, require_anchor: input.requireAnchor },
  });
  // The issuer applies the same fail-closed policy a verifier will, and records its decision.
  const anchoredClaims = certificate.claims.map(
    (claim) => claim.evidence.length > 0 && claim.evidence.every((evidence) => evidence.anchor !== undefined),
  );
  const decisions = decideRender(certificate, {
    integrityOk: true,
    anchoredClaims,
    vocabulary: SAKSI_VOCABULARY,
  });
  certificate.claims.forEach((claim, index) => {
    const decision = decisions[index]!;
    claim.render = { rendered: decision.rendered, reason: decision.reason };
  });
  const signature = signCertificate(certificate, input.keys.issuerSecretKey);
  return { certificate, signature, chunks };
}

/**
 * A cached answer's certificate issued again for the asker it is served to (docs/engine.md, "The
 * answer cache"): the question, retrieval, answer, claims and policy exactly as signed before, with a
 * certificate id, time and nonce of its own and the asker's session reference, signed with the
 * current issuer key. So every certificate in the log names only the session it was asked in.
 */
export function reissueCertificate(
  earlier: Certificate,
  input: { keys: SigningKeys; sessionId: string },
): { certificate: Certificate; signature: string } {
  const issuedAt = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const certificateId = uuidv7(Date.parse(issuedAt));
  const copy = structuredClone(earlier);
  const certificate: Certificate = {
    ...copy,
    certificate_id: certificateId,
    issued_at: issuedAt,
    issuer: { ...input.keys.issuer },
    query: {
      ...copy.query,
      nonce: toHex(crypto.getRandomValues(new Uint8Array(16))),
      session_id: sessionReference(input.sessionId, certificateId),
    },
  };
  validateCertificate(certificate);
  return { certificate, signature: signCertificate(certificate, input.keys.issuerSecretKey) };
}
