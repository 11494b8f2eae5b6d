/** Opening the engine from a command: configuration from the environment, typed errors for people. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engine, isEngineError, loadConfig, type SaksiConfig } from '@saksi/engine';
import { CliError, type Io } from './io.js';

/** The repository root (where `corpora/` lives), from this file's place in src/ or dist/. */
export function repositoryRoot(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
}

export function configFrom(io: Io, overrides: Record<string, string | undefined> = {}): SaksiConfig {
  const env: Record<string, string | undefined> = { ...io.env };
  for (const [key, value] of Object.entries(overrides)) if (value !== undefined) env[key] = value;
  try {
    return loadConfig(env, io.cwd);
  } catch (error) {
    if (isEngineError(error))
      throw new CliError(error.message, { hint: 'See docs/configuration.md for every variable.' });
    throw error;
  }
}

/**
 * PGlite's `shared_buffers` for a command that opens the engine for one task and exits (ingest, ask,
 * anchor, …): PostgreSQL's 128 MB default is memory of this process, and such a command reads too little
 * to fill it. `saksi serve`, `saksi worker` and the evaluation keep the default.
 */
export const ONE_SHOT_SHARED_BUFFERS = '16MB';

/**
 * Opens the engine; `applicationName` tells this process's PostgreSQL connections apart, and
 * `longRunning` (a server, a worker, an evaluation) keeps PGlite's default buffer pool.
 */
export async function openEngine(
  config: SaksiConfig,
  options: { applicationName?: string; longRunning?: boolean } = {},
): Promise<Engine> {
  try {
    return await Engine.open({
      config,
      ...(options.applicationName ? { applicationName: options.applicationName } : {}),
      ...(options.longRunning ? {} : { pgliteSharedBuffers: ONE_SHOT_SHARED_BUFFERS }),
    });
  } catch (error) {
    if (isEngineError(error)) {
      const busy = /lock|already|EBUSY|in use/i.test(String((error as { cause?: unknown }).cause ?? ''));
      throw new CliError(error.message, {
        hint: busy
          ? 'Another saksi process may hold the embedded database; stop it, or use the HTTP API of the running server.'
          : config.databaseUrl
            ? 'Check DATABASE_URL and that the pgvector extension is installed.'
            : `The embedded database lives in ${config.dataDir}; remove it to start afresh.`,
      });
    }
    throw error;
  }
}
