/**
 * The persist stage: the chat session, and the certificate appended to the transparency log in the
 * same transaction as its row and the session's messages, so a bundle is returned only after its
 * log entry is durable (docs/transparency-log.md). Stored bundles are rebuilt with their log proof.
 */
import type { Bundle, Certificate } from '@saksi/proof';
import { logLeafInput } from '@saksi/proof';
import {
  certificateRow,
  createChatSession,
  insertCertificate,
  recordModelUsage,
  recordTurn,
} from '../answer-storage.js';
import type { Collection } from '../collections.js';
import type { Database } from '../db/database.js';
import { EngineError } from '../errors.js';
import type { LlmUsage } from '../llm/model.js';
import type { LogSequencer } from '../log/sequencer.js';
import type { TransparencyLog } from '../log/transparency-log.js';
import { bestCheckpointFor } from '../log/witness.js';
import { DEFAULT_SESSION_POLICY, requireOpenSession, type SessionPolicy } from '../sessions.js';

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
      await insertCertificate(tx, {
        certificate,
        signature,
        chunks,
        collectionId: collection.id,
        leafIndex: appended.leaf_index,
        latencyMs: input.latencyMs ?? null,
      });
      if (input.usage) {
        await recordModelUsage(tx, {
          sessionId,
          certificateId: certificate.certificate_id,
          model: input.generatorModel,
          usage: input.usage,
        });
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
  return createChatSession(db, collection.id);
}

/** A stored bundle by certificate id, rebuilt with its original log proof and checkpoint. */
export async function loadBundle(
  db: Database,
  log: TransparencyLog,
  certificateId: string,
): Promise<Bundle | null> {
  const row = await certificateRow(db, certificateId);
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
