/**
 * RFC 8785 JSON Canonicalization Scheme (JCS), and the strict RFC 8259 parser that feeds it.
 *
 * `canonicalize` turns a JSON value into the one byte sequence RFC 8785 §3.2 allows: no whitespace,
 * properties sorted by UTF-16 code units, strings escaped as ECMAScript `JSON.stringify` does and
 * numbers written as ECMAScript `Number.prototype.toString` writes them. It rejects what RFC 8785
 * cannot represent (NaN, ±Infinity, `undefined`, lone surrogates, non-JSON objects) instead of
 * passing it through.
 *
 * `parseJson` is written by hand because `JSON.parse` silently keeps the last of duplicate keys and
 * accepts lone surrogates, both of which would let two parties read one signed text differently.
 *
 * Both functions are depth-limited and bounded in time and memory for hostile input.
 */
import { MAX_INPUT_LENGTH, utf8Encode } from './bytes.js';
import { ProofError } from './errors.js';
import { sha256 } from './hash.js';

/**
 * Deepest nesting of arrays and objects accepted by {@link canonicalize} and, by default, by
 * {@link parseJson}. A top-level `[]` has depth 1; scalars have depth 0. RFC 8259 §9 lets a parser
 * limit nesting depth.
 */
export const JCS_MAX_DEPTH = 1000;

/**
 * Longest text, in UTF-16 code units, that {@link parseJson} accepts by default and that
 * {@link canonicalize} will produce (64 MiB, the same as {@link MAX_INPUT_LENGTH}). RFC 8259 §9 lets
 * a parser limit the size of texts it accepts; capping the output also bounds the time spent on
 * values that share sub-objects many times over.
 */
export const JCS_MAX_LENGTH = MAX_INPUT_LENGTH;

/** Options for {@link parseJson}. */
export interface ParseJsonOptions {
  /** Deepest nesting of arrays and objects allowed (default {@link JCS_MAX_DEPTH}). */
  maxDepth?: number;
  /** Longest input allowed, in UTF-16 code units (default {@link JCS_MAX_LENGTH}). */
  maxLength?: number;
}

// ---------------------------------------------------------------------------------------------
// Canonicalization (RFC 8785 §3.2)
// ---------------------------------------------------------------------------------------------

/**
 * Serializes `value` as RFC 8785 canonical JSON text.
 *
 * - Literals `null`, `true`, `false` as themselves (RFC 8785 §3.2.2.1).
 * - Strings quoted and escaped per §3.2.2.2: `"` `\` and U+0000–U+001F are escaped (`\b \t \n \f \r`
 *   in short form, the rest as `\u00xx` with lowercase hex); everything else, including U+007F and
 *   non-ASCII, is written as is. A lone surrogate throws `JCS_LONE_SURROGATE`.
 * - Numbers per §3.2.2.3, i.e. ECMAScript `Number.prototype.toString`; `-0` becomes `0`. NaN and
 *   ±Infinity throw `JCS_UNSUPPORTED_VALUE`.
 * - Object properties sorted by their names as arrays of UTF-16 code units (§3.2.3), recursively.
 *
 * What counts as JSON: `null`, booleans, finite numbers, strings, dense arrays whose prototype is
 * `Array.prototype`, and plain objects — whose prototype is `null` or an `Object.prototype` (of any
 * realm). Only own enumerable string-keyed properties are read; `toJSON` is not called. Everything
 * else throws `JCS_UNSUPPORTED_VALUE`: `undefined` (also as a property value or array element),
 * functions, symbols, bigints, `Date`, `Map`, `Set`, typed arrays, boxed primitives, class
 * instances, array holes, own enumerable symbol-keyed properties, and cyclic structures.
 *
 * Nesting deeper than {@link JCS_MAX_DEPTH} throws `JSON_TOO_DEEP` (checked before each descent, so
 * deep input cannot exhaust the stack); output longer than {@link JCS_MAX_LENGTH} throws
 * `INPUT_TOO_LARGE`.
 *
 * @example
 * ```ts
 * canonicalize({ b: [1e21, -0], a: 'é' }); // '{"a":"é","b":[1e+21,0]}'
 * ```
 */
export function canonicalize(value: unknown): string {
  const state: SerializeState = { out: '', ancestors: new Set() };
  serializeValue(value, state, 0);
  return state.out;
}

/**
 * The UTF-8 encoding of {@link canonicalize}`(value)` — the bytes RFC 8785 §3.2.4 says are hashed or
 * signed.
 *
 * @example
 * ```ts
 * canonicalizeToBytes({ a: 1 }); // Uint8Array of '{"a":1}'
 * ```
 */
export function canonicalizeToBytes(value: unknown): Uint8Array {
  return utf8Encode(canonicalize(value));
}

/**
 * SHA-256 (FIPS 180-4) of the RFC 8785 canonical bytes of `value`: how certificate and log-entry
 * hashes are computed (docs/certificate.md, "Bundle"). Throws as {@link canonicalize} does.
 *
 * @example
 * ```ts
 * toHex(canonicalHash({ a: 1 })); // sha256('{"a":1}')
 * ```
 */
export function canonicalHash(value: unknown): Uint8Array {
  return sha256(canonicalizeToBytes(value));
}

interface SerializeState {
  out: string;
  /** Objects and arrays on the current path, to detect cycles. */
  ancestors: Set<object>;
}

function serializeValue(value: unknown, state: SerializeState, depth: number): void {
  switch (typeof value) {
    case 'string':
      append(state, quoteString(value));
      return;
    case 'number':
      append(state, serializeNumber(value));
      return;
    case 'boolean':
      append(state, value ? 'true' : 'false');
      return;
    case 'object':
      if (value === null) {
        append(state, 'null');
        return;
      }
      serializeContainer(value, state, depth + 1);
      return;
    default:
      // undefined, function, symbol, bigint
      throw unsupported(`a value of type ${typeof value} has no JSON representation`);
  }
}

function serializeContainer(value: object, state: SerializeState, depth: number): void {
  if (depth > JCS_MAX_DEPTH) {
    throw new ProofError('JSON_TOO_DEEP', `JSON value is nested deeper than ${JCS_MAX_DEPTH} levels.`);
  }
  if (state.ancestors.has(value)) {
    throw unsupported('the value contains a cycle');
  }
  state.ancestors.add(value);
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) throw unsupported('an array subclass is not JSON');
    append(state, '[');
    for (let index = 0; index < value.length; index++) {
      if (index > 0) append(state, ',');
      if (!(index in value)) throw unsupported(`the array has a hole at index ${index}`);
      const element: unknown = value[index];
      if (element === undefined) throw unsupported(`the array has undefined at index ${index}`);
      serializeValue(element, state, depth);
    }
    append(state, ']');
  } else {
    if (!isPlainObject(value)) throw unsupported(`an object of kind ${describeObject(value)} is not JSON`);
    if (
      Object.getOwnPropertySymbols(value).some((symbol) =>
        Object.prototype.propertyIsEnumerable.call(value, symbol),
      )
    ) {
      throw unsupported('the object has a symbol-keyed property');
    }
    const record = value as Record<string, unknown>;
    // RFC 8785 §3.2.3: sort by UTF-16 code units. Array.prototype.sort without a comparator compares
    // strings exactly that way (ECMA-262 IsLessThan on String values), independent of locale.
    const keys = Object.keys(record).sort();
    append(state, '{');
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!;
      const property = record[key];
      if (property === undefined) throw unsupported(`property ${JSON.stringify(key)} is undefined`);
      if (index > 0) append(state, ',');
      append(state, quoteString(key));
      append(state, ':');
      serializeValue(property, state, depth);
    }
    append(state, '}');
  }
  state.ancestors.delete(value);
}

function append(state: SerializeState, text: string): void {
  state.out += text;
  if (state.out.length > JCS_MAX_LENGTH) {
    throw new ProofError(
      'INPUT_TOO_LARGE',
      `Canonical JSON would be longer than ${JCS_MAX_LENGTH} characters.`,
    );
  }
}

/** Plain means: prototype is null, or is an `Object.prototype` (of this or another realm). */
function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype === null || prototype === Object.prototype) return true;
  if (typeof prototype !== 'object' || Object.getPrototypeOf(prototype) !== null) return false;
  const maker: unknown = (prototype as { constructor?: unknown }).constructor;
  return typeof maker === 'function' && maker.name === 'Object';
}

function describeObject(value: object): string {
  const prototype: unknown = Object.getPrototypeOf(value);
  const maker: unknown =
    prototype !== null && typeof prototype === 'object'
      ? (prototype as { constructor?: unknown }).constructor
      : undefined;
  return typeof maker === 'function' && maker.name !== '' ? maker.name : 'unknown';
}

function unsupported(reason: string): ProofError {
  return new ProofError('JCS_UNSUPPORTED_VALUE', `Cannot canonicalize: ${reason} (RFC 8785 §3.2).`);
}

/** RFC 8785 §3.2.2.3: ECMAScript Number.prototype.toString, which already writes -0 as "0". */
function serializeNumber(value: number): string {
  if (!Number.isFinite(value)) throw unsupported(`${value} is not a finite number`);
  return String(value);
}

/**
 * RFC 8785 §3.2.2.2 string serialization. That section specifies the escaping of ECMAScript
 * `JSON.stringify` (ECMA-262 QuoteJSONString): `"` and `\` escaped, U+0008/9/A/C/D as `\b \t \n
 * \f \r`, other code units below U+0020 as `\u00xx` in lowercase hex, everything else written as is.
 * For well-formed strings every engine since ES5 produces exactly that, so after rejecting lone
 * surrogates (which ES2019+ would escape and older engines would emit raw) the native, linear-time
 * `JSON.stringify` is used.
 */
function quoteString(text: string): string {
  const lone = findLoneSurrogate(text);
  if (lone >= 0) {
    throw new ProofError(
      'JCS_LONE_SURROGATE',
      `String has a lone surrogate U+${text.charCodeAt(lone).toString(16).toUpperCase()} at index ${lone}; RFC 8785 §3.2.2.2 cannot represent it.`,
    );
  }
  return JSON.stringify(text);
}

// ---------------------------------------------------------------------------------------------
// Strict parsing (RFC 8259)
// ---------------------------------------------------------------------------------------------

// UTF-16 code units the parser looks for.
const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const PLUS = 0x2b;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const SLASH = 0x2f;
const ZERO = 0x30;
const NINE = 0x39;
const COLON = 0x3a;
const UPPER_E = 0x45;
const OPEN_BRACKET = 0x5b;
const BACKSLASH = 0x5c;
const CLOSE_BRACKET = 0x5d;
const LOWER_E = 0x65;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** A run of code units that need no attention inside a string: not `"`, `\\`, control or surrogate. */
const PLAIN_STRING_RUN = /[^"\\\u0000-\u001f\ud800-\udfff]*/y;

/** Code units decoded before a chunk of an escaped string is turned into a JS string. */
const STRING_CHUNK_LENGTH = 8192;
/** Scratch space for decoding strings with escapes; safe to share, as parsing never yields. */
const STRING_BUFFER = new Uint16Array(STRING_CHUNK_LENGTH);

interface Frame {
  /** The array or object being filled. */
  container: unknown[] | Record<string, unknown>;
  /** The key waiting for its value; undefined for arrays. */
  key: string | undefined;
}

/**
 * Parses JSON text strictly per RFC 8259, for input that will be canonicalized, hashed or verified.
 *
 * Differences from `JSON.parse`, all of them rejections:
 * - duplicate object member names (after unescaping) throw `JSON_DUPLICATE_KEY` (RFC 8259 §4 says
 *   names SHOULD be unique; RFC 8785 §3.1 requires I-JSON, RFC 7493 §2.3, where they MUST be);
 * - lone surrogates in strings or names, raw or via `\u` escapes, throw `JCS_LONE_SURROGATE`
 *   (RFC 7493 §2.1);
 * - numbers that overflow IEEE 754 double (e.g. `1e400`) throw `JCS_UNSUPPORTED_VALUE` (RFC 7493
 *   §2.2); numbers that underflow become 0 or a subnormal, as `Number()` rounds them;
 * - nesting deeper than `maxDepth` throws `JSON_TOO_DEEP`; text longer than `maxLength` throws
 *   `INPUT_TOO_LARGE` (RFC 8259 §9 limits);
 * - any other syntax error — including a byte-order mark, comments, trailing commas, leading zeros,
 *   single quotes and raw control characters in strings — throws `JSON_PARSE_ERROR` with the
 *   position in the message. Invalid options also throw `JSON_PARSE_ERROR`.
 *
 * The parser keeps its own stack (no recursion) and runs in time linear in the input. Objects are
 * returned as ordinary objects with `Object.prototype`; a member named `__proto__` becomes an own
 * data property rather than changing the prototype.
 *
 * @example
 * ```ts
 * parseJson('{"a":[1,2.50]}'); // { a: [1, 2.5] }
 * parseJson('{"a":1,"a":2}'); // throws ProofError JSON_DUPLICATE_KEY
 * ```
 */
export function parseJson(text: string, options: ParseJsonOptions = {}): unknown {
  const maxDepth = options.maxDepth ?? JCS_MAX_DEPTH;
  const maxLength = options.maxLength ?? JCS_MAX_LENGTH;
  if (!Number.isSafeInteger(maxDepth) || maxDepth < 0) {
    throw new ProofError('JSON_PARSE_ERROR', 'parseJson option maxDepth must be a non-negative integer.');
  }
  if (!Number.isSafeInteger(maxLength) || maxLength < 0) {
    throw new ProofError('JSON_PARSE_ERROR', 'parseJson option maxLength must be a non-negative integer.');
  }
  if (typeof text !== 'string') throw new ProofError('JSON_PARSE_ERROR', 'JSON text must be a string.');
  if (text.length > maxLength) {
    throw new ProofError(
      'INPUT_TOO_LARGE',
      `JSON text is ${text.length} characters, over the limit of ${maxLength}.`,
    );
  }
  return new Parser(text, maxDepth).parseDocument();
}

class Parser {
  private position = 0;
  private readonly stack: Frame[] = [];

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  parseDocument(): unknown {
    let value: unknown;
    // Each turn either opens a container (and continues with its first member) or produces a
    // complete value, which is then added to the enclosing containers, closing them as needed.
    parse: for (;;) {
      this.skipWhitespace();
      const code = this.peek();
      if (code === OPEN_BRACKET || code === OPEN_BRACE) {
        if (this.stack.length >= this.maxDepth) {
          throw new ProofError('JSON_TOO_DEEP', `JSON text is nested deeper than ${this.maxDepth} levels.`, {
            details: `position ${this.position}`,
          });
        }
        this.position++;
        this.skipWhitespace();
        if (code === OPEN_BRACKET) {
          if (this.peek() === CLOSE_BRACKET) {
            this.position++;
            value = [];
          } else {
            this.stack.push({ container: [], key: undefined });
            continue;
          }
        } else if (this.peek() === CLOSE_BRACE) {
          this.position++;
          value = {};
        } else {
          const frame: Frame = { container: {}, key: undefined };
          this.stack.push(frame);
          frame.key = this.parseMemberName();
          continue;
        }
      } else {
        value = this.parseScalar(code);
      }

      // Add the complete value to its container; close containers whose last member it was.
      for (;;) {
        const frame = this.stack[this.stack.length - 1];
        if (frame === undefined) break parse;
        const { container } = frame;
        if (Array.isArray(container)) {
          container.push(value);
        } else {
          setMember(container, frame.key!, value);
        }
        this.skipWhitespace();
        const next = this.peek();
        if (next === COMMA) {
          this.position++;
          if (!Array.isArray(container)) {
            this.skipWhitespace();
            frame.key = this.parseMemberName();
          }
          continue parse;
        }
        if (next !== (Array.isArray(container) ? CLOSE_BRACKET : CLOSE_BRACE)) {
          throw this.syntaxError(Array.isArray(container) ? "Expected ',' or ']'" : "Expected ',' or '}'");
        }
        this.position++;
        this.stack.pop();
        value = container;
      }
    }
    this.skipWhitespace();
    if (this.position < this.text.length) throw this.syntaxError('Unexpected text after the JSON value');
    return value;
  }

  /** Reads `"name"` `:` and leaves the position at the member's value. Checks for duplicates. */
  private parseMemberName(): string {
    if (this.peek() !== QUOTE) throw this.syntaxError('Expected a string as the member name');
    const start = this.position;
    const key = this.parseString();
    const frame = this.stack[this.stack.length - 1];
    if (frame !== undefined && Object.hasOwn(frame.container, key)) {
      throw new ProofError(
        'JSON_DUPLICATE_KEY',
        `Duplicate member name ${JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key)} ${this.where(start)}.`,
      );
    }
    this.skipWhitespace();
    if (this.peek() !== COLON) throw this.syntaxError("Expected ':' after the member name");
    this.position++;
    return key;
  }

  private parseScalar(code: number): unknown {
    switch (code) {
      case QUOTE:
        return this.parseString();
      case 0x74: // t
        return this.parseLiteral('true', true);
      case 0x66: // f
        return this.parseLiteral('false', false);
      case 0x6e: // n
        return this.parseLiteral('null', null);
      default:
        if (code === MINUS || (code >= ZERO && code <= NINE)) return this.parseNumber();
        throw this.syntaxError(code < 0 ? 'Unexpected end of input' : 'Unexpected character');
    }
  }

  private parseLiteral(word: string, value: boolean | null): boolean | null {
    if (!this.text.startsWith(word, this.position)) throw this.syntaxError('Unexpected character');
    this.position += word.length;
    return value;
  }

  /** RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` */
  private parseNumber(): number {
    const { text } = this;
    const start = this.position;
    if (this.peek() === MINUS) this.position++;
    if (this.peek() === ZERO) {
      this.position++;
    } else if (!this.skipDigits()) {
      throw this.syntaxError('Expected a digit');
    }
    if (this.peek() === DOT) {
      this.position++;
      if (!this.skipDigits()) throw this.syntaxError('Expected a digit after the decimal point');
    }
    const exponent = this.peek();
    if (exponent === LOWER_E || exponent === UPPER_E) {
      this.position++;
      const sign = this.peek();
      if (sign === PLUS || sign === MINUS) this.position++;
      if (!this.skipDigits()) throw this.syntaxError('Expected a digit in the exponent');
    }
    const value = Number(text.slice(start, this.position));
    if (!Number.isFinite(value)) {
      throw new ProofError(
        'JCS_UNSUPPORTED_VALUE',
        `Number ${this.where(start)} is outside the IEEE 754 double range (RFC 7493 §2.2).`,
      );
    }
    return value;
  }

  private skipDigits(): boolean {
    const start = this.position;
    let code = this.peek();
    while (code >= ZERO && code <= NINE) {
      this.position++;
      code = this.peek();
    }
    return this.position > start;
  }

  /** RFC 8259 §7 string, starting at the opening quote; rejects lone surrogates (RFC 7493 §2.1). */
  private parseString(): string {
    const { text } = this;
    const start = this.position;
    let index = start + 1;
    let sawSurrogate = false;
    let value: string | undefined;
    // Fast path: a string without escapes is a slice of the input. The sticky regex skips runs of
    // ordinary code units natively; the loop looks at whatever stopped it.
    for (;;) {
      PLAIN_STRING_RUN.lastIndex = index;
      PLAIN_STRING_RUN.test(text);
      index = PLAIN_STRING_RUN.lastIndex;
      if (index >= text.length) throw this.syntaxError('Unterminated string', start);
      const code = text.charCodeAt(index);
      if (code === QUOTE) {
        value = text.slice(start + 1, index);
        this.position = index + 1;
        break;
      }
      if (code === BACKSLASH) break;
      if (code < 0x20) throw this.syntaxError('Control character in string must be escaped', index);
      sawSurrogate = true; // the only other code units the run stops at
      index++;
    }
    if (value === undefined) {
      const decoded = this.decodeEscapedString(start, index);
      value = decoded.value;
      sawSurrogate ||= decoded.sawSurrogate;
    }
    if (sawSurrogate) {
      const lone = findLoneSurrogate(value);
      if (lone >= 0) {
        throw new ProofError(
          'JCS_LONE_SURROGATE',
          `String ${this.where(start)} has a lone surrogate U+${value.charCodeAt(lone).toString(16).toUpperCase()}; RFC 8785 cannot represent it.`,
        );
      }
    }
    return value;
  }

  /**
   * Slow path of {@link parseString} from the first backslash at `index`: decodes into a fixed
   * buffer flushed in chunks, so escape-heavy strings stay linear (no per-escape string concatenation).
   */
  private decodeEscapedString(start: number, index: number): { value: string; sawSurrogate: boolean } {
    const { text } = this;
    const buffer = STRING_BUFFER;
    let out = text.slice(start + 1, index);
    let length = 0;
    let sawSurrogate = false;
    for (;;) {
      if (length === buffer.length) {
        out += String.fromCharCode.apply(null, buffer as unknown as number[]);
        length = 0;
      }
      if (index >= text.length) throw this.syntaxError('Unterminated string', start);
      let code = text.charCodeAt(index);
      if (code === QUOTE) {
        this.position = index + 1;
        break;
      }
      if (code < 0x20) throw this.syntaxError('Control character in string must be escaped', index);
      if (code === BACKSLASH) {
        const escaped = index + 1 < text.length ? text.charCodeAt(index + 1) : -1;
        index += 2;
        switch (escaped) {
          case QUOTE:
          case BACKSLASH:
          case SLASH:
            code = escaped;
            break;
          case 0x62: // b
            code = 0x08;
            break;
          case 0x66: // f
            code = 0x0c;
            break;
          case 0x6e: // n
            code = 0x0a;
            break;
          case 0x72: // r
            code = 0x0d;
            break;
          case 0x74: // t
            code = 0x09;
            break;
          case 0x75: // uXXXX
            code = this.parseHex4(index);
            index += 4;
            break;
          default:
            throw this.syntaxError(
              escaped < 0 ? 'Unterminated string' : 'Invalid escape sequence',
              index - 1,
            );
        }
      } else {
        index++;
      }
      if (code >= 0xd800 && code <= 0xdfff) sawSurrogate = true;
      buffer[length++] = code;
    }
    out += String.fromCharCode.apply(null, buffer.subarray(0, length) as unknown as number[]);
    return { value: out, sawSurrogate };
  }

  private parseHex4(at: number): number {
    let unit = 0;
    for (let offset = 0; offset < 4; offset++) {
      const code = at + offset < this.text.length ? this.text.charCodeAt(at + offset) : -1;
      let digit: number;
      if (code >= ZERO && code <= NINE) digit = code - ZERO;
      else if (code >= 0x61 && code <= 0x66)
        digit = code - 0x57; // a-f
      else if (code >= 0x41 && code <= 0x46)
        digit = code - 0x37; // A-F
      else throw this.syntaxError('Expected four hex digits after \\u', at + offset);
      unit = (unit << 4) | digit;
    }
    return unit;
  }

  /** RFC 8259 §2: insignificant whitespace is space, tab, line feed, carriage return. */
  private skipWhitespace(): void {
    const { text } = this;
    let index = this.position;
    while (index < text.length) {
      const code = text.charCodeAt(index);
      if (code !== SPACE && code !== LINE_FEED && code !== CARRIAGE_RETURN && code !== TAB) break;
      index++;
    }
    this.position = index;
  }

  /** The code unit at the current position, or -1 at the end. */
  private peek(): number {
    return this.position < this.text.length ? this.text.charCodeAt(this.position) : -1;
  }

  private syntaxError(reason: string, at = this.position): ProofError {
    const found =
      at >= this.text.length ? ' (end of input)' : ` (found ${JSON.stringify(this.text.charAt(at))})`;
    return new ProofError('JSON_PARSE_ERROR', `${reason} ${this.where(at)}${found}.`, {
      details: `position ${at}`,
    });
  }

  /** "at position P (line L, column C)"; computed only when an error is reported. */
  private where(at: number): string {
    let line = 1;
    let lineStart = 0;
    for (
      let index = this.text.indexOf('\n');
      index >= 0 && index < at;
      index = this.text.indexOf('\n', index + 1)
    ) {
      line++;
      lineStart = index + 1;
    }
    return `at position ${at} (line ${line}, column ${at - lineStart + 1})`;
  }
}

/** Any surrogate code unit, paired or not (no `u` flag, so the regex sees code units). */
const ANY_SURROGATE = /[\ud800-\udfff]/;

/** Index of the first unpaired surrogate code unit in `text`, or -1. */
function findLoneSurrogate(text: string): number {
  if (!ANY_SURROGATE.test(text)) return -1; // native scan; the common case
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0xd800 || code > 0xdfff) continue;
    if (code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        index++;
        continue;
      }
    }
    return index;
  }
  return -1;
}

/** Adds a parsed member; `__proto__` becomes an own data property instead of setting the prototype. */
function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    object[key] = value;
  }
}
