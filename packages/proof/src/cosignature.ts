/**
 * C2SP tlog-cosignature v1, Ed25519 type (https://c2sp.org/tlog-cosignature): a witness's note
 * signature on a checkpoint. The signature line carries `key ID ‖ u64 big-endian timestamp ‖ 64-byte
 * Ed25519 signature`, and the signed message is `cosignature/v1\ntime <timestamp>\n` followed by the
 * checkpoint's note text.
 */
import { concatBytes, toHex, utf8Decode, utf8Encode } from './bytes.js';
import { parseCheckpoint } from './checkpoint.js';
import {
  ED25519_PUBLIC_KEY_LENGTH,
  ED25519_SIGNATURE_LENGTH,
  getPublicKey,
  sign,
  verify,
} from './ed25519.js';
import { ProofError } from './errors.js';
import {
  formatSignatureLine,
  formatVerifierKey,
  NOTE_MAX_SIGNATURES,
  type NoteSigner,
  type NoteVerifier,
  noteKeyId,
  openNote,
  parseNote,
  parseVerifierKey,
} from './note.js';

/** signed-note §Signature types: `0x04` — timestamped Ed25519 witness cosignatures. */
export const COSIGNATURE_SIGNATURE_TYPE_ED25519 = 0x04;
/** tlog-cosignature §Ed25519 signed message: the fixed header line (without its newline). */
export const COSIGNATURE_V1_HEADER = 'cosignature/v1';
/** tlog-cosignature §Format: `timestamped_signature.timestamp` is a u64, big-endian. */
export const COSIGNATURE_TIMESTAMP_LENGTH = 8;
/** tlog-cosignature §Format: timestamp (8 bytes) ‖ Ed25519 signature (64 bytes). */
export const COSIGNATURE_PAYLOAD_LENGTH = COSIGNATURE_TIMESTAMP_LENGTH + ED25519_SIGNATURE_LENGTH;

/** A cosignature verifier; `publicKey` is the witness's 32-byte Ed25519 key. */
export interface CosignatureVerifier extends NoteVerifier {
  publicKey: Uint8Array;
}

/** Result of {@link verifyCosignatures}; never thrown. Names are witness names, each listed once. */
export interface CosignatureVerification {
  /** True when at least `threshold` distinct witnesses have a valid cosignature. */
  ok: boolean;
  /** Witnesses with a cosignature that verifies and none that fails. */
  valid: string[];
  /** Witnesses with a signature line (their name and key ID) that fails to verify; never counted. */
  invalid: string[];
  /** Witnesses with no signature line in the note. */
  missing: string[];
  /** The cosignature timestamp (POSIX seconds) of each valid witness, in `valid` order. */
  timestamps: { name: string; timestamp: number }[];
}

/**
 * Key ID of an Ed25519 cosigner (tlog-cosignature §Format):
 * `SHA-256(name ‖ "\n" ‖ 0x04 ‖ 32-byte public key)[:4]`. Throws `NOTE_KEY_MALFORMED`.
 *
 * @example toHex(cosignatureKeyId('witness.example/w1', publicKey));
 */
export function cosignatureKeyId(name: string, publicKey: Uint8Array): Uint8Array {
  assertPublicKey(publicKey);
  return noteKeyId(name, COSIGNATURE_SIGNATURE_TYPE_ED25519, publicKey);
}

/**
 * Verifier key (vkey) of an Ed25519 cosigner, with signature type 0x04 (tlog-cosignature §Format):
 * `<name>+<8 hex key ID>+<base64(0x04 ‖ public key)>`. Throws `NOTE_KEY_MALFORMED`.
 */
export function formatCosignatureVerifierKey(name: string, publicKey: Uint8Array): string {
  assertPublicKey(publicKey);
  return formatVerifierKey(name, publicKey, COSIGNATURE_SIGNATURE_TYPE_ED25519);
}

/**
 * The message an Ed25519 cosigner signs (tlog-cosignature §Ed25519 signed message):
 * `cosignature/v1\ntime <timestamp>\n` ‖ checkpoint note text. Throws
 * `COSIGNATURE_TIMESTAMP_INVALID` unless the timestamp is a safe non-negative integer.
 */
export function cosignatureMessage(timestamp: number, checkpointText: string | Uint8Array): Uint8Array {
  assertTimestamp(timestamp);
  const text = typeof checkpointText === 'string' ? utf8Encode(checkpointText) : checkpointText;
  if (!(text instanceof Uint8Array)) throw new ProofError('NOTE_MALFORMED', 'Checkpoint text must be text.');
  return concatBytes(utf8Encode(`${COSIGNATURE_V1_HEADER}\ntime ${timestamp}\n`), text);
}

/**
 * Splits a cosignature payload (the bytes after the key ID) into its timestamp and Ed25519
 * signature (tlog-cosignature §Format). Throws `NOTE_MALFORMED` unless it is 72 bytes, and
 * `COSIGNATURE_TIMESTAMP_INVALID` for a timestamp above 2^53 − 1 (the spec allows up to 2^63 − 1,
 * but such a time is ~285 million years away and verifiers MAY reject future timestamps).
 */
export function parseCosignature(payload: Uint8Array): { timestamp: number; signature: Uint8Array } {
  if (!(payload instanceof Uint8Array) || payload.length !== COSIGNATURE_PAYLOAD_LENGTH) {
    throw new ProofError('NOTE_MALFORMED', `A cosignature is ${COSIGNATURE_PAYLOAD_LENGTH} bytes.`);
  }
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const timestamp = view.getBigUint64(0, false);
  if (timestamp > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new ProofError('COSIGNATURE_TIMESTAMP_INVALID', 'Cosignature timestamp is out of range.');
  }
  return { timestamp: Number(timestamp), signature: payload.slice(COSIGNATURE_TIMESTAMP_LENGTH) };
}

/**
 * An Ed25519 cosigner (witness) as a {@link NoteSigner}. `sign` accepts only a checkpoint note text
 * (throws `CHECKPOINT_MALFORMED` otherwise), reads `clock()` (POSIX seconds; default: now) and returns
 * `u64 timestamp ‖ signature`. Throws `NOTE_KEY_MALFORMED` for a bad name, `KEY_INVALID` for a bad
 * key, `COSIGNATURE_TIMESTAMP_INVALID` when the clock returns anything but a safe non-negative
 * integer. A witness must check consistency with the last checkpoint it cosigned before signing.
 *
 * @example cosignCheckpoint(signedCheckpoint, createCosigner('witness.example/w1', secretKey));
 */
export function createCosigner(
  name: string,
  secretKey: Uint8Array,
  clock: () => number = () => Math.floor(Date.now() / 1000),
): NoteSigner {
  const publicKey = getPublicKey(secretKey);
  const keyId = cosignatureKeyId(name, publicKey);
  const key = secretKey.slice();
  return {
    name,
    keyId,
    sign(message: Uint8Array): Uint8Array {
      assertCheckpointBytes(message);
      const timestamp = clock();
      const signature = sign(cosignatureMessage(timestamp, message), key);
      const out = new Uint8Array(COSIGNATURE_PAYLOAD_LENGTH);
      new DataView(out.buffer).setBigUint64(0, BigInt(timestamp), false);
      out.set(signature, COSIGNATURE_TIMESTAMP_LENGTH);
      return out;
    },
  };
}

/**
 * A verifier of Ed25519 cosignatures from a type 0x04 vkey (strict RFC 8032). `verify` returns
 * false — never throws — unless the payload is 72 bytes with a timestamp ≤ 2^53 − 1 and the
 * signature over `cosignature/v1\ntime <t>\n` ‖ note text verifies. Throws `NOTE_KEY_MALFORMED` for
 * a malformed vkey, a vkey of another type, or a key ID that does not match.
 *
 * @example verifyCosignatures(note, [createCosignatureVerifier(witnessVkey)], 1);
 */
export function createCosignatureVerifier(vkey: string): CosignatureVerifier {
  const key = parseVerifierKey(vkey);
  if (key.signatureType !== COSIGNATURE_SIGNATURE_TYPE_ED25519) {
    throw new ProofError('NOTE_KEY_MALFORMED', 'Verifier key is not an Ed25519 cosignature (type 0x04) key.');
  }
  const publicKey = key.publicKey;
  return {
    name: key.name,
    keyId: key.keyId,
    publicKey: publicKey.slice(),
    verify(message: Uint8Array, payload: Uint8Array): boolean {
      try {
        if (!(message instanceof Uint8Array)) return false;
        const { timestamp, signature } = parseCosignature(payload);
        return verify(signature, cosignatureMessage(timestamp, message), publicKey);
      } catch {
        return false;
      }
    },
  };
}

/**
 * The cosignature line (`— <name> base64(key ID ‖ timestamp ‖ signature)`, without newline) of
 * `cosigner` on a checkpoint note text. Throws `CHECKPOINT_MALFORMED` unless the text is a checkpoint.
 */
export function cosignatureLine(checkpointText: string, cosigner: NoteSigner): string {
  parseCheckpoint(checkpointText);
  return formatSignatureLine(utf8Encode(checkpointText), cosigner);
}

/**
 * Adds `cosigner`'s cosignature to a signed checkpoint note and returns the new note; an earlier line
 * by the same key (name and key ID) is replaced. The log signature is not checked here: a witness
 * verifies it (and consistency) first. Throws `NOTE_MALFORMED`, `CHECKPOINT_MALFORMED`.
 *
 * @example const witnessed = cosignCheckpoint(signedCheckpoint, cosigner);
 */
export function cosignCheckpoint(signedCheckpointNote: string, cosigner: NoteSigner): string {
  const { text, signatures } = parseNote(signedCheckpointNote);
  const line = cosignatureLine(text, cosigner);
  const keyId = toHex(cosigner.keyId);
  const kept = signatures.filter((s) => !(s.name === cosigner.name && toHex(s.keyId) === keyId));
  if (kept.length + 1 > NOTE_MAX_SIGNATURES) {
    throw new ProofError('NOTE_MALFORMED', 'The note already holds the maximum number of signatures.');
  }
  const note = `${text}\n${[...kept.map((s) => s.line), line].join('\n')}\n`;
  parseNote(note); // size limit
  return note;
}

/**
 * Checks witness cosignatures on a checkpoint note, k-of-n (tlog-cosignature §Format: clients
 * "ignore any signature lines that don't match the name and key ID"). Never throws. A witness is
 * identified by its name and counted once, however many lines or keys it has; a witness with any
 * failing line is `invalid` and not counted. `ok` needs `threshold` (an integer ≥ 1) valid
 * witnesses; a malformed note or checkpoint text gives `ok: false` with every witness missing. The
 * log's own signature is checked separately, with `verifyCheckpoint`.
 *
 * @example verifyCosignatures(note, witnessVerifiers, 2).ok; // true when 2 witnesses cosigned
 */
export function verifyCosignatures(
  note: string,
  witnesses: readonly NoteVerifier[],
  threshold: number,
): CosignatureVerification {
  const names: string[] = [];
  if (Array.isArray(witnesses)) {
    for (const witness of witnesses) {
      const name = typeof witness === 'object' && witness !== null ? witness.name : undefined;
      if (typeof name === 'string' && !names.includes(name)) names.push(name);
    }
  }
  let opened: ReturnType<typeof openNote>;
  let signatures: ReturnType<typeof parseNote>['signatures'];
  try {
    opened = openNote(note, witnesses);
    parseCheckpoint(opened.text);
    signatures = parseNote(note).signatures;
  } catch {
    return { ok: false, valid: [], invalid: [], missing: names, timestamps: [] };
  }
  const result: CosignatureVerification = { ok: false, valid: [], invalid: [], missing: [], timestamps: [] };
  for (const name of names) {
    if (opened.invalid.some((k) => k.name === name)) {
      result.invalid.push(name);
      continue;
    }
    const verified = opened.verified.find((k) => k.name === name);
    if (verified === undefined) {
      result.missing.push(name);
      continue;
    }
    result.valid.push(name);
    const keyId = toHex(verified.keyId);
    const entry = signatures.find((s) => s.name === name && toHex(s.keyId) === keyId);
    const timestamp = entry === undefined ? undefined : timestampOf(entry.signature);
    if (timestamp !== undefined) result.timestamps.push({ name, timestamp });
  }
  result.ok = Number.isSafeInteger(threshold) && threshold >= 1 && result.valid.length >= threshold;
  return result;
}

function timestampOf(payload: Uint8Array): number | undefined {
  try {
    return parseCosignature(payload).timestamp;
  } catch {
    return undefined;
  }
}

function assertCheckpointBytes(message: unknown): void {
  if (!(message instanceof Uint8Array))
    throw new ProofError('CHECKPOINT_MALFORMED', 'Expected checkpoint bytes.');
  let text: string;
  try {
    text = utf8Decode(message);
  } catch (cause) {
    throw new ProofError('CHECKPOINT_MALFORMED', 'Checkpoint is not valid UTF-8.', { cause });
  }
  parseCheckpoint(text);
}

function assertTimestamp(timestamp: unknown): asserts timestamp is number {
  if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new ProofError(
      'COSIGNATURE_TIMESTAMP_INVALID',
      'Timestamp must be an integer number of seconds ≥ 0.',
    );
  }
}

function assertPublicKey(publicKey: unknown): asserts publicKey is Uint8Array {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== ED25519_PUBLIC_KEY_LENGTH) {
    throw new ProofError('NOTE_KEY_MALFORMED', 'Ed25519 public keys are 32 bytes.');
  }
}
