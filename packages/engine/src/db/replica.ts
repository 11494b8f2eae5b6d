/**
 * Reads from a PostgreSQL streaming replica (`DATABASE_READ_URL`, docs/scaling.md "Read replica").
 * The replica serves reads while it answers and keeps up: a probe, at most once per
 * `checkIntervalMs`, compares the primary's WAL position with the replica's replay position. A replica
 * that does not answer, is not in recovery, or lags more than `maxLagSeconds` behind serves nothing:
 * reads go to the primary until a later probe finds it well again. A read the replica fails is run
 * again on the primary, so a replica going down costs a retry, never an error.
 */
import type { Queryable, QueryResult, Transactional } from './queryable.js';

export type ReplicaState = 'ok' | 'lagging' | 'unreachable' | 'not_replica' | 'unknown';

/** The replica as health reports it (docs/api.md, "Meta"). */
export interface ReplicaStatus {
  state: ReplicaState;
  /** Whether reads go to the replica now (false: they go to the primary). */
  serving_reads: boolean;
  /** Seconds the replica's replay is behind the primary (0 when it has replayed everything seen). */
  lag_seconds: number | null;
  /** WAL bytes the replica has still to replay, as of the last probe. */
  lag_bytes: number | null;
  max_lag_seconds: number;
  checked_at: string | null;
  /** Why it does not serve, in a few words (never a connection string). */
  error: string | null;
}

export interface ReplicaOptions {
  /** Reads stop going to a replica further behind than this (seconds). */
  maxLagSeconds: number;
  /** The replica is probed at most this often (ms). */
  checkIntervalMs?: number;
}

interface Pool extends Transactional {
  end(): Promise<void>;
}

export interface ReplicaReader extends Transactional {
  status(): Promise<ReplicaStatus>;
  close(): Promise<void>;
}

/** A reader over `replica` that falls back to `primary`. */
export function createReplicaReader(
  primary: Transactional,
  replica: Pool,
  options: ReplicaOptions,
): ReplicaReader {
  const checkIntervalMs = options.checkIntervalMs ?? 1000;
  let status: ReplicaStatus = {
    state: 'unknown',
    serving_reads: false,
    lag_seconds: null,
    lag_bytes: null,
    max_lag_seconds: options.maxLagSeconds,
    checked_at: null,
    error: null,
  };
  let checkedAt = 0;
  let probing: Promise<void> | undefined;

  const set = (state: ReplicaState, values: Partial<ReplicaStatus> = {}) => {
    status = {
      state,
      serving_reads: state === 'ok',
      lag_seconds: null,
      lag_bytes: null,
      max_lag_seconds: options.maxLagSeconds,
      checked_at: new Date().toISOString(),
      error: null,
      ...values,
    };
    checkedAt = Date.now();
  };

  const probe = async (): Promise<void> => {
    let primaryLsn: bigint;
    try {
      const row = (await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0];
      primaryLsn = parseLsn(row?.lsn ?? '0/0');
    } catch {
      // The primary's own trouble is health's database check; the replica cannot be judged now.
      set('unknown', { error: 'the primary did not answer' });
      return;
    }
    try {
      const row = (
        await replica.query<{ recovery: boolean; replay: string | null; replay_age: number | null }>(
          `SELECT pg_is_in_recovery() AS recovery, pg_last_wal_replay_lsn()::text AS replay,
                  extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8 AS replay_age`,
        )
      ).rows[0];
      if (!row?.recovery) {
        set('not_replica', {
          error: 'DATABASE_READ_URL is not a server in recovery (not a streaming replica)',
        });
        return;
      }
      const replay = parseLsn(row.replay ?? '0/0');
      const behind = primaryLsn > replay ? Number(primaryLsn - replay) : 0;
      // Caught up with the primary as of this probe: no lag, however long ago the last transaction was.
      const lagSeconds = behind === 0 ? 0 : Math.max(0, Math.round((row.replay_age ?? 0) * 10) / 10);
      const lagging = lagSeconds > options.maxLagSeconds;
      set(lagging ? 'lagging' : 'ok', {
        lag_seconds: lagSeconds,
        lag_bytes: behind,
        error: lagging ? `replay is ${lagSeconds} s behind (bound ${options.maxLagSeconds} s)` : null,
      });
    } catch (error) {
      set('unreachable', { error: describe(error) });
    }
  };

  const refresh = (): Promise<void> => {
    probing ??= probe().finally(() => {
      probing = undefined;
    });
    return probing;
  };

  /** Probes when the last probe is stale; waits only when there has never been one. */
  const current = async (): Promise<ReplicaStatus> => {
    if (checkedAt === 0) await refresh();
    else if (Date.now() - checkedAt >= checkIntervalMs) void refresh();
    return status;
  };

  const read = async <T>(run: (target: Transactional) => Promise<T>): Promise<T> => {
    if (!(await current()).serving_reads) return run(primary);
    try {
      return await run(replica);
    } catch (error) {
      if (isConnectionError(error)) set('unreachable', { error: describe(error) });
      // Reads are safe to repeat: the primary answers this one, and its error (if any) is the real one.
      return run(primary);
    }
  };

  return {
    query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> {
      return read((target) => target.query<T>(sql, params));
    },
    exec(sql: string) {
      return read((target) => target.exec(sql));
    },
    transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      return read((target) => target.transaction(work));
    },
    async status() {
      // Health asks for the replica's state as of now, not as of the last read.
      if (Date.now() - checkedAt >= checkIntervalMs) await refresh();
      return status;
    },
    close: () => replica.end(),
  };
}

/** A WAL position `X/Y` (two hex halves) as one number. */
export function parseLsn(value: string): bigint {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(value);
  if (!match) return 0n;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** Whether an error says the server is gone, rather than that the statement was wrong. */
function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return true;
  // SQLSTATE classes 08 (connection exception) and 57 (operator intervention: shutdown, cannot connect now).
  if (/^[0-9A-Z]{5}$/.test(code)) return code.startsWith('08') || code.startsWith('57');
  return true; // ECONNREFUSED, ETIMEDOUT and the like
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  // Connection strings never reach a message of pg; keep it short anyway.
  return `${typeof code === 'string' ? `${code}: ` : ''}${message}`.slice(0, 200);
}
