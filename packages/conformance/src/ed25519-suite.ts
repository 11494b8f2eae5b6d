/**
 * Ed25519 conformance (RFC 8032 §5.1) of `@saksi/proof` against third-party vectors in
 * `vectors/ed25519/`:
 *
 * - `rfc8032-ed25519.json` — RFC 8032 §7.1 TEST 1, 2, 3, 1024 (noble-curves copy): the public key
 *   derives, the signature reproduces byte for byte, and it verifies.
 * - `djb-sign.input.vectors.txt` — the SUPERCOP/ed25519.cr.yp.to `sign.input` file, one vector a
 *   line `sk‖pk:pk:msg:sig‖msg:`; checked the same way.
 * - `edge-cases.json` — the 12 cases of Chalkias, Garillot, Nikolaenko, "Taming the many EdDSAs"
 *   (SSR 2020). Expected verdicts under strict verification are derived from the bytes below.
 * - `zip215.json` — the ZIP-215 set (hdevalence): every combination of the 14 encodings of low-order
 *   points as A and R, with S = 0, on the message `Zcash`.
 * - `wycheproof/ed25519_test.json` — Project Wycheproof: `valid` accepted, `invalid` rejected.
 *
 * "Strict" is the policy of `@saksi/proof` (docs/certificate.md, "Signature"; noble-curves `zip215: false`):
 * RFC 8032 §5.1.3 decoding (y < p; x = 0 with the sign bit set is rejected), S < L (§5.1.7), the cofactored
 * equation [8][S]B = [8]R + [8][k]A', and, beyond RFC 8032, rejection of small-order public keys A.
 * Small-order R is allowed, as RFC 8032 allows it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fromHex, toHex, utf8Encode, verify } from '@saksi/proof';
import { getPublicKey, sign } from '@saksi/proof/issue';
import { type Suite, SuiteRecorder } from './suite.js';

/** Field prime p = 2^255 − 19 (RFC 8032 §5.1). */
const P = 2n ** 255n - 19n;
/** Group order L = 2^252 + 27742317777372353535851937790883648493 (RFC 8032 §5.1). */
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
/**
 * y-coordinate of the points of order 8 (the other two have y = p − Y8). With y = 0 (order 4),
 * y = 1 (identity) and y = −1 (order 2) these are the y-coordinates of all 8 low-order points.
 */
const Y8 = 0x7a03ac9277fdc74ec6cc392cfa53202a0f67100d760b3cba4fd84d3d706a17c7n;
const LOW_ORDER_Y = new Set([0n, 1n, P - 1n, Y8, P - Y8]);

/** Per-file vector counts the suite expects; a file with a different count is a failure. */
export const ED25519_EXPECTED_COUNTS = {
  'rfc8032-ed25519.json': 4,
  'djb-sign.input.vectors.txt': 1024,
  'edge-cases.json': 12,
  'zip215.json': 196,
  'wycheproof/ed25519_test.json': 151,
} as const;

type VectorFile = keyof typeof ED25519_EXPECTED_COUNTS;

/**
 * Runs every Ed25519 vector file (each vector counts once); a file holding a different number of
 * vectors than {@link ED25519_EXPECTED_COUNTS} adds a failure. Resolves `undefined` when
 * `directory/ed25519` is absent.
 */
export const ed25519Suite: Suite = async (directory) => {
  const folder = path.join(directory, 'ed25519');
  let source: string;
  try {
    source = (await readFile(path.join(folder, 'SOURCE.txt'), 'utf8')).split('\n')[0]?.trim() ?? '';
  } catch {
    return undefined;
  }
  const recorder = new SuiteRecorder('ed25519', source);
  const counts = await checkEd25519Vectors(folder, recorder);
  for (const file of Object.keys(ED25519_EXPECTED_COUNTS) as VectorFile[]) {
    const expected = ED25519_EXPECTED_COUNTS[file];
    if (counts[file] !== expected)
      recorder.check(false, file, `expected ${expected} vectors, read ${counts[file]}`);
  }
  return recorder.result;
};

/** Checks each vector file in `folder` into `recorder` and returns how many vectors each held. */
export async function checkEd25519Vectors(
  folder: string,
  recorder: SuiteRecorder,
): Promise<Record<VectorFile, number>> {
  return {
    'rfc8032-ed25519.json': await checkRfc8032(folder, recorder),
    'djb-sign.input.vectors.txt': await checkDjb(folder, recorder),
    'edge-cases.json': await checkEdgeCases(folder, recorder),
    'zip215.json': await checkZip215(folder, recorder),
    'wycheproof/ed25519_test.json': await checkWycheproof(folder, recorder),
  };
}

async function readJson(folder: string, file: string): Promise<unknown> {
  return JSON.parse(await readFile(path.join(folder, file), 'utf8'));
}

/** Derives the key, signs, compares byte for byte, verifies. Returns what went wrong, or ''. */
function signingProblem(
  secretHex: string,
  publicHex: string,
  messageHex: string,
  signatureHex: string,
): string {
  try {
    const secretKey = fromHex(secretHex, 32);
    const message = fromHex(messageHex);
    const publicKey = getPublicKey(secretKey);
    if (toHex(publicKey) !== publicHex.toLowerCase()) return 'public key differs';
    const signature = sign(message, secretKey);
    if (toHex(signature) !== signatureHex.toLowerCase()) return 'signature differs';
    if (!verify(signature, message, publicKey)) return 'own signature does not verify';
    return '';
  } catch (error) {
    return `threw ${String(error)}`;
  }
}

async function checkRfc8032(folder: string, recorder: SuiteRecorder): Promise<number> {
  const file = 'rfc8032-ed25519.json';
  const cases = (await readJson(folder, file)) as { priv: string; pub: string; msg: string; sig: string }[];
  cases.forEach((c, i) => {
    const problem = signingProblem(c.priv, c.pub, c.msg, c.sig);
    recorder.check(problem === '', `${file}#${i}`, problem);
  });
  return cases.length;
}

async function checkDjb(folder: string, recorder: SuiteRecorder): Promise<number> {
  const file = 'djb-sign.input.vectors.txt';
  const lines = (await readFile(path.join(folder, file), 'utf8')).split('\n').filter((line) => line !== '');
  lines.forEach((line, i) => {
    // sk‖pk : pk : msg : sig‖msg :
    const [secretAndPublic = '', publicHex = '', messageHex = '', signatureAndMessage = ''] = line.split(':');
    const wellFormed =
      secretAndPublic === secretAndPublic.slice(0, 64) + publicHex &&
      signatureAndMessage === signatureAndMessage.slice(0, 128) + messageHex;
    const problem = wellFormed
      ? signingProblem(secretAndPublic.slice(0, 64), publicHex, messageHex, signatureAndMessage.slice(0, 128))
      : 'malformed line';
    recorder.check(problem === '', `${file}:${i + 1}`, problem);
  });
  return lines.length;
}

function littleEndian(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

/** A point encoding (RFC 8032 §5.1.2): y in the low 255 bits, the sign of x in the top bit. */
function decodeEncoding(bytes: Uint8Array): { y: bigint; sign: number } {
  const n = littleEndian(bytes);
  return { y: n & ((1n << 255n) - 1n), sign: Number(n >> 255n) };
}

/** RFC 8032 §5.1.3: y ≥ p is rejected, and so is x = 0 (y = ±1) with the sign bit set. */
function isNonCanonicalPoint(bytes: Uint8Array): boolean {
  const { y, sign: signBit } = decodeEncoding(bytes);
  return y >= P || (signBit === 1 && (y === 1n || y === P - 1n));
}

function isLowOrderPoint(bytes: Uint8Array): boolean {
  return LOW_ORDER_Y.has(decodeEncoding(bytes).y % P);
}

/**
 * Why strict verification must reject (signature, A), or '' when it must accept. Accepting relies on
 * the vector satisfying the cofactored equation, which holds for every accepted case of these two
 * files: "Taming the many EdDSAs" lists cases 2–5 as passing the cofactored check.
 */
function strictRejection(signature: Uint8Array, publicKey: Uint8Array): string {
  if (signature.length !== 64 || publicKey.length !== 32) return 'wrong length';
  if (littleEndian(signature.slice(32)) >= L) return 'S >= L';
  if (isNonCanonicalPoint(publicKey)) return 'non-canonical A';
  if (isNonCanonicalPoint(signature.slice(0, 32))) return 'non-canonical R';
  if (isLowOrderPoint(publicKey)) return 'small-order A';
  return '';
}

async function checkEdgeCases(folder: string, recorder: SuiteRecorder): Promise<number> {
  const file = 'edge-cases.json';
  const cases = (await readJson(folder, file)) as { message: string; pub_key: string; signature: string }[];
  cases.forEach((c, i) => {
    const signature = fromHex(c.signature);
    const publicKey = fromHex(c.pub_key);
    const reason = strictRejection(signature, publicKey);
    const accepted = verify(signature, fromHex(c.message), publicKey);
    recorder.check(
      accepted === (reason === ''),
      `${file}#${i}`,
      `expected ${reason || 'accept'}, got ${accepted}`,
    );
  });
  return cases.length;
}

async function checkZip215(folder: string, recorder: SuiteRecorder): Promise<number> {
  const file = 'zip215.json';
  const cases = (await readJson(folder, file)) as { vk_bytes: string; sig_bytes: string }[];
  const message = utf8Encode('Zcash');
  cases.forEach((c, i) => {
    const signature = fromHex(c.sig_bytes);
    const publicKey = fromHex(c.vk_bytes);
    // `valid_zip215`/`valid_legacy` describe permissive verifiers; strict verification decides by
    // the encodings alone. Every case has a low-order (or non-canonical) A, so all must be rejected.
    const reason = strictRejection(signature, publicKey);
    const accepted = verify(signature, message, publicKey);
    const ok = reason !== '' && !accepted;
    recorder.check(
      ok,
      `${file}#${i}`,
      reason === '' ? 'case is not a strict reject' : `accepted (${reason})`,
    );
  });
  return cases.length;
}

interface WycheproofFile {
  numberOfTests: number;
  testGroups: {
    publicKey: { pk: string };
    tests: { tcId: number; msg: string; sig: string; result: 'valid' | 'invalid' | 'acceptable' }[];
  }[];
}

async function checkWycheproof(folder: string, recorder: SuiteRecorder): Promise<number> {
  const file = 'wycheproof/ed25519_test.json';
  const data = (await readJson(folder, file)) as WycheproofFile;
  let count = 0;
  for (const group of data.testGroups) {
    const publicKey = fromHex(group.publicKey.pk);
    for (const test of group.tests) {
      count++;
      let accepted: boolean;
      try {
        accepted = verify(fromHex(test.sig), fromHex(test.msg), publicKey);
      } catch {
        accepted = false; // odd-length hex in a malformed-signature test
      }
      const expected = test.result === 'valid';
      recorder.check(
        test.result !== 'acceptable' && accepted === expected,
        `${file} tcId ${test.tcId}`,
        `${test.result}, got ${accepted}`,
      );
    }
  }
  if (count !== data.numberOfTests)
    recorder.check(false, file, `numberOfTests ${data.numberOfTests}, read ${count}`);
  return count;
}
