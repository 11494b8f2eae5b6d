/**
 * Chat sessions (DESIGN.md §11): `GET /sessions/:id` — the collection and the messages in order, each
 * answer with its certificate id; `DELETE /sessions/:id` — forget the conversation (certificates and
 * log entries stay, they are public record).
 */
import { deleteChatSession, type Engine, getChatSession } from '@saksi/engine';
import type { Hono } from 'hono';
import { ApiError } from '../errors.js';
import { IDENTIFIER } from '../schemas.js';

export function registerSessionRoutes(api: Hono, engine: Engine): void {
  api.get('/sessions/:id', async (c) =>
    c.json(await getChatSession(engine.db, sessionId(c.req.param('id')))),
  );
  api.delete('/sessions/:id', async (c) => {
    await deleteChatSession(engine.db, sessionId(c.req.param('id')));
    return c.body(null, 204);
  });
}

function sessionId(value: string): string {
  if (!IDENTIFIER.test(value))
    throw new ApiError('NOT_FOUND', 404, `No chat session ${JSON.stringify(value.slice(0, 100))}.`);
  return value;
}
