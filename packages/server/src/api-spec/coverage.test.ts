import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { API_BASE_PATH } from '../openapi.js';
import { honoPattern } from './registry.js';
import { ROUTES } from './routes.js';

let test: TestEngine;
let app: Hono;

beforeAll(async () => {
  test = await openTestEngine();
  app = createApp(test.engine);
});

afterAll(async () => {
  await test?.close();
});

describe('the route registry', () => {
  it('lists exactly the routes the app registers under /api/v1', () => {
    const registered = new Set(
      app.routes
        .filter((route) => route.method !== 'ALL')
        .filter((route) => route.path.startsWith(`${API_BASE_PATH}/`))
        .map((route) => `${route.method} ${route.path.slice(API_BASE_PATH.length)}`),
    );
    const described = new Set(
      ROUTES.filter((route) => !route.outsideBase).map(
        (route) => `${route.method.toUpperCase()} ${honoPattern(route)}`,
      ),
    );
    const undocumented = [...registered].filter((route) => !described.has(route)).sort();
    const unserved = [...described].filter((route) => !registered.has(route)).sort();
    expect({ undocumented, unserved }).toEqual({ undocumented: [], unserved: [] });
  });

  it('describes the well-known keys the app serves outside /api/v1', () => {
    const outside = ROUTES.filter((route) => route.outsideBase).map(
      (route) => `${route.method.toUpperCase()} ${route.path}`,
    );
    const registered = app.routes.map((route) => `${route.method} ${route.path}`);
    for (const route of outside) expect(registered).toContain(route);
  });
});
