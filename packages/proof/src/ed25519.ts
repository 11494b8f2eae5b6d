/**
 * Ed25519 (RFC 8032 §5.1) with strict verification: non-canonical encodings of R, A or S and
 * small-order points are rejected (`zip215: false`), in every path that verifies.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { ProofError } from './errors.js';

/** RFC 8032 §5.1.5: secret keys are 32 bytes. */
export const ED25519_SECRET_KEY_LENGTH = 32;
/** RFC 8032 §5.1.5: public keys are 32 bytes. */
export const ED25519_PUBLIC_KEY_LENGTH = 32;
/** RFC 8032 §5.1.6: signatures are 64 bytes (R ‖ S). */
export const ED25519_SIGNATURE_LENGTH = 64;

/** An Ed25519 key pair as raw bytes. */
export interface Ed25519KeyPair {
  secretKey: Uint8Array;
  publicKey: Uint8Array;
}

/** Generates a key pair from the platform's CSPRNG (`crypto.getRandomValues`). */
export function generateKeyPair(): Ed25519KeyPair {
  const secretKey = ed25519.utils.randomSecretKey();
  return { secretKey, publicKey: ed25519.getPublicKey(secretKey) };
}

/** Derives the public key of a 32-byte secret key (RFC 8032 §5.1.5). Throws `KEY_INVALID`. */
export function getPublicKey(secretKey: Uint8Array): Uint8Array {
  assertLength(secretKey, ED25519_SECRET_KEY_LENGTH, 'secret key');
  return ed25519.getPublicKey(secretKey);
}

/** Signs `message` (RFC 8032 §5.1.6). Deterministic. Throws `KEY_INVALID` on a bad key. */
export function sign(message: Uint8Array, secretKey: Uint8Array): Uint8Array {
  assertLength(secretKey, ED25519_SECRET_KEY_LENGTH, 'secret key');
  if (!(message instanceof Uint8Array)) throw new ProofError('KEY_INVALID', 'Message must be a Uint8Array.');
  return ed25519.sign(message, secretKey);
}

/**
 * Strict RFC 8032 §5.1.7 verification. Returns `false` — never throws — for a wrong signature,
 * wrong lengths, non-canonical encodings or small-order points.
 *
 * @example
 * const { secretKey, publicKey } = generateKeyPair();
 * verify(sign(message, secretKey), message, publicKey); // true
 */
export function verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (!(signature instanceof Uint8Array) || signature.length !== ED25519_SIGNATURE_LENGTH) return false;
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== ED25519_PUBLIC_KEY_LENGTH) return false;
  if (!(message instanceof Uint8Array)) return false;
  try {
    return ed25519.verify(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}

function assertLength(bytes: unknown, length: number, what: string): asserts bytes is Uint8Array {
  if (!(bytes instanceof Uint8Array) || bytes.length !== length) {
    throw new ProofError('KEY_INVALID', `Ed25519 ${what} must be ${length} bytes.`);
  }
}
