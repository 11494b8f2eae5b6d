/**
 * The certify stage: the checked claims become a certificate (docs/certificate.md) — each claim
 * with its evidence at exact offsets, its chunk's inclusion proof to the document root, its anchor
 * when the root is anchored, and its verification (`verbatim` for a quote). The issuer applies the
 * proof package's fail-closed render policy, the one a verifier applies, and signs. Relevance is
 * decided before this stage: a claim whose evidence does not answer the question is not certified.
 */
import {
  type Anchor,
  type Bundle,
  buildCertificate,
  type Certificate,
  type ClaimInput,
  codePointLength,
  decideRender,
  signCertificate,
} from '@saksi/proof';
import type { Collection } from '../collections.js';
import type { SigningKeys } from '../keys.js';
import type { RetrievedChunk, RetrieveResult } from '../retrieve/retrieve.js';
import type { CheckedClaim } from './check.js';

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
  anchors: Map<string, Anchor>;
  confidenceThreshold: number;
  requireAnchor: boolean;
}

/** Builds, decides and signs the certificate; returns it with its signature and cited chunks. */
export function certifyAnswer(input: CertifyInput): {
  certificate: Certificate;
  signature: string;
  chunks: Bundle['chunks'];
} {
  const claims: ClaimInput[] = input.claims.map(({ claim, verification }) => {
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
    return {
      text: claim.text,
      evidence,
      verification,
      // Decided below by the render policy, as a verifier decides.
      render: { rendered: true, reason: 'OK' },
    };
  });
  const { certificate, chunks } = buildCertificate({
    issuer: input.keys.issuer,
    query: {
      text: input.question,
      mode: input.mode,
      ...(input.mode === 'selection' && input.selection ? { selection: input.selection } : {}),
      session_id: input.sessionId,
    },
    retrieval: {
      collection: input.collection.name,
      parameters: input.retrieval.parameters,
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
    },
    claims,
    policy: { confidence_threshold: input.confidenceThreshold, require_anchor: input.requireAnchor },
  });
  // The issuer applies the same fail-closed policy a verifier will, and records its decision.
  const anchoredClaims = certificate.claims.map(
    (claim) => claim.evidence.length > 0 && claim.evidence.every((evidence) => evidence.anchor !== undefined),
  );
  const decisions = decideRender(certificate, { integrityOk: true, anchoredClaims });
  certificate.claims.forEach((claim, index) => {
    const decision = decisions[index]!;
    claim.render = { rendered: decision.rendered, reason: decision.reason };
  });
  const signature = signCertificate(certificate, input.keys.issuerSecretKey);
  return { certificate, signature, chunks };
}
