/** The replica reader's routing: caught up, lagging, down, not a replica, and a failed read. */
import { describe, expect, it } from 'vitest';
import type { Queryable, QueryResult, Transactional } from './database.js';
import { createReplicaReader, parseLsn } from './replica.js';

interface FakeServer extends Transactional {
  end(): Promise<void>;
  /** Statements run, the probes' included. */
  statements: string[];
  state: {
    lsn?: string;
    recovery?: boolean;
    replay?: string | null;
    replayAge?: number | null;
    down?: boolean;
  };
}

function fakeServer(name: string, state: FakeServer['state']): FakeServer {
  const statements: string[] = [];
  const query = async <T>(sql: string): Promise<QueryResult<T>> => {
    statements.push(sql);
    if (state.down)
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5433'), { code: 'ECONNREFUSED' });
    if (sql.includes('pg_current_wal_lsn')) return { rows: [{ lsn: state.lsn } as T], rowCount: 1 };
    if (sql.includes('pg_is_in_recovery')) {
      return {
        rows: [{ recovery: state.recovery, replay: state.replay, replay_age: state.replayAge } as T],
        rowCount: 1,
      };
    }
    if (sql === 'SELECT bad') throw Object.assign(new Error('syntax error'), { code: '42601' });
    return { rows: [{ from: name } as T], rowCount: 1 };
  };
  const server: FakeServer = {
    statements,
    state,
    query,
    exec: async (sql) => {
      await query(sql);
    },
    transaction: (work: (tx: Queryable) => Promise<unknown>) => work(server) as never,
    end: async () => {},
  };
  return server;
}

const from = async (reader: Queryable) => (await reader.query<{ from: string }>('SELECT 1')).rows[0]!.from;

describe('createReplicaReader', () => {
  it('reads from a replica that has replayed what the primary wrote', async () => {
    const primary = fakeServer('primary', { lsn: '0/3000060' });
    const replica = fakeServer('replica', { recovery: true, replay: '0/3000060', replayAge: 120 });
    const reader = createReplicaReader(primary, replica, { maxLagSeconds: 5 });
    expect(await from(reader)).toBe('replica');
    expect(await reader.status()).toMatchObject({
      state: 'ok',
      serving_reads: true,
      lag_seconds: 0,
      lag_bytes: 0,
    });
    expect(await reader.transaction((tx) => from(tx))).toBe('replica');
  });

  it('reads from the primary while the replica lags beyond the bound, and says how far', async () => {
    const primary = fakeServer('primary', { lsn: '0/4000000' });
    const replica = fakeServer('replica', { recovery: true, replay: '0/3000000', replayAge: 12.34 });
    const reader = createReplicaReader(primary, replica, { maxLagSeconds: 5 });
    expect(await from(reader)).toBe('primary');
    expect(await reader.status()).toMatchObject({
      state: 'lagging',
      serving_reads: false,
      lag_seconds: 12.3,
      lag_bytes: 0x1000000,
    });
  });

  it('falls back to the primary when the replica is down, and when it is not in recovery', async () => {
    const primary = fakeServer('primary', { lsn: '0/10' });
    const down = createReplicaReader(primary, fakeServer('replica', { down: true }), { maxLagSeconds: 5 });
    expect(await from(down)).toBe('primary');
    const status = await down.status();
    expect(status).toMatchObject({ state: 'unreachable', serving_reads: false });
    expect(status.error).toContain('ECONNREFUSED');
    const promoted = createReplicaReader(primary, fakeServer('replica', { recovery: false, replay: null }), {
      maxLagSeconds: 5,
    });
    expect(await from(promoted)).toBe('primary');
    expect((await promoted.status()).state).toBe('not_replica');
  });

  it('runs a read the replica failed again on the primary, and stops using a replica that went down', async () => {
    const primary = fakeServer('primary', { lsn: '0/10' });
    const replica = fakeServer('replica', { recovery: true, replay: '0/10', replayAge: 0 });
    const reader = createReplicaReader(primary, replica, { maxLagSeconds: 5, checkIntervalMs: 60_000 });
    expect(await from(reader)).toBe('replica');
    replica.state.down = true;
    expect(await from(reader)).toBe('primary');
    expect((await reader.status()).state).toBe('unreachable');
    const before = replica.statements.length;
    expect(await from(reader)).toBe('primary');
    expect(replica.statements.length).toBe(before);
    // A statement's own error is the primary's to report, and does not mark the replica down.
    const healthy = createReplicaReader(primary, fakeServer('replica', { recovery: true, replay: '0/10' }), {
      maxLagSeconds: 5,
    });
    await expect(healthy.query('SELECT bad')).rejects.toMatchObject({ code: '42601' });
    expect((await healthy.status()).state).toBe('ok');
  });
});

describe('parseLsn', () => {
  it('reads both halves as one position', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('1/A')).toBe((1n << 32n) + 10n);
    expect(parseLsn('FFFFFFFF/FFFFFFFF')).toBe((1n << 64n) - 1n);
    expect(parseLsn('nonsense')).toBe(0n);
  });
});
