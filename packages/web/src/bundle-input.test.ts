import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BUNDLE_MAX_BYTES,
  BUNDLE_MAX_DEPTH,
  BundleInputError,
  checkBundleSize,
  readBundleText,
} from './bundle-input.js';

const golden = readFileSync(
  path.resolve(import.meta.dirname, '../../proof/__fixtures__/golden-v1.1-bundle.json'),
  'utf8',
);

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof BundleInputError ? error.code : `not a BundleInputError: ${String(error)}`;
  }
  return undefined;
}

describe('readBundleText', () => {
  it('reads a real bundle, whose nesting is well inside the limit', () => {
    const value = readBundleText(golden) as { certificate: { certificate_id: string } };
    expect(value.certificate.certificate_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses empty text, text that is not JSON and repeated member names', () => {
    expect(codeOf(() => readBundleText('  \n'))).toBe('EMPTY');
    expect(codeOf(() => readBundleText('{"certificate": '))).toBe('NOT_JSON');
    expect(codeOf(() => readBundleText('hello'))).toBe('NOT_JSON');
    expect(codeOf(() => readBundleText('{"a":1,"a":2}'))).toBe('DUPLICATE_NAME');
  });

  it('refuses deep nesting at once, without exhausting the stack', () => {
    const depth = 1_000_000;
    const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const started = performance.now();
    expect(codeOf(() => readBundleText(deep))).toBe('TOO_DEEP');
    expect(performance.now() - started).toBeLessThan(1_000);
    const justInside = `${'['.repeat(BUNDLE_MAX_DEPTH)}${']'.repeat(BUNDLE_MAX_DEPTH)}`;
    expect(codeOf(() => readBundleText(justInside))).toBeUndefined();
    const justOver = `${'{"a":'.repeat(BUNDLE_MAX_DEPTH + 1)}1${'}'.repeat(BUNDLE_MAX_DEPTH + 1)}`;
    expect(codeOf(() => readBundleText(justOver))).toBe('TOO_DEEP');
  });

  it('refuses text over the size limit before parsing it', () => {
    const big = ' '.repeat(BUNDLE_MAX_BYTES + 1);
    const started = performance.now();
    let error: unknown;
    try {
      readBundleText(`${big}{}`);
    } catch (caught) {
      error = caught;
    }
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(BundleInputError);
    expect((error as BundleInputError).code).toBe('TOO_LARGE');
    expect((error as BundleInputError).size?.limit).toBe(BUNDLE_MAX_BYTES);
  });
});

describe('checkBundleSize', () => {
  it('accepts up to the limit and refuses a 50 MB file by its size alone', () => {
    expect(codeOf(() => checkBundleSize(BUNDLE_MAX_BYTES))).toBeUndefined();
    expect(codeOf(() => checkBundleSize(50 * 1024 * 1024))).toBe('TOO_LARGE');
  });
});
