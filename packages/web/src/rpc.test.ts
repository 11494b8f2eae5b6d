import { keccak_256 } from '@noble/hashes/sha3.js';
import {
  ANVIL_DEFAULT_PRIVATE_KEY,
  type AnvilHandle,
  deployDocumentRegistry,
  startAnvil,
} from '@saksi/contracts';
import type { Anchor } from '@saksi/proof';
import { createPublicClient, createWalletClient, encodeAbiParameters, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRpcAnchorLookup,
  decodeVerifyRootResult,
  encodeVerifyRootCall,
  RpcError,
  VERIFY_ROOT_SELECTOR,
} from './rpc.js';

const RESULT_TYPES = [{ type: 'bool' }, { type: 'uint256' }, { type: 'string' }] as const;

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof RpcError ? error.code : 'OTHER';
  }
  return undefined;
}

describe('verifyRoot call data', () => {
  it('uses the first 4 bytes of keccak256("verifyRoot(bytes32)")', () => {
    const digest = keccak_256(new TextEncoder().encode('verifyRoot(bytes32)'));
    expect(VERIFY_ROOT_SELECTOR).toBe(`0x${Buffer.from(digest.slice(0, 4)).toString('hex')}`);
    expect(encodeVerifyRootCall('AB'.repeat(32))).toBe(`${VERIFY_ROOT_SELECTOR}${'ab'.repeat(32)}`);
    expect(codeOf(() => encodeVerifyRootCall('ab'.repeat(31)))).toBe('RPC_BAD_REPLY');
  });
});

describe('decodeVerifyRootResult', () => {
  it('decodes what a Solidity ABI encoder produces', () => {
    for (const [exists, timestamp, id] of [
      [true, 1_795_000_000n, 'anc_0190f5a4-é✓'],
      [false, 0n, ''],
      [true, 2n ** 255n, 'x'.repeat(100)],
    ] as const) {
      const data = encodeAbiParameters(RESULT_TYPES, [exists, timestamp, id]);
      expect(decodeVerifyRootResult(data)).toEqual({ exists, timestamp, id });
    }
  });

  it('rejects empty, truncated and malformed replies as RPC_BAD_REPLY', () => {
    const good = encodeAbiParameters(RESULT_TYPES, [true, 5n, 'anc_1']);
    const word = (n: bigint) => n.toString(16).padStart(64, '0');
    for (const bad of [
      '0x',
      good.slice(0, good.length - 64),
      `0x${word(2n)}${good.slice(66)}`, // bool of 2
      `0x${word(1n)}${word(5n)}${word(0x1000n)}${word(5n)}`, // offset out of range
      `0x${word(1n)}${word(5n)}${word(0x21n)}${word(5n)}`, // unaligned offset
      `0x${word(1n)}${word(5n)}${word(0x60n)}${word(64n)}${'61'.repeat(32)}`, // length beyond data
      `0x${word(1n)}${word(5n)}${word(0x60n)}${word(2n)}${'ff'.repeat(2)}${'00'.repeat(30)}`, // not UTF-8
      '0xzz',
    ]) {
      expect(codeOf(() => decodeVerifyRootResult(bad))).toBe('RPC_BAD_REPLY');
    }
  });
});

describe('createRpcAnchorLookup against a real anvil', () => {
  let anvil: AnvilHandle;
  let contract: `0x${string}`;
  const root = 'c0'.repeat(32);

  beforeAll(async () => {
    anvil = await startAnvil();
    const deployed = await deployDocumentRegistry({
      rpcUrl: anvil.rpcUrl,
      privateKey: ANVIL_DEFAULT_PRIVATE_KEY,
      chainId: anvil.chainId,
    });
    contract = deployed.address;
    const account = privateKeyToAccount(ANVIL_DEFAULT_PRIVATE_KEY);
    const wallet = createWalletClient({ account, transport: http(anvil.rpcUrl) });
    const hash = await wallet.writeContract({
      address: contract,
      abi: [
        {
          type: 'function',
          name: 'anchorRoot',
          stateMutability: 'nonpayable',
          inputs: [
            { name: 'root', type: 'bytes32' },
            { name: 'id', type: 'string' },
          ],
          outputs: [],
        },
      ],
      functionName: 'anchorRoot',
      args: [`0x${root}`, 'anc_web_test'],
      chain: null,
    });
    // anvil mines in the background: wait for the receipt so the root is on chain before the tests.
    await createPublicClient({ transport: http(anvil.rpcUrl) }).waitForTransactionReceipt({ hash });
  });

  afterAll(async () => {
    await anvil?.stop();
  });

  const anchorFor = (batchRoot: string, chainId = anvil.chainId): Anchor => ({
    chain_id: chainId,
    contract,
    tx_hash: `0x${'00'.repeat(32)}`,
    block_number: 1,
    batch_root: batchRoot,
    batch_proof: { leaf_index: 0, tree_size: 1, path: [] },
  });

  it('finds an anchored root with its id and time, and not an unknown one', async () => {
    const lookup = createRpcAnchorLookup({ rpcUrl: anvil.rpcUrl, chainId: anvil.chainId });
    const found = await lookup(anchorFor(root));
    expect(found.exists).toBe(true);
    expect(found.id).toBe('anc_web_test');
    expect(found.timestamp).toBeGreaterThan(1_600_000_000);
    expect(await lookup(anchorFor('d0'.repeat(32)))).toEqual({ exists: false });
  });

  it('refuses an anchor on another chain and a contract without code', async () => {
    const lookup = createRpcAnchorLookup({ rpcUrl: anvil.rpcUrl, chainId: anvil.chainId });
    await expect(lookup(anchorFor(root, 8453))).rejects.toMatchObject({ code: 'RPC_WRONG_CHAIN' });
    await expect(lookup({ ...anchorFor(root), contract: `0x${'11'.repeat(20)}` })).rejects.toMatchObject({
      code: 'RPC_BAD_REPLY',
    });
  });
});
