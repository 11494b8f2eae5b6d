/**
 * `saksi worker [--once]`: runs the job worker (ingestion jobs, webhook deliveries) in its own
 * process, next to servers started with SAKSI_WORKER=off. Several workers may share one PostgreSQL
 * database: each job is claimed by one of them under a lease.
 */

import { hostname } from 'node:os';
import { ENGINE_VERSION, type Engine, type IngestReport } from '@saksi/engine';
import type { ErrorReporter, Logger, Tracing } from '@saksi/server';
import { type Command, flag, integerOption, type OptionValues, stringOption } from './command.js';
import { configFrom, openEngine } from './engine-io.js';
import { CliError, type Io, UsageError } from './io.js';

export const workerCommand: Command = {
  name: 'worker',
  summary: 'Run the ingestion job worker in its own process (PostgreSQL), or --once for cron',
  usage: 'saksi worker [--once] [--poll-ms N] [--data-dir DIR] [--allow-pglite]',
  help: `Runs queued ingestion jobs (documents uploaded through the API) and delivers webhooks, printing one
JSON log line per finished job at LOG_LEVEL (docs/operations.md). Stop it with Ctrl+C or SIGTERM: it finishes the job in hand first.

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
  // The server package (its logger, error reports, traces) is loaded by the commands that use it.
  const { createErrorReporter, createLogger, reportFailedIngestion, startTracing } = await import(
    '@saksi/server'
  );
  // JSON lines at LOG_LEVEL, credentials and session ids redacted (docs/operations.md).
  const logger = createLogger(config.logLevel, (line) => io.stdout.write(line));
  // Failed jobs go to SENTRY_DSN when set (docs/operations.md).
  const errors = config.errorReports ? createErrorReporter(config.errorReports) : undefined;
  // Each ingestion is a trace when OTEL_EXPORTER_OTLP_ENDPOINT is set; else nothing is loaded.
  const tracing = await startTracing(config.traces, { version: ENGINE_VERSION });
  const engine = await openEngine(config, { applicationName: 'saksi-worker', longRunning: true });
  const workerId = `${hostname()}-${process.pid}`;
  const observe = ingestionObserver(errors, tracing, reportFailedIngestion);
  engine.ingestion.observe(observe);
  try {
    const reporter = await finishedJobReporter(engine, workerId, logger);
    const database = config.databaseUrl ? 'PostgreSQL' : 'PGlite';
    const where = {
      worker_id: workerId,
      database,
      ...(config.databaseUrl ? {} : { data_dir: config.dataDir }),
    };
    if (flag(values, 'once')) return await runOnce(engine, workerId, where, reporter, logger);

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
    const worker = engine.workers.start({ workerId, ...(pollMs !== undefined ? { pollMs } : {}) });
    const watch = setInterval(() => void reporter.report(), 1_000);
    logger.info('worker started; waiting for jobs', { ...where, worker_id: worker.workerId });
    await stopped;
    clearInterval(watch);
    logger.info('worker stopping: finishing the job in hand', { worker_id: worker.workerId });
    await engine.workers.stop();
    await reporter.report();
    logger.info('worker stopped', {
      worker_id: worker.workerId,
      jobs: reporter.counts.succeeded + reporter.counts.failed,
      ...reporter.counts,
    });
    return 0;
  } finally {
    await engine.close();
    await Promise.all([errors?.flush(2_000), tracing?.shutdown().catch(() => undefined)]);
  }
}

/** Failed jobs to the error reports, every ingestion to the traces. */
function ingestionObserver(
  errors: ErrorReporter | undefined,
  tracing: Tracing | null,
  reportFailedIngestion: (errors: ErrorReporter, report: IngestReport) => void,
): (report: IngestReport) => void {
  return (report) => {
    if (errors) reportFailedIngestion(errors, report);
    tracing?.ingestion(report);
  };
}

/** Runs due jobs one at a time without polling, then one round of the worker's periodic tasks. */
async function runOnce(
  engine: Engine,
  workerId: string,
  where: Record<string, string>,
  reporter: FinishedJobReporter,
  logger: Logger,
): Promise<number> {
  const worker = engine.workers.create({
    workerId,
    onError: (error, job) => {
      // Job failures are reported by the reporter with their outcome; this is for everything else.
      if (job === undefined) logger.warn('worker error', { worker_id: workerId, error });
    },
  });
  logger.info('worker running the queued jobs', where);
  while (await worker.runOnce()) await reporter.report();
  await engine.jobs.failOrphanedDocuments();
  const deliveries = await engine.webhooks.deliverDue({
    timeoutMs: engine.config.webhooks.timeoutMs,
    maxAttempts: engine.config.webhooks.maxAttempts,
    allowPrivate: engine.config.webhooks.allowPrivate,
  });
  const { succeeded, failed, retrying } = reporter.counts;
  const webhooks = deliveries.delivered + deliveries.retrying + deliveries.failed;
  logger.info('no due jobs left', {
    worker_id: workerId,
    succeeded,
    failed,
    retrying,
    ...(webhooks > 0
      ? {
          webhooks_delivered: deliveries.delivered,
          webhooks_retrying: deliveries.retrying,
          webhooks_failed: deliveries.failed,
        }
      : {}),
  });
  return failed > 0 ? 1 : 0;
}

interface FinishedJobReporter {
  counts: { succeeded: number; failed: number; retrying: number };
  /** Logs a line for every job this worker finished (or queued for a retry) since the last call. */
  report(): Promise<void>;
}

/**
 * Watches the jobs table for this worker's outcomes (`locked_by` stays set after a job finishes),
 * so the engine's own worker loop needs no hook. One small query per call; calls never overlap.
 */
async function finishedJobReporter(
  engine: Engine,
  workerId: string,
  logger: Logger,
): Promise<FinishedJobReporter> {
  const since = await engine.jobs.databaseNow();
  const seen = new Set<string>();
  const counts = { succeeded: 0, failed: 0, retrying: 0 };
  let running: Promise<void> = Promise.resolve();

  const check = async () => {
    const finished = await engine.jobs.finished(workerId, since);
    for (const job of finished) {
      const key = `${job.id}:${job.attempts}:${job.status}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const fields = {
        worker_id: workerId,
        job_id: job.id,
        attempt: job.attempts,
        document_id: job.document_id,
        filename: job.filename,
      };
      const error = job.error ?? { code: 'JOB_FAILED', message: 'unknown error' };
      if (job.status === 'SUCCEEDED') {
        counts.succeeded++;
        logger.info('job succeeded', {
          ...fields,
          document_status: job.document_status,
          chunks: job.chunk_count ?? 0,
          ...(job.seconds === null ? {} : { seconds: Math.round(job.seconds * 1000) / 1000 }),
        });
      } else if (job.status === 'FAILED') {
        counts.failed++;
        logger.warn('job failed', { ...fields, error });
      } else {
        counts.retrying++;
        logger.warn('job attempt failed, will retry', { ...fields, error });
      }
    }
  };

  return {
    counts,
    report() {
      running = running.then(check).catch((error: unknown) => {
        logger.warn('could not read job outcomes', { worker_id: workerId, error });
      });
      return running;
    },
  };
}
