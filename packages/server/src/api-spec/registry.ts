/**
 * The route registry (docs/api.md, "3. Reference"): every route under `/api/v1` described once — method,
 * path, security, request and response zod schemas — and {@link buildOpenApi}, which turns the list into the
 * OpenAPI 3.1 document. Request schemas are converted as their input type, response schemas as their output
 * type (`z.toJSONSchema`, JSON Schema draft 2020-12, which OpenAPI 3.1 uses as is). Schemas carrying an
 * `id` in their metadata (`.meta({ id })`) become `components.schemas` and are referenced by `$ref`.
 */
import { type ZodObject, type ZodType, z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/**
 * Who may call a route:
 * - `public`: anyone, no credentials;
 * - `key:<scope>`: an API key with that scope (`admin` implies every scope), or an admin session acting
 *   on the workspace named by `X-Saksi-Workspace` (with `X-CSRF-Token` on state changes);
 * - `admin-session`: the admin portal's session cookie (with `X-CSRF-Token` on state changes);
 * - `public-or-key`: anyone for public collections of the default workspace (`public` counts nowhere
 *   else), a key with `read` for its workspace's collections.
 */
export type RouteSecurity =
  | 'public'
  | 'key:read'
  | 'key:ingest'
  | 'key:admin'
  | 'admin-session'
  | 'public-or-key';

/** The standard error responses (`components.responses`), all `{"error": {"code", "message"}}`. */
export const STANDARD_ERRORS = {
  400: {
    name: 'BadRequest',
    description: 'Invalid input (`INVALID_INPUT`) or a body that is not JSON (`INVALID_JSON`)',
  },
  401: {
    name: 'Unauthenticated',
    description:
      'No credentials, or an unknown or revoked key (`UNAUTHENTICATED`), or an expired admin session (`SESSION_EXPIRED`)',
  },
  403: { name: 'Forbidden', description: 'The key lacks the scope this route needs (`FORBIDDEN`)' },
  404: {
    name: 'NotFound',
    description:
      'Not found (`NOT_FOUND`), also for ids of another workspace and for records that are not public when no key of their workspace was sent: none can be told from an unknown id. An admin session whose `X-Saksi-Workspace` names no workspace gets `WORKSPACE_NOT_FOUND`',
  },
  413: {
    name: 'TooLarge',
    description:
      'Too large (`FILE_TOO_LARGE`, `BODY_TOO_LARGE`) or over a workspace quota (`QUOTA_EXCEEDED`)',
  },
  415: {
    name: 'UnsupportedMediaType',
    description: 'Not a format Saksi reads (`UNSUPPORTED_TYPE`), or not multipart (`UNSUPPORTED_MEDIA_TYPE`)',
  },
  422: {
    name: 'Unprocessable',
    description:
      'The file could not be ingested (`EMPTY_FILE`, `MALFORMED_FILE`, `ENCRYPTED_FILE`, `NO_TEXT`, `INGEST_FAILED`)',
  },
  429: { name: 'RateLimited', description: 'Too many requests (`RATE_LIMITED`); wait `Retry-After` seconds' },
  500: { name: 'Internal', description: 'Server failure (`INTERNAL`); the message is generic' },
} as const;

export type ErrorStatus = keyof typeof STANDARD_ERRORS;

/** A multipart/form-data body: the `file` part and the fields in `fields`. */
export interface MultipartBody {
  multipart: ZodObject;
}

export interface ResponseSpec {
  description: string;
  /** JSON unless `contentType` says otherwise; absent for empty responses (204). */
  schema?: ZodType;
  contentType?: string;
  /** Other representations of the same response (e.g. `text/event-stream`), each a string body. */
  alternatives?: readonly string[];
  /** Other representations with a schema of their own, by media type (e.g. `application/vc`). */
  variants?: Record<string, ZodType>;
  headers?: Record<string, { description: string; schema: ZodType }>;
}

export interface RouteSpec {
  method: HttpMethod;
  /** OpenAPI-style, relative to `/api/v1` (`/documents/{id}`) unless `outsideBase`. */
  path: string;
  /** The Hono pattern when the OpenAPI path cannot say it (wildcards), relative like `path`. */
  honoPath?: string;
  /** The path is from the server root (`/.well-known/…`), not under `/api/v1`. */
  outsideBase?: boolean;
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  security: RouteSecurity;
  request?: {
    body?: ZodType | MultipartBody | 'binary';
    query?: ZodObject;
    /** Path parameters; those not given are strings. */
    params?: ZodObject;
    /** What the input is called in error messages ("Invalid chat request: …"); its query is "… query". */
    what?: string;
    /** Largest JSON body in bytes (default {@link DEFAULT_JSON_LIMIT}). */
    limit?: number;
    /**
     * The handler reads the query and body itself instead of the mounter (mount.ts) validating them
     * first; the route says why where it is declared.
     */
    readBy?: 'handler';
  };
  /** Success responses, and error responses whose description differs from the standard one. */
  responses: Record<number, ResponseSpec>;
  /** Standard error responses besides those implied by the security (401, 403, 429) and 500. */
  errors?: readonly ErrorStatus[];
}

/** Largest JSON request body unless a route says otherwise. */
export const DEFAULT_JSON_LIMIT = 1024 * 1024;

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
  license?: { name: string; identifier?: string };
}

export interface BuildOptions {
  info: OpenApiInfo;
  /** Prefix of every route's path unless `outsideBase`. */
  basePath: string;
  /** Reusable schemas that no route references directly (always listed in `components.schemas`). */
  schemas?: ZodType[];
}

type Json = Record<string, unknown>;
type Io = 'input' | 'output';

/** OpenAPI `{name}` path parameters, in order. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
}

/** The Hono pattern of a route (`/documents/:id`), relative to the base. */
export function honoPattern(route: RouteSpec): string {
  return route.honoPath ?? route.path.replace(/\{([^}]+)\}/g, ':$1');
}

/** The security requirements of an operation (OpenAPI 3.1 allows role names for non-OAuth schemes). */
export function securityRequirements(security: RouteSecurity, method: HttpMethod): Json[] {
  const session = method === 'get' ? { adminSession: [] } : { adminSession: [], csrfToken: [] };
  switch (security) {
    case 'public':
      return [];
    case 'public-or-key':
      return [{}, { apiKey: ['read'] }, { apiKeyHeader: ['read'] }];
    case 'admin-session':
      return [session];
    default: {
      const scope = security.slice('key:'.length);
      return [{ apiKey: [scope] }, { apiKeyHeader: [scope] }, session];
    }
  }
}

/** Error statuses every route of a security kind can answer besides its own. */
function impliedErrors(security: RouteSecurity): ErrorStatus[] {
  switch (security) {
    case 'public':
      return [500];
    case 'public-or-key':
      return [401, 429, 500];
    case 'admin-session':
      return [401, 500];
    default:
      return [401, 403, 429, 500];
  }
}

const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/**
 * Tidies a generated schema in place: no `$schema` inside the document, no safe-integer bounds zod adds
 * to every integer, and — for responses — no `additionalProperties: false`: servers may add fields.
 */
function tidy(schema: unknown, io: Io): void {
  if (Array.isArray(schema)) {
    for (const item of schema) tidy(item, io);
    return;
  }
  if (typeof schema !== 'object' || schema === null) return;
  const object = schema as Json;
  delete object['$schema'];
  for (const bound of ['minimum', 'maximum']) {
    if (SAFE_INTEGER_BOUNDS.has(object[bound] as number)) delete object[bound];
  }
  if (io === 'output' && object['additionalProperties'] === false) delete object['additionalProperties'];
  for (const value of Object.values(object)) tidy(value, io);
}

function rewriteRefs(schema: unknown, names: Map<string, string>): void {
  if (Array.isArray(schema)) {
    for (const item of schema) rewriteRefs(item, names);
    return;
  }
  if (typeof schema !== 'object' || schema === null) return;
  const object = schema as Json;
  const ref = object['$ref'];
  if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
    const id = ref.slice('#/$defs/'.length);
    object['$ref'] = `#/components/schemas/${names.get(id) ?? id}`;
  }
  for (const value of Object.values(object)) rewriteRefs(value, names);
}

/** Collects `components.schemas` while converting: a named schema converted twice must agree. */
class SchemaCollector {
  readonly components: Record<string, Json> = {};

  convert(schema: ZodType, io: Io): Json {
    const converted = z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as Json;
    const defs = (converted['$defs'] ?? {}) as Record<string, Json>;
    delete converted['$defs'];
    const names = new Map<string, string>();
    for (const [id, definition] of Object.entries(defs)) {
      tidy(definition, io);
      names.set(id, this.nameFor(id, definition, io));
    }
    for (const [id, definition] of Object.entries(defs)) {
      rewriteRefs(definition, names);
      this.components[names.get(id)!] ??= definition;
    }
    tidy(converted, io);
    rewriteRefs(converted, names);
    return converted;
  }

  /** `id`, or `<id>Input` when the request form of a schema differs from its response form. */
  private nameFor(id: string, definition: Json, io: Io): string {
    const same = (existing: Json | undefined) =>
      existing === undefined ||
      JSON.stringify(existing) ===
        JSON.stringify(definition).replaceAll('"#/$defs/', '"#/components/schemas/');
    if (same(this.components[id])) return id;
    const suffixed = io === 'input' ? `${id}Input` : `${id}Output`;
    if (!same(this.components[suffixed])) {
      throw new Error(`Two different schemas are both named ${JSON.stringify(id)}; give them distinct ids.`);
    }
    return suffixed;
  }
}

const errorRef = (status: ErrorStatus) => ({
  $ref: `#/components/responses/${STANDARD_ERRORS[status].name}`,
});

function parameters(route: RouteSpec, collector: SchemaCollector): Json[] {
  const result: Json[] = [];
  const params = route.request?.params?.shape ?? {};
  for (const name of pathParameters(route.path)) {
    const schema = params[name] as ZodType | undefined;
    const { description, ...rest } = schema ? collector.convert(schema, 'input') : { type: 'string' };
    result.push({
      name,
      in: 'path',
      required: true,
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    });
  }
  const query = route.request?.query;
  if (query) {
    const converted = collector.convert(query, 'input');
    const properties = (converted['properties'] ?? {}) as Record<string, Json>;
    const required = new Set((converted['required'] ?? []) as string[]);
    for (const [name, schema] of Object.entries(properties)) {
      const { description, ...rest } = schema;
      result.push({
        name,
        in: 'query',
        required: required.has(name),
        ...(typeof description === 'string' ? { description } : {}),
        schema: rest,
      });
    }
  }
  return result;
}

function requestBody(body: NonNullable<RouteSpec['request']>['body'], collector: SchemaCollector): Json {
  if (body === 'binary') {
    return {
      required: true,
      content: {
        'application/octet-stream': {
          schema: { type: 'string', contentMediaType: 'application/octet-stream' },
        },
      },
    };
  }
  if (body !== undefined && 'multipart' in body) {
    const fields = collector.convert(body.multipart, 'input');
    const properties = (fields['properties'] ?? {}) as Json;
    const required = (fields['required'] ?? []) as string[];
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['file', ...required],
            properties: {
              file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The file' },
              ...properties,
            },
          },
        },
      },
    };
  }
  return {
    required: true,
    content: { 'application/json': { schema: collector.convert(body as ZodType, 'input') } },
  };
}

function responses(route: RouteSpec, collector: SchemaCollector): Json {
  const result: Json = {};
  for (const [status, response] of Object.entries(route.responses)) {
    const content: Json = {};
    if (response.schema) {
      content[response.contentType ?? 'application/json'] = {
        schema: collector.convert(response.schema, 'output'),
      };
    }
    for (const type of response.alternatives ?? []) content[type] = { schema: { type: 'string' } };
    for (const [type, schema] of Object.entries(response.variants ?? {}))
      content[type] = { schema: collector.convert(schema, 'output') };
    const headers = Object.fromEntries(
      Object.entries(response.headers ?? {}).map(([name, header]) => [
        name,
        { description: header.description, schema: collector.convert(header.schema, 'output') },
      ]),
    );
    result[status] = {
      description: response.description,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(Object.keys(content).length > 0 ? { content } : {}),
    };
  }
  const statuses = new Set<ErrorStatus>([...(route.errors ?? []), ...impliedErrors(route.security)]);
  for (const status of [...statuses].sort((a, b) => a - b)) {
    result[String(status)] ??= errorRef(status);
  }
  return result;
}

function errorResponse(status: ErrorStatus): Json {
  return {
    description: STANDARD_ERRORS[status].description,
    ...(status === 429
      ? {
          headers: {
            'Retry-After': {
              description: 'Seconds to wait before trying again',
              schema: { type: 'integer', minimum: 0 },
            },
          },
        }
      : {}),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

const SECURITY_SCHEMES = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'saksi_<43 base64url characters>',
    description:
      '`Authorization: Bearer saksi_…`. A key belongs to one workspace and carries scopes `read`, `ingest`, `admin` (`admin` implies all).',
  },
  apiKeyHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'The same API key in the `X-API-Key` header instead of `Authorization`.',
  },
  adminSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'saksi_session',
    description:
      'Set by POST /api/v1/admin/login (HttpOnly, SameSite=Strict, 12 hours). On key routes it acts on the workspace named by the `X-Saksi-Workspace` header (default `wsp_default`).',
  },
  csrfToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRF-Token',
    description:
      'The csrf_token from login or /admin/me; required with the session cookie on non-GET requests',
  },
};

/** The OpenAPI 3.1.0 document of `routes`. Throws when two routes share a method and path or an operationId. */
export function buildOpenApi(routes: readonly RouteSpec[], options: BuildOptions): Record<string, unknown> {
  const collector = new SchemaCollector();
  const paths: Record<string, Record<string, Json>> = {};
  const operationIds = new Set<string>();
  for (const route of routes) {
    const path = route.outsideBase ? route.path : `${options.basePath}${route.path}`;
    paths[path] ??= {};
    const item = paths[path];
    if (item[route.method]) throw new Error(`Two routes for ${route.method.toUpperCase()} ${path}.`);
    if (operationIds.has(route.operationId))
      throw new Error(`Two routes with operationId ${route.operationId}.`);
    operationIds.add(route.operationId);
    const parameterList = parameters(route, collector);
    item[route.method] = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description !== undefined ? { description: route.description } : {}),
      tags: route.tags,
      security: securityRequirements(route.security, route.method),
      ...(parameterList.length > 0 ? { parameters: parameterList } : {}),
      ...(route.request?.body !== undefined
        ? { requestBody: requestBody(route.request.body, collector) }
        : {}),
      responses: responses(route, collector),
    };
  }
  for (const schema of options.schemas ?? []) collector.convert(schema, 'output');
  const errorStatuses = Object.keys(STANDARD_ERRORS).map(Number) as ErrorStatus[];
  return {
    openapi: '3.1.0',
    info: options.info,
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    paths,
    components: {
      schemas: Object.fromEntries(
        Object.entries(collector.components).sort(([a], [b]) => a.localeCompare(b)),
      ),
      responses: Object.fromEntries(
        errorStatuses.map((status) => [STANDARD_ERRORS[status].name, errorResponse(status)]),
      ),
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
