/**
 * `@saksi/proof/vc`: a certificate as a W3C Verifiable Credential 2.0 with a Data Integrity
 * `eddsa-jcs-2022` proof, and back (docs/verification.md). Not on the verifier's path: `verifyBundle`
 * checks the certificate itself.
 */
export {
  BASE58_MAX_BYTE_LENGTH,
  BASE58_MAX_TEXT_LENGTH,
  BASE58BTC_ALPHABET,
  base58btcDecode,
  base58btcEncode,
  MULTIBASE_BASE58BTC_PREFIX,
} from './base58.js';
export {
  type CredentialImport,
  certificateToCredential,
  credentialToCertificate,
  DATA_INTEGRITY_PROOF_TYPE,
  type DataIntegrityFailure,
  type DataIntegrityProof,
  type DataIntegrityVerification,
  DID_KEY_PREFIX,
  didKeyToPublicKey,
  ED25519_PUB_MULTICODEC_PREFIX,
  EDDSA_JCS_2022_CRYPTOSUITE,
  publicKeyToDidKey,
  SAKSI_CERTIFICATE_CONTEXT,
  SAKSI_CREDENTIAL_TYPE,
  type SignDataIntegrityOptions,
  signDataIntegrity,
  VC_V2_CONTEXT,
  type VerifiableCredential,
  type VerifyDataIntegrityOptions,
  verifyDataIntegrity,
} from './vc.js';
