/**
 * Proof generation from stored complete subtrees (`*FromNodes` in merkle.ts) against the generators
 * over leaf arrays, which the RFC 6962 vectors and the textbook implementation in merkle.test.ts check.
 */
import { describe, expect, it } from 'vitest';
import { codeOf } from '../test/codes.js';
import { toHex, utf8Encode } from './bytes.js';
import { hashChildren, hashLeaf } from './merkle.js';
import {
  consistencyProof,
  consistencyProofFromNodes,
  inclusionProof,
  inclusionProofFromNodes,
  type MerkleNodeLookup,
  rootFromLeafHashes,
  type SubtreeHashMemo,
  subtreeHashFromNodes,
  subtreeInclusionProof,
  subtreeInclusionProofFromNodes,
} from './merkle-proofs.js';

/** Complete-subtree nodes of `n` leaves, level by level, and a lookup recording what it was asked. */
function nodesOf(n: number): { leaves: Uint8Array[]; node: MerkleNodeLookup; asked: string[] } {
  const leaves = Array.from({ length: n }, (_, i) => hashLeaf(utf8Encode(`leaf ${i}`)));
  const levels: Uint8Array[][] = [leaves];
  while (levels[levels.length - 1]!.length > 1) {
    const below = levels[levels.length - 1]!;
    const above: Uint8Array[] = [];
    for (let i = 0; i + 1 < below.length; i += 2) above.push(hashChildren(below[i]!, below[i + 1]!));
    levels.push(above);
  }
  const asked: string[] = [];
  const node: MerkleNodeLookup = (level, index) => {
    asked.push(`${level}/${index}`);
    const hash = levels[level]?.[index];
    if (!hash) throw new Error(`no node ${level}/${index}`);
    return hash;
  };
  return { leaves, node, asked };
}

const hex = (hashes: Uint8Array[]): string[] => hashes.map(toHex);

describe('Merkle proofs from complete subtree nodes', () => {
  it('match the generators over leaf arrays for every size up to 40', () => {
    const { leaves, node } = nodesOf(40);
    for (let size = 0; size <= 40; size++) {
      const prefix = leaves.slice(0, size);
      const memo: SubtreeHashMemo = new Map();
      expect(toHex(subtreeHashFromNodes(node, 0, size, memo))).toBe(toHex(rootFromLeafHashes(prefix)));
      for (let index = 0; index < size; index++) {
        expect(hex(inclusionProofFromNodes(node, index, size, memo))).toEqual(
          hex(inclusionProof(prefix, index)),
        );
        expect(hex(inclusionProofFromNodes(node, index, size))).toEqual(hex(inclusionProof(prefix, index)));
      }
      for (let m = 1; m <= size; m++) {
        expect(hex(consistencyProofFromNodes(node, m, size))).toEqual(hex(consistencyProof(prefix, m, size)));
      }
    }
  });

  it('match subtree inclusion proofs over a valid subtree', () => {
    const { leaves, node } = nodesOf(16);
    for (let index = 8; index < 12; index++) {
      expect(hex(subtreeInclusionProofFromNodes(node, index, 8, 12))).toEqual(
        hex(subtreeInclusionProof(leaves, index, 8, 12)),
      );
    }
  });

  it('read O(log² n) nodes for a proof in a large tree', () => {
    const { node, asked } = nodesOf(1000);
    inclusionProofFromNodes(node, 517, 1000);
    expect(asked.length).toBeLessThanOrEqual(10 * 10);
  });

  it('refuse bad arguments with typed errors and pass lookup errors through', () => {
    const { node } = nodesOf(8);
    expect(codeOf(() => inclusionProofFromNodes(node, 8, 8))).toBe('MERKLE_INDEX_OUT_OF_RANGE');
    expect(codeOf(() => inclusionProofFromNodes(node, -1, 8))).toBe('MERKLE_INVALID_ARGUMENT');
    expect(codeOf(() => consistencyProofFromNodes(node, 0, 8))).toBe('MERKLE_INVALID_ARGUMENT');
    expect(codeOf(() => consistencyProofFromNodes(node, 5, 4))).toBe('MERKLE_INDEX_OUT_OF_RANGE');
    expect(codeOf(() => subtreeHashFromNodes(node, 3, 5))).toBe('MERKLE_INVALID_ARGUMENT');
    expect(codeOf(() => subtreeHashFromNodes(() => new Uint8Array(31), 0, 8))).toBe('INVALID_LENGTH');
    expect(() => inclusionProofFromNodes(node, 3, 9)).toThrow('no node');
  });
});
