import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLIENT_WIRE_TYPES_PATH, clientWireTypes } from '../openapi.js';
import { typeOf, typeScriptOf } from './typescript.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Formats TypeScript as `npm run wire-types` does (Biome, with the repository's settings). */
function format(source: string): string {
  return execFileSync(
    path.join(root, 'node_modules', '.bin', 'biome'),
    ['format', `--stdin-file-path=${CLIENT_WIRE_TYPES_PATH}`],
    { cwd: root, input: source, encoding: 'utf8' },
  );
}

describe("the client's wire types", () => {
  it('are the checked-in packages/client/src/wire.ts', () => {
    const checkedIn = readFileSync(path.join(root, CLIENT_WIRE_TYPES_PATH), 'utf8');
    expect(
      format(clientWireTypes()) === checkedIn,
      `${CLIENT_WIRE_TYPES_PATH} differs from the server's routes: run npm run wire-types and commit the result`,
    ).toBe(true);
  });

  it('come out the same every time', () => {
    expect(clientWireTypes()).toBe(clientWireTypes());
  });
});

describe('JSON Schema as TypeScript', () => {
  it('writes scalars, literals, enums and nullable types', () => {
    expect(typeOf({ type: 'string', maxLength: 4 }, '#')).toBe('string');
    expect(typeOf({ type: 'integer', minimum: 0 }, '#')).toBe('number');
    expect(typeOf({ type: ['boolean', 'null'] }, '#')).toBe('boolean | null');
    expect(typeOf({ anyOf: [{ type: 'string' }, { type: 'null' }] }, '#')).toBe('string | null');
    expect(typeOf({ type: 'string', const: "it's" }, '#')).toBe('"it\'s"');
    expect(typeOf({ type: 'string', enum: ['a', 'b'] }, '#')).toBe('"a" | "b"');
    expect(typeOf({}, '#')).toBe('unknown');
    expect(typeOf({ anyOf: [{ type: 'string' }, {}] }, '#')).toBe('unknown');
  });

  it('writes arrays, tuples, records and references', () => {
    expect(typeOf({ type: 'array', items: { type: 'string' } }, '#')).toBe('string[]');
    expect(typeOf({ type: 'array', items: { type: ['string', 'null'] } }, '#')).toBe('(string | null)[]');
    expect(
      typeOf({ type: 'array', prefixItems: [{ const: 'a' }, { type: 'number' }], items: false }, '#'),
    ).toBe('["a", number]');
    expect(
      typeOf(
        { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'number' } },
        '#',
      ),
    ).toBe('Record<string, number>');
    expect(typeOf({ $ref: '#/components/schemas/Document' }, '#')).toBe("Schemas['Document']");
  });

  it('writes objects with required and optional properties, descriptions and extra fields', () => {
    const type = typeOf(
      {
        type: 'object',
        properties: {
          id: { type: 'string', description: 'The id' },
          '@context': { type: 'string' },
          note: { type: 'string' },
        },
        required: ['id', '@context'],
        additionalProperties: {},
      },
      '#',
    );
    expect(type).toBe(
      "{\n/** The id */\nid: string;\n'@context': string;\nnote?: string;\n[field: string]: unknown;\n}",
    );
    expect(typeOf({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, '#')).toBe(
      '{\na: string;\n}',
    );
  });

  it('refuses what it cannot convert instead of writing unknown', () => {
    expect(() => typeOf({ type: 'string', if: {} }, '#/x')).toThrow('#/x: unsupported keyword if');
    expect(() => typeOf({ $ref: 'https://example.org/schema' }, '#/y')).toThrow('unsupported $ref');
    expect(() => typeOf({ type: 'date' }, '#/z')).toThrow('unsupported type');
  });

  it('lists operations with their parameters, body, successful responses, method and path', () => {
    const source = typeScriptOf(
      {
        paths: {
          '/api/v1/things/{id}': {
            post: {
              operationId: 'makeThing',
              summary: 'Make a thing',
              parameters: [
                { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
                { name: 'dry', in: 'query', required: false, schema: { type: 'string', enum: ['1'] } },
              ],
              requestBody: {
                content: { 'application/json': { schema: { type: 'object', properties: {} } } },
              },
              responses: {
                201: { description: 'Made', content: { 'application/json': { schema: { type: 'string' } } } },
                204: { description: 'Nothing' },
                400: { $ref: '#/components/responses/BadRequest' },
              },
            },
          },
        },
        components: { schemas: { Thing: { type: 'string', description: 'A thing' } } },
      },
      { header: ['Test header'] },
    );
    expect(source).toContain('/** Test header */');
    expect(source).toContain('/** A thing */\nThing: string;');
    expect(source).toContain('/** `POST /api/v1/things/{id}`: Make a thing */\nmakeThing: {');
    expect(source).toContain('parameters: { path: {\nid: string;\n}; query: {\ndry?: "1";\n} };');
    expect(source).toContain("requestBody: {\n'application/json': Record<string, never>;\n};");
    expect(source).toContain("201: {\n'application/json': string;\n};\n204: never;\n};");
    expect(source).not.toContain('400');
    expect(source).toContain("makeThing: { method: 'POST', path: '/api/v1/things/{id}' },");
  });
});
