/**
 * Chat sessions (docs/api.md, "Sessions"): `GET /sessions/:id` — the collection and the messages in order,
 * each answer with its certificate id; `DELETE /sessions/:id` — forget the conversation (certificates and
 * log entries stay, they are public record).
 */
import type { Engine } from '@saksi/engine';
import type { Context } from 'hono';
import type { Mount } from '../api-spec/mount.js';
import { ApiError } from '../errors.js';
import { IDENTIFIER } from '../schemas.js';

/**
 * `authorize` throws unless the caller may see the session (anyone for a public collection's, a key of
 * the owning workspace otherwise; another workspace's session is not found).
 */
export function registerSessionRoutes(
  mount: Mount,
  engine: Engine,
  authorize: (c: Context, id: string) => Promise<void>,
): void {
  mount('getSession', async (c) => {
    const id = sessionId(c.req.param('id'));
    await authorize(c, id);
    return c.json(await engine.chatSessions.get(id, engine.config.sessions));
  });
  mount('deleteSession', async (c) => {
    const id = sessionId(c.req.param('id'));
    await authorize(c, id);
    await engine.chatSessions.delete(id);
    return c.body(null, 204);
  });
}

function sessionId(value: string): string {
  if (!IDENTIFIER.test(value))
    throw new ApiError('NOT_FOUND', 404, `No chat session ${JSON.stringify(value.slice(0, 100))}.`);
  return value;
}
