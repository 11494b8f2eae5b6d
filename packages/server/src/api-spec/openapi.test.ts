import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openApiDocument } from '../openapi.js';
import { buildOpenApi, type RouteSpec, securityRequirements } from './registry.js';
import { ROUTES } from './routes.js';

type Json = Record<string, unknown>;

const document = openApiDocument() as Json & { paths: Record<string, Record<string, Json>> };
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
);

/** Every `$ref` in `value`, with where it was found. */
function refs(value: unknown, at = '#'): { at: string; ref: string }[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => refs(item, `${at}/${index}`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) =>
    key === '$ref' && typeof child === 'string' ? [{ at, ref: child }] : refs(child, `${at}/${key}`),
  );
}

/** Resolves a local JSON pointer (RFC 6901) in the document. */
function resolve(pointer: string): unknown {
  let node: unknown = document;
  for (const token of pointer.slice(2).split('/')) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof node !== 'object' || node === null || !(key in node)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

describe('the generated OpenAPI document', () => {
  it('is OpenAPI 3.1.0 with one operation per registered route', () => {
    expect(document['openapi']).toBe('3.1.0');
    expect(document['info']).toMatchObject({ title: 'Saksi API', version: '1' });
    expect(operations).toHaveLength(ROUTES.length);
    const ids = operations.map(({ operation }) => operation['operationId']);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives every operation an operationId, responses and the security its route declares', () => {
    for (const route of ROUTES as readonly RouteSpec[]) {
      const path = route.outsideBase ? route.path : `/api/v1${route.path}`;
      const operation = document.paths[path]?.[route.method];
      expect(operation, `${route.method} ${path}`).toBeDefined();
      expect(operation!['operationId']).toBe(route.operationId);
      expect(operation!['summary']).toBe(route.summary);
      const responses = operation!['responses'] as Json;
      expect(Object.keys(responses).length, route.operationId).toBeGreaterThan(0);
      expect(
        Object.keys(responses).some((status) => /^2\d\d$/.test(status)),
        route.operationId,
      ).toBe(true);
      expect(responses['500'], route.operationId).toBeDefined();
      expect(operation!['security'], route.operationId).toEqual(
        securityRequirements(route.security, route.method),
      );
      if (route.security.startsWith('key:')) {
        expect(Object.keys(responses), route.operationId).toEqual(
          expect.arrayContaining(['401', '403', '429']),
        );
      }
    }
  });

  it('declares each path parameter of each path template', () => {
    for (const { path, method, operation } of operations) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      const declared = ((operation['parameters'] ?? []) as Json[])
        .filter((parameter) => parameter['in'] === 'path')
        .map((parameter) => parameter['name']);
      expect(declared, `${method} ${path}`).toEqual(inPath);
    }
  });

  it('resolves every $ref', () => {
    const found = refs(document);
    expect(found.length).toBeGreaterThan(50);
    for (const { at, ref } of found) {
      expect(ref.startsWith('#/'), at).toBe(true);
      expect(resolve(ref), `${ref} at ${at}`).toBeDefined();
    }
  });

  it('names the security schemes: bearer key, X-API-Key header, admin session cookie and CSRF header', () => {
    const schemes = (document['components'] as Json)['securitySchemes'] as Record<string, Json>;
    expect(schemes['apiKey']).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes['apiKeyHeader']).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(schemes['adminSession']).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'saksi_session' });
    expect(schemes['csrfToken']).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-CSRF-Token' });
    for (const { operation } of operations) {
      for (const requirement of operation['security'] as Json[]) {
        for (const name of Object.keys(requirement)) expect(Object.keys(schemes)).toContain(name);
      }
    }
  });

  it('describes the standard errors with the Error schema, 429 with Retry-After', () => {
    const responses = (document['components'] as Json)['responses'] as Record<string, Json>;
    for (const name of [
      'BadRequest',
      'Unauthenticated',
      'Forbidden',
      'NotFound',
      'TooLarge',
      'RateLimited',
    ]) {
      expect(responses[name]?.['content']).toEqual({
        'application/json': { schema: { $ref: '#/components/schemas/Error' } },
      });
    }
    expect(responses['RateLimited']?.['headers']).toHaveProperty('Retry-After');
    expect(resolve('#/components/schemas/Error')).toMatchObject({ required: ['error'] });
  });

  it('converts request schemas as input and response schemas as output', () => {
    const createKey = document.paths['/api/v1/keys']!['post']!;
    const body = (createKey['requestBody'] as Json)['content'] as Json;
    expect(body['application/json']).toMatchObject({
      schema: {
        required: ['name', 'scopes'],
        properties: { scopes: { items: { enum: ['read', 'ingest', 'admin'] } } },
      },
    });
    const listJobs = document.paths['/api/v1/jobs']!['get']!;
    expect(listJobs['parameters']).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'limit', in: 'query', required: false })]),
    );
    const upload = document.paths['/api/v1/documents']!['post']!;
    expect(Object.keys((upload['requestBody'] as Json)['content'] as Json)).toEqual(['multipart/form-data']);
    expect(Object.keys(upload['responses'] as Json)).toEqual(expect.arrayContaining(['200', '202']));
    expect(resolve('#/components/schemas/Document')).toMatchObject({
      properties: { status: { $ref: '#/components/schemas/DocumentStatus' } },
    });
    // Responses may grow fields: no additionalProperties: false in them.
    expect(JSON.stringify(resolve('#/components/schemas/Job'))).not.toContain('"additionalProperties":false');
  });

  it('rejects two routes on one method and path', () => {
    const route: RouteSpec = {
      method: 'get',
      path: '/x',
      operationId: 'x',
      summary: 'x',
      tags: [],
      security: 'public',
      responses: { 200: { description: 'x', schema: z.object({}) } },
    };
    expect(() =>
      buildOpenApi([route, { ...route, operationId: 'y' }], {
        basePath: '',
        info: { title: 'x', version: '1' },
      }),
    ).toThrow(/Two routes/);
  });
});
