import { ed25519 as noble } from '@noble/curves/ed25519.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectCode } from '../test/codes.js';
import { concatBytes, fromHex, toHex, utf8Encode } from './bytes.js';
import {
  ED25519_PUBLIC_KEY_LENGTH,
  ED25519_SECRET_KEY_LENGTH,
  ED25519_SIGNATURE_LENGTH,
  generateKeyPair,
  getPublicKey,
  sign,
  verify,
} from './ed25519.js';

/** Group order L (RFC 8032 §5.1). */
const L = 2n ** 252n + 27742317777372353535851937790883648493n;

function littleEndianToBigInt(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

function bigIntToLittleEndian(n: bigint, length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    out[i] = Number(n & 0xffn);
    n >>= 8n;
  }
  return out;
}

function flipBit(bytes: Uint8Array, bit: number): Uint8Array {
  const copy = bytes.slice();
  copy[bit >> 3]! ^= 1 << (bit & 7);
  return copy;
}

// RFC 8032 §7.1 TEST 1, transcribed from the RFC (the conformance suite reads the full files).
const RFC_SECRET = fromHex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
const RFC_PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const RFC_SIGNATURE =
  'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b';

describe('ed25519', () => {
  it('reproduces RFC 8032 §7.1 TEST 1', () => {
    expect(toHex(getPublicKey(RFC_SECRET))).toBe(RFC_PUBLIC);
    const signature = sign(new Uint8Array(0), RFC_SECRET);
    expect(toHex(signature)).toBe(RFC_SIGNATURE);
    expect(verify(signature, new Uint8Array(0), fromHex(RFC_PUBLIC))).toBe(true);
  });

  it('generates key pairs of the right lengths that sign and verify', () => {
    const { secretKey, publicKey } = generateKeyPair();
    expect(secretKey.length).toBe(ED25519_SECRET_KEY_LENGTH);
    expect(publicKey.length).toBe(ED25519_PUBLIC_KEY_LENGTH);
    expect(publicKey).toEqual(getPublicKey(secretKey));
    const message = utf8Encode('Saksi');
    const signature = sign(message, secretKey);
    expect(signature.length).toBe(ED25519_SIGNATURE_LENGTH);
    expect(verify(signature, message, publicKey)).toBe(true);
  });

  it('round-trips and rejects any one-bit change of message, signature or key (property)', () => {
    const { secretKey, publicKey } = generateKeyPair();
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }), fc.nat(), (message, seed) => {
        const signature = sign(message, secretKey);
        expect(verify(signature, message, publicKey)).toBe(true);
        expect(sign(message, secretKey)).toEqual(signature); // deterministic
        expect(verify(signature, flipBit(message, seed % (message.length * 8)), publicKey)).toBe(false);
        expect(verify(flipBit(signature, seed % 512), message, publicKey)).toBe(false);
        expect(verify(signature, message, flipBit(publicKey, seed % 256))).toBe(false);
      }),
      { numRuns: 40 },
    );
  });

  it('rejects a signature made with another key', () => {
    const message = utf8Encode('hello');
    const other = generateKeyPair();
    expect(verify(sign(message, other.secretKey), message, getPublicKey(RFC_SECRET))).toBe(false);
  });

  it('returns false, never throws, for wrong lengths and non-bytes', () => {
    const message = utf8Encode('m');
    const signature = sign(message, RFC_SECRET);
    const publicKey = fromHex(RFC_PUBLIC);
    expect(verify(signature.slice(0, 63), message, publicKey)).toBe(false);
    expect(verify(concatBytes(signature, Uint8Array.of(0)), message, publicKey)).toBe(false);
    expect(verify(new Uint8Array(0), message, publicKey)).toBe(false);
    expect(verify(signature, message, publicKey.slice(0, 31))).toBe(false);
    expect(verify(signature, message, concatBytes(publicKey, Uint8Array.of(0)))).toBe(false);
    const garbage = [undefined, null, 'abc', 42, {}, [1, 2], new Uint16Array(32)] as unknown as Uint8Array[];
    for (const value of garbage) {
      expect(verify(value, message, publicKey)).toBe(false);
      expect(verify(signature, value, publicKey)).toBe(false);
      expect(verify(signature, message, value)).toBe(false);
    }
    // A 64-byte all-0xff "signature" and a key that is not on the curve.
    expect(verify(new Uint8Array(64).fill(0xff), message, publicKey)).toBe(false);
    expect(verify(signature, message, fromHex(`02${'00'.repeat(31)}`))).toBe(false);
  });

  it('throws KEY_INVALID for a bad secret key', () => {
    for (const key of [new Uint8Array(31), new Uint8Array(33), new Uint8Array(0), 'key', undefined]) {
      expectCode(() => getPublicKey(key as Uint8Array), 'KEY_INVALID');
      expectCode(() => sign(utf8Encode('m'), key as Uint8Array), 'KEY_INVALID');
    }
    expectCode(() => sign('message' as unknown as Uint8Array, RFC_SECRET), 'KEY_INVALID');
  });

  it('rejects a non-canonical S (S + L) that satisfies the verification equation', () => {
    const message = utf8Encode('malleability');
    const signature = sign(message, RFC_SECRET);
    const s = littleEndianToBigInt(signature.slice(32));
    const malleated = concatBytes(signature.slice(0, 32), bigIntToLittleEndian(s + L, 32));
    expect(s + L).toBeLessThan(2n ** 256n); // still fits in 32 bytes
    expect(verify(malleated, message, fromHex(RFC_PUBLIC))).toBe(false);
    expect(verify(signature, message, fromHex(RFC_PUBLIC))).toBe(true);
  });

  it('rejects a small-order public key that a permissive (ZIP-215) verifier accepts', () => {
    // A = R = identity (y = 1), S = 0: [8][S]B = [8]R + [8][k]A holds for every message.
    const identity = fromHex(`01${'00'.repeat(31)}`);
    const signature = concatBytes(identity, new Uint8Array(32));
    const message = utf8Encode('any message at all');
    expect(noble.verify(signature, message, identity, { zip215: true })).toBe(true);
    expect(verify(signature, message, identity)).toBe(false);
  });

  it('rejects a non-canonical public key encoding (y ≥ p) that ZIP-215 accepts', () => {
    // y = p + 1 ≡ 1: the identity again, encoded non-canonically.
    const nonCanonicalIdentity = fromHex(`ee${'ff'.repeat(30)}7f`);
    const signature = concatBytes(fromHex(`01${'00'.repeat(31)}`), new Uint8Array(32));
    const message = utf8Encode('Zcash');
    expect(noble.verify(signature, message, nonCanonicalIdentity, { zip215: true })).toBe(true);
    expect(verify(signature, message, nonCanonicalIdentity)).toBe(false);
  });
});

describe('agreement with noble-curves strict verify (cached, precomputed keys included)', () => {
  it('gives the same verdict on valid, mutated and hostile inputs, on first and repeated use of a key', () => {
    const key = generateKeyPair();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(511), fc.boolean(), (message, bit, flip) => {
        const signature = sign(message, key.secretKey);
        if (flip) signature[bit >> 3]! ^= 1 << (bit & 7);
        const expected = noble.verify(signature, message, key.publicKey, { zip215: false });
        return (
          verify(signature, message, key.publicKey) === expected &&
          verify(signature, message, key.publicKey) === expected
        );
      }),
      { numRuns: 300 },
    );
  });
});
