/**
 * A reference issuer: turns documents, a question, an answer and its claims into a complete signed
 * bundle — document Merkle trees and proofs, an optional anchor batch, the certificate, its
 * signature, a log entry, a signed checkpoint and witness cosignatures. Fixtures, tests, benchmarks
 * and `saksi demo` use it; the engine issues the same format from its database.
 */

import { buildCertificate, issuerFromSecretKey, signCertificate } from './build-certificate.js';
import { toHex } from './bytes.js';
import {
  type Anchor,
  type AnswerCheck,
  type AnswerOutcome,
  type Bundle,
  CERTIFICATE_SCHEMA_V1_1,
  CERTIFICATE_SCHEMA_V1_2,
  type Certificate,
  type CertificateSchema,
  type Citation,
  type ClaimRelevance,
  type ClaimVerification,
  type Composition,
  type DocumentProof,
  type Generator,
  logLeafInput,
  normalizeText,
  type Policy,
  type Refusal,
  type RenderReason,
  type RetrievalResult,
} from './certificate.js';
import { cosignatureLine } from './cosignature.js';
import { ProofError } from './errors.js';
import { sha256 } from './hash.js';
import type { MemoryLog } from './memory-log.js';
import { hashLeaf } from './merkle.js';
import { inclusionProof, rootFromLeafHashes } from './merkle-proofs.js';
import { type NoteSigner, parseNote } from './note.js';

export interface SourceChunk {
  chunk_id: string;
  text: string;
  citation?: Omit<Citation, 'document_title'>;
}

export interface SourceDocument {
  document_id: string;
  title: string;
  chunks: SourceChunk[];
}

/** An anchoring round as the verifier sees it: where the batch root was written. */
export interface AnchorRound {
  chain_id: number;
  contract: string;
  tx_hash: string;
  block_number: number;
  /** Document ids in the batch, in batch order. */
  document_ids: string[];
}

export interface IssueBundleInput {
  /**
   * The schema to write. By default the oldest that holds the input: v1.2 when it has a `check` or
   * the outcome `related`, else v1.1 (so fixtures written before v1.2 stay as they were). v1 is for
   * regression fixtures.
   */
  schema?: CertificateSchema;
  documents: SourceDocument[];
  question: string;
  answer: string;
  generator?: Generator;
  /** v1.1: the answer's relevance, outcome and refusal. */
  answerRelevance?: ClaimRelevance;
  outcome?: AnswerOutcome;
  refusal?: Refusal;
  /** v1.2: the answer check, required with outcome `answered` or `related` in a v1.2 certificate. */
  check?: AnswerCheck;
  claims: {
    text: string;
    evidence: { chunk_id: string; span_text: string }[];
    verification?: ClaimVerification;
    render?: { rendered: boolean; reason: RenderReason };
    /** v1.1: the claim's composition; its indices point into `evidence`. */
    composition?: Composition;
    /** v1.1: the claim's relevance. */
    relevance?: ClaimRelevance;
  }[];
  /** Retrieved chunk ids in rank order (default: every cited chunk, in citation order). */
  retrieved?: string[];
  collection?: string;
  issuerName: string;
  issuerSecretKey: Uint8Array;
  log: MemoryLog;
  logSigner: NoteSigner;
  cosigners?: NoteSigner[];
  anchor?: AnchorRound;
  issued_at?: string;
  certificate_id?: string;
  nonce?: string;
  /** The chat session's id: the certificate records its keyed reference (docs/certificate.md). */
  session?: string;
  policy?: Partial<Omit<Policy, 'fail_closed'>>;
}

interface DocumentTree {
  document: SourceDocument;
  leafHashes: Uint8Array[];
  root: Uint8Array;
}

/** Builds the per-document RFC 6962 trees over the chunk hashes (docs/certificate.md, "Document proof"). */
export function documentTrees(documents: SourceDocument[]): Map<string, DocumentTree> {
  const trees = new Map<string, DocumentTree>();
  for (const document of documents) {
    const leafHashes = document.chunks.map((chunk) =>
      hashLeaf(sha256(new TextEncoder().encode(normalizeText(chunk.text)))),
    );
    trees.set(document.document_id, { document, leafHashes, root: rootFromLeafHashes(leafHashes) });
  }
  return trees;
}

/** Issues a complete bundle and appends its entry to `input.log`. */
export function issueBundle(input: IssueBundleInput): Bundle {
  const trees = documentTrees(input.documents);
  const chunkIndex = new Map<string, { tree: DocumentTree; index: number; chunk: SourceChunk }>();
  for (const tree of trees.values()) {
    tree.document.chunks.forEach((chunk, index) => {
      chunkIndex.set(chunk.chunk_id, { tree, index, chunk });
    });
  }
  const locate = (chunkId: string) => {
    const found = chunkIndex.get(chunkId);
    if (!found) throw new ProofError('CERTIFICATE_INVALID', `Unknown chunk ${chunkId}.`);
    return found;
  };

  let batch: { leafHashes: Uint8Array[]; root: Uint8Array; ids: string[] } | undefined;
  if (input.anchor) {
    const leafHashes = input.anchor.document_ids.map((id) => {
      const tree = trees.get(id);
      if (!tree) throw new ProofError('CERTIFICATE_INVALID', `Anchor round names unknown document ${id}.`);
      return hashLeaf(tree.root);
    });
    batch = { leafHashes, root: rootFromLeafHashes(leafHashes), ids: input.anchor.document_ids };
  }
  const anchorFor = (documentId: string): Anchor | undefined => {
    if (!input.anchor || !batch) return undefined;
    const index = batch.ids.indexOf(documentId);
    if (index < 0) return undefined;
    return {
      chain_id: input.anchor.chain_id,
      contract: input.anchor.contract,
      tx_hash: input.anchor.tx_hash,
      block_number: input.anchor.block_number,
      batch_root: toHex(batch.root),
      batch_proof: {
        leaf_index: index,
        tree_size: batch.leafHashes.length,
        path: inclusionProof(batch.leafHashes, index).map(toHex),
      },
    };
  };

  const cited: string[] = [];
  const claims = input.claims.map((claim) => ({
    text: claim.text,
    verification: claim.verification ?? {
      label: 'entailed' as const,
      confidence: 0.9,
      verifier: { id: 'lexical', version: '1' },
    },
    render: claim.render ?? { rendered: true, reason: 'OK' as const },
    ...(claim.composition ? { composition: claim.composition } : {}),
    ...(claim.relevance ? { relevance: claim.relevance } : {}),
    evidence: claim.evidence.map((evidence) => {
      const { tree, index, chunk } = locate(evidence.chunk_id);
      if (!cited.includes(chunk.chunk_id)) cited.push(chunk.chunk_id);
      const documentProof: DocumentProof = {
        leaf_index: index,
        tree_size: tree.leafHashes.length,
        path: inclusionProof(tree.leafHashes, index).map(toHex),
        document_root: toHex(tree.root),
      };
      const anchor = anchorFor(tree.document.document_id);
      return {
        chunk_id: chunk.chunk_id,
        document_id: tree.document.document_id,
        chunk_text: chunk.text,
        span_text: evidence.span_text,
        document_proof: documentProof,
        ...(anchor ? { anchor } : {}),
        citation: { document_title: tree.document.title, ...chunk.citation },
      };
    }),
  }));

  const retrievedIds = input.retrieved ?? cited;
  const results: RetrievalResult[] = retrievedIds.map((chunkId, rank) => {
    const { tree, chunk } = locate(chunkId);
    return {
      chunk_id: chunk.chunk_id,
      document_id: tree.document.document_id,
      chunk_sha256: toHex(sha256(new TextEncoder().encode(normalizeText(chunk.text)))),
      rank: rank + 1,
      score: Math.round((1 / (60 + rank + 1)) * 1e6) / 1e6,
    };
  });

  const schema =
    input.schema ??
    (input.check !== undefined || input.outcome === 'related'
      ? CERTIFICATE_SCHEMA_V1_2
      : CERTIFICATE_SCHEMA_V1_1);
  const { certificate, chunks } = buildCertificate({
    schema,
    ...(input.certificate_id ? { certificate_id: input.certificate_id } : {}),
    ...(input.issued_at ? { issued_at: input.issued_at } : {}),
    issuer: issuerFromSecretKey(input.issuerName, input.issuerSecretKey),
    query: {
      text: input.question,
      ...(input.nonce ? { nonce: input.nonce } : {}),
      mode: 'full',
      ...(input.session !== undefined ? { session: input.session } : {}),
    },
    retrieval: {
      collection: input.collection ?? 'default',
      parameters: {
        top_k: Math.max(1, results.length),
        rrf_k: 60,
        weights: { lexical: 1, vector: 1 },
        rewrite_variants: [{ text: normalizeText(input.question), weight: 1, kind: 'original' }],
      },
      results,
    },
    answer: {
      text: input.answer,
      generator: input.generator ?? { kind: 'extractive', model: 'saksi-extractive', version: '1' },
      ...(input.answerRelevance ? { relevance: input.answerRelevance } : {}),
      ...(input.outcome ? { outcome: input.outcome } : {}),
      ...(input.refusal ? { refusal: input.refusal } : {}),
      ...(input.check ? { check: input.check } : {}),
    },
    claims,
    ...(input.policy ? { policy: input.policy } : {}),
  });
  return finishBundle(certificate, chunks, input);
}

function finishBundle(
  certificate: Certificate,
  chunks: Bundle['chunks'],
  input: Pick<IssueBundleInput, 'issuerSecretKey' | 'log' | 'logSigner' | 'cosigners'>,
): Bundle {
  const signature = signCertificate(certificate, input.issuerSecretKey);
  const leafIndex = input.log.append(logLeafInput(certificate, signature));
  const checkpoint = input.log.signedCheckpoint(input.logSigner);
  const checkpointText = parseNote(checkpoint).text;
  return {
    certificate,
    signature,
    log: {
      origin: input.log.origin,
      leaf_index: leafIndex,
      inclusion_proof: input.log.inclusionProof(leafIndex).map(toHex),
      checkpoint,
      cosignatures: (input.cosigners ?? []).map((cosigner) => cosignatureLine(checkpointText, cosigner)),
    },
    chunks,
  };
}
