/**
 * A transparency log held in memory: RFC 6962 leaf hashes plus C2SP checkpoints. It is the reference
 * the engine's Postgres log is tested against, and what tests and fixtures use to issue bundles.
 * Proof generation is O(n) per proof; the engine's log serves proofs from stored subtree hashes.
 */
import { type Checkpoint, signCheckpoint } from './checkpoint.js';
import { ProofError } from './errors.js';
import { hashLeaf } from './merkle.js';
import { consistencyProof, inclusionProof, rootFromLeafHashes } from './merkle-proofs.js';
import type { NoteSigner } from './note.js';

export class MemoryLog {
  readonly origin: string;
  private readonly leafHashes: Uint8Array[] = [];

  constructor(origin: string) {
    this.origin = origin;
  }

  /** Number of entries. */
  get size(): number {
    return this.leafHashes.length;
  }

  /** Appends a leaf input (RFC 6962 §2.1: hashed with the 0x00 prefix) and returns its index. */
  append(leafInput: Uint8Array): number {
    this.leafHashes.push(hashLeaf(leafInput));
    return this.leafHashes.length - 1;
  }

  /** Root of the first `size` entries (RFC 6962 MTH). */
  root(size = this.size): Uint8Array {
    this.checkSize(size);
    return rootFromLeafHashes(this.leafHashes.slice(0, size));
  }

  /** RFC 9162 §2.1.3 inclusion proof of entry `index` in the tree of `size` entries. */
  inclusionProof(index: number, size = this.size): Uint8Array[] {
    this.checkSize(size);
    return inclusionProof(this.leafHashes.slice(0, size), index);
  }

  /** RFC 9162 §2.1.4 consistency proof between sizes. */
  consistencyProof(size1: number, size2 = this.size): Uint8Array[] {
    this.checkSize(size2);
    return consistencyProof(this.leafHashes.slice(0, size2), size1, size2);
  }

  /** The checkpoint at `size`, unsigned. */
  checkpoint(size = this.size, extensions: string[] = []): Checkpoint {
    return { origin: this.origin, size, rootHash: this.root(size), extensions };
  }

  /** The checkpoint at `size`, signed by the log key as a C2SP signed note. */
  signedCheckpoint(signer: NoteSigner, size = this.size): string {
    return signCheckpoint(this.checkpoint(size), signer);
  }

  private checkSize(size: number): void {
    if (!Number.isSafeInteger(size) || size < 0 || size > this.leafHashes.length) {
      throw new ProofError(
        'MERKLE_INDEX_OUT_OF_RANGE',
        `Log size ${size} is outside 0..${this.leafHashes.length}.`,
      );
    }
  }
}
