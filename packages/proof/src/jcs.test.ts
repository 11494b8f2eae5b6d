import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../test/codes.js';
import { fromHex, toHex, utf8Encode } from './bytes.js';
import { isProofError, type ProofError } from './errors.js';
import { sha256 } from './hash.js';
import {
  canonicalHash,
  canonicalize,
  canonicalizeToBytes,
  JCS_MAX_DEPTH,
  JCS_MAX_LENGTH,
  parseJson,
} from './jcs.js';

function errorOf(action: () => unknown): ProofError {
  try {
    action();
  } catch (error) {
    if (isProofError(error)) return error;
    throw error;
  }
  throw new Error('expected a ProofError');
}

/** The double whose IEEE 754 binary64 bits are `hex` (big-endian). */
function doubleFromHex(hex: string): number {
  return new DataView(fromHex(hex).buffer).getFloat64(0, false);
}

/** Replaces -0 by 0 everywhere: JSON text cannot tell them apart once canonicalized. */
function withoutNegativeZero(value: unknown): unknown {
  if (typeof value === 'number') return value === 0 ? 0 : value;
  if (Array.isArray(value)) return value.map(withoutNegativeZero);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, member]) => [key, withoutNegativeZero(member)]),
    );
  }
  return value;
}

/** Independent reference: RFC 8785 via JSON.stringify of leaves and explicitly sorted keys. */
function referenceCanonicalize(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(referenceCanonicalize).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort((a, b) => {
      for (let index = 0; index < Math.min(a.length, b.length); index++) {
        const difference = a.charCodeAt(index) - b.charCodeAt(index);
        if (difference !== 0) return difference;
      }
      return a.length - b.length;
    });
    return `{${keys.map((key) => `${JSON.stringify(key)}:${referenceCanonicalize(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function nestedArrays(depth: number): unknown {
  let value: unknown = [];
  for (let level = 1; level < depth; level++) value = [value];
  return value;
}

function nestedObjects(depth: number): unknown {
  let value: unknown = {};
  for (let level = 1; level < depth; level++) value = { a: value };
  return value;
}

describe('canonicalize: RFC 8785 Appendix B number serialization', () => {
  // [IEEE 754 binary64 bits, expected text], from the table in RFC 8785 Appendix B.
  const appendixB: Array<[string, string]> = [
    ['0000000000000000', '0'],
    ['8000000000000000', '0'], // minus zero
    ['0000000000000001', '5e-324'], // min pos number
    ['8000000000000001', '-5e-324'], // min neg number
    ['7fefffffffffffff', '1.7976931348623157e+308'], // max pos number
    ['ffefffffffffffff', '-1.7976931348623157e+308'], // max neg number
    ['4340000000000000', '9007199254740992'], // max pos int
    ['c340000000000000', '-9007199254740992'], // max neg int
    ['4430000000000000', '295147905179352830000'], // ~2**68
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'], // round to even
  ];

  it.each(appendixB)('serializes %s as %s', (hex, expected) => {
    expect(canonicalize(doubleFromHex(hex))).toBe(expected);
    // The same number written in JSON text parses back to the same canonical form.
    expect(canonicalize(parseJson(expected))).toBe(expected);
  });

  it.each(['7fffffffffffffff', '7ff0000000000000', 'fff0000000000000'])(
    'rejects the non-finite value %s (NaN, Infinity) with JCS_UNSUPPORTED_VALUE',
    (hex) => {
      expect(codeOf(() => canonicalize(doubleFromHex(hex)))).toBe('JCS_UNSUPPORTED_VALUE');
      expect(codeOf(() => canonicalize([1, { a: doubleFromHex(hex) }]))).toBe('JCS_UNSUPPORTED_VALUE');
    },
  );

  it('writes well-known numbers in ECMAScript form', () => {
    expect(canonicalize([1e21, 1e-7, 1e20, 1e-6, 56.0, 4.5, 0.002, 1e30, 1e-27, -0, 2 ** 53 + 2])).toBe(
      '[1e+21,1e-7,100000000000000000000,0.000001,56,4.5,0.002,1e+30,1e-27,0,9007199254740994]',
    );
    expect(
      canonicalize(parseJson('[333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001, -0.0]')),
    ).toBe('[333333333.3333333,1e+30,4.5,0.002,1e-27,0]');
  });
});

describe('canonicalize: RFC 8785 §3.2.2.2 strings and §3.2.3 sorting', () => {
  it('escapes U+0000..U+001F, quote and backslash exactly as §3.2.2.2 says, and nothing else', () => {
    const short: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };
    for (let code = 0; code < 0x20; code++) {
      const expected = short[code] ?? `\\u00${code.toString(16).padStart(2, '0')}`;
      expect(canonicalize(String.fromCharCode(code))).toBe(`"${expected}"`);
    }
    expect(canonicalize('"\\/')).toBe('"\\"\\\\/"');
    expect(canonicalize('\u007f\u0080\u00e9\u20ac\ud83d\ude02\ufb33\uffff')).toBe(
      '"\u007f\u0080\u00e9\u20ac\ud83d\ude02\ufb33\uffff"',
    );
    expect(canonicalize('</script>')).toBe('"</script>"');
  });

  it('reproduces the §3.2.4 example, parsing the RFC input text', () => {
    const input = `{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\"\\/",
      "literals": [null, true, false]
    }`;
    expect(canonicalize(parseJson(input))).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts property names by UTF-16 code units (the §3.2.3 example), not by code point or locale', () => {
    const input = `{
      "\\u20ac": "Euro Sign",
      "\\r": "Carriage Return",
      "\\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\\ud83d\\ude00": "Emoji: Grinning Face",
      "\\u0080": "Control",
      "\\u00f6": "Latin Small Letter O With Diaeresis"
    }`;
    expect(canonicalize(parseJson(input))).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","ö":"Latin Small Letter O With Diaeresis",' +
        '"€":"Euro Sign","😀":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
    // Integer-like keys, which JavaScript enumerates first, still sort as strings.
    expect(canonicalize({ 2: 'b', 10: 'a', '': 'e', a: { d: 1, A: 2 } })).toBe(
      '{"":"e","10":"a","2":"b","a":{"A":2,"d":1}}',
    );
    expect(canonicalize({ péché: 1, pêche: 2, peach: 3, sin: 4 })).toBe(
      '{"peach":3,"péché":1,"pêche":2,"sin":4}',
    );
  });

  it('keeps Unicode as is, without normalization (A + combining ring stays two code points)', () => {
    expect(canonicalize({ 'Unnormalized Unicode': 'A\u030a' })).toBe('{"Unnormalized Unicode":"A\u030a"}');
  });

  it('writes literals, empty containers and nesting without whitespace', () => {
    expect(canonicalize(null)).toBe('null');
    expect(canonicalize(true)).toBe('true');
    expect(canonicalize(false)).toBe('false');
    expect(canonicalize([[], {}, [{}], { a: [] }])).toBe('[[],{},[{}],{"a":[]}]');
    expect(canonicalize([56, { d: true, 10: null, 1: [] }])).toBe('[56,{"1":[],"10":null,"d":true}]');
  });
});

describe('canonicalize: what it accepts and rejects', () => {
  it('accepts objects with a null prototype, own __proto__ keys and shared (acyclic) references', () => {
    const bare = Object.create(null) as Record<string, unknown>;
    bare.b = 1;
    bare.a = 2;
    expect(canonicalize(bare)).toBe('{"a":2,"b":1}');
    const withProto = JSON.parse('{"__proto__":{"x":1},"a":0}') as unknown;
    expect(canonicalize(withProto)).toBe('{"__proto__":{"x":1},"a":0}');
    const shared = { s: 1 };
    expect(canonicalize([shared, shared, { shared }])).toBe('[{"s":1},{"s":1},{"shared":{"s":1}}]');
  });

  it('ignores non-enumerable properties and does not call toJSON', () => {
    const value = { a: 1 };
    Object.defineProperty(value, 'hidden', { value: 2, enumerable: false });
    expect(canonicalize(value)).toBe('{"a":1}');
    expect(codeOf(() => canonicalize({ toJSON: () => 'x' }))).toBe('JCS_UNSUPPORTED_VALUE');
  });

  class Point {
    constructor(readonly x: number) {}
  }
  const sparse: unknown[] = [1];
  sparse[2] = 3; // index 1 is a hole
  const unsupported: Array<[string, () => unknown]> = [
    ['undefined', () => undefined],
    ['undefined in an array', () => [1, undefined]],
    ['undefined as a property value', () => ({ a: 1, b: undefined })],
    ['a function', () => () => 1],
    ['a function as a property value', () => ({ f() {} })],
    ['a symbol', () => Symbol('s')],
    ['a bigint', () => 1n],
    ['a bigint in an object', () => ({ n: 10n })],
    ['NaN', () => Number.NaN],
    ['Infinity in an array', () => [Number.POSITIVE_INFINITY]],
    ['-Infinity', () => Number.NEGATIVE_INFINITY],
    ['a Date', () => new Date(0)],
    ['a Map', () => new Map([['a', 1]])],
    ['a Set', () => new Set([1])],
    ['a class instance', () => new Point(1)],
    ['a Uint8Array', () => new Uint8Array(2)],
    ['a boxed string', () => new String('a')],
    ['a RegExp', () => /a/],
    ['an Error', () => new Error('x')],
    ['an object inheriting from a plain object', () => Object.create({ inherited: 1 })],
    ['an array subclass', () => new (class extends Array {})()],
    ['an array hole', () => sparse],
    ['a symbol-keyed property', () => ({ [Symbol('k')]: 1, a: 1 })],
  ];

  it.each(unsupported)('rejects %s with JCS_UNSUPPORTED_VALUE', (_label, make) => {
    expect(codeOf(() => canonicalize(make()))).toBe('JCS_UNSUPPORTED_VALUE');
  });

  it.each([
    ['a lone high surrogate', '\ud800'],
    ['a lone low surrogate', '\udc00'],
    ['a reversed pair', '\ude00\ud83d'],
    ['a high surrogate at the end', 'abc\ud83d'],
    ['a high surrogate before a normal character', '\ud83dx'],
  ])('rejects %s, as a value or a key, with JCS_LONE_SURROGATE', (_label, text) => {
    expect(codeOf(() => canonicalize(text))).toBe('JCS_LONE_SURROGATE');
    expect(codeOf(() => canonicalize({ [text]: 1 }))).toBe('JCS_LONE_SURROGATE');
    expect(codeOf(() => canonicalize([{ a: [text] }]))).toBe('JCS_LONE_SURROGATE');
  });

  it('rejects cyclic objects and arrays with a typed error', () => {
    const object: Record<string, unknown> = { a: 1 };
    object.self = object;
    expect(codeOf(() => canonicalize(object))).toBe('JCS_UNSUPPORTED_VALUE');
    const array: unknown[] = [1];
    array.push([array]);
    expect(codeOf(() => canonicalize(array))).toBe('JCS_UNSUPPORTED_VALUE');
  });

  it(`accepts nesting of exactly ${JCS_MAX_DEPTH} and rejects ${JCS_MAX_DEPTH + 1} with JSON_TOO_DEEP`, () => {
    expect(canonicalize(nestedArrays(JCS_MAX_DEPTH))).toBe(
      `${'['.repeat(JCS_MAX_DEPTH)}${']'.repeat(JCS_MAX_DEPTH)}`,
    );
    expect(codeOf(() => canonicalize(nestedArrays(JCS_MAX_DEPTH + 1)))).toBe('JSON_TOO_DEEP');
    expect(codeOf(() => canonicalize(nestedObjects(JCS_MAX_DEPTH)))).toBeUndefined();
    expect(codeOf(() => canonicalize(nestedObjects(JCS_MAX_DEPTH + 1)))).toBe('JSON_TOO_DEEP');
  });

  it('rejects 100,000-deep arrays and objects with JSON_TOO_DEEP instead of overflowing the stack', () => {
    expect(codeOf(() => canonicalize(nestedArrays(100_000)))).toBe('JSON_TOO_DEEP');
    expect(codeOf(() => canonicalize(nestedObjects(100_000)))).toBe('JSON_TOO_DEEP');
  });

  it('stops with INPUT_TOO_LARGE, quickly, when shared references would expand past the output limit', () => {
    let value: unknown = 'a'.repeat(1 << 20);
    for (let level = 0; level < 40; level++) value = [value, value]; // 2^40 MiB if written out
    const started = performance.now();
    expect(codeOf(() => canonicalize(value))).toBe('INPUT_TOO_LARGE');
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('canonicalizes and reparses a 50 MB string in bounded time', () => {
    const big = `${'abcdefghij'.repeat(5_000_000)}\n"é`;
    const started = performance.now();
    const text = canonicalize(big);
    expect(text.length).toBe(big.length + 4); // quotes, and one backslash each for \n and "
    expect(parseJson(text)).toBe(big);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe('canonicalizeToBytes and canonicalHash', () => {
  it('encodes the canonical text as UTF-8', () => {
    expect(toHex(canonicalizeToBytes({ b: '€', a: '😂' }))).toBe(toHex(utf8Encode('{"a":"😂","b":"€"}')));
    expect(toHex(canonicalizeToBytes('é'))).toBe('22c3a922');
  });

  it('hashes the canonical bytes with SHA-256', () => {
    expect(toHex(canonicalHash({}))).toBe('44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
    const value = { z: [1.5, 'x'], a: { c: null, b: true } };
    expect(toHex(canonicalHash(value))).toBe(
      toHex(sha256(utf8Encode('{"a":{"b":true,"c":null},"z":[1.5,"x"]}'))),
    );
    expect(toHex(canonicalHash(value))).toBe(
      toHex(canonicalHash(parseJson('{ "a": {"c":null, "b":true}, "z":[15e-1,"x"] }'))),
    );
  });

  it('throws the same typed errors as canonicalize', () => {
    expect(codeOf(() => canonicalHash({ a: Number.NaN }))).toBe('JCS_UNSUPPORTED_VALUE');
    expect(codeOf(() => canonicalizeToBytes('\udfff'))).toBe('JCS_LONE_SURROGATE');
  });
});

describe('parseJson: strict RFC 8259', () => {
  it('parses every JSON construct', () => {
    expect(
      parseJson(' \t\r\n{"a" : [ 1 , -0.5e+2 , 2E-1, 0, -0, 10, true, false, null, "" , {} , [] ] } \n'),
    ).toEqual({
      a: [1, -50, 0.2, 0, -0, 10, true, false, null, '', {}, []],
    });
    expect(parseJson('"\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\u00E9\\ud83d\\ude02"')).toBe(
      '"\\/\b\f\n\r\tAéé😂',
    );
    expect(parseJson('"raw é 😂 \u007f"')).toBe('raw é 😂 \u007f');
    expect(parseJson('123')).toBe(123);
    expect(parseJson('1e-400')).toBe(0);
    expect(Object.is(parseJson('-0'), -0)).toBe(true);
  });

  it('returns plain objects, keeping __proto__ as an own property', () => {
    const value = parseJson('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'a']);
    expect(value.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(value).toEqual(JSON.parse('{"__proto__":{"polluted":true},"a":1}'));
    expect(codeOf(() => parseJson('{"__proto__":1,"__proto__":2}'))).toBe('JSON_DUPLICATE_KEY');
  });

  it.each([
    ['{"a":1,"a":2}'],
    ['{"a":1,"b":2,"a":1}'],
    ['[{"x":{"y":1,"y":1}}]'],
    ['{"a":1,"\\u0061":2}'],
    ['{"\\ud83d\\ude02":1,"😂":2}'],
    ['{"":1,"":1}'],
  ])('rejects duplicate names in %s with JSON_DUPLICATE_KEY', (text) => {
    expect(codeOf(() => parseJson(text))).toBe('JSON_DUPLICATE_KEY');
  });

  it('allows the same name in different objects', () => {
    expect(parseJson('{"a":{"a":1},"b":[{"a":2},{"a":3}]}')).toEqual({
      a: { a: 1 },
      b: [{ a: 2 }, { a: 3 }],
    });
  });

  it.each([
    ['an escaped high surrogate', '"\\ud800"'],
    ['an escaped low surrogate', '"\\udc00"'],
    ['an escaped reversed pair', '"\\ude02\\ud83d"'],
    ['an escaped high surrogate before a normal escape', '"\\ud83d\\u0041"'],
    ['a raw lone high surrogate', '"a\ud800b"'],
    ['a raw lone low surrogate', '"\udc00"'],
    ['an escaped high surrogate then a raw letter', '"\\ud83dx"'],
    ['a lone surrogate in a member name', '{"\\udfff":1}'],
  ])('rejects %s with JCS_LONE_SURROGATE', (_label, text) => {
    expect(codeOf(() => parseJson(text))).toBe('JCS_LONE_SURROGATE');
  });

  it('accepts a surrogate pair split between an escape and a raw character', () => {
    expect(parseJson('"\\ud83d\ude02"')).toBe('😂');
    expect(parseJson('"\ud83d\\ude02"')).toBe('😂');
  });

  const syntaxErrors: Array<[string, number]> = [
    ['', 0],
    ['   ', 3],
    ['\ufeff{}', 0], // byte-order mark
    ['01', 1],
    ['-', 1],
    ['-a', 1],
    ['1.', 2],
    ['.5', 0],
    ['1e', 2],
    ['1e+', 3],
    ['+1', 0],
    ['0x10', 1],
    ['[1,]', 3],
    ['[,1]', 1],
    ['[1 2]', 3],
    ['{,}', 1],
    ['{"a":1,}', 7],
    ['{"a" 1}', 5],
    ['{"a":}', 5],
    ['{1:2}', 1],
    ["{'a':1}", 1],
    ["'a'", 0],
    ['tru', 0],
    ['nul', 0],
    ['True', 0],
    ['NaN', 0],
    ['Infinity', 0],
    ['-Infinity', 1],
    ['[1] // comment', 4],
    ['/* c */ 1', 0],
    ['"abc', 0],
    ['"a\\"', 0],
    ['"a\nb"', 2],
    ['"a\u0000"', 2],
    ['"\\x41"', 2],
    ['"\\u12G4"', 5],
    ['"\\u12"', 5],
    ['"\\', 2],
    ['[', 1],
    [']', 0],
    ['{}}', 2],
    ['[[]', 3],
    ['{"a":1 "b":2}', 7],
    ['1 2', 2],
    ['[1]\u00a0', 3], // no-break space is not JSON whitespace
  ];

  it.each(syntaxErrors)('rejects %j with JSON_PARSE_ERROR at position %i', (text, position) => {
    const error = errorOf(() => parseJson(text));
    expect(error.code).toBe('JSON_PARSE_ERROR');
    expect(error.details).toBe(`position ${position}`);
  });

  it('rejects numbers beyond the double range with JCS_UNSUPPORTED_VALUE', () => {
    expect(codeOf(() => parseJson('1e400'))).toBe('JCS_UNSUPPORTED_VALUE');
    expect(codeOf(() => parseJson('[-1.8e308]'))).toBe('JCS_UNSUPPORTED_VALUE');
    expect(parseJson('1.7976931348623157e308')).toBe(Number.MAX_VALUE);
  });

  it('enforces maxDepth (default 1000) counting arrays and objects', () => {
    const ok = `${'['.repeat(JCS_MAX_DEPTH)}${']'.repeat(JCS_MAX_DEPTH)}`;
    expect(canonicalize(parseJson(ok))).toBe(ok);
    expect(codeOf(() => parseJson(`[${ok}]`))).toBe('JSON_TOO_DEEP');
    expect(
      codeOf(() => parseJson(`${'{"a":'.repeat(JCS_MAX_DEPTH + 1)}1${'}'.repeat(JCS_MAX_DEPTH + 1)}`)),
    ).toBe('JSON_TOO_DEEP');
    expect(parseJson('[{"a":[]}]', { maxDepth: 3 })).toEqual([{ a: [] }]);
    expect(codeOf(() => parseJson('[{"a":[]}]', { maxDepth: 2 }))).toBe('JSON_TOO_DEEP');
    expect(parseJson('"scalar"', { maxDepth: 0 })).toBe('scalar');
    expect(codeOf(() => parseJson('[]', { maxDepth: 0 }))).toBe('JSON_TOO_DEEP');
  });

  it('rejects 100,000 unclosed brackets with JSON_TOO_DEEP, and parses 100,000-deep input without recursion', () => {
    expect(codeOf(() => parseJson('['.repeat(100_000)))).toBe('JSON_TOO_DEEP');
    expect(codeOf(() => parseJson('{"a":'.repeat(100_000)))).toBe('JSON_TOO_DEEP');
    const deep = parseJson(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, { maxDepth: 100_000 });
    expect(codeOf(() => canonicalize(deep))).toBe('JSON_TOO_DEEP');
    expect(codeOf(() => parseJson('['.repeat(100_000), { maxDepth: 1_000_000 }))).toBe('JSON_PARSE_ERROR');
  });

  it('enforces maxLength (default 64 MiB) before parsing', () => {
    expect(codeOf(() => parseJson('[1, 2]', { maxLength: 5 }))).toBe('INPUT_TOO_LARGE');
    expect(parseJson('[1,2]', { maxLength: 5 })).toEqual([1, 2]);
    expect(codeOf(() => parseJson(' '.repeat(JCS_MAX_LENGTH + 1)))).toBe('INPUT_TOO_LARGE');
  });

  it('rejects invalid options and non-string input with JSON_PARSE_ERROR', () => {
    expect(codeOf(() => parseJson('1', { maxDepth: -1 }))).toBe('JSON_PARSE_ERROR');
    expect(codeOf(() => parseJson('1', { maxDepth: 1.5 }))).toBe('JSON_PARSE_ERROR');
    expect(codeOf(() => parseJson('1', { maxLength: Number.NaN }))).toBe('JSON_PARSE_ERROR');
    expect(codeOf(() => parseJson(undefined as unknown as string))).toBe('JSON_PARSE_ERROR');
    expect(codeOf(() => parseJson(utf8Encode('1') as unknown as string))).toBe('JSON_PARSE_ERROR');
  });

  it('parses a 50 MB string, and an escape-heavy 20 MB string, in bounded time', () => {
    const plain = 'x'.repeat(50_000_000);
    let started = performance.now();
    expect(parseJson(`"${plain}"`)).toBe(plain);
    expect(performance.now() - started).toBeLessThan(5000);

    const escaped = '\\n\\u00e9'.repeat(2_500_000);
    started = performance.now();
    const value = parseJson(`["${escaped}"]`) as string[];
    expect(value[0]).toBe('\né'.repeat(2_500_000));
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('parses a wide document (100,000 members) in bounded time', () => {
    const members = Array.from({ length: 100_000 }, (_, index) => `"k${index}":[${index},"v"]`);
    const started = performance.now();
    const value = parseJson(`{${members.join(',')}}`) as Record<string, unknown>;
    expect(value.k99999).toEqual([99999, 'v']);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe('properties (fast-check)', () => {
  const jsonValue = fc.jsonValue({ stringUnit: 'binary', maxDepth: 6 });

  it('round-trips, is idempotent and matches an independent reference on 10,000 random JSON values', () => {
    fc.assert(
      fc.property(jsonValue, (value) => {
        const text = canonicalize(value);
        if (text !== referenceCanonicalize(value)) return false;
        const reparsed = parseJson(text);
        expect(reparsed).toStrictEqual(withoutNegativeZero(value));
        return canonicalize(reparsed) === text;
      }),
      { numRuns: 10_000 },
    );
  });

  it('parseJson agrees with JSON.parse on duplicate-free JSON text in any layout', () => {
    fc.assert(
      fc.property(jsonValue, fc.constantFrom(undefined, 0, 1, '\t', ' \r\n '), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(parseJson(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('on arbitrary text, parseJson either agrees with JSON.parse or throws a ProofError', () => {
    const token = fc.constantFrom(
      ...'{}[],:"\\ -+.eE0123456789truefalsn\t\nu',
      '\\u',
      '"a"',
      '\ud800',
      'd83d',
      '1e999',
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 30 }), (tokens) => {
        const text = tokens.join('');
        let value: unknown;
        try {
          value = parseJson(text);
        } catch (error) {
          expect(isProofError(error)).toBe(true);
          return;
        }
        // Whatever the strict parser accepts, JSON.parse accepts and reads the same way.
        expect(value).toEqual(JSON.parse(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('canonicalize returns a string or throws a ProofError for any JavaScript value', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withMap: true,
          withSet: true,
          withDate: true,
          withTypedArray: true,
          withSparseArray: true,
          withNullPrototype: true,
        }),
        (value) => {
          try {
            expect(typeof canonicalize(value)).toBe('string');
          } catch (error) {
            expect(isProofError(error)).toBe(true);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
