/**
 * Writes the template of new PGlite data directories (`src/db/pglite-template.ts`):
 *
 *   npm run pglite-template
 *
 * A data directory is made in a temporary folder as the engine makes one without a template (PGlite's
 * initdb, the `vector` extension, the migrations) and closed, which shuts PostgreSQL down cleanly: a
 * directory opened from the template then needs no recovery. The folder is written as a POSIX tar
 * archive, compressed with Brotli into `assets/pglite-empty.tar.br`; `assets/pglite-empty.json`
 * records the PGlite and pgvector versions, the migrations and the file's SHA-256.
 *
 * Run it after adding a migration (until then, a new directory gets the template and then the new
 * migrations, as any start applies them) and after upgrading PGlite or pgvector or changing a
 * migration (until then, new directories are made by initdb, as without a template). The template's
 * test fails in every one of these cases.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { openDatabase } from '../src/db/database.js';
import { loadMigrations, migrate } from '../src/db/migrate.js';
import {
  installedVersions,
  PGLITE_TEMPLATE,
  type PgliteTemplateManifest,
  templateMigrations,
} from '../src/db/pglite-template.js';

const TAR_BLOCK = 512;

/** One ustar header (POSIX.1-1988): a plain file (`0`) or a folder (`5`). */
function header(name: string, type: '0' | '5', size: number): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`name too long for a tar header: ${name}`);
  const block = Buffer.alloc(TAR_BLOCK);
  const put = (text: string, offset: number) => block.write(text, offset, 'utf8');
  const octal = (value: number, width: number) => `${value.toString(8).padStart(width - 1, '0')}\0`;
  put(name, 0);
  put(octal(type === '5' ? 0o755 : 0o644, 8), 100);
  put(octal(0, 8), 108);
  put(octal(0, 8), 116);
  put(octal(size, 12), 124);
  put(octal(0, 12), 136);
  put('        ', 148);
  put(type, 156);
  put('ustar\0', 257);
  put('00', 263);
  let checksum = 0;
  for (const byte of block) checksum += byte;
  put(`${checksum.toString(8).padStart(6, '0')}\0 `, 148);
  return block;
}

/** The folder `root` as a tar archive, entries sorted by name, folders before their contents. */
function tar(root: string): Buffer {
  const parts: Buffer[] = [];
  const visit = (relative: string) => {
    for (const name of readdirSync(path.join(root, relative)).sort()) {
      const entry = relative ? `${relative}/${name}` : name;
      const full = path.join(root, entry);
      if (statSync(full).isDirectory()) {
        parts.push(header(`${entry}/`, '5', 0));
        visit(entry);
      } else {
        const bytes = readFileSync(full);
        parts.push(header(entry, '0', bytes.length), bytes);
        const padding = (TAR_BLOCK - (bytes.length % TAR_BLOCK)) % TAR_BLOCK;
        if (padding > 0) parts.push(Buffer.alloc(padding));
      }
    }
  };
  visit('');
  parts.push(Buffer.alloc(2 * TAR_BLOCK));
  return Buffer.concat(parts);
}

const folder = mkdtempSync(path.join(tmpdir(), 'saksi-pglite-template-'));
try {
  const dataDir = path.join(folder, 'pglite');
  const migrations = loadMigrations();
  // Without `migrations`, openDatabase runs initdb rather than unpacking the current template.
  const db = await openDatabase({ dataDir });
  await migrate(db, migrations);
  await db.close();
  const archive = tar(dataDir);
  const compressed = brotliCompressSync(archive, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
      [constants.BROTLI_PARAM_SIZE_HINT]: archive.length,
    },
  });
  const manifest: PgliteTemplateManifest = {
    ...installedVersions(),
    migrations: templateMigrations(migrations),
    sha256: createHash('sha256').update(compressed).digest('hex'),
  };
  writeFileSync(PGLITE_TEMPLATE.archive, compressed);
  writeFileSync(PGLITE_TEMPLATE.manifest, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(
    `${PGLITE_TEMPLATE.archive}: ${archive.length} bytes of tar, ${compressed.length} compressed, PGlite ${manifest.pglite}`,
  );
} finally {
  rmSync(folder, { recursive: true, force: true });
}
