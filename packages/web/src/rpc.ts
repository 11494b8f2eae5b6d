/**
 * The on-chain anchor check in the browser without an Ethereum library: one raw JSON-RPC
 * `eth_call` to `DocumentRegistry.verifyRoot(bytes32)` and a hand-written ABI decoder for its
 * `(bool exists, uint256 timestamp, string id)` reply (Solidity ABI spec, "Formal Specification of the Encoding").
 */
import type { Anchor, AnchorLookup, AnchorRecord } from '@saksi/proof';

/**
 * First 4 bytes of keccak256("verifyRoot(bytes32)"), computed once in Node with
 * `keccak_256(utf8("verifyRoot(bytes32)"))` from @noble/hashes; hard-coded so the web bundle needs no keccak.
 */
export const VERIFY_ROOT_SELECTOR = '0x83363bcf';

export class RpcError extends Error {
  constructor(
    readonly code: 'RPC_FAILED' | 'RPC_BAD_REPLY' | 'RPC_WRONG_CHAIN',
    message: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** Call data of `verifyRoot(root)`; `root` is 32 bytes of hex, with or without `0x`. */
export function encodeVerifyRootCall(root: string): string {
  const hex = root.startsWith('0x') ? root.slice(2) : root;
  if (!/^[0-9a-fA-F]{64}$/.test(hex))
    throw new RpcError('RPC_BAD_REPLY', 'The batch root is not 32 bytes of hex.');
  return VERIFY_ROOT_SELECTOR + hex.toLowerCase();
}

export interface VerifyRootResult {
  exists: boolean;
  timestamp: bigint;
  id: string;
}

const WORD = 64;

function word(hex: string, index: number): string {
  const value = hex.slice(index * WORD, (index + 1) * WORD);
  if (value.length !== WORD) throw new RpcError('RPC_BAD_REPLY', 'The chain returned a short reply.');
  return value;
}

/** Decodes the ABI encoding of `(bool, uint256, string)`; throws `RPC_BAD_REPLY` on anything malformed. */
export function decodeVerifyRootResult(data: string): VerifyRootResult {
  const hex = data.startsWith('0x') ? data.slice(2) : data;
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex) || hex.length % WORD !== 0) {
    throw new RpcError('RPC_BAD_REPLY', 'The chain reply is not ABI-encoded data.');
  }
  const flag = BigInt(`0x${word(hex, 0)}`);
  if (flag > 1n) throw new RpcError('RPC_BAD_REPLY', 'The chain reply has an invalid bool.');
  const timestamp = BigInt(`0x${word(hex, 1)}`);
  const offset = BigInt(`0x${word(hex, 2)}`);
  if (offset % 32n !== 0n || offset > BigInt(hex.length / 2)) {
    throw new RpcError('RPC_BAD_REPLY', 'The chain reply has an invalid string offset.');
  }
  const lengthWord = Number(offset / 32n);
  const length = BigInt(`0x${word(hex, lengthWord)}`);
  const start = (lengthWord + 1) * WORD;
  if (length > BigInt((hex.length - start) / 2)) {
    throw new RpcError('RPC_BAD_REPLY', 'The chain reply has an invalid string length.');
  }
  const bytesHex = hex.slice(start, start + Number(length) * 2);
  const bytes = new Uint8Array(bytesHex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(bytesHex.slice(i * 2, i * 2 + 2), 16);
  let id: string;
  try {
    id = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new RpcError('RPC_BAD_REPLY', 'The chain reply has a string that is not UTF-8.');
  }
  return { exists: flag === 1n, timestamp, id };
}

export interface RpcLookupOptions {
  rpcUrl: string;
  /** The chain the RPC serves; anchors on other chains are not looked up there. */
  chainId: number;
  fetch?: typeof fetch;
}

/** An `AnchorLookup` for `verifyBundle` that asks the chain's `verifyRoot` over JSON-RPC. */
export function createRpcAnchorLookup(options: RpcLookupOptions): AnchorLookup {
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
  let nextId = 1;
  return async (anchor: Anchor): Promise<AnchorRecord> => {
    if (anchor.chain_id !== options.chainId) {
      throw new RpcError('RPC_WRONG_CHAIN', `No RPC for chain ${anchor.chain_id}.`);
    }
    const response = await fetcher(options.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: nextId++,
        method: 'eth_call',
        params: [{ to: anchor.contract, data: encodeVerifyRootCall(anchor.batch_root) }, 'latest'],
      }),
    });
    if (!response.ok) throw new RpcError('RPC_FAILED', `The chain RPC answered HTTP ${response.status}.`);
    const reply = (await response.json()) as { result?: unknown; error?: { message?: unknown } };
    if (typeof reply.result !== 'string') {
      throw new RpcError(
        'RPC_FAILED',
        `The chain RPC failed: ${String(reply.error?.message ?? 'no result')}.`,
      );
    }
    const result = decodeVerifyRootResult(reply.result);
    const record: AnchorRecord = { exists: result.exists };
    if (result.exists) {
      record.timestamp = Number(result.timestamp);
      record.id = result.id;
    }
    return record;
  };
}
