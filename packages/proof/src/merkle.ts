/**
 * RFC 6962 / RFC 9162 Merkle trees over SHA-256, the verifier's half: leaf and node hashes, and the
 * verification of inclusion and consistency proofs, plus the subtree inclusion and subtree
 * consistency proofs of transparency-dev/merkle (`proof/verify.go`), which the Merkle Tree
 * Certificates draft (draft-ietf-plants-merkle-tree-certs §4) defines for a subtree `[start, end)`.
 * Generating proofs is the issuer's half, merkle-proofs.ts; it shares the validation and bit
 * arithmetic exported at the end of this file.
 *
 * Sizes and indices are JavaScript numbers and must be non-negative safe integers (below 2^53).
 * Every `verify*` function returns `false` and never throws; the others throw a {@link ProofError}
 * on invalid arguments.
 * Hashes are compared in constant time.
 */
import { concatBytes, constantTimeEqual, MAX_INPUT_LENGTH } from './bytes.js';
import { ProofError } from './errors.js';
import { sha256 } from './hash.js';

/** Domain-separation prefix of a leaf hash: `SHA-256(0x00 ‖ d)` (RFC 6962 §2.1, RFC 9162 §2.1.1). */
export const RFC6962_LEAF_PREFIX = 0x00;
/** Domain-separation prefix of an interior node: `SHA-256(0x01 ‖ l ‖ r)` (RFC 6962 §2.1). */
export const RFC6962_NODE_PREFIX = 0x01;
/** Length in bytes of every tree hash: the SHA-256 output (RFC 6962 §2.1, FIPS 180-4). */
export const HASH_LENGTH = 32;
/**
 * Longest proof accepted, in hashes. A tree of fewer than 2^64 leaves has inclusion paths of at most
 * 64 hashes (RFC 9162 §2.1.3.1); longer input is refused before any hashing.
 */
export const MAX_PROOF_LENGTH = 64;

// ---------------------------------------------------------------------------------------------
// Hashing (RFC 6962 §2.1)
// ---------------------------------------------------------------------------------------------

/** Scratch buffer for node hashes; `sha256` is synchronous and does not keep its input. */
const nodeInput = new Uint8Array(1 + 2 * HASH_LENGTH);
nodeInput[0] = RFC6962_NODE_PREFIX;

/** `SHA-256(0x01 ‖ left ‖ right)` for inputs already known to be 32 bytes. */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  nodeInput.set(left, 1);
  nodeInput.set(right, 1 + HASH_LENGTH);
  return sha256(nodeInput);
}

/**
 * Leaf hash `MTH({d}) = SHA-256(0x00 ‖ d)` (RFC 6962 §2.1). Throws `MERKLE_INVALID_ARGUMENT` when
 * the input is not a `Uint8Array` and `INPUT_TOO_LARGE` above 64 MiB.
 *
 * @example
 * toHex(hashLeaf(new Uint8Array())); // '6e340b9c…afa01d'
 */
export function hashLeaf(leafInput: Uint8Array): Uint8Array {
  if (!(leafInput instanceof Uint8Array)) {
    throw new ProofError('MERKLE_INVALID_ARGUMENT', 'A leaf input must be a Uint8Array.');
  }
  if (leafInput.length > MAX_INPUT_LENGTH) {
    throw new ProofError('INPUT_TOO_LARGE', 'A leaf input is larger than 64 MiB; hash it before adding it.');
  }
  return sha256(concatBytes(Uint8Array.of(RFC6962_LEAF_PREFIX), leafInput));
}

/**
 * Interior node hash `SHA-256(0x01 ‖ left ‖ right)` (RFC 6962 §2.1). Both children must be 32-byte
 * hashes; otherwise throws `MERKLE_INVALID_ARGUMENT` or `INVALID_LENGTH`.
 *
 * @example
 * hashChildren(hashLeaf(a), hashLeaf(b)); // root of the two-leaf tree [a, b]
 */
export function hashChildren(left: Uint8Array, right: Uint8Array): Uint8Array {
  requireHash(left, 'left child');
  requireHash(right, 'right child');
  return nodeHash(left, right);
}

/**
 * Root of the empty tree, `MTH({}) = SHA-256()` (RFC 6962 §2.1). A fresh copy on every call.
 *
 * @example
 * toHex(emptyRoot()); // 'e3b0c442…7852b855'
 */
export function emptyRoot(): Uint8Array {
  return sha256(new Uint8Array(0));
}

/**
 * True when `[start, end)` is a valid subtree: `start <= end`, and `start` is 0 or a multiple of the
 * smallest power of two `>= end - start` (transparency-dev/merkle `isSubtreeValid`; MTC draft §4.1).
 * False, never a throw, for anything that is not a pair of safe non-negative integers.
 */
export function isValidSubtree(start: number, end: number): boolean {
  if (!isInteger(start) || !isInteger(end) || start > end) return false;
  if (start === 0 || start === end) return true;
  return start % bitCeil(end - start) === 0;
}

// ---------------------------------------------------------------------------------------------
// Verification (RFC 9162 §2.1.3.2, §2.1.4.2; transparency-dev/merkle proof/verify.go)
// ---------------------------------------------------------------------------------------------

/**
 * Root hash implied by an inclusion proof for leaf `index` with hash `leafHash` in a tree of `size`
 * leaves (RFC 9162 §2.1.3.2). Throws `MERKLE_INVALID_ARGUMENT`, `MERKLE_INDEX_OUT_OF_RANGE`
 * (`index >= size`), `MERKLE_PROOF_TOO_LONG` (more than 64 hashes), `INVALID_LENGTH` (a hash that
 * is not 32 bytes) or `MERKLE_PROOF_INVALID` (wrong number of hashes for this index and size).
 *
 * @example
 * rootFromInclusionProof(2, 5, leafHash, proof); // the root the proof commits to
 */
export function rootFromInclusionProof(
  index: number,
  size: number,
  leafHash: Uint8Array,
  proof: readonly Uint8Array[],
): Uint8Array {
  requireInteger(index, 'index');
  requireInteger(size, 'size');
  if (index >= size) {
    throw new ProofError(
      'MERKLE_INDEX_OUT_OF_RANGE',
      `Leaf index ${index} is not below the tree size ${size}.`,
    );
  }
  requireHash(leafHash, 'leaf hash');
  requireProof(proof);
  return chainInclusion(index, size, leafHash, proof, 0, proof.length);
}

/**
 * Verifies an RFC 9162 §2.1.3.2 inclusion proof against `root`. Returns `false` — never throws —
 * for a wrong proof, `index >= size`, sizes that are not safe non-negative integers, more than 64
 * proof hashes, or any hash that is not a 32-byte `Uint8Array`. The root is compared in constant time.
 *
 * @example
 * verifyInclusionProof(leafIndex, treeSize, hashLeaf(leafInput), proof, root); // true or false
 */
export function verifyInclusionProof(
  index: number,
  size: number,
  leafHash: Uint8Array,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  try {
    return constantTimeEqual(rootFromInclusionProof(index, size, leafHash, proof), root);
  } catch {
    return false;
  }
}

/**
 * Verifies a subtree inclusion proof: leaf `index` with hash `leafHash` lies in the subtree
 * `[start, end)` whose hash is `root` (transparency-dev/merkle `VerifySubtreeInclusion`). The subtree
 * must be valid and `start <= index < end`. Returns `false`, never throws.
 *
 * @example
 * verifySubtreeInclusionProof(9, 8, 12, leafHash, proof, subtreeRoot); // true or false
 */
export function verifySubtreeInclusionProof(
  index: number,
  start: number,
  end: number,
  leafHash: Uint8Array,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  try {
    if (!isValidSubtree(start, end) || !isInteger(index) || index < start || index >= end) return false;
    return constantTimeEqual(rootFromInclusionProof(index - start, end - start, leafHash, proof), root);
  } catch {
    return false;
  }
}

/**
 * Root of the tree of `size2` leaves implied by a consistency proof from the tree of `size1` leaves
 * with root `root1` (RFC 9162 §2.1.4.2, with the checks of transparency-dev/merkle
 * `RootFromConsistencyProof`): `size1 <= size2` (else `MERKLE_INDEX_OUT_OF_RANGE`), `size1 > 0`
 * (else `MERKLE_INVALID_ARGUMENT`); equal sizes need an empty proof and return `root1` unchanged;
 * otherwise the proof must be non-empty, of the exact expected length, and must rebuild `root1`
 * (else `MERKLE_PROOF_INVALID`).
 */
export function rootFromConsistencyProof(
  size1: number,
  size2: number,
  proof: readonly Uint8Array[],
  root1: Uint8Array,
): Uint8Array {
  requireInteger(size1, 'size1');
  requireInteger(size2, 'size2');
  if (size2 < size1) {
    throw new ProofError('MERKLE_INDEX_OUT_OF_RANGE', `size2 ${size2} is smaller than size1 ${size1}.`);
  }
  if (size1 === 0) {
    throw new ProofError(
      'MERKLE_INVALID_ARGUMENT',
      'A consistency proof from the empty tree is meaningless.',
    );
  }
  requireProof(proof);
  if (!(root1 instanceof Uint8Array))
    throw new ProofError('MERKLE_INVALID_ARGUMENT', 'root1 must be a Uint8Array.');
  if (size1 === size2) {
    if (proof.length > 0) throw proofInvalid('Equal tree sizes need an empty consistency proof.');
    return root1;
  }
  if (proof.length === 0) throw proofInvalid('The consistency proof is empty.');
  return chainSubtreeConsistency(0, size1, size2, proof, root1);
}

/**
 * Verifies an RFC 9162 §2.1.4.2 consistency proof between the tree of `size1` leaves with root
 * `root1` and the tree of `size2` leaves with root `root2`, with exactly the semantics of
 * transparency-dev/merkle `VerifyConsistency`: `size1 == 0` is always rejected; `size1 == size2`
 * needs an empty proof and equal roots (compared, not otherwise checked); otherwise the proof must
 * rebuild both roots. Returns `false`, never throws; roots are compared in constant time.
 *
 * @example
 * verifyConsistencyProof(3, 7, proof, root3, root7); // true or false
 */
export function verifyConsistencyProof(
  size1: number,
  size2: number,
  proof: readonly Uint8Array[],
  root1: Uint8Array,
  root2: Uint8Array,
): boolean {
  try {
    return constantTimeEqual(rootFromConsistencyProof(size1, size2, proof, root1), root2);
  } catch {
    return false;
  }
}

/**
 * Root of the tree of `size` leaves implied by a subtree consistency proof for the subtree
 * `[start, end)` with hash `subtreeRoot` (transparency-dev/merkle `RootFromSubtreeConsistencyProof`).
 * Needs a valid, non-empty subtree with `end <= size`; `start == 0 && end == size` needs an empty
 * proof and returns `subtreeRoot`. Throws `MERKLE_INVALID_ARGUMENT` (including for an empty
 * subtree, which does not determine the root), `MERKLE_INDEX_OUT_OF_RANGE` or `MERKLE_PROOF_INVALID`.
 */
export function rootFromSubtreeConsistencyProof(
  start: number,
  end: number,
  size: number,
  proof: readonly Uint8Array[],
  subtreeRoot: Uint8Array,
): Uint8Array {
  requireSubtree(start, end);
  requireInteger(size, 'size');
  if (end > size) {
    throw new ProofError('MERKLE_INDEX_OUT_OF_RANGE', `Subtree end ${end} is beyond the tree size ${size}.`);
  }
  if (start === end) {
    throw new ProofError('MERKLE_INVALID_ARGUMENT', 'An empty subtree does not determine the tree root.');
  }
  requireProof(proof);
  if (!(subtreeRoot instanceof Uint8Array)) {
    throw new ProofError('MERKLE_INVALID_ARGUMENT', 'The subtree root must be a Uint8Array.');
  }
  if (start === 0 && end === size) {
    if (proof.length > 0) throw proofInvalid('A subtree that is the whole tree needs an empty proof.');
    return subtreeRoot;
  }
  if (proof.length === 0) throw proofInvalid('The subtree consistency proof is empty.');
  return chainSubtreeConsistency(start, end, size, proof, subtreeRoot);
}

/**
 * Verifies that the subtree `[start, end)` with hash `subtreeRoot` is part of the tree of `size`
 * leaves with root `root` (transparency-dev/merkle `VerifySubtreeConsistency`, matching its test
 * vectors): an empty subtree (`start == end <= size`) is consistent with any tree when the proof is
 * empty and `subtreeRoot` is the empty-tree hash. Returns `false`, never throws.
 *
 * @example
 * verifySubtreeConsistencyProof(8, 12, 15, proof, subtreeRoot, root15); // true or false
 */
export function verifySubtreeConsistencyProof(
  start: number,
  end: number,
  size: number,
  proof: readonly Uint8Array[],
  subtreeRoot: Uint8Array,
  root: Uint8Array,
): boolean {
  try {
    if (isValidSubtree(start, end) && start === end && isInteger(size) && end <= size) {
      return Array.isArray(proof) && proof.length === 0 && constantTimeEqual(subtreeRoot, emptyRoot());
    }
    return constantTimeEqual(rootFromSubtreeConsistencyProof(start, end, size, proof, subtreeRoot), root);
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Internals: proof chaining (transparency-dev/merkle proof/verify.go)
// ---------------------------------------------------------------------------------------------

/**
 * Root from an inclusion proof `proof[from:to]` for node `index` of a tree of `size` nodes (at some
 * level). The path splits into `inner` hashes (below the point where the paths to `index` and
 * `size - 1` diverge; left or right siblings by the bits of `index`) and `border` hashes (left
 * siblings only, one per set bit of `index` above `inner`).
 */
function chainInclusion(
  index: number,
  size: number,
  seed: Uint8Array,
  proof: readonly Uint8Array[],
  from: number,
  to: number,
): Uint8Array {
  const inner = bitLength(xor(index, size - 1));
  const border = popCount(shiftRight(index, inner));
  if (to - from !== inner + border) {
    throw proofInvalid(
      `Expected ${inner + border} proof hashes for index ${index} in size ${size}, got ${to - from}.`,
    );
  }
  let hash = seed;
  for (let level = 0; level < inner; level++) {
    const sibling = proof[from + level]!;
    hash = bitAt(index, level) === 0 ? nodeHash(hash, sibling) : nodeHash(sibling, hash);
  }
  for (let i = from + inner; i < to; i++) hash = nodeHash(proof[i]!, hash);
  return hash;
}

/**
 * Subtree consistency core for a valid subtree `[start, end)`, `end <= size`, not the whole tree,
 * and a non-empty, shape-checked proof. Checks that the proof rebuilds `subtreeRoot` and returns the
 * root of the tree of `size` leaves; throws `MERKLE_PROOF_INVALID` otherwise.
 */
function chainSubtreeConsistency(
  start: number,
  end: number,
  size: number,
  proof: readonly Uint8Array[],
  subtreeRoot: Uint8Array,
): Uint8Array {
  requireHash(subtreeRoot, 'subtree root');
  // Height of the subtree's root node: where the paths to `start` and `end - 1` meet.
  const height = bitLength(xor(end - 1, start));
  if (end === size) {
    // The subtree's node is on the right border: only its left siblings are needed.
    return chainInclusion(
      shiftRight(start, height),
      shiftRight(size - 1, height) + 1,
      subtreeRoot,
      proof,
      0,
      proof.length,
    );
  }
  // Where the paths to `end - 1` and `size - 1` diverge; above it only left siblings exist.
  const forkLevel = bitLength(xor(end - 1, size - 1));
  // Height of the rightmost perfect subtree inside [start, end); the proof starts at that level.
  const shift = trailingZeros(end - start);
  const perfect = end - start === 2 ** shift;
  const expected = (perfect ? 0 : 1) + (forkLevel - shift) + popCount(shiftRight(end - 1, forkLevel));
  if (proof.length !== expected) {
    throw proofInvalid(`Expected ${expected} proof hashes for subtree [${start}, ${end}) in size ${size}.`);
  }
  // A perfect subtree's root is its own seed; otherwise the proof begins with that rightmost node.
  let next = perfect ? 0 : 1;
  let subtreeHash = perfect ? subtreeRoot : proof[0]!;
  let grownHash = subtreeHash;
  for (let level = shift; level < height; level++) {
    if (bitAt(end - 1, level) === 1) {
      const left = proof[next++]!; // inside the subtree: part of both hashes
      subtreeHash = nodeHash(left, subtreeHash);
      grownHash = nodeHash(left, grownHash);
    } else if (level < forkLevel) {
      grownHash = nodeHash(grownHash, proof[next++]!); // right of `end`: only in the grown tree
    }
  }
  if (!constantTimeEqual(subtreeHash, subtreeRoot)) {
    throw proofInvalid('The proof does not rebuild the subtree root.');
  }
  return chainInclusion(
    shiftRight(start, height),
    shiftRight(size - 1, height) + 1,
    grownHash,
    proof,
    next,
    proof.length,
  );
}

// ---------------------------------------------------------------------------------------------
// Internals: validation and exact bit arithmetic on safe integers (JS bitwise ops are 32-bit)
// ---------------------------------------------------------------------------------------------

function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

export function requireInteger(value: unknown, name: string): asserts value is number {
  if (!isInteger(value)) {
    throw new ProofError('MERKLE_INVALID_ARGUMENT', `${name} must be a non-negative safe integer.`);
  }
}

export function requireSubtree(start: unknown, end: unknown): void {
  requireInteger(start, 'start');
  requireInteger(end, 'end');
  if (!isValidSubtree(start, end)) {
    throw new ProofError(
      'MERKLE_INVALID_ARGUMENT',
      `[${start}, ${end}) is not a valid subtree: start must be 0 or a multiple of the smallest power of two >= end - start.`,
    );
  }
}

export function requireHash(value: unknown, name: string): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array))
    throw new ProofError('MERKLE_INVALID_ARGUMENT', `The ${name} must be a Uint8Array.`);
  if (value.length !== HASH_LENGTH) {
    throw new ProofError('INVALID_LENGTH', `The ${name} must be ${HASH_LENGTH} bytes, got ${value.length}.`);
  }
}

function requireProof(proof: unknown): asserts proof is readonly Uint8Array[] {
  if (!Array.isArray(proof))
    throw new ProofError('MERKLE_INVALID_ARGUMENT', 'A proof must be an array of hashes.');
  if (proof.length > MAX_PROOF_LENGTH) {
    throw new ProofError(
      'MERKLE_PROOF_TOO_LONG',
      `A proof has at most ${MAX_PROOF_LENGTH} hashes, got ${proof.length}.`,
    );
  }
  for (const hash of proof) requireHash(hash, 'proof hash');
}

function proofInvalid(message: string): ProofError {
  return new ProofError('MERKLE_PROOF_INVALID', message);
}

const TWO_POW_32 = 2 ** 32;

function high32(value: number): number {
  return Math.floor(value / TWO_POW_32);
}

function low32(value: number): number {
  return value % TWO_POW_32;
}

/** Number of bits needed to write `value` (0 for 0), like Go's `bits.Len64`. */
export function bitLength(value: number): number {
  const high = high32(value);
  return high !== 0 ? 64 - Math.clz32(high) : 32 - Math.clz32(low32(value));
}

function popCount32(value: number): number {
  let v = value >>> 0;
  let count = 0;
  while (v !== 0) {
    v &= v - 1;
    count++;
  }
  return count;
}

function popCount(value: number): number {
  return popCount32(high32(value)) + popCount32(low32(value));
}

/** Trailing zero bits of a positive `value`. */
function trailingZeros(value: number): number {
  const low = low32(value) >>> 0;
  if (low !== 0) return 31 - Math.clz32(low & -low);
  const high = high32(value) >>> 0;
  return 32 + 31 - Math.clz32(high & -high);
}

function xor(a: number, b: number): number {
  return ((high32(a) ^ high32(b)) >>> 0) * TWO_POW_32 + ((low32(a) ^ low32(b)) >>> 0);
}

/** `floor(value / 2^bits)`; exact for safe integers. */
function shiftRight(value: number, bits: number): number {
  return Math.floor(value / 2 ** bits);
}

export function bitAt(value: number, bit: number): number {
  return shiftRight(value, bit) % 2;
}

/**
 * The RFC 6962 §2.1 split point `k`: the largest power of two strictly below `n`, for `n >= 2`. The
 * generators' loops only reach smaller ranges on an internal error, which must not loop forever.
 */
export function splitPoint(n: number): number {
  if (n < 2)
    throw new ProofError('MERKLE_INVALID_ARGUMENT', 'Cannot split a range of fewer than two leaves.');
  return 2 ** (bitLength(n - 1) - 1);
}

/** Smallest power of two `>= n` (transparency-dev `bitCeil`). */
function bitCeil(n: number): number {
  return n <= 1 ? 1 : 2 ** bitLength(n - 1);
}
