/**
 * `saksi worker [--once]`: runs the job worker (ingestion jobs, webhook deliveries) in its own
 * process, next to servers started with SAKSI_WORKER=off. Several workers may share one PostgreSQL
 * database: each job is claimed by one of them under a lease.
 */

import { hostname } from 'node:os';
import {
  deliverDueWebhooks,
  type Engine,
  failOrphanedDocuments,
  ingestJobHandler,
  type JobStatus,
  JobWorker,
} from '@saksi/engine';
import { plural } from '@saksi/proof';
import { type Command, flag, integerOption, type OptionValues, stringOption } from './command.js';
import { configFrom, openEngine } from './engine-io.js';
import { CliError, type Io, UsageError } from './io.js';
import { safeText } from './text.js';

export const workerCommand: Command = {
  name: 'worker',
  summary: 'Run the ingestion job worker in its own process (PostgreSQL), or --once for cron',
  usage: 'saksi worker [--once] [--poll-ms N] [--data-dir DIR] [--allow-pglite]',
  help: `Runs queued ingestion jobs (documents uploaded through the API) and delivers webhooks, printing one
line per finished job. Stop it with Ctrl+C or SIGTERM: it finishes the job in hand first.

It needs a PostgreSQL database shared with the server (DATABASE_URL). With the embedded database
(PGlite) only one process can open the data, and saksi serve already runs a worker in-process
(SAKSI_WORKER=inline, the default). Run it with SAKSI_WORKER=off to leave all jobs to saksi worker.

Options:
  --once             Run the jobs that are due until none are left, deliver due webhooks, and exit
                     (for cron and tests)
  --poll-ms <n>      Wait between polls when idle (default 500)
  --data-dir <dir>   Data directory (default $SAKSI_DATA_DIR or ./.saksi)
  --allow-pglite     Use the embedded database anyway: only when no saksi serve (or other saksi
                     process) has that data directory open

Exit status: 0 stopped (or, with --once, every job succeeded), 1 a job failed (--once),
2 bad usage, no DATABASE_URL or an unreachable database.`,
  options: {
    once: { type: 'boolean' },
    'poll-ms': { type: 'string' },
    'data-dir': { type: 'string' },
    'allow-pglite': { type: 'boolean' },
  },
  run: runWorker,
};

async function runWorker(values: OptionValues, positionals: readonly string[], io: Io): Promise<number> {
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  const pollMs = integerOption(values, 'poll-ms', 10, 600_000);
  const config = configFrom(io, { SAKSI_DATA_DIR: stringOption(values, 'data-dir') });
  if (config.databaseUrl === undefined && !flag(values, 'allow-pglite')) {
    throw new CliError('saksi worker needs a PostgreSQL database shared with the server (set DATABASE_URL)', {
      hint:
        'With the embedded database (PGlite) a second process cannot open the data: saksi serve already ' +
        'runs a worker in-process. For a PGlite data directory that no server has open, add --allow-pglite.',
    });
  }
  const say = (text: string) => io.stdout.write(`${text}\n`);
  const engine = await openEngine(config, { applicationName: 'saksi-worker' });
  const workerId = `${hostname()}-${process.pid}`;
  try {
    const reporter = await finishedJobReporter(engine, workerId, say);
    const where = config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
    if (flag(values, 'once')) return await runOnce(engine, workerId, where, reporter, io);

    // Listen for signals before saying so: whoever reads the start line may stop us at once.
    const stopped = new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    const worker = engine.startWorker({ workerId, ...(pollMs !== undefined ? { pollMs } : {}) });
    const watch = setInterval(() => void reporter.report(), 1_000);
    say(`Worker ${worker.workerId} started (${where}); waiting for jobs. Stop with Ctrl+C.`);
    await stopped;
    clearInterval(watch);
    say('Stopping: finishing the job in hand…');
    await engine.stopWorker();
    await reporter.report();
    say(`Worker stopped after ${plural(reporter.counts.succeeded + reporter.counts.failed, 'job')}.`);
    return 0;
  } finally {
    await engine.close();
  }
}

/** Runs due jobs one at a time without polling, then one round of the worker's periodic tasks. */
async function runOnce(
  engine: Engine,
  workerId: string,
  where: string,
  reporter: FinishedJobReporter,
  io: Io,
): Promise<number> {
  const worker = new JobWorker({
    db: engine.db,
    workerId,
    leaseMs: engine.config.jobs.leaseMs,
    handlers: {
      ingest: ingestJobHandler({
        embedding: engine.embedding,
        quotas: (workspaceId) => engine.quotas(workspaceId),
        limits: engine.config.ingest,
      }),
    },
    onError: (error, job) => {
      // Job failures are reported by the reporter with their outcome; this is for everything else.
      if (job === undefined) io.stderr.write(`warning: ${safeText(errorMessage(error))}\n`);
    },
  });
  io.stdout.write(`Worker ${workerId} (${where}): running the queued jobs…\n`);
  while (await worker.runOnce()) await reporter.report();
  await failOrphanedDocuments(engine.db);
  const deliveries = await deliverDueWebhooks(engine.db, {
    timeoutMs: engine.config.webhooks.timeoutMs,
    maxAttempts: engine.config.webhooks.maxAttempts,
    allowPrivate: engine.config.webhooks.allowPrivate,
  });
  const { succeeded, failed, retrying } = reporter.counts;
  const webhooks = deliveries.delivered + deliveries.retrying + deliveries.failed;
  io.stdout.write(
    `No due jobs left: ${succeeded} succeeded, ${failed} failed, ${retrying} to retry later` +
      (webhooks > 0
        ? `; webhooks ${deliveries.delivered} delivered, ${deliveries.retrying} retrying, ${deliveries.failed} failed.\n`
        : '.\n'),
  );
  return failed > 0 ? 1 : 0;
}

interface FinishedJobRow {
  id: string;
  status: JobStatus;
  attempts: number;
  error: { code: string; message: string } | null;
  document_id: string | null;
  filename: string | null;
  document_status: string | null;
  chunk_count: number | null;
  seconds: number | null;
}

interface FinishedJobReporter {
  counts: { succeeded: number; failed: number; retrying: number };
  /** Prints a line for every job this worker finished (or queued for a retry) since the last call. */
  report(): Promise<void>;
}

/**
 * Watches the jobs table for this worker's outcomes (`locked_by` stays set after a job finishes),
 * so the engine's own worker loop needs no hook. One small query per call; calls never overlap.
 */
async function finishedJobReporter(
  engine: Engine,
  workerId: string,
  say: (text: string) => void,
): Promise<FinishedJobReporter> {
  const since = (await engine.db.query<{ now: string }>('SELECT now()::text AS now')).rows[0]!.now;
  const seen = new Set<string>();
  const counts = { succeeded: 0, failed: 0, retrying: 0 };
  let running: Promise<void> = Promise.resolve();

  const check = async () => {
    const result = await engine.db.query<FinishedJobRow>(
      `SELECT j.id, j.status, j.attempts, j.error, j.document_id, d.filename, d.status AS document_status,
              d.chunk_count, extract(epoch FROM j.finished_at - j.started_at)::float8 AS seconds
         FROM jobs j LEFT JOIN documents d ON d.id = j.document_id
        WHERE j.locked_by = $1 AND j.updated_at >= $2::timestamptz
          AND (j.status IN ('SUCCEEDED', 'FAILED') OR (j.status = 'QUEUED' AND j.error IS NOT NULL))
        ORDER BY j.updated_at, j.id`,
      [workerId, since],
    );
    for (const job of result.rows) {
      const key = `${job.id}:${job.attempts}:${job.status}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const document = job.document_id
        ? `${safeText(job.filename ?? '?')} (${job.document_id})`
        : 'no document';
      const error = job.error ? `${job.error.code}: ${safeText(job.error.message)}` : 'unknown error';
      if (job.status === 'SUCCEEDED') {
        counts.succeeded++;
        const took = job.seconds === null ? '' : ` in ${job.seconds.toFixed(1)} s`;
        say(
          `  job ${job.id} SUCCEEDED: ${document} ${job.document_status ?? ''}, ${plural(job.chunk_count ?? 0, 'chunk')}${took}`,
        );
      } else if (job.status === 'FAILED') {
        counts.failed++;
        say(`  job ${job.id} FAILED: ${document}: ${error}`);
      } else {
        counts.retrying++;
        say(`  job ${job.id} attempt ${job.attempts} failed, will retry: ${document}: ${error}`);
      }
    }
  };

  return {
    counts,
    report() {
      running = running.then(check).catch((error: unknown) => {
        say(`  (could not read job outcomes: ${safeText(errorMessage(error))})`);
      });
      return running;
    },
  };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
