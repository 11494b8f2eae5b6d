/**
 * Byte helpers. `Uint8Array` only; no Buffer, no node:* imports, so the package runs in browsers.
 */
import { ProofError } from './errors.js';

const HEX_ALPHABET = '0123456789abcdef';
const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/** Largest string or byte input any decoder here accepts (64 MiB); larger input is refused up front. */
export const MAX_INPUT_LENGTH = 64 * 1024 * 1024;

/** Encodes a JavaScript string as UTF-8. */
export function utf8Encode(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Decodes strict UTF-8; invalid sequences throw a `ProofError` instead of becoming U+FFFD. */
export function utf8Decode(bytes: Uint8Array): string {
  try {
    return strictDecoder.decode(bytes);
  } catch (cause) {
    throw new ProofError('JSON_PARSE_ERROR', 'Input is not valid UTF-8.', { cause });
  }
}

/** Lowercase hexadecimal of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += HEX_ALPHABET[byte >> 4]! + HEX_ALPHABET[byte & 15]!;
  return out;
}

/**
 * Parses hexadecimal (either case). Throws `INVALID_HEX` on odd length or a non-hex character, and
 * `INVALID_LENGTH` when `expectedLength` (in bytes) is given and does not match.
 */
export function fromHex(hex: string, expectedLength?: number): Uint8Array {
  if (typeof hex !== 'string') throw new ProofError('INVALID_HEX', 'Expected a hex string.');
  if (hex.length > MAX_INPUT_LENGTH) throw new ProofError('INPUT_TOO_LARGE', 'Hex string is too large.');
  if (hex.length % 2 !== 0) throw new ProofError('INVALID_HEX', 'Hex string has an odd length.');
  if (expectedLength !== undefined && hex.length !== expectedLength * 2) {
    throw new ProofError('INVALID_LENGTH', `Expected ${expectedLength} bytes of hex, got ${hex.length / 2}.`);
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const high = hexValue(hex.charCodeAt(2 * i));
    const low = hexValue(hex.charCodeAt(2 * i + 1));
    if (high < 0 || low < 0) throw new ProofError('INVALID_HEX', 'Hex string contains a non-hex character.');
    out[i] = (high << 4) | low;
  }
  return out;
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  if (code >= 97 && code <= 102) return code - 87; // a-f
  if (code >= 65 && code <= 70) return code - 55; // A-F
  return -1;
}

/**
 * True when `text` is lowercase hex of exactly `length` bytes (the form docs/certificate.md, "Encodings",
 * requires for digests in JSON).
 */
export function isLowerHex(text: unknown, length: number): text is string {
  return typeof text === 'string' && text.length === length * 2 && /^[0-9a-f]*$/.test(text);
}

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_LOOKUP = (() => {
  const table = new Int16Array(128).fill(-1);
  for (let i = 0; i < BASE64_ALPHABET.length; i++) table[BASE64_ALPHABET.charCodeAt(i)] = i;
  return table;
})();

/** Standard, padded base64 (RFC 4648 §4), as signed notes use. */
export function toBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += BASE64_ALPHABET[n >> 18]! + BASE64_ALPHABET[(n >> 12) & 63]! + BASE64_ALPHABET[(n >> 6) & 63]!;
    out += BASE64_ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += BASE64_ALPHABET[n >> 18]! + BASE64_ALPHABET[(n >> 12) & 63]! + '==';
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out +=
      BASE64_ALPHABET[n >> 18]! + BASE64_ALPHABET[(n >> 12) & 63]! + BASE64_ALPHABET[(n >> 6) & 63]! + '=';
  }
  return out;
}

/**
 * Strict standard base64 (RFC 4648 §4): padding required, no whitespace, and non-zero trailing bits
 * rejected so every byte string has exactly one accepted encoding. Throws `INVALID_BASE64`.
 */
export function fromBase64(text: string, expectedLength?: number): Uint8Array {
  if (typeof text !== 'string') throw new ProofError('INVALID_BASE64', 'Expected a base64 string.');
  if (text.length > MAX_INPUT_LENGTH) throw new ProofError('INPUT_TOO_LARGE', 'Base64 string is too large.');
  if (text.length % 4 !== 0) throw new ProofError('INVALID_BASE64', 'Base64 length is not a multiple of 4.');
  let padding = 0;
  if (text.endsWith('==')) padding = 2;
  else if (text.endsWith('=')) padding = 1;
  const outLength = (text.length / 4) * 3 - padding;
  if (expectedLength !== undefined && outLength !== expectedLength) {
    throw new ProofError('INVALID_LENGTH', `Expected ${expectedLength} bytes of base64, got ${outLength}.`);
  }
  const out = new Uint8Array(outLength);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    const last = i + 4 === text.length;
    const values = [0, 0, 0, 0];
    for (let j = 0; j < 4; j++) {
      const code = text.charCodeAt(i + j);
      if (last && code === 61 /* = */ && j >= 4 - padding) continue;
      const value = code < 128 ? BASE64_LOOKUP[code]! : -1;
      if (value < 0) throw new ProofError('INVALID_BASE64', 'Base64 string contains an invalid character.');
      values[j] = value;
    }
    const n = (values[0]! << 18) | (values[1]! << 12) | (values[2]! << 6) | values[3]!;
    if (last && padding === 2 && (n & 0xffff) !== 0) throw nonCanonicalBase64();
    if (last && padding === 1 && (n & 0xff) !== 0) throw nonCanonicalBase64();
    out[o++] = n >> 16;
    if (o < outLength) out[o++] = (n >> 8) & 255;
    if (o < outLength) out[o++] = n & 255;
  }
  return out;
}

function nonCanonicalBase64(): ProofError {
  return new ProofError('INVALID_BASE64', 'Base64 string has non-zero padding bits.');
}

/** base64url without padding (RFC 4648 §5), used by multibase `u` and JOSE-style ids. */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Parses base64url without padding; throws `INVALID_BASE64`. */
export function fromBase64Url(text: string, expectedLength?: number): Uint8Array {
  if (typeof text !== 'string' || /[+/=]/.test(text)) {
    throw new ProofError('INVALID_BASE64', 'Expected unpadded base64url.');
  }
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  return fromBase64(padded, expectedLength);
}

/** Concatenates byte arrays. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Compares two byte arrays in time that depends only on their lengths. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array) || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** Compares two lowercase-hex digests in constant time; false for anything that is not hex. */
export function hexDigestEqual(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string' || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
