import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../test/codes.js';
import { fromBase64, fromHex, toHex, utf8Encode } from './bytes.js';
import {
  emptyRoot,
  HASH_LENGTH,
  hashChildren,
  hashLeaf,
  isValidSubtree,
  MAX_PROOF_LENGTH,
  RFC6962_LEAF_PREFIX,
  RFC6962_NODE_PREFIX,
  rootFromConsistencyProof,
  rootFromInclusionProof,
  rootFromSubtreeConsistencyProof,
  verifyConsistencyProof,
  verifyInclusionProof,
  verifySubtreeConsistencyProof,
  verifySubtreeInclusionProof,
} from './merkle.js';
import {
  consistencyProof,
  inclusionProof,
  merkleTreeHash,
  rootFromLeafHashes,
  subtreeConsistencyProof,
  subtreeInclusionProof,
} from './merkle-proofs.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const vectorsDir = process.env['SAKSI_VECTORS_DIR'] ?? path.resolve(repoRoot, '../shared/data/vectors');
const rfc6962Dir = path.join(vectorsDir, 'rfc6962');

// ---------------------------------------------------------------------------------------------
// A naive textbook implementation, straight from RFC 6962 §2.1 / RFC 9162 §2.1.3.1, §2.1.4.1,
// with array slices and recursion. Hashing goes to @noble/hashes directly.
// ---------------------------------------------------------------------------------------------

function naiveLeafHash(input: Uint8Array): Uint8Array {
  return nobleSha256(Uint8Array.of(0x00, ...input));
}

function naiveNodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return nobleSha256(Uint8Array.of(0x01, ...left, ...right));
}

/** k: the largest power of two smaller than n (n > 1). */
function naiveSplit(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** Positions of the shared leaf list, so `naiveMth` can cache MTH(D[a:b]) across prefixes. */
const position = new Map<Uint8Array, number>();
const mthCache = new Map<string, Uint8Array>();

/** MTH(D[n]) over leaf hashes (RFC 6962 §2.1). Cached only for slices of the shared leaf list. */
function naiveMth(d: readonly Uint8Array[]): Uint8Array {
  const n = d.length;
  if (n === 0) return nobleSha256(new Uint8Array());
  if (n === 1) return d[0]!;
  const first = position.get(d[0]!);
  const key = first === undefined ? undefined : `${first}:${n}`;
  const cached = key === undefined ? undefined : mthCache.get(key);
  if (cached) return cached;
  const k = naiveSplit(n);
  const hash = naiveNodeHash(naiveMth(d.slice(0, k)), naiveMth(d.slice(k)));
  if (key !== undefined) mthCache.set(key, hash);
  return hash;
}

/** PATH(m, D[n]) (RFC 9162 §2.1.3.1). */
function naivePath(m: number, d: readonly Uint8Array[]): Uint8Array[] {
  const n = d.length;
  if (n === 1) return [];
  const k = naiveSplit(n);
  return m < k
    ? [...naivePath(m, d.slice(0, k)), naiveMth(d.slice(k))]
    : [...naivePath(m - k, d.slice(k)), naiveMth(d.slice(0, k))];
}

/** PROOF(m, D[n]) = SUBPROOF(m, D[n], true) (RFC 9162 §2.1.4.1). */
function naiveProof(m: number, d: readonly Uint8Array[]): Uint8Array[] {
  const subproof = (m: number, d: readonly Uint8Array[], b: boolean): Uint8Array[] => {
    const n = d.length;
    if (m === n) return b ? [] : [naiveMth(d)];
    const k = naiveSplit(n);
    return m <= k
      ? [...subproof(m, d.slice(0, k), b), naiveMth(d.slice(k))]
      : [...subproof(m - k, d.slice(k), false), naiveMth(d.slice(0, k))];
  };
  return subproof(m, d, true);
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** Deterministic PRNG (mulberry32) so failures reproduce. */
function random(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * below);
  };
}

const hex = (list: readonly Uint8Array[]): string[] => list.map(toHex);

function flipBit(bytes: Uint8Array, bit: number): Uint8Array {
  const copy = bytes.slice();
  copy[bit >> 3]! ^= 1 << (bit & 7);
  return copy;
}

const N = 2000;
const leafInputs = Array.from({ length: N }, (_, i) => utf8Encode(`leaf ${i}`));
const leafHashes = leafInputs.map(hashLeaf);
leafHashes.forEach((hash, i) => {
  position.set(hash, i);
});

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(rfc6962Dir, file), 'utf8')) as Record<string, unknown>;
}

const decodeProof = (value: unknown): Uint8Array[] =>
  ((value ?? []) as string[]).map((b64) => fromBase64(b64));

// ---------------------------------------------------------------------------------------------

describe('RFC 6962 §2.1 hashing', () => {
  it('uses the RFC constants', () => {
    expect(RFC6962_LEAF_PREFIX).toBe(0x00);
    expect(RFC6962_NODE_PREFIX).toBe(0x01);
    expect(HASH_LENGTH).toBe(32);
    expect(MAX_PROOF_LENGTH).toBe(64);
  });

  it('hashes leaves, nodes and the empty tree with domain separation', () => {
    expect(toHex(emptyRoot())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(toHex(merkleTreeHash([]))).toBe(toHex(emptyRoot()));
    expect(toHex(rootFromLeafHashes([]))).toBe(toHex(emptyRoot()));
    const a = utf8Encode('a');
    const b = utf8Encode('b');
    expect(toHex(hashLeaf(a))).toBe(toHex(naiveLeafHash(a)));
    expect(toHex(hashLeaf(a))).not.toBe(toHex(nobleSha256(a)));
    expect(toHex(hashChildren(hashLeaf(a), hashLeaf(b)))).toBe(
      toHex(naiveNodeHash(naiveLeafHash(a), naiveLeafHash(b))),
    );
    expect(toHex(merkleTreeHash([a, b]))).toBe(toHex(hashChildren(hashLeaf(a), hashLeaf(b))));
    expect(toHex(merkleTreeHash([a]))).toBe(toHex(hashLeaf(a)));
  });

  it('hands out fresh copies that never alias the input', () => {
    const empty = emptyRoot();
    empty[0] = 0;
    expect(emptyRoot()[0]).toBe(0xe3);
    const single = [leafHashes[0]!];
    const root = rootFromLeafHashes(single);
    root[0]! ^= 1;
    expect(toHex(single[0]!)).toBe(toHex(naiveLeafHash(leafInputs[0]!)));
    const proof = inclusionProof(leafHashes.slice(0, 2), 0);
    proof[0]![0]! ^= 1;
    expect(toHex(leafHashes[1]!)).toBe(toHex(naiveLeafHash(leafInputs[1]!)));
  });

  it('rejects malformed hashing input with typed errors', () => {
    expect(codeOf(() => hashLeaf('abc' as never))).toBe('MERKLE_INVALID_ARGUMENT');
    expect(codeOf(() => hashChildren(new Uint8Array(31), new Uint8Array(32)))).toBe('INVALID_LENGTH');
    expect(codeOf(() => hashChildren(new Uint8Array(32), [1, 2] as never))).toBe('MERKLE_INVALID_ARGUMENT');
    expect(codeOf(() => merkleTreeHash('ab' as never))).toBe('MERKLE_INVALID_ARGUMENT');
    expect(codeOf(() => merkleTreeHash([new Uint8Array(1), 'x' as never]))).toBe('MERKLE_INVALID_ARGUMENT');
    expect(codeOf(() => rootFromLeafHashes([new Uint8Array(32), new Uint8Array(31)]))).toBe('INVALID_LENGTH');
    expect(codeOf(() => rootFromLeafHashes(null as never))).toBe('MERKLE_INVALID_ARGUMENT');
  });
});

describe('the 8-leaf reference tree (transparency-dev testonly/constants.go)', () => {
  const reference = JSON.parse(
    readFileSync(path.join(rfc6962Dir, 'reference-tree-8-leaves.json'), 'utf8'),
  ) as {
    leafInputsHex: string[];
    nodeHashesByLevelHex: string[][];
    rootHashesBySizeHex: string[];
  };
  const inputs = reference.leafInputsHex.map((h) => fromHex(h));
  const hashes = inputs.map(hashLeaf);

  it('reproduces all 9 roots and all 15 node hashes', () => {
    expect(reference.rootHashesBySizeHex).toHaveLength(9);
    reference.rootHashesBySizeHex.forEach((expected, size) => {
      expect(toHex(merkleTreeHash(inputs.slice(0, size)))).toBe(expected);
      expect(toHex(rootFromLeafHashes(hashes.slice(0, size)))).toBe(expected);
    });
    expect(hex(hashes)).toEqual(reference.nodeHashesByLevelHex[0]);
    for (let level = 1; level < 4; level++) {
      const below = reference.nodeHashesByLevelHex[level - 1]!.map((h) => fromHex(h));
      const expected = reference.nodeHashesByLevelHex[level]!;
      expect(expected).toHaveLength(8 >> level);
      expected.forEach((node, i) => {
        expect(toHex(hashChildren(below[2 * i]!, below[2 * i + 1]!))).toBe(node);
        const width = 2 ** level;
        expect(toHex(rootFromLeafHashes(hashes.slice(i * width, (i + 1) * width)))).toBe(node);
      });
    }
  });

  it("generates exactly transparency-dev's happy-path proofs", () => {
    for (let i = 0; i <= 4; i++) {
      const inc = readJson(`testdata/inclusion/${i}/happy-path.json`);
      const incProof = inclusionProof(hashes.slice(0, inc['treeSize'] as number), inc['leafIdx'] as number);
      expect(hex(incProof)).toEqual(hex(decodeProof(inc['proof'])));

      const con = readJson(`testdata/consistency/${i}/happy-path.json`);
      const conProof = consistencyProof(hashes, con['size1'] as number, con['size2'] as number);
      expect(hex(conProof)).toEqual(hex(decodeProof(con['proof'])));

      const sub = readJson(`testdata/subtreeconsistency/${i}/happy-path.json`);
      const subProof = subtreeConsistencyProof(
        hashes,
        sub['start'] as number,
        sub['end'] as number,
        sub['size'] as number,
      );
      expect(hex(subProof)).toEqual(hex(decodeProof(sub['proof'])));

      // The shifted probe puts the same tree at [start, end); pad the leaves before it.
      const shifted = readJson(`testdata/subtreeinclusion/${i}/happy-path-subtree.json`);
      const start = shifted['start'] as number;
      const end = shifted['end'] as number;
      const padded = [...leafHashes.slice(0, start), ...hashes.slice(0, end - start)];
      const shiftedProof = subtreeInclusionProof(padded, shifted['leafIdx'] as number, start, end);
      expect(hex(shiftedProof)).toEqual(hex(decodeProof(shifted['proof'])));
    }
  });

  it('agrees with the naive PATH and PROOF for every index and size pair', () => {
    for (let size = 1; size <= 8; size++) {
      const tree = hashes.slice(0, size);
      const root = rootFromLeafHashes(tree);
      for (let index = 0; index < size; index++) {
        const proof = inclusionProof(tree, index);
        expect(hex(proof)).toEqual(hex(naivePath(index, tree)));
        expect(verifyInclusionProof(index, size, tree[index]!, proof, root)).toBe(true);
      }
      for (let size1 = 1; size1 <= size; size1++) {
        const proof = consistencyProof(tree, size1);
        expect(hex(proof)).toEqual(hex(naiveProof(size1, tree)));
        expect(
          verifyConsistencyProof(size1, size, proof, rootFromLeafHashes(tree.slice(0, size1)), root),
        ).toBe(true);
      }
    }
  });
});

describe('every tree size from 0 to 2,000 against the naive RFC definitions', () => {
  it('leaf hashes and merkleTreeHash match the textbook hashing', () => {
    expect(hex(leafHashes)).toEqual(hex(leafInputs.map(naiveLeafHash)));
    for (let n = 0; n <= 64; n++) {
      expect(toHex(merkleTreeHash(leafInputs.slice(0, n)))).toBe(toHex(naiveMth(leafHashes.slice(0, n))));
    }
  });

  it('rootFromLeafHashes equals MTH for every n', () => {
    const mismatches: number[] = [];
    for (let n = 0; n <= N; n++) {
      const prefix = leafHashes.slice(0, n);
      if (toHex(rootFromLeafHashes(prefix)) !== toHex(naiveMth(prefix))) mismatches.push(n);
    }
    expect(mismatches).toEqual([]);
  });

  // Generating a proof costs O(n) SHA-256 calls (~2 µs each), so every n up to 400 gets three random
  // indices and three random old sizes, and the larger trees one of each, at every fourth n.
  const sampledSizes = (next: (below: number) => number): Array<{ n: number; picks: number }> => {
    const sizes: Array<{ n: number; picks: number }> = [];
    for (let n = 1; n <= 400; n++) sizes.push({ n, picks: 3 });
    for (let n = 401 + next(4); n <= N; n += 4) sizes.push({ n, picks: 1 });
    sizes.push({ n: N, picks: 1 });
    return sizes;
  };

  it('inclusion proofs equal the naive PATH and verify', () => {
    const next = random(6962);
    const failures: string[] = [];
    for (const { n, picks } of sampledSizes(next)) {
      const tree = leafHashes.slice(0, n);
      const root = naiveMth(tree);
      for (let pick = 0; pick < picks; pick++) {
        const index = pick === 0 ? n - 1 : next(n);
        const proof = inclusionProof(tree, index);
        if (hex(proof).join() !== hex(naivePath(index, tree)).join()) failures.push(`PATH(${index}, ${n})`);
        if (!verifyInclusionProof(index, n, tree[index]!, proof, root))
          failures.push(`verify(${index}, ${n})`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('consistency proofs equal the naive PROOF and verify', () => {
    const next = random(9162);
    const failures: string[] = [];
    for (const { n, picks } of sampledSizes(next)) {
      const tree = leafHashes.slice(0, n);
      const root2 = naiveMth(tree);
      for (let pick = 0; pick < picks; pick++) {
        const size1 = 1 + next(n);
        const proof = consistencyProof(tree, size1);
        const root1 = naiveMth(tree.slice(0, size1));
        if (hex(proof).join() !== hex(naiveProof(size1, tree)).join()) failures.push(`PROOF(${size1}, ${n})`);
        if (!verifyConsistencyProof(size1, n, proof, root1, root2)) failures.push(`verify(${size1}, ${n})`);
        if (n <= 64 && hex(consistencyProof(leafHashes, size1, n)).join() !== hex(proof).join()) {
          failures.push(`size2 ${n}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('a single flipped bit anywhere is rejected', () => {
  it('in an inclusion proof hash, the root or the leaf hash', () => {
    for (const [n, index] of [
      [8, 5],
      [13, 0],
      [13, 12],
      [1000, 617],
    ] as const) {
      const tree = leafHashes.slice(0, n);
      const root = rootFromLeafHashes(tree);
      const leaf = tree[index]!;
      const proof = inclusionProof(tree, index);
      expect(verifyInclusionProof(index, n, leaf, proof, root)).toBe(true);
      const accepted: string[] = [];
      for (let bit = 0; bit < 256; bit++) {
        if (verifyInclusionProof(index, n, leaf, proof, flipBit(root, bit))) accepted.push(`root bit ${bit}`);
        if (verifyInclusionProof(index, n, flipBit(leaf, bit), proof, root)) accepted.push(`leaf bit ${bit}`);
        proof.forEach((element, i) => {
          const changed = proof.map((e, j) => (j === i ? flipBit(element, bit) : e));
          if (verifyInclusionProof(index, n, leaf, changed, root)) accepted.push(`proof[${i}] bit ${bit}`);
        });
      }
      expect(accepted).toEqual([]);
    }
  });

  it('in a consistency proof hash or either root', () => {
    for (const [size1, n] of [
      [3, 7],
      [6, 8],
      [4, 13],
      [999, 1000],
    ] as const) {
      const tree = leafHashes.slice(0, n);
      const root1 = rootFromLeafHashes(tree.slice(0, size1));
      const root2 = rootFromLeafHashes(tree);
      const proof = consistencyProof(tree, size1);
      expect(verifyConsistencyProof(size1, n, proof, root1, root2)).toBe(true);
      const accepted: string[] = [];
      for (let bit = 0; bit < 256; bit++) {
        if (verifyConsistencyProof(size1, n, proof, flipBit(root1, bit), root2))
          accepted.push(`root1 bit ${bit}`);
        if (verifyConsistencyProof(size1, n, proof, root1, flipBit(root2, bit)))
          accepted.push(`root2 bit ${bit}`);
        proof.forEach((element, i) => {
          const changed = proof.map((e, j) => (j === i ? flipBit(element, bit) : e));
          if (verifyConsistencyProof(size1, n, changed, root1, root2))
            accepted.push(`proof[${i}] bit ${bit}`);
        });
      }
      expect(accepted).toEqual([]);
    }
  });

  it('in a subtree consistency proof hash or either root', () => {
    const [start, end, size] = [8, 11, 21];
    const tree = leafHashes.slice(0, size);
    const subtreeRoot = rootFromLeafHashes(tree.slice(start, end));
    const root = rootFromLeafHashes(tree);
    const proof = subtreeConsistencyProof(tree, start, end);
    expect(verifySubtreeConsistencyProof(start, end, size, proof, subtreeRoot, root)).toBe(true);
    const accepted: string[] = [];
    for (let bit = 0; bit < 256; bit++) {
      if (verifySubtreeConsistencyProof(start, end, size, proof, flipBit(subtreeRoot, bit), root))
        accepted.push(`sub ${bit}`);
      if (verifySubtreeConsistencyProof(start, end, size, proof, subtreeRoot, flipBit(root, bit)))
        accepted.push(`root ${bit}`);
      proof.forEach((element, i) => {
        const changed = proof.map((e, j) => (j === i ? flipBit(element, bit) : e));
        if (verifySubtreeConsistencyProof(start, end, size, changed, subtreeRoot, root))
          accepted.push(`[${i}] ${bit}`);
      });
    }
    expect(accepted).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Huge trees: the iterative verification algorithms of RFC 9162 §2.1.3.2 and §2.1.4.2, in BigInt,
// as an independent reference for the bit arithmetic on sizes up to 2^53 - 1.
// ---------------------------------------------------------------------------------------------

/** RFC 9162 §2.1.3.2 steps 2–5; `undefined` where the algorithm fails. */
function rfcInclusionRoot(
  index: bigint,
  size: bigint,
  hash: Uint8Array,
  path: Uint8Array[],
): Uint8Array | undefined {
  if (index >= size) return undefined;
  let fn = index;
  let sn = size - 1n;
  let r = hash;
  for (const p of path) {
    if (sn === 0n) return undefined;
    if ((fn & 1n) === 1n || fn === sn) {
      r = naiveNodeHash(p, r);
      if ((fn & 1n) === 0n) {
        while ((fn & 1n) === 0n && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      }
    } else {
      r = naiveNodeHash(r, p);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n ? r : undefined;
}

/** RFC 9162 §2.1.4.2 for 0 < first < second: `[firstHash, secondHash]`, or `undefined` on failure. */
function rfcConsistencyRoots(
  first: bigint,
  second: bigint,
  path: Uint8Array[],
  seed: Uint8Array,
): [Uint8Array, Uint8Array] | undefined {
  if (path.length === 0) return undefined;
  const powerOfTwo = (first & (first - 1n)) === 0n;
  const items = powerOfTwo ? [seed, ...path] : path;
  let fn = first - 1n;
  let sn = second - 1n;
  while ((fn & 1n) === 1n) {
    fn >>= 1n;
    sn >>= 1n;
  }
  let fr = items[0]!;
  let sr = items[0]!;
  for (const c of items.slice(1)) {
    if (sn === 0n) return undefined;
    if ((fn & 1n) === 1n || fn === sn) {
      fr = naiveNodeHash(c, fr);
      sr = naiveNodeHash(c, sr);
      if ((fn & 1n) === 0n) {
        while ((fn & 1n) === 0n && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      }
    } else {
      sr = naiveNodeHash(sr, c);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n ? [fr, sr] : undefined;
}

const hashArbitrary = fc.uint8Array({ minLength: 32, maxLength: 32 });
const bigSize = fc.oneof(
  fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  fc.integer({ min: 0, max: 52 }).map((e) => 2 ** e),
  fc.integer({ min: 1, max: 53 }).map((e) => 2 ** e - 1),
  fc.integer({ min: 1, max: 52 }).map((e) => 2 ** e + 1),
);

describe('sizes up to 2^53 - 1 against the RFC 9162 verification algorithms', () => {
  it('inclusion: accepts exactly the proofs RFC 9162 §2.1.3.2 accepts, with the same root', () => {
    fc.assert(
      fc.property(
        bigSize,
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: -1, max: 1 }),
        hashArbitrary,
        fc.array(hashArbitrary, { minLength: 55, maxLength: 55 }),
        (size, fraction, delta, leaf, pool) => {
          const index = Math.min(size - 1, Math.floor(fraction * size));
          // Find the length RFC 9162 accepts, then try it and its neighbours.
          let length = 0;
          while (rfcInclusionRoot(BigInt(index), BigInt(size), leaf, pool.slice(0, length)) === undefined)
            length++;
          const proof = pool.slice(0, Math.max(0, length + delta));
          const expected = rfcInclusionRoot(BigInt(index), BigInt(size), leaf, proof);
          if (expected === undefined) {
            expect(codeOf(() => rootFromInclusionProof(index, size, leaf, proof))).toBe(
              'MERKLE_PROOF_INVALID',
            );
            expect(verifyInclusionProof(index, size, leaf, proof, leaf)).toBe(false);
          } else {
            expect(toHex(rootFromInclusionProof(index, size, leaf, proof))).toBe(toHex(expected));
            expect(verifyInclusionProof(index, size, leaf, proof, expected)).toBe(true);
          }
        },
      ),
      { numRuns: 200, seed: 62 },
    );
  });

  it('consistency: accepts exactly the proofs RFC 9162 §2.1.4.2 accepts', () => {
    fc.assert(
      fc.property(
        bigSize,
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: -1, max: 1 }),
        hashArbitrary,
        fc.array(hashArbitrary, { minLength: 60, maxLength: 60 }),
        (second, fraction, delta, seed, pool) => {
          fc.pre(second >= 2);
          const first = Math.max(1, Math.min(second - 1, Math.floor(fraction * second)));
          let length = 1;
          while (
            rfcConsistencyRoots(BigInt(first), BigInt(second), pool.slice(0, length), seed) === undefined
          )
            length++;
          const proof = pool.slice(0, Math.max(0, length + delta));
          const roots = rfcConsistencyRoots(BigInt(first), BigInt(second), proof, seed);
          if (roots === undefined) {
            expect(verifyConsistencyProof(first, second, proof, seed, seed)).toBe(false);
          } else {
            expect(verifyConsistencyProof(first, second, proof, roots[0], roots[1])).toBe(true);
            expect(toHex(rootFromConsistencyProof(first, second, proof, roots[0]))).toBe(toHex(roots[1]));
            expect(verifyConsistencyProof(first, second, proof, roots[1], roots[1])).toBe(false);
          }
        },
      ),
      { numRuns: 200, seed: 9162 },
    );
  });
});

describe('subtree proofs (transparency-dev SubtreeInclusion / SubtreeConsistency)', () => {
  it('knows which ranges are subtrees', () => {
    expect(isValidSubtree(0, 7)).toBe(true);
    expect(isValidSubtree(8, 11)).toBe(true);
    expect(isValidSubtree(8, 16)).toBe(true);
    expect(isValidSubtree(3, 3)).toBe(true);
    expect(isValidSubtree(4, 6)).toBe(true);
    expect(isValidSubtree(1, 3)).toBe(false);
    expect(isValidSubtree(2, 5)).toBe(false);
    expect(isValidSubtree(8, 17)).toBe(false);
    expect(isValidSubtree(5, 4)).toBe(false);
    expect(isValidSubtree(-1, 2)).toBe(false);
    expect(isValidSubtree(2 ** 52, Number.MAX_SAFE_INTEGER)).toBe(true);
    expect(isValidSubtree(3 * 2 ** 50, 3 * 2 ** 50 + 2 ** 50)).toBe(true);
    expect(isValidSubtree(3 * 2 ** 50, 3 * 2 ** 50 + 2 ** 50 + 1)).toBe(false);
  });

  it('round-trips every valid subtree of every tree up to 24 leaves, and rejects tampering', () => {
    const failures: string[] = [];
    for (let size = 1; size <= 24; size++) {
      const tree = leafHashes.slice(0, size);
      const root = rootFromLeafHashes(tree);
      for (let start = 0; start < size; start++) {
        for (let end = start + 1; end <= size; end++) {
          if (!isValidSubtree(start, end)) continue;
          const slice = tree.slice(start, end);
          const subtreeRoot = rootFromLeafHashes(slice);
          const label = `[${start}, ${end}) of ${size}`;
          const proof = subtreeConsistencyProof(tree, start, end);
          if (!verifySubtreeConsistencyProof(start, end, size, proof, subtreeRoot, root))
            failures.push(label);
          if (start === 0 && hex(proof).join() !== hex(consistencyProof(tree, end)).join())
            failures.push(`${label} ≠ RFC`);
          if (proof.length > 0) {
            if (verifySubtreeConsistencyProof(start, end, size, proof.slice(1), subtreeRoot, root))
              failures.push(`${label} short`);
            if (verifySubtreeConsistencyProof(start, end, size, [...proof, root], subtreeRoot, root))
              failures.push(`${label} long`);
            const other = rootFromLeafHashes(leafHashes.slice(start + 1, end + 1));
            if (verifySubtreeConsistencyProof(start, end, size, proof, other, root))
              failures.push(`${label} sub`);
          }
          for (let index = start; index < end; index++) {
            const inclusion = subtreeInclusionProof(tree, index, start, end);
            if (hex(inclusion).join() !== hex(naivePath(index - start, slice)).join())
              failures.push(`${label} PATH`);
            if (!verifySubtreeInclusionProof(index, start, end, tree[index]!, inclusion, subtreeRoot)) {
              failures.push(`${label} inclusion ${index}`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('handles empty subtrees and the whole tree as transparency-dev does', () => {
    const tree = leafHashes.slice(0, 5);
    const root = rootFromLeafHashes(tree);
    expect(subtreeConsistencyProof(tree, 4, 4)).toEqual([]);
    expect(subtreeConsistencyProof(tree, 0, 5)).toEqual([]);
    expect(verifySubtreeConsistencyProof(4, 4, 5, [], emptyRoot(), root)).toBe(true);
    expect(verifySubtreeConsistencyProof(4, 4, 5, [], root, root)).toBe(false);
    expect(verifySubtreeConsistencyProof(4, 4, 5, [root], emptyRoot(), root)).toBe(false);
    expect(verifySubtreeConsistencyProof(6, 6, 5, [], emptyRoot(), root)).toBe(false);
    expect(verifySubtreeConsistencyProof(0, 5, 5, [], root, root)).toBe(true);
    expect(codeOf(() => rootFromSubtreeConsistencyProof(4, 4, 5, [], emptyRoot()))).toBe(
      'MERKLE_INVALID_ARGUMENT',
    );
    expect(
      toHex(rootFromSubtreeConsistencyProof(4, 5, 5, subtreeConsistencyProof(tree, 4, 5), tree[4]!)),
    ).toBe(toHex(root));
  });

  it('rejects invalid subtrees and out-of-range indices', () => {
    const tree = leafHashes.slice(0, 16);
    expect(codeOf(() => subtreeConsistencyProof(tree, 1, 3))).toBe('MERKLE_INVALID_ARGUMENT');
    expect(codeOf(() => subtreeConsistencyProof(tree, 8, 12, 11))).toBe('MERKLE_INDEX_OUT_OF_RANGE');
    expect(codeOf(() => subtreeConsistencyProof(tree, 8, 12, 17))).toBe('MERKLE_INDEX_OUT_OF_RANGE');
    expect(codeOf(() => subtreeInclusionProof(tree, 7, 8, 12))).toBe('MERKLE_INDEX_OUT_OF_RANGE');
    expect(codeOf(() => subtreeInclusionProof(tree, 12, 8, 12))).toBe('MERKLE_INDEX_OUT_OF_RANGE');
    expect(codeOf(() => subtreeInclusionProof(tree, 16, 16, 18))).toBe('MERKLE_INDEX_OUT_OF_RANGE');
    expect(codeOf(() => subtreeInclusionProof(tree, 3, 3, 5))).toBe('MERKLE_INVALID_ARGUMENT');
    const proof = subtreeInclusionProof(tree, 9, 8, 12);
    const subtreeRoot = rootFromLeafHashes(tree.slice(8, 12));
    expect(verifySubtreeInclusionProof(9, 8, 12, tree[9]!, proof, subtreeRoot)).toBe(true);
    expect(verifySubtreeInclusionProof(10, 8, 12, tree[9]!, proof, subtreeRoot)).toBe(false);
    expect(verifySubtreeInclusionProof(9, 8, 16, tree[9]!, proof, subtreeRoot)).toBe(false);
    expect(verifySubtreeInclusionProof(9, 8, 12.5, tree[9]!, proof, subtreeRoot)).toBe(false);
    expect(verifySubtreeInclusionProof(12, 8, 12, tree[9]!, proof, subtreeRoot)).toBe(false);
    expect(verifySubtreeConsistencyProof(1, 3, 8, [], subtreeRoot, subtreeRoot)).toBe(false);
    expect(verifySubtreeConsistencyProof(0, 9, 8, [], subtreeRoot, subtreeRoot)).toBe(false);
  });
});

describe('garbage input: false or a typed error, quickly', () => {
  const tree = leafHashes.slice(0, 13);
  const root = rootFromLeafHashes(tree);
  const proof = inclusionProof(tree, 6);
  const leaf = tree[6]!;

  it('rejects bad indices and sizes in inclusion verification', () => {
    expect(verifyInclusionProof(6, 13, leaf, proof, root)).toBe(true);
    for (const [index, size] of [
      [13, 13],
      [14, 13],
      [-1, 13],
      [6.5, 13],
      [Number.NaN, 13],
      [6, Number.NaN],
      [6, Number.POSITIVE_INFINITY],
      [6, 2 ** 53],
      [2 ** 53, 2 ** 53 + 2],
      [6, -13],
      ['6', 13],
      [6, 13n],
      [6, null],
    ] as const) {
      expect(verifyInclusionProof(index as never, size as never, leaf, proof, root)).toBe(false);
    }
    expect(codeOf(() => rootFromInclusionProof(13, 13, leaf, proof))).toBe('MERKLE_INDEX_OUT_OF_RANGE');
    expect(codeOf(() => rootFromInclusionProof(0, 0, leaf, []))).toBe('MERKLE_INDEX_OUT_OF_RANGE');
    expect(codeOf(() => rootFromInclusionProof(-1, 13, leaf, proof))).toBe('MERKLE_INVALID_ARGUMENT');
    expect(codeOf(() => rootFromInclusionProof(6, 2 ** 53, leaf, proof))).toBe('MERKLE_INVALID_ARGUMENT');
    expect(codeOf(() => rootFromInclusionProof(6, 13, leaf, proof.slice(1)))).toBe('MERKLE_PROOF_INVALID');
  });

  it('rejects malformed proofs and hashes', () => {
    const long = Array.from({ length: MAX_PROOF_LENGTH + 1 }, () => leaf);
    expect(verifyInclusionProof(6, 13, leaf, long, root)).toBe(false);
    expect(codeOf(() => rootFromInclusionProof(6, 13, leaf, long))).toBe('MERKLE_PROOF_TOO_LONG');
    const huge = new Array<Uint8Array>(1_000_000);
    const started = performance.now();
    expect(verifyInclusionProof(6, 13, leaf, huge, root)).toBe(false);
    expect(verifyConsistencyProof(6, 13, huge, root, root)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
    const short = proof.map((e, i) => (i === 1 ? e.subarray(0, 31) : e));
    expect(verifyInclusionProof(6, 13, leaf, short, root)).toBe(false);
    expect(codeOf(() => rootFromInclusionProof(6, 13, leaf, short))).toBe('INVALID_LENGTH');
    const plain = proof.map((e, i) => (i === 0 ? Array.from(e) : e));
    expect(verifyInclusionProof(6, 13, leaf, plain as never, root)).toBe(false);
    expect(verifyInclusionProof(6, 13, leaf.subarray(1), proof, root)).toBe(false);
    expect(verifyInclusionProof(6, 13, leaf, proof, root.subarray(1))).toBe(false);
    expect(verifyInclusionProof(6, 13, leaf, proof, Array.from(root) as never)).toBe(false);
    expect(verifyInclusionProof(6, 13, leaf, { length: 4 } as never, root)).toBe(false);
    expect(verifyInclusionProof(6, 13, leaf, null as never, root)).toBe(false);
    expect(verifyInclusionProof(6, 13, hex([leaf])[0] as never, proof, root)).toBe(false);
    const hostile = new Proxy(proof, {
      get(target, key, receiver) {
        if (key === '0') throw new Error('boom');
        return Reflect.get(target, key, receiver);
      },
    });
    expect(verifyInclusionProof(6, 13, leaf, hostile, root)).toBe(false);
  });

  it('rejects bad consistency inputs as transparency-dev VerifyConsistency does', () => {
    const root5 = rootFromLeafHashes(tree.slice(0, 5));
    const good = consistencyProof(tree, 5);
    expect(verifyConsistencyProof(5, 13, good, root5, root)).toBe(true);
    expect(verifyConsistencyProof(5, 13, [], root5, root)).toBe(false);
    expect(verifyConsistencyProof(13, 5, good, root, root5)).toBe(false);
    expect(verifyConsistencyProof(0, 13, good, emptyRoot(), root)).toBe(false);
    expect(verifyConsistencyProof(0, 0, [], emptyRoot(), emptyRoot())).toBe(false);
    expect(verifyConsistencyProof(13, 13, [], root, root)).toBe(true);
    expect(verifyConsistencyProof(13, 13, [root], root, root)).toBe(false);
    expect(verifyConsistencyProof(13, 13, [], root, root5)).toBe(false);
    expect(verifyConsistencyProof(5.5, 13, good, root5, root)).toBe(false);
    expect(verifyConsistencyProof(5, 2 ** 53, good, root5, root)).toBe(false);
    expect(verifyConsistencyProof(5, 13, good, root5.subarray(2), root)).toBe(false);
    expect(verifyConsistencyProof(5, 13, [...good, good[0]!.subarray(1)], root5, root)).toBe(false);
    expect(codeOf(() => rootFromConsistencyProof(0, 13, good, root5))).toBe('MERKLE_INVALID_ARGUMENT');
    expect(codeOf(() => rootFromConsistencyProof(13, 5, good, root5))).toBe('MERKLE_INDEX_OUT_OF_RANGE');
    expect(codeOf(() => rootFromConsistencyProof(5, 13, [], root5))).toBe('MERKLE_PROOF_INVALID');
    expect(codeOf(() => rootFromConsistencyProof(5, 13, good, root))).toBe('MERKLE_PROOF_INVALID');
    expect(codeOf(() => rootFromConsistencyProof(5, 13, good.slice(1), root5))).toBe('MERKLE_PROOF_INVALID');
  });

  it('rejects bad generator arguments', () => {
    expect(codeOf(() => inclusionProof(tree, 13))).toBe('MERKLE_INDEX_OUT_OF_RANGE');
    expect(codeOf(() => inclusionProof([], 0))).toBe('MERKLE_INDEX_OUT_OF_RANGE');
    expect(codeOf(() => inclusionProof(tree, -1))).toBe('MERKLE_INVALID_ARGUMENT');
    expect(codeOf(() => inclusionProof(tree, 1.5))).toBe('MERKLE_INVALID_ARGUMENT');
    expect(codeOf(() => inclusionProof(tree, Number.NaN))).toBe('MERKLE_INVALID_ARGUMENT');
    expect(codeOf(() => inclusionProof('abc' as never, 0))).toBe('MERKLE_INVALID_ARGUMENT');
    expect(codeOf(() => inclusionProof([...tree.slice(0, 3), new Uint8Array(31)], 0))).toBe('INVALID_LENGTH');
    expect(codeOf(() => consistencyProof(tree, 0))).toBe('MERKLE_INVALID_ARGUMENT');
    expect(codeOf(() => consistencyProof(tree, 6, 5))).toBe('MERKLE_INDEX_OUT_OF_RANGE');
    expect(codeOf(() => consistencyProof(tree, 6, 14))).toBe('MERKLE_INDEX_OUT_OF_RANGE');
    expect(codeOf(() => consistencyProof(tree, 6, 2 ** 53))).toBe('MERKLE_INVALID_ARGUMENT');
    expect(consistencyProof(tree, 13)).toEqual([]);
  });
});
