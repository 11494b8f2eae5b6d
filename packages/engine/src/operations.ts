/**
 * What an operator watches, read from the database when metrics are scraped (docs/operations.md):
 * the job queue, the transparency log's size, how long the oldest READY document has waited for its
 * anchor, and the answer cache's size.
 */
import type { Queryable } from './db/database.js';

export interface OperationalReadings {
  /** Jobs by status (QUEUED, RUNNING, …), all workspaces. */
  jobs: Record<string, number>;
  /** Entries in the transparency log (its latest checkpoint's size). */
  logSize: number;
  /** Seconds the oldest READY document not yet anchored has waited (0 when none waits). */
  anchorLagSeconds: number;
  /** Cached answers, all collections. */
  cachedAnswers: number;
}

export async function operationalReadings(db: Queryable): Promise<OperationalReadings> {
  const jobs = await db.query<{ status: string; n: number }>(
    `SELECT status, count(*)::integer AS n FROM jobs WHERE status IN ('QUEUED', 'RUNNING') GROUP BY status`,
  );
  const rest = await db.query<{ log_size: number | null; lag: number | null; cached: number }>(
    `SELECT (SELECT max(size)::bigint FROM log_checkpoints)::float8 AS log_size,
            (SELECT EXTRACT(EPOCH FROM now() - min(updated_at))::float8 FROM documents
              WHERE status = 'READY' AND anchor_state <> 'ANCHORED') AS lag,
            (SELECT count(*)::integer FROM answer_cache) AS cached`,
  );
  const row = rest.rows[0];
  return {
    jobs: Object.fromEntries([
      ['QUEUED', 0],
      ['RUNNING', 0],
      ...jobs.rows.map((job) => [job.status, job.n] as const),
    ]),
    logSize: Number(row?.log_size ?? 0),
    anchorLagSeconds: Math.max(0, Number(row?.lag ?? 0)),
    cachedAnswers: Number(row?.cached ?? 0),
  };
}
