import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  type Anchor,
  fromBase64,
  hashLeaf,
  sha256,
  toHex,
  utf8Encode,
  verifyInclusionProof,
} from '@saksi/proof';
import { inclusionProof, rootFromLeafHashes } from '@saksi/proof/issue';
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
  parseEventLogs,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ANVIL_DEFAULT_CHAIN_ID, ANVIL_DEFAULT_PRIVATE_KEY, type AnvilHandle, startAnvil } from './anvil.js';
import { documentRegistryAbi } from './document-registry.generated.js';
import {
  CHAIN_PRESETS,
  createRegistryLookup,
  deployDocumentRegistry,
  explorerAddressUrl,
  explorerTxUrl,
  RegistryError,
  registryChain,
} from './registry.js';

/** transparency-dev/merkle probes (see packages/conformance/src/rfc6962-suite.ts for the format). */
const VECTORS = path.resolve(import.meta.dirname, '../../../shared/data/vectors/rfc6962');

const account = privateKeyToAccount(ANVIL_DEFAULT_PRIVATE_KEY);
let anvil: AnvilHandle;
let publicClient: PublicClient;
let walletClient: WalletClient;
let registry: `0x${string}`;

beforeAll(async () => {
  anvil = await startAnvil();
  const chain = registryChain(anvil.chainId, anvil.rpcUrl);
  publicClient = createPublicClient({
    chain,
    transport: http(anvil.rpcUrl, { batch: true }),
    pollingInterval: 50,
  });
  walletClient = createWalletClient({ account, chain, transport: http(anvil.rpcUrl) });
  const deployed = await deployDocumentRegistry({
    rpcUrl: anvil.rpcUrl,
    privateKey: ANVIL_DEFAULT_PRIVATE_KEY,
    chainId: anvil.chainId,
  });
  registry = deployed.address;
});

afterAll(async () => {
  await anvil?.stop();
});

/** A deterministic 32-byte value. */
function bytes32(label: string): Uint8Array {
  return sha256(utf8Encode(label));
}

function hex(bytes: Uint8Array): Hex {
  return `0x${toHex(bytes)}`;
}

async function anchorRoot(root: Hex, id: string, contract = registry) {
  const hash = await walletClient.writeContract({
    address: contract,
    abi: documentRegistryAbi,
    functionName: 'anchorRoot',
    args: [root, id],
    account,
    chain: walletClient.chain,
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  const block = await publicClient.getBlock({ blockNumber: receipt.blockNumber });
  return { hash, receipt, timestamp: block.timestamp };
}

function verifyRoot(root: Hex, contract = registry) {
  return publicClient.readContract({
    address: contract,
    abi: documentRegistryAbi,
    functionName: 'verifyRoot',
    args: [root],
  });
}

function rootCount() {
  return publicClient.readContract({
    address: registry,
    abi: documentRegistryAbi,
    functionName: 'getRootCount',
  });
}

/** The custom error an `anchorRoot` call reverts with, decoded by viem from the ABI. */
async function anchorRevert(root: Hex) {
  const error = await publicClient
    .simulateContract({
      address: registry,
      abi: documentRegistryAbi,
      functionName: 'anchorRoot',
      args: [root, 'again'],
      account,
    })
    .then(
      () => undefined,
      (caught: unknown) => caught,
    );
  expect(error).toBeInstanceOf(BaseError);
  const reverted = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError);
  expect(reverted).toBeInstanceOf(ContractFunctionRevertedError);
  return (reverted as ContractFunctionRevertedError).data;
}

/** Runs `task` over `items` with at most `limit` in flight, keeping the order of results. */
async function mapConcurrent<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

describe('chain presets', () => {
  test('explorer links exist for the presets and not for a local chain', () => {
    const tx = `0x${'ab'.repeat(32)}`;
    expect(explorerTxUrl(CHAIN_PRESETS['base-sepolia'].chainId, tx)).toBe(
      `https://sepolia.basescan.org/tx/${tx}`,
    );
    expect(explorerTxUrl(8453, tx)).toBe(`https://basescan.org/tx/${tx}`);
    expect(explorerAddressUrl(84532, registry)).toBe(`https://sepolia.basescan.org/address/${registry}`);
    expect(explorerTxUrl(ANVIL_DEFAULT_CHAIN_ID, tx)).toBeNull();
    expect(explorerAddressUrl(ANVIL_DEFAULT_CHAIN_ID, registry)).toBeNull();
  });

  test('registryChain names presets and carries the RPC URL', () => {
    const base = registryChain(8453, 'https://rpc.example');
    expect(base.id).toBe(8453);
    expect(base.name).toBe('Base');
    expect(base.rpcUrls.default.http).toEqual(['https://rpc.example']);
    expect(base.blockExplorers?.default.url).toBe('https://basescan.org');
    expect(registryChain(31337, anvil.rpcUrl).blockExplorers).toBeUndefined();
  });
});

describe('deployDocumentRegistry', () => {
  test('deploys code at the returned address in the returned block', async () => {
    const deployed = await deployDocumentRegistry({
      rpcUrl: anvil.rpcUrl,
      privateKey: ANVIL_DEFAULT_PRIVATE_KEY,
      chainId: anvil.chainId,
    });
    expect(deployed.address).not.toBe(registry);
    const receipt = await publicClient.getTransactionReceipt({ hash: deployed.txHash });
    expect(receipt.contractAddress?.toLowerCase()).toBe(deployed.address.toLowerCase());
    expect(Number(receipt.blockNumber)).toBe(deployed.blockNumber);
    expect(await publicClient.getCode({ address: deployed.address })).toMatch(/^0x[0-9a-f]{100,}$/);
  });

  test('refuses an RPC serving another chain and an invalid key', async () => {
    await expect(
      deployDocumentRegistry({ rpcUrl: anvil.rpcUrl, privateKey: ANVIL_DEFAULT_PRIVATE_KEY, chainId: 84532 }),
    ).rejects.toMatchObject({ name: 'RegistryError', code: 'REGISTRY_CHAIN_MISMATCH' });
    const error = await deployDocumentRegistry({
      rpcUrl: anvil.rpcUrl,
      privateKey: '0x1234',
      chainId: anvil.chainId,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RegistryError);
    expect((error as RegistryError).code).toBe('REGISTRY_INVALID_KEY');
  });
});

describe('DocumentRegistry', () => {
  test('anchorRoot records the root with its block timestamp and id; getRootCount counts it', async () => {
    const root = hex(bytes32('anchor-1'));
    expect(await verifyRoot(root)).toEqual([false, 0n, '']);
    const before = await rootCount();
    const { timestamp } = await anchorRoot(root, 'round-1');
    expect(await verifyRoot(root)).toEqual([true, timestamp, 'round-1']);
    expect(await rootCount()).toBe(before + 1n);
    await anchorRoot(hex(bytes32('anchor-2')), 'round-2');
    expect(await rootCount()).toBe(before + 2n);
  });

  test('a root is written once: a duplicate reverts with RootAlreadyAnchored(root, timestamp)', async () => {
    const root = hex(bytes32('anchor-duplicate'));
    const { timestamp } = await anchorRoot(root, 'first');
    const count = await rootCount();
    const data = await anchorRevert(root);
    expect(data?.errorName).toBe('RootAlreadyAnchored');
    expect(data?.args).toEqual([root, timestamp]);
    expect(await verifyRoot(root)).toEqual([true, timestamp, 'first']);
    expect(await rootCount()).toBe(count);
  });

  test('the zero root reverts with EmptyRoot', async () => {
    const data = await anchorRevert(hex(new Uint8Array(32)));
    expect(data?.errorName).toBe('EmptyRoot');
  });

  test('RootAnchored carries root, id, timestamp and the sender', async () => {
    const root = hex(bytes32('anchor-event'));
    const { receipt, timestamp } = await anchorRoot(root, 'round-event');
    const logs = parseEventLogs({ abi: documentRegistryAbi, eventName: 'RootAnchored', logs: receipt.logs });
    expect(logs).toHaveLength(1);
    expect(logs[0]?.address.toLowerCase()).toBe(registry.toLowerCase());
    expect(logs[0]?.args).toEqual({ root, id: 'round-event', timestamp, registeredBy: account.address });
  });

  test('leafHash is the RFC 6962 leaf hash of @saksi/proof', async () => {
    const inputs = [new Uint8Array(32), new Uint8Array(32).fill(0xff), bytes32('leaf-a'), bytes32('leaf-b')];
    const onChain = await Promise.all(
      inputs.map((input) =>
        publicClient.readContract({
          address: registry,
          abi: documentRegistryAbi,
          functionName: 'leafHash',
          args: [hex(input)],
        }),
      ),
    );
    expect(onChain).toEqual(inputs.map((input) => hex(hashLeaf(input))));
  });
});

interface InclusionCase {
  label: string;
  index: bigint;
  size: bigint;
  leafHash: Uint8Array;
  proof: Uint8Array[];
  root: Uint8Array;
}

/** `verifyInclusion` on chain; hashes that are not 32 bytes cannot be a `bytes32`: rejected. */
async function verifyInclusionOnChain(probe: InclusionCase): Promise<boolean> {
  const all = [probe.leafHash, probe.root, ...probe.proof];
  if (all.some((hash) => hash.length !== 32)) return false;
  return publicClient.readContract({
    address: registry,
    abi: documentRegistryAbi,
    functionName: 'verifyInclusion',
    args: [hex(probe.leafHash), probe.index, probe.size, probe.proof.map(hex), hex(probe.root)],
  });
}

function verifyInclusionInLibrary(probe: InclusionCase): boolean {
  return verifyInclusionProof(
    Number(probe.index),
    Number(probe.size),
    probe.leafHash,
    probe.proof,
    probe.root,
  );
}

/** A Go uint64 field read from the JSON text itself, so values above 2^53 stay exact. */
function uint64Field(text: string, field: string): bigint {
  const match = new RegExp(`"${field}"\\s*:\\s*(\\d+)`).exec(text);
  if (!match?.[1]) throw new Error(`${field} is missing`);
  return BigInt(match[1]);
}

describe('verifyInclusion', () => {
  test('agrees with verifyInclusionProof on every transparency-dev inclusion probe', async () => {
    const folder = path.join(VECTORS, 'testdata', 'inclusion');
    const entries = await readdir(folder, { withFileTypes: true, recursive: true });
    const files = entries
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
      .map((entry) => path.join(entry.parentPath, entry.name))
      .sort();
    expect(files.length).toBeGreaterThanOrEqual(90);
    const probes = await Promise.all(
      files.map(async (file) => {
        const text = await readFile(file, 'utf8');
        const parsed = JSON.parse(text) as {
          leafHash: string;
          root: string;
          proof: string[] | null;
          wantErr: boolean;
        };
        const probe: InclusionCase = {
          label: path.relative(folder, file),
          index: uint64Field(text, 'leafIdx'),
          size: uint64Field(text, 'treeSize'),
          leafHash: fromBase64(parsed.leafHash),
          proof: (parsed.proof ?? []).map((node) => fromBase64(node)),
          root: fromBase64(parsed.root),
        };
        return { probe, accept: !parsed.wantErr };
      }),
    );
    const onChain = await mapConcurrent(probes, 8, ({ probe }) => verifyInclusionOnChain(probe));
    const outcomes = probes.map(({ probe, accept }, i) => ({
      label: probe.label,
      accept,
      library: verifyInclusionInLibrary(probe),
      chain: onChain[i],
    }));
    const disagreements = outcomes.filter((o) => o.library !== o.accept || o.chain !== o.accept);
    expect(disagreements).toEqual([]);
    // The probes exercise both outcomes, including hashes too short or long for a bytes32.
    expect(outcomes.filter((o) => o.accept).length).toBeGreaterThan(5);
    expect(probes.some(({ probe }) => probe.leafHash.length !== 32 || probe.root.length !== 32)).toBe(true);
  });

  test('agrees with @saksi/proof on random trees of 1..40 leaves, every index, and mutations', async () => {
    const cases: { probe: InclusionCase; accept: boolean }[] = [];
    const batches: { documentRoots: Uint8Array[]; root: Uint8Array }[] = [];
    for (let size = 1; size <= 40; size++) {
      const documentRoots = Array.from({ length: size }, (_, k) => bytes32(`tree ${size} document ${k}`));
      const leafHashes = documentRoots.map(hashLeaf);
      const root = rootFromLeafHashes(leafHashes);
      batches.push({ documentRoots, root });
      for (let index = 0; index < size; index++) {
        const proof = inclusionProof(leafHashes, index);
        const leafHash = leafHashes[index]!;
        const base = {
          label: `${size}/${index}`,
          index: BigInt(index),
          size: BigInt(size),
          leafHash,
          proof,
          root,
        };
        cases.push({ probe: base, accept: true });
        const flipped = proof.map((node) => node.slice());
        const target = flipped[index % Math.max(flipped.length, 1)];
        if (target) target[index % 32]! ^= 1;
        cases.push({
          probe: {
            ...base,
            label: `${base.label} flipped`,
            ...(target ? { proof: flipped } : { root: flip(root) }),
          },
          accept: false,
        });
        cases.push({
          probe: { ...base, label: `${base.label} next index`, index: BigInt(index + 1) },
          accept: false,
        });
        cases.push({
          probe: { ...base, label: `${base.label} longer`, proof: [...proof, root] },
          accept: false,
        });
        if (proof.length > 0) {
          cases.push({
            probe: { ...base, label: `${base.label} shorter`, proof: proof.slice(0, -1) },
            accept: false,
          });
        }
      }
    }
    const onChain = await mapConcurrent(cases, 16, ({ probe }) => verifyInclusionOnChain(probe));
    const disagreements = cases
      .map(({ probe, accept }, i) => ({
        label: probe.label,
        accept,
        library: verifyInclusionInLibrary(probe),
        chain: onChain[i],
      }))
      .filter((o) => o.library !== o.accept || o.chain !== o.accept);
    expect(disagreements).toEqual([]);

    // verifyAnchoredDocument: the same trees from document roots, two of the batch roots anchored.
    const anchored = new Map<number, bigint>();
    for (const size of [5, 40]) {
      const { timestamp } = await anchorRoot(hex(batches[size - 1]!.root), `batch-${size}`);
      anchored.set(size, timestamp);
    }
    const documents = batches.flatMap(({ documentRoots, root }) =>
      documentRoots.map((documentRoot, index) => ({ documentRoot, index, documentRoots, root })),
    );
    const results = await mapConcurrent(documents, 16, ({ documentRoot, index, documentRoots, root }) =>
      publicClient.readContract({
        address: registry,
        abi: documentRegistryAbi,
        functionName: 'verifyAnchoredDocument',
        args: [
          hex(documentRoot),
          BigInt(index),
          BigInt(documentRoots.length),
          inclusionProof(documentRoots.map(hashLeaf), index).map(hex),
          hex(root),
        ],
      }),
    );
    const wrong = documents.filter(({ documentRoots }, i) => {
      const [included, isAnchored, timestamp] = results[i]!;
      const expected = anchored.get(documentRoots.length);
      return !included || isAnchored !== (expected !== undefined) || timestamp !== (expected ?? 0n);
    });
    expect(wrong).toEqual([]);
    // A document root that is not the leaf at that index is not included.
    const [included] = await publicClient.readContract({
      address: registry,
      abi: documentRegistryAbi,
      functionName: 'verifyAnchoredDocument',
      args: [
        hex(bytes32('stranger')),
        0n,
        5n,
        inclusionProof(batches[4]!.documentRoots.map(hashLeaf), 0).map(hex),
        hex(batches[4]!.root),
      ],
    });
    expect(included).toBe(false);
  });
});

function flip(bytes: Uint8Array): Uint8Array {
  const copy = bytes.slice();
  copy[0]! ^= 1;
  return copy;
}

describe('createRegistryLookup', () => {
  let genuine: Anchor;
  let timestamp: number;

  beforeAll(async () => {
    const batchRoot = bytes32('lookup-batch');
    const anchored = await anchorRoot(hex(batchRoot), 'round-lookup');
    timestamp = Number(anchored.timestamp);
    genuine = {
      chain_id: anvil.chainId,
      contract: registry,
      tx_hash: anchored.hash,
      block_number: Number(anchored.receipt.blockNumber),
      batch_root: toHex(batchRoot),
      batch_proof: { leaf_index: 0, tree_size: 1, path: [] },
    };
  });

  test('a genuine anchor exists with its block timestamp and id', async () => {
    const lookup = createRegistryLookup({ rpcUrl: anvil.rpcUrl });
    expect(await lookup(genuine)).toEqual({ exists: true, timestamp, id: 'round-lookup' });
    // The contract address is compared case-insensitively.
    expect(await lookup({ ...genuine, contract: registry.toLowerCase() })).toEqual({
      exists: true,
      timestamp,
      id: 'round-lookup',
    });
  });

  test('an unknown root, another chain, or a contract without the root do not exist', async () => {
    const lookup = createRegistryLookup({ rpcUrl: anvil.rpcUrl });
    expect(await lookup({ ...genuine, batch_root: toHex(bytes32('never anchored')) })).toEqual({
      exists: false,
    });
    expect(await lookup({ ...genuine, chain_id: 84532 })).toEqual({ exists: false });
    // An address without code, another DocumentRegistry, and a malformed address.
    expect(await lookup({ ...genuine, contract: account.address })).toEqual({ exists: false });
    const other = await deployDocumentRegistry({
      rpcUrl: anvil.rpcUrl,
      privateKey: ANVIL_DEFAULT_PRIVATE_KEY,
      chainId: anvil.chainId,
    });
    expect(await lookup({ ...genuine, contract: other.address })).toEqual({ exists: false });
    expect(await lookup({ ...genuine, contract: '0x1234' })).toEqual({ exists: false });
    // Contracts that are not a registry: one always reverts, the others return what verifyRoot cannot.
    for (const runtime of ['60006000fd', '600160005260206000f3', '6002600052600260205260606000f3']) {
      const contract = await deployRuntime(runtime);
      expect(await lookup({ ...genuine, contract })).toEqual({ exists: false });
    }
    expect(await lookup({ ...genuine, batch_root: 'zz' })).toEqual({ exists: false });
  });

  test('a root on chain with a transaction or block that do not match is a problem', async () => {
    const lookup = createRegistryLookup({ rpcUrl: anvil.rpcUrl });
    const expectProblem = async (anchor: Anchor, anchoredAt = timestamp) => {
      const record = await lookup(anchor);
      expect(record).toMatchObject({ exists: true, timestamp: anchoredAt, id: 'round-lookup' });
      expect(record.problem).toEqual(expect.any(String));
      problems.push(record.problem!);
    };
    const problems: string[] = [];
    // Another anchoring transaction of the same registry, with its own block number, then with ours.
    const another = await anchorRoot(hex(bytes32('lookup-other')), 'round-other');
    await expectProblem({
      ...genuine,
      tx_hash: another.hash,
      block_number: Number(another.receipt.blockNumber),
    });
    await expectProblem({ ...genuine, tx_hash: another.hash });
    // The right transaction in the wrong block.
    await expectProblem({ ...genuine, block_number: genuine.block_number + 1 });
    // A transaction that is not on chain, a malformed hash, and the deployment transaction (to: null).
    await expectProblem({ ...genuine, tx_hash: `0x${'11'.repeat(32)}` });
    await expectProblem({ ...genuine, tx_hash: 'not-a-hash' });
    const deployed = await deployDocumentRegistry({
      rpcUrl: anvil.rpcUrl,
      privateKey: ANVIL_DEFAULT_PRIVATE_KEY,
      chainId: anvil.chainId,
    });
    await expectProblem({ ...genuine, tx_hash: deployed.txHash, block_number: deployed.blockNumber });

    // A reverted duplicate anchoring of the same root: mined, but status reverted.
    const reverted = await walletClient.writeContract({
      address: registry,
      abi: documentRegistryAbi,
      functionName: 'anchorRoot',
      args: [`0x${genuine.batch_root}`, 'again'],
      account,
      chain: walletClient.chain,
      gas: 200_000n,
    });
    const revertedReceipt = await publicClient.waitForTransactionReceipt({ hash: reverted });
    expect(revertedReceipt.status).toBe('reverted');
    await expectProblem({ ...genuine, tx_hash: reverted, block_number: Number(revertedReceipt.blockNumber) });

    // The same root anchored in a second registry: the anchor names it with the first one's transaction.
    const second = await anchorRoot(`0x${genuine.batch_root}`, 'round-lookup', deployed.address);
    await expectProblem({ ...genuine, contract: deployed.address }, Number(second.timestamp));
    // Each mismatch is described differently (the sentence says which field disagrees).
    expect(new Set(problems).size).toBe(problems.length);
  });

  test('an RPC that refuses or does not answer makes the lookup reject', async () => {
    const closed = await listen(createServer());
    const closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    await expect(createRegistryLookup({ rpcUrl: closedUrl })(genuine)).rejects.toMatchObject({
      code: 'REGISTRY_RPC_FAILED',
    });

    const silent = await listen(createServer(() => {}));
    try {
      const started = Date.now();
      const lookup = createRegistryLookup({
        rpcUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        timeoutMs: 200,
      });
      await expect(lookup(genuine)).rejects.toMatchObject({ code: 'REGISTRY_RPC_FAILED' });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

/** Deploys `runtime` (hex EVM code) as is, behind a minimal constructor that returns it. */
async function deployRuntime(runtime: string): Promise<`0x${string}`> {
  const length = (runtime.length / 2).toString(16).padStart(2, '0');
  const hash = await walletClient.deployContract({
    abi: [],
    bytecode: `0x60${length}600c60003960${length}6000f3${runtime}`,
    account,
    chain: walletClient.chain,
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  return receipt.contractAddress!;
}

function listen(server: Server): Promise<Server> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
