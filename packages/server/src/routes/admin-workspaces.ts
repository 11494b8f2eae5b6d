/**
 * Workspaces and API keys in the admin API (docs/api.md, "Admin routes"): list and create workspaces,
 * list, create and revoke a workspace's keys. Every route needs the admin session; every
 * state-changing one also its CSRF token. A new key's secret is in the create reply only; lists
 * carry the visible prefix, never the secret or its hash.
 */
import { type AdminSession, API_KEY_SCOPES, type Engine } from '@saksi/engine';
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { readJsonBody, validate } from '../body.js';
import { ApiError } from '../errors.js';
import { IDENTIFIER } from '../schemas.js';

const BODY_LIMIT = 16 * 1024;

const createWorkspaceSchema = z.object({
  name: z.string().min(1).max(200),
});

const createKeySchema = z.object({
  name: z.string().min(1).max(200),
  scopes: z
    .array(z.enum(API_KEY_SCOPES))
    .min(1)
    .max(API_KEY_SCOPES.length * 2),
});

export function registerAdminWorkspaceRoutes(
  api: Hono,
  engine: Engine,
  requireSession: (c: Context, csrf: boolean) => Promise<AdminSession>,
): void {
  api.get('/admin/workspaces', async (c) => {
    await requireSession(c, false);
    const items = await engine.workspaces.list();
    return c.json({
      items: items.map((item) => ({
        id: item.id,
        name: item.name,
        quotas: item.quotas,
        created_at: item.created_at,
        documents: item.documents,
        keys: item.keys,
      })),
    });
  });

  api.post('/admin/workspaces', async (c) => {
    await requireSession(c, true);
    const body = validate(createWorkspaceSchema, await readJsonBody(c.req.raw, BODY_LIMIT), 'workspace');
    return c.json({ workspace: await engine.workspaces.create({ name: body.name }) }, 201);
  });

  api.get('/admin/workspaces/:id/keys', async (c) => {
    await requireSession(c, false);
    const workspace = pathId(c.req.param('id'), 'workspace');
    return c.json({ items: await engine.apiKeys.list(workspace) });
  });

  api.post('/admin/workspaces/:id/keys', async (c) => {
    const session = await requireSession(c, true);
    const workspace = pathId(c.req.param('id'), 'workspace');
    // An unknown workspace is 404 before the body is judged.
    await engine.workspaces.get(workspace);
    const body = validate(createKeySchema, await readJsonBody(c.req.raw, BODY_LIMIT), 'API key');
    c.header('Cache-Control', 'no-store');
    const created = await engine.apiKeys.create({
      workspaceId: workspace,
      name: body.name,
      scopes: body.scopes,
      createdBy: session.email,
    });
    return c.json({ key: created.key, record: created.record }, 201);
  });

  api.post('/admin/workspaces/:id/keys/:keyId/revoke', async (c) => {
    const session = await requireSession(c, true);
    const workspace = pathId(c.req.param('id'), 'workspace');
    const key = pathId(c.req.param('keyId'), 'API key');
    return c.json({ record: await engine.apiKeys.revoke(workspace, key, session.email) });
  });
}

/** An id from the path; one the engine could never have issued is simply not found. */
function pathId(value: string, what: string): string {
  if (!IDENTIFIER.test(value))
    throw new ApiError('NOT_FOUND', 404, `No ${what} ${JSON.stringify(value.slice(0, 100))}.`);
  return value;
}
