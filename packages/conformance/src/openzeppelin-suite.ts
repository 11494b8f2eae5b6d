/**
 * Negative conformance: OpenZeppelin merkle-tree proofs must NOT verify as RFC 6962 proofs.
 *
 * `vectors/openzeppelin-merkle-negative/test/dumps/*.json` are four `StandardMerkleTree` /
 * `SimpleMerkleTree` dumps of OpenZeppelin/merkle-tree 1.0.6 (`format`, `tree`, `values` with
 * `treeIndex`, and for the standard format `leafEncoding`). That tree is keccak-256 with sorted pairs,
 * no leaf/node domain separation, double-hashed ABI-encoded leaves (standard) or raw `bytes32` leaves
 * (simple), laid out as an array heap with the leaves at the end in reverse order.
 *
 * Each leaf value of each dump is one vector. It passes when both hold:
 * 1. under OpenZeppelin's own rule the value's leaf hash is `tree[treeIndex]`, and its `getProof`
 *    path (the siblings up the heap) rebuilds `tree[0]` — so the contrast is meaningful; and
 * 2. `verifyInclusionProof` of `@saksi/proof` rejects that path for the leaf's position
 *    (`index = tree.length - 1 - treeIndex`, `size = (tree.length + 1) / 2`) and `tree[0]` as root,
 *    both with OpenZeppelin's leaf hash and with the RFC 6962 leaf hash of the ABI-encoded leaf.
 *
 * keccak-256 comes from `@noble/hashes/sha3.js`, used here only to build the contrast.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { concatBytes, fromHex, hashLeaf, toHex, utf8Encode, verifyInclusionProof } from '@saksi/proof';
import { type Suite, SuiteRecorder } from './suite.js';

/** The dumps the suite expects and how many leaf values each holds. */
export const OPENZEPPELIN_EXPECTED_COUNTS = {
  'simple-v1.sorted.1_0_6.json': 6,
  'simple-v1.unsorted.1_0_6.json': 6,
  'standard-v1.sorted.1_0_6.json': 6,
  'standard-v1.unsorted.1_0_6.json': 6,
} as const;

interface Dump {
  format: string;
  leafEncoding?: string[];
  tree: string[];
  values: Array<{ value: unknown; treeIndex: number }>;
}

/** Checks every leaf of every dump; resolves `undefined` when the vectors folder is absent. */
export const openzeppelinSuite: Suite = async (directory) => {
  const folder = path.join(directory, 'openzeppelin-merkle-negative');
  let source: string;
  try {
    source = (await readFile(path.join(folder, 'SOURCE.txt'), 'utf8')).split('\n')[0]?.trim() ?? '';
  } catch {
    return undefined;
  }
  const recorder = new SuiteRecorder('openzeppelin-merkle-negative', source);
  const dumpsFolder = path.join(folder, 'test', 'dumps');
  const files = (await readdir(dumpsFolder).catch(() => [] as string[]))
    .filter((f) => f.endsWith('.json'))
    .sort();
  for (const expected of Object.keys(OPENZEPPELIN_EXPECTED_COUNTS)) {
    if (!files.includes(expected)) recorder.check(false, `test/dumps/${expected}`, 'dump is missing');
  }
  for (const file of files) {
    const label = `test/dumps/${file}`;
    let dump: Dump;
    try {
      dump = parseDump(JSON.parse(await readFile(path.join(dumpsFolder, file), 'utf8')));
    } catch (error) {
      recorder.check(
        false,
        label,
        `malformed dump: ${error instanceof Error ? error.message : String(error)}`,
      );
      continue;
    }
    const expected = OPENZEPPELIN_EXPECTED_COUNTS[file as keyof typeof OPENZEPPELIN_EXPECTED_COUNTS];
    if (expected !== undefined && dump.values.length !== expected) {
      recorder.check(false, label, `expected ${expected} leaf values, found ${dump.values.length}`);
    }
    dump.values.forEach((entry, i) => {
      let outcome: string | undefined;
      try {
        outcome = checkLeaf(dump, entry.value, entry.treeIndex);
      } catch (error) {
        outcome = `malformed leaf: ${error instanceof Error ? error.message : String(error)}`;
      }
      recorder.check(outcome === undefined, `${label}#values[${i}]`, outcome);
    });
  }
  return recorder.result;
};

function parseDump(value: unknown): Dump {
  const dump = value as Dump;
  if (dump === null || typeof dump !== 'object') throw new Error('not an object');
  if (dump.format !== 'standard-v1' && dump.format !== 'simple-v1')
    throw new Error(`unknown format ${dump.format}`);
  if (!Array.isArray(dump.tree) || dump.tree.length === 0 || dump.tree.length % 2 === 0) {
    throw new Error('tree must be a non-empty array of odd length (2n - 1 nodes)');
  }
  if (!Array.isArray(dump.values)) throw new Error('values must be an array');
  return dump;
}

/** Returns `undefined` when the leaf is OpenZeppelin-valid and RFC 6962-rejected, else the reason. */
function checkLeaf(dump: Dump, value: unknown, treeIndex: number): string | undefined {
  const tree = dump.tree.map(node32);
  const leafCount = (tree.length + 1) / 2;
  if (!Number.isInteger(treeIndex) || treeIndex < leafCount - 1 || treeIndex >= tree.length) {
    return `treeIndex ${treeIndex} is not a leaf position`;
  }
  const encoded = encodeLeaf(dump, value);
  const ozLeaf = dump.format === 'standard-v1' ? keccak_256(keccak_256(encoded)) : encoded;
  if (toHex(ozLeaf) !== toHex(tree[treeIndex]!)) return 'the leaf hash is not the tree node at treeIndex';

  // OpenZeppelin getProof: the sibling of each node on the way up the heap.
  const proof: Uint8Array[] = [];
  for (let i = treeIndex; i > 0; i = Math.floor((i - 1) / 2)) proof.push(tree[i % 2 === 1 ? i + 1 : i - 1]!);
  const root = tree[0]!;
  const ozRoot = proof.reduce(sortedPairHash, ozLeaf);
  if (toHex(ozRoot) !== toHex(root))
    return 'the OpenZeppelin proof does not rebuild tree[0] under its own rule';

  const index = tree.length - 1 - treeIndex;
  if (verifyInclusionProof(index, leafCount, ozLeaf, proof, root)) {
    return 'RFC 6962 accepted an OpenZeppelin proof (OpenZeppelin leaf hash)';
  }
  if (verifyInclusionProof(index, leafCount, hashLeaf(encoded), proof, root)) {
    return 'RFC 6962 accepted an OpenZeppelin proof (RFC 6962 leaf hash)';
  }
  return undefined;
}

/** OpenZeppelin `standardNodeHash`: keccak-256 of the two children in ascending byte order. */
function sortedPairHash(a: Uint8Array, b: Uint8Array): Uint8Array {
  return keccak_256(compareBytes(a, b) <= 0 ? concatBytes(a, b) : concatBytes(b, a));
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! - b[i]!;
  }
  return a.length - b.length;
}

function node32(text: string): Uint8Array {
  if (typeof text !== 'string' || !text.startsWith('0x'))
    throw new Error('tree nodes must be 0x-prefixed hex');
  return fromHex(text.slice(2), 32);
}

/**
 * The leaf's ABI encoding (Solidity ABI spec, `abi.encode`): `bytes32` for the simple format; for the
 * standard format the tuple of `leafEncoding` types, of which `string` and `bytes32` are supported.
 */
function encodeLeaf(dump: Dump, value: unknown): Uint8Array {
  if (dump.format === 'simple-v1') return node32(value as string);
  const types = dump.leafEncoding;
  if (!Array.isArray(types) || !Array.isArray(value) || value.length !== types.length) {
    throw new Error('the value does not match leafEncoding');
  }
  const heads: Uint8Array[] = [];
  const tails: Uint8Array[] = [];
  let tailOffset = 32 * types.length;
  types.forEach((type, i) => {
    const item = value[i];
    if (type === 'bytes32') {
      heads.push(node32(item as string));
    } else if (type === 'string' && typeof item === 'string') {
      const data = utf8Encode(item);
      const padded = new Uint8Array(Math.ceil(data.length / 32) * 32);
      padded.set(data);
      const tail = concatBytes(uint256(data.length), padded);
      heads.push(uint256(tailOffset));
      tails.push(tail);
      tailOffset += tail.length;
    } else {
      throw new Error(`unsupported leaf encoding ${String(type)}`);
    }
  });
  return concatBytes(...heads, ...tails);
}

function uint256(value: number): Uint8Array {
  const out = new Uint8Array(32);
  let rest = value;
  for (let i = 31; i >= 0 && rest > 0; i--) {
    out[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  return out;
}
