/**
 * RFC 6962 tree arithmetic over stored complete subtrees. A log of n leaves keeps, for every level,
 * the hashes of its complete (perfect, aligned) subtrees: node (level, index) covers leaves
 * [index·2^level, (index+1)·2^level). Any subtree hash, root, inclusion proof (RFC 9162 §2.1.3) or
 * consistency proof (§2.1.4) is then computed from O(log² n) stored nodes instead of all leaves.
 */
import { emptyRoot, hashChildren } from '@saksi/proof';

export type NodeLookup = (level: number, index: number) => Uint8Array;

/** Largest power of two strictly smaller than n (RFC 6962 §2.1, n ≥ 2). */
function largestPowerOfTwoBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * Memo of incomplete subtree hashes for one tree size: proofs of many leaves of the same tree (a
 * batch) share their right-hand incomplete subtrees, so each is hashed once instead of per proof.
 */
export type SubtreeMemo = Map<string, Uint8Array>;

/** Hash of the subtree over leaves [start, end) (MTH of that range). */
export function subtreeHash(node: NodeLookup, start: number, end: number, memo?: SubtreeMemo): Uint8Array {
  const size = end - start;
  if (size === 0) return emptyRoot();
  if ((size & (size - 1)) === 0 && start % size === 0) return node(Math.log2(size), start / size);
  const key = `${start}:${end}`;
  const known = memo?.get(key);
  if (known) return known;
  const k = largestPowerOfTwoBelow(size);
  const hash = hashChildren(
    subtreeHash(node, start, start + k, memo),
    subtreeHash(node, start + k, end, memo),
  );
  memo?.set(key, hash);
  return hash;
}

/** Root of the first `size` leaves. */
export function rootAt(node: NodeLookup, size: number, memo?: SubtreeMemo): Uint8Array {
  return subtreeHash(node, 0, size, memo);
}

/** RFC 9162 §2.1.3.1 PATH(m, D[start:end]), leaf to root. */
export function inclusionPath(
  node: NodeLookup,
  index: number,
  start: number,
  end: number,
  memo?: SubtreeMemo,
): Uint8Array[] {
  const size = end - start;
  if (size <= 1) return [];
  const k = largestPowerOfTwoBelow(size);
  if (index < k) {
    return [...inclusionPath(node, index, start, start + k, memo), subtreeHash(node, start + k, end, memo)];
  }
  return [...inclusionPath(node, index - k, start + k, end, memo), subtreeHash(node, start, start + k, memo)];
}

/** RFC 9162 §2.1.4.1 PROOF(m, D[0:n]). */
export function consistencyPath(node: NodeLookup, m: number, n: number): Uint8Array[] {
  return subproof(node, m, 0, n, true);
}

function subproof(node: NodeLookup, m: number, start: number, end: number, complete: boolean): Uint8Array[] {
  const size = end - start;
  if (m === size) return complete ? [] : [subtreeHash(node, start, end)];
  const k = largestPowerOfTwoBelow(size);
  if (m <= k) return [...subproof(node, m, start, start + k, complete), subtreeHash(node, start + k, end)];
  return [...subproof(node, m - k, start + k, end, false), subtreeHash(node, start, start + k)];
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
