/**
 * The admin API under `/api/v1/admin` (docs/api.md, "Admin routes"): sign-in with an HttpOnly,
 * SameSite=Strict session cookie; every state-changing admin route also needs the session's CSRF token in
 * `X-CSRF-Token`. Uploads stream ingestion progress as Server-Sent Events when asked to.
 */
import {
  type Engine,
  type IngestProgress,
  type login,
  RateLimitedError,
  SESSION_SECONDS,
} from '@saksi/engine';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { type Access, SESSION_COOKIE } from '../access.js';
import type { Mount } from '../api-spec/mount.js';
import { adminUploadFields } from '../api-spec/request-schemas.js';
import { ApiError, toErrorResponse } from '../errors.js';
import { IDENTIFIER, listDocumentsOptions } from '../schemas.js';
import { streamEvents } from '../sse.js';
import { parseUpload } from '../upload.js';
import { registerAdminUsageRoutes } from './admin-usage.js';
import { registerAdminWorkspaceRoutes } from './admin-workspaces.js';

/**
 * Who the client is and how it connected: the TCP peer, or what trusted proxies say
 * (`SAKSI_TRUST_PROXY`, client-address.ts); a client cannot forge either without a trusted proxy.
 */
export type AdminRouteOptions = Pick<Access, 'clientAddress' | 'isHttps'>;

export function registerAdminRoutes(mount: Mount, engine: Engine, options: AdminRouteOptions): void {
  const secret = () => engine.authSecret();

  mount('adminLogin', async (c, { body }) => {
    let result: Awaited<ReturnType<typeof login>>;
    try {
      result = await engine.admins.login(body.email, body.password, {
        ip: options.clientAddress(c),
        secret: await secret(),
      });
    } catch (error) {
      if (error instanceof RateLimitedError) {
        const mapped = toErrorResponse(error);
        return c.json(mapped.body, 429, { 'Retry-After': String(Math.max(1, error.retryAfterSeconds)) });
      }
      throw error;
    }
    setCookie(c, SESSION_COOKIE, result.token, {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
      maxAge: SESSION_SECONDS,
      ...(options.isHttps(c) ? { secure: true } : {}),
    });
    c.header('Cache-Control', 'no-store');
    return c.json({ email: result.email, csrf_token: result.csrf_token });
  });

  mount('adminLogout', async (c) => {
    await engine.admins.logout(getCookie(c, SESSION_COOKIE));
    deleteCookie(c, SESSION_COOKIE, {
      path: '/',
      httpOnly: true,
      sameSite: 'Strict',
      ...(options.isHttps(c) ? { secure: true } : {}),
    });
    return c.body(null, 204);
  });

  mount('adminMe', async (c, { session }) => {
    c.header('Cache-Control', 'no-store');
    return c.json({ email: session.email, csrf_token: session.csrf_token });
  });

  mount('adminUploadDocument', async (c, { session }) => {
    const upload = await parseUpload(c, engine, adminUploadFields);
    const input = { ...upload.input, uploader: session.email };
    if (!(c.req.header('accept') ?? '').toLowerCase().includes('text/event-stream')) {
      const result = await engine.ingest(upload.collection, input, upload.options);
      return c.json({ document: result.document, deduplicated: result.deduplicated }, 201);
    }
    return streamEvents(c, async (send) => {
      const result = await engine.ingest(upload.collection, input, {
        ...upload.options,
        onProgress: (progress: IngestProgress) => {
          if (progress.stage !== 'done')
            send('progress', { stage: progress.stage, progress: progress.progress });
        },
      });
      send('done', { document: result.document, deduplicated: result.deduplicated });
    });
  });

  mount('adminListDocuments', async (c, { query }) => {
    const page = await engine.documents.list(listDocumentsOptions(query));
    const anchors = await engine.anchoring.documentAnchors(page.items.map((item) => item.id));
    return c.json({
      items: page.items.map((item) => ({ ...item, anchor: anchors.get(item.id) ?? null })),
      total: page.total,
      limit: page.limit,
      offset: page.offset,
    });
  });

  mount('adminArchiveDocument', async (c) => {
    return c.json({ document: await engine.documents.archive(documentId(c.req.param('id'))) });
  });

  mount('adminRestoreDocument', async (c) => {
    return c.json({ document: await engine.documents.restore(documentId(c.req.param('id'))) });
  });

  mount('adminDeleteDocument', async (c) => {
    await engine.documents.delete(documentId(c.req.param('id')));
    return c.body(null, 204);
  });

  registerAdminWorkspaceRoutes(mount, engine);
  registerAdminUsageRoutes(mount, engine);
}

/** A document id from the path; one the engine could never have issued is simply not found. */
function documentId(value: string): string {
  if (!IDENTIFIER.test(value))
    throw new ApiError('NOT_FOUND', 404, `No document ${JSON.stringify(value.slice(0, 100))}.`);
  return value;
}
