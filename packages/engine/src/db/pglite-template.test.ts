import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterEach, describe, expect, test } from 'vitest';
import { openDatabase } from './database.js';
import { loadMigrations, migrate } from './migrate.js';
import {
  installedVersions,
  PGLITE_TEMPLATE,
  type PgliteTemplateManifest,
  seedFromTemplate,
  templateMigrations,
} from './pglite-template.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function folder(): string {
  const made = mkdtempSync(path.join(tmpdir(), 'saksi-template-test-'));
  folders.push(made);
  return made;
}

const committed = JSON.parse(readFileSync(PGLITE_TEMPLATE.manifest, 'utf8')) as PgliteTemplateManifest;

/** A template of the given tar bytes, with a manifest that matches this install and these migrations. */
function template(tar: Buffer, within: string) {
  const archive = brotliCompressSync(tar);
  const paths = { archive: path.join(within, 't.tar.br'), manifest: path.join(within, 't.json') };
  writeFileSync(paths.archive, archive);
  const manifest: PgliteTemplateManifest = {
    ...installedVersions(),
    migrations: templateMigrations(loadMigrations()),
    sha256: createHash('sha256').update(archive).digest('hex'),
  };
  writeFileSync(paths.manifest, JSON.stringify(manifest));
  return paths;
}

/** A one-entry ustar archive. */
function tarOf(name: string, body: string): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0);
  header.write('0000644\0', 100);
  header.write(`${Buffer.byteLength(body).toString(8).padStart(11, '0')}\0`, 124);
  header.write('0', 156);
  header.write('ustar\0', 257);
  const data = Buffer.alloc(Math.ceil(Buffer.byteLength(body) / 512) * 512);
  data.write(body);
  return Buffer.concat([header, data, Buffer.alloc(1024)]);
}

describe('the PGlite template', () => {
  test('is made by the installed PGlite and pgvector with the current migrations (else run npm run pglite-template)', () => {
    expect({ pglite: committed.pglite, pgvector: committed.pgvector }).toEqual(installedVersions());
    expect(committed.migrations).toEqual(templateMigrations(loadMigrations()));
    expect(createHash('sha256').update(readFileSync(PGLITE_TEMPLATE.archive)).digest('hex')).toBe(
      committed.sha256,
    );
  });

  test('a new data directory made from it holds every migration and works', async () => {
    const dataDir = path.join(folder(), 'pglite');
    const migrations = loadMigrations();
    expect(await seedFromTemplate(dataDir, migrations)).toBe(true);
    expect(readdirSync(path.dirname(dataDir))).toEqual(['pglite']); // no staging folder left
    const db = await openDatabase({ dataDir, migrations });
    try {
      expect(await migrate(db, migrations)).toEqual([]);
      const vector = await db.query<{ distance: number }>(
        `SELECT '[1,0]'::vector <-> '[0,0]'::vector AS distance`,
      );
      expect(vector.rows[0]?.distance).toBe(1);
    } finally {
      await db.close();
    }
  }, 120_000);

  test('a template holding fewer migrations than the caller applies is used; the rest are applied', async () => {
    const dataDir = path.join(folder(), 'pglite');
    const later = { version: 999, name: 'later', sql: 'CREATE TABLE template_later (id integer)' };
    expect(await seedFromTemplate(dataDir, [...loadMigrations(), later])).toBe(true);
  });

  test('is not used for a directory that holds anything, nor when it does not match', async () => {
    const within = folder();
    const busy = path.join(within, 'busy');
    mkdirSync(busy);
    writeFileSync(path.join(busy, 'note'), 'mine');
    expect(await seedFromTemplate(busy, loadMigrations())).toBe(false);
    expect(readdirSync(busy)).toEqual(['note']);

    const changed = loadMigrations().map((migration, index) =>
      index === 0 ? { ...migration, sql: `${migration.sql}\n-- changed` } : migration,
    );
    expect(await seedFromTemplate(path.join(within, 'changed'), changed)).toBe(false);
    expect(await seedFromTemplate(path.join(within, 'fewer'), loadMigrations().slice(0, 1))).toBe(false);

    const corrupt = { archive: path.join(within, 'c.tar.br'), manifest: path.join(within, 'c.json') };
    writeFileSync(corrupt.archive, Buffer.from('not brotli'));
    writeFileSync(
      corrupt.manifest,
      JSON.stringify({ ...committed, sha256: createHash('sha256').update('not brotli').digest('hex') }),
    );
    expect(await seedFromTemplate(path.join(within, 'corrupt'), loadMigrations(), corrupt)).toBe(false);
    expect(existsSync(path.join(within, 'corrupt'))).toBe(false);

    const older = { ...corrupt, manifest: path.join(within, 'older.json') };
    writeFileSync(older.manifest, JSON.stringify({ ...committed, pglite: '0.0.1' }));
    expect(await seedFromTemplate(path.join(within, 'older'), loadMigrations(), older)).toBe(false);
  });

  test('an archive with a name outside the directory, or without PG_VERSION, is refused and leaves nothing', async () => {
    const within = folder();
    const escaping = template(tarOf('../escaped', 'x'), within);
    expect(await seedFromTemplate(path.join(within, 'data'), loadMigrations(), escaping)).toBe(false);
    expect(readdirSync(within).sort()).toEqual(['t.json', 't.tar.br']);

    const empty = template(tarOf('README', 'no cluster here'), within);
    expect(await seedFromTemplate(path.join(within, 'data'), loadMigrations(), empty)).toBe(false);
    expect(readdirSync(within).sort()).toEqual(['t.json', 't.tar.br']);
  });
});
