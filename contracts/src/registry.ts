/**
 * The viem side of the DocumentRegistry (docs/anchoring.md): chain presets with explorer links, deploying
 * the contract, and the on-chain {@link AnchorLookup} a verifier passes to `verifyBundle`.
 */
import type { Anchor, AnchorLookup, AnchorRecord } from '@saksi/proof';
import {
  BaseError,
  type Chain,
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  HttpRequestError,
  http,
  isAddress,
  isAddressEqual,
  isHash,
  parseEventLogs,
  RpcRequestError,
  SocketClosedError,
  TimeoutError,
  TransactionReceiptNotFoundError,
  WebSocketRequestError,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { documentRegistryAbi, documentRegistryBytecode } from './document-registry.generated.js';

export interface ChainPreset {
  chainId: number;
  name: string;
  rpcUrl: string;
  explorerUrl: string;
}

/** Public chains Saksi knows by name (the `evm` anchor provider's presets). */
export const CHAIN_PRESETS = {
  'base-sepolia': {
    chainId: 84532,
    name: 'Base Sepolia',
    rpcUrl: 'https://sepolia.base.org',
    explorerUrl: 'https://sepolia.basescan.org',
  },
  base: {
    chainId: 8453,
    name: 'Base',
    rpcUrl: 'https://mainnet.base.org',
    explorerUrl: 'https://basescan.org',
  },
} as const satisfies Record<string, ChainPreset>;

export type ChainPresetName = keyof typeof CHAIN_PRESETS;

/** Default timeout of one RPC request made by {@link createRegistryLookup}. */
export const REGISTRY_LOOKUP_TIMEOUT_MS = 10_000;

export type RegistryErrorCode =
  | 'REGISTRY_INVALID_KEY'
  | 'REGISTRY_RPC_FAILED'
  | 'REGISTRY_CHAIN_MISMATCH'
  | 'REGISTRY_DEPLOY_FAILED';

/** A failure talking to the chain. Messages never contain the private key or the full RPC URL. */
export class RegistryError extends Error {
  override readonly name = 'RegistryError';
  readonly code: RegistryErrorCode;

  constructor(code: RegistryErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

function presetOf(chainId: number): ChainPreset | undefined {
  return Object.values(CHAIN_PRESETS).find((preset) => preset.chainId === chainId);
}

/** The block explorer page of a transaction, or `null` for chains without a known explorer (anvil). */
export function explorerTxUrl(chainId: number, txHash: string): string | null {
  const preset = presetOf(chainId);
  return preset ? `${preset.explorerUrl}/tx/${txHash}` : null;
}

/** The block explorer page of an address (the registry contract), or `null` for unknown chains. */
export function explorerAddressUrl(chainId: number, address: string): string | null {
  const preset = presetOf(chainId);
  return preset ? `${preset.explorerUrl}/address/${address}` : null;
}

/** A viem chain for `chainId` served at `rpcUrl`, named and linked to its explorer when it is a preset. */
export function registryChain(chainId: number, rpcUrl: string): Chain {
  const preset = presetOf(chainId);
  return defineChain({
    id: chainId,
    name: preset?.name ?? (chainId === 31337 ? 'Anvil' : `Chain ${chainId}`),
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    ...(preset ? { blockExplorers: { default: { name: 'Basescan', url: preset.explorerUrl } } } : {}),
  });
}

export interface DeployRegistryOptions {
  rpcUrl: string;
  privateKey: `0x${string}`;
  /** The chain the RPC must serve; a different one is `REGISTRY_CHAIN_MISMATCH`. */
  chainId: number;
}

export interface DeployedRegistry {
  address: `0x${string}`;
  txHash: `0x${string}`;
  blockNumber: number;
}

/** Deploys DocumentRegistry from the key's account and waits for the receipt. */
export async function deployDocumentRegistry(options: DeployRegistryOptions): Promise<DeployedRegistry> {
  let account: ReturnType<typeof privateKeyToAccount>;
  try {
    account = privateKeyToAccount(options.privateKey);
  } catch {
    throw new RegistryError(
      'REGISTRY_INVALID_KEY',
      'The anchoring private key is not a 32-byte hex key (0x followed by 64 hex digits).',
    );
  }
  const chain = registryChain(options.chainId, options.rpcUrl);
  const transport = http(options.rpcUrl);
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 250 });
  const walletClient = createWalletClient({ account, chain, transport });
  const where = rpcHost(options.rpcUrl);
  const actual = await rpc(where, () => publicClient.getChainId());
  if (actual !== options.chainId) {
    throw new RegistryError(
      'REGISTRY_CHAIN_MISMATCH',
      `The RPC at ${where} serves chain ${actual}, not chain ${options.chainId}; check the RPC URL and chain id.`,
    );
  }
  let txHash: `0x${string}`;
  try {
    txHash = await walletClient.deployContract({
      abi: documentRegistryAbi,
      bytecode: documentRegistryBytecode,
    });
  } catch (error) {
    const reason = error instanceof BaseError ? error.shortMessage : 'unknown error';
    throw new RegistryError(
      'REGISTRY_DEPLOY_FAILED',
      `Deploying DocumentRegistry on chain ${options.chainId} via ${where} failed: ${reason}`,
    );
  }
  const receipt = await rpc(where, () => publicClient.waitForTransactionReceipt({ hash: txHash }));
  if (receipt.status !== 'success' || !receipt.contractAddress) {
    throw new RegistryError(
      'REGISTRY_DEPLOY_FAILED',
      `The deployment transaction ${txHash} failed on chain ${options.chainId}.`,
    );
  }
  return {
    address: getAddress(receipt.contractAddress),
    txHash,
    blockNumber: Number(receipt.blockNumber),
  };
}

export interface RegistryLookupOptions {
  rpcUrl: string;
  /** Timeout of each RPC request in milliseconds (default 10 000). */
  timeoutMs?: number;
}

/**
 * An {@link AnchorLookup} reading the DocumentRegistry over JSON-RPC. For an anchor it resolves:
 * `{exists: false}` when the RPC serves another chain, the contract has no such function or the root is
 * not anchored there; `{exists: true, timestamp, id, problem}` when the root is anchored but the anchor's
 * transaction or block do not match the chain (`verifyBundle` reports ANCHOR_MISMATCH); else
 * `{exists: true, timestamp, id}`. It rejects when the RPC fails or times out.
 */
export function createRegistryLookup(options: RegistryLookupOptions): AnchorLookup {
  const client = createPublicClient({
    transport: http(options.rpcUrl, {
      timeout: options.timeoutMs ?? REGISTRY_LOOKUP_TIMEOUT_MS,
      retryCount: 1,
    }),
  });
  const where = rpcHost(options.rpcUrl);
  let chainId: Promise<number> | undefined;
  const rpcChainId = (): Promise<number> => {
    if (!chainId) {
      chainId = rpc(where, () => client.getChainId());
      chainId.catch(() => {
        chainId = undefined;
      });
    }
    return chainId;
  };

  return async (anchor: Anchor): Promise<AnchorRecord> => {
    if ((await rpcChainId()) !== anchor.chain_id) return { exists: false };
    if (!isAddress(anchor.contract, { strict: false }) || !/^[0-9a-f]{64}$/i.test(anchor.batch_root)) {
      return { exists: false };
    }
    const contract = getAddress(anchor.contract);
    const root = `0x${anchor.batch_root.toLowerCase()}` as Hex;

    let record: readonly [boolean, bigint, string];
    try {
      record = await client.readContract({
        address: contract,
        abi: documentRegistryAbi,
        functionName: 'verifyRoot',
        args: [root],
      });
    } catch (error) {
      if (isCallFailure(error)) return { exists: false };
      throw rpcError(where, error);
    }
    const [exists, timestampOnChain, id] = record;
    if (!exists) return { exists: false };
    const timestamp = Number(timestampOnChain);
    const found: AnchorRecord = { exists: true, timestamp, id };
    const problem = await transactionProblem(anchor, contract, root, timestampOnChain);
    return problem === undefined ? found : { ...found, problem };
  };

  async function transactionProblem(
    anchor: Anchor,
    contract: `0x${string}`,
    root: Hex,
    timestamp: bigint,
  ): Promise<string | undefined> {
    const tx = anchor.tx_hash;
    if (!isHash(tx)) return `The anchor's transaction hash "${tx}" is not a 0x-prefixed 32-byte hash.`;
    let receipt: Awaited<ReturnType<typeof client.getTransactionReceipt>>;
    try {
      receipt = await client.getTransactionReceipt({ hash: tx });
    } catch (error) {
      if (error instanceof BaseError && error.walk((e) => e instanceof TransactionReceiptNotFoundError)) {
        return `Transaction ${tx} is not on chain ${anchor.chain_id}; the root was anchored by another transaction.`;
      }
      throw rpcError(where, error);
    }
    if (receipt.status !== 'success') return `Transaction ${tx} failed on chain; it anchored nothing.`;
    if (!receipt.to) return `Transaction ${tx} created a contract; it did not call the registry ${contract}.`;
    if (!isAddressEqual(receipt.to, contract)) {
      return `Transaction ${tx} was sent to ${getAddress(receipt.to)}, not to the registry ${contract}.`;
    }
    if (
      receipt.blockNumber !== BigInt(Number.isSafeInteger(anchor.block_number) ? anchor.block_number : -1)
    ) {
      return `Transaction ${tx} is in block ${receipt.blockNumber}, not in block ${anchor.block_number} as the anchor says.`;
    }
    const anchored = parseEventLogs({
      abi: documentRegistryAbi,
      eventName: 'RootAnchored',
      logs: receipt.logs,
    }).some(
      (log) =>
        isAddressEqual(log.address, contract) &&
        log.args.root.toLowerCase() === root &&
        log.args.timestamp === timestamp,
    );
    if (!anchored) return `Transaction ${tx} did not anchor root ${anchor.batch_root} at ${contract}.`;
    return undefined;
  }
}

/**
 * The call reached the chain and failed there — no code at the address, a revert, or return data that
 * is not `verifyRoot`'s — as opposed to the RPC itself failing (transport error, timeout, error reply).
 */
function isCallFailure(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  if (
    error.walk(
      (e) => e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError,
    )
  ) {
    return true;
  }
  return (
    error instanceof ContractFunctionExecutionError &&
    !error.walk(
      (e) =>
        e instanceof HttpRequestError ||
        e instanceof TimeoutError ||
        e instanceof RpcRequestError ||
        e instanceof WebSocketRequestError ||
        e instanceof SocketClosedError,
    )
  );
}

/** Protocol and host of an RPC URL: paths and query strings often carry API keys. */
function rpcHost(rpcUrl: string): string {
  try {
    const url = new URL(rpcUrl);
    return `${url.protocol}//${url.host}`;
  } catch {
    return 'the configured RPC URL';
  }
}

function rpcError(where: string, error: unknown): RegistryError {
  if (error instanceof RegistryError) return error;
  const reason = error instanceof BaseError ? error.shortMessage : 'unknown error';
  return new RegistryError('REGISTRY_RPC_FAILED', `The RPC at ${where} failed: ${reason}`);
}

async function rpc<T>(where: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw rpcError(where, error);
  }
}
