/**
 * The anchor seam (docs/architecture.md, "Packages and layers"; docs/anchoring.md): a small interface with a
 * version field and `do*` methods. Providers: `evm` (any EVM chain with a deployed DocumentRegistry, through
 * viem), `local` (the same over an anvil the engine starts in the data directory). `none` has no provider.
 *
 * Sending is split in two so the service can store the transaction hash before broadcasting:
 * `doPrepare` estimates gas and signs (nothing leaves the process), `doBroadcast` sends the signed bytes.
 */
import { documentRegistryAbi, explorerTxUrl, registryChain } from '@saksi/contracts';
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseEventLogs,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { SaksiError } from '../errors.js';

export const ANCHOR_PROVIDER_VERSION = '1';

export type AnchorErrorCode =
  /** The root is already on chain (reconcile instead of sending). */
  | 'ALREADY_ANCHORED'
  /** The RPC endpoint failed or timed out; retried with backoff. */
  | 'RPC_ERROR'
  /** The contract or chain is not what the configuration says. */
  | 'CHAIN_MISMATCH'
  /** The transaction reverted or could not be built (e.g. no funds). */
  | 'TX_FAILED';

/** A failure of anchoring; the server answers it as a 500 (`INTERNAL`). */
export class AnchorError extends SaksiError<AnchorErrorCode> {
  override readonly name = 'AnchorError';
}

export interface PreparedAnchor {
  txHash: Hex;
  rawTx: Hex;
  nonce: number;
}

export interface AnchorReceipt {
  txHash: Hex;
  blockNumber: number;
  /** Unix seconds of the block. */
  timestamp: number;
  gasUsed: bigint;
}

export type TransactionState = 'mined' | 'pending' | 'unknown';

export interface AnchorProvider {
  readonly version: string;
  readonly kind: 'local' | 'evm';
  readonly chainId: number;
  readonly contract: Address;
  readonly rpcUrl: string;
  /** Estimates gas and signs `anchorRoot(root, id)`; throws ALREADY_ANCHORED when the root is on chain. */
  doPrepare(root: Hex, id: string): Promise<PreparedAnchor>;
  /** Broadcasts signed bytes; "already known" counts as success. */
  doBroadcast(rawTx: Hex): Promise<void>;
  doTransactionState(txHash: Hex): Promise<TransactionState>;
  /** Waits up to `timeoutMs` for the receipt; null on timeout; throws TX_FAILED when it reverted. */
  doWaitForReceipt(txHash: Hex, timeoutMs: number): Promise<AnchorReceipt | null>;
  doVerifyRoot(root: Hex): Promise<{ exists: boolean; timestamp: number; id: string }>;
  /** The transaction that anchored `root`, from the RootAnchored event; null when none. */
  doFindAnchor(root: Hex): Promise<AnchorReceipt | null>;
  explorerTxUrl(txHash: string): string | null;
  close(): Promise<void>;
}

export interface EvmProviderOptions {
  kind?: 'local' | 'evm';
  rpcUrl: string;
  chainId: number;
  privateKey: Hex;
  contract: Address;
  /** First block to scan for RootAnchored events. */
  fromBlock?: number;
  onClose?: () => Promise<void>;
}

/** Connects to `rpcUrl` and checks the chain id and that the contract has code. */
export async function createEvmAnchorProvider(options: EvmProviderOptions): Promise<AnchorProvider> {
  const chain = registryChain(options.chainId, options.rpcUrl);
  const transport = http(options.rpcUrl, { timeout: 15_000, retryCount: 2 });
  const client: PublicClient = createPublicClient({ chain, transport });
  const account = privateKeyToAccount(options.privateKey);
  const wallet: WalletClient = createWalletClient({ account, chain, transport });
  const remoteChainId = await rpc('reading the chain id', () => client.getChainId());
  if (remoteChainId !== options.chainId) {
    throw new AnchorError(
      'CHAIN_MISMATCH',
      `The RPC endpoint serves chain ${remoteChainId}, not the configured ${options.chainId}.`,
    );
  }
  const code = await rpc('reading the contract code', () => client.getCode({ address: options.contract }));
  if (!code || code === '0x') {
    throw new AnchorError(
      'CHAIN_MISMATCH',
      `No contract at ${options.contract} on chain ${options.chainId}; deploy one with \`saksi anchor deploy\`.`,
    );
  }
  const contract = options.contract;

  const receiptOf = async (txHash: Hex): Promise<AnchorReceipt> => {
    const receipt = await client.getTransactionReceipt({ hash: txHash });
    if (receipt.status !== 'success') {
      throw new AnchorError('TX_FAILED', `Anchoring transaction ${txHash} reverted.`);
    }
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    return {
      txHash,
      blockNumber: Number(receipt.blockNumber),
      timestamp: Number(block.timestamp),
      gasUsed: receipt.gasUsed,
    };
  };

  return {
    version: ANCHOR_PROVIDER_VERSION,
    kind: options.kind ?? 'evm',
    chainId: options.chainId,
    contract,
    rpcUrl: options.rpcUrl,
    async doPrepare(root, id) {
      let gas: bigint;
      try {
        gas = await client.estimateContractGas({
          address: contract,
          abi: documentRegistryAbi,
          functionName: 'anchorRoot',
          args: [root, id],
          account,
        });
      } catch (error) {
        if (revertName(error) === 'RootAlreadyAnchored') {
          throw new AnchorError('ALREADY_ANCHORED', `Root ${root} is already anchored.`, { cause: error });
        }
        throw classify('estimating gas', error);
      }
      return rpc('signing the transaction', async () => {
        const request = await wallet.prepareTransactionRequest({
          account,
          chain,
          to: contract,
          data: encodeAnchorCall(root, id),
          // 20% headroom over the estimate.
          gas: (gas * 12n) / 10n,
        });
        const rawTx = await wallet.signTransaction({ ...request, account, chain } as never);
        return { txHash: keccak256(rawTx), rawTx, nonce: Number(request.nonce) };
      });
    },
    async doBroadcast(rawTx) {
      try {
        await client.sendRawTransaction({ serializedTransaction: rawTx });
      } catch (error) {
        const text = messageOf(error).toLowerCase();
        if (text.includes('already known') || text.includes('already imported')) return;
        throw classify('broadcasting the transaction', error);
      }
    },
    async doTransactionState(txHash) {
      try {
        const tx = await client.getTransaction({ hash: txHash });
        return tx.blockNumber === null ? 'pending' : 'mined';
      } catch (error) {
        if (error instanceof BaseError && error.name === 'TransactionNotFoundError') return 'unknown';
        throw classify('reading the transaction', error);
      }
    },
    async doWaitForReceipt(txHash, timeoutMs) {
      try {
        await client.waitForTransactionReceipt({ hash: txHash, timeout: timeoutMs, pollingInterval: 250 });
      } catch (error) {
        if (error instanceof BaseError && error.name === 'WaitForTransactionReceiptTimeoutError') return null;
        throw classify('waiting for the receipt', error);
      }
      return receiptOf(txHash);
    },
    async doVerifyRoot(root) {
      const [exists, timestamp, id] = await rpc('calling verifyRoot', () =>
        client.readContract({
          address: contract,
          abi: documentRegistryAbi,
          functionName: 'verifyRoot',
          args: [root],
        }),
      );
      return { exists, timestamp: Number(timestamp), id };
    },
    async doFindAnchor(root) {
      const logs = await rpc('searching RootAnchored events', () =>
        client.getContractEvents({
          address: contract,
          abi: documentRegistryAbi,
          eventName: 'RootAnchored',
          args: { root },
          fromBlock: BigInt(options.fromBlock ?? 0),
          toBlock: 'latest',
        }),
      );
      const log = parseEventLogs({ abi: documentRegistryAbi, logs, eventName: 'RootAnchored' })[0];
      if (!log?.transactionHash) return null;
      return receiptOf(log.transactionHash);
    },
    explorerTxUrl: (txHash) => explorerTxUrl(options.chainId, txHash),
    async close() {
      await options.onClose?.();
    },
  };
}

function encodeAnchorCall(root: Hex, id: string): Hex {
  return encodeFunctionData({ abi: documentRegistryAbi, functionName: 'anchorRoot', args: [root, id] });
}

function revertName(error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const revert = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
  if (revert instanceof ContractFunctionRevertedError) return revert.data?.errorName;
  return undefined;
}

function messageOf(error: unknown): string {
  if (error instanceof BaseError) return `${error.shortMessage} ${error.details ?? ''}`;
  return error instanceof Error ? error.message : String(error);
}

function classify(what: string, error: unknown): AnchorError {
  if (error instanceof AnchorError) return error;
  const text = messageOf(error);
  const code: AnchorErrorCode = /revert|insufficient funds|nonce too low|underpriced/i.test(text)
    ? 'TX_FAILED'
    : 'RPC_ERROR';
  return new AnchorError(code, `Anchoring failed while ${what}: ${text.slice(0, 300)}`, { cause: error });
}

async function rpc<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw classify(what, error);
  }
}
