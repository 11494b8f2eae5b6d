/**
 * One database interface over PGlite (embedded Postgres, the default) and PostgreSQL (`DATABASE_URL`).
 * Both run the same SQL and the same migrations (docs/architecture.md, "Storage").
 */
import { mkdirSync, rmSync } from 'node:fs';
import { EngineError } from '../errors.js';
import { seedFromTemplate } from './pglite-template.js';
import type { Queryable, Transactional } from './queryable.js';
import { createReplicaReader, type ReplicaStatus } from './replica.js';

export type { Queryable, QueryResult, Transactional } from './queryable.js';

/**
 * Whether `db` runs its statements in PostgreSQL's own processes (not on this process's thread, as
 * PGlite does). A handle that does not say (a transaction's) counts as PGlite, the cautious side.
 */
export function runsOnPostgres(db: Queryable): boolean {
  return (db as Partial<Database>).kind === 'postgres';
}

export interface Database extends Transactional {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Where reads that may trail the latest writes by a moment go (retrieval): the streaming replica of
   * `DATABASE_READ_URL` while it answers and keeps up, otherwise this database itself.
   */
  readonly reader: Transactional;
  /** The replica's state for health, or null when there is none. */
  replicaStatus(): Promise<ReplicaStatus> | null;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent, PGlite stores its data in `dataDir`. */
  databaseUrl?: string;
  /** PGlite data directory; omit for an in-memory PGlite (tests). */
  dataDir?: string;
  /** A streaming replica of `databaseUrl` for reads (docs/scaling.md, "Read replica"). */
  readUrl?: string;
  /** Reads leave a replica further behind than this (seconds; default 5). */
  maxReplicaLagSeconds?: number;
  /** `application_name` of the connections, so an operator can tell the processes apart. */
  applicationName?: string;
  /**
   * PGlite only: the migrations the caller applies next (`loadMigrations()`). With them a new data
   * directory is unpacked from the template holding them, not made by initdb (`pglite-template.ts`).
   */
  migrations?: readonly { version: number; name: string; sql: string }[];
  /**
   * PGlite only: PostgreSQL's `shared_buffers` (`16MB`, `128MB`; default PGlite's, 128 MB). The pages
   * are memory of this process; a smaller pool suits a command that opens the database for one task.
   */
  sharedBuffers?: string;
}

/** Opens the configured database and makes sure the `vector` extension exists. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.readUrl && !options.databaseUrl)
    throw new EngineError(
      'CONFIG_INVALID',
      'DATABASE_READ_URL needs DATABASE_URL: a replica reads for a primary.',
    );
  const database = options.databaseUrl
    ? await openPostgres(options.databaseUrl, options)
    : await openPglite(options);
  await database.exec('CREATE EXTENSION IF NOT EXISTS vector');
  return database;
}

async function openPglite(options: DatabaseOptions): Promise<Database> {
  const { dataDir, sharedBuffers, migrations } = options;
  if (sharedBuffers !== undefined && !/^[1-9]\d*(kB|MB|GB)$/.test(sharedBuffers))
    throw new EngineError(
      'CONFIG_INVALID',
      `shared_buffers must be a size such as 16MB, not ${sharedBuffers}.`,
    );
  const { PGlite } = await import('@electric-sql/pglite');
  const { vector } = await import('@electric-sql/pglite-pgvector');
  // A new data directory is unpacked from the template rather than made by PGlite's initdb, which
  // runs a second PGlite in this process (pglite-template.ts).
  const seeded = dataDir && migrations ? await seedFromTemplate(dataDir, migrations) : false;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const create = () =>
    PGlite.create({
      ...(dataDir ? { dataDir } : {}),
      extensions: { vector },
      ...(sharedBuffers
        ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`] }
        : {}),
    });
  let db: InstanceType<typeof PGlite>;
  try {
    try {
      db = await create();
    } catch (error) {
      if (!seeded || !dataDir) throw error;
      // PostgreSQL refused the directory made from the template: make it afresh with initdb.
      rmSync(dataDir, { recursive: true, force: true });
      mkdirSync(dataDir, { recursive: true });
      db = await create();
    }
  } catch (cause) {
    throw new EngineError('DATABASE_ERROR', `Cannot open the embedded database in ${dataDir ?? 'memory'}.`, {
      cause,
    });
  }
  // PGlite is one connection: queue transactions so concurrent callers never interleave inside one.
  let queue: Promise<unknown> = Promise.resolve();
  const wrap = (q: { query: typeof db.query; exec: typeof db.exec }): Queryable => ({
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const result = await q.query<T>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  });
  const direct = wrap(db);
  const queued: Queryable = {
    query: (sql, params) => {
      const run = queue.then(() => direct.query(sql, params));
      queue = run.catch(() => undefined);
      return run as never;
    },
    exec: (sql) => {
      const run = queue.then(() => direct.exec(sql));
      queue = run.catch(() => undefined);
      return run;
    },
  };
  const database: Database = {
    kind: 'pglite',
    ...queued,
    get reader() {
      return database;
    },
    replicaStatus: () => null,
    transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      const run = queue.then(() => db.transaction((tx) => work(wrap(tx))));
      queue = run.catch(() => undefined);
      return run as Promise<T>;
    },
    close: async () => {
      await queue;
      await db.close();
    },
  };
  return database;
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const pg = (await import('pg')).default;
  // Integers of int8 come back as strings by default; counts and sizes here fit in a double.
  pg.types.setTypeParser(20, (value: string) => Number(value));
  const applicationName = options.applicationName ?? 'saksi';
  const pool = new pg.Pool({ connectionString: url, max: 10, application_name: applicationName });
  // An idle connection the server closes (restart, failover, a dropped database) must not crash the
  // process: the pool replaces it on the next query. Say so unless we are closing anyway.
  let closing = false;
  pool.on('error', (error: Error) => {
    if (!closing) console.error(`[saksi] an idle database connection failed: ${error.message}`);
  });
  try {
    const client = await pool.connect();
    client.release();
  } catch (cause) {
    await pool.end().catch(() => undefined);
    throw new EngineError(
      'DATABASE_ERROR',
      'Cannot connect to PostgreSQL at DATABASE_URL; is it running and reachable?',
      {
        cause,
      },
    );
  }
  const wrap = (client: {
    query: (sql: string, params?: unknown[]) => Promise<{ rows: unknown[]; rowCount: number | null }>;
  }): Queryable => ({
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const result = await client.query(sql, params as unknown[]);
      return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  });
  /** `work` in one transaction on a client of `from`. */
  const inTransaction = async <T>(from: typeof pool, work: (tx: Queryable) => Promise<T>): Promise<T> => {
    const client = await from.connect();
    try {
      await client.query('BEGIN');
      const result = await work(wrap(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
  let replica: ReturnType<typeof createReplicaReader> | undefined;
  const database: Database = {
    kind: 'postgres',
    ...wrap(pool),
    get reader() {
      return replica ?? database;
    },
    replicaStatus: () => replica?.status() ?? null,
    transaction: (work) => inTransaction(pool, work),
    close: async () => {
      closing = true;
      await replica?.close();
      await pool.end();
    },
  };
  if (options.readUrl) {
    // A replica that is down must not hold a read for long: connecting gives up after 2 s.
    const replicaPool = new pg.Pool({
      connectionString: options.readUrl,
      max: 10,
      application_name: `${applicationName}-read`,
      connectionTimeoutMillis: 2000,
    });
    replicaPool.on('error', (error: Error) => {
      if (!closing) console.error(`[saksi] an idle replica connection failed: ${error.message}`);
    });
    replica = createReplicaReader(
      database,
      {
        ...wrap(replicaPool),
        transaction: (work) => inTransaction(replicaPool, work),
        end: () => replicaPool.end(),
      },
      { maxLagSeconds: options.maxReplicaLagSeconds ?? 5 },
    );
  }
  return database;
}
