/**
 * Feedback on answers (docs/api.md, "Feedback"): a thumbs up or down, with an optional comment, on one
 * certificate, from one submitter. A submitter has at most one feedback per certificate: a later one
 * replaces it (the reader changed their mind), keeping when it was first given. Who may give feedback
 * on which certificate is the server's decision (the access of reading that certificate).
 */
import type { Queryable } from './db/database.js';
import { EngineError } from './errors.js';

export const FEEDBACK_RATINGS = ['up', 'down'] as const;
export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];

/** The longest comment kept, in characters (UTF-16 code units, so never more code points either). */
export const MAX_FEEDBACK_COMMENT = 1_000;
/** The longest submitter identity stored. */
const MAX_SUBMITTER = 320;

export interface FeedbackInput {
  certificateId: string;
  /** Who gives it: `key:<key id>`, `admin:<email>`, or `address:<HMAC of the client address>`. */
  submitter: string;
  rating: FeedbackRating;
  /** Trimmed; empty or absent stores none. */
  comment?: string | null;
}

export interface FeedbackRecord {
  certificate_id: string;
  rating: FeedbackRating;
  comment: string | null;
  created_at: string;
  updated_at: string;
  /** True when this replaced an earlier feedback of the same submitter. */
  replaced: boolean;
}

/**
 * Stores `input`, replacing the submitter's earlier feedback on the certificate. An unknown
 * certificate is `NOT_FOUND`; a rating or comment out of bounds `INVALID_INPUT`.
 */
export async function submitFeedback(db: Queryable, input: FeedbackInput): Promise<FeedbackRecord> {
  if (!(FEEDBACK_RATINGS as readonly string[]).includes(input.rating))
    throw new EngineError('INVALID_INPUT', 'The rating must be "up" or "down".');
  const comment = input.comment?.trim() ?? '';
  if (comment.length > MAX_FEEDBACK_COMMENT)
    throw new EngineError(
      'INVALID_INPUT',
      `The comment has ${comment.length} characters; shorten it to at most ${MAX_FEEDBACK_COMMENT}.`,
    );
  if (input.submitter === '' || input.submitter.length > MAX_SUBMITTER)
    throw new EngineError('INVALID_INPUT', 'The feedback has no submitter.');
  // One statement: the certificate must exist (no row is inserted otherwise). An insert sets both
  // times to the transaction's start; a replacement moves `updated_at` past `created_at`.
  const result = await db.query<{
    certificate_id: string;
    rating: FeedbackRating;
    comment: string | null;
    created_at: Date | string;
    updated_at: Date | string;
    replaced: boolean;
  }>(
    `INSERT INTO answer_feedback AS f (certificate_id, submitter, rating, comment)
       SELECT id, $2, $3, $4 FROM certificates WHERE id = $1
     ON CONFLICT (certificate_id, submitter) DO UPDATE
       SET rating = EXCLUDED.rating, comment = EXCLUDED.comment, updated_at = now()
     RETURNING certificate_id, rating, comment, created_at, updated_at, (updated_at > created_at) AS replaced`,
    [input.certificateId, input.submitter, input.rating, comment === '' ? null : comment],
  );
  const row = result.rows[0];
  if (!row) throw new EngineError('NOT_FOUND', `No certificate ${input.certificateId}.`);
  return {
    certificate_id: row.certificate_id,
    rating: row.rating,
    comment: row.comment,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    replaced: row.replaced,
  };
}
