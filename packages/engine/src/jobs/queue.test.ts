/**
 * The job queue on a real database: claim order, leases that hold and leases that run out, the claim
 * token guarding completion inside the work's transaction, retries with backoff, and running out of
 * attempts. Each test uses its own job kinds, so jobs left by other tests are never claimed.
 */

import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWorkspace } from '../collections.js';
import type { Database } from '../db/database.js';
import { isEngineError } from '../errors.js';
import {
  claimJob,
  completeJob,
  enqueueJob,
  failJob,
  getJob,
  JobLeaseLostError,
  listJobs,
  renewLease,
  reportProgress,
  retryBackoffMs,
} from './queue.js';

let test: TestEngine;
let db: Database;

beforeAll(async () => {
  test = await openTestEngine();
  db = test.engine.db;
  await ensureWorkspace(db, 'wsp_jobs_a', 'Jobs A');
  await ensureWorkspace(db, 'wsp_jobs_b', 'Jobs B');
});

afterAll(async () => {
  await test?.close();
});

const expireLease = (id: string) =>
  db.query(`UPDATE jobs SET locked_until = now() - interval '1 second' WHERE id = $1`, [id]);

describe('enqueue and claim', () => {
  it('enqueues QUEUED jobs and claims them oldest first, each once', async () => {
    const first = await enqueueJob(db, {
      kind: 'order',
      workspaceId: 'wsp_jobs_a',
      documentId: 'doc_1',
      payload: { n: 1 },
    });
    const second = await enqueueJob(db, { kind: 'order', payload: { n: 2 }, maxAttempts: 5 });
    expect(first).toMatchObject({
      kind: 'order',
      status: 'QUEUED',
      stage: 'queued',
      progress: 0,
      attempts: 0,
      max_attempts: 3,
      workspace_id: 'wsp_jobs_a',
      document_id: 'doc_1',
      payload: { n: 1 },
      claim_token: null,
      error: null,
      started_at: null,
    });
    expect(first.id).toMatch(/^job_[0-9a-f]{32}$/);
    expect(typeof first.created_at).toBe('string');
    expect(second.max_attempts).toBe(5);

    const a = await claimJob(db, { workerId: 'w1', leaseMs: 60_000, kinds: ['order'] });
    const b = await claimJob(db, { workerId: 'w2', leaseMs: 60_000, kinds: ['order'] });
    expect(a?.id).toBe(first.id);
    expect(b?.id).toBe(second.id);
    expect(a).toMatchObject({ status: 'RUNNING', attempts: 1, locked_by: 'w1', payload: { n: 1 } });
    expect(a?.claim_token).toMatch(/^[0-9a-f]{32}$/);
    expect(a?.claim_token).not.toBe(b?.claim_token);
    expect(a?.started_at).not.toBeNull();
    expect(a?.locked_until).not.toBeNull();
    // Both leases hold: nothing else to claim.
    expect(await claimJob(db, { workerId: 'w3', leaseMs: 60_000, kinds: ['order'] })).toBeNull();
  });

  it('hands each job to one of many concurrent claimers', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 8; i++) ids.add((await enqueueJob(db, { kind: 'race' })).id);
    const claims = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        claimJob(db, { workerId: `w${i}`, leaseMs: 60_000, kinds: ['race'] }),
      ),
    );
    const won = claims.filter((claim) => claim !== null).map((claim) => claim.id);
    expect(won).toHaveLength(8);
    expect(new Set(won)).toEqual(ids);

    const [one] = [...ids];
    await expireLease(one!);
    const reclaims = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        claimJob(db, { workerId: `r${i}`, leaseMs: 60_000, kinds: ['race'] }),
      ),
    );
    expect(reclaims.filter((claim) => claim !== null).map((claim) => [claim.id, claim.attempts])).toEqual([
      [one, 2],
    ]);
  });

  it('claims only the kinds asked for', async () => {
    const job = await enqueueJob(db, { kind: 'kind-filter' });
    expect(await claimJob(db, { workerId: 'w1', leaseMs: 60_000, kinds: ['other-kind'] })).toBeNull();
    expect((await claimJob(db, { workerId: 'w1', leaseMs: 60_000, kinds: ['kind-filter'] }))?.id).toBe(
      job.id,
    );
  });

  it('rejects bad input with typed errors', async () => {
    await expect(enqueueJob(db, { kind: ' ' })).rejects.toSatisfy((e) => isEngineError(e, 'INVALID_INPUT'));
    await expect(enqueueJob(db, { kind: 'x', maxAttempts: 0 })).rejects.toSatisfy((e) =>
      isEngineError(e, 'INVALID_INPUT'),
    );
    await expect(claimJob(db, { workerId: 'w', leaseMs: 0 })).rejects.toSatisfy((e) =>
      isEngineError(e, 'INVALID_INPUT'),
    );
    await expect(
      listJobs(db, { workspaceId: 'wsp_jobs_a', status: 'DONE', limit: 10, offset: 0 }),
    ).rejects.toSatisfy((e) => isEngineError(e, 'INVALID_INPUT'));
  });
});

describe('leases', () => {
  it('hands a job whose lease ran out to another worker, with a new token and one more attempt', async () => {
    const job = await enqueueJob(db, { kind: 'lease' });
    const first = (await claimJob(db, { workerId: 'w1', leaseMs: 60_000, kinds: ['lease'] }))!;
    expect(await claimJob(db, { workerId: 'w2', leaseMs: 60_000, kinds: ['lease'] })).toBeNull();
    expect(await renewLease(db, first, 60_000)).toBe(true);

    await expireLease(job.id);
    const second = (await claimJob(db, { workerId: 'w2', leaseMs: 60_000, kinds: ['lease'] }))!;
    expect(second).toMatchObject({ id: job.id, status: 'RUNNING', attempts: 2, locked_by: 'w2' });
    expect(second.claim_token).not.toBe(first.claim_token);
    expect(second.started_at).toBe(first.started_at);

    // The first worker lost it: renewals, progress, completion and failure all say so.
    expect(await renewLease(db, first, 60_000)).toBe(false);
    expect(await reportProgress(db, first, { stage: 'parsing', progress: 0.5 })).toBe(false);
    await expect(completeJob(db, first)).rejects.toBeInstanceOf(JobLeaseLostError);
    await expect(failJob(db, first, { code: 'X', message: 'x' }, { retry: false })).rejects.toMatchObject({
      code: 'JOB_LEASE_LOST',
    });
    expect((await getJob(db, job.id))?.status).toBe('RUNNING');

    expect(await reportProgress(db, second, { stage: 'parsing', progress: 0.5 })).toBe(true);
    const during = await getJob(db, job.id);
    expect(during).toMatchObject({ stage: 'parsing', progress: 0.5 });
    await completeJob(db, second, { documentId: 'doc_lease' });
    expect(await getJob(db, job.id)).toMatchObject({
      status: 'SUCCEEDED',
      stage: 'done',
      progress: 1,
      document_id: 'doc_lease',
      locked_until: null,
      error: null,
    });
    // Finished exactly once.
    await expect(completeJob(db, second)).rejects.toBeInstanceOf(JobLeaseLostError);
    expect(await renewLease(db, second, 60_000)).toBe(false);
  });

  it('progress renews the lease by the claimed lease when none is given', async () => {
    await enqueueJob(db, { kind: 'progress-lease' });
    const job = (await claimJob(db, { workerId: 'w1', leaseMs: 600_000, kinds: ['progress-lease'] }))!;
    await db.query(`UPDATE jobs SET locked_until = now() + interval '1 second' WHERE id = $1`, [job.id]);
    expect(await reportProgress(db, job, { stage: 'chunking', progress: 2 })).toBe(true);
    const row = await db.query<{ seconds: number; progress: number }>(
      'SELECT extract(epoch FROM locked_until - now())::float8 AS seconds, progress FROM jobs WHERE id = $1',
      [job.id],
    );
    expect(row.rows[0]!.seconds).toBeGreaterThan(500);
    expect(row.rows[0]!.progress).toBe(1);
  });

  it('rolls back the work of a worker whose claim token is stale', async () => {
    const job = await enqueueJob(db, { kind: 'stale' });
    const stale = (await claimJob(db, { workerId: 'w1', leaseMs: 60_000, kinds: ['stale'] }))!;
    await expireLease(job.id);
    const current = (await claimJob(db, { workerId: 'w2', leaseMs: 60_000, kinds: ['stale'] }))!;

    await expect(
      db.transaction(async (tx) => {
        await tx.query(`INSERT INTO workspaces (id, name) VALUES ('wsp_stale_work', 'Stale work')`);
        await completeJob(tx, stale);
      }),
    ).rejects.toBeInstanceOf(JobLeaseLostError);
    const leaked = await db.query(`SELECT id FROM workspaces WHERE id = 'wsp_stale_work'`);
    expect(leaked.rows).toEqual([]);
    expect((await getJob(db, job.id))?.status).toBe('RUNNING');

    await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO workspaces (id, name) VALUES ('wsp_current_work', 'Current work')`);
      await completeJob(tx, current);
    });
    const committed = await db.query(`SELECT id FROM workspaces WHERE id = 'wsp_current_work'`);
    expect(committed.rows).toHaveLength(1);
    expect((await getJob(db, job.id))?.status).toBe('SUCCEEDED');
  });

  it('fails a job whose lease ran out on its last attempt instead of handing it out', async () => {
    const job = await enqueueJob(db, { kind: 'lost', maxAttempts: 2 });
    await claimJob(db, { workerId: 'w1', leaseMs: 60_000, kinds: ['lost'] });
    await expireLease(job.id);
    expect((await claimJob(db, { workerId: 'w2', leaseMs: 60_000, kinds: ['lost'] }))?.attempts).toBe(2);
    await expireLease(job.id);
    expect(await claimJob(db, { workerId: 'w3', leaseMs: 60_000, kinds: ['lost'] })).toBeNull();
    const failed = await getJob(db, job.id);
    expect(failed).toMatchObject({ status: 'FAILED', attempts: 2, error: { code: 'WORKER_LOST' } });
    expect(failed?.finished_at).not.toBeNull();
  });
});

describe('failures and retries', () => {
  it('queues a retryable failure again after a backoff, then fails it when attempts run out', async () => {
    const job = await enqueueJob(db, { kind: 'retry', maxAttempts: 2 });
    const first = (await claimJob(db, { workerId: 'w1', leaseMs: 60_000, kinds: ['retry'] }))!;
    await reportProgress(db, first, { stage: 'embedding', progress: 0.6 });
    expect(await failJob(db, first, { code: 'PROVIDER_DOWN', message: 'Timed out.' }, { retry: true })).toBe(
      'retrying',
    );
    const queued = await db.query<{
      status: string;
      stage: string;
      progress: number;
      due_in: number;
      claim_token: null;
    }>(
      `SELECT status, stage, progress, claim_token, extract(epoch FROM run_after - now())::float8 AS due_in FROM jobs WHERE id = $1`,
      [job.id],
    );
    // Default backoff after the first attempt: 2 s ± 20 %.
    expect(queued.rows[0]).toMatchObject({
      status: 'QUEUED',
      stage: 'queued',
      progress: 0,
      claim_token: null,
    });
    expect(queued.rows[0]!.due_in).toBeGreaterThan(1);
    expect(queued.rows[0]!.due_in).toBeLessThanOrEqual(2.5);
    expect((await getJob(db, job.id))?.error).toEqual({ code: 'PROVIDER_DOWN', message: 'Timed out.' });
    expect(await claimJob(db, { workerId: 'w1', leaseMs: 60_000, kinds: ['retry'] })).toBeNull();

    await db.query(`UPDATE jobs SET run_after = now() - interval '1 second' WHERE id = $1`, [job.id]);
    const second = (await claimJob(db, { workerId: 'w2', leaseMs: 60_000, kinds: ['retry'] }))!;
    expect(second).toMatchObject({ id: job.id, attempts: 2 });
    expect(
      await failJob(db, second, { code: 'PROVIDER_DOWN', message: 'Timed out again.' }, { retry: true }),
    ).toBe('failed');
    const failed = await getJob(db, job.id);
    expect(failed).toMatchObject({
      status: 'FAILED',
      attempts: 2,
      locked_until: null,
      error: { code: 'PROVIDER_DOWN', message: 'Timed out again.' },
    });
    expect(failed?.finished_at).not.toBeNull();
    expect(await claimJob(db, { workerId: 'w3', leaseMs: 60_000, kinds: ['retry'] })).toBeNull();
  });

  it('fails at once without retry, and honours an explicit backoff', async () => {
    const once = await enqueueJob(db, { kind: 'no-retry' });
    const claimed = (await claimJob(db, { workerId: 'w1', leaseMs: 60_000, kinds: ['no-retry'] }))!;
    expect(await failJob(db, claimed, { code: 'INVALID_INPUT', message: 'Bad.' }, { retry: false })).toBe(
      'failed',
    );
    expect((await getJob(db, once.id))?.status).toBe('FAILED');

    const soon = await enqueueJob(db, { kind: 'zero-backoff' });
    const again = (await claimJob(db, { workerId: 'w1', leaseMs: 60_000, kinds: ['zero-backoff'] }))!;
    expect(await failJob(db, again, { code: 'X', message: 'x' }, { retry: true, backoffMs: 0 })).toBe(
      'retrying',
    );
    expect((await claimJob(db, { workerId: 'w1', leaseMs: 60_000, kinds: ['zero-backoff'] }))?.id).toBe(
      soon.id,
    );
  });

  it('backs off 2 s × 4^(attempts−1), at most a minute, with ±20 % jitter', () => {
    expect(retryBackoffMs(1, () => 0.5)).toBe(2_000);
    expect(retryBackoffMs(2, () => 0.5)).toBe(8_000);
    expect(retryBackoffMs(3, () => 0.5)).toBe(32_000);
    expect(retryBackoffMs(4, () => 0.5)).toBe(60_000);
    expect(retryBackoffMs(9, () => 0.5)).toBe(60_000);
    expect(retryBackoffMs(1, () => 0)).toBe(1_600);
    expect(retryBackoffMs(1, () => 1)).toBe(2_400);
  });
});

describe('reading jobs', () => {
  it('gets and lists a workspace’s jobs only, newest first, filtered by status', async () => {
    const a1 = await enqueueJob(db, { kind: 'listed', workspaceId: 'wsp_jobs_b' });
    const a2 = await enqueueJob(db, { kind: 'listed', workspaceId: 'wsp_jobs_b' });
    const other = await enqueueJob(db, { kind: 'listed', workspaceId: 'wsp_jobs_a' });
    const claimed = (await claimJob(db, { workerId: 'w1', leaseMs: 60_000, kinds: ['listed'] }))!;
    expect(claimed.id).toBe(a1.id);

    expect((await getJob(db, a1.id, 'wsp_jobs_b'))?.id).toBe(a1.id);
    expect(await getJob(db, a1.id, 'wsp_jobs_a')).toBeNull();
    expect((await getJob(db, other.id))?.workspace_id).toBe('wsp_jobs_a');
    expect(await getJob(db, 'job_missing')).toBeNull();

    const all = await listJobs(db, { workspaceId: 'wsp_jobs_b', limit: 10, offset: 0 });
    expect(all.total).toBe(2);
    expect(all.items.map((job) => job.id)).toEqual([a2.id, a1.id]);
    const page = await listJobs(db, { workspaceId: 'wsp_jobs_b', limit: 1, offset: 1 });
    expect(page).toMatchObject({ total: 2, items: [{ id: a1.id }] });
    const running = await listJobs(db, {
      workspaceId: 'wsp_jobs_b',
      status: 'RUNNING',
      limit: 10,
      offset: 0,
    });
    expect(running).toMatchObject({ total: 1, items: [{ id: a1.id, status: 'RUNNING' }] });
  });
});
