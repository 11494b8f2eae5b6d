/**
 * Merkle proof generation, the issuer's half of merkle.ts (exported through `@saksi/proof/issue`, never
 * the verifier's entry point): RFC 6962 / RFC 9162 tree hashes, inclusion and consistency proofs, and
 * the subtree inclusion and subtree consistency proofs of transparency-dev/merkle (`proof/proof.go`)
 * for a subtree `[start, end)` (draft-ietf-plants-merkle-tree-certs §4). The same generators also run
 * over stored complete subtrees (`*FromNodes`), for the engine's log and document trees.
 *
 * Generators throw a {@link ProofError}. Generation is O(n) hashes and iterative (no recursion over the
 * leaves, no copies of the leaf array), so trees of millions of leaves are fine.
 */
import { ProofError } from './errors.js';
import {
  bitAt,
  bitLength,
  emptyRoot,
  hashLeaf,
  nodeHash,
  requireHash,
  requireInteger,
  requireSubtree,
  splitPoint,
} from './merkle.js';

/**
 * Merkle Tree Hash of a list of leaf inputs, `MTH(D[n])` (RFC 6962 §2.1, RFC 9162 §2.1.1):
 * each input is leaf-hashed, then the tree is folded left to right in O(n) hashes and O(log n)
 * extra memory. Throws `MERKLE_INVALID_ARGUMENT` for anything but an array of `Uint8Array`.
 *
 * @example
 * merkleTreeHash([]); // emptyRoot()
 * merkleTreeHash([utf8Encode('a'), utf8Encode('b')]); // hashChildren(hashLeaf(a), hashLeaf(b))
 */
export function merkleTreeHash(leafInputs: readonly Uint8Array[]): Uint8Array {
  if (!Array.isArray(leafInputs)) {
    throw new ProofError('MERKLE_INVALID_ARGUMENT', 'Leaf inputs must be an array of Uint8Array.');
  }
  return foldRange(0, leafInputs.length, (i) => hashLeaf(leafInputs[i] as Uint8Array));
}

/**
 * Root of the tree whose leaf hashes are given (RFC 6962 §2.1 with the leaf hashing already done).
 * Throws `MERKLE_INVALID_ARGUMENT` / `INVALID_LENGTH` unless every element is a 32-byte hash.
 *
 * @example
 * rootFromLeafHashes(leafInputs.map(hashLeaf)); // equals merkleTreeHash(leafInputs)
 */
export function rootFromLeafHashes(leafHashes: readonly Uint8Array[]): Uint8Array {
  const size = requireLeafHashArray(leafHashes);
  requireLeafHashes(leafHashes, size);
  return rangeHash(leafHashes, 0, size);
}

// ---------------------------------------------------------------------------------------------
// Proof generation (RFC 9162 §2.1.3.1, §2.1.4.1; subtree proofs as in transparency-dev/merkle)
// ---------------------------------------------------------------------------------------------

/**
 * Inclusion proof `PATH(m, D[n])` for leaf `index` in the tree of all `leafHashes`
 * (RFC 9162 §2.1.3.1), ordered from the leaf's sibling up to the root's child. O(n) hashes.
 * Throws `MERKLE_INDEX_OUT_OF_RANGE` when `index >= leafHashes.length`.
 *
 * @example
 * const proof = inclusionProof(leafHashes, 3);
 * verifyInclusionProof(3, leafHashes.length, leafHashes[3], proof, rootFromLeafHashes(leafHashes)); // true
 */
export function inclusionProof(leafHashes: readonly Uint8Array[], index: number): Uint8Array[] {
  const size = requireLeafHashArray(leafHashes);
  requireInteger(index, 'index');
  if (index >= size) {
    throw new ProofError(
      'MERKLE_INDEX_OUT_OF_RANGE',
      `Leaf index ${index} is not below the tree size ${size}.`,
    );
  }
  requireLeafHashes(leafHashes, size);
  return rangePath((start, end) => rangeHash(leafHashes, start, end), index, index + 1, 0, size);
}

/**
 * Consistency proof `PROOF(m, D[n]) = SUBPROOF(m, D[n], true)` between the tree of the first
 * `size1` leaves and the tree of the first `size2` leaves (RFC 9162 §2.1.4.1). `size1 == size2`
 * gives the empty proof. Throws `MERKLE_INVALID_ARGUMENT` for `size1 == 0` (a proof from the empty
 * tree is meaningless) and `MERKLE_INDEX_OUT_OF_RANGE` unless `size1 <= size2 <= leafHashes.length`.
 *
 * @example
 * const proof = consistencyProof(leafHashes, 3, 7);
 * verifyConsistencyProof(3, 7, proof, root3, root7); // true
 */
export function consistencyProof(
  leafHashes: readonly Uint8Array[],
  size1: number,
  size2: number = leafHashes?.length,
): Uint8Array[] {
  const available = requireLeafHashArray(leafHashes);
  requireInteger(size1, 'size1');
  requireInteger(size2, 'size2');
  if (size2 > available) {
    throw new ProofError(
      'MERKLE_INDEX_OUT_OF_RANGE',
      `size2 ${size2} exceeds the ${available} leaves given.`,
    );
  }
  if (size1 > size2) {
    throw new ProofError('MERKLE_INDEX_OUT_OF_RANGE', `size1 ${size1} is larger than size2 ${size2}.`);
  }
  if (size1 === 0) {
    throw new ProofError(
      'MERKLE_INVALID_ARGUMENT',
      'A consistency proof from the empty tree is meaningless.',
    );
  }
  requireLeafHashes(leafHashes, size2);
  return subtreeSubproof((start, end) => rangeHash(leafHashes, start, end), 0, size1, size2);
}

/**
 * Subtree inclusion proof: the inclusion proof of leaf `index` in the subtree `[start, end)`
 * (transparency-dev/merkle `SubtreeInclusion`; MTC draft §4.3), i.e. `PATH` over
 * `D[start:end]`. The subtree must be valid (see {@link isValidSubtree}), `start <= index < end` and
 * `end <= leafHashes.length`.
 *
 * @example
 * const proof = subtreeInclusionProof(leafHashes, 9, 8, 12);
 * verifySubtreeInclusionProof(9, 8, 12, leafHashes[9], proof, subtreeRoot); // true
 */
export function subtreeInclusionProof(
  leafHashes: readonly Uint8Array[],
  index: number,
  start: number,
  end: number,
): Uint8Array[] {
  const available = requireLeafHashArray(leafHashes);
  requireInteger(index, 'index');
  requireSubtree(start, end);
  if (index < start || index >= end) {
    throw new ProofError(
      'MERKLE_INDEX_OUT_OF_RANGE',
      `Index ${index} is outside the subtree [${start}, ${end}).`,
    );
  }
  if (end > available) {
    throw new ProofError(
      'MERKLE_INDEX_OUT_OF_RANGE',
      `Subtree end ${end} exceeds the ${available} leaves given.`,
    );
  }
  requireLeafHashes(leafHashes, end);
  return rangePath((from, to) => rangeHash(leafHashes, from, to), index, index + 1, start, end);
}

/**
 * Subtree consistency proof between the subtree `[start, end)` and the tree of the first `size`
 * leaves (transparency-dev/merkle `SubtreeConsistency`; MTC draft §4.4). With `start = 0` it is the
 * RFC 9162 consistency proof. An empty subtree (`start == end`) or the whole tree gives `[]`.
 * Throws `MERKLE_INVALID_ARGUMENT` for an invalid subtree and `MERKLE_INDEX_OUT_OF_RANGE` unless
 * `end <= size <= leafHashes.length`.
 *
 * @example
 * const proof = subtreeConsistencyProof(leafHashes, 8, 12, 15);
 * verifySubtreeConsistencyProof(8, 12, 15, proof, subtreeRoot, root15); // true
 */
export function subtreeConsistencyProof(
  leafHashes: readonly Uint8Array[],
  start: number,
  end: number,
  size: number = leafHashes?.length,
): Uint8Array[] {
  const available = requireLeafHashArray(leafHashes);
  requireSubtree(start, end);
  requireInteger(size, 'size');
  if (size > available) {
    throw new ProofError('MERKLE_INDEX_OUT_OF_RANGE', `Size ${size} exceeds the ${available} leaves given.`);
  }
  if (end > size) {
    throw new ProofError('MERKLE_INDEX_OUT_OF_RANGE', `Subtree end ${end} is beyond the tree size ${size}.`);
  }
  if (start === end) return [];
  requireLeafHashes(leafHashes, size);
  return subtreeSubproof((from, to) => rangeHash(leafHashes, from, to), start, end, size);
}

// ---------------------------------------------------------------------------------------------
// Proof generation from stored complete subtrees (a log's tiles, a document's levels)
// ---------------------------------------------------------------------------------------------

/**
 * The hash of the complete (perfect, aligned) subtree node at `level` and `index`, covering the leaves
 * `[index·2^level, (index+1)·2^level)`; level 0 is the leaf hashes. Storage that keeps these nodes
 * (C2SP tlog tiles keep exactly them) answers any root or proof below from O(log² n) of them.
 */
export type MerkleNodeLookup = (level: number, index: number) => Uint8Array;

/**
 * Memo of the incomplete subtree hashes computed for one tree: proofs of many leaves of the same tree
 * (a batch) share their right-hand incomplete subtrees, so each is hashed once.
 */
export type SubtreeHashMemo = Map<string, Uint8Array>;

/**
 * `MTH(D[start:end])` of a valid subtree (see {@link isValidSubtree}) from the complete nodes that
 * `node` returns: the binary decomposition of the range into complete nodes, largest first, folded
 * right to left, which is the RFC 6962 §2.1 split at the largest power of two. The empty range gives
 * {@link emptyRoot}. Throws `MERKLE_INVALID_ARGUMENT` for an invalid subtree or a lookup that does
 * not return a 32-byte hash; errors of `node` itself propagate.
 *
 * @example
 * subtreeHashFromNodes(node, 0, size); // the root of the first `size` leaves
 */
export function subtreeHashFromNodes(
  node: MerkleNodeLookup,
  start: number,
  end: number,
  memo?: SubtreeHashMemo,
): Uint8Array {
  requireSubtree(start, end);
  return nodeRangeHash(node, start, end, memo);
}

/**
 * Inclusion proof `PATH(m, D[n])` of leaf `index` in the tree of `size` leaves (RFC 9162 §2.1.3.1)
 * from stored complete nodes; equal to {@link inclusionProof} over the same leaves. Throws
 * `MERKLE_INDEX_OUT_OF_RANGE` when `index >= size`.
 *
 * @example
 * inclusionProofFromNodes(node, 3, 7); // equals inclusionProof(leafHashes.slice(0, 7), 3)
 */
export function inclusionProofFromNodes(
  node: MerkleNodeLookup,
  index: number,
  size: number,
  memo?: SubtreeHashMemo,
): Uint8Array[] {
  return subtreeInclusionProofFromNodes(node, index, 0, size, memo);
}

/**
 * Subtree inclusion proof of leaf `index` in the subtree `[start, end)` from stored complete nodes;
 * equal to {@link subtreeInclusionProof} over the same leaves.
 *
 * @example
 * subtreeInclusionProofFromNodes(node, 9, 8, 12); // equals subtreeInclusionProof(leafHashes, 9, 8, 12)
 */
export function subtreeInclusionProofFromNodes(
  node: MerkleNodeLookup,
  index: number,
  start: number,
  end: number,
  memo?: SubtreeHashMemo,
): Uint8Array[] {
  requireInteger(index, 'index');
  requireSubtree(start, end);
  if (index < start || index >= end) {
    throw new ProofError(
      'MERKLE_INDEX_OUT_OF_RANGE',
      `Index ${index} is outside the subtree [${start}, ${end}).`,
    );
  }
  return rangePath((from, to) => nodeRangeHash(node, from, to, memo), index, index + 1, start, end);
}

/**
 * Consistency proof `PROOF(m, D[n])` between the trees of the first `size1` and `size2` leaves
 * (RFC 9162 §2.1.4.1) from stored complete nodes; equal to {@link consistencyProof} over the same
 * leaves. Throws `MERKLE_INVALID_ARGUMENT` for `size1 == 0` and `MERKLE_INDEX_OUT_OF_RANGE` when
 * `size1 > size2`.
 *
 * @example
 * consistencyProofFromNodes(node, 3, 7); // equals consistencyProof(leafHashes, 3, 7)
 */
export function consistencyProofFromNodes(
  node: MerkleNodeLookup,
  size1: number,
  size2: number,
  memo?: SubtreeHashMemo,
): Uint8Array[] {
  requireInteger(size1, 'size1');
  requireInteger(size2, 'size2');
  if (size1 > size2) {
    throw new ProofError('MERKLE_INDEX_OUT_OF_RANGE', `size1 ${size1} is larger than size2 ${size2}.`);
  }
  if (size1 === 0) {
    throw new ProofError(
      'MERKLE_INVALID_ARGUMENT',
      'A consistency proof from the empty tree is meaningless.',
    );
  }
  return subtreeSubproof((from, to) => nodeRangeHash(node, from, to, memo), 0, size1, size2);
}

// ---------------------------------------------------------------------------------------------
// Internals: tree hashing over index ranges
// ---------------------------------------------------------------------------------------------

/**
 * `MTH` of the leaves `start .. end-1` produced by `leafAt`, folded left to right: a stack holds the
 * roots of the perfect subtrees seen so far (sizes strictly decreasing); equal neighbours merge. At the
 * end the stack is folded right to left, which is the RFC 6962 split at the largest power of two.
 */
function foldRange(start: number, end: number, leafAt: (index: number) => Uint8Array): Uint8Array {
  if (end <= start) return emptyRoot();
  const hashes: Uint8Array[] = [];
  const sizes: number[] = [];
  for (let i = start; i < end; i++) {
    let hash = leafAt(i);
    let width = 1;
    while (sizes.length > 0 && sizes[sizes.length - 1] === width) {
      sizes.pop();
      hash = nodeHash(hashes.pop()!, hash);
      width *= 2;
    }
    hashes.push(hash);
    sizes.push(width);
  }
  let root = hashes.pop()!;
  while (hashes.length > 0) root = nodeHash(hashes.pop()!, root);
  return root;
}

/** `MTH(D[start:end])` for a range the generators reach (a node of the RFC 6962 tree). */
type RangeHasher = (start: number, end: number) => Uint8Array;

/** `MTH(D[start:end])` of already validated leaf hashes. */
function rangeHash(leafHashes: readonly Uint8Array[], start: number, end: number): Uint8Array {
  if (end - start === 1) return leafHashes[start]!.slice(); // a copy: proofs never alias the input
  return foldRange(start, end, (i) => leafHashes[i]!);
}

/**
 * `MTH(D[start:end])` of a valid subtree from complete nodes: for each set bit of the size, largest
 * first, the complete node there; folded right to left. Complete nodes are copied, so proofs never
 * alias the storage.
 */
function nodeRangeHash(
  node: MerkleNodeLookup,
  start: number,
  end: number,
  memo: SubtreeHashMemo | undefined,
): Uint8Array {
  const size = end - start;
  if (size === 0) return emptyRoot();
  const key = `${start}:${end}`;
  const known = memo?.get(key);
  if (known) return known;
  const pieces: Uint8Array[] = [];
  let position = start;
  for (let level = bitLength(size) - 1; level >= 0; level--) {
    const width = 2 ** level;
    if (bitAt(size, level) === 0) continue;
    const index = position / width;
    const hash = node(level, index);
    requireHash(hash, `subtree node ${level}/${index}`);
    pieces.push(hash);
    position += width;
  }
  let hash: Uint8Array = pieces.pop()!.slice();
  while (pieces.length > 0) hash = nodeHash(pieces.pop()!, hash);
  if (size !== 2 ** (bitLength(size) - 1)) memo?.set(key, hash);
  return hash;
}

/**
 * Hashes proving the node covering `[nodeStart, nodeEnd)` inside `D[lo:hi]`, ordered bottom-up:
 * RFC 9162 §2.1.3.1 `PATH`, walked top-down without recursion (the node is a leaf or a subtree
 * node, so at every split it lies wholly on one side).
 */
function rangePath(
  hashRange: RangeHasher,
  nodeStart: number,
  nodeEnd: number,
  lo: number,
  hi: number,
): Uint8Array[] {
  const topDown: Uint8Array[] = [];
  while (lo !== nodeStart || hi !== nodeEnd) {
    const mid = lo + splitPoint(hi - lo);
    if (nodeEnd <= mid) {
      topDown.push(hashRange(mid, hi));
      hi = mid;
    } else {
      topDown.push(hashRange(lo, mid));
      lo = mid;
    }
  }
  return topDown.reverse();
}

/**
 * RFC 9162 §2.1.4.1 `SUBPROOF(m, D[n], b)` generalised to a subtree `[start, end)` of `D[0:size]`
 * (the MTC draft's `SUBTREE_SUBPROOF`; with `start = 0` it is `SUBPROOF(end, D[size], true)`).
 * Walked top-down; the hash pushed at each level is the sibling side's MTH.
 */
function subtreeSubproof(hashRange: RangeHasher, start: number, end: number, size: number): Uint8Array[] {
  const topDown: Uint8Array[] = [];
  let lo = 0;
  let hi = size;
  let known = true; // b in RFC 9162: whether the verifier already knows MTH(D[lo:hi]) for this level
  for (;;) {
    if (start === lo && end === hi) {
      if (!known) topDown.push(hashRange(lo, hi));
      break;
    }
    const mid = lo + splitPoint(hi - lo);
    if (end <= mid) {
      topDown.push(hashRange(mid, hi));
      hi = mid;
    } else {
      // start >= mid, or the subtree straddles mid, which for a valid subtree means start === lo.
      topDown.push(hashRange(lo, mid));
      if (start < mid) {
        start = mid;
        known = false;
      }
      lo = mid;
    }
  }
  return topDown.reverse();
}

function requireLeafHashArray(leafHashes: unknown): number {
  if (!Array.isArray(leafHashes)) {
    throw new ProofError('MERKLE_INVALID_ARGUMENT', 'Leaf hashes must be an array of 32-byte Uint8Array.');
  }
  return leafHashes.length;
}

function requireLeafHashes(leafHashes: unknown, count: number): void {
  requireLeafHashArray(leafHashes);
  const list = leafHashes as readonly unknown[];
  for (let i = 0; i < count; i++) requireHash(list[i], `leaf hash ${i}`);
}
