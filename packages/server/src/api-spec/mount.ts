/**
 * Serving a route from its declaration (routes.ts). `mount(operationId, handler)` registers the handler
 * at the declared method and path, and before it runs:
 * - checks access as the declared `security` says: `key:<scope>` needs a key with that scope (or an
 *   admin session acting on a workspace), `admin-session` the portal's session (and its CSRF token on
 *   anything but GET), `public-or-key` resolves the caller if one is presented (a bad key is 401);
 * - validates the declared query and JSON body (size-limited) with the declared zod schemas, unless the
 *   route says the handler reads them itself (`readBy: 'handler'`): such a handler gets `readBody()`,
 *   which reads and validates the body the same way when the handler is ready for it.
 *
 * So the OpenAPI document, the access check and the validation come from one declaration, and the
 * handler gets its caller, query and body typed from it. Every mounted handler carries its operation
 * id ({@link mountedOperation}); coverage.test.ts checks that each route the app serves was mounted.
 */
import type { AdminSession, ApiKeyScope } from '@saksi/engine';
import type { Context, Hono } from 'hono';
import type { BlankEnv } from 'hono/types';
import type { ZodType, z } from 'zod';
import type { Access, Principal } from '../access.js';
import { readJsonBody, validate } from '../body.js';
import { DEFAULT_JSON_LIMIT, honoPattern, type RouteSpec } from './registry.js';
import { ROUTES } from './routes.js';

type Route = (typeof ROUTES)[number];
export type OperationId = Route['operationId'];
type RouteNamed<Id extends OperationId> = Extract<Route, { operationId: Id }>;

type CallerOf<Security> = Security extends `key:${string}`
  ? { principal: Principal }
  : Security extends 'admin-session'
    ? { session: AdminSession }
    : Security extends 'public-or-key'
      ? { principal: Principal | null }
      : unknown;
type Read<R> = R extends { request: { readBy: 'handler' } } ? false : true;
type QueryOf<R> =
  Read<R> extends true
    ? R extends { request: { query: infer Query extends ZodType } }
      ? { query: z.output<Query> }
      : unknown
    : unknown;
type BodyOf<R> = R extends { request: { body: infer Body extends ZodType } }
  ? Read<R> extends true
    ? { body: z.output<Body> }
    : { readBody: () => Promise<z.output<Body>> }
  : unknown;

/** What a mounted handler gets besides the context: its caller, and its query and body validated. */
export type RouteInput<Id extends OperationId> = CallerOf<RouteNamed<Id>['security']> &
  QueryOf<RouteNamed<Id>> &
  BodyOf<RouteNamed<Id>>;

/** The Hono pattern of an OpenAPI path (`/documents/{id}` → `/documents/:id`), so `c.req.param` is typed. */
type HonoPath<Path extends string> = Path extends `${infer Head}{${infer Name}}${infer Tail}`
  ? `${Head}:${Name}${HonoPath<Tail>}`
  : Path;
type PatternOf<R> = R extends { honoPath: infer Pattern extends string }
  ? Pattern
  : R extends { path: infer Path extends string }
    ? HonoPath<Path>
    : string;

export type RouteHandler<Id extends OperationId> = (
  c: Context<BlankEnv, PatternOf<RouteNamed<Id>>>,
  input: RouteInput<Id>,
) => Response | Promise<Response>;

export type Mount = <Id extends OperationId>(operationId: Id, handler: RouteHandler<Id>) => void;

export interface MountTargets {
  /** The app under `/api/v1`. */
  api: Hono;
  /** The root app, for routes declared `outsideBase` (the well-known keys). */
  root: Hono;
}

const MOUNTED = Symbol('saksi.operationId');

/** The operation id a handler was mounted for, or undefined for a handler registered some other way. */
export function mountedOperation(handler: unknown): string | undefined {
  return typeof handler === 'function' ? (handler as { [MOUNTED]?: string })[MOUNTED] : undefined;
}

export function routeMounter(access: Access, targets: MountTargets): Mount {
  return (operationId, handler) => {
    const route: RouteSpec | undefined = ROUTES.find((candidate) => candidate.operationId === operationId);
    if (route === undefined) throw new Error(`No route is declared with operation id ${operationId}.`);
    const serve = async (c: Context) => {
      const caller = await callerOf(route, access, c);
      const input = { ...caller, ...(await requestOf(route, c)) };
      return handler(c as never, input as RouteInput<typeof operationId>);
    };
    Object.defineProperty(serve, MOUNTED, { value: operationId });
    (route.outsideBase ? targets.root : targets.api).on(
      route.method.toUpperCase(),
      honoPattern(route),
      serve,
    );
  };
}

async function callerOf(route: RouteSpec, access: Access, c: Context): Promise<object> {
  switch (route.security) {
    case 'public':
      return {};
    case 'public-or-key':
      return { principal: await access.principal(c) };
    case 'admin-session':
      return { session: await access.requireAdminSession(c, route.method !== 'get') };
    default:
      return { principal: await access.require(c, route.security.slice('key:'.length) as ApiKeyScope) };
  }
}

async function requestOf(route: RouteSpec, c: Context): Promise<object> {
  const request = route.request;
  if (request === undefined) return {};
  const what = request.what ?? route.operationId;
  const schema = request.body;
  const readBody =
    schema !== undefined && schema !== 'binary' && !('multipart' in schema)
      ? async () => validate(schema, await readJsonBody(c.req.raw, request.limit ?? DEFAULT_JSON_LIMIT), what)
      : undefined;
  if (request.readBy === 'handler') return readBody ? { readBody } : {};
  return {
    ...(request.query ? { query: validate(request.query, c.req.query(), `${what} query`) } : {}),
    ...(readBody ? { body: await readBody() } : {}),
  };
}
