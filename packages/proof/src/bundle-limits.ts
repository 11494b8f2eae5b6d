/**
 * Limits per bundle (docs/verification.md, "Limits per bundle"): how much verification work one
 * bundle may ask for. {@link measureBundle} counts a parsed bundle's claims, evidence items, cited
 * chunks, proof nodes, anchored batch roots and cosignatures by reading array lengths only — no
 * hashing, no signature, no decoding — so a verifier that takes bundles from strangers (the server's
 * `POST /api/v1/verify`) can refuse an oversized one before it costs anything.
 *
 * The limits are far above any bundle Saksi issues (at most 50 retrieved chunks plus the sanctions
 * and definitions an answer widens to, a few sentences per answer, a few evidence spans per claim),
 * and each is at or below the certificate schema's own bound, so `verifyBundle` still accepts every
 * bundle it accepted; the limits are a separate, earlier check a caller chooses to run.
 */
import { ProofError } from './errors.js';
import { MAX_PROOF_LENGTH } from './merkle.js';

/** The limits of one bundle; {@link BUNDLE_LIMITS} are Saksi's. */
export interface BundleLimits {
  /** Claims in the certificate. */
  readonly claims: number;
  /** Evidence items of one claim. */
  readonly evidencePerClaim: number;
  /** Evidence items of all claims together. */
  readonly evidence: number;
  /** Cited chunks carried in `bundle.chunks`. */
  readonly chunks: number;
  /** Nodes of one inclusion proof (a document proof, an anchor's batch proof, the log proof). */
  readonly proofLength: number;
  /** Nodes of all inclusion proofs together. */
  readonly proofNodes: number;
  /** Distinct anchored batch roots (chain, contract, root): each may be one on-chain lookup. */
  readonly anchorRoots: number;
  /** Witness cosignature lines of the checkpoint. */
  readonly cosignatures: number;
}

/** The name of one limit, as error messages and `ProofError.details` give it. */
export type BundleLimit = keyof BundleLimits;

/**
 * Saksi's limits per bundle. The schema allows 1,000 claims of 64 evidence items and 10,000 chunks;
 * a real answer has a handful of claims, and cites at most the chunks it read.
 *
 * @example
 * BUNDLE_LIMITS.claims; // 256
 */
export const BUNDLE_LIMITS: BundleLimits = Object.freeze({
  claims: 256,
  evidencePerClaim: 64,
  evidence: 1_024,
  chunks: 256,
  // RFC 6962 §2.1.1: a proof in a tree of fewer than 2^64 leaves has at most 64 nodes.
  proofLength: MAX_PROOF_LENGTH,
  proofNodes: 65_536,
  anchorRoots: 256,
  cosignatures: 32,
});

/** What {@link measureBundle} counted: the verification work a bundle asks for. */
export interface BundleSize {
  claims: number;
  evidence: number;
  chunks: number;
  proofNodes: number;
  anchorRoots: number;
  cosignatures: number;
}

/** What a limit counts, for messages. */
const UNITS: Record<BundleLimit, string> = {
  claims: 'claims',
  evidencePerClaim: 'evidence items in one claim',
  evidence: 'evidence items',
  chunks: 'cited chunks',
  proofLength: 'nodes in one inclusion proof',
  proofNodes: 'proof nodes',
  anchorRoots: 'distinct anchored batch roots',
  cosignatures: 'cosignatures',
};

function exceeded(limit: BundleLimit, value: number, limits: BundleLimits, where: string): never {
  throw new ProofError(
    'BUNDLE_LIMIT_EXCEEDED',
    `The bundle has ${value} ${UNITS[limit]} (${where}); the limit "${limit}" is ${limits[limit]}. Verify it offline instead (saksi verify).`,
    { details: limit },
  );
}

function arrayAt(value: unknown, key: string): unknown[] {
  if (typeof value !== 'object' || value === null) return [];
  const item = (value as Record<string, unknown>)[key];
  return Array.isArray(item) ? item : [];
}

function objectAt(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const item = (value as Record<string, unknown>)[key];
  return typeof item === 'object' && item !== null ? item : undefined;
}

/**
 * Counts a parsed bundle's verification work and checks it against `limits`, reading only array
 * lengths and anchor keys. Throws `ProofError('BUNDLE_LIMIT_EXCEEDED')` with the limit's name in
 * `details` at the first limit passed; a part that is missing or of the wrong type counts as empty
 * (`validateBundle` reports it). The counts are what a server charges a caller for (docs/api.md).
 *
 * @example
 * const size = measureBundle(JSON.parse(text)); // throws BUNDLE_LIMIT_EXCEEDED for 300 claims
 * size.evidence; // 2
 */
export function measureBundle(bundle: unknown, limits: BundleLimits = BUNDLE_LIMITS): BundleSize {
  const certificate = objectAt(bundle, 'certificate');
  const claims = arrayAt(certificate, 'claims');
  if (claims.length > limits.claims) exceeded('claims', claims.length, limits, 'certificate.claims');
  const path = (proof: unknown, where: string): number => {
    const nodes = arrayAt(proof, 'path').length;
    if (nodes > limits.proofLength) exceeded('proofLength', nodes, limits, where);
    return nodes;
  };
  let evidence = 0;
  let proofNodes = 0;
  const anchorRoots = new Set<string>();
  claims.forEach((claim, c) => {
    const items = arrayAt(claim, 'evidence');
    const where = `certificate.claims[${c}].evidence`;
    if (items.length > limits.evidencePerClaim) exceeded('evidencePerClaim', items.length, limits, where);
    evidence += items.length;
    if (evidence > limits.evidence) exceeded('evidence', evidence, limits, 'certificate.claims[*].evidence');
    items.forEach((item, e) => {
      proofNodes += path(objectAt(item, 'document_proof'), `${where}[${e}].document_proof.path`);
      const anchor = objectAt(item, 'anchor') as Record<string, unknown> | undefined;
      if (anchor === undefined) return;
      proofNodes += path(objectAt(anchor, 'batch_proof'), `${where}[${e}].anchor.batch_proof.path`);
      // The key verifyBundle looks anchors up by; a hostile value is only counted, never read further.
      anchorRoots.add(
        `${String(anchor['chain_id'])}/${String(anchor['contract']).toLowerCase()}/${String(anchor['batch_root'])}`,
      );
      if (anchorRoots.size > limits.anchorRoots)
        exceeded('anchorRoots', anchorRoots.size, limits, 'certificate.claims[*].evidence[*].anchor');
    });
    if (proofNodes > limits.proofNodes)
      exceeded('proofNodes', proofNodes, limits, 'the document and batch proofs');
  });
  const chunks = arrayAt(bundle, 'chunks').length;
  if (chunks > limits.chunks) exceeded('chunks', chunks, limits, 'chunks');
  const log = objectAt(bundle, 'log');
  const logProof = arrayAt(log, 'inclusion_proof').length;
  if (logProof > limits.proofLength) exceeded('proofLength', logProof, limits, 'log.inclusion_proof');
  proofNodes += logProof;
  if (proofNodes > limits.proofNodes) exceeded('proofNodes', proofNodes, limits, 'all inclusion proofs');
  const cosignatures = arrayAt(log, 'cosignatures').length;
  if (cosignatures > limits.cosignatures) exceeded('cosignatures', cosignatures, limits, 'log.cosignatures');
  return { claims: claims.length, evidence, chunks, proofNodes, anchorRoots: anchorRoots.size, cosignatures };
}
