/**
 * A document's RFC 6962 tree built once, bottom-up, so every chunk's inclusion proof costs O(log n)
 * instead of O(n) (the proof package's `inclusionProof` recomputes subtrees per call). Each level keeps
 * the complete (perfect, aligned) subtree nodes; the root and the RFC 9162 §2.1.3.1 PATHs come from
 * them through the proof package's `subtreeHashFromNodes` and `inclusionProofFromNodes`, with the
 * incomplete right-hand subtrees hashed once and shared by all proofs.
 */
import { hashChildren } from '@saksi/proof';
import {
  inclusionProofFromNodes,
  type MerkleNodeLookup,
  type SubtreeHashMemo,
  subtreeHashFromNodes,
} from '@saksi/proof/issue';

export interface DocumentTree {
  root: Uint8Array;
  /** Inclusion proof of leaf `index`, leaf to root. */
  proof(index: number): Uint8Array[];
}

export function buildDocumentTree(leafHashes: readonly Uint8Array[]): DocumentTree {
  const levels: Uint8Array[][] = [leafHashes.slice()];
  while (levels[levels.length - 1]!.length > 1) {
    const below = levels[levels.length - 1]!;
    const above: Uint8Array[] = [];
    for (let i = 0; i + 1 < below.length; i += 2) above.push(hashChildren(below[i]!, below[i + 1]!));
    levels.push(above);
  }
  const node: MerkleNodeLookup = (level, index) => {
    const hash = levels[level]?.[index];
    if (!hash) throw new RangeError(`the document tree has no node ${level}/${index}`);
    return hash;
  };
  const memo: SubtreeHashMemo = new Map();
  const root = subtreeHashFromNodes(node, 0, leafHashes.length, memo);
  return {
    root,
    proof(index: number): Uint8Array[] {
      if (!Number.isSafeInteger(index) || index < 0 || index >= leafHashes.length) {
        throw new RangeError(`leaf index ${index} is outside 0..${leafHashes.length - 1}`);
      }
      return inclusionProofFromNodes(node, index, leafHashes.length, memo);
    },
  };
}
