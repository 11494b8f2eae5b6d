/**
 * The OpenAPI document as TypeScript types: what `@saksi/client` checks in as its wire types
 * (packages/client/src/wire.ts, written by `npm run wire-types`). It converts the subset of JSON Schema
 * draft 2020-12 that `z.toJSONSchema` gives the registry's schemas: objects with required and optional
 * properties and `additionalProperties`, arrays and tuples (`prefixItems`), `enum` and `const`, `anyOf`,
 * `oneOf` and `allOf`, `type` arrays (nullable), `$ref` to `components.schemas`, and the scalar types.
 * Validation keywords (lengths, patterns, bounds) have no TypeScript form and are dropped. Anything else
 * is an error, so a new construct in a schema cannot silently become `unknown`.
 *
 * The output is plain text in a stable order (components by name, operations in the document's order of
 * paths and methods); the caller formats it.
 */

type Json = Record<string, unknown>;

/** The parts of an OpenAPI 3.1 document this reads. */
export interface OpenApiLike {
  paths: Record<string, Record<string, Json>>;
  components?: { schemas?: Record<string, unknown> };
}

export interface TypeScriptOptions {
  /** The first lines of the file, without comment markers. */
  header: string[];
}

const SCHEMA_REF = '#/components/schemas/';

/** Keywords that constrain values without changing their TypeScript type. */
const IGNORED = new Set([
  'description',
  'examples',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'format',
  'contentMediaType',
  'default',
  'title',
  'propertyNames',
]);

/** Keywords converted below. */
const HANDLED = new Set([
  '$ref',
  'type',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'allOf',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'prefixItems',
]);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function fail(at: string, message: string): never {
  throw new Error(`${at}: ${message}`);
}

/** A JSON value as a TypeScript literal type. */
function literal(value: unknown, at: string): string {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return JSON.stringify(value);
  return fail(at, `cannot write ${JSON.stringify(value)} as a literal type`);
}

/** A property name as written in a type literal. */
function key(name: string): string {
  return IDENTIFIER.test(name) ? name : `'${name.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** `text` in lines of at most `width` characters, broken at spaces. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      if (line !== '' && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else {
        line = line === '' ? word : `${line} ${word}`;
      }
    }
    lines.push(line);
  }
  return lines;
}

/** A TSDoc comment of `text` (nothing when there is none). */
function doc(text: unknown): string {
  if (typeof text !== 'string' || text.trim() === '') return '';
  const lines = wrap(text.replaceAll('*/', '*\\/'), 96);
  if (lines.length === 1) return `/** ${lines[0]} */\n`;
  return `/**\n${lines.map((line) => ` * ${line}`.trimEnd()).join('\n')}\n */\n`;
}

/** Parenthesised when it would bind wrongly as an array element. */
function element(type: string): string {
  return /^[A-Za-z0-9_$.'"[\]]+$/.test(type) || type.startsWith('{') ? type : `(${type})`;
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  if (unique.includes('unknown')) return 'unknown';
  const kept = unique.filter((type) => type !== 'never');
  return kept.length === 0 ? 'never' : kept.join(' | ');
}

/** The TypeScript type of a JSON Schema. */
export function typeOf(schema: unknown, at: string): string {
  if (schema === true) return 'unknown';
  if (schema === false) return 'never';
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return fail(at, 'a schema must be an object or a boolean');
  const object = schema as Json;
  for (const name of Object.keys(object)) {
    if (!HANDLED.has(name) && !IGNORED.has(name)) fail(at, `unsupported keyword ${name}`);
  }
  const ref = object['$ref'];
  if (ref !== undefined) {
    if (typeof ref !== 'string' || !ref.startsWith(SCHEMA_REF)) fail(at, `unsupported $ref ${String(ref)}`);
    return `Schemas['${ref.slice(SCHEMA_REF.length)}']`;
  }
  if ('const' in object) return literal(object['const'], at);
  if (Array.isArray(object['enum'])) return union(object['enum'].map((value) => literal(value, at)));
  for (const combinator of ['anyOf', 'oneOf'] as const) {
    const parts = object[combinator];
    if (Array.isArray(parts))
      return union(parts.map((part, index) => typeOf(part, `${at}/${combinator}/${index}`)));
  }
  if (Array.isArray(object['allOf'])) {
    return object['allOf'].map((part, index) => element(typeOf(part, `${at}/allOf/${index}`))).join(' & ');
  }
  const type = object['type'];
  if (Array.isArray(type)) {
    return union(type.map((single) => typeOf({ ...object, type: single }, at)));
  }
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return arrayType(object, at);
    case 'object':
      return objectType(object, at);
    case undefined:
      if ('properties' in object || 'additionalProperties' in object) return objectType(object, at);
      return 'unknown';
    default:
      return fail(at, `unsupported type ${JSON.stringify(type)}`);
  }
}

function arrayType(schema: Json, at: string): string {
  const prefix = schema['prefixItems'];
  const items = schema['items'];
  if (Array.isArray(prefix)) {
    const members = prefix.map((item, index) => typeOf(item, `${at}/prefixItems/${index}`));
    if (items !== undefined && items !== false) members.push(`...${element(typeOf(items, `${at}/items`))}[]`);
    return `[${members.join(', ')}]`;
  }
  return `${element(typeOf(items ?? true, `${at}/items`))}[]`;
}

function objectType(schema: Json, at: string): string {
  const properties = (schema['properties'] ?? {}) as Record<string, unknown>;
  const required = new Set((schema['required'] ?? []) as string[]);
  const additional = schema['additionalProperties'];
  const names = Object.keys(properties);
  if (names.length === 0) {
    if (additional === undefined || additional === false) return 'Record<string, never>';
    return `Record<string, ${typeOf(additional, `${at}/additionalProperties`)}>`;
  }
  const members = names.map((name) => {
    const property = properties[name] as Json;
    const optional = required.has(name) ? '' : '?';
    return `${doc(property?.['description'])}${key(name)}${optional}: ${typeOf(property, `${at}/properties/${name}`)};`;
  });
  // Declared properties must fit the index signature, so extra fields are `unknown` whatever the schema says.
  if (additional !== undefined && additional !== false) members.push('[field: string]: unknown;');
  return `{\n${members.join('\n')}\n}`;
}

/** The member type of a content map: `{ 'application/json': T; … }`. */
function contentType(content: unknown, at: string): string {
  const entries = Object.entries((content ?? {}) as Record<string, Json>);
  if (entries.length === 0) return 'never';
  return `{\n${entries
    .map(([media, value]) => `${key(media)}: ${typeOf(value['schema'] ?? true, `${at}/${media}`)};`)
    .join('\n')}\n}`;
}

function parameterType(parameters: Json[], place: 'path' | 'query', at: string): string {
  const chosen = parameters.filter((parameter) => parameter['in'] === place);
  if (chosen.length === 0) return 'never';
  return `{\n${chosen
    .map((parameter) => {
      const name = String(parameter['name']);
      const optional = parameter['required'] === true ? '' : '?';
      return `${doc(parameter['description'])}${key(name)}${optional}: ${typeOf(parameter['schema'], `${at}/${name}`)};`;
    })
    .join('\n')}\n}`;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/**
 * The TypeScript source of `document`'s types: `Schemas` (every `components.schemas` entry by name),
 * `Operations` (per operationId: path and query parameters, request body and successful responses, each
 * by media type) and the `OPERATIONS` table of methods and paths.
 */
export function typeScriptOf(document: OpenApiLike, options: TypeScriptOptions): string {
  const out: string[] = [doc(options.header.join('\n')), '\n'];
  out.push('/** The named schemas of the API (`components.schemas` of its OpenAPI document). */\n');
  out.push('export interface Schemas {\n');
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    out.push(
      `${doc((schema as Json)['description'])}${key(name)}: ${typeOf(schema, `#/components/schemas/${name}`)};\n`,
    );
  }
  out.push('}\n\n');

  const table: string[] = [];
  out.push(
    '/**\n * Every operation by its operationId: path and query parameters (`never`: none), the request body and the\n' +
      ' * successful responses, each by media type (`never`: no body).\n */\n',
  );
  out.push('export interface Operations {\n');
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (operation === undefined) continue;
      const id = String(operation['operationId']);
      const at = `#/paths/${path}/${method}`;
      const parameters = (operation['parameters'] ?? []) as Json[];
      const body = operation['requestBody'] as Json | undefined;
      const responses = Object.entries((operation['responses'] ?? {}) as Record<string, Json>).filter(
        ([status]) => /^2\d\d$/.test(status),
      );
      out.push(
        `${doc(`\`${method.toUpperCase()} ${path}\`: ${String(operation['summary'])}`)}${key(id)}: {\n`,
      );
      out.push(
        `parameters: { path: ${parameterType(parameters, 'path', `${at}/parameters`)}; query: ${parameterType(parameters, 'query', `${at}/parameters`)} };\n`,
      );
      out.push(
        `requestBody: ${body === undefined ? 'never' : contentType(body['content'], `${at}/requestBody`)};\n`,
      );
      out.push(
        `responses: {\n${responses
          .map(
            ([status, response]) =>
              `${status}: ${contentType(response['content'], `${at}/responses/${status}`)};`,
          )
          .join('\n')}\n};\n`,
      );
      out.push('};\n');
      table.push(`${key(id)}: { method: '${method.toUpperCase()}', path: '${path}' },`);
    }
  }
  out.push('}\n\n');
  out.push('/** The method and path of every operation (paths from the server root). */\n');
  out.push(
    `export const OPERATIONS = {\n${table.join('\n')}\n} as const satisfies { [Id in keyof Operations]: { method: string; path: string } };\n`,
  );
  return out.join('');
}
