/**
 * A small, dependency-free structural validator for hostile JSON (certificates, bundles, keys).
 * It checks types, sizes and formats before anything is hashed, and names the first bad field.
 */
import { fromBase64, isLowerHex } from './bytes.js';
import { ProofError, type ProofErrorCode } from './errors.js';

export type Field =
  | { kind: 'any'; optional?: boolean }
  | { kind: 'string'; min?: number; max: number; pattern?: RegExp; optional?: boolean }
  | { kind: 'hex'; bytes: number; optional?: boolean }
  | { kind: 'base64'; bytes: number; optional?: boolean }
  | { kind: 'integer'; min?: number; max?: number; optional?: boolean }
  | { kind: 'number'; min?: number; max?: number; optional?: boolean }
  | { kind: 'boolean'; optional?: boolean }
  | { kind: 'literal'; values: readonly unknown[]; optional?: boolean }
  | { kind: 'array'; min?: number; max: number; items: Field; optional?: boolean }
  | { kind: 'record'; max: number; values: Field; optional?: boolean }
  | { kind: 'object'; fields: Record<string, Field>; optional?: boolean }
  /** An object with exactly one property, whose name picks the field its value must match. */
  | { kind: 'variant'; variants: Record<string, Field>; optional?: boolean };

/** Throws a `ProofError` with `code`, naming `path`. */
export function fail(code: ProofErrorCode, path: string, problem: string): never {
  throw new ProofError(code, `${path} ${problem}.`, { details: path });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Checks `value` against `field`; unknown object properties are rejected so nothing unsigned can
 * ride along in a signed structure. Throws `ProofError(code)`.
 */
export function checkObject(value: unknown, field: Field, path: string, code: ProofErrorCode): void {
  const stack: { value: unknown; field: Field; path: string }[] = [{ value, field, path }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    checkField(item.value, item.field, item.path, code, stack);
  }
}

function checkField(
  value: unknown,
  field: Field,
  path: string,
  code: ProofErrorCode,
  stack: { value: unknown; field: Field; path: string }[],
): void {
  switch (field.kind) {
    case 'any':
      return;
    case 'string':
      if (typeof value !== 'string') fail(code, path, 'must be a string');
      if (value.length > field.max) fail(code, path, `is longer than ${field.max} characters`);
      if (field.min !== undefined && value.length < field.min) fail(code, path, 'is empty');
      if (field.pattern && !field.pattern.test(value)) fail(code, path, 'has the wrong format');
      return;
    case 'hex':
      if (!isLowerHex(value, field.bytes)) fail(code, path, `must be ${field.bytes} bytes of lowercase hex`);
      return;
    case 'base64':
      if (typeof value !== 'string' || value.length > 4 * Math.ceil(field.bytes / 3)) {
        fail(code, path, `must be ${field.bytes} bytes of base64`);
      }
      try {
        fromBase64(value, field.bytes);
      } catch {
        fail(code, path, `must be ${field.bytes} bytes of base64`);
      }
      return;
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) fail(code, path, 'must be an integer');
      if (field.min !== undefined && value < field.min) fail(code, path, `must be at least ${field.min}`);
      if (field.max !== undefined && value > field.max) fail(code, path, `must be at most ${field.max}`);
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) fail(code, path, 'must be a finite number');
      if (field.min !== undefined && value < field.min) fail(code, path, `must be at least ${field.min}`);
      if (field.max !== undefined && value > field.max) fail(code, path, `must be at most ${field.max}`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') fail(code, path, 'must be true or false');
      return;
    case 'literal':
      if (!field.values.includes(value))
        fail(code, path, `must be one of ${field.values.map(String).join(', ')}`);
      return;
    case 'array':
      if (!Array.isArray(value)) fail(code, path, 'must be an array');
      if (value.length > field.max) fail(code, path, `has more than ${field.max} items`);
      if (field.min !== undefined && value.length < field.min)
        fail(code, path, `has fewer than ${field.min} items`);
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], field: field.items, path: `${path}[${i}]` });
      return;
    case 'record': {
      if (!isPlainObject(value)) fail(code, path, 'must be an object');
      const keys = Object.keys(value);
      if (keys.length > field.max) fail(code, path, `has more than ${field.max} entries`);
      for (const key of keys) stack.push({ value: value[key], field: field.values, path: `${path}.${key}` });
      return;
    }
    case 'object': {
      if (!isPlainObject(value)) fail(code, path, 'must be an object');
      for (const key of Object.keys(value)) {
        if (!Object.hasOwn(field.fields, key)) fail(code, `${path}.${key}`, 'is not allowed');
      }
      const entries = Object.entries(field.fields);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        if (!Object.hasOwn(value, key) || value[key] === undefined) {
          if (!child.optional) fail(code, `${path}.${key}`, 'is missing');
          continue;
        }
        stack.push({ value: value[key], field: child, path: `${path}.${key}` });
      }
      return;
    }
    case 'variant': {
      if (!isPlainObject(value)) fail(code, path, 'must be an object');
      const keys = Object.keys(value);
      if (keys.length !== 1)
        fail(code, path, `must have exactly one of ${Object.keys(field.variants).join(', ')}`);
      const key = keys[0]!;
      if (!Object.hasOwn(field.variants, key)) fail(code, `${path}.${key}`, 'is not allowed');
      stack.push({ value: value[key], field: field.variants[key]!, path: `${path}.${key}` });
      return;
    }
  }
}
