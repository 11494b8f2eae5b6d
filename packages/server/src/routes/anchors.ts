/**
 * Anchoring status (docs/api.md, "Anchors"; docs/anchoring.md): `GET /anchors` — the provider, chain,
 * contract, documents per anchor state and recent rounds with explorer links; `GET /anchors/:document_id` —
 * one document's state, round and the anchor its certificates carry.
 */
import type { Engine } from '@saksi/engine';
import type { Context, Hono } from 'hono';
import { ApiError } from '../errors.js';
import { IDENTIFIER } from '../schemas.js';

/**
 * `authorize` throws unless the caller may see the document (anyone for a public collection's, a key
 * of the owning workspace otherwise; another workspace's document is not found).
 */
export function registerAnchorRoutes(
  api: Hono,
  engine: Engine,
  authorize: (c: Context, id: string) => Promise<void>,
): void {
  api.get('/anchors', async (c) => c.json(await engine.anchorStatus()));
  api.get('/anchors/:document_id', async (c) => {
    const id = c.req.param('document_id');
    if (!IDENTIFIER.test(id))
      throw new ApiError('NOT_FOUND', 404, `No document ${JSON.stringify(id.slice(0, 100))}.`);
    await authorize(c, id);
    return c.json(await engine.anchorStatus(id));
  });
}
