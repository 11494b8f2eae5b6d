/**
 * The transparency log as C2SP tiles (https://c2sp.org/tlog-tiles) under `/api/v1/log/tiles`:
 * `checkpoint` (the cosigned note), `tile/<L>/<N>[.p/<W>]` hash tiles and `tile/entries/<N>[.p/<W>]`
 * entry bundles, so existing tlog tooling can mirror and audit the log. Full tiles never change and
 * are cached for a year; the checkpoint and partial tiles change as the log grows.
 */
import { type Engine, parseTilePath } from '@saksi/engine';
import type { Mount } from '../api-spec/mount.js';

/** The tile prefix under the API router. */
export const TILES_PREFIX = '/log/tiles';

/** tlog-tiles §Merkle Tree: full tiles are immutable, "caching headers SHOULD be long-lived". */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** tlog-tiles §Checkpoints: "SHOULD prevent caching beyond a few seconds". */
const MUTABLE = 'no-cache';

export function registerTileRoutes(mount: Mount, engine: Engine): void {
  mount('getTileCheckpoint', async (c) => {
    const note = await engine.logStorage.checkpointWithCosignatures();
    return c.body(note, 200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': MUTABLE });
  });

  // One wildcard serves hash tiles and entry bundles (`tile/entries/…`), declared as two operations.
  mount('getHashTile', async (c) => {
    const marker = `${TILES_PREFIX}/`;
    const tilePath = c.req.path.slice(c.req.path.indexOf(marker) + marker.length);
    const tile = parseTilePath(tilePath);
    const bytes = await engine.logStorage.readTile(tile);
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'content-type': 'application/octet-stream',
      'cache-control': tile.width === null ? IMMUTABLE : MUTABLE,
    });
  });
}
