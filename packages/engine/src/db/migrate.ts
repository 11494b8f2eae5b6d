/**
 * Versioned SQL migrations: `migrations/NNN_name.sql`, applied in order, each in its own transaction,
 * recorded in `schema_migrations`. The same files run on PGlite and PostgreSQL.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.js';

/** The folder of .sql files (kept in src/ and read from there by the compiled code as well). */
export const MIGRATIONS_DIRECTORY = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../src/db/migrations',
);

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function loadMigrations(directory = MIGRATIONS_DIRECTORY): Migration[] {
  return readdirSync(directory)
    .filter((file) => /^\d{3}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 3)),
      name: file.slice(4, -4),
      sql: readFileSync(path.join(directory, file), 'utf8'),
    }));
}

/** Applies every migration not yet applied; returns the versions it applied. Safe to call on every start. */
export async function migrate(database: Database, migrations = loadMigrations()): Promise<number[]> {
  await database.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const applied = new Set(
    (await database.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map(
      (row) => row.version,
    ),
  );
  const done: number[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    await database.transaction(async (tx) => {
      // Serialize concurrent starters on PostgreSQL; a no-op cost on PGlite.
      await tx.query('SELECT pg_advisory_xact_lock(727374)');
      const again = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (again.rows.length > 0) return;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      done.push(migration.version);
    });
  }
  return done;
}
