/**
 * A document's RFC 6962 tree built once, bottom-up, so every chunk's inclusion proof costs O(log n)
 * instead of O(n) (the proof package's `inclusionProof` recomputes subtrees per call). Pairing nodes
 * level by level and carrying an odd last node up unhashed gives exactly RFC 6962's tree (split at
 * the largest power of two), so the paths are the RFC 9162 §2.1.3.1 PATHs.
 */
import { hashChildren } from '@saksi/proof';
import { rootFromLeafHashes } from '@saksi/proof/issue';

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
    for (let i = 0; i < below.length; i += 2) {
      above.push(i + 1 < below.length ? hashChildren(below[i]!, below[i + 1]!) : below[i]!);
    }
    levels.push(above);
  }
  const root = leafHashes.length === 0 ? rootFromLeafHashes([]) : levels[levels.length - 1]![0]!;
  return {
    root,
    proof(index: number): Uint8Array[] {
      if (!Number.isSafeInteger(index) || index < 0 || index >= leafHashes.length) {
        throw new RangeError(`leaf index ${index} is outside 0..${leafHashes.length - 1}`);
      }
      const path: Uint8Array[] = [];
      let position = index;
      for (let level = 0; level < levels.length - 1; level++) {
        const nodes = levels[level]!;
        const sibling = position ^ 1;
        if (sibling < nodes.length) path.push(nodes[sibling]!);
        position >>= 1;
      }
      return path;
    },
  };
}
