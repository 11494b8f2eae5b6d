export {
  concatBytes,
  constantTimeEqual,
  fromBase64,
  fromBase64Url,
  fromHex,
  hexDigestEqual,
  isLowerHex,
  MAX_INPUT_LENGTH,
  toBase64,
  toBase64Url,
  toHex,
  utf8Decode,
  utf8Encode,
} from './bytes.js';
export {
  ED25519_PUBLIC_KEY_LENGTH,
  ED25519_SECRET_KEY_LENGTH,
  ED25519_SIGNATURE_LENGTH,
  type Ed25519KeyPair,
  generateKeyPair,
  getPublicKey,
  sign,
  verify,
} from './ed25519.js';
export { isProofError, ProofError, type ProofErrorCode } from './errors.js';
export { sha256, sha256Hex } from './hash.js';
