/**
 * The admin API under `/api/v1/admin` (docs/api.md, "Admin routes"): sign-in with an HttpOnly,
 * SameSite=Strict session cookie; every state-changing admin route also needs the session's CSRF token in
 * `X-CSRF-Token`. Uploads stream ingestion progress as Server-Sent Events when asked to.
 */
import {
  type AdminSession,
  checkCsrfToken,
  type Engine,
  EngineError,
  type IngestProgress,
  type login,
  RateLimitedError,
  SESSION_SECONDS,
} from '@saksi/engine';
import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import type { Access } from '../access.js';
import { readJsonBody, validate } from '../body.js';
import { ApiError, toErrorResponse } from '../errors.js';
import { IDENTIFIER, listDocumentsOptions, listDocumentsSchema, uploadFieldsSchema } from '../schemas.js';
import { streamEvents } from '../sse.js';
import { parseUpload } from '../upload.js';
import { registerAdminUsageRoutes } from './admin-usage.js';
import { registerAdminWorkspaceRoutes } from './admin-workspaces.js';

export const SESSION_COOKIE = 'saksi_session';
export const CSRF_HEADER = 'X-CSRF-Token';
export const ADMIN_DOCUMENT_TYPES = ['APBN', 'APBD', 'other'] as const;

const LOGIN_LIMIT = 16 * 1024;

const loginSchema = z.object({
  email: z.string().max(320),
  password: z.string().max(4_096),
});

const adminUploadSchema = uploadFieldsSchema.extend({
  document_type: z.enum(ADMIN_DOCUMENT_TYPES).optional(),
});

const adminListSchema = listDocumentsSchema.extend({
  document_type: z.enum(ADMIN_DOCUMENT_TYPES).optional(),
});

/**
 * Who the client is and how it connected: the TCP peer, or what trusted proxies say
 * (`SAKSI_TRUST_PROXY`, client-address.ts); a client cannot forge either without a trusted proxy.
 */
export type AdminRouteOptions = Pick<Access, 'clientAddress' | 'isHttps'>;

export function registerAdminRoutes(api: Hono, engine: Engine, options: AdminRouteOptions): void {
  const secret = () => engine.authSecret();

  /** The session of the cookie; with `csrf`, also the matching `X-CSRF-Token` header. */
  const requireSession = async (c: Context, csrf: boolean): Promise<AdminSession> => {
    const key = await secret();
    const session = await engine.admins.session(getCookie(c, SESSION_COOKIE), { secret: key });
    if (csrf && !checkCsrfToken(key, session.session_id, c.req.header(CSRF_HEADER))) {
      throw new EngineError(
        'CSRF_INVALID',
        `This request needs the ${CSRF_HEADER} header with the csrf_token from /api/v1/admin/me.`,
      );
    }
    return session;
  };

  api.post('/admin/login', async (c) => {
    const body = validate(loginSchema, await readJsonBody(c.req.raw, LOGIN_LIMIT), 'login request');
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

  api.post('/admin/logout', async (c) => {
    await engine.admins.logout(getCookie(c, SESSION_COOKIE));
    deleteCookie(c, SESSION_COOKIE, {
      path: '/',
      httpOnly: true,
      sameSite: 'Strict',
      ...(options.isHttps(c) ? { secure: true } : {}),
    });
    return c.body(null, 204);
  });

  api.get('/admin/me', async (c) => {
    const session = await requireSession(c, false);
    c.header('Cache-Control', 'no-store');
    return c.json({ email: session.email, csrf_token: session.csrf_token });
  });

  api.post('/admin/documents', async (c) => {
    const session = await requireSession(c, true);
    const upload = await parseUpload(c, engine, adminUploadSchema);
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

  api.get('/admin/documents', async (c) => {
    await requireSession(c, false);
    const query = validate(adminListSchema, c.req.query(), 'document list query');
    const page = await engine.listDocuments(listDocumentsOptions(query));
    const anchors = await engine.documentAnchors(page.items.map((item) => item.id));
    return c.json({
      items: page.items.map((item) => ({ ...item, anchor: anchors.get(item.id) ?? null })),
      total: page.total,
      limit: page.limit,
      offset: page.offset,
    });
  });

  api.post('/admin/documents/:id/archive', async (c) => {
    await requireSession(c, true);
    return c.json({ document: await engine.archiveDocument(documentId(c.req.param('id'))) });
  });

  api.post('/admin/documents/:id/restore', async (c) => {
    await requireSession(c, true);
    return c.json({ document: await engine.restoreDocument(documentId(c.req.param('id'))) });
  });

  api.delete('/admin/documents/:id', async (c) => {
    await requireSession(c, true);
    await engine.deleteDocument(documentId(c.req.param('id')));
    return c.body(null, 204);
  });

  registerAdminWorkspaceRoutes(api, engine, requireSession);
  registerAdminUsageRoutes(api, engine, requireSession);
}

/** A document id from the path; one the engine could never have issued is simply not found. */
function documentId(value: string): string {
  if (!IDENTIFIER.test(value))
    throw new ApiError('NOT_FOUND', 404, `No document ${JSON.stringify(value.slice(0, 100))}.`);
  return value;
}
