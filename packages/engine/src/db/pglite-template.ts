/**
 * A new PGlite data directory from a template instead of initdb. PGlite creates a missing data
 * directory by running initdb in a second PGlite instance inside this process, which peaks at
 * 500–850 MB of memory; unpacking the same initialized, empty cluster from a file and opening it as an
 * existing directory does not (docs/operations.md, "Memory").
 *
 * The template (`packages/engine/assets/pglite-empty.tar.br`, made by `npm run pglite-template`) is a
 * new data directory as the engine leaves it — PGlite's initdb, the `vector` extension and the
 * migrations, no data — shut down cleanly, as a tar archive compressed with Brotli. Its manifest
 * (`pglite-empty.json`) names the PGlite and pgvector versions that made it, the migrations it holds
 * (with their SHA-256) and the file's SHA-256. It is used only when those versions are the ones
 * installed, its migrations are the first of the caller's, unchanged (migrations added since are
 * applied as on any start), the hash matches, and the archive holds nothing but plain files and
 * folders inside the data directory; it is unpacked
 * beside the data directory and renamed into place, so a directory is never left half written. In
 * every other case, and when PostgreSQL then refuses the directory, PGlite's own initdb runs as before.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createBrotliDecompress } from 'node:zlib';

/** Where the template and its manifest are, from this file's place in src/db or dist/db. */
export const PGLITE_TEMPLATE = {
  archive: fileURLToPath(new URL('../../assets/pglite-empty.tar.br', import.meta.url)),
  manifest: fileURLToPath(new URL('../../assets/pglite-empty.json', import.meta.url)),
};

/** What `pglite-empty.json` records about the archive. */
export interface PgliteTemplateManifest {
  /** The `@electric-sql/pglite` version whose initdb made it. */
  pglite: string;
  /** The `@electric-sql/pglite-pgvector` version whose `vector` extension it holds. */
  pgvector: string;
  /** The migrations applied in it, in order. */
  migrations: TemplateMigration[];
  /** SHA-256 of the `.tar.br` file, hex. */
  sha256: string;
}

/** A migration as the manifest records it. */
export interface TemplateMigration {
  version: number;
  name: string;
  /** SHA-256 of its SQL, hex. */
  sha256: string;
}

/** How the manifest records `migrations` (`db/migrate.ts` `Migration`). */
export function templateMigrations(
  migrations: readonly { version: number; name: string; sql: string }[],
): TemplateMigration[] {
  return migrations.map(({ version, name, sql }) => ({
    version,
    name,
    sha256: createHash('sha256').update(sql).digest('hex'),
  }));
}

/** The versions of the installed PGlite and pgvector packages, as a manifest names them. */
export function installedVersions(): Pick<PgliteTemplateManifest, 'pglite' | 'pgvector'> {
  return {
    pglite: installedVersion('@electric-sql/pglite'),
    pgvector: installedVersion('@electric-sql/pglite-pgvector'),
  };
}

/** The version of an installed package, from the package.json above its entry point. */
function installedVersion(name: string): string {
  const require = createRequire(import.meta.url);
  let folder = path.dirname(require.resolve(name));
  for (;;) {
    const manifest = path.join(folder, 'package.json');
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown; version?: unknown };
      if (parsed.name === name && typeof parsed.version === 'string') return parsed.version;
    }
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error(`the package.json of ${name} was not found`);
    folder = parent;
  }
}

/** Whether `dataDir` is a directory PGlite would initialize: missing, or empty. */
export function isUninitialized(dataDir: string): boolean {
  if (!existsSync(dataDir)) return true;
  try {
    return readdirSync(dataDir).length === 0;
  } catch {
    return false;
  }
}

/**
 * Unpacks the template into `dataDir` when it is missing or empty and the template is usable with
 * `migrations` (those the caller applies next); true when it did. Never throws: a template that
 * cannot be used leaves `dataDir` as it was.
 */
export async function seedFromTemplate(
  dataDir: string,
  migrations: readonly { version: number; name: string; sql: string }[],
  template: { archive: string; manifest: string } = PGLITE_TEMPLATE,
): Promise<boolean> {
  if (!isUninitialized(dataDir)) return false;
  let archive: Buffer;
  try {
    const manifest = JSON.parse(readFileSync(template.manifest, 'utf8')) as Partial<PgliteTemplateManifest>;
    const installed = installedVersions();
    if (manifest.pglite !== installed.pglite || manifest.pgvector !== installed.pgvector) return false;
    const current = templateMigrations(migrations);
    const held = Array.isArray(manifest.migrations) ? manifest.migrations : [];
    const prefix =
      held.length <= current.length &&
      held.every(
        (migration, index) =>
          migration.version === current[index]!.version && migration.sha256 === current[index]!.sha256,
      );
    if (!prefix) return false;
    archive = readFileSync(template.archive);
    if (createHash('sha256').update(archive).digest('hex') !== manifest.sha256) return false;
  } catch {
    return false;
  }
  const staging = `${dataDir}.template-${process.pid}`;
  try {
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    // Larger output chunks than zlib's 16 KB leave less of this process's heap behind (about 10 MB).
    await pipeline(
      Readable.from([archive]),
      createBrotliDecompress({ chunkSize: 256 * 1024 }),
      untar(staging),
    );
    if (!existsSync(path.join(staging, 'PG_VERSION'))) throw new Error('the template holds no PG_VERSION');
    if (existsSync(dataDir)) rmdirSync(dataDir); // empty, checked above
    renameSync(staging, dataDir);
    return true;
  } catch {
    rmSync(staging, { recursive: true, force: true });
    return false;
  }
}

const TAR_BLOCK = 512;

/** The file being unpacked: its descriptor (null once written), the bytes still to come, then padding. */
interface OpenFile {
  fd: number | null;
  remaining: number;
  padding: number;
}

/**
 * A writable stream that unpacks a POSIX tar archive into `root` as it arrives: plain files and
 * folders only, every name inside `root`. Anything else (links, devices, `..`) fails the stream.
 */
function untar(root: string): Writable {
  let pending: Buffer = Buffer.alloc(0);
  let file: OpenFile | null = null;
  let ended = false;

  const closeFile = (open: OpenFile): void => {
    if (open.fd !== null) closeSync(open.fd);
    open.fd = null;
  };

  /** Reads one header block: a folder is made, a file opened (returned while it has bytes to come). */
  const entry = (header: Buffer): OpenFile | null => {
    if (header.every((byte) => byte === 0)) {
      ended = true;
      return null;
    }
    const text = (start: number, length: number) => {
      const field = header.subarray(start, start + length);
      const end = field.indexOf(0);
      return field.subarray(0, end === -1 ? length : end).toString('utf8');
    };
    const size = Number.parseInt(text(124, 12).trim() || '0', 8);
    const type = text(156, 1) || '0';
    const prefix = text(257, 5) === 'ustar' ? text(345, 155) : '';
    const name = (prefix ? `${prefix}/` : '') + text(0, 100);
    const parts = name.split('/').filter((part) => part !== '' && part !== '.');
    if (!Number.isSafeInteger(size) || size < 0) throw new Error(`bad size in the tar entry ${name}`);
    if (parts.length === 0 || parts.includes('..')) throw new Error(`tar entry outside the folder: ${name}`);
    const target = path.join(root, ...parts);
    if (type === '5' && size === 0) {
      mkdirSync(target, { recursive: true });
      return null;
    }
    if (type !== '0') throw new Error(`tar entry ${name} is not a plain file or folder (type ${type})`);
    mkdirSync(path.dirname(target), { recursive: true });
    const open: OpenFile = {
      fd: openSync(target, 'wx'),
      remaining: size,
      padding: (TAR_BLOCK - (size % TAR_BLOCK)) % TAR_BLOCK,
    };
    if (size > 0) return open;
    closeFile(open);
    return null;
  };

  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      try {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        let offset = 0;
        while (!ended) {
          const available = pending.length - offset;
          if (file === null) {
            if (available < TAR_BLOCK) break;
            file = entry(pending.subarray(offset, offset + TAR_BLOCK));
            offset += TAR_BLOCK;
          } else if (file.remaining > 0) {
            if (available === 0) break;
            const take = Math.min(file.remaining, available);
            writeSync(file.fd!, pending, offset, take);
            offset += take;
            file.remaining -= take;
            if (file.remaining === 0) closeFile(file);
            if (file.remaining === 0 && file.padding === 0) file = null;
          } else {
            if (available < file.padding) break;
            offset += file.padding;
            file = null;
          }
        }
        pending = ended ? Buffer.alloc(0) : pending.subarray(offset);
        callback();
      } catch (error) {
        if (file) closeFile(file);
        file = null;
        callback(error as Error);
      }
    },
    final(callback) {
      if (file) closeFile(file);
      const complete = ended || (file === null && pending.length === 0);
      callback(complete ? null : new Error('the tar archive is truncated'));
    },
  });
}
