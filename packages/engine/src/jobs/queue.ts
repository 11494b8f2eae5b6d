/**
 * The job queue (docs/api.md, "4. Deduplication, jobs and workers"): rows of `jobs` claimed with `FOR UPDATE
 * SKIP LOCKED` under a lease. A worker holds a job while `locked_until` lies ahead and renews it while
 * working; a job whose lease ran out (its worker died or hung) is claimed again by any worker, with
 * `attempts` counting every claim. Each claim draws a fresh `claim_token`, and every write a worker makes to
 * its job is guarded by it, so a worker that lost its lease can no longer touch the job.
 *
 * Exactly once: `completeJob` runs inside the transaction that commits the job's work and throws
 * {@link JobLeaseLostError} when the token no longer matches, rolling that work back — so however
 * many workers started a job, its work is committed once.
 */
import { randomBytes } from 'node:crypto';
import type { Database, Queryable } from '../db/database.js';
import { EngineError, SaksiError } from '../errors.js';
import { newId } from '../ids.js';

export const JOB_STATUSES = ['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface JobError {
  code: string;
  message: string;
}

export interface JobRow {
  id: string;
  kind: string;
  status: JobStatus;
  workspace_id: string | null;
  collection_id: string | null;
  document_id: string | null;
  stage: string | null;
  /** 0–1. */
  progress: number;
  error: JobError | null;
  payload: Record<string, unknown>;
  /** Claims so far, the current one included. */
  attempts: number;
  max_attempts: number;
  /** Drawn afresh by every claim; never shown outside the engine. */
  claim_token: string | null;
  locked_by: string | null;
  locked_until: string | null;
  run_after: string;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** A job this worker holds: its writes are guarded by `claim_token`. */
export interface ClaimedJob extends JobRow {
  claim_token: string;
}

export interface EnqueueJobInput {
  kind: string;
  workspaceId?: string;
  collectionId?: string;
  documentId?: string;
  payload?: Record<string, unknown>;
  /** Claims allowed before the job fails for good (default 3, at most 100). */
  maxAttempts?: number;
  id?: string;
  /** Initial stage shown to callers (default `queued`). */
  stage?: string;
}

export interface ClaimJobOptions {
  /** Who holds the job (`locked_by`), for operators. */
  workerId: string;
  leaseMs: number;
  /** Only jobs of these kinds; all kinds when absent. */
  kinds?: readonly string[];
}

export interface FailJobOptions {
  /** Queue the job again when it has attempts left; otherwise it fails for good. */
  retry: boolean;
  /** Delay before the retry; default {@link retryBackoffMs} of the attempts made. */
  backoffMs?: number;
}

export interface ListJobsOptions {
  workspaceId: string;
  status?: string;
  limit: number;
  offset: number;
}

/**
 * The job's claim token no longer matches (or the job is no longer RUNNING): another worker holds it,
 * or it already finished. Thrown inside a transaction, it rolls that transaction's work back.
 */
export class JobLeaseLostError extends SaksiError<'JOB_LEASE_LOST'> {
  override readonly name = 'JobLeaseLostError';
  readonly jobId: string;

  constructor(jobId: string) {
    super(
      'JOB_LEASE_LOST',
      `Job ${jobId} is no longer held by this worker (its lease ran out or it finished); its work is dropped.`,
    );
    this.jobId = jobId;
  }
}

export function isJobLeaseLostError(error: unknown): error is JobLeaseLostError {
  return error instanceof JobLeaseLostError;
}

const DEFAULT_MAX_ATTEMPTS = 3;
const MAX_ATTEMPTS_LIMIT = 100;
const MAX_ERROR_MESSAGE = 2_000;
const BACKOFF_BASE_MS = 2_000;
const BACKOFF_MAX_MS = 60_000;
const BACKOFF_JITTER = 0.2;

export const JOB_COLUMNS = `id, kind, status, workspace_id, collection_id, document_id, stage, progress, error, payload,
  attempts, max_attempts, claim_token, locked_by, to_char(locked_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS locked_until, to_char(run_after AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS run_after,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at, to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS started_at,
  to_char(finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS finished_at`;

/** `now()` plus a parameter in milliseconds. */
const plusMs = (param: string) => `now() + (${param}::float8 * interval '1 millisecond')`;

/**
 * Delay before retry number `attempts` (1 = after the first failure): 2 s × 4^(attempts−1), at most
 * 60 s, with ±20 % jitter so jobs that failed together do not return together.
 */
export function retryBackoffMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 4 ** Math.max(0, attempts - 1));
  return Math.round(base * (1 + BACKOFF_JITTER * (2 * random() - 1)));
}

function requireLease(leaseMs: number): void {
  if (!Number.isFinite(leaseMs) || leaseMs <= 0) {
    throw new EngineError('INVALID_INPUT', 'A job lease must be a positive number of milliseconds.');
  }
}

export async function enqueueJob(db: Queryable, job: EnqueueJobInput): Promise<JobRow> {
  if (!job.kind.trim()) throw new EngineError('INVALID_INPUT', 'A job needs a kind.');
  const maxAttempts = job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS_LIMIT) {
    throw new EngineError('INVALID_INPUT', `A job's maximum attempts must be 1–${MAX_ATTEMPTS_LIMIT}.`);
  }
  const result = await db.query<JobRow>(
    `INSERT INTO jobs (id, kind, status, workspace_id, collection_id, document_id, stage, payload, max_attempts)
     VALUES ($1, $2, 'QUEUED', $3, $4, $5, $6, $7::jsonb, $8) RETURNING ${JOB_COLUMNS}`,
    [
      job.id ?? newId('job'),
      job.kind,
      job.workspaceId ?? null,
      job.collectionId ?? null,
      job.documentId ?? null,
      job.stage ?? 'queued',
      JSON.stringify(job.payload ?? {}),
      maxAttempts,
    ],
  );
  return result.rows[0]!;
}

/**
 * Claims the next due job: a QUEUED one whose `run_after` has come, or a RUNNING one whose lease ran
 * out and that has attempts left. RUNNING jobs whose lease ran out on their last attempt are failed
 * first (`WORKER_LOST`) instead of being handed out. Null when nothing is due.
 */
export async function claimJob(db: Database, options: ClaimJobOptions): Promise<ClaimedJob | null> {
  requireLease(options.leaseMs);
  const kinds = options.kinds ? [...options.kinds] : null;
  // Both statements lock the rows they pick (SKIP LOCKED), so two workers never act on one row at once.
  await db.query(
    `UPDATE jobs SET status = 'FAILED', error = $2::jsonb, finished_at = now(), locked_until = NULL, updated_at = now()
     WHERE id IN (
       SELECT id FROM jobs
       WHERE status = 'RUNNING' AND locked_until < now() AND attempts >= max_attempts
         AND ($1::text[] IS NULL OR kind = ANY($1::text[]))
       FOR UPDATE SKIP LOCKED
     )`,
    [
      kinds,
      JSON.stringify({
        code: 'WORKER_LOST',
        message: 'The worker running this job stopped responding on its last attempt; submit it again.',
      }),
    ],
  );
  const result = await db.query<ClaimedJob>(
    `UPDATE jobs SET status = 'RUNNING', claim_token = $1, locked_by = $2, locked_until = ${plusMs('$3')},
       attempts = attempts + 1, started_at = COALESCE(started_at, now()), updated_at = now()
     WHERE id = (
       SELECT id FROM jobs
       WHERE ((status = 'QUEUED' AND run_after <= now())
           OR (status = 'RUNNING' AND locked_until < now() AND attempts < max_attempts))
         AND ($4::text[] IS NULL OR kind = ANY($4::text[]))
       ORDER BY run_after, created_at, id
       FOR UPDATE SKIP LOCKED
       LIMIT 1
     )
     RETURNING ${JOB_COLUMNS}`,
    [randomBytes(16).toString('hex'), options.workerId, options.leaseMs, kinds],
  );
  return result.rows[0] ?? null;
}

/** Extends the lease of a held job; false when it is lost (reclaimed by another worker, or finished). */
export async function renewLease(db: Queryable, job: ClaimedJob, leaseMs: number): Promise<boolean> {
  requireLease(leaseMs);
  const result = await db.query(
    `UPDATE jobs SET locked_until = ${plusMs('$3')} WHERE id = $1 AND claim_token = $2 AND status = 'RUNNING'`,
    [job.id, job.claim_token, leaseMs],
  );
  return result.rowCount > 0;
}

/**
 * Records the stage and progress (0–1) of a held job and renews its lease, by `leaseMs` or else by
 * the lease it was claimed with; false when the lease is lost.
 */
export async function reportProgress(
  db: Queryable,
  job: ClaimedJob,
  update: { stage: string; progress: number; leaseMs?: number },
): Promise<boolean> {
  if (!Number.isFinite(update.progress)) {
    throw new EngineError('INVALID_INPUT', 'Job progress must be a number from 0 to 1.');
  }
  if (update.leaseMs !== undefined) requireLease(update.leaseMs);
  const progress = Math.min(1, Math.max(0, update.progress));
  // Without `leaseMs`, the claim's own lease: `locked_until - updated_at` as both were at the claim.
  const lease = `CASE WHEN $5::float8 IS NULL THEN now() + ($6::timestamptz - $7::timestamptz) ELSE ${plusMs('$5')} END`;
  const result = await db.query(
    `UPDATE jobs SET stage = $3, progress = $4, updated_at = now(), locked_until = GREATEST(locked_until, ${lease})
     WHERE id = $1 AND claim_token = $2 AND status = 'RUNNING'`,
    [
      job.id,
      job.claim_token,
      update.stage,
      progress,
      update.leaseMs ?? null,
      job.locked_until ?? job.updated_at,
      job.updated_at,
    ],
  );
  return result.rowCount > 0;
}

/**
 * Marks a held job SUCCEEDED. Call it inside the transaction that commits the job's work, as its last
 * write: when the job is no longer held it throws {@link JobLeaseLostError}, and the transaction rolls
 * back. `finished_at` is the clock at this statement, not the start of the transaction, so a job never
 * says it finished before its work did.
 */
export async function completeJob(
  tx: Queryable,
  job: ClaimedJob,
  fields: { documentId?: string } = {},
): Promise<void> {
  const result = await tx.query(
    `UPDATE jobs SET status = 'SUCCEEDED', stage = 'done', progress = 1, error = NULL,
       document_id = COALESCE($3, document_id), finished_at = clock_timestamp(), locked_until = NULL, updated_at = clock_timestamp()
     WHERE id = $1 AND claim_token = $2 AND status = 'RUNNING'`,
    [job.id, job.claim_token, fields.documentId ?? null],
  );
  if (result.rowCount === 0) throw new JobLeaseLostError(job.id);
}

/**
 * Records a failure of a held job. With `retry` and attempts left it goes back to QUEUED, due after
 * the backoff ('retrying'); otherwise it is FAILED for good ('failed'). Like {@link completeJob}, it
 * throws {@link JobLeaseLostError} and changes nothing when the job is no longer held: its fate then
 * belongs to the worker holding it.
 */
export async function failJob(
  db: Queryable,
  job: ClaimedJob,
  error: JobError,
  options: FailJobOptions,
): Promise<'retrying' | 'failed'> {
  const backoffMs = options.backoffMs ?? retryBackoffMs(job.attempts);
  if (!Number.isFinite(backoffMs) || backoffMs < 0) {
    throw new EngineError('INVALID_INPUT', 'A retry backoff must be zero or more milliseconds.');
  }
  const stored: JobError = { code: error.code, message: error.message.slice(0, MAX_ERROR_MESSAGE) };
  const result = await db.query<{ status: JobStatus }>(
    `UPDATE jobs SET
       status = CASE WHEN $3 AND attempts < max_attempts THEN 'QUEUED' ELSE 'FAILED' END,
       run_after = CASE WHEN $3 AND attempts < max_attempts THEN ${plusMs('$5')} ELSE run_after END,
       stage = CASE WHEN $3 AND attempts < max_attempts THEN 'queued' ELSE stage END,
       progress = CASE WHEN $3 AND attempts < max_attempts THEN 0 ELSE progress END,
       claim_token = CASE WHEN $3 AND attempts < max_attempts THEN NULL ELSE claim_token END,
       finished_at = CASE WHEN $3 AND attempts < max_attempts THEN NULL ELSE clock_timestamp() END,
       error = $4::jsonb, locked_until = NULL, updated_at = clock_timestamp()
     WHERE id = $1 AND claim_token = $2 AND status = 'RUNNING'
     RETURNING status`,
    [job.id, job.claim_token, options.retry, JSON.stringify(stored), backoffMs],
  );
  const row = result.rows[0];
  if (!row) throw new JobLeaseLostError(job.id);
  return row.status === 'QUEUED' ? 'retrying' : 'failed';
}

/** A job by id; with `workspaceId`, only when it belongs to that workspace. */
export async function getJob(db: Queryable, id: string, workspaceId?: string): Promise<JobRow | null> {
  const result =
    workspaceId === undefined
      ? await db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1`, [id])
      : await db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1 AND workspace_id = $2`, [
          id,
          workspaceId,
        ]);
  return result.rows[0] ?? null;
}

/** A workspace's jobs, newest first. */
export async function listJobs(
  db: Queryable,
  options: ListJobsOptions,
): Promise<{ items: JobRow[]; total: number }> {
  if (options.status !== undefined && !(JOB_STATUSES as readonly string[]).includes(options.status)) {
    throw new EngineError('INVALID_INPUT', `Job status must be one of ${JOB_STATUSES.join(', ')}.`);
  }
  if (!Number.isSafeInteger(options.limit) || options.limit < 0) {
    throw new EngineError('INVALID_INPUT', 'limit must be a non-negative integer.');
  }
  if (!Number.isSafeInteger(options.offset) || options.offset < 0) {
    throw new EngineError('INVALID_INPUT', 'offset must be a non-negative integer.');
  }
  const where = 'workspace_id = $1 AND ($2::text IS NULL OR status = $2::text)';
  const params = [options.workspaceId, options.status ?? null];
  const items = await db.query<JobRow>(
    `SELECT ${JOB_COLUMNS} FROM jobs WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
    [...params, options.limit, options.offset],
  );
  const total = await db.query<{ total: number }>(
    `SELECT count(*)::integer AS total FROM jobs WHERE ${where}`,
    params,
  );
  return { items: items.rows, total: total.rows[0]?.total ?? 0 };
}

/** A job a worker finished, or queued again after a failed attempt, with its document's outcome. */
export interface FinishedJob {
  id: string;
  status: JobStatus;
  attempts: number;
  error: { code: string; message: string } | null;
  document_id: string | null;
  filename: string | null;
  document_status: string | null;
  chunk_count: number | null;
  seconds: number | null;
}

/**
 * The jobs `workerId` finished (or queued again after a failed attempt) since `since`, the
 * database's clock: one small query, for a worker reporting what it did.
 */
export async function finishedJobs(db: Queryable, workerId: string, since: string): Promise<FinishedJob[]> {
  const result = await db.query<FinishedJob>(
    `SELECT j.id, j.status, j.attempts, j.error, j.document_id, d.filename, d.status AS document_status,
            d.chunk_count, extract(epoch FROM j.finished_at - j.started_at)::float8 AS seconds
       FROM jobs j LEFT JOIN documents d ON d.id = j.document_id
      WHERE j.locked_by = $1 AND j.updated_at >= $2::timestamptz
        AND (j.status IN ('SUCCEEDED', 'FAILED') OR (j.status = 'QUEUED' AND j.error IS NOT NULL))
      ORDER BY j.updated_at, j.id`,
    [workerId, since],
  );
  return result.rows;
}

/** The database's clock, as text PostgreSQL reads back exactly. */
export async function databaseNow(db: Queryable): Promise<string> {
  const result = await db.query<{ now: string }>('SELECT now()::text AS now');
  return result.rows[0]!.now;
}
