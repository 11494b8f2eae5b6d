/**
 * Workspaces and API keys in the admin API (docs/api.md, "Admin routes"): list and create workspaces,
 * list, create and revoke a workspace's keys. Every route needs the admin session; every
 * state-changing one also its CSRF token. A new key's secret is in the create reply only; lists
 * carry the visible prefix, never the secret or its hash.
 */
import type { Engine } from '@saksi/engine';
import type { Mount } from '../api-spec/mount.js';
import { ApiError } from '../errors.js';
import { IDENTIFIER } from '../schemas.js';

export function registerAdminWorkspaceRoutes(mount: Mount, engine: Engine): void {
  mount('adminListWorkspaces', async (c) => {
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

  mount('adminCreateWorkspace', async (c, { body }) => {
    return c.json({ workspace: await engine.workspaces.create({ name: body.name }) }, 201);
  });

  mount('adminListKeys', async (c) => {
    const workspace = pathId(c.req.param('id'), 'workspace');
    return c.json({ items: await engine.apiKeys.list(workspace) });
  });

  mount('adminCreateKey', async (c, { session, readBody }) => {
    const workspace = pathId(c.req.param('id'), 'workspace');
    // An unknown workspace is 404 before the body is judged.
    await engine.workspaces.get(workspace);
    const body = await readBody();
    c.header('Cache-Control', 'no-store');
    const created = await engine.apiKeys.create({
      workspaceId: workspace,
      name: body.name,
      scopes: body.scopes,
      createdBy: session.email,
    });
    return c.json({ key: created.key, record: created.record }, 201);
  });

  mount('adminRevokeKey', async (c, { session }) => {
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
