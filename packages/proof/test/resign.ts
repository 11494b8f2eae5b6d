/**
 * Test helpers for certificates changed after issuing: the golden keys, a re-signing with them (what a
 * compromised or buggy issuer can do: every signature, log proof and cosignature is genuine), and a
 * claim rewritten with the answer, hashes and offsets around it kept consistent.
 */
import { GOLDEN_ORIGIN, GOLDEN_WITNESSES, testSecretKey } from '@saksi/test-support/golden';
import { signCertificate } from '../src/build-certificate.js';
import { toHex } from '../src/bytes.js';
import { type Bundle, codePointLength, logLeafInput } from '../src/certificate.js';
import { cosignatureLine, createCosigner } from '../src/cosignature.js';
import { sha256Hex } from '../src/hash.js';
import { MemoryLog } from '../src/memory-log.js';
import { createNoteSigner, parseNote } from '../src/note.js';

export const issuerKey = testSecretKey('issuer');
export const logSigner = createNoteSigner(GOLDEN_ORIGIN, testSecretKey('log'));
export const cosigners = GOLDEN_WITNESSES.map((name) =>
  createCosigner(name, testSecretKey(name), () => 1_795_000_500),
);

/** Signs, logs and cosigns the certificate again with the real keys: a compromised or buggy issuer. */
export function resign(bundle: Bundle): Bundle {
  bundle.signature = signCertificate(bundle.certificate, issuerKey);
  const log = new MemoryLog(GOLDEN_ORIGIN);
  const index = log.append(logLeafInput(bundle.certificate, bundle.signature));
  const checkpoint = log.signedCheckpoint(logSigner);
  bundle.log = {
    origin: GOLDEN_ORIGIN,
    leaf_index: index,
    inclusion_proof: log.inclusionProof(index).map(toHex),
    checkpoint,
    cosignatures: cosigners.map((cosigner) => cosignatureLine(parseNote(checkpoint).text, cosigner)),
  };
  return bundle;
}

/** Rewrites claim `index`'s text (and the answer, hashes and offsets around it) consistently. */
export function rewriteClaim(bundle: Bundle, index: number, text: string): Bundle {
  const certificate = bundle.certificate;
  const claim = certificate.claims[index]!;
  const delta = codePointLength(text) - codePointLength(claim.text);
  certificate.answer.text = certificate.answer.text.replace(claim.text, text);
  certificate.answer.sha256 = sha256Hex(certificate.answer.text);
  claim.text = text;
  claim.sha256 = sha256Hex(text);
  claim.answer_end += delta;
  for (const later of certificate.claims.slice(index + 1)) {
    later.answer_start += delta;
    later.answer_end += delta;
  }
  return bundle;
}
