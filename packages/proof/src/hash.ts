/**
 * SHA-256 (FIPS 180-4) through @noble/hashes, which runs the same in Node and browsers.
 */
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { toHex, utf8Encode } from './bytes.js';

/** SHA-256 of bytes. */
export function sha256(data: Uint8Array): Uint8Array {
  return nobleSha256(data);
}

/** Lowercase hex SHA-256 of a string's UTF-8 bytes, or of raw bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return toHex(nobleSha256(typeof data === 'string' ? utf8Encode(data) : data));
}
