import { bearer, testApiKey } from '@saksi/test-support/api-key';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { API_BASE_PATH } from '../openapi.js';
import { mountedOperation } from './mount.js';
import { honoPattern, type RouteSpec } from './registry.js';
import { ROUTES } from './routes.js';

let test: TestEngine;
let app: Hono;
let readKey: string;
let ingestKey: string;

beforeAll(async () => {
  test = await openTestEngine();
  app = createApp(test.engine);
  readKey = await testApiKey(test.engine, ['read']);
  ingestKey = await testApiKey(test.engine, ['ingest']);
});

afterAll(async () => {
  await test?.close();
});

const declared: readonly RouteSpec[] = ROUTES;

/** The method and Hono pattern of a declared route, from the server root. */
const served = (route: RouteSpec) =>
  `${route.method.toUpperCase()} ${route.outsideBase ? '' : API_BASE_PATH}${honoPattern(route)}`;

/** A concrete URL of a declared route, with ids no workspace holds. */
const concrete = (route: RouteSpec) =>
  `${route.outsideBase ? '' : API_BASE_PATH}${route.path.replace(/\{[^}]+\}/g, 'x0000000000000000')}`;

describe('the route registry', () => {
  it('lists exactly the routes the app registers under /api/v1', () => {
    const registered = new Set(
      app.routes
        .filter((route) => route.method !== 'ALL')
        .filter((route) => route.path.startsWith(`${API_BASE_PATH}/`))
        .map((route) => `${route.method} ${route.path.slice(API_BASE_PATH.length)}`),
    );
    const described = new Set(
      declared
        .filter((route) => !route.outsideBase)
        .map((route) => `${route.method.toUpperCase()} ${honoPattern(route)}`),
    );
    const undocumented = [...registered].filter((route) => !described.has(route)).sort();
    const unserved = [...described].filter((route) => !registered.has(route)).sort();
    expect({ undocumented, unserved }).toEqual({ undocumented: [], unserved: [] });
  });

  it('describes the well-known keys the app serves outside /api/v1', () => {
    const outside = declared.filter((route) => route.outsideBase).map(served);
    const registered = app.routes.map((route) => `${route.method} ${route.path}`);
    for (const route of outside) expect(registered).toContain(route);
  });

  it('serves every declared route through its declaration, so access and validation come from it', () => {
    const byPattern = new Map(declared.map((route) => [served(route), route]));
    const strays: string[] = [];
    for (const route of app.routes) {
      const spec = byPattern.get(`${route.method} ${route.path}`);
      if (spec === undefined) continue;
      const operation = mountedOperation(route.handler);
      // Two operations may share one wildcard handler (hash tiles and entry bundles).
      const sharing = declared
        .filter((other) => served(other) === served(spec))
        .map((other) => other.operationId);
      if (operation === undefined || !sharing.includes(operation))
        strays.push(`${route.method} ${route.path}`);
    }
    expect(strays).toEqual([]);
  });
});

describe('the declared security is what the handlers enforce', () => {
  const keyRoutes = declared.filter((route) => route.security.startsWith('key:'));
  const sessionRoutes = declared.filter((route) => route.security === 'admin-session');

  it('covers every route that needs credentials', () => {
    expect(keyRoutes.length).toBeGreaterThan(15);
    expect(sessionRoutes.length).toBeGreaterThan(10);
  });

  it.each(keyRoutes.map((route) => [route.operationId, route] as const))(
    '%s answers 401 without credentials',
    async (_, route) => {
      const response = await app.request(concrete(route), { method: route.method.toUpperCase() });
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('UNAUTHENTICATED');
    },
  );

  it.each(
    keyRoutes
      .filter((route) => route.security !== 'key:read')
      .map((route) => [route.operationId, route] as const),
  )('%s answers 403 to a key without its scope', async (_, route) => {
    const response = await app.request(concrete(route), {
      method: route.method.toUpperCase(),
      headers: bearer(route.security === 'key:admin' ? ingestKey : readKey),
    });
    expect(response.status).toBe(403);
  });

  it.each(sessionRoutes.map((route) => [route.operationId, route] as const))(
    '%s answers 401 to an API key without an admin session',
    async (_, route) => {
      const response = await app.request(concrete(route), {
        method: route.method.toUpperCase(),
        headers: bearer(readKey),
      });
      expect(response.status).toBe(401);
    },
  );
});
