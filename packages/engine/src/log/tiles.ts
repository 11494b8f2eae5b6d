/**
 * The read side of the transparency log as C2SP tiles (https://c2sp.org/tlog-tiles; docs/transparency-log.md,
 * "Read endpoints"): the cosigned checkpoint, hash tiles and entry bundles, read straight from the stored
 * complete subtrees (`log_nodes`) and entries (`log_entries`) so existing tlog tooling can audit the log.
 *
 * Tile (level L, index N) holds the hashes of the tree nodes at tree level 8·L with node indices
 * [256·N, 256·N + W): W = 256 for a full tile, 1..255 for a partial one. A tile of width W exists
 * when the latest checkpoint covers at least 256·N + W nodes of that level. Narrower partial tiles
 * (those of earlier checkpoints) stay available: stored nodes never change, so neither do they.
 */
import { fromBase64, fromHex, parseNote } from '@saksi/proof';
import type { Queryable } from '../db/database.js';
import { EngineError } from '../errors.js';

/** tlog-tiles §Merkle Tree: tiles have height 8. */
export const TILE_HEIGHT = 8;
/** tlog-tiles §Merkle Tree: a full tile is 256 hashes (8,192 bytes). */
export const TILE_WIDTH = 256;
/** tlog-tiles §Merkle Tree: `<L>` is between 0 and 63. */
export const TILE_MAX_LEVEL = 63;
/** tlog-tiles §Log entries: entries are length-prefixed with a big-endian uint16. */
export const ENTRY_MAX_LENGTH = 0xffff;
const HASH_LENGTH = 32;
/** Longest tile path we parse: `tile/entries/` + six `xNNN/` groups + `NNN.p/255`, with room to spare. */
const MAX_PATH_LENGTH = 64;

/** A tile path relative to the log's tile prefix; `width` is null for a full tile. */
export type TilePath =
  | { entries: false; level: number; index: number; width: number | null }
  | { entries: true; index: number; width: number | null };

/**
 * Parses `tile/<L>/<N>[.p/<W>]` or `tile/entries/<N>[.p/<W>]` strictly: only the canonical encoding
 * {@link formatTilePath} writes is accepted. Throws `INVALID_INPUT`.
 *
 * @example parseTilePath('tile/0/x001/x234/067.p/8'); // { entries: false, level: 0, index: 1234067, width: 8 }
 */
export function parseTilePath(path: string): TilePath {
  const invalid = () =>
    new EngineError(
      'INVALID_INPUT',
      'Not a C2SP tile path: expected tile/<level>/<index>[.p/<width>] or tile/entries/<index>[.p/<width>], e.g. tile/0/x001/234.p/5.',
    );
  if (typeof path !== 'string' || path.length > MAX_PATH_LENGTH) throw invalid();
  const match = /^tile\/(entries|\d{1,2})\/((?:x\d{3}\/){0,5}\d{3})(?:\.p\/(\d{1,3}))?$/.exec(path);
  if (!match) throw invalid();
  const [, levelText, indexText, widthText] = match as unknown as [
    string,
    string,
    string,
    string | undefined,
  ];
  const index = Number(indexText.replaceAll('x', '').replaceAll('/', ''));
  const width = widthText === undefined ? null : Number(widthText);
  const tile: TilePath =
    levelText === 'entries'
      ? { entries: true, index, width }
      : { entries: false, level: Number(levelText), index, width };
  if (!tile.entries && tile.level > TILE_MAX_LEVEL) throw invalid();
  if (width !== null && (width < 1 || width >= TILE_WIDTH)) throw invalid();
  if (!Number.isSafeInteger(index)) throw invalid();
  // Leading zero groups (x000/005), zero-padded levels (00) or widths (05) are not canonical.
  if (formatTilePath(tile) !== path) throw invalid();
  return tile;
}

/**
 * The canonical path of a tile: `<N>` in zero-padded 3-digit groups, all but the last prefixed with
 * `x`; `.p/<W>` only for a partial tile. Throws `INVALID_INPUT` for an out-of-range level, index or width.
 *
 * @example formatTilePath({ entries: true, index: 1234067, width: null }); // 'tile/entries/x001/x234/067'
 */
export function formatTilePath(tile: TilePath): string {
  if (!Number.isSafeInteger(tile.index) || tile.index < 0) {
    throw new EngineError('INVALID_INPUT', 'A tile index must be a non-negative integer.');
  }
  if (!tile.entries && (!Number.isInteger(tile.level) || tile.level < 0 || tile.level > TILE_MAX_LEVEL)) {
    throw new EngineError('INVALID_INPUT', `A tile level must be an integer from 0 to ${TILE_MAX_LEVEL}.`);
  }
  if (tile.width !== null && (!Number.isInteger(tile.width) || tile.width < 1 || tile.width >= TILE_WIDTH)) {
    throw new EngineError(
      'INVALID_INPUT',
      `A partial tile width must be an integer from 1 to ${TILE_WIDTH - 1}.`,
    );
  }
  const digits = String(tile.index);
  const groups: string[] = [];
  for (let end = digits.length; end > 0; end -= 3) groups.unshift(digits.slice(Math.max(0, end - 3), end));
  const encoded = groups.map((group, i) => (i < groups.length - 1 ? 'x' : '') + group.padStart(3, '0'));
  const suffix = tile.width === null ? '' : `.p/${tile.width}`;
  return `tile/${tile.entries ? 'entries' : tile.level}/${encoded.join('/')}${suffix}`;
}

/**
 * Every tile a client needs for a tree of `size` leaves (tlog-tiles §Partial Tiles): per level the
 * full tiles and, when `floor(size / 256^L) mod 256` is not zero, one partial tile; then the entry
 * bundles, laid out like the level-0 tiles. Bottom level first.
 *
 * @example tilesForTreeSize(70_000).length; // 274 + 2 + 1 hash tiles and 274 entry bundles
 */
export function tilesForTreeSize(size: number): TilePath[] {
  if (!Number.isSafeInteger(size) || size < 0) {
    throw new EngineError('INVALID_INPUT', 'A tree size must be a non-negative integer.');
  }
  const tiles: TilePath[] = [];
  for (let level = 0; level <= TILE_MAX_LEVEL; level++) {
    const nodes = nodesAtTileLevel(size, level);
    if (nodes === 0) break;
    for (const { index, width } of tileSpans(nodes)) tiles.push({ entries: false, level, index, width });
  }
  for (const { index, width } of tileSpans(size)) tiles.push({ entries: true, index, width });
  return tiles;
}

/** Number of hashes in a tile (256 for a full one). */
export function tileWidth(tile: TilePath): number {
  return tile.width ?? TILE_WIDTH;
}

/**
 * Splits an entry bundle into its entries (big-endian uint16 length, then the bytes). Throws
 * `INVALID_INPUT` for a truncated bundle, trailing bytes, or a count other than `expected` (when given).
 */
export function decodeEntryBundle(bundle: Uint8Array, expected?: number): Uint8Array[] {
  const entries: Uint8Array[] = [];
  let offset = 0;
  while (offset < bundle.length) {
    if (offset + 2 > bundle.length) throw new EngineError('INVALID_INPUT', 'The entry bundle is truncated.');
    const length = ((bundle[offset] as number) << 8) | (bundle[offset + 1] as number);
    offset += 2;
    if (offset + length > bundle.length)
      throw new EngineError('INVALID_INPUT', 'The entry bundle is truncated.');
    entries.push(bundle.subarray(offset, offset + length));
    offset += length;
  }
  if (expected !== undefined && entries.length !== expected) {
    throw new EngineError(
      'INVALID_INPUT',
      `The entry bundle holds ${entries.length} entries; ${expected} were expected.`,
    );
  }
  return entries;
}

/**
 * The hash tile at `level`, `index` (and partial `width`) as concatenated 32-byte hashes. Throws
 * `NOT_FOUND` when the latest checkpoint does not cover that many nodes, `INVALID_INPUT` for an
 * out-of-range argument.
 */
export async function readHashTile(
  db: Queryable,
  level: number,
  index: number,
  width?: number | null,
): Promise<Uint8Array> {
  const tile: TilePath = { entries: false, level, index, width: fullAsNull(width) };
  const path = formatTilePath(tile);
  const count = tileWidth(tile);
  const size = await checkpointSize(db);
  const start = index * TILE_WIDTH;
  if (start + count > nodesAtTileLevel(size, level)) throw notFound(path, size);
  const rows = await db.query<{ node_index: number; hash: string }>(
    'SELECT node_index, hash FROM log_nodes WHERE level = $1 AND node_index >= $2 AND node_index < $3 ORDER BY node_index',
    [level * TILE_HEIGHT, start, start + count],
  );
  if (rows.rows.length !== count) throw missing(path);
  const tileBytes = new Uint8Array(count * HASH_LENGTH);
  rows.rows.forEach((row, i) => {
    if (Number(row.node_index) !== start + i) throw missing(path);
    tileBytes.set(fromHex(row.hash, HASH_LENGTH), i * HASH_LENGTH);
  });
  return tileBytes;
}

/**
 * The entry bundle at `index` (and partial `width`): each leaf input as a big-endian uint16 length
 * and its bytes. Throws `NOT_FOUND` when the latest checkpoint does not cover those entries.
 */
export async function readEntryBundle(
  db: Queryable,
  index: number,
  width?: number | null,
): Promise<Uint8Array> {
  const tile: TilePath = { entries: true, index, width: fullAsNull(width) };
  const path = formatTilePath(tile);
  const count = tileWidth(tile);
  const size = await checkpointSize(db);
  const start = index * TILE_WIDTH;
  if (start + count > size) throw notFound(path, size);
  const rows = await db.query<{ leaf_index: number; leaf_input: string }>(
    'SELECT leaf_index, leaf_input FROM log_entries WHERE leaf_index >= $1 AND leaf_index < $2 ORDER BY leaf_index',
    [start, start + count],
  );
  if (rows.rows.length !== count) throw missing(path);
  const entries = rows.rows.map((row, i) => {
    if (Number(row.leaf_index) !== start + i) throw missing(path);
    const input = fromBase64(row.leaf_input);
    if (input.length > ENTRY_MAX_LENGTH) {
      throw new EngineError('LOG_ERROR', `Log entry ${start + i} is too long for an entry bundle.`);
    }
    return input;
  });
  const bundle = new Uint8Array(entries.reduce((total, entry) => total + 2 + entry.length, 0));
  let offset = 0;
  for (const entry of entries) {
    bundle[offset] = entry.length >> 8;
    bundle[offset + 1] = entry.length & 0xff;
    bundle.set(entry, offset + 2);
    offset += 2 + entry.length;
  }
  return bundle;
}

/** Reads the tile a parsed path names. Throws like {@link readHashTile} and {@link readEntryBundle}. */
export function readTile(db: Queryable, tile: TilePath): Promise<Uint8Array> {
  return tile.entries
    ? readEntryBundle(db, tile.index, tile.width)
    : readHashTile(db, tile.level, tile.index, tile.width);
}

/**
 * The latest checkpoint as served at `<prefix>/checkpoint`: the log's signed note with the stored
 * witness cosignature lines appended as further signature lines (tlog-cosignature). Throws
 * `NOT_FOUND` for an empty log.
 */
export async function checkpointWithCosignatures(db: Queryable): Promise<string> {
  const result = await db.query<{ note: string; cosignatures: string[] }>(
    'SELECT note, cosignatures FROM log_checkpoints ORDER BY size DESC LIMIT 1',
  );
  const row = result.rows[0];
  if (!row) {
    throw new EngineError(
      'NOT_FOUND',
      'The transparency log is empty; ask a question to create its first entry.',
    );
  }
  const note = row.note + row.cosignatures.map((line) => `${line}\n`).join('');
  try {
    parseNote(note);
  } catch (cause) {
    throw new EngineError(
      'LOG_ERROR',
      'The stored checkpoint and its cosignatures do not form a signed note.',
      {
        cause,
      },
    );
  }
  return note;
}

/** A width of 256 (or none) is a full tile. */
function fullAsNull(width: number | null | undefined): number | null {
  return width === undefined || width === null || width === TILE_WIDTH ? null : width;
}

/** Complete nodes at tree level 8·`level` in a tree of `size` leaves: floor(size / 256^level). */
function nodesAtTileLevel(size: number, level: number): number {
  return Math.floor(size / 2 ** (TILE_HEIGHT * level));
}

/** Full tiles over `count` hashes, then the partial one (if any). */
function tileSpans(count: number): { index: number; width: number | null }[] {
  const spans: { index: number; width: number | null }[] = [];
  const full = Math.floor(count / TILE_WIDTH);
  for (let index = 0; index < full; index++) spans.push({ index, width: null });
  const rest = count % TILE_WIDTH;
  if (rest > 0) spans.push({ index: full, width: rest });
  return spans;
}

/** Size of the latest checkpoint: tiles are served for what has been signed, not beyond. */
async function checkpointSize(db: Queryable): Promise<number> {
  const result = await db.query<{ size: number }>(
    'SELECT size FROM log_checkpoints ORDER BY size DESC LIMIT 1',
  );
  return Number(result.rows[0]?.size ?? 0);
}

function notFound(path: string, size: number): EngineError {
  return new EngineError(
    'NOT_FOUND',
    `No ${path} in the log at size ${size}; fetch <prefix>/checkpoint first and only the tiles its size needs.`,
  );
}

function missing(path: string): EngineError {
  return new EngineError('LOG_ERROR', `The log is missing stored hashes or entries for ${path}.`);
}
