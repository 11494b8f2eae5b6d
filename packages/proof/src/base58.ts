/**
 * base58btc (draft-msporny-base58-03): the Bitcoin base58 alphabet, multibase prefix `z` (W3C
 * Controlled Identifiers v1.0, "Multibase"), as used by Data Integrity proofs and `did:key` identifiers.
 *
 * Base58 is a change of radix, so both directions cost time quadratic in the length. Inputs are
 * therefore bounded ({@link BASE58_MAX_TEXT_LENGTH}, {@link BASE58_MAX_BYTE_LENGTH}) and larger ones are
 * refused before any work is done. Every byte string has exactly one encoding (each leading zero byte
 * is one `1`; the rest is the number without leading zero digits), so no canonicality check is needed.
 */
import { ProofError } from './errors.js';

/** The Bitcoin base58 alphabet (draft-msporny-base58-03, "The Base58 Alphabet"). */
export const BASE58BTC_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Multibase prefix for base58btc (W3C Controlled Identifiers v1.0, "Multibase"; multibase table `z`). */
export const MULTIBASE_BASE58BTC_PREFIX = 'z';

/** Longest base58 text {@link base58btcDecode} accepts (10 KiB of characters). */
export const BASE58_MAX_TEXT_LENGTH = 10 * 1024;

/**
 * Longest byte string {@link base58btcEncode} accepts (7 KiB). Its encoding is at most
 * ⌈7168 · log 256 / log 58⌉ = 9790 characters, so whatever is encoded here can be decoded again.
 */
export const BASE58_MAX_BYTE_LENGTH = 7 * 1024;

const BASE = 58;
const DECODE_TABLE = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < BASE58BTC_ALPHABET.length; i++) table[BASE58BTC_ALPHABET.charCodeAt(i)] = i;
  return table;
})();

/**
 * Encodes bytes as base58btc, without the multibase `z` prefix.
 * Throws `INVALID_BASE58` for a non-`Uint8Array` and `INPUT_TOO_LARGE` above {@link BASE58_MAX_BYTE_LENGTH}.
 *
 * @example
 * base58btcEncode(new Uint8Array([0, 0, 0x28, 0x7f, 0xb4, 0xcd])); // '11233QC4'
 */
export function base58btcEncode(bytes: Uint8Array): string {
  if (!(bytes instanceof Uint8Array))
    throw new ProofError('INVALID_BASE58', 'Expected a Uint8Array to encode.');
  if (bytes.length > BASE58_MAX_BYTE_LENGTH) {
    throw new ProofError('INPUT_TOO_LARGE', `base58 input is larger than ${BASE58_MAX_BYTE_LENGTH} bytes.`);
  }
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  // Little-endian base-58 digits; log(256)/log(58) < 1.37 digits per byte.
  const digits = new Uint8Array(Math.ceil((bytes.length - zeros) * 1.37) + 1);
  let length = 0;
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!;
    let j = 0;
    for (; j < length || carry !== 0; j++) {
      carry += digits[j]! * 256; // < 58 · 256 + 256: small-integer arithmetic throughout
      digits[j] = carry % BASE;
      carry = (carry / BASE) | 0;
    }
    length = j;
  }
  let out = '1'.repeat(zeros);
  for (let j = length - 1; j >= 0; j--) out += BASE58BTC_ALPHABET[digits[j]!]!;
  return out;
}

/**
 * Decodes base58btc text (without the multibase `z` prefix). Throws `INVALID_BASE58` for a non-string
 * or a character outside the alphabet (including whitespace), and `INPUT_TOO_LARGE` above
 * {@link BASE58_MAX_TEXT_LENGTH} characters.
 *
 * @example
 * base58btcDecode('11233QC4'); // Uint8Array [0, 0, 0x28, 0x7f, 0xb4, 0xcd]
 */
export function base58btcDecode(text: string): Uint8Array {
  if (typeof text !== 'string') throw new ProofError('INVALID_BASE58', 'Expected a base58 string.');
  if (text.length > BASE58_MAX_TEXT_LENGTH) {
    throw new ProofError(
      'INPUT_TOO_LARGE',
      `base58 text is longer than ${BASE58_MAX_TEXT_LENGTH} characters.`,
    );
  }
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === 49 /* '1' */) zeros++;
  // Little-endian bytes; log(58)/log(256) < 0.733 bytes per digit.
  const bytes = new Uint8Array(Math.ceil((text.length - zeros) * 0.733) + 1);
  let length = 0;
  for (let i = zeros; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let carry = code < 128 ? DECODE_TABLE[code]! : -1;
    if (carry < 0)
      throw new ProofError('INVALID_BASE58', 'base58 text contains a character outside the alphabet.');
    let j = 0;
    for (; j < length || carry !== 0; j++) {
      carry += bytes[j]! * BASE;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    length = j;
  }
  const out = new Uint8Array(zeros + length);
  for (let j = 0; j < length; j++) out[zeros + j] = bytes[length - 1 - j]!;
  return out;
}
