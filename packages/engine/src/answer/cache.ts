/**
 * The answer cache (docs/engine.md, "The answer cache"). A question asked again on a collection
 * whose content has not changed since is answered with the earlier answer, its results and its
 * certificate's content, which the engine issues again for the new asker (`reissueCertificate`: its
 * own id, time and session reference), since the earlier certificate names the session it was asked
 * in. The key holds the question as the verifier normalizes it, so the certificate passes the replay
 * check for the new asker too. Every setting that shapes an answer is part of the key (the profile, the
 * glossary's SHA-256, the answer shape), and the collection's content version
 * (bumped by the database whenever a document becomes or stops being READY, or a READY one's root,
 * anchor state or metadata changes) must match. Answers that depend on a conversation (a follow-up read
 * with an earlier question, a model shown earlier turns) and selection questions are not cached.
 */
import { createHash } from 'node:crypto';
import { type Bundle, normalizeQuestion } from '@saksi/proof';
import type { Collection } from '../collections.js';
import type { Queryable } from '../db/database.js';
import type { RetrievedChunk } from '../retrieve/retrieve.js';

/** Everything besides the question that shapes an answer, as the key records it. */
export interface AnswerShape {
  top_k: number;
  /** The documents searched first: those of the page the question was asked on. */
  page: string[];
  document_type: string | null;
  fiscal_year: number | null;
  /** The generator (`saksi-extractive` and its version, or the model and the prompt version). */
  generator: string;
  /** The verifiers and model layers in use (judge, decomposition, query expansion). */
  verifiers: string[];
  confidence_threshold: number;
  require_anchor: boolean;
}

/** A cached answer, as a hit returns it. */
export interface CachedAnswer {
  certificateId: string;
  answer: string;
  found: boolean;
  bundle: Bundle;
  results: RetrievedChunk[];
}

/** The cache key of `question` on `collection` under `shape`: SHA-256, hex. */
export function answerCacheKey(collection: Collection, question: string, shape: AnswerShape): string {
  return createHash('sha256')
    .update(
      JSON.stringify({
        question: normalizeQuestion(question),
        language: collection.language,
        profile: collection.profile,
        // A changed glossary rewrites questions differently: answers cached under another are not found.
        glossary: collection.glossary_sha256 ?? null,
        ...shape,
      }),
    )
    .digest('hex');
}

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
