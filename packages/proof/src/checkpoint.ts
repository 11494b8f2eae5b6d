/**
 * C2SP tlog-checkpoint (https://c2sp.org/tlog-checkpoint): a signed note whose text is the log origin,
 * the tree size in decimal, the base64 RFC 6962 root hash, and optional extension lines, each line
 * ending in a newline.
 */
import { fromBase64, toBase64 } from './bytes.js';
import { ProofError } from './errors.js';
import { assertNoteText, type NoteSigner, type NoteVerifier, openNote, signNote } from './note.js';

/** RFC 6962 §2.1: SHA-256 root hashes are 32 bytes. */
export const CHECKPOINT_ROOT_HASH_LENGTH = 32;
/** Largest tree size we accept: 2^53 − 1, the largest integer a JavaScript number holds exactly. */
export const CHECKPOINT_MAX_SIZE = Number.MAX_SAFE_INTEGER;
/** tlog-checkpoint §Note text: decimal, no leading zeroes (except for the empty tree, `0`). */
const TREE_SIZE_PATTERN = /^(0|[1-9][0-9]{0,15})$/;

/** The parsed text of a checkpoint (tlog-checkpoint §Note text). */
export interface Checkpoint {
  /** Unique identifier of the log (first line); non-empty. */
  origin: string;
  /** Number of leaves in the tree (second line). */
  size: number;
  /** RFC 6962 Merkle tree head at `size` (third line), 32 bytes. */
  rootHash: Uint8Array;
  /** Optional, opaque, non-empty extension lines (fourth line on). */
  extensions: string[];
}

/** Result of {@link verifyCheckpoint}; never thrown. */
export type CheckpointVerification =
  | { ok: true; checkpoint: Checkpoint; text: string }
  | { ok: false; reason: 'MALFORMED' | 'SIGNATURE_INVALID' | 'UNKNOWN_KEY' | 'ORIGIN_MISMATCH' };

/**
 * Formats a checkpoint's note text: `origin\nsize\nbase64(root)\n` plus one line per extension.
 * Throws `CHECKPOINT_MALFORMED` for an empty origin or extension, a line break or control character
 * in a line, a size that is not a safe non-negative integer, or a root that is not 32 bytes.
 *
 * @example formatCheckpoint({ origin: 'example.com/log', size: 0, rootHash, extensions: [] });
 */
export function formatCheckpoint(checkpoint: Checkpoint): string {
  if (typeof checkpoint !== 'object' || checkpoint === null) throw malformed('Checkpoint must be an object.');
  const { origin, size, rootHash, extensions } = checkpoint;
  assertLine(origin, 'origin');
  if (!Number.isSafeInteger(size) || size < 0) throw malformed('Tree size must be an integer in 0..2^53-1.');
  if (!(rootHash instanceof Uint8Array) || rootHash.length !== CHECKPOINT_ROOT_HASH_LENGTH) {
    throw malformed('Root hash must be 32 bytes.');
  }
  if (!Array.isArray(extensions)) throw malformed('Extensions must be an array of lines.');
  for (const line of extensions) assertLine(line, 'extension line');
  const text = [origin, String(size), toBase64(rootHash), ...extensions].join('\n') + '\n';
  try {
    assertNoteText(text);
  } catch (cause) {
    throw new ProofError('CHECKPOINT_MALFORMED', 'Checkpoint text cannot be a note text.', { cause });
  }
  return text;
}

/**
 * Parses a checkpoint note text strictly (tlog-checkpoint §Note text): at least three non-empty
 * lines, each ending in a newline; tree size in decimal without leading zeroes and ≤ 2^53 − 1; root
 * hash as canonical base64 of exactly 32 bytes; extension lines non-empty. Throws
 * `CHECKPOINT_MALFORMED`.
 *
 * @example parseCheckpoint('example.com/log\n3\n' + base64Root + '\n').size; // 3
 */
export function parseCheckpoint(text: string): Checkpoint {
  try {
    assertNoteText(text);
  } catch (cause) {
    throw new ProofError('CHECKPOINT_MALFORMED', 'Checkpoint is not a valid note text.', { cause });
  }
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) throw malformed('Checkpoint needs an origin, a tree size and a root hash.');
  const [origin, sizeLine, rootLine, ...extensions] = lines as [string, string, string, ...string[]];
  if (origin.length === 0) throw malformed('Checkpoint origin is empty.');
  if (!TREE_SIZE_PATTERN.test(sizeLine)) throw malformed('Tree size must be decimal without leading zeroes.');
  const size = Number(sizeLine);
  if (!Number.isSafeInteger(size)) throw malformed('Tree size exceeds 2^53-1.');
  let rootHash: Uint8Array;
  try {
    rootHash = fromBase64(rootLine, CHECKPOINT_ROOT_HASH_LENGTH);
  } catch (cause) {
    throw new ProofError('CHECKPOINT_MALFORMED', 'Root hash must be base64 of 32 bytes.', { cause });
  }
  if (extensions.some((line) => line.length === 0)) throw malformed('Extension lines must be non-empty.');
  return { origin, size, rootHash, extensions };
}

/**
 * Signs a checkpoint as a signed note with the log key. The key name must equal the origin
 * (tlog-checkpoint §Signatures: "The log's key name in its signature line SHOULD match the origin
 * line"; Saksi makes it a MUST). Throws `CHECKPOINT_MALFORMED`, or a note error for a bad signer.
 *
 * @example signCheckpoint(checkpoint, createNoteSigner(checkpoint.origin, logSecretKey));
 */
export function signCheckpoint(checkpoint: Checkpoint, signer: NoteSigner): string {
  const text = formatCheckpoint(checkpoint);
  if (typeof signer !== 'object' || signer === null || signer.name !== checkpoint.origin) {
    throw malformed('The log key name must equal the checkpoint origin.');
  }
  return signNote(text, [signer]);
}

/**
 * Verifies a signed checkpoint against the pinned log key. Never throws. Fails with `MALFORMED` for a
 * malformed note or checkpoint text, `ORIGIN_MISMATCH` when the log key is not named after the
 * origin, `UNKNOWN_KEY` when no signature line carries the log key's name and key ID, and
 * `SIGNATURE_INVALID` when any line of the log key fails to verify. Other signatures (witness
 * cosignatures, rotated keys) are ignored, as the spec requires; check them with
 * `verifyCosignatures`.
 *
 * @example
 * const result = verifyCheckpoint(note, createNoteVerifier(logVkey));
 * if (result.ok) console.log(result.checkpoint.size);
 */
export function verifyCheckpoint(note: string, logVerifier: NoteVerifier): CheckpointVerification {
  try {
    const verifiers = typeof logVerifier === 'object' && logVerifier !== null ? [logVerifier] : [];
    const opened = openNote(note, verifiers);
    const checkpoint = parseCheckpoint(opened.text);
    if (verifiers.length === 0 || logVerifier.name !== checkpoint.origin) {
      return { ok: false, reason: 'ORIGIN_MISMATCH' };
    }
    if (opened.invalid.length > 0) return { ok: false, reason: 'SIGNATURE_INVALID' };
    if (opened.verified.length === 0) return { ok: false, reason: 'UNKNOWN_KEY' };
    return { ok: true, checkpoint, text: opened.text };
  } catch {
    return { ok: false, reason: 'MALFORMED' };
  }
}

function assertLine(line: unknown, what: string): asserts line is string {
  if (typeof line !== 'string' || line.length === 0 || line.includes('\n')) {
    throw malformed(`Checkpoint ${what} must be a non-empty single line.`);
  }
}

function malformed(message: string): ProofError {
  return new ProofError('CHECKPOINT_MALFORMED', message);
}
