/**
 * C2SP signed notes (https://c2sp.org/signed-note): a text ending in a newline, a blank line, and one
 * or more signature lines `— <key name> base64(key ID ‖ signature)`. Ed25519 keys (signature type
 * 0x01) are written as verifier keys (`vkey`) `<name>+<hex key ID>+<base64(0x01 ‖ public key)>`, the
 * encoding golang.org/x/mod/sumdb/note introduced and the C2SP specs reference.
 *
 * Everything here treats a note as hostile: sizes are checked before any work, every malformed input
 * becomes a `ProofError` (`NOTE_MALFORMED`, `NOTE_KEY_MALFORMED`), and a signature that fails to
 * verify is reported, never thrown.
 */
import { concatBytes, constantTimeEqual, fromBase64, fromHex, toBase64, toHex, utf8Encode } from './bytes.js';
import {
  ED25519_PUBLIC_KEY_LENGTH,
  ED25519_SECRET_KEY_LENGTH,
  getPublicKey,
  sign,
  verify,
} from './ed25519.js';
import { ProofError } from './errors.js';
import { sha256 } from './hash.js';

/** signed-note §Signature types: `0x01` — Ed25519 signatures over the note text. */
export const NOTE_SIGNATURE_TYPE_ED25519 = 0x01;
/** signed-note §Format: signatures start with a 4-byte (uint32, big-endian) key ID. */
export const NOTE_KEY_ID_LENGTH = 4;
/**
 * signed-note §Format: verifiers SHOULD limit the number of signatures (and MUST accept 16). We
 * accept up to 100, as golang.org/x/mod/sumdb/note does.
 */
export const NOTE_MAX_SIGNATURES = 100;
/** Largest note (UTF-8 bytes) we parse or produce: 1 MiB, far above any checkpoint with 100 signatures. */
export const NOTE_MAX_BYTES = 1024 * 1024;
/** Largest verifier or signer key string we parse; real ones are under 100 characters. */
const MAX_KEY_STRING_LENGTH = 4096;

/** signed-note §Format: em dash (U+2014) and space (U+0020) start every signature line. */
const SIGNATURE_LINE_PREFIX = '\u2014 ';
/** Prefix of an encoded signer (private) key, as golang.org/x/mod/sumdb/note writes it. */
const SIGNER_KEY_PREFIX = 'PRIVATE+KEY+';

/** Unicode spaces (Go's `unicode.IsSpace`, which the reference implementation uses) and `+`. */
const FORBIDDEN_IN_NAME = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000+]/;
/** signed-note §Format: no ASCII control characters other than newline. */
const CONTROL_CHARACTER = /[\u0000-\u0009\u000b-\u001f]/;
/** Lone UTF-16 surrogates cannot be encoded as UTF-8. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Signs a note's text with one key (signed-note §Signatures). */
export interface NoteSigner {
  /** Key name written in the signature line. */
  name: string;
  /** 4-byte key ID written before the signature bytes. */
  keyId: Uint8Array;
  /**
   * Returns the bytes that follow the key ID in the signature line: for Ed25519 (type 0x01) the
   * 64-byte signature over `message`; for tlog-cosignature v1 (type 0x04) timestamp ‖ signature.
   */
  sign(message: Uint8Array): Uint8Array;
}

/** Verifies signatures of one key (signed-note §Signatures). Must return false, never throw. */
export interface NoteVerifier {
  name: string;
  keyId: Uint8Array;
  /** `message` is the note text; `signature` the bytes after the key ID in the signature line. */
  verify(message: Uint8Array, signature: Uint8Array): boolean;
}

/** One signature line of a parsed note. */
export interface NoteSignature {
  name: string;
  /** The 4-byte key ID. */
  keyId: Uint8Array;
  /** The bytes after the key ID. */
  signature: Uint8Array;
  /** The whole line as it appears in the note, without its newline. */
  line: string;
}

/** A note split into its text and signature lines; nothing verified. */
export interface ParsedNote {
  /** The signed text, including its final newline but not the blank separator line. */
  text: string;
  signatures: NoteSignature[];
}

/** A key named by a signature line. */
export interface NoteKeyReference {
  name: string;
  keyId: Uint8Array;
}

/** What {@link openNote} found. The text may be trusted only when `verified` holds a trusted key. */
export interface OpenedNote {
  text: string;
  /** Known keys with a signature that verifies (each key once). */
  verified: NoteKeyReference[];
  /** Signatures whose name and key ID match no verifier (each key once); ignored per the spec. */
  unknown: NoteKeyReference[];
  /** Known keys with at least one signature that does not verify (each key once). */
  invalid: NoteKeyReference[];
}

/** A parsed verifier key (`vkey`). */
export interface VerifierKey {
  name: string;
  keyId: Uint8Array;
  /** Signature type byte (signed-note §Signature types): 0x01 or 0x04 here. */
  signatureType: number;
  /** The 32-byte Ed25519 public key. */
  publicKey: Uint8Array;
}

/**
 * True when `name` is a valid key name (signed-note §Format): non-empty, no Unicode spaces, no `+`,
 * no control characters, valid UTF-8.
 *
 * @example isValidNoteKeyName('example.com/log'); // true
 */
export function isValidNoteKeyName(name: unknown): name is string {
  return (
    typeof name === 'string' &&
    name.length > 0 &&
    name.length <= MAX_KEY_STRING_LENGTH &&
    !FORBIDDEN_IN_NAME.test(name) &&
    !CONTROL_CHARACTER.test(name) &&
    !LONE_SURROGATE.test(name)
  );
}

/**
 * Key ID of a key (signed-note §Signatures, RECOMMENDED form):
 * `SHA-256(key name ‖ 0x0A ‖ signature type ‖ public key)[:4]`. Throws `NOTE_KEY_MALFORMED` on an
 * invalid name or a type outside 0–255.
 *
 * @example noteKeyId('example.com/log', 0x01, publicKey); // 4 bytes
 */
export function noteKeyId(name: string, signatureType: number, publicKey: Uint8Array): Uint8Array {
  assertKeyName(name);
  if (!Number.isInteger(signatureType) || signatureType < 0 || signatureType > 255) {
    throw new ProofError('NOTE_KEY_MALFORMED', 'Signature type must be one byte.');
  }
  if (!(publicKey instanceof Uint8Array))
    throw new ProofError('NOTE_KEY_MALFORMED', 'Public key must be bytes.');
  const digest = sha256(concatBytes(utf8Encode(name), Uint8Array.of(0x0a, signatureType), publicKey));
  return digest.slice(0, NOTE_KEY_ID_LENGTH);
}

/**
 * Key ID of an Ed25519 note key (signed-note §Ed25519 signatures):
 * `SHA-256(name ‖ 0x0A ‖ 0x01 ‖ 32-byte public key)[:4]`.
 *
 * @example toHex(ed25519KeyId('PeterNeumann', publicKey)); // 'c74f20a3'
 */
export function ed25519KeyId(name: string, publicKey: Uint8Array): Uint8Array {
  assertPublicKey(publicKey);
  return noteKeyId(name, NOTE_SIGNATURE_TYPE_ED25519, publicKey);
}

/**
 * Encodes a verifier key: `<name>+<8 hex key ID>+<base64(type ‖ public key)>`. Type defaults to
 * Ed25519 (0x01). Throws `NOTE_KEY_MALFORMED` on a bad name or key.
 *
 * @example formatVerifierKey('PeterNeumann', publicKey); // 'PeterNeumann+c74f20a3+ARpc…'
 */
export function formatVerifierKey(
  name: string,
  publicKey: Uint8Array,
  signatureType: number = NOTE_SIGNATURE_TYPE_ED25519,
): string {
  assertPublicKey(publicKey);
  const keyId = noteKeyId(name, signatureType, publicKey);
  return `${name}+${toHex(keyId)}+${toBase64(concatBytes(Uint8Array.of(signatureType), publicKey))}`;
}

/**
 * Parses a verifier key of an Ed25519-based type (0x01 note signatures, 0x04 tlog cosignatures),
 * checking that the key ID matches name, type and key. Throws `NOTE_KEY_MALFORMED`.
 *
 * @example parseVerifierKey('PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW');
 */
export function parseVerifierKey(vkey: string): VerifierKey {
  if (typeof vkey !== 'string' || vkey.length > MAX_KEY_STRING_LENGTH) throw keyMalformed('verifier key');
  const [name, hash, key64] = chopKey(vkey);
  const { keyId, signatureType, publicKey } = decodeKeyMaterial(name, hash, key64, 'public');
  return { name, keyId, signatureType, publicKey };
}

/**
 * Encodes a signer key: `PRIVATE+KEY+<name>+<8 hex key ID>+<base64(0x01 ‖ 32-byte secret key)>`.
 * The key ID is that of the matching public key. Keep the result secret.
 */
export function formatSignerKey(name: string, secretKey: Uint8Array): string {
  const publicKey = getPublicKey(secretKey);
  const keyId = ed25519KeyId(name, publicKey);
  const material = concatBytes(Uint8Array.of(NOTE_SIGNATURE_TYPE_ED25519), secretKey);
  return `${SIGNER_KEY_PREFIX}${name}+${toHex(keyId)}+${toBase64(material)}`;
}

/**
 * Parses a signer key written by {@link formatSignerKey} (or Go's `note.GenerateKey`), checking the
 * key ID against the derived public key. Throws `NOTE_KEY_MALFORMED`; never echoes the secret.
 */
export function parseSignerKey(text: string): { name: string; secretKey: Uint8Array; publicKey: Uint8Array } {
  if (
    typeof text !== 'string' ||
    text.length > MAX_KEY_STRING_LENGTH ||
    !text.startsWith(SIGNER_KEY_PREFIX)
  ) {
    throw keyMalformed('signer key');
  }
  const [name, hash, key64] = chopKey(text.slice(SIGNER_KEY_PREFIX.length));
  const { secretKey } = decodeKeyMaterial(name, hash, key64, 'secret');
  return { name, secretKey, publicKey: getPublicKey(secretKey) };
}

/**
 * An Ed25519 note signer (type 0x01). Throws `NOTE_KEY_MALFORMED` on a bad name, `KEY_INVALID` on a
 * secret key that is not 32 bytes.
 *
 * @example signNote('hello\n', [createNoteSigner('example.com/key', secretKey)]);
 */
export function createNoteSigner(name: string, secretKey: Uint8Array): NoteSigner {
  assertKeyName(name);
  const publicKey = getPublicKey(secretKey);
  const key = secretKey.slice();
  return {
    name,
    keyId: ed25519KeyId(name, publicKey),
    sign: (message: Uint8Array) => sign(message, key),
  };
}

/**
 * An Ed25519 note verifier (type 0x01) from a verifier key; strict RFC 8032 verification. Throws
 * `NOTE_KEY_MALFORMED` for a malformed key, a key of another type, or a key ID that does not match.
 *
 * @example openNote(note, [createNoteVerifier('PeterNeumann+c74f20a3+ARpc…')]);
 */
export function createNoteVerifier(vkey: string): NoteVerifier {
  const key = parseVerifierKey(vkey);
  if (key.signatureType !== NOTE_SIGNATURE_TYPE_ED25519) {
    throw new ProofError('NOTE_KEY_MALFORMED', 'Verifier key is not an Ed25519 (type 0x01) note key.');
  }
  return {
    name: key.name,
    keyId: key.keyId,
    verify: (message: Uint8Array, signature: Uint8Array) => verify(signature, message, key.publicKey),
  };
}

/**
 * Signs `text` with each signer and returns the signed note (signed-note §Format). The text must be
 * valid, end in a newline and contain no control characters other than newline. Throws
 * `NOTE_MALFORMED` for a bad text or signer count, `NOTE_KEY_MALFORMED` for a bad signer.
 *
 * @example signNote('hello\n', [signer]); // 'hello\n\n— name base64…\n'
 */
export function signNote(text: string, signers: readonly NoteSigner[]): string {
  assertNoteText(text);
  if (!Array.isArray(signers) || signers.length === 0 || signers.length > NOTE_MAX_SIGNATURES) {
    throw new ProofError('NOTE_MALFORMED', `A note needs 1 to ${NOTE_MAX_SIGNATURES} signers.`);
  }
  const message = utf8Encode(text);
  let note = `${text}\n`;
  for (const signer of signers) note += `${formatSignatureLine(message, signer)}\n`;
  if (note.length > NOTE_MAX_BYTES || utf8Encode(note).length > NOTE_MAX_BYTES) {
    throw new ProofError('NOTE_MALFORMED', 'Signed note would exceed the size limit.');
  }
  return note;
}

/**
 * Splits a signed note into text and signature lines without verifying anything (signed-note
 * §Format): valid UTF-8 without control characters other than newline, at most
 * {@link NOTE_MAX_BYTES} bytes, text separated from 1–{@link NOTE_MAX_SIGNATURES} signature lines by
 * the last blank line, each line `— <valid name> <strict base64 of ≥ 5 bytes>`. Throws
 * `NOTE_MALFORMED`.
 */
export function parseNote(note: string): ParsedNote {
  if (typeof note !== 'string') throw noteMalformed('Note must be a string.');
  if (note.length > NOTE_MAX_BYTES) throw noteMalformed('Note is too large.');
  if (LONE_SURROGATE.test(note)) throw noteMalformed('Note is not valid UTF-8.');
  if (utf8Encode(note).length > NOTE_MAX_BYTES) throw noteMalformed('Note is too large.');
  if (CONTROL_CHARACTER.test(note)) throw noteMalformed('Note contains a control character.');
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw noteMalformed('Note has no blank line before its signatures.');
  const text = note.slice(0, split + 1);
  const block = note.slice(split + 2);
  if (block.length === 0 || !block.endsWith('\n')) {
    throw noteMalformed('Signature block is empty or does not end in a newline.');
  }
  const lines = block.slice(0, -1).split('\n', NOTE_MAX_SIGNATURES + 1);
  if (lines.length > NOTE_MAX_SIGNATURES) throw noteMalformed('Note has too many signatures.');
  const signatures: NoteSignature[] = [];
  for (const line of lines) {
    if (!line.startsWith(SIGNATURE_LINE_PREFIX)) throw noteMalformed('Signature line must start with "— ".');
    const rest = line.slice(SIGNATURE_LINE_PREFIX.length);
    const space = rest.indexOf(' ');
    if (space < 0) throw noteMalformed('Signature line has no signature.');
    const name = rest.slice(0, space);
    if (!isValidNoteKeyName(name)) throw noteMalformed('Signature line has an invalid key name.');
    let bytes: Uint8Array;
    try {
      bytes = fromBase64(rest.slice(space + 1));
    } catch (cause) {
      throw new ProofError('NOTE_MALFORMED', 'Signature is not valid base64.', { cause });
    }
    if (bytes.length <= NOTE_KEY_ID_LENGTH) throw noteMalformed('Signature is too short.');
    signatures.push({
      name,
      keyId: bytes.slice(0, NOTE_KEY_ID_LENGTH),
      signature: bytes.slice(NOTE_KEY_ID_LENGTH),
      line,
    });
  }
  return { text, signatures };
}

/**
 * Parses a note and checks every signature whose name and key ID match a verifier (signed-note
 * §Signatures). Signatures of unknown keys go to `unknown`; a known key whose signature fails goes
 * to `invalid` — never silently dropped. Throws only `NOTE_MALFORMED` (for the note itself); the
 * caller decides what to trust: the text is meaningful only if `verified` holds a trusted key and,
 * per the spec, a known key in `invalid` SHOULD make the caller reject the note. Every line of a
 * known key is checked (duplicates included); if several verifiers share a name and key ID, a line
 * verifies when any of them accepts it.
 *
 * @example
 * const { text, verified, invalid } = openNote(note, [createNoteVerifier(vkey)]);
 * if (verified.length === 0 || invalid.length > 0) throw new Error('untrusted note');
 */
export function openNote(note: string, verifiers: readonly NoteVerifier[]): OpenedNote {
  const parsed = parseNote(note);
  const message = utf8Encode(parsed.text);
  const known = Array.isArray(verifiers) ? verifiers.filter(isUsableVerifier) : [];
  const verified = new KeySet();
  const unknown = new KeySet();
  const invalid = new KeySet();
  for (const entry of parsed.signatures) {
    const matching = known.filter((v) => v.name === entry.name && constantTimeEqual(v.keyId, entry.keyId));
    if (matching.length === 0) {
      unknown.add(entry);
    } else if (matching.some((v) => safeVerify(v, message, entry.signature))) {
      verified.add(entry);
    } else {
      invalid.add(entry);
    }
  }
  return { text: parsed.text, verified: verified.list, unknown: unknown.list, invalid: invalid.list };
}

/**
 * Formats one signature line `— <name> base64(keyId ‖ signer.sign(message))`, without its newline.
 * Throws `NOTE_KEY_MALFORMED` for a signer with an invalid name or key ID.
 * @internal Used by cosignature.ts.
 */
export function formatSignatureLine(message: Uint8Array, signer: NoteSigner): string {
  if (typeof signer !== 'object' || signer === null || !isValidNoteKeyName(signer.name)) {
    throw new ProofError('NOTE_KEY_MALFORMED', 'Signer has an invalid key name.');
  }
  if (!(signer.keyId instanceof Uint8Array) || signer.keyId.length !== NOTE_KEY_ID_LENGTH) {
    throw new ProofError('NOTE_KEY_MALFORMED', 'Signer key ID must be 4 bytes.');
  }
  const signature = signer.sign(message);
  if (!(signature instanceof Uint8Array) || signature.length === 0) {
    throw new ProofError('NOTE_KEY_MALFORMED', 'Signer returned no signature.');
  }
  return `${SIGNATURE_LINE_PREFIX}${signer.name} ${toBase64(concatBytes(signer.keyId, signature))}`;
}

/**
 * Throws `NOTE_MALFORMED` unless `text` can be a note text: a string of valid UTF-8 that ends in a
 * newline, has no control characters other than newline, and fits the size limit.
 * @internal
 */
export function assertNoteText(text: unknown): asserts text is string {
  if (typeof text !== 'string') throw noteMalformed('Note text must be a string.');
  if (text.length > NOTE_MAX_BYTES) throw noteMalformed('Note text is too large.');
  if (!text.endsWith('\n')) throw noteMalformed('Note text must end in a newline.');
  if (CONTROL_CHARACTER.test(text)) throw noteMalformed('Note text contains a control character.');
  if (LONE_SURROGATE.test(text)) throw noteMalformed('Note text is not valid UTF-8.');
}

/** Distinct (name, key ID) pairs in first-seen order. */
class KeySet {
  readonly list: NoteKeyReference[] = [];
  readonly #seen = new Set<string>();

  add(entry: NoteKeyReference): void {
    const id = `${entry.name}+${toHex(entry.keyId)}`;
    if (this.#seen.has(id)) return;
    this.#seen.add(id);
    this.list.push({ name: entry.name, keyId: entry.keyId.slice() });
  }
}

function isUsableVerifier(verifier: unknown): verifier is NoteVerifier {
  if (typeof verifier !== 'object' || verifier === null) return false;
  const v = verifier as Partial<NoteVerifier>;
  return (
    isValidNoteKeyName(v.name) &&
    v.keyId instanceof Uint8Array &&
    v.keyId.length === NOTE_KEY_ID_LENGTH &&
    typeof v.verify === 'function'
  );
}

function safeVerify(verifier: NoteVerifier, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    return verifier.verify(message, signature) === true;
  } catch {
    return false;
  }
}

/** Splits `<name>+<hash>+<base64>` at the first two `+` (base64 itself may contain `+`). */
function chopKey(text: string): [string, string, string] {
  const first = text.indexOf('+');
  const second = first < 0 ? -1 : text.indexOf('+', first + 1);
  if (second < 0) throw keyMalformed('key');
  return [text.slice(0, first), text.slice(first + 1, second), text.slice(second + 1)];
}

function decodeKeyMaterial(
  name: string,
  hash: string,
  key64: string,
  kind: 'public' | 'secret',
): VerifierKey & { secretKey: Uint8Array } {
  if (!isValidNoteKeyName(name) || !/^[0-9a-fA-F]{8}$/.test(hash)) throw keyMalformed(`${kind} key`);
  let material: Uint8Array;
  try {
    material = fromBase64(key64);
  } catch (cause) {
    throw new ProofError('NOTE_KEY_MALFORMED', `The ${kind} key material is not valid base64.`, { cause });
  }
  const signatureType = material[0];
  const keyBytes = material.slice(1);
  const expectedLength = kind === 'public' ? ED25519_PUBLIC_KEY_LENGTH : ED25519_SECRET_KEY_LENGTH;
  // Both supported types (0x01 note signatures, 0x04 cosignatures) carry 32-byte Ed25519 keys.
  const typeOk =
    signatureType === NOTE_SIGNATURE_TYPE_ED25519 || (kind === 'public' && signatureType === 0x04);
  if (!typeOk || keyBytes.length !== expectedLength) {
    throw new ProofError('NOTE_KEY_MALFORMED', `Unsupported ${kind} key type or length.`);
  }
  const publicKey = kind === 'public' ? keyBytes : getPublicKey(keyBytes);
  const keyId = noteKeyId(name, signatureType, publicKey);
  if (!constantTimeEqual(keyId, fromHex(hash))) {
    throw new ProofError('NOTE_KEY_MALFORMED', `The key ID does not match the ${kind} key.`);
  }
  return {
    name,
    keyId,
    signatureType,
    publicKey,
    secretKey: kind === 'secret' ? keyBytes : new Uint8Array(0),
  };
}

function assertKeyName(name: unknown): asserts name is string {
  if (!isValidNoteKeyName(name)) {
    throw new ProofError(
      'NOTE_KEY_MALFORMED',
      'Key names must be non-empty and contain no spaces, "+" or control characters.',
    );
  }
}

function assertPublicKey(publicKey: unknown): asserts publicKey is Uint8Array {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== ED25519_PUBLIC_KEY_LENGTH) {
    throw new ProofError('NOTE_KEY_MALFORMED', 'Ed25519 public keys are 32 bytes.');
  }
}

function keyMalformed(what: string): ProofError {
  return new ProofError(
    'NOTE_KEY_MALFORMED',
    `Malformed ${what}: expected <name>+<8 hex key ID>+<base64 key>.`,
  );
}

function noteMalformed(message: string): ProofError {
  return new ProofError('NOTE_MALFORMED', message);
}
