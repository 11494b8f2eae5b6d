/**
 * Helpers of `hostile.bench.ts`: the compiled CLI as a child process with its peak RSS, a running
 * `saksi serve` with its memory read from /proc, an open-loop `/api/v1/health` poller, and the
 * database check for partial documents.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../packages/engine/src/config.js';
import { Engine } from '../packages/engine/src/engine.js';
import { nowMs, repoRoot } from './engine-harness.js';

export const saksiBin = path.join(repoRoot, 'packages/cli/bin/saksi.js');
const TIME = '/usr/bin/time';

/** A stack trace or a source position in text a user sees. */
export const STACK_TRACE = /\n\s+at [^\n]+:\d+|\.ts:\d+:\d+|node_modules\//;

/** Builds the packages the compiled CLI runs (fast when nothing changed). */
export function buildCli(): void {
  execFileSync(
    path.join(repoRoot, 'node_modules/.bin/tsc'),
    [
      '-b',
      'packages/proof',
      'packages/conformance',
      'contracts',
      'packages/engine',
      'packages/attack',
      'packages/server',
      'packages/client',
      'packages/cli',
    ],
    { cwd: repoRoot, stdio: 'inherit' },
  );
}

// ---------------------------------------------------------------------------------------------
// /proc

/** `VmRSS` and `VmHWM` of a process in MB (null once it is gone). */
export function processMemory(pid: number): { rss: number; hwm: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) =>
      Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) / 1024;
    return { rss: field('VmRSS'), hwm: field('VmHWM') };
  } catch {
    return null;
  }
}

/** Resets a process's peak RSS (`VmHWM`) to its current RSS (proc(5) clear_refs, value 5). */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * The peak RSS of `pid` from now on: from `VmHWM` after a reset when the kernel allows it, else the
 * largest `VmRSS` seen polling every 20 ms (which can miss a short spike).
 */
export function watchPeak(pid: number): { stop(): number } {
  const exact = resetPeak(pid);
  let peak = processMemory(pid)?.rss ?? 0;
  const timer = setInterval(() => {
    const memory = processMemory(pid);
    if (memory) peak = Math.max(peak, exact ? memory.hwm : memory.rss);
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      const memory = processMemory(pid);
      if (memory) peak = Math.max(peak, exact ? memory.hwm : memory.rss);
      return peak;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The CLI as a child process

export interface CliRun {
  /** `ingested`, the error code the CLI printed, `crash` (no JSON line, a signal, another exit status) or `timeout`. */
  outcome: string;
  exitCode: number | null;
  signal: string | null;
  seconds: number;
  /** Peak RSS of the child in MB (`/usr/bin/time -f %M`, else `VmHWM` polled). */
  peakMb: number;
  document: { id: string; status: string; chunk_count: number; original_sha256: string } | null;
  deduplicated: boolean;
  /** A stack trace or source position in the output. */
  stack: boolean;
  /** The end of stderr (and of stdout when no JSON line was printed), for crashes. */
  detail: string;
}

/**
 * `saksi ingest <file> --collection <c> --json --no-anchor` with the compiled CLI in its own process
 * group; killed (the whole group) after `timeoutMs`.
 */
export async function runCliIngest(
  file: string,
  options: { dataDir: string; collection: string; timeoutMs: number; env?: Record<string, string> },
): Promise<CliRun> {
  const timeFile = `${options.dataDir}.time`;
  rmSync(timeFile, { force: true });
  const useTime = existsSync(TIME);
  const args = [saksiBin, 'ingest', file, '--collection', options.collection, '--json', '--no-anchor'];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SAKSI_DATA_DIR: options.dataDir,
    SAKSI_ANCHOR: 'none',
    NO_COLOR: '1',
    ...options.env,
  };
  delete env['DATABASE_URL'];
  const started = nowMs();
  const child = track(
    useTime
      ? spawn(TIME, ['-f', '%M', '-o', timeFile, process.execPath, ...args], {
          env,
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
        })
      : spawn(process.execPath, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  const polled = useTime ? null : watchPeak(child.pid!);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child);
  }, options.timeoutMs);
  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
    (resolve) =>
      child.once('exit', (exitCode, exitSignal) => resolve({ code: exitCode, signal: exitSignal })),
  );
  clearTimeout(timer);
  const seconds = (nowMs() - started) / 1000;
  let peakMb = polled?.stop() ?? Number.NaN;
  if (useTime && existsSync(timeFile)) {
    const kilobytes = Number(/(\d+)\s*$/.exec(readFileSync(timeFile, 'utf8'))?.[1]);
    if (Number.isFinite(kilobytes)) peakMb = kilobytes / 1024;
  }
  // /usr/bin/time passes the child's status on: a signal shows as "Command terminated by signal N".
  const killedBy = /terminated by signal (\d+)/.exec(
    existsSync(timeFile) ? readFileSync(timeFile, 'utf8') : '',
  )?.[1];
  const line = stdout
    .split('\n')
    .map((text) => text.trim())
    .filter((text) => text.startsWith('{"file"'))
    .pop();
  let parsed:
    | { ok: boolean; deduplicated?: boolean; document?: CliRun['document']; error?: { code: string } }
    | undefined;
  try {
    parsed = line ? JSON.parse(line) : undefined;
  } catch {
    parsed = undefined;
  }
  const stack = STACK_TRACE.test(stdout) || STACK_TRACE.test(stderr);
  let outcome: string;
  if (timedOut) outcome = 'timeout';
  else if (killedBy !== undefined || signal !== null || parsed === undefined || (code !== 0 && code !== 1))
    outcome = 'crash';
  else if (parsed.ok) outcome = 'ingested';
  else outcome = parsed.error?.code ?? 'crash';
  return {
    outcome,
    exitCode: code,
    signal: signal ?? (killedBy !== undefined ? `signal ${killedBy}` : null),
    seconds,
    peakMb,
    document: parsed?.ok ? (parsed.document ?? null) : null,
    deduplicated: parsed?.deduplicated === true,
    stack,
    detail: (parsed === undefined ? `${stdout.slice(-300)}\n` : '') + stderr.slice(-600),
  };
}

/** Children still running: killed (their whole process group) when the bench exits, even on an error. */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) killGroup(child);
});

function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

// ---------------------------------------------------------------------------------------------
// saksi serve

export interface RunningServe {
  url: string;
  pid: number;
  child: ChildProcess;
  output: { stdout: string; stderr: string };
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
  stop(): Promise<void>;
}

/** Preloaded into the server: reports event-loop turns over 20 ms on stderr (see the file). */
const LOOP_MONITOR = pathToFileURL(path.join(repoRoot, 'bench/loop-monitor.mjs')).href;

/** Turns of the event loop `loop-monitor.mjs` reported in `stderr` (those over 20 ms). */
export interface Stalls {
  /** The longest turn, in ms (0 when none was reported). */
  longest: number;
  /** The longest turn during which the process ran for at least 80 % of it: held by its own work. */
  longestBusy: number;
  /**
   * The longest turn during which the event loop's own thread ran for at least 80 % of it (Linux;
   * -1 elsewhere): held by work on that thread, not by the verification threads beside it.
   */
  longestHeld?: number;
}

const STALL = /^saksi-bench-stall (\d+) (\d+) \d+(?: (-?\d+))?$/gm;

export function stallsOf(stderr: string): Stalls {
  let longest = 0;
  let longestBusy = 0;
  let longestHeld = 0;
  for (const match of stderr.matchAll(STALL)) {
    const held = Number(match[1]);
    longest = Math.max(longest, held);
    if (Number(match[2]) >= 0.8 * held) longestBusy = Math.max(longestBusy, held);
    const thread = match[3] === undefined ? -1 : Number(match[3]);
    if (thread < 0) longestHeld = -1;
    else if (longestHeld >= 0 && thread >= 0.8 * held) longestHeld = Math.max(longestHeld, held);
  }
  return { longest, longestBusy, longestHeld };
}

/** `stderr` without the stall reports of `loop-monitor.mjs`. */
export function withoutStalls(stderr: string): string {
  return stderr.replace(/^saksi-bench-stall \d+ \d+ \d+(?: -?\d+)?\n/gm, '');
}

/** `saksi serve --port 0 --no-demo` (compiled CLI, own process group); resolves once it listens. */
export async function startServe(dataDir: string, env: Record<string, string> = {}): Promise<RunningServe> {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    SAKSI_DATA_DIR: dataDir,
    SAKSI_ANCHOR: 'none',
    NO_COLOR: '1',
    ...env,
  };
  delete childEnv['DATABASE_URL'];
  delete childEnv['PORT'];
  const child = track(
    spawn(process.execPath, ['--import', LOOP_MONITOR, saksiBin, 'serve', '--port', '0', '--no-demo'], {
      env: childEnv,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const output = { stdout: '', stderr: '' };
  child.stdout!.setEncoding('utf8').on('data', (text: string) => (output.stdout += text));
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (output.stderr += text));
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      done = true;
      resolve({ code, signal });
    }),
  );
  const deadline = nowMs() + 120_000;
  for (;;) {
    const match = /Listening on (http:\/\/[^\s]+)/.exec(output.stdout);
    if (match) {
      return {
        url: match[1]!,
        pid: child.pid!,
        child,
        output,
        exited,
        alive: () => !done,
        async stop() {
          if (done) return;
          child.kill('SIGTERM');
          const timer = setTimeout(() => killGroup(child), 30_000);
          await exited;
          clearTimeout(timer);
        },
      };
    }
    if (done || nowMs() > deadline) {
      killGroup(child);
      throw new Error(`saksi serve did not start:\n${output.stdout}\n${output.stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** An API key with every scope, made with `saksi api-keys create` (before the server opens the database). */
export function createApiKeyWithCli(dataDir: string): string {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SAKSI_DATA_DIR: dataDir,
    SAKSI_ANCHOR: 'none',
    NO_COLOR: '1',
  };
  delete env['DATABASE_URL'];
  const output = execFileSync(
    process.execPath,
    [saksiBin, 'api-keys', 'create', '--name', 'hostile-bench', '--scopes', 'read,ingest,admin', '--json'],
    { env, encoding: 'utf8' },
  );
  return (JSON.parse(output) as { key: string }).key;
}

// ---------------------------------------------------------------------------------------------
// Health polling

/**
 * Polls `GET /api/v1/health` on an open-loop schedule (one request every `intervalMs`, whatever the
 * answers). At most `maxInFlight` requests are outstanding; a poll due while that many wait is sent
 * when one returns. Latency runs from the scheduled time, so a frozen server shows as long latencies
 * rather than as missing samples; a poll answered with anything but 200, or whose connection the
 * server dropped, is a failure (its latency still counts, up to the failure).
 */
export function pollHealth(
  url: string,
  intervalMs = 50,
  maxInFlight = 64,
): { stop(): Promise<{ latencies: number[]; failures: number }> } {
  const latencies: number[] = [];
  let failures = 0;
  const backlog: number[] = [];
  let inFlight = 0;
  let stopped = false;
  const start = nowMs();
  let sent = 0;
  const send = (scheduled: number) => {
    inFlight++;
    fetch(`${url}/api/v1/health`)
      .then(async (response) => {
        await response.arrayBuffer();
        if (response.status !== 200) failures++;
      })
      .catch(() => {
        failures++;
      })
      .finally(() => {
        inFlight--;
        latencies.push(nowMs() - scheduled);
        const next = backlog.shift();
        if (next !== undefined) send(next);
      });
  };
  const timer = setInterval(
    () => {
      const due = start + sent * intervalMs;
      if (nowMs() < due) return;
      sent++;
      if (inFlight < maxInFlight) send(due);
      else backlog.push(due);
    },
    Math.max(1, Math.floor(intervalMs / 5)),
  );
  return {
    async stop() {
      if (!stopped) {
        stopped = true;
        clearInterval(timer);
      }
      const deadline = nowMs() + 120_000;
      while ((inFlight > 0 || backlog.length > 0) && nowMs() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // Polls still waiting after two minutes count with the time waited so far.
      for (const scheduled of backlog.splice(0)) latencies.push(nowMs() - scheduled);
      return { latencies, failures };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The database afterwards

export interface StoredDocument {
  id: string;
  original_sha256: string;
  status: string;
  chunk_count: number;
  chunks: number;
  error_code: string | null;
}

/** Every document with its stored chunk count, and the jobs left RUNNING, read from a data directory. */
export async function readStoredState(
  dataDir: string,
): Promise<{ documents: StoredDocument[]; runningJobs: number }> {
  const engine = await Engine.open({
    config: loadConfig({ SAKSI_DATA_DIR: dataDir, SAKSI_ANCHOR: 'none' }, dataDir),
  });
  try {
    const documents = await engine.db.query<StoredDocument>(
      `SELECT d.id, d.original_sha256, d.status, d.chunk_count,
              (SELECT count(*) FROM chunks c WHERE c.document_id = d.id)::integer AS chunks,
              d.error->>'code' AS error_code
         FROM documents d ORDER BY d.created_at`,
    );
    const running = await engine.db.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM jobs WHERE status = 'RUNNING'`,
    );
    return { documents: documents.rows, runningJobs: running.rows[0]?.n ?? 0 };
  } finally {
    await engine.close();
  }
}

/** A document is whole when READY with all its chunks, or FAILED with none. */
export function isWhole(document: StoredDocument): boolean {
  if (document.status === 'READY')
    return document.chunk_count > 0 && document.chunks === document.chunk_count;
  if (document.status === 'FAILED') return document.chunks === 0;
  return false;
}
