/**
 * What `GET /api/v1/health` reports (docs/api.md, "Meta"): the database, the transparency log, the
 * anchor provider, the chain RPC and the anchoring lag.
 */

import { toHex } from '@saksi/proof';
import type { Anchoring, AnchoringLag } from './anchor/anchoring.js';
import { createRpcProbe, type RpcProbe, type RpcProbeError } from './anchor/rpc-probe.js';
import type { SaksiConfig } from './config.js';
import type { Database } from './db/database.js';
import type { ReplicaStatus } from './db/replica.js';
import type { SigningKeys } from './keys.js';
import type { TransparencyLog } from './log/transparency-log.js';

export const ENGINE_VERSION = '0.1.0';

/** `GET /api/v1/health` (docs/api.md, "Meta"). */
export interface Health {
  status: 'ok' | 'degraded';
  version: string;
  database: {
    kind: 'pglite' | 'postgres';
    /** Whether a query answered. */
    ok: boolean;
    name: 'PGlite' | 'PostgreSQL';
    /** The health queries' time, when they answered. */
    latency_ms: number | null;
    /**
     * The read replica (`DATABASE_READ_URL`), or null without one: its state, whether it serves reads
     * now (otherwise they go to the primary) and its lag.
     */
    replica: ReplicaStatus | null;
  };
  log: {
    origin: string;
    size: number;
    /** The log's note signer: its key ID (hex) and whether it is the key the trusted keys publish. */
    signer: { loaded: boolean; key_id: string };
  };
  anchor: { provider: string; running: boolean; chain_id: number | null; contract: string | null };
  /** The chain's JSON-RPC endpoint; `none` when anchoring is off, `not_started` before anvil runs. */
  chain: {
    provider: 'local' | 'evm' | 'none';
    state: 'reachable' | 'unreachable' | 'not_started' | 'none';
    block_number: number | null;
    latency_ms: number | null;
    /** When the (cached) probe was made. */
    checked_at: string | null;
    error: RpcProbeError | null;
  };
  /** READY documents not yet anchored; the oldest one's wait (null when none waits or anchoring is off). */
  anchoring: AnchoringLag;
}

/** The parts of an engine its health is read from. */
export interface HealthSources {
  db: Database;
  config: SaksiConfig;
  keys: SigningKeys;
  log: TransparencyLog;
  anchoring: Anchoring;
}

export class HealthCheck {
  /** The chain RPC's state, probed at most once per few seconds (anchor/rpc-probe.ts). */
  private readonly rpcProbe: RpcProbe = createRpcProbe();

  constructor(private readonly sources: HealthSources) {}

  /**
   * The database (its kind, and whether a query answers), the log (its size and whether the signer
   * in memory is the key verifiers pin), the anchor provider, the chain RPC (reachable or not, probed
   * with a short timeout and cached; never its URL) and the anchoring lag. `status` is `degraded`
   * when the database does not answer, a configured chain's RPC does not, or a read replica serves
   * no reads.
   */
  async report(): Promise<Health> {
    const { db, config, keys, log, anchoring } = this.sources;
    const started = performance.now();
    let databaseOk = true;
    let size = 0;
    let lag: AnchoringLag = { waiting: 0, oldest_waiting_since: null, lag_seconds: null };
    try {
      size = await log.size(db);
      lag = await anchoring.lag();
    } catch {
      databaseOk = false;
    }
    const latency = Math.round((performance.now() - started) * 10) / 10;
    const replica = await db.replicaStatus();
    const chain = anchoring.chain();
    const rpc = await this.chainHealth();
    const logKeyId = toHex(keys.logSigner.keyId);
    const pinned = keys.trusted.logs.find((pinnedLog) => pinnedLog.origin === log.origin)?.vkey;
    return {
      status:
        databaseOk && rpc.state !== 'unreachable' && (replica === null || replica.serving_reads)
          ? 'ok'
          : 'degraded',
      version: ENGINE_VERSION,
      database: {
        kind: db.kind,
        ok: databaseOk,
        name: db.kind === 'pglite' ? 'PGlite' : 'PostgreSQL',
        latency_ms: databaseOk ? latency : null,
        replica,
      },
      log: {
        origin: log.origin,
        size,
        signer: { loaded: pinned?.split('+')[1] === logKeyId, key_id: logKeyId },
      },
      anchor: {
        provider: config.anchor.provider,
        running: chain !== null,
        chain_id: chain?.chain_id ?? null,
        contract: chain?.contract ?? null,
      },
      chain: rpc,
      anchoring: lag,
    };
  }

  /**
   * The chain RPC: the running provider's endpoint, or the configured one of `evm` when the provider
   * is not running; `local` has none until anvil is started, `none` never has one.
   */
  private async chainHealth(): Promise<Health['chain']> {
    const { config, anchoring } = this.sources;
    const provider = config.anchor.provider;
    const none = { block_number: null, latency_ms: null, checked_at: null, error: null };
    if (provider === 'none') return { provider, state: 'none', ...none };
    const rpcUrl = anchoring.rpcUrl() ?? (provider === 'evm' ? config.anchor.rpcUrl : undefined);
    if (rpcUrl === undefined) return { provider, state: 'not_started', ...none };
    const result = await this.rpcProbe.check(rpcUrl);
    return {
      provider,
      state: result.reachable ? 'reachable' : 'unreachable',
      block_number: result.block_number,
      latency_ms: result.latency_ms,
      checked_at: result.checked_at,
      error: result.error,
    };
  }
}
