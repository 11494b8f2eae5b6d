/**
 * A PostgreSQL primary and a streaming replica on loopback, and `saksi serve` / `saksi worker`
 * processes on them (docs/scaling.md): for the scale-out test and bench/scale.bench.ts. Clusters run
 * as the `postgres` user when this runs as root (as CI does), like ../shared/scripts/postgres-pgvector.sh.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const PG_BIN = '/usr/lib/postgresql/15/bin';
const VECTOR_CONTROL = '/usr/share/postgresql/15/extension/vector.control';
const SAKSI_BIN = path.resolve(import.meta.dirname, '../bin/saksi.js');

/** Whether PostgreSQL 15 with pgvector is installed, and clusters can be started as its user. */
export function hasPostgres(): boolean {
  return (
    existsSync(path.join(PG_BIN, 'initdb')) &&
    existsSync(path.join(PG_BIN, 'pg_basebackup')) &&
    existsSync(VECTOR_CONTROL) &&
    process.getuid?.() === 0
  );
}

async function asPostgres(command: string, args: string[]): Promise<string> {
  const result = await run('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, command), ...args], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return result.stdout;
}

export interface ReplicatedClusters {
  primaryUrl: string;
  replicaUrl: string;
  /** `pg_ctl stop -m fast` of the replica. */
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  /** Stops both (ignoring one already stopped). */
  stop(): Promise<void>;
}

/** A primary (wal_level=replica) and a replica made with `pg_basebackup -R`, in `directory`. */
export async function startReplicatedClusters(
  directory: string,
  ports: { primary: number; replica: number },
): Promise<ReplicatedClusters> {
  mkdirSync(directory, { recursive: true });
  chownSync(directory, ...(await postgresIds()));
  const primaryDir = path.join(directory, 'primary');
  const replicaDir = path.join(directory, 'replica');
  const options = (port: number) =>
    [
      `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1`,
      // A test cluster: no durability needed, and a small footprint on a shared machine.
      '-c fsync=off -c full_page_writes=off -c shared_buffers=64MB -c max_connections=100',
      '-c wal_level=replica -c max_wal_senders=4',
    ].join(' ');
  await asPostgres('initdb', [
    '-D',
    primaryDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
  ]);
  const start = (dir: string, port: number, log: string) =>
    asPostgres('pg_ctl', ['-D', dir, '-l', path.join(directory, log), '-w', '-o', options(port), 'start']);
  await start(primaryDir, ports.primary, 'primary.log');
  const primaryUrl = `postgres://postgres@127.0.0.1:${ports.primary}/postgres`;
  await run(path.join(PG_BIN, 'psql'), [primaryUrl, '-qc', 'CREATE EXTENSION IF NOT EXISTS vector']);
  await asPostgres('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(ports.primary),
    '-U',
    'postgres',
    '-D',
    replicaDir,
    '-R',
    '-X',
    'stream',
  ]);
  await start(replicaDir, ports.replica, 'replica.log');
  const replicaUrl = `postgres://postgres@127.0.0.1:${ports.replica}/postgres`;
  let replicaRunning = true;
  const stopCluster = (dir: string) => asPostgres('pg_ctl', ['-D', dir, '-m', 'fast', '-w', 'stop']);
  return {
    primaryUrl,
    replicaUrl,
    async stopReplica() {
      await stopCluster(replicaDir);
      replicaRunning = false;
    },
    async startReplica() {
      await start(replicaDir, ports.replica, 'replica.log');
      replicaRunning = true;
    },
    async stop() {
      if (replicaRunning) await stopCluster(replicaDir).catch(() => undefined);
      await stopCluster(primaryDir).catch(() => undefined);
    },
  };
}

async function postgresIds(): Promise<[number, number]> {
  const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
  const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
  return [uid, gid];
}

export interface SaksiProcess {
  child: ChildProcess;
  /** The server's base URL (serve only). */
  url: string;
  output(): string;
  /** SIGTERM, then waits for the exit (SIGKILL after 10 s). */
  stop(): Promise<void>;
}

/**
 * Starts `saksi serve --port 0 --no-demo` (resolves once it listens) or `saksi worker` (once it
 * waits for jobs), with `env` on top of this process's environment (its DATABASE_URL removed).
 */
export async function startSaksi(
  command: 'serve' | 'worker',
  env: Record<string, string>,
  options: { cwd: string; timeoutMs?: number },
): Promise<SaksiProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const name of ['DATABASE_URL', 'DATABASE_READ_URL', 'SAKSI_TEST_DATABASE_URL']) delete childEnv[name];
  Object.assign(childEnv, env);
  const args = command === 'serve' ? ['serve', '--port', '0', '--no-demo'] : ['worker', '--poll-ms', '50'];
  const child = spawn(process.execPath, [SAKSI_BIN, ...args], {
    cwd: options.cwd,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (output += text));
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (output += text));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = command === 'serve' ? /^Listening on (\S+)$/m : /waiting for jobs/;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (!ready.test(output)) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`saksi ${command} did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    child,
    url: command === 'serve' ? ready.exec(output)![1]! : '',
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
