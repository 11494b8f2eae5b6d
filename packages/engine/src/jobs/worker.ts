/**
 * The job worker (docs/api.md, "4. Deduplication, jobs and workers"): claims due jobs one at a time and runs
 * the handler of their kind, renewing the lease every third of it while the handler works. When the lease is
 * lost the handler's signal aborts and nothing the worker does afterwards touches the job.
 *
 * A handler that returns has succeeded: the worker completes the job unless the handler already did
 * (inside the transaction of its work, with `completeJob`). A handler that throws fails the job —
 * queued again with backoff when the error is retryable and attempts remain, FAILED otherwise.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Database } from '../db/database.js';
import { EngineError } from '../errors.js';
import { IngestError } from '../ingest/errors.js';
import {
  type ClaimedJob,
  claimJob,
  completeJob,
  failJob,
  type JobError,
  JobLeaseLostError,
  type JobRow,
  renewLease,
  reportProgress,
} from './queue.js';

export interface JobContext {
  db: Database;
  /** Aborted when this worker lost the job's lease: stop, and commit nothing. */
  signal: AbortSignal;
  /** Records stage and progress (0–1) and renews the lease; throws {@link JobLeaseLostError} when lost. */
  progress(stage: string, progress: number): Promise<void>;
}

export type JobHandler = (job: ClaimedJob, context: JobContext) => Promise<void>;

export interface JobWorkerOptions {
  db: Database;
  /** Handlers by job kind; the worker claims only these kinds. */
  handlers: Record<string, JobHandler>;
  /** Shown as the jobs' `locked_by` (default host, process id and a random suffix). */
  workerId?: string;
  leaseMs: number;
  /** Wait between polls when no job is due (default 500 ms). */
  pollMs?: number;
  /** Run on every turn of the loop (webhook deliveries, clean-ups); errors go to `onError`. */
  periodic?: Array<() => Promise<void>>;
  /** Whether a handler's error is worth another attempt (default: not for typed, deterministic errors). */
  isRetryable?: (error: unknown) => boolean;
  onError?: (error: unknown, job?: JobRow) => void;
}

const DEFAULT_POLL_MS = 500;
const MAX_ERROR_MESSAGE = 2_000;

/**
 * Default retry policy: engine and ingestion errors are deterministic (bad input, missing rows) and
 * fail at once; anything else (network, provider, database hiccups) is tried again.
 */
export function isRetryableJobError(error: unknown): boolean {
  return !(
    error instanceof EngineError ||
    error instanceof IngestError ||
    error instanceof JobLeaseLostError
  );
}

/** The `{code, message}` stored on a failed job. */
export function describeJobError(error: unknown): JobError {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return {
    code: typeof code === 'string' && code ? code : 'JOB_FAILED',
    message: message.slice(0, MAX_ERROR_MESSAGE),
  };
}

export class JobWorker {
  readonly workerId: string;
  private readonly db: Database;
  private readonly handlers: Record<string, JobHandler>;
  private readonly kinds: string[];
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly periodic: Array<() => Promise<void>>;
  private readonly isRetryable: (error: unknown) => boolean;
  private readonly onError: (error: unknown, job?: JobRow) => void;
  private loop: Promise<void> | null = null;
  private stopping = false;
  private woken = false;
  private wakeSleep: (() => void) | null = null;
  private readonly active = new Set<Promise<unknown>>();

  constructor(options: JobWorkerOptions) {
    if (!Number.isFinite(options.leaseMs) || options.leaseMs <= 0) {
      throw new EngineError('INVALID_INPUT', 'The job lease must be a positive number of milliseconds.');
    }
    this.db = options.db;
    this.handlers = options.handlers;
    this.kinds = Object.keys(options.handlers);
    this.workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.leaseMs = options.leaseMs;
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    this.periodic = options.periodic ?? [];
    this.isRetryable = options.isRetryable ?? isRetryableJobError;
    this.onError = options.onError ?? (() => undefined);
  }

  /** True from `start()` until `stop()` has finished. */
  get running(): boolean {
    return this.loop !== null;
  }

  /** Starts polling in the background; does nothing when already started. */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.loop = this.poll().finally(() => {
      this.loop = null;
    });
  }

  /** Ends the current wait at once (a job was just enqueued). */
  wake(): void {
    if (this.wakeSleep) this.wakeSleep();
    else this.woken = true;
  }

  /** Stops polling and waits for the job in hand (its handler is not aborted). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    await Promise.allSettled([...this.active]);
  }

  /** Claims and runs at most one due job; true when one ran. */
  async runOnce(): Promise<boolean> {
    if (this.kinds.length === 0) return false;
    const job = await claimJob(this.db, {
      workerId: this.workerId,
      leaseMs: this.leaseMs,
      kinds: this.kinds,
    });
    if (!job) return false;
    const run = this.run(job);
    this.active.add(run);
    try {
      await run;
    } finally {
      this.active.delete(run);
    }
    return true;
  }

  /** Runs each periodic task once (a failing one is reported, the others still run). */
  async runPeriodic(): Promise<void> {
    for (const task of this.periodic) {
      if (this.stopping) return;
      try {
        await task();
      } catch (error) {
        this.report(error);
      }
    }
  }

  private async poll(): Promise<void> {
    while (!this.stopping) {
      await this.runPeriodic();
      if (this.stopping) return;
      let ran = false;
      try {
        ran = await this.runOnce();
      } catch (error) {
        this.report(error);
      }
      if (!ran) await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    if (this.woken || this.stopping) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakeSleep = null;
        resolve();
      }, this.pollMs);
      this.wakeSleep = () => {
        clearTimeout(timer);
        this.wakeSleep = null;
        resolve();
      };
    });
  }

  private async run(job: ClaimedJob): Promise<void> {
    const handler = this.handlers[job.kind];
    const controller = new AbortController();
    const lose = () => {
      if (!controller.signal.aborted) controller.abort(new JobLeaseLostError(job.id));
    };
    const renewal = this.renewWhileRunning(job, lose);
    try {
      if (!handler) throw new EngineError('INVALID_INPUT', `No handler for jobs of kind "${job.kind}".`);
      await handler(job, {
        db: this.db,
        signal: controller.signal,
        progress: async (stage, progress) => {
          if (controller.signal.aborted) throw new JobLeaseLostError(job.id);
          if (!(await reportProgress(this.db, job, { stage, progress, leaseMs: this.leaseMs }))) {
            lose();
            throw new JobLeaseLostError(job.id);
          }
        },
      });
      renewal.stop();
      if (controller.signal.aborted) return;
      // Completed here unless the handler completed it with its work (then the guard finds nothing).
      await completeJob(this.db, job).catch((error: unknown) => {
        if (!(error instanceof JobLeaseLostError)) throw error;
      });
    } catch (error) {
      renewal.stop();
      // Another worker holds the job now: its outcome is theirs to record.
      if (error instanceof JobLeaseLostError || controller.signal.aborted) return;
      this.report(error, job);
      try {
        await failJob(this.db, job, describeJobError(error), { retry: this.isRetryable(error) });
      } catch (failure) {
        if (!(failure instanceof JobLeaseLostError)) this.report(failure, job);
      }
    } finally {
      renewal.stop();
    }
  }

  /** Renews the lease every third of it until stopped; calls `lose` when the lease is gone. */
  private renewWhileRunning(job: ClaimedJob, lose: () => void): { stop(): void } {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const schedule = () => {
      if (stopped) return;
      timer = setTimeout(renew, Math.max(1, Math.floor(this.leaseMs / 3)));
      timer.unref?.();
    };
    const renew = async () => {
      if (stopped) return;
      try {
        if (!(await renewLease(this.db, job, this.leaseMs))) {
          lose();
          return;
        }
      } catch (error) {
        // A failed renewal is retried on the next tick; the lease may still hold until then.
        this.report(error, job);
      }
      schedule();
    };
    schedule();
    return {
      stop: () => {
        stopped = true;
        clearTimeout(timer);
      },
    };
  }

  private report(error: unknown, job?: JobRow): void {
    try {
      this.onError(error, job);
    } catch {
      // A failing error reporter must not stop the worker.
    }
  }
}
