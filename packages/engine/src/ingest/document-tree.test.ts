import { hashLeaf, toHex, utf8Encode } from '@saksi/proof';
import { inclusionProof, rootFromLeafHashes } from '@saksi/proof/issue';
import { describe, expect, it } from 'vitest';
import { buildDocumentTree } from './document-tree.js';

describe('document tree built bottom-up', () => {
  it('gives the RFC 6962 root and the same proofs as the proof package for every size up to 130', () => {
    const leaves = Array.from({ length: 130 }, (_, i) => hashLeaf(utf8Encode(`chunk ${i}`)));
    for (let size = 1; size <= 130; size++) {
      const prefix = leaves.slice(0, size);
      const tree = buildDocumentTree(prefix);
      expect(toHex(tree.root)).toBe(toHex(rootFromLeafHashes(prefix)));
      for (let index = 0; index < size; index += size > 40 ? 7 : 1) {
        expect(tree.proof(index).map(toHex)).toEqual(inclusionProof(prefix, index).map(toHex));
      }
    }
  });

  it('handles the empty tree and refuses indices outside it', () => {
    expect(toHex(buildDocumentTree([]).root)).toBe(toHex(rootFromLeafHashes([])));
    expect(() => buildDocumentTree([hashLeaf(new Uint8Array(1))]).proof(1)).toThrow(RangeError);
  });
});
