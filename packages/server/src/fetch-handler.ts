/**
 * The app as a Fetch-API handler for serverless platforms (docs/deploy.md): `{ fetch(request, context) }`,
 * the shape Vercel's Node runtime calls. Nothing is kept on local disk: the database is PostgreSQL
 * (`DATABASE_URL`), the keys come from the environment (`SAKSI_ISSUER_KEY`, `SAKSI_LOG_KEY`, …),
 * anchoring goes to a chain's RPC (`SAKSI_ANCHOR=evm` or a preset) or is off, and the job queue is
 * worked after an accepted upload (through the platform's `waitUntil`) and by the cron route.
 *
 * The engine opens on the first request and is reused by the requests the same instance serves; a
 * configuration the platform cannot run answers every request with 503 `CONFIG_INVALID` and a message
 * naming the variable, never a stack trace.
 */
import { ENGINE_VERSION, type Engine, EngineError, loadConfig, type SaksiConfig } from '@saksi/engine';
import { type AppOptions, createApp } from './app.js';
import { createErrorReporter, type ErrorReporter } from './error-reports.js';
import { toErrorResponse } from './errors.js';
import { createLogger, type Logger, sameSecret } from './observability.js';
import { startTracing, type Tracing } from './tracing.js';
import { inlineVerifier } from './verify-pool.js';

/** What the platform passes beside the request (Vercel: `waitUntil`, which keeps the instance alive). */
export interface PlatformContext {
  waitUntil?(promise: Promise<unknown>): void;
}

export interface FetchHandler {
  fetch(request: Request, context?: PlatformContext): Promise<Response>;
  /** Closes the engine (tests; a platform freezes the instance instead). */
  close(): Promise<void>;
}

export interface FetchHandlerOptions {
  /** The environment (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** Where relative paths in the environment resolve (default the process's working directory). */
  cwd?: string;
  /** Names the platform's proxy in the logs and rate limits' fallback (default `platform`). */
  platform?: string;
  /** How long the queue is worked after an upload or by the cron route (ms; default 50 s). */
  jobBudgetMs?: number;
  logger?: Logger;
  metrics?: AppOptions['metrics'];
}

/** The route the platform's scheduler calls (Vercel Cron) to work the queue and anchor. */
export const CRON_PATH = '/api/cron';
/** Work on the queue stops starting new jobs after this long (a function's time limit is about 60 s). */
const DEFAULT_JOB_BUDGET_MS = 50_000;

interface Ready {
  engine: Engine;
  app: ReturnType<typeof createApp>;
  errors: ErrorReporter | undefined;
  tracing: Tracing | null;
}

/** How long the reports of one request may take to leave after its response (ms). */
const REPORT_FLUSH_MS = 2_000;

/**
 * A handler that opens the engine from `options.env` on its first request. The returned object is
 * what the platform's entry module exports as its default.
 */
export function createFetchHandler(options: FetchHandlerOptions = {}): FetchHandler {
  const env = options.env ?? process.env;
  const platform = options.platform ?? 'platform';
  const budgetMs = options.jobBudgetMs ?? DEFAULT_JOB_BUDGET_MS;
  let logger = options.logger;
  let opening: Promise<Ready> | null = null;
  let ready: Ready | null = null;
  let draining: Promise<void> | null = null;

  const open = (): Promise<Ready> => {
    opening ??= (async () => {
      const config = serverlessConfig(env, options.cwd ?? process.cwd());
      logger ??= createLogger(config.logLevel);
      // Imported here so a module that only exports the handler stays cheap to load.
      const { Engine } = await import('@saksi/engine');
      const engine = await Engine.open({ config, applicationName: 'saksi-function' });
      if (config.anchor.provider !== 'none') {
        // Connects the chain's RPC (anchor lookups of verifications need it); rounds run from cron.
        await engine.anchoring.start().catch((error: unknown) => {
          logger?.warn('anchoring is not reachable; answers carry pending anchors', { error });
        });
      }
      // Error reports (SENTRY_DSN) and traces (OTEL_EXPORTER_OTLP_ENDPOINT), as `saksi serve` sends them.
      const errors = config.errorReports ? createErrorReporter(config.errorReports) : undefined;
      const tracing = await startTracing(config.traces, { version: ENGINE_VERSION });
      const app = createApp(engine, {
        logger,
        // A function instance serves one request at a time and may not start threads: verify inline,
        // with the same limits per bundle and work budget (docs/deploy.md).
        verifier: inlineVerifier(),
        ...(options.metrics !== undefined ? { metrics: options.metrics } : {}),
        ...(errors ? { errors } : {}),
        ...(tracing ? { tracing } : {}),
      });
      ready = { engine, app, errors, tracing };
      return ready;
    })().catch((error: unknown) => {
      // The next request tries again (a database that was starting, a fixed variable).
      opening = null;
      throw error;
    });
    return opening;
  };

  /**
   * Works the queue in the background of the request that filled it; one drain at a time. An upload
   * accepted while a drain runs makes it look once more before it ends, so no job waits for cron.
   */
  let again = false;
  const drainAfter = (engine: Engine, context: PlatformContext | undefined): void => {
    if (!context?.waitUntil) return;
    if (draining) {
      again = true;
      context.waitUntil(draining);
      return;
    }
    const deadline = Date.now() + budgetMs;
    const work = async () => {
      do {
        again = false;
        await engine.workers.runPending({ deadline, workerId: `${platform}-${process.pid}` });
      } while (again && Date.now() < deadline);
    };
    draining = work()
      .catch((error: unknown) => logger?.error('working the job queue failed', { error }))
      .finally(() => {
        draining = null;
      });
    context.waitUntil(draining);
  };

  return {
    async fetch(request, context) {
      let current: Ready;
      try {
        current = await open();
      } catch (error) {
        return unavailable(error, logger ?? createLogger('info'));
      }
      const url = new URL(request.url);
      if (url.pathname === CRON_PATH) return cron(current.engine, request, env, budgetMs, logger!);
      const response = await current.app.fetch(request, { platformProxy: platform });
      // An accepted upload (202) queued a job: work it once the response is on its way.
      if (response.status === 202 && request.method !== 'GET') drainAfter(current.engine, context);
      // A frozen instance sends nothing: reports and spans leave before it may be.
      if (context?.waitUntil && (current.errors || current.tracing))
        context.waitUntil(
          Promise.all([
            current.errors?.flush(REPORT_FLUSH_MS),
            current.tracing?.flush().catch(() => undefined),
          ]),
        );
      return response;
    },
    async close() {
      await draining;
      const current = ready;
      ready = null;
      opening = null;
      await Promise.all([
        current?.errors?.flush(REPORT_FLUSH_MS),
        current?.tracing?.shutdown().catch(() => undefined),
      ]);
      await current?.engine.close();
    },
  };
}

/** The shortest `CRON_SECRET` accepted (as `SAKSI_METRICS_KEY`): a short one can be guessed. */
const MIN_CRON_SECRET = 16;

/**
 * The configuration with what a serverless platform needs: PostgreSQL, the keys from the
 * environment, anchoring off or on a remote chain, no in-process worker, and (unless set) one trusted
 * proxy hop, since the platform writes the client into `X-Forwarded-For`.
 */
export function serverlessConfig(env: Record<string, string | undefined>, cwd: string): SaksiConfig {
  const config = loadConfig(
    {
      ...env,
      SAKSI_ANCHOR: env['SAKSI_ANCHOR'] ?? 'none',
      SAKSI_TRUST_PROXY: env['SAKSI_TRUST_PROXY'] ?? '1',
      SAKSI_WORKER: 'off',
    },
    cwd,
  );
  const refuse = (message: string) => new EngineError('CONFIG_INVALID', message);
  const cronSecret = env['CRON_SECRET'];
  if (cronSecret !== undefined && cronSecret !== '' && cronSecret.length < MIN_CRON_SECRET)
    throw refuse(
      `CRON_SECRET must be at least ${MIN_CRON_SECRET} characters: it lets its holder run the job queue and anchoring.`,
    );
  if (!config.databaseUrl)
    throw refuse(
      'A serverless deployment keeps nothing on local disk: set DATABASE_URL to a PostgreSQL database with pgvector.',
    );
  if (!config.keySecrets)
    throw refuse(
      'A serverless deployment reads its keys from the environment: set SAKSI_ISSUER_KEY and SAKSI_LOG_KEY (saksi keys env prints them).',
    );
  if (config.anchor.provider === 'local')
    throw refuse(
      'SAKSI_ANCHOR=local starts a chain on local disk: use SAKSI_ANCHOR=evm (or base-sepolia, base) or none.',
    );
  return config;
}

/** 503 with the configuration's message (a typed error) or a generic one; the cause goes to the log. */
function unavailable(error: unknown, logger: Logger): Response {
  const typed =
    error instanceof EngineError && (error.code === 'CONFIG_INVALID' || error.code === 'KEYS_INVALID');
  logger.error('the server cannot start', { error });
  const body = typed
    ? { error: { code: error.code, message: error.message } }
    : {
        error: {
          code: 'UNAVAILABLE',
          message: 'The server cannot reach its database or keys; see its logs.',
        },
      };
  return Response.json(body, { status: 503, headers: { 'retry-after': '5' } });
}

/**
 * `GET /api/cron`: works the job queue, then anchors what waits (one round, and its confirmation).
 * Only the platform's scheduler may call it: `Authorization: Bearer $CRON_SECRET` (Vercel sends it).
 */
async function cron(
  engine: Engine,
  request: Request,
  env: Record<string, string | undefined>,
  budgetMs: number,
  logger: Logger,
): Promise<Response> {
  const secret = env['CRON_SECRET'];
  if (!secret)
    return Response.json(
      { error: { code: 'NOT_FOUND', message: 'Set CRON_SECRET to enable the cron route.' } },
      { status: 404 },
    );
  const given = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
  if (!sameSecret(given, secret))
    return Response.json(
      {
        error: {
          code: 'UNAUTHENTICATED',
          message: 'The cron route needs Authorization: Bearer $CRON_SECRET.',
        },
      },
      { status: 401 },
    );
  try {
    const started = Date.now();
    const jobs = await engine.workers.runPending({
      deadline: started + budgetMs,
      workerId: `cron-${process.pid}`,
    });
    const rounds = await engine.anchoring.runNow();
    const body = {
      jobs,
      anchoring:
        rounds === null
          ? 'off'
          : rounds.map((round) => ({
              id: round.id,
              status: round.status,
              documents: round.size,
              tx_hash: round.tx_hash,
            })),
      ms: Date.now() - started,
    };
    logger.info('cron ran', body);
    return Response.json(body);
  } catch (error) {
    const mapped = toErrorResponse(error);
    logger.error('cron failed', { error });
    return Response.json(mapped.body, { status: mapped.status });
  }
}
