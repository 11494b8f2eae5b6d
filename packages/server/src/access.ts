/**
 * Who is calling and what they may touch (docs/api.md "Access"). A request carries an API key
 * (`Authorization: Bearer saksi_…` or `X-API-Key`), an admin session cookie, or nothing. Keys act on
 * their own workspace only; an admin session acts on the workspace named by `X-Saksi-Workspace`
 * (default: the default workspace), which must exist (404 `WORKSPACE_NOT_FOUND` otherwise), and needs
 * the CSRF header for anything that changes state. Without either, only public routes, the chat of
 * public collections and their records answer.
 *
 * `public` counts only in the default workspace (docs/api.md, `POST /collections`): a collection of
 * another workspace flagged public is as private as the rest of its workspace, and so are its
 * certificates, chat sessions and documents. A record is served to anyone when it is a public record
 * (its id, e.g. the session id the public chat handed its creator, is then the capability), otherwise
 * only to a key of its own workspace; everyone else gets the 404 of an unknown id, so whether it
 * exists does not leak.
 *
 * Rate limits: per key, per client address for requests without a key, and the public chat's and
 * feedback's hourly budgets per address; token buckets in memory on PGlite, windows shared in the database on PostgreSQL
 * (docs/scaling.md, "Rate limits"). A 429 carries `Retry-After`. The client address is the TCP peer's,
 * or what trusted proxies say it is (`SAKSI_TRUST_PROXY`, client-address.ts).
 */
import type { IncomingMessage } from 'node:http';
import {
  type AdminSession,
  API_KEY_SCOPES,
  type ApiKeyScope,
  checkCsrfToken,
  DEFAULT_WORKSPACE,
  type Engine,
  EngineError,
  type RecordOwner,
  requireScope,
  type TrustProxyConfig,
} from '@saksi/engine';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import {
  type ProxyTrust,
  peerIsTrusted,
  proxyTrust,
  clientAddress as resolveClientAddress,
} from './client-address.js';
import { ApiError } from './errors.js';
import {
  DatabaseWindowLimiter,
  enforce,
  type Limiter,
  limiterFromRate,
  RateLimitError,
} from './rate-limit.js';

export const SESSION_COOKIE = 'saksi_session';
export const CSRF_HEADER = 'X-CSRF-Token';
export const WORKSPACE_HEADER = 'X-Saksi-Workspace';

export type Principal =
  | { kind: 'api_key'; key_id: string; workspace_id: string; scopes: ApiKeyScope[] }
  | { kind: 'admin'; email: string; session_id: string; workspace_id: string; scopes: ApiKeyScope[] };

export interface AccessOptions {
  /**
   * Which proxies may name the client (default: `SAKSI_TRUST_PROXY` of the engine's configuration).
   * `true` is one hop of `X-Forwarded-For`; `false` none.
   */
  trustProxy?: boolean | TrustProxyConfig | null;
}

/** The proxy trust of `options`, defaulting to the configuration's. */
export function resolveProxyTrust(engine: Engine, option: AccessOptions['trustProxy']): ProxyTrust | null {
  if (option === undefined) return proxyTrust(engine.config.trustProxy ?? null);
  if (option === true) return proxyTrust({ hops: 1, header: 'x-forwarded-for' });
  if (option === false) return null;
  return proxyTrust(option);
}

const WORKSPACE_ID = /^[A-Za-z0-9_-]{1,100}$/;
const PRINCIPAL = 'saksi.principal';

/** The records served by id: certificates, chat sessions, and documents (their anchor status). */
export type RecordKind = 'certificate' | 'session' | 'document';

/** Whether anyone may use a collection without a key: flagged `public`, in the default workspace. */
export function isPublicCollection(collection: {
  workspace_id: string;
  profile: Record<string, unknown>;
}): boolean {
  return collection.workspace_id === DEFAULT_WORKSPACE && collection.profile['public'] === true;
}

/** Whether a record is public: it belongs to a public collection of the default workspace. */
export function isPublicRecord(owner: RecordOwner): boolean {
  return owner.public && owner.workspace_id === DEFAULT_WORKSPACE;
}

export interface Access {
  /** The caller, or null for an anonymous request; a presented but bad key is 401, never anonymous. */
  principal(c: Context): Promise<Principal | null>;
  /** The caller, who must hold `scope`; anonymous is 401, a missing scope 403. */
  require(c: Context, scope: ApiKeyScope): Promise<Principal>;
  /** The admin portal's session of the cookie; with `csrf`, also the matching `X-CSRF-Token` header. */
  requireAdminSession(c: Context, csrf: boolean): Promise<AdminSession>;
  /**
   * Throws unless the caller may read (or delete) record `id`: anyone for a public record, a key
   * with `read` of the record's workspace otherwise. Everyone else gets the NOT_FOUND of an unknown id.
   */
  requireRecord(c: Context, kind: RecordKind, id: string): Promise<void>;
  /** Charges the anonymous budget of the client's address (public routes). */
  chargeAnonymous(c: Context): Promise<void>;
  /** Charges the public chat's hourly budget of the client's address. */
  chargePublicChat(c: Context): Promise<void>;
  /**
   * Charges the hourly feedback budget of the client's address (feedback without a key): as many as
   * the public chat's answers, in a budget of its own.
   */
  chargeFeedback(c: Context): Promise<void>;
  /**
   * Charges `units` of verification work (`POST /verify`, docs/api.md "Verification work") to the
   * caller's budget of `SAKSI_VERIFY_WORK_LIMIT` units a minute: the key's, the admin's or, without
   * either, the client address's. A request costing more than the whole budget is charged the budget.
   */
  chargeVerification(c: Context, principal: Principal | null, units: number): Promise<void>;
  clientAddress(c: Context): string;
  /** Whether the request came over https, as the TCP peer or a trusted proxy says. */
  isHttps(c: Context): boolean;
}

export function createAccess(engine: Engine, options: AccessOptions = {}): Access {
  const limits = engine.config.rateLimits;
  // PGlite is one process: its buckets stay in memory. On PostgreSQL every server shares the budget.
  const limiter = (name: string, perWindow: number, windowSeconds: number): Limiter | null =>
    perWindow === 0
      ? null
      : engine.rateLimits.shared
        ? new DatabaseWindowLimiter(engine.rateLimits, { name, limit: perWindow, windowSeconds })
        : limiterFromRate(perWindow, windowSeconds);
  const perKey = limiter('key', limits.perKeyPerMinute, 60);
  const perIp = limiter('address', limits.perIpPerMinute, 60);
  const publicChat = limiter('public-chat', limits.publicChatPerHour, 3600);
  const feedback = limiter('feedback', limits.publicChatPerHour, 3600);
  // Made on the first verification: most apps never verify.
  let verifyWork: Limiter | null | undefined;
  const trust = resolveProxyTrust(engine, options.trustProxy);
  const secret = () => engine.authSecret();
  const clientAddress = (c: Context) => address(c, trust);

  /**
   * The caller. A presented key must be valid (401 otherwise). An admin cookie that is stale, or a
   * state-changing request without its CSRF token, does not make the request anonymous-with-rights:
   * public routes treat it as anonymous, and `require` reports the session's own error.
   */
  const resolve = async (c: Context): Promise<{ principal: Principal | null; sessionError?: unknown }> => {
    const presented = presentedKey(c);
    if (presented !== null) {
      const key = await engine.apiKeys.authenticate(presented);
      await enforce(perKey, key.key_id, 'API key');
      return {
        principal: {
          kind: 'api_key',
          key_id: key.key_id,
          workspace_id: key.workspace_id,
          scopes: key.scopes,
        },
      };
    }
    const cookie = getCookie(c, SESSION_COOKIE);
    if (!cookie) return { principal: null };
    let session: { email: string; session_id: string };
    try {
      const key = await secret();
      session = await engine.admins.session(cookie, { secret: key });
      const method = c.req.method.toUpperCase();
      if (
        method !== 'GET' &&
        method !== 'HEAD' &&
        !checkCsrfToken(key, session.session_id, c.req.header(CSRF_HEADER))
      ) {
        throw new EngineError(
          'CSRF_INVALID',
          `This request needs the ${CSRF_HEADER} header with the csrf_token from /api/v1/admin/me.`,
        );
      }
    } catch (error) {
      if (error instanceof EngineError) return { principal: null, sessionError: error };
      throw error;
    }
    return {
      principal: {
        kind: 'admin',
        email: session.email,
        session_id: session.session_id,
        workspace_id: await headerWorkspace(c),
        scopes: [...API_KEY_SCOPES],
      },
    };
  };

  /**
   * The workspace an admin session acts on: `X-Saksi-Workspace`, or the default. A name that is not
   * an existing, enabled workspace is a 404 of its own, never a new workspace and never anonymous.
   */
  const headerWorkspace = async (c: Context): Promise<string> => {
    const workspace = c.req.header(WORKSPACE_HEADER)?.trim() || DEFAULT_WORKSPACE;
    const notFound = () =>
      new ApiError(
        'WORKSPACE_NOT_FOUND',
        404,
        `No workspace ${JSON.stringify(workspace.slice(0, 100))}: check the ${WORKSPACE_HEADER} header (GET /api/v1/admin/workspaces lists them).`,
      );
    if (!WORKSPACE_ID.test(workspace)) throw notFound();
    try {
      await engine.workspaces.get(workspace);
    } catch (error) {
      if (error instanceof EngineError && error.code === 'NOT_FOUND') throw notFound();
      throw error;
    }
    return workspace;
  };

  const resolved = async (c: Context) => {
    const cached = c.get(PRINCIPAL as never) as Awaited<ReturnType<typeof resolve>> | undefined;
    if (cached !== undefined) return cached;
    const result = await resolve(c);
    c.set(PRINCIPAL as never, result as never);
    return result;
  };

  return {
    async principal(c) {
      return (await resolved(c)).principal;
    },
    async require(c, scope) {
      const { principal, sessionError } = await resolved(c);
      if (principal === null) {
        await this.chargeAnonymous(c);
        if (sessionError !== undefined) throw sessionError;
        throw new EngineError(
          'UNAUTHENTICATED',
          'This route needs an API key: send "Authorization: Bearer saksi_…" (create one with `saksi api-keys create`).',
        );
      }
      requireScope(principal, scope);
      return principal;
    },
    async requireAdminSession(c, csrf) {
      const key = await secret();
      const session = await engine.admins.session(getCookie(c, SESSION_COOKIE), { secret: key });
      if (csrf && !checkCsrfToken(key, session.session_id, c.req.header(CSRF_HEADER))) {
        throw new EngineError(
          'CSRF_INVALID',
          `This request needs the ${CSRF_HEADER} header with the csrf_token from /api/v1/admin/me.`,
        );
      }
      return session;
    },
    async requireRecord(c, kind, id) {
      const principal = (await resolved(c)).principal;
      if (principal === null) await this.chargeAnonymous(c);
      const owner: RecordOwner | null = await engine.collections.ownerOf(kind, id);
      if (owner !== null && isPublicRecord(owner)) return;
      if (principal !== null) {
        requireScope(principal, 'read');
        if (owner !== null && owner.workspace_id === principal.workspace_id) return;
      }
      const what = kind === 'session' ? 'chat session' : kind;
      throw new ApiError(
        'NOT_FOUND',
        404,
        `No ${what} ${id}: it does not exist, or it is not public and this is not a key of its workspace.`,
      );
    },
    async chargeAnonymous(c) {
      await enforce(perIp, clientAddress(c), 'address');
    },
    async chargePublicChat(c) {
      await enforce(publicChat, clientAddress(c), 'address on the public chat');
    },
    async chargeFeedback(c) {
      await enforce(feedback, clientAddress(c), 'address on feedback');
    },
    async chargeVerification(c, principal, units) {
      const budget = engine.config.verification.workPerMinute;
      verifyWork ??= limiter('verify-work', budget, 60);
      const [key, what] =
        principal === null
          ? [`address:${clientAddress(c)}`, 'address']
          : principal.kind === 'api_key'
            ? [`key:${principal.key_id}`, 'API key']
            : [`admin:${principal.email}`, 'admin'];
      if (verifyWork === null) return;
      const result = await verifyWork.take(key, Math.min(units, budget));
      if (!result.allowed)
        throw new RateLimitError(
          `This ${what} has used its verification budget of ${budget} work units a minute (this bundle is ${units}); try again in ${result.retryAfterSeconds} s.`,
          result.retryAfterSeconds,
        );
    },
    clientAddress,
    isHttps(c) {
      if (
        peerIsTrusted(peerAddress(c), trust) &&
        c.req.header('x-forwarded-proto')?.split(',').at(-1)?.trim() === 'https'
      )
        return true;
      return new URL(c.req.url).protocol === 'https:';
    },
  };
}

/** The key in `Authorization: Bearer …` or `X-API-Key`, or null when neither header is present. */
function presentedKey(c: Context): string | null {
  const authorization = c.req.header('authorization');
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) {
      throw new EngineError('UNAUTHENTICATED', 'Send the API key as "Authorization: Bearer saksi_…".');
    }
    return match[1]!;
  }
  const header = c.req.header('x-api-key');
  return header === undefined ? null : header.trim();
}

/** The client's address: the TCP peer's, or the nearest untrusted hop trusted proxies name. */
export function address(c: Context, trust: ProxyTrust | null): string {
  return resolveClientAddress(peerAddress(c), trust === null ? undefined : c.req.header(trust.header), trust);
}

/**
 * What a request reaches the app with besides itself: Node's request on a server (`@hono/node-server`),
 * or, from a platform's Fetch-API handler, the name of the platform's proxy that passed it on.
 */
export interface ServerBindings {
  incoming?: IncomingMessage;
  /** The request came from this platform's proxy, which writes the client into `X-Forwarded-For`. */
  platformProxy?: string;
}

/**
 * The TCP peer's address; a platform proxy's name for a Fetch-API handler (fetch-handler.ts);
 * undefined when the request came over neither, as in tests.
 */
export function peerAddress(c: Context): string | undefined {
  const bindings = c.env as ServerBindings | undefined;
  return bindings?.incoming?.socket?.remoteAddress ?? bindings?.platformProxy;
}
