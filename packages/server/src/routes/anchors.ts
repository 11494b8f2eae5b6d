/**
 * Anchoring status (DESIGN.md §10, §11): `GET /anchors` — the provider, chain, contract, documents per
 * anchor state and recent rounds with explorer links; `GET /anchors/:document_id` — one document's
 * state, round and the anchor its certificates carry.
 */
import type { Engine } from '@saksi/engine';
import type { Hono } from 'hono';
import { ApiError } from '../errors.js';
import { IDENTIFIER } from '../schemas.js';

export function registerAnchorRoutes(api: Hono, engine: Engine): void {
  api.get('/anchors', async (c) => c.json(await engine.anchorStatus()));
  api.get('/anchors/:document_id', async (c) => {
    const id = c.req.param('document_id');
    if (!IDENTIFIER.test(id))
      throw new ApiError('NOT_FOUND', 404, `No document ${JSON.stringify(id.slice(0, 100))}.`);
    return c.json(await engine.anchorStatus(id));
  });
}
