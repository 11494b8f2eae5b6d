/**
 * Anchoring status (docs/api.md, "Anchors"; docs/anchoring.md): `GET /anchors` — the provider, chain,
 * contract, documents per anchor state and recent rounds with explorer links; `GET /anchors/:document_id` —
 * one document's state, round and the anchor its certificates carry.
 */
import type { Engine } from '@saksi/engine';
import type { Context } from 'hono';
import type { Mount } from '../api-spec/mount.js';
import { ApiError } from '../errors.js';
import { IDENTIFIER } from '../schemas.js';

/**
 * `authorize` throws unless the caller may see the document (anyone for a public collection's, a key
 * of the owning workspace otherwise; another workspace's document is not found).
 */
export function registerAnchorRoutes(
  mount: Mount,
  engine: Engine,
  authorize: (c: Context, id: string) => Promise<void>,
): void {
  mount('getAnchorStatus', async (c) => c.json(await engine.anchoring.status()));
  mount('getDocumentAnchor', async (c) => {
    const id = c.req.param('document_id');
    if (!IDENTIFIER.test(id))
      throw new ApiError('NOT_FOUND', 404, `No document ${JSON.stringify(id.slice(0, 100))}.`);
    await authorize(c, id);
    return c.json(await engine.anchoring.status({ documentId: id }));
  });
}
