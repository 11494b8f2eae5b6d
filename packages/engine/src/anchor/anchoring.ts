/**
 * Anchoring as the engine runs it (docs/architecture.md, "Data flows"): the configured provider
 * (`local` starts anvil in the data directory, `evm` connects to a chain), the round service on it,
 * the on-chain lookup verifiers use, and the status the API and CLI show.
 */

import { createRegistryLookup, explorerTxUrl } from '@saksi/contracts';
import type { Anchor, AnchorLookup } from '@saksi/proof';
import type { SaksiConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { EngineError } from '../errors.js';
import { getDocument } from '../ingest/pipeline.js';
import { type SigningKeys, trustRegistry } from '../keys.js';
import { startLocalAnchorProvider } from './local.js';
import { type AnchorProvider, createEvmAnchorProvider } from './provider.js';
import {
  type AnchorEvent,
  AnchorService,
  anchorsFor,
  listRounds,
  ROUND_COLUMNS,
  type RoundRow,
} from './service.js';

/** The chain a running provider writes to, for `/api/v1/anchors` and verifiers. */
export interface AnchorChain {
  provider: string;
  chain_id: number;
  contract: string;
  /** Shown for the local chain only: its RPC is loopback, while a configured URL may hold a key. */
  rpc_url: string | null;
}

/** Where a document's root was anchored (admin document list). */
export interface DocumentAnchor {
  chain_id: number;
  tx_hash: string;
  block_number: number;
  explorer_url: string | null;
}

/** A round as the anchor status shows it: the row without its transaction bytes, with an explorer link. */
export type AnchorRoundSummary = Pick<
  RoundRow,
  | 'id'
  | 'status'
  | 'chain_id'
  | 'contract'
  | 'batch_root'
  | 'size'
  | 'log_size'
  | 'tx_hash'
  | 'block_number'
  | 'block_timestamp'
  | 'gas_used'
  | 'attempts'
  | 'last_error'
  | 'created_at'
> & { explorer_url: string | null };

export interface AnchorStatus {
  provider: 'local' | 'evm' | 'none';
  chain: AnchorChain | null;
  /** READY documents per anchor state. */
  documents: Record<string, number>;
  rounds: AnchorRoundSummary[];
  document?: {
    id: string;
    title: string;
    root: string | null;
    anchor_state: string;
    anchor: Anchor | null;
    explorer_url: string | null;
  };
}

/** READY documents not yet anchored; the oldest one's wait (null when none waits or anchoring is off). */
export interface AnchoringLag {
  waiting: number;
  oldest_waiting_since: string | null;
  lag_seconds: number | null;
}

export interface AnchorStartOptions {
  /** Run anchoring rounds every interval (`saksi serve`); without it, only reconcile open rounds. */
  loop?: boolean;
  onEvent?: (event: AnchorEvent) => void;
  onWarning?: (message: string) => void;
}

export class Anchoring {
  private provider: AnchorProvider | null = null;
  private service: AnchorService | null = null;
  private starting: Promise<AnchorService | null> | null = null;
  /** One lookup per provider, so its cached chain id is reused across verifications. */
  private cachedLookup: { rpcUrl: string; lookup: AnchorLookup } | undefined;

  constructor(
    private readonly db: Database,
    private readonly config: SaksiConfig,
    private readonly keys: SigningKeys,
  ) {}

  /**
   * Connects the configured anchor provider and reconciles rounds left open by an earlier run; with
   * `loop`, anchoring rounds then run every interval. Pins the registry contract in the trusted keys.
   * Returns null for `SAKSI_ANCHOR=none`.
   */
  async start(options: AnchorStartOptions = {}): Promise<AnchorService | null> {
    if (this.service) {
      if (options.loop) this.service.start();
      return this.service;
    }
    this.starting ??= this.connect(options);
    const service = await this.starting.catch((error) => {
      this.starting = null;
      throw error;
    });
    if (service) {
      if (options.loop) service.start();
      else await service.reconcile();
    }
    return service;
  }

  private async connect(options: AnchorStartOptions): Promise<AnchorService | null> {
    const { anchor } = this.config;
    if (anchor.provider === 'none') return null;
    const provider =
      anchor.provider === 'local'
        ? await startLocalAnchorProvider({
            dataDir: this.config.dataDir,
            ...(anchor.localPort !== undefined ? { port: anchor.localPort } : {}),
            ...(options.onWarning ? { onWarning: options.onWarning } : {}),
          })
        : await createEvmAnchorProvider({
            rpcUrl: anchor.rpcUrl!,
            chainId: anchor.chainId!,
            privateKey: anchor.privateKey!,
            contract: anchor.contract!,
            ...(anchor.fromBlock !== undefined ? { fromBlock: anchor.fromBlock } : {}),
          });
    this.provider = provider;
    this.keys.trusted = await trustRegistry(
      this.config.keySecrets ? null : this.config.keysDir,
      this.keys.trusted,
      { chain_id: provider.chainId, contract: provider.contract },
    );
    this.service = new AnchorService(this.db, provider, {
      batchSize: anchor.batchSize,
      intervalMs: anchor.intervalMs,
      logIntervalMs: anchor.logIntervalMs,
      confirmTimeoutMs: anchor.confirmTimeoutMs,
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    });
    return this.service;
  }

  /** Stops the rounds and the provider (a local anvil with it); `start` may be called again. */
  async stop(): Promise<void> {
    await this.service?.stop();
    await this.provider?.close();
    this.service = null;
    this.provider = null;
    this.starting = null;
  }

  /** Runs anchoring rounds now until no document waits (CLI ingest); null when anchoring is off. */
  async runNow(options: { onEvent?: (event: AnchorEvent) => void } = {}): Promise<RoundRow[] | null> {
    const service = await this.start(options.onEvent ? { onEvent: options.onEvent } : {});
    if (!service) return null;
    const rounds: RoundRow[] = [];
    for (;;) {
      const round = await service.runOnce();
      if (!round) return rounds;
      rounds.push(round);
      if (round.status !== 'CONFIRMED') return rounds;
    }
  }

  /** The chain the running provider writes to; null before `start` or with anchoring off. */
  chain(): AnchorChain | null {
    const provider = this.provider;
    if (!provider) return null;
    return {
      provider: provider.kind,
      chain_id: provider.chainId,
      contract: provider.contract,
      rpc_url: provider.kind === 'local' ? provider.rpcUrl : null,
    };
  }

  /** The running provider's RPC URL, or undefined when none runs (health probes it). */
  rpcUrl(): string | undefined {
    return this.provider?.rpcUrl;
  }

  /** An on-chain lookup (`verifyRoot` + the anchoring transaction) through the running provider's RPC. */
  lookup(): AnchorLookup | undefined {
    const provider = this.provider;
    if (!provider) return undefined;
    if (this.cachedLookup?.rpcUrl !== provider.rpcUrl) {
      this.cachedLookup = {
        rpcUrl: provider.rpcUrl,
        lookup: createRegistryLookup({ rpcUrl: provider.rpcUrl }),
      };
    }
    return this.cachedLookup.lookup;
  }

  /** Anchoring status: recent rounds, or one document's state, round and anchor. */
  async status(options: { documentId?: string } = {}): Promise<AnchorStatus> {
    const { documentId } = options;
    const counts = await this.db.query<{ anchor_state: string; count: number }>(
      `SELECT anchor_state, count(*)::integer AS count FROM documents WHERE status = 'READY' GROUP BY anchor_state`,
    );
    const documents = Object.fromEntries(counts.rows.map((row) => [row.anchor_state, row.count]));
    const base = { provider: this.config.anchor.provider, chain: this.chain(), documents };
    if (!documentId) return { ...base, rounds: (await listRounds(this.db)).map(describeRound) };
    const document = await getDocument(this.db, documentId);
    if (!document) throw new EngineError('NOT_FOUND', `No document ${documentId}.`);
    const round = await this.db.query<RoundRow>(
      `SELECT ${ROUND_COLUMNS} FROM anchor_rounds WHERE id = (SELECT anchor_round_id FROM documents WHERE id = $1)`,
      [documentId],
    );
    const anchor = (await anchorsFor(this.db, [documentId])).get(documentId) ?? null;
    return {
      ...base,
      rounds: round.rows.map(describeRound),
      document: {
        id: document.id,
        title: document.title,
        root: document.root,
        anchor_state: document.anchor_state,
        anchor,
        explorer_url: anchor ? explorerTxUrl(anchor.chain_id, anchor.tx_hash) : null,
      },
    };
  }

  /** The confirmed on-chain anchor of each document that has one. */
  anchors(documentIds: readonly string[]): Promise<Map<string, Anchor>> {
    return anchorsFor(this.db, documentIds);
  }

  /** The confirmed on-chain anchor of each document that has one, with its explorer link. */
  async documentAnchors(documentIds: readonly string[]): Promise<Map<string, DocumentAnchor>> {
    const anchors = await anchorsFor(this.db, documentIds);
    return new Map(
      [...anchors].map(([id, anchor]) => [
        id,
        {
          chain_id: anchor.chain_id,
          tx_hash: anchor.tx_hash,
          block_number: anchor.block_number,
          explorer_url: explorerTxUrl(anchor.chain_id, anchor.tx_hash),
        },
      ]),
    );
  }

  /**
   * READY documents whose root is not yet confirmed on chain, and since when the oldest has waited:
   * `updated_at` is when it became READY (a waiting document is not written again) or, once in a
   * sent round, when that round was sent. With `SAKSI_ANCHOR=none` nothing is ever anchored, so
   * there is no lag.
   */
  async lag(): Promise<AnchoringLag> {
    const result = await this.db.query<{ waiting: number; oldest: string | null; seconds: number | null }>(
      `SELECT count(*)::integer AS waiting,
              to_char(min(updated_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS oldest,
              extract(epoch FROM now() - min(updated_at))::float8 AS seconds
         FROM documents WHERE status = 'READY' AND anchor_state <> 'ANCHORED' AND root IS NOT NULL`,
    );
    const row = result.rows[0];
    const waiting = row?.waiting ?? 0;
    if (this.config.anchor.provider === 'none' || !row || waiting === 0 || row.seconds === null)
      return { waiting, oldest_waiting_since: null, lag_seconds: null };
    return {
      waiting,
      oldest_waiting_since: row.oldest,
      lag_seconds: Math.max(0, Math.round(row.seconds * 10) / 10),
    };
  }
}

function describeRound(row: RoundRow): AnchorRoundSummary {
  return {
    id: row.id,
    status: row.status,
    chain_id: row.chain_id,
    contract: row.contract,
    batch_root: row.batch_root,
    size: row.size,
    log_size: row.log_size,
    tx_hash: row.tx_hash,
    block_number: row.block_number,
    block_timestamp: row.block_timestamp,
    gas_used: row.gas_used,
    attempts: row.attempts,
    last_error: row.last_error,
    created_at: String(row.created_at),
    explorer_url: row.tx_hash ? explorerTxUrl(row.chain_id, row.tx_hash) : null,
  };
}
