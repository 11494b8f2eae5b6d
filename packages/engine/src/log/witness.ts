/**
 * Independent witnesses (docs/transparency-log.md, "Witnesses"): a witness that checked a checkpoint for
 * consistency with the last one it saw sends back its C2SP tlog-cosignature line; the log verifies it against
 * the trusted witness keys and stores it beside the checkpoint, so later bundles carry it.
 *
 * A cosignature is stored only when it verifies over the stored checkpoint's note text with a trusted
 * witness key; each witness key keeps one line per checkpoint (a newer line of the same key replaces
 * the older one).
 */
import {
  type CosignatureVerifier,
  createCosignatureVerifier,
  NOTE_MAX_SIGNATURES,
  type NoteSignature,
  parseCheckpoint,
  parseNote,
  toHex,
  utf8Encode,
} from '@saksi/proof';
import type { Database, Queryable } from '../db/database.js';
import { EngineError } from '../errors.js';

/** Longest cosignature line accepted; a real one is the key name plus 100 base64 characters. */
export const MAX_COSIGNATURE_LINE_LENGTH = 1_000;

export interface WitnessOptions {
  /** The log origin: the stored checkpoint must be of this log. */
  origin: string;
  /** C2SP cosignature verifier keys (type 0x04) of the witnesses this log accepts cosignatures from. */
  witnesses: readonly string[];
}

export interface CosignatureInput {
  /** Tree size of the checkpoint the witness cosigned. */
  size: number;
  /** The cosignature line `— <witness name> base64(key ID ‖ timestamp ‖ signature)`. */
  cosignature: string;
}

/** A stored checkpoint as a bundle carries it. */
export interface CheckpointRecord {
  size: number;
  root_hash: string;
  /** The log-signed note. */
  note: string;
  /** Witness cosignature lines. */
  cosignatures: string[];
}

/**
 * Verifies a witness cosignature on the stored checkpoint of `input.size` and stores it, replacing an
 * older line of the same witness key. Idempotent. Throws `EngineError` `INVALID_INPUT` (bad size or
 * not one line), `NOT_FOUND` (no checkpoint of that size), `COSIGNATURE_INVALID` (not a cosignature
 * line, or one that does not verify over that checkpoint), `WITNESS_UNKNOWN` (a key the log does not
 * trust).
 */
export async function addCosignature(
  db: Database,
  options: WitnessOptions,
  input: CosignatureInput,
): Promise<{ size: number; cosignatures: string[] }> {
  const { size, cosignature } = input;
  if (!Number.isSafeInteger(size) || size < 1) {
    throw new EngineError('INVALID_INPUT', 'size must be a whole number ≥ 1: the tree size you cosigned.');
  }
  if (
    typeof cosignature !== 'string' ||
    cosignature.length === 0 ||
    cosignature.length > MAX_COSIGNATURE_LINE_LENGTH ||
    cosignature.includes('\n')
  ) {
    throw new EngineError(
      'INVALID_INPUT',
      `cosignature must be one signature line of at most ${MAX_COSIGNATURE_LINE_LENGTH} characters, without its newline.`,
    );
  }
  const verifiers = witnessVerifiers(options.witnesses);
  return db.transaction(async (tx) => {
    const stored = await checkpointForUpdate(tx, size);
    const text = noteText(stored.note, options.origin);
    const line = parseLine(text, cosignature);
    const matching = verifiers.filter(
      (verifier) => verifier.name === line.name && toHex(verifier.keyId) === toHex(line.keyId),
    );
    if (matching.length === 0) {
      throw new EngineError(
        'WITNESS_UNKNOWN',
        `Witness key ${line.name}+${toHex(line.keyId)} is not trusted by this log; ask its operator to add it (saksi keys add-witness <vkey>) and restart the server.`,
      );
    }
    const message = utf8Encode(text);
    if (!matching.some((verifier) => verifier.verify(message, line.signature))) {
      throw new EngineError(
        'COSIGNATURE_INVALID',
        `The cosignature of ${line.name} does not verify over the checkpoint of size ${size}; cosign the note text served at /api/v1/log/checkpoint.txt.`,
      );
    }
    const kept = stored.cosignatures.filter((existing) => !sameKey(text, existing, line));
    const cosignatures = [...kept, line.line];
    if (cosignatures.length > NOTE_MAX_SIGNATURES - 1) {
      throw new EngineError(
        'CONFLICT',
        `The checkpoint of size ${size} holds the most cosignatures a note can.`,
      );
    }
    if (kept.length !== stored.cosignatures.length || !stored.cosignatures.includes(line.line)) {
      await tx.query('UPDATE log_checkpoints SET cosignatures = $2 WHERE size = $1', [
        size,
        JSON.stringify(cosignatures),
      ]);
    }
    return { size, cosignatures };
  });
}

/**
 * The checkpoint to put in a bundle for the entry at `leafIndex`: among the stored checkpoints that
 * include it (size > leafIndex), the latest of those with the most cosignatures — or, when none has
 * more than the first checkpoint that included the entry, that first one (so a bundle stays the same
 * until a witness adds something). Null when no stored checkpoint includes the entry.
 */
export async function bestCheckpointFor(db: Queryable, leafIndex: number): Promise<CheckpointRecord | null> {
  if (!Number.isSafeInteger(leafIndex) || leafIndex < 0) {
    throw new EngineError('INVALID_INPUT', 'leaf_index must be a whole number ≥ 0.');
  }
  const select = 'SELECT size, root_hash, note, cosignatures FROM log_checkpoints WHERE size > $1';
  const first = await db.query<CheckpointRecord>(`${select} ORDER BY size ASC LIMIT 1`, [leafIndex]);
  const best = await db.query<CheckpointRecord>(
    `${select} ORDER BY jsonb_array_length(cosignatures) DESC, size DESC LIMIT 1`,
    [leafIndex],
  );
  const earliest = first.rows[0];
  const most = best.rows[0];
  if (!earliest || !most) return null;
  return most.cosignatures.length > earliest.cosignatures.length ? most : earliest;
}

function witnessVerifiers(vkeys: readonly string[]): CosignatureVerifier[] {
  const verifiers: CosignatureVerifier[] = [];
  for (const vkey of vkeys) {
    try {
      verifiers.push(createCosignatureVerifier(vkey));
    } catch {
      // A malformed or non-cosignature key in the trusted list trusts nobody; the others still count.
    }
  }
  return verifiers;
}

async function checkpointForUpdate(tx: Queryable, size: number): Promise<CheckpointRecord> {
  const result = await tx.query<CheckpointRecord>(
    'SELECT size, root_hash, note, cosignatures FROM log_checkpoints WHERE size = $1 FOR UPDATE',
    [size],
  );
  const row = result.rows[0];
  if (!row) {
    throw new EngineError(
      'NOT_FOUND',
      `This log has no checkpoint of size ${size}; cosign one served at /api/v1/log/checkpoint.txt.`,
    );
  }
  return row;
}

function noteText(note: string, origin: string): string {
  try {
    const text = parseNote(note).text;
    if (parseCheckpoint(text).origin !== origin) throw new Error(`not a checkpoint of ${origin}`);
    return text;
  } catch (cause) {
    throw new EngineError('LOG_ERROR', 'A stored checkpoint is unreadable.', { cause });
  }
}

/** Parses `line` as one signature line of the note with `text`; `COSIGNATURE_INVALID` otherwise. */
function parseLine(text: string, line: string): NoteSignature {
  let signatures: NoteSignature[];
  try {
    signatures = parseNote(`${text}\n${line}\n`).signatures;
  } catch (cause) {
    throw new EngineError(
      'COSIGNATURE_INVALID',
      'cosignature is not a C2SP signature line ("— <witness name> <base64>").',
      { cause },
    );
  }
  const [signature] = signatures;
  if (signatures.length !== 1 || signature === undefined) {
    throw new EngineError('COSIGNATURE_INVALID', 'cosignature must be exactly one signature line.');
  }
  return signature;
}

function sameKey(text: string, existing: string, line: NoteSignature): boolean {
  try {
    const [other] = parseNote(`${text}\n${existing}\n`).signatures;
    return other !== undefined && other.name === line.name && toHex(other.keyId) === toHex(line.keyId);
  } catch {
    return false;
  }
}
