/**
 * What answering reads and writes (docs/architecture.md, "Storage"): the SQL of the answer stages
 * (answer/), which run none themselves. Each function takes the database or the caller's transaction
 * first, as the repositories (repositories.ts) bind them.
 *
 * - chat sessions and their turns; the questions a follow-up is read with;
 * - certificates and the language-model usage recorded with them;
 * - the answer cache (answer/cache.ts) under the collection's content version;
 * - chunks found by their text: definitions, the code after a how-to, a selection and its neighbours;
 * - the fiscal years a collection's documents cover.
 */
import type { Bundle, Certificate } from '@saksi/proof';
import type { CachedAnswer } from './answer/cache.js';
import type { Collection } from './collections.js';
import type { Queryable } from './db/database.js';
import { newCapabilityId, newId } from './ids.js';
import type { LlmUsage } from './llm/model.js';
import type { RetrievedChunk } from './retrieve/retrieve.js';
import { trimSessionTurns } from './sessions.js';

// Sessions and turns

/** A new chat session of `collectionId`; its id is a capability (whoever holds it continues it). */
export async function createChatSession(db: Queryable, collectionId: string): Promise<string> {
  const id = newCapabilityId('ses');
  await db.query('INSERT INTO chat_sessions (id, collection_id) VALUES ($1, $2)', [id, collectionId]);
  return id;
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

/** The session's newest user questions, newest first. */
export async function recentQuestions(db: Queryable, sessionId: string, limit: number): Promise<string[]> {
  const rows = await db.query<{ content: string }>(
    "SELECT content FROM chat_messages WHERE session_id = $1 AND role = 'user' ORDER BY created_at DESC, id DESC LIMIT $2",
    [sessionId, limit],
  );
  return rows.rows.map((row) => row.content);
}

// Certificates

/** Stores a signed certificate with the chunks it cites and its log position; in the caller's transaction. */
export async function insertCertificate(
  tx: Queryable,
  row: {
    certificate: Certificate;
    signature: string;
    chunks: Bundle['chunks'];
    collectionId: string;
    leafIndex: number;
    latencyMs: number | null;
  },
): Promise<void> {
  const { certificate } = row;
  await tx.query(
    'INSERT INTO certificates (id, collection_id, issued_at, certificate, signature, chunks, leaf_index, latency_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
    [
      certificate.certificate_id,
      row.collectionId,
      certificate.issued_at,
      JSON.stringify(certificate),
      row.signature,
      JSON.stringify(row.chunks),
      row.leafIndex,
      row.latencyMs,
    ],
  );
}

/** Records the language model's usage for a certificate in the audit log; in the caller's transaction. */
export async function recordModelUsage(
  tx: Queryable,
  entry: { sessionId: string; certificateId: string; model: string; usage: LlmUsage },
): Promise<void> {
  await tx.query(`INSERT INTO audit_log (actor, action, target, details) VALUES ($1, 'answer.llm', $2, $3)`, [
    entry.sessionId,
    entry.certificateId,
    JSON.stringify({ model: entry.model, usage: entry.usage }),
  ]);
}

/** A stored certificate with its signature, cited chunks and log position; null when unknown. */
export async function certificateRow(
  db: Queryable,
  certificateId: string,
): Promise<{
  certificate: Bundle['certificate'];
  signature: string;
  chunks: Bundle['chunks'];
  leaf_index: number;
} | null> {
  const result = await db.query<{
    certificate: Bundle['certificate'];
    signature: string;
    chunks: Bundle['chunks'];
    leaf_index: number;
  }>('SELECT certificate, signature, chunks, leaf_index FROM certificates WHERE id = $1', [certificateId]);
  return result.rows[0] ?? null;
}

// The answer cache

/** The collection's content version (0 before its first READY document). */
export async function contentVersion(db: Queryable, collectionId: string): Promise<number> {
  const result = await db.query<{ version: string | number }>(
    'SELECT version FROM collection_versions WHERE collection_id = $1',
    [collectionId],
  );
  return Number(result.rows[0]?.version ?? 0);
}

/**
 * The cached answer for `key` on the collection's current content version, counting the hit; null
 * when there is none (an entry of an older version is deleted).
 */
export async function cachedAnswer(
  db: Queryable,
  collectionId: string,
  key: string,
): Promise<CachedAnswer | null> {
  const result = await db.query<{
    certificate_id: string;
    answer: string;
    found: boolean;
    bundle: Bundle;
    results: RetrievedChunk[];
    current: boolean;
  }>(
    `SELECT a.certificate_id, a.answer, a.found, a.bundle, a.results,
            a.version = COALESCE((SELECT version FROM collection_versions WHERE collection_id = $1), 0) AS current
       FROM answer_cache a WHERE a.collection_id = $1 AND a.key = $2`,
    [collectionId, key],
  );
  const row = result.rows[0];
  if (!row) return null;
  if (!row.current) {
    await db.query('DELETE FROM answer_cache WHERE collection_id = $1 AND key = $2', [collectionId, key]);
    return null;
  }
  return {
    certificateId: row.certificate_id,
    answer: row.answer,
    found: row.found,
    bundle: row.bundle,
    results: row.results,
  };
}

/**
 * Counts a hit on `key`. The question it answered is counted in usage figures by the certificate
 * issued again for its asker (`reissueCertificate`); `answer_hits` holds the hits served before cached
 * answers were issued again, which had no certificate of their own.
 */
export async function recordCacheHit(
  db: Queryable,
  hit: { collectionId: string; key: string },
): Promise<void> {
  await db.query(
    'UPDATE answer_cache SET hits = hits + 1, last_hit_at = now() WHERE collection_id = $1 AND key = $2',
    [hit.collectionId, hit.key],
  );
}

/**
 * Stores an answer made on content `version` under `key` (replacing an older one). An answer made
 * while the content changed (`version` is no longer current) is not stored.
 */
export async function storeCachedAnswer(
  db: Queryable,
  entry: {
    collectionId: string;
    key: string;
    version: number;
    question: string;
    answer: string;
    found: boolean;
    bundle: Bundle;
    results: RetrievedChunk[];
  },
): Promise<void> {
  await db.query(
    `INSERT INTO answer_cache (collection_id, key, version, certificate_id, question, answer, found, bundle, results)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9
      WHERE $3 = COALESCE((SELECT version FROM collection_versions WHERE collection_id = $1), 0)
     ON CONFLICT (collection_id, key) DO UPDATE SET
       version = EXCLUDED.version, certificate_id = EXCLUDED.certificate_id, question = EXCLUDED.question,
       answer = EXCLUDED.answer, found = EXCLUDED.found, bundle = EXCLUDED.bundle, results = EXCLUDED.results,
       created_at = now(), hits = 0, last_hit_at = NULL`,
    [
      entry.collectionId,
      entry.key,
      entry.version,
      entry.bundle.certificate.certificate_id,
      entry.question,
      entry.answer,
      entry.found,
      JSON.stringify(entry.bundle),
      JSON.stringify(entry.results),
    ],
  );
}

/**
 * Deletes entries made on an older content version than their collection's, and beyond the newest
 * `maxEntries` per collection (by last use). Returns how many went.
 */
export async function pruneAnswerCache(db: Queryable, maxEntries: number): Promise<number> {
  const stale = await db.query(
    `DELETE FROM answer_cache a
      WHERE a.version <> COALESCE((SELECT version FROM collection_versions v WHERE v.collection_id = a.collection_id), 0)`,
  );
  const excess = await db.query(
    `DELETE FROM answer_cache a USING (
       SELECT collection_id, key, row_number() OVER (
         PARTITION BY collection_id ORDER BY COALESCE(last_hit_at, created_at) DESC) AS n
         FROM answer_cache) ranked
      WHERE a.collection_id = ranked.collection_id AND a.key = ranked.key AND ranked.n > $1`,
    [maxEntries],
  );
  return stale.rowCount + excess.rowCount;
}

// Chunks found by their text

/** Chunks of READY documents of `collectionId` whose text matches the PostgreSQL regular expression `pattern` (ARE, case-insensitive), in position order. */
export async function chunkIdsMatching(
  db: Queryable,
  collectionId: string,
  pattern: string,
  limit: number,
): Promise<string[]> {
  const found = await db.query<{ id: string }>(
    `SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id
      WHERE c.collection_id = $1 AND d.status = 'READY' AND c.text ~* $2
      ORDER BY c.position LIMIT $3`,
    [collectionId, pattern, limit],
  );
  return found.rows.map((row) => row.id);
}

/** The code chunk at `position` of a READY document, when it is at most `maxChars` long. */
export async function codeChunkIdAt(
  db: Queryable,
  documentId: string,
  position: number,
  maxChars: number,
): Promise<string | undefined> {
  const found = await db.query<{ id: string }>(
    `SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id
      WHERE c.document_id = $1 AND c.position = $2 AND c.kind = 'code' AND d.status = 'READY'
        AND length(c.text) <= $3`,
    [documentId, position, maxChars],
  );
  return found.rows[0]?.id;
}

/**
 * Chunks of READY documents of `collection` holding every lexeme of `text` (the GIN index narrows
 * the search), shortest first, at most `limit`.
 */
export async function chunksWithLexemesOf(
  db: Queryable,
  collection: Pick<Collection, 'id' | 'text_search_config'>,
  text: string,
  limit: number,
): Promise<{ id: string; document_id: string; position: number; text: string }[]> {
  const candidates = await db.query<{ id: string; document_id: string; position: number; text: string }>(
    `SELECT c.id, c.document_id, c.position, c.text FROM chunks c JOIN documents d ON d.id = c.document_id
      WHERE c.collection_id = $1 AND d.status = 'READY' AND c.tsv @@ plainto_tsquery($2::regconfig, $3)
      ORDER BY c.token_count, c.id LIMIT ${Math.trunc(limit)}`,
    [collection.id, collection.text_search_config, text],
  );
  return candidates.rows;
}

/** The chunks of `documentId` from `position - 1` to `position + 1`, in order. */
export async function neighbourChunks(
  db: Queryable,
  documentId: string,
  position: number,
): Promise<{ id: string; position: number }[]> {
  const neighbours = await db.query<{ id: string; position: number }>(
    'SELECT id, position FROM chunks WHERE document_id = $1 AND position BETWEEN $2 AND $3 ORDER BY position',
    [documentId, position - 1, position + 1],
  );
  return neighbours.rows;
}

// Documents

/** Fiscal years of the collection's READY documents, ascending. */
export async function availableFiscalYears(db: Queryable, collectionId: string): Promise<number[]> {
  const result = await db.query<{ fiscal_year: number }>(
    `SELECT DISTINCT fiscal_year FROM documents
      WHERE collection_id = $1 AND status = 'READY' AND fiscal_year IS NOT NULL ORDER BY fiscal_year`,
    [collectionId],
  );
  return result.rows.map((row) => Number(row.fiscal_year));
}
