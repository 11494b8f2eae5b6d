/**
 * Test engines on real databases: a copy of the migrated PGlite template per engine, or — when
 * `SAKSI_TEST_DATABASE_URL` points at a PostgreSQL server with pgvector (the CI's second pass) — a
 * fresh database created on that server and dropped afterwards. Keys go to a temporary directory.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type EmbeddingModel, Engine, loadConfig, type SaksiConfig } from '@saksi/engine';
import { templateDirectory } from './pglite-template.js';

export const TEST_DATABASE_URL = process.env['SAKSI_TEST_DATABASE_URL'];

export interface TestEngine {
  engine: Engine;
  dataDir: string;
  close(): Promise<void>;
}

async function createPostgresDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const pg = (await import('pg')).default;
  const name = `saksi_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export async function openTestEngine(
  options: { env?: Record<string, string>; embedding?: EmbeddingModel } = {},
): Promise<TestEngine> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'saksi-engine-test-'));
  let drop: (() => Promise<void>) | undefined;
  // Servers on test engines log warnings and errors only (one access line per request would bury the
  // test output); LOG_LEVEL in the environment or in `env` says otherwise.
  const env: Record<string, string> = {
    SAKSI_DATA_DIR: dataDir,
    LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn',
    ...options.env,
  };
  if (TEST_DATABASE_URL) {
    const database = await createPostgresDatabase(TEST_DATABASE_URL);
    env['DATABASE_URL'] = database.url;
    drop = database.drop;
  } else {
    cpSync(templateDirectory(), path.join(dataDir, 'pglite'), { recursive: true });
  }
  const config: SaksiConfig = loadConfig(env, dataDir);
  const engine = await Engine.open({
    config,
    ...(options.embedding ? { embedding: options.embedding } : {}),
  });
  return {
    engine,
    dataDir,
    async close() {
      await engine.close();
      await drop?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
