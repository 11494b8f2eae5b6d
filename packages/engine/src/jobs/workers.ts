/**
 * The engine's job workers (docs/architecture.md, "Data flows"): a worker runs ingestion jobs, and
 * between jobs delivers webhooks, fails the documents of abandoned jobs and sweeps ended chat sessions
 * and stale cached answers. `saksi serve` starts one in-process (`SAKSI_WORKER=inline`), `saksi worker`
 * runs one in its own process, and a deployment without a long-lived process works its queue in calls.
 */

import { pruneAnswerCache } from '../answer-storage.js';
import type { SaksiConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { failOrphanedDocuments } from '../ingest/async.js';
import type { Ingestion } from '../ingest/ingestion.js';
import { deleteEndedSessions } from '../sessions.js';
import { deliverDueWebhooks } from '../webhooks.js';
import { JobWorker, type JobWorkerOptions } from './worker.js';

/** Ended chat sessions and stale cached answers are deleted by a worker at most this often. */
const SESSION_SWEEP_INTERVAL_MS = 60_000;

export interface WorkerOptions {
  workerId?: string;
  pollMs?: number;
  /** Replaces the default report of errors outside a job's own failure. */
  onError?: JobWorkerOptions['onError'];
}

export class Workers {
  private running: JobWorker | null = null;

  constructor(
    private readonly db: Database,
    private readonly config: SaksiConfig,
    private readonly ingestion: Ingestion,
    /** True once the engine is closing: a worker's late errors are then not reported. */
    private readonly closing: () => boolean,
  ) {}

  /** Starts this engine's worker, or returns the one already running. */
  start(options: Omit<WorkerOptions, 'onError'> = {}): JobWorker {
    if (this.running) return this.running;
    const worker = this.create(options);
    this.running = worker;
    worker.start();
    return worker;
  }

  /** Lets the running worker, if any, claim a job queued just now instead of at its next poll. */
  wake(): void {
    this.running?.wake();
  }

  async stop(): Promise<void> {
    const worker = this.running;
    this.running = null;
    await worker?.stop();
  }

  /**
   * Runs due jobs in this call until none is left or `deadline` (epoch ms) has passed, after one round
   * of the worker's periodic tasks: a serverless function after an upload, or its cron call, works
   * its queue this way. Returns how many jobs ran.
   */
  async runPending(options: { deadline: number; workerId?: string }): Promise<number> {
    const worker = this.create(options.workerId ? { workerId: options.workerId } : {});
    await worker.runPeriodic();
    let ran = 0;
    while (Date.now() < options.deadline && (await worker.runOnce())) ran += 1;
    return ran;
  }

  /** A worker on this engine's database, not started, for a caller that drives it (`saksi worker --once`). */
  create(options: WorkerOptions = {}): JobWorker {
    const { db, config } = this;
    let sessionsSweptAt = 0;
    return new JobWorker({
      db,
      leaseMs: config.jobs.leaseMs,
      ...(options.workerId ? { workerId: options.workerId } : {}),
      ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
      handlers: { ingest: this.ingestion.jobHandler() },
      periodic: [
        async () => {
          await deliverDueWebhooks(db, {
            timeoutMs: config.webhooks.timeoutMs,
            maxAttempts: config.webhooks.maxAttempts,
            allowPrivate: config.webhooks.allowPrivate,
          });
        },
        async () => {
          await failOrphanedDocuments(db);
        },
        async () => {
          if (Date.now() - sessionsSweptAt < SESSION_SWEEP_INTERVAL_MS) return;
          sessionsSweptAt = Date.now();
          await deleteEndedSessions(db, config.sessions.ttlSeconds);
          await pruneAnswerCache(db, config.answerCache.maxEntries);
        },
      ],
      onError:
        options.onError ??
        ((error) => {
          if (!this.closing())
            console.error('[saksi] worker:', error instanceof Error ? error.message : error);
        }),
    });
  }
}
