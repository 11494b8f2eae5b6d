/**
 * `saksi log checkpoint | inclusion <index> | consistency <old> <new> | tiles`: read the transparency
 * log. `tiles` audits a log through its C2SP tiles (https://c2sp.org/tlog-tiles) — the way any
 * monitor can — and can keep a static mirror of them.
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  decodeEntryBundle,
  type Engine,
  formatTilePath,
  isEngineError,
  readLimited,
  type TilePath,
  tilesForTreeSize,
  tileWidth,
} from '@saksi/engine';
import {
  constantTimeEqual,
  createCosignatureVerifier,
  createNoteVerifier,
  hashLeaf,
  NOTE_MAX_BYTES,
  type NoteVerifier,
  parseCheckpoint,
  parseNote,
  plural,
  toHex,
  verifyCheckpoint,
  verifyCosignatures,
} from '@saksi/proof';
import { rootFromLeafHashes } from '@saksi/proof/issue';
import { type Command, flag, type OptionValues, stringOption } from './command.js';
import { configFrom, openEngine } from './engine-io.js';
import { CliError, type Io, type Style, styleFor, UsageError } from './io.js';
import { safeText } from './text.js';
import { loadTrust, trustLines } from './verify.js';

export const logCommand: Command = {
  name: 'log',
  summary: 'Show the log checkpoint and proofs, or audit the whole log through its tiles',
  usage:
    'saksi log checkpoint | inclusion <index> [--size N] | consistency <old> <new> | tiles [--log <url>] [--trust keys.json] [--out <dir>] [--json]',
  help: `Reads the transparency log of this data directory (tiles: or of a server).
  checkpoint                  the latest signed checkpoint (C2SP note) with witness cosignatures
  inclusion <index>           RFC 9162 inclusion proof of entry <index> (in the tree of --size entries)
  consistency <old> <new>     RFC 9162 consistency proof between two sizes
  tiles                       audit the whole log through its C2SP tiles (c2sp.org/tlog-tiles):
                              verify the checkpoint signature (and witness cosignatures) against
                              the trusted keys, fetch every hash tile and entry bundle its size
                              needs, check every entry against the level-0 tiles and every
                              higher tile against the level below, and recompute the root

Options:
  --size <n>         Tree size for inclusion (default: current size)
  --log <url>        tiles: the server to audit, e.g. https://saksi.example (tiles are read from
                     <url>/api/v1/log/tiles); a URL whose path ends in /tiles is used as the tile
                     prefix itself (a static mirror). Default: this data directory's log
  --trust <keys.json>  tiles: trusted keys (the log's and witnesses'), as saksi verify takes
                     them. Default: this machine's keys (.saksi/keys/saksi-keys.json, or under
                     $SAKSI_KEYS_DIR / $SAKSI_DATA_DIR); a ./saksi-keys.json is read only when given
  --out <dir>        tiles: after a successful audit, write a static mirror (checkpoint and
                     tile/… in the C2SP layout) that any plain file server can serve
  --json             JSON output

Exit status: 0 success; 1 tiles: the log failed the audit; 2 bad usage, unreadable input or an
unreachable server.`,
  options: {
    size: { type: 'string' },
    json: { type: 'boolean' },
    log: { type: 'string' },
    trust: { type: 'string' },
    out: { type: 'string' },
  },
  run: runLog,
};

function integer(text: string | undefined, what: string): number {
  const value = Number(text);
  if (text === undefined || !/^\d+$/.test(text) || !Number.isSafeInteger(value))
    throw new UsageError(`${what} must be a whole number`);
  return value;
}

type LogRequest =
  | { sub: 'checkpoint' }
  | { sub: 'inclusion'; index: number; size: number | undefined }
  | { sub: 'consistency'; first: number; second: number }
  | { sub: 'tiles'; prefix: string | undefined; out: string | undefined };

/** Checks the command line before the engine is opened, so a typo costs no database start. */
function parseRequest(values: OptionValues, positionals: readonly string[]): LogRequest {
  const [sub, ...rest] = positionals;
  const expectArguments = (names: readonly string[]) => {
    if (rest.length > names.length)
      throw new UsageError(`unexpected argument ${JSON.stringify(rest[names.length])}`);
  };
  if (sub === 'checkpoint') {
    expectArguments([]);
    return { sub };
  }
  if (sub === 'inclusion') {
    expectArguments(['<index>']);
    const sizeText = stringOption(values, 'size');
    return {
      sub,
      index: integer(rest[0], '<index>'),
      size: sizeText === undefined ? undefined : integer(sizeText, '--size'),
    };
  }
  if (sub === 'consistency') {
    expectArguments(['<old>', '<new>']);
    return { sub, first: integer(rest[0], '<old>'), second: integer(rest[1], '<new>') };
  }
  if (sub === 'tiles') {
    expectArguments([]);
    const log = stringOption(values, 'log');
    const out = stringOption(values, 'out');
    if (out === '') throw new UsageError('--out needs a folder');
    return { sub, prefix: log === undefined ? undefined : tilePrefix(log), out };
  }
  throw new UsageError('say which: checkpoint, inclusion <index>, consistency <old> <new> or tiles');
}

/** The tile prefix of `--log`: `<url>/api/v1/log/tiles`, or the URL itself when its path ends in /tiles. */
function tilePrefix(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(
      `--log must be a URL like https://saksi.example, not ${JSON.stringify(text.slice(0, 100))}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError('--log must be an http or https URL');
  if (url.search !== '' || url.hash !== '') throw new UsageError('--log must not have a query or fragment');
  const base = url.href.replace(/\/+$/, '');
  return /\/tiles$/.test(url.pathname.replace(/\/+$/, '')) ? base : `${base}/api/v1/log/tiles`;
}

async function runLog(values: OptionValues, positionals: readonly string[], io: Io): Promise<number> {
  const request = parseRequest(values, positionals);
  const json = flag(values, 'json');
  if (request.sub === 'tiles') return runTiles(request, values, io);
  const engine = await openEngine(configFrom(io));
  try {
    if (request.sub === 'checkpoint') {
      const checkpoint = await engine.logStorage.latestCheckpoint();
      if (!checkpoint)
        throw new CliError('the log is empty', {
          hint: 'Ask a question first: saksi ask "…" --collection <name>',
        });
      io.stdout.write(
        json
          ? `${JSON.stringify(checkpoint, null, 2)}\n`
          : checkpoint.checkpoint + checkpoint.cosignatures.map((line) => `${line}\n`).join(''),
      );
      return 0;
    }
    if (request.sub === 'inclusion') {
      const proof = await engine.logStorage.inclusionProof(request.index, request.size);
      io.stdout.write(
        json
          ? `${JSON.stringify(proof, null, 2)}\n`
          : `entry ${proof.leaf_index} in tree of ${proof.tree_size}:\n${proof.proof.join('\n')}\n`,
      );
      return 0;
    }
    const proof = await engine.logStorage.consistencyProof(request.first, request.second);
    io.stdout.write(
      json
        ? `${JSON.stringify(proof, null, 2)}\n`
        : `consistency ${proof.first} → ${proof.second}:\n${proof.proof.join('\n')}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof Error && 'code' in error && (error as { code: string }).code === 'INVALID_INPUT') {
      throw new CliError(error.message);
    }
    throw error;
  } finally {
    await engine.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// saksi log tiles

/** Largest log audited in one run: every level-0 hash is held in memory (32 bytes per entry). */
const MAX_AUDIT_SIZE = 50_000_000;
/** Tiles fetched at once. */
const FETCH_CONCURRENCY = 8;
const FETCH_TIMEOUT_MS = 30_000;
const HASH_LENGTH = 32;
const MAX_PROBLEMS_SHOWN = 10;

/** Where tiles come from: a server (or a static mirror) over HTTP, or this data directory. */
interface TileSource {
  /** For messages: the tile prefix URL or the data directory. */
  readonly name: string;
  checkpoint(): Promise<string>;
  /** The tile's bytes, or null when the source does not have it. */
  tile(tile: TilePath, maxBytes: number): Promise<Uint8Array | null>;
}

type ProblemCode =
  | 'LOG_UNTRUSTED'
  | 'CHECKPOINT_SIGNATURE_INVALID'
  | 'COSIGNATURES_INSUFFICIENT'
  | 'TILE_MISSING'
  | 'TILE_MALFORMED'
  | 'ENTRY_HASH_MISMATCH'
  | 'TILE_HASH_MISMATCH'
  | 'ROOT_MISMATCH';

export interface TileAudit {
  source: string;
  origin: string;
  size: number;
  /** The checkpoint's root, hex. */
  root_hash: string;
  cosigned_by: string[];
  tiles: { hash: number; entries: number; bytes: number };
  checks: { id: string; ok: boolean | null; message: string }[];
  problems: { code: ProblemCode; message: string }[];
  ok: boolean;
  mirror?: string;
}

async function runTiles(
  request: { prefix: string | undefined; out: string | undefined },
  values: OptionValues,
  io: Io,
): Promise<number> {
  const { options: trust, source: trustSource } = await loadTrust(values, io);
  const out = request.out === undefined ? undefined : path.resolve(io.cwd, request.out);
  if (out !== undefined) await assertFolder(out, request.out as string);
  let engine: Engine | undefined;
  try {
    let source: TileSource;
    if (request.prefix !== undefined) {
      source = httpSource(request.prefix);
    } else {
      const config = configFrom(io);
      engine = await openEngine(config);
      source = engineSource(engine, config.dataDir);
    }
    const { audit, note, tiles } = await auditTiles(source, trust);
    if (out !== undefined && audit.ok) {
      await writeMirror(out, note, tiles);
      audit.mirror = out;
    }
    if (flag(values, 'json')) {
      io.stderr.write(`${trustLines(trustSource, styleFor(io.stderr, io.env)).join('\n')}\n`);
      io.stdout.write(`${JSON.stringify(audit, null, 2)}\n`);
    } else {
      const style = styleFor(io.stdout, io.env);
      io.stdout.write(
        `${trustLines(trustSource, style).join('\n')}\n\n${renderAudit(audit, style, request.out)}`,
      );
    }
    return audit.ok ? 0 : 1;
  } finally {
    await engine?.close();
  }
}

async function assertFolder(absolute: string, shown: string): Promise<void> {
  const info = await stat(absolute).catch(() => undefined);
  if (info !== undefined && !info.isDirectory()) {
    throw new CliError(`--out ${safeText(shown)} is a file; give a folder for the mirror`);
  }
}

function httpSource(prefix: string): TileSource {
  const get = async (relative: string, maxBytes: number): Promise<Uint8Array | null> => {
    const url = `${prefix}/${relative}`;
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
    } catch (cause) {
      throw new CliError(`cannot reach ${safeText(url)}: ${reasonOf(cause)}`, {
        hint: 'Check --log and that the server is running.',
        cause,
      });
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new CliError(`${safeText(url)} answered HTTP ${response.status}`, {
        hint: 'Try again later; the audit needs every tile.',
      });
    }
    return readBodyLimited(response, maxBytes, url);
  };
  return {
    name: prefix,
    async checkpoint() {
      const bytes = await get('checkpoint', NOTE_MAX_BYTES);
      if (bytes === null) {
        throw new CliError(`no checkpoint at ${safeText(prefix)}/checkpoint`, {
          hint: 'Is the log empty, or is --log not a Saksi server (or a tile mirror whose path ends in /tiles)?',
        });
      }
      try {
        return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch (cause) {
        throw new CliError(`the checkpoint at ${safeText(prefix)} is not UTF-8 text`, { cause });
      }
    },
    tile: (tile, maxBytes) => get(formatTilePath(tile), maxBytes),
  };
}

function engineSource(engine: Engine, dataDir: string): TileSource {
  return {
    name: dataDir,
    async checkpoint() {
      try {
        return await engine.logStorage.checkpointWithCosignatures();
      } catch (error) {
        if (isEngineError(error, 'NOT_FOUND')) {
          throw new CliError('the log is empty', {
            hint: 'Ask a question first: saksi ask "…" --collection <name>',
          });
        }
        throw error;
      }
    },
    async tile(tile) {
      try {
        return await engine.logStorage.readTile(tile);
      } catch (error) {
        if (isEngineError(error, 'NOT_FOUND')) return null;
        throw error;
      }
    },
  };
}

/** The body of `response`, refusing more than `maxBytes` (a hostile server could send without end). */
function readBodyLimited(response: Response, maxBytes: number, url: string): Promise<Uint8Array> {
  return readLimited(
    response.body,
    maxBytes,
    () =>
      new CliError(`${safeText(url)} sent more than ${maxBytes} bytes`, {
        hint: 'The log is misbehaving, or --log does not point at a tile log.',
      }),
    { declaredLength: response.headers.get('content-length') },
  );
}

/** The most specific reason in a fetch or file-system error: `ECONNREFUSED`, `timed out`, `bad port`… */
function reasonOf(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (cause instanceof Error) return reasonOf(cause);
  return error instanceof Error ? error.message : 'failed';
}

/**
 * Audits a log through its tiles: the checkpoint against the trusted keys, then every tile its size
 * needs (tlog-tiles): entries against level-0 hashes, each higher-level hash against the full tile
 * below it, and the root recomputed from level 0 against the checkpoint.
 */
async function auditTiles(
  source: TileSource,
  trust: Awaited<ReturnType<typeof loadTrust>>['options'],
): Promise<{ audit: TileAudit; note: string; tiles: Map<string, Uint8Array> }> {
  const note = await source.checkpoint();
  const audit: TileAudit = {
    source: source.name,
    origin: '',
    size: 0,
    root_hash: '',
    cosigned_by: [],
    tiles: { hash: 0, entries: 0, bytes: 0 },
    checks: [],
    problems: [],
    ok: false,
  };
  const tiles = new Map<string, Uint8Array>();
  const check = (id: string, ok: boolean | null, message: string) => audit.checks.push({ id, ok, message });
  const problem = (code: ProblemCode, message: string) => audit.problems.push({ code, message });

  // 1. The checkpoint: signed by a log we trust (and cosigned as the keys require).
  let origin: string;
  try {
    origin = parseCheckpoint(parseNote(note).text).origin;
  } catch {
    throw new CliError(`the checkpoint from ${safeText(source.name)} is not a C2SP signed checkpoint`);
  }
  audit.origin = origin;
  const verifier = logVerifier(trust.trustedLogs, origin);
  if (verifier === undefined) {
    problem('LOG_UNTRUSTED', `The log ${origin} is not in the trusted keys; pin its key with --trust.`);
    check('checkpoint', false, `log ${origin} is not trusted`);
    return { audit, note, tiles };
  }
  const verified = verifyCheckpoint(note, verifier);
  if (!verified.ok) {
    problem(
      'CHECKPOINT_SIGNATURE_INVALID',
      `The checkpoint does not verify with the trusted log key (${verified.reason}).`,
    );
    check('checkpoint', false, `signature does not verify (${verified.reason})`);
    return { audit, note, tiles };
  }
  const { size, rootHash } = verified.checkpoint;
  audit.size = size;
  audit.root_hash = toHex(rootHash);
  check('checkpoint', true, `signed by ${origin}: ${plural(size, 'entry', 'entries')}`);
  const witnesses: NoteVerifier[] = [];
  for (const vkey of trust.witnesses ?? []) {
    try {
      witnesses.push(createCosignatureVerifier(vkey));
    } catch {}
  }
  const required = trust.requiredCosignatures ?? 0;
  if (witnesses.length > 0 || required > 0) {
    const cosigned = verifyCosignatures(note, witnesses, Math.max(required, 1));
    audit.cosigned_by = cosigned.valid;
    const ok = cosigned.valid.length >= required;
    if (!ok) {
      problem(
        'COSIGNATURES_INSUFFICIENT',
        `${plural(cosigned.valid.length, 'trusted witness cosignature')}; the trusted keys require ${required}.`,
      );
    }
    check(
      'cosignatures',
      ok,
      `cosigned by ${plural(cosigned.valid.length, 'trusted witness', 'trusted witnesses')}${cosigned.valid.length > 0 ? `: ${cosigned.valid.join(', ')}` : ''}${required > 0 ? ` (${required} required)` : ''}`,
    );
  } else {
    check('cosignatures', null, 'no witnesses in the trusted keys');
  }
  if (size > MAX_AUDIT_SIZE) {
    throw new CliError(
      `the log has ${plural(size, 'entry', 'entries')}; this command audits at most ${MAX_AUDIT_SIZE}`,
    );
  }

  // 2. Every tile the size needs.
  const needed = tilesForTreeSize(size);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < needed.length && !failed) {
      const tile = needed[next++] as TilePath;
      // Room for a full tile, so a partial one of the wrong length is reported as malformed below.
      const maxBytes = tile.entries ? tileWidth(tile) * (2 + 0xffff) : 256 * HASH_LENGTH;
      const bytes = await source.tile(tile, maxBytes).catch((error: unknown) => {
        failed = true; // the other workers stop; the error is the command's
        throw error;
      });
      const tilePath = formatTilePath(tile);
      if (bytes === null) {
        problem('TILE_MISSING', `${tilePath} is missing, though the checkpoint's size needs it.`);
        continue;
      }
      audit.tiles[tile.entries ? 'entries' : 'hash']++;
      audit.tiles.bytes += bytes.length;
      tiles.set(tilePath, bytes);
    }
  };
  await Promise.all(Array.from({ length: FETCH_CONCURRENCY }, worker));

  // 3. Hash tiles: exactly width × 32 bytes.
  const hashes = new Map<string, Uint8Array[]>();
  for (const tile of needed) {
    if (tile.entries) continue;
    const tilePath = formatTilePath(tile);
    const bytes = tiles.get(tilePath);
    if (bytes === undefined) continue;
    if (bytes.length !== tileWidth(tile) * HASH_LENGTH) {
      problem(
        'TILE_MALFORMED',
        `${tilePath} is ${bytes.length} bytes, not ${tileWidth(tile) * HASH_LENGTH}.`,
      );
      continue;
    }
    hashes.set(
      tilePath,
      Array.from({ length: tileWidth(tile) }, (_, i) =>
        bytes.subarray(i * HASH_LENGTH, (i + 1) * HASH_LENGTH),
      ),
    );
  }
  const hashesOf = (level: number, index: number, width: number | null) =>
    hashes.get(formatTilePath({ entries: false, level, index, width }));

  // 4. Entry bundles against the level-0 tiles.
  let entriesChecked = 0;
  let entryMismatches = 0;
  for (const tile of needed) {
    if (!tile.entries) continue;
    const tilePath = formatTilePath(tile);
    const bytes = tiles.get(tilePath);
    const leafHashes = hashesOf(0, tile.index, tile.width);
    if (bytes === undefined || leafHashes === undefined) continue;
    let entries: Uint8Array[];
    try {
      entries = decodeEntryBundle(bytes, tileWidth(tile));
    } catch (error) {
      problem('TILE_MALFORMED', `${tilePath}: ${error instanceof Error ? error.message : 'undecodable'}`);
      continue;
    }
    entries.forEach((entry, i) => {
      entriesChecked++;
      if (constantTimeEqual(hashLeaf(entry), leafHashes[i] as Uint8Array)) return;
      entryMismatches++;
      if (entryMismatches <= MAX_PROBLEMS_SHOWN) {
        problem(
          'ENTRY_HASH_MISMATCH',
          `Entry ${tile.index * 256 + i} (${tilePath}) does not hash to hash ${i} of ${formatTilePath({ ...tile, entries: false, level: 0 })}.`,
        );
      }
    });
  }
  check(
    'entries',
    entriesChecked === size && entryMismatches === 0,
    `${entriesChecked - entryMismatches} of ${plural(size, 'entry', 'entries')} ${entriesChecked - entryMismatches === 1 ? 'hashes to its level-0 leaf hash' : 'hash to their level-0 leaf hashes'}`,
  );

  // 5. Higher levels: hash i of tile (L, N) is the root of the full tile (L−1, 256·N + i).
  let upperChecked = 0;
  let upperMismatches = 0;
  for (const tile of needed) {
    if (tile.entries || tile.level === 0) continue;
    const upper = hashesOf(tile.level, tile.index, tile.width);
    if (upper === undefined) continue;
    upper.forEach((hash, i) => {
      const below = hashesOf(tile.level - 1, tile.index * 256 + i, null);
      if (below === undefined) return;
      upperChecked++;
      if (constantTimeEqual(rootFromLeafHashes(below), hash)) return;
      upperMismatches++;
      if (upperMismatches <= MAX_PROBLEMS_SHOWN) {
        problem(
          'TILE_HASH_MISMATCH',
          `Hash ${i} of ${formatTilePath(tile)} is not the root of ${formatTilePath({ entries: false, level: tile.level - 1, index: tile.index * 256 + i, width: null })} below it.`,
        );
      }
    });
  }
  const upperNeeded = needed
    .filter((tile) => !tile.entries && tile.level > 0)
    .reduce((total, tile) => total + tileWidth(tile), 0);
  check(
    'tree',
    upperChecked === upperNeeded && upperMismatches === 0,
    upperNeeded === 0
      ? 'no higher-level tiles at this size'
      : `${upperChecked - upperMismatches} of ${upperNeeded} higher-level hashes match the tiles below`,
  );

  // 6. The root, from the level-0 tiles alone.
  const level0 = needed.filter((tile) => !tile.entries && tile.level === 0);
  const leaves = level0.map((tile) => hashesOf(0, tile.index, tile.width));
  if (leaves.some((tileHashes) => tileHashes === undefined)) {
    check('root', false, 'not recomputed: level-0 tiles are missing or malformed');
  } else {
    const root = rootFromLeafHashes((leaves as Uint8Array[][]).flat());
    const ok = constantTimeEqual(root, rootHash);
    if (!ok)
      problem('ROOT_MISMATCH', `The root of the level-0 tiles is ${toHex(root)}, not the checkpoint's.`);
    check(
      'root',
      ok,
      ok
        ? 'recomputed from the level-0 tiles: equals the checkpoint root'
        : 'differs from the checkpoint root',
    );
  }

  audit.ok = audit.problems.length === 0 && audit.checks.every((c) => c.ok !== false);
  return { audit, note, tiles };
}

function logVerifier(
  logs: readonly { origin: string; vkey: string }[],
  origin: string,
): NoteVerifier | undefined {
  for (const log of logs) {
    if (log.origin !== origin) continue;
    try {
      return createNoteVerifier(log.vkey);
    } catch {}
  }
  return undefined;
}

/** Writes `<dir>/checkpoint` and `<dir>/tile/…` as tlog-tiles lays them out. */
async function writeMirror(dir: string, note: string, tiles: Map<string, Uint8Array>): Promise<void> {
  try {
    for (const [tilePath, bytes] of tiles) {
      const file = path.join(dir, ...tilePath.split('/'));
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, bytes);
    }
    // The checkpoint last: a mirror never advertises a size whose tiles are not all written.
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'checkpoint'), note);
  } catch (cause) {
    throw new CliError(`cannot write the mirror in ${safeText(dir)}: ${reasonOf(cause)}`, { cause });
  }
}

function renderAudit(audit: TileAudit, style: Style, out: string | undefined): string {
  const lines = [`${style.bold('Log')}    ${safeText(audit.origin)} (${safeText(audit.source)})`];
  if (audit.size > 0)
    lines.push(`${style.bold('Size')}   ${plural(audit.size, 'entry', 'entries')}, root ${audit.root_hash}`);
  lines.push(
    `${style.bold('Tiles')}  ${plural(audit.tiles.hash, 'hash tile')} and ${plural(audit.tiles.entries, 'entry bundle')} fetched (${plural(audit.tiles.bytes, 'byte')})`,
    '',
  );
  for (const c of audit.checks) {
    const mark = c.ok === true ? style.green('✓') : c.ok === false ? style.red('✗') : style.dim('–');
    lines.push(`  ${mark} ${c.id.padEnd(12)} ${safeText(c.message)}`);
  }
  if (audit.problems.length > 0) {
    lines.push('', style.bold('Problems'));
    for (const p of audit.problems.slice(0, MAX_PROBLEMS_SHOWN))
      lines.push(`  ${style.red(p.code)}: ${safeText(p.message)}`);
    const hidden = audit.problems.length - MAX_PROBLEMS_SHOWN;
    if (hidden > 0) lines.push(`  ${style.dim(`… and ${hidden} more`)}`);
  }
  lines.push('');
  if (audit.ok) {
    lines.push(
      `Verdict: ${style.green(style.bold('VERIFIED'))} — every tile agrees with the signed checkpoint.`,
    );
    if (audit.mirror !== undefined) {
      lines.push(
        `Mirror written to ${safeText(out ?? audit.mirror)} (serve it as <prefix>/checkpoint and <prefix>/tile/…).`,
      );
    }
  } else {
    lines.push(
      `Verdict: ${style.red(style.bold('FAILED'))} — ${[...new Set(audit.problems.map((p) => p.code))].join(', ')}. The log's tiles do not match its signed checkpoint.`,
    );
    if (out !== undefined) lines.push('No mirror was written.');
  }
  return `${lines.join('\n')}\n`;
}
