import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../test/codes.js';
import {
  BASE58_MAX_BYTE_LENGTH,
  BASE58_MAX_TEXT_LENGTH,
  BASE58BTC_ALPHABET,
  base58btcDecode,
  base58btcEncode,
} from './base58.js';
import { fromHex, toHex, utf8Encode } from './bytes.js';

describe('base58btc', () => {
  // Test values from draft-msporny-base58-03 §5 ("Test Values").
  const draftVectors: Array<[Uint8Array, string]> = [
    [utf8Encode('Hello World!'), '2NEpo7TZRRrLZSi2U'],
    [
      utf8Encode('The quick brown fox jumps over the lazy dog.'),
      'USm3fpXnKG5EUBx2ndxBDMPVciP5hGey2Jh4NDv6gmeo1LkMeiKrLJUUBk6Z',
    ],
    [fromHex('0000287fb4cd'), '11233QC4'],
  ];

  it.each(draftVectors)('encodes and decodes the draft-msporny-base58-03 test value %#', (bytes, text) => {
    expect(base58btcEncode(bytes)).toBe(text);
    expect(toHex(base58btcDecode(text))).toBe(toHex(bytes));
  });

  it('maps each leading zero byte to one "1" and the empty string to no bytes', () => {
    expect(base58btcEncode(new Uint8Array(0))).toBe('');
    expect(base58btcDecode('')).toEqual(new Uint8Array(0));
    expect(base58btcEncode(new Uint8Array([0]))).toBe('1');
    expect(base58btcEncode(new Uint8Array([0, 0, 0]))).toBe('111');
    expect(toHex(base58btcDecode('111'))).toBe('000000');
    expect(base58btcEncode(new Uint8Array([57]))).toBe('z');
    expect(base58btcEncode(new Uint8Array([58]))).toBe('21');
    expect(toHex(base58btcDecode('1z'))).toBe('0039');
  });

  it('round-trips arbitrary bytes, leading zeros included', () => {
    const withZeros = fc
      .tuple(fc.integer({ min: 0, max: 4 }), fc.uint8Array({ maxLength: 80 }))
      .map(([zeros, rest]) => new Uint8Array([...new Array<number>(zeros).fill(0), ...rest]));
    fc.assert(
      fc.property(withZeros, (bytes) => {
        expect(toHex(base58btcDecode(base58btcEncode(bytes)))).toBe(toHex(bytes));
      }),
    );
  });

  it('has exactly one encoding per byte string: decode then encode returns the text', () => {
    const text = fc.string({ unit: fc.constantFrom(...BASE58BTC_ALPHABET), maxLength: 60 });
    fc.assert(
      fc.property(text, (value) => {
        expect(base58btcEncode(base58btcDecode(value))).toBe(value);
      }),
    );
  });

  it.each(['0', 'O', 'I', 'l', ' 2NEpo', '2NEpo\n', '+', '/', '=', 'é', '😀', 'z\u0000'])(
    'rejects %j with INVALID_BASE58',
    (text) => {
      expect(codeOf(() => base58btcDecode(text))).toBe('INVALID_BASE58');
    },
  );

  it('rejects values of the wrong type with INVALID_BASE58', () => {
    expect(codeOf(() => base58btcDecode(42 as unknown as string))).toBe('INVALID_BASE58');
    expect(codeOf(() => base58btcDecode(null as unknown as string))).toBe('INVALID_BASE58');
    expect(codeOf(() => base58btcEncode('abc' as unknown as Uint8Array))).toBe('INVALID_BASE58');
    expect(codeOf(() => base58btcEncode([1, 2] as unknown as Uint8Array))).toBe('INVALID_BASE58');
  });

  it('refuses oversized input up front (base58 is quadratic)', () => {
    const started = performance.now();
    expect(codeOf(() => base58btcDecode('z'.repeat(BASE58_MAX_TEXT_LENGTH + 1)))).toBe('INPUT_TOO_LARGE');
    expect(codeOf(() => base58btcDecode('2'.repeat(1024 * 1024)))).toBe('INPUT_TOO_LARGE');
    expect(codeOf(() => base58btcEncode(new Uint8Array(BASE58_MAX_BYTE_LENGTH + 1)))).toBe('INPUT_TOO_LARGE');
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('handles the largest accepted inputs in bounded time, and encode output always decodes', () => {
    const started = performance.now();
    const largest = new Uint8Array(BASE58_MAX_BYTE_LENGTH).fill(0xff);
    const text = base58btcEncode(largest);
    expect(text.length).toBeLessThanOrEqual(BASE58_MAX_TEXT_LENGTH);
    expect(base58btcDecode(text)).toEqual(largest);
    expect(base58btcDecode('z'.repeat(BASE58_MAX_TEXT_LENGTH)).length).toBeGreaterThan(7000);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
