import { hashLeaf, toHex, utf8Encode } from '@saksi/proof';
import { consistencyProof, inclusionProof, rootFromLeafHashes } from '@saksi/proof/issue';
import { describe, expect, it } from 'vitest';
import { consistencyPath, inclusionPath, type NodeLookup, nodesCreatedByAppend, rootAt } from './tree.js';

function build(n: number): { leaves: Uint8Array[]; node: NodeLookup } {
  const nodes = new Map<string, Uint8Array>();
  const leaves: Uint8Array[] = [];
  const node: NodeLookup = (level, index) => {
    const hash = nodes.get(`${level}/${index}`);
    if (!hash) throw new Error(`missing node ${level}/${index}`);
    return hash;
  };
  for (let i = 0; i < n; i++) {
    const leaf = hashLeaf(utf8Encode(`entry ${i}`));
    leaves.push(leaf);
    for (const created of nodesCreatedByAppend(node, i, leaf))
      nodes.set(`${created.level}/${created.index}`, created.hash);
  }
  return { leaves, node };
}

describe('log tree from stored complete subtrees', () => {
  it('matches the proof package for every size up to 70 (roots, inclusion and consistency proofs)', () => {
    const { leaves, node } = build(70);
    for (let size = 1; size <= 70; size++) {
      const prefix = leaves.slice(0, size);
      expect(toHex(rootAt(node, size))).toBe(toHex(rootFromLeafHashes(prefix)));
      for (let index = 0; index < size; index += 3) {
        expect(inclusionPath(node, index, 0, size).map(toHex)).toEqual(
          inclusionProof(prefix, index).map(toHex),
        );
      }
      for (let m = 1; m <= size; m += 2) {
        expect(consistencyPath(node, m, size).map(toHex)).toEqual(
          consistencyProof(prefix, m, size).map(toHex),
        );
      }
    }
  });
});
