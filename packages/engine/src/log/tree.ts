/**
 * The log's tree over stored complete subtrees. A log of n leaves keeps, for every level, the hashes
 * of its complete (perfect, aligned) subtrees: node (level, index) covers leaves
 * [index·2^level, (index+1)·2^level). Roots, inclusion proofs (RFC 9162 §2.1.3) and consistency
 * proofs (§2.1.4) are computed from O(log² n) stored nodes by the proof package's generators
 * (`subtreeHashFromNodes`, `inclusionProofFromNodes`, `consistencyProofFromNodes`); what is specific to
 * storage here is which nodes an append creates.
 */
import { hashChildren } from '@saksi/proof';
import {
  consistencyProofFromNodes,
  type MerkleNodeLookup,
  type SubtreeHashMemo,
  subtreeHashFromNodes,
  subtreeInclusionProofFromNodes,
} from '@saksi/proof/issue';

export type NodeLookup = MerkleNodeLookup;

/**
 * Memo of incomplete subtree hashes for one tree size: proofs of many leaves of the same tree (a
 * batch) share their right-hand incomplete subtrees, so each is hashed once instead of per proof.
 */
export type SubtreeMemo = SubtreeHashMemo;

/** Hash of the subtree over leaves [start, end) (MTH of that range). */
export function subtreeHash(node: NodeLookup, start: number, end: number, memo?: SubtreeMemo): Uint8Array {
  return subtreeHashFromNodes(node, start, end, memo);
}

/** Root of the first `size` leaves. */
export function rootAt(node: NodeLookup, size: number, memo?: SubtreeMemo): Uint8Array {
  return subtreeHashFromNodes(node, 0, size, memo);
}

/** RFC 9162 §2.1.3.1 PATH(m, D[start:end]), leaf to root. */
export function inclusionPath(
  node: NodeLookup,
  index: number,
  start: number,
  end: number,
  memo?: SubtreeMemo,
): Uint8Array[] {
  return subtreeInclusionProofFromNodes(node, index, start, end, memo);
}

/** RFC 9162 §2.1.4.1 PROOF(m, D[0:n]). */
export function consistencyPath(node: NodeLookup, m: number, n: number): Uint8Array[] {
  return consistencyProofFromNodes(node, m, n);
}

/** The complete-subtree nodes that appending leaf number `index` (0-based) creates, bottom-up. */
export function nodesCreatedByAppend(
  node: NodeLookup,
  index: number,
  leafHash: Uint8Array,
): { level: number; index: number; hash: Uint8Array }[] {
  const created = [{ level: 0, index, hash: leafHash }];
  let level = 0;
  let position = index;
  let hash = leafHash;
  while (position % 2 === 1) {
    hash = hashChildren(node(level, position - 1), hash);
    level++;
    position = (position - 1) / 2;
    created.push({ level, index: position, hash });
  }
  return created;
}
