/**
 * Vitest global setup: one migrated PGlite data directory (a fresh PGlite takes seconds to start),
 * copied by every test file that needs a database (docs/architecture.md, "Tests"). Rebuilt when the
 * migrations change.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadMigrations, migrate, openDatabase } from '@saksi/engine';

export function templateDirectory(): string {
  const digest = createHash('sha256');
  for (const migration of loadMigrations()) digest.update(migration.sql);
  return path.join(tmpdir(), `saksi-pglite-template-${digest.digest('hex').slice(0, 16)}`);
}

export default async function setup(): Promise<void> {
  const directory = templateDirectory();
  if (existsSync(path.join(directory, 'READY'))) return;
  const building = `${directory}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const db = await openDatabase({ dataDir: building });
  await migrate(db);
  await db.close();
  writeFileSync(path.join(building, 'READY'), new Date().toISOString());
  if (existsSync(path.join(directory, 'READY'))) {
    rmSync(building, { recursive: true, force: true });
    return;
  }
  rmSync(directory, { recursive: true, force: true });
  renameSync(building, directory);
}
