/**
 * The persist stage: the chat session, and the certificate appended to the transparency log in the
 * same transaction as its row and the session's messages, so a bundle is returned only after its
 * log entry is durable (docs/transparency-log.md). Stored bundles are rebuilt with their log proof.
 */
import type { Bundle, Certificate } from '@saksi/proof';
import { logLeafInput } from '@saksi/proof';
import type { Collection } from '../collections.js';
import type { Database, Queryable } from '../db/database.js';
import { EngineError } from '../errors.js';
import { newCapabilityId, newId } from '../ids.js';
import type { LlmUsage } from '../llm/model.js';
import type { LogSequencer } from '../log/sequencer.js';
import type { TransparencyLog } from '../log/transparency-log.js';
import { bestCheckpointFor } from '../log/witness.js';
import {
  DEFAULT_SESSION_POLICY,
  requireOpenSession,
  type SessionPolicy,
  trimSessionTurns,
} from '../sessions.js';

export interface PersistInput {
  certificate: Certificate;
  signature: string;
  chunks: Bundle['chunks'];
  collection: Collection;
  sessionId: string;
  question: string;
  answer: string;
  generatorModel: string;
  usage?: LlmUsage;
  /** Question/answer pairs the session keeps: older ones are deleted with this one's write. */
  maxTurns?: number;
  /** Milliseconds from the question to the signed certificate (stored with it for usage figures). */
  latencyMs?: number;
}

/** Appends the certificate to the log with its rows, in one transaction; returns the bundle. */
export async function persistAnswer(
  log: TransparencyLog,
  sequencer: LogSequencer,
  input: PersistInput,
): Promise<Bundle> {
  const { certificate, signature, chunks, collection, sessionId } = input;
  const logged = await sequencer.append({
    certificateId: certificate.certificate_id,
    leafInput: logLeafInput(certificate, signature),
    write: async (tx, appended) => {
      await tx.query(
        'INSERT INTO certificates (id, collection_id, issued_at, certificate, signature, chunks, leaf_index, latency_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
        [
          certificate.certificate_id,
          collection.id,
          certificate.issued_at,
          JSON.stringify(certificate),
          signature,
          JSON.stringify(chunks),
          appended.leaf_index,
          input.latencyMs ?? null,
        ],
      );
      if (input.usage) {
        await tx.query(
          `INSERT INTO audit_log (actor, action, target, details) VALUES ($1, 'answer.llm', $2, $3)`,
          [
            sessionId,
            certificate.certificate_id,
            JSON.stringify({ model: input.generatorModel, usage: input.usage }),
          ],
        );
      }
      await recordTurn(tx, {
        sessionId,
        question: input.question,
        answer: input.answer,
        certificateId: certificate.certificate_id,
        ...(input.maxTurns !== undefined ? { maxTurns: input.maxTurns } : {}),
      });
    },
  });
  return {
    certificate,
    signature,
    log: {
      origin: log.origin,
      leaf_index: logged.leaf_index,
      inclusion_proof: logged.inclusion_proof,
      checkpoint: logged.checkpoint,
      cosignatures: logged.cosignatures,
    },
    chunks,
  };
}

/**
 * Stores a question and its answer in the session, renews the session, and deletes its turns beyond
 * `maxTurns`; in the caller's transaction.
 */
export async function recordTurn(
  tx: Queryable,
  turn: { sessionId: string; question: string; answer: string; certificateId: string; maxTurns?: number },
): Promise<void> {
  await tx.query('INSERT INTO chat_messages (id, session_id, role, content) VALUES ($1, $2, $3, $4)', [
    newId('msg'),
    turn.sessionId,
    'user',
    turn.question,
  ]);
  await tx.query(
    'INSERT INTO chat_messages (id, session_id, role, content, certificate_id) VALUES ($1, $2, $3, $4, $5)',
    [newId('msg'), turn.sessionId, 'assistant', turn.answer, turn.certificateId],
  );
  await tx.query('UPDATE chat_sessions SET updated_at = now() WHERE id = $1', [turn.sessionId]);
  if (turn.maxTurns !== undefined) await trimSessionTurns(tx, turn.sessionId, turn.maxTurns);
}

/**
 * The session to answer in: `sessionId` when it is an open session of `collection` (NOT_FOUND when
 * unknown, of another collection, or ended), else a new one.
 */
export async function ensureSession(
  db: Database,
  collection: Collection,
  sessionId: string | undefined,
  policy: Pick<SessionPolicy, 'ttlSeconds'> = DEFAULT_SESSION_POLICY,
): Promise<string> {
  if (sessionId !== undefined) {
    await requireOpenSession(db, sessionId, collection, policy);
    return sessionId;
  }
  const id = newCapabilityId('ses');
  await db.query('INSERT INTO chat_sessions (id, collection_id) VALUES ($1, $2)', [id, collection.id]);
  return id;
}

/** A stored bundle by certificate id, rebuilt with its original log proof and checkpoint. */
export async function loadBundle(
  db: Database,
  log: TransparencyLog,
  certificateId: string,
): Promise<Bundle | null> {
  const result = await db.query<{
    certificate: Bundle['certificate'];
    signature: string;
    chunks: Bundle['chunks'];
    leaf_index: number;
  }>('SELECT certificate, signature, chunks, leaf_index FROM certificates WHERE id = $1', [certificateId]);
  const row = result.rows[0];
  if (!row) return null;
  // The most-cosigned checkpoint that includes the entry, so bundles fetched later carry witnesses.
  const stored = await bestCheckpointFor(db, row.leaf_index);
  if (!stored)
    throw new EngineError('LOG_ERROR', `No stored checkpoint includes certificate ${certificateId}.`);
  const proof = await log.inclusionProof(db, row.leaf_index, stored.size);
  return {
    certificate: row.certificate,
    signature: row.signature,
    log: {
      origin: log.origin,
      leaf_index: row.leaf_index,
      inclusion_proof: proof.proof,
      checkpoint: stored.note,
      cosignatures: stored.cosignatures,
    },
    chunks: row.chunks,
  };
}
