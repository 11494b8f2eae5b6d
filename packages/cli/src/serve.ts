/** `saksi serve`: opens the engine, loads the demo collections on first start, serves /api/v1. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  type AnchorEvent,
  configureDemoCollections,
  ENGINE_VERSION,
  type Engine,
  isEngineError,
  loadDemoCollections,
} from '@saksi/engine';
import { plural } from '@saksi/proof';
import type { Logger } from '@saksi/server';
import { type Command, flag, type OptionValues, stringOption } from './command.js';
import { configFrom, openEngine, repositoryRoot } from './engine-io.js';
import { CliError, type Io } from './io.js';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Start the server (PGlite, offline answering; demo collections on first start)',
  usage: 'saksi serve [--port N] [--host H] [--data-dir DIR] [--no-demo]',
  help: `Starts the Saksi server on http://127.0.0.1:3000 (PORT / --port to change). On the first start it
ingests the demo collections lalu-lintas (UU 22/2009), apbn (UU APBN) and docs (Redux docs), showing progress.

Options:
  --port <n>         Port (default $PORT or 3000; 0 picks a free one)
  --host <h>         Interface (default $HOST or 127.0.0.1)
  --data-dir <dir>   Data directory (default $SAKSI_DATA_DIR or ./.saksi)
  --no-demo          Do not load the demo collections

With SAKSI_ADMIN_EMAIL and SAKSI_ADMIN_PASSWORD set, the first start creates that admin (when no
admin exists yet); sign in at <url>/admin. Or create one with saksi admin create --email <email>.

Stop with Ctrl+C.`,
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'data-dir': { type: 'string' },
    'no-demo': { type: 'boolean' },
  },
  run: runServe,
};

async function runServe(values: OptionValues, _positionals: readonly string[], io: Io): Promise<number> {
  const config = configFrom(io, {
    PORT: stringOption(values, 'port'),
    HOST: stringOption(values, 'host'),
    SAKSI_DATA_DIR: stringOption(values, 'data-dir'),
    ...(flag(values, 'no-demo') ? { SAKSI_DEMO: '0' } : {}),
  });
  const say = (text: string) => io.stdout.write(`${text}\n`);
  say(
    `Saksi: data in ${config.dataDir} (${config.databaseUrl ? 'PostgreSQL' : 'PGlite'}), embeddings ${config.embedding.provider}:${config.embedding.model}`,
  );
  // The server (Hono, the API's schemas) is loaded by the commands that serve, not by every command.
  const { createErrorReporter, createLogger, startServer, startTracing } = await import('@saksi/server');
  // After the start-up lines people read, events are JSON log lines at LOG_LEVEL (docs/operations.md).
  const logger = createLogger(config.logLevel, (line) => io.stdout.write(line));
  const errors = config.errorReports ? createErrorReporter(config.errorReports) : undefined;
  // Without OTEL_EXPORTER_OTLP_ENDPOINT nothing of OpenTelemetry is loaded (docs/operations.md).
  const tracing = await startTracing(config.traces, { version: ENGINE_VERSION });
  const engine = await openEngine(config, { applicationName: 'saksi-serve', longRunning: true });
  await createFirstAdmin(engine, io, say);
  if (config.demo) {
    const existing = await engine.collections.list();
    const needed = ['lalu-lintas', 'apbn', 'docs'].filter(
      (name) => !existing.some((c) => c.name === name && c.documents > 0),
    );
    if (needed.length > 0) {
      say('First start: loading the demo collections (lalu-lintas, apbn, docs)…');
      const started = performance.now();
      const result = await loadDemoCollections(engine, path.join(repositoryRoot(), 'corpora'), (progress) => {
        const what = progress.error
          ? `FAILED: ${progress.error}`
          : progress.result?.deduplicated
            ? 'already there'
            : plural(progress.result?.document.chunk_count ?? 0, 'chunk');
        say(`  [${progress.collection} ${progress.index}/${progress.total}] ${progress.file} — ${what}`);
      });
      say(
        `Demo collections ready: ${plural(result.added, 'document')} added, ${result.failed} failed, in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
      );
    } else await configureDemoCollections(engine, path.join(repositoryRoot(), 'corpora'));
  }
  await startAnchoring(engine, say, logger);
  if (config.readUrl)
    say('Reads: retrieval from the replica of DATABASE_READ_URL while it keeps up, else from the primary.');
  if (config.worker === 'inline') {
    engine.workers.start();
    say('Jobs: ingestion and webhooks run in this process (SAKSI_WORKER=off leaves them to `saksi worker`).');
  } else {
    say('Jobs: SAKSI_WORKER=off — run `saksi worker` to process uploads and deliver webhooks.');
  }
  const webRoot = path.join(repositoryRoot(), 'packages', 'web', 'dist');
  const hasWeb = existsSync(path.join(webRoot, 'index.html'));
  const server = await startServer(engine, {
    port: config.port,
    host: config.host,
    logger,
    ...(errors ? { errors } : {}),
    ...(tracing ? { tracing } : {}),
    ...(hasWeb ? { webRoot } : {}),
  });
  say(`Listening on ${server.url}`);
  if (hasWeb) say(`  Web app: ${server.url}/`);
  say(
    `  Ask:     curl -s ${server.url}/api/v1/chat -H 'content-type: application/json' -d '{"collection":"lalu-lintas","question":"Apakah menerobos lampu merah melanggar aturan?"}'`,
  );
  say(`  Admin: ${server.url}/admin`);
  say(`  Keys:    ${server.url}/.well-known/saksi-keys.json`);
  say(`  API:     ${server.url}/api/v1/openapi.json`);
  say(
    `  Developer API: docs/api.md — API keys from /admin (Workspaces & API keys) or \`saksi workspaces create\`.`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  say('Stopping…');
  await server.close();
  await engine.close();
  await Promise.all([errors?.flush(2_000), tracing?.shutdown().catch(() => undefined)]);
  return 0;
}

/**
 * Creates the first admin from SAKSI_ADMIN_EMAIL / SAKSI_ADMIN_PASSWORD when both are set and no admin
 * exists yet. The password is never printed; a bad one stops the start with a clear error.
 */
async function createFirstAdmin(engine: Engine, io: Io, say: (text: string) => void): Promise<void> {
  const email = io.env['SAKSI_ADMIN_EMAIL'];
  const password = io.env['SAKSI_ADMIN_PASSWORD'];
  if (!email || !password) {
    if (email || password)
      say('Admin: set both SAKSI_ADMIN_EMAIL and SAKSI_ADMIN_PASSWORD to create the first admin.');
    return;
  }
  try {
    const admin = await engine.admins.ensureFirst(email, password);
    if (admin) say(`Admin: created ${admin.email} (from SAKSI_ADMIN_EMAIL).`);
  } catch (error) {
    await engine.close();
    if (isEngineError(error, 'INVALID_INPUT'))
      throw new CliError(`SAKSI_ADMIN_EMAIL / SAKSI_ADMIN_PASSWORD: ${error.message}`, {
        hint: 'Fix the variables, or unset them and run saksi admin create --email <email>.',
      });
    throw error;
  }
}

/**
 * The start-up log's line for a confirmed anchoring round, saying what it anchored: document roots,
 * the transparency log's root at its size, or both. A round of the log alone anchors no document.
 */
export function anchoredRoundMessage(event: Extract<AnchorEvent, { type: 'round-confirmed' }>): string {
  const anchored: string[] = [];
  if (event.documents > 0) anchored.push(plural(event.documents, 'document root'));
  if (event.log_size !== null)
    anchored.push(`the transparency log at ${plural(event.log_size, 'entry', 'entries')}`);
  const what =
    anchored.length > 0
      ? `Anchored ${anchored.join(' and ')}`
      : 'Confirmed an anchoring round already recorded';
  return `${what} (round ${event.round_id}): tx ${event.tx_hash} in block ${event.block_number}`;
}

/**
 * The anchoring service's events as log lines: a confirmed round at info (with the sentence
 * {@link anchoredRoundMessage} makes), warnings and failed rounds (retried with backoff) at warn.
 */
export function anchoringLog(logger: Logger): {
  onWarning: (message: string) => void;
  onEvent: (event: AnchorEvent) => void;
} {
  return {
    onWarning: (message) => logger.warn('anchoring warning', { message }),
    onEvent: (event) => {
      if (event.type === 'round-confirmed') {
        logger.info(anchoredRoundMessage(event), {
          event: 'anchor.round_confirmed',
          round_id: event.round_id,
          tx_hash: event.tx_hash,
          block_number: event.block_number,
          documents: event.documents,
          log_size: event.log_size,
        });
      } else if (event.type === 'error') {
        logger.warn('anchoring round failed, retrying with backoff', {
          event: 'anchor.error',
          ...(event.round_id !== undefined ? { round_id: event.round_id } : {}),
          code: event.code,
          message: event.message,
        });
      }
    },
  };
}

/** Starts the anchoring loop; a chain that cannot be reached disables anchoring with a warning, not the server. */
async function startAnchoring(engine: Engine, say: (text: string) => void, logger: Logger): Promise<void> {
  if (engine.config.anchor.provider === 'none') {
    say('Anchoring: off (SAKSI_ANCHOR=none).');
    return;
  }
  try {
    await engine.anchoring.start({ loop: true, ...anchoringLog(logger) });
    const chain = engine.anchoring.chain();
    if (chain) {
      say(
        `Anchoring: ${chain.provider} chain ${chain.chain_id}, DocumentRegistry ${chain.contract}${chain.rpc_url ? ` at ${chain.rpc_url}` : ''}`,
      );
      if (chain.provider === 'local' && chain.rpc_url) {
        say(
          `  The local chain keeps this URL across restarts (its port is kept in ${path.join(engine.config.dataDir, 'anvil', 'rpc.json')}; SAKSI_ANVIL_PORT changes it).`,
        );
      }
    }
  } catch (error) {
    say(
      `Anchoring disabled: ${error instanceof Error ? error.message : String(error)} (documents stay PENDING_ANCHOR until a restart succeeds).`,
    );
  }
}
