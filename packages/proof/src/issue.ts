/**
 * `@saksi/proof/issue`: building, signing and logging certificates, and the keys to do it with — the
 * issuer's side, which a verifier never imports (docs/architecture.md, "The proof package"). What
 * both sides need (canonical JSON, hashes, the certificate types) is exported by `@saksi/proof` and
 * re-used here, never repeated.
 */
export {
  buildCertificate,
  type CertificateInput,
  type ClaimInput,
  type EvidenceInput,
  generateIssuer,
  issuerFromPublicKey,
  issuerFromSecretKey,
  signCertificate,
  uuidv7,
} from './build-certificate.js';
export { logEntryOf } from './certificate.js';
export {
  formatCheckpoint,
  signCheckpoint,
} from './checkpoint.js';
export {
  cosignatureLine,
  cosignCheckpoint,
  createCosigner,
  formatCosignatureVerifierKey,
} from './cosignature.js';
export {
  type Ed25519KeyPair,
  generateKeyPair,
  getPublicKey,
  sign,
} from './ed25519.js';
export { MemoryLog } from './memory-log.js';
export {
  consistencyProof,
  consistencyProofFromNodes,
  inclusionProof,
  inclusionProofFromNodes,
  type MerkleNodeLookup,
  merkleTreeHash,
  rootFromLeafHashes,
  type SubtreeHashMemo,
  subtreeConsistencyProof,
  subtreeHashFromNodes,
  subtreeInclusionProof,
  subtreeInclusionProofFromNodes,
} from './merkle-proofs.js';
export {
  createNoteSigner,
  formatSignerKey,
  formatVerifierKey,
  type NoteSigner,
  parseSignerKey,
  signNote,
} from './note.js';
export {
  type AnchorRound,
  documentTrees,
  type IssueBundleInput,
  issueBundle,
  type SourceChunk,
  type SourceDocument,
} from './reference-issuer.js';
