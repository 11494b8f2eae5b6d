/**
 * The job worker on a real database: handlers run and report progress, jobs complete once (by the
 * worker or by the handler inside its own transaction), thrown errors retry or fail, the loop survives
 * failing handlers and periodic tasks, stop() waits for the job in hand, and lease renewal keeps a slow
 * job from being claimed by another worker. Each test uses its own job kinds.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { EngineError } from '../errors.js';
import { type ClaimedJob, claimJob, completeJob, enqueueJob, getJob, type JobRow } from './queue.js';
import { describeJobError, isRetryableJobError, type JobHandler, JobWorker } from './worker.js';

let test: TestEngine;
let db: Database;

beforeAll(async () => {
  test = await openTestEngine();
  db = test.engine.db;
});

afterAll(async () => {
  await test?.close();
});

async function waitFor<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('Timed out waiting for a condition.');
    await delay(20);
  }
}

const statusOf = async (id: string) => (await getJob(db, id))?.status;

describe('runOnce', () => {
  it('runs the handler, records its progress and completes the job', async () => {
    const seen: { stage: string | null; progress: number }[] = [];
    const handler: JobHandler = async (job, context) => {
      expect(job.payload).toEqual({ greeting: 'halo' });
      expect(context.signal.aborted).toBe(false);
      await context.progress('parsing', 0.25);
      const row = (await getJob(context.db, job.id))!;
      seen.push({ stage: row.stage, progress: row.progress });
    };
    const worker = new JobWorker({
      db,
      handlers: { echo: handler },
      leaseMs: 60_000,
      workerId: 'worker-echo',
    });
    const job = await enqueueJob(db, { kind: 'echo', payload: { greeting: 'halo' } });
    expect(await worker.runOnce()).toBe(true);
    expect(seen).toEqual([{ stage: 'parsing', progress: 0.25 }]);
    expect(await getJob(db, job.id)).toMatchObject({
      status: 'SUCCEEDED',
      stage: 'done',
      progress: 1,
      attempts: 1,
      locked_by: 'worker-echo',
    });
    expect(await worker.runOnce()).toBe(false);
  });

  it('leaves a job the handler completed in its own transaction as it is', async () => {
    const handler: JobHandler = async (job, context) => {
      await context.db.transaction(async (tx) => {
        await tx.query(`INSERT INTO workspaces (id, name) VALUES ('wsp_handler_work', 'Handler work')`);
        await completeJob(tx, job, { documentId: 'doc_from_handler' });
      });
    };
    const errors: unknown[] = [];
    const worker = new JobWorker({
      db,
      handlers: { 'self-complete': handler },
      leaseMs: 60_000,
      onError: (error) => errors.push(error),
    });
    const job = await enqueueJob(db, { kind: 'self-complete' });
    expect(await worker.runOnce()).toBe(true);
    expect(await getJob(db, job.id)).toMatchObject({ status: 'SUCCEEDED', document_id: 'doc_from_handler' });
    expect(errors).toEqual([]);
  });

  it('retries transient errors and fails deterministic ones at once', async () => {
    const failures: { error: unknown; job?: JobRow }[] = [];
    const worker = new JobWorker({
      db,
      handlers: {
        flaky: async () => {
          throw new Error('Connection reset.');
        },
        invalid: async () => {
          throw new EngineError('INVALID_INPUT', 'The payload names no document.');
        },
      },
      leaseMs: 60_000,
      onError: (error, job) => failures.push(job ? { error, job } : { error }),
    });
    const flaky = await enqueueJob(db, { kind: 'flaky' });
    const invalid = await enqueueJob(db, { kind: 'invalid' });
    expect(await worker.runOnce()).toBe(true);
    expect(await worker.runOnce()).toBe(true);
    expect(await getJob(db, flaky.id)).toMatchObject({
      status: 'QUEUED',
      attempts: 1,
      error: { code: 'JOB_FAILED', message: 'Connection reset.' },
    });
    expect(await getJob(db, invalid.id)).toMatchObject({
      status: 'FAILED',
      attempts: 1,
      error: { code: 'INVALID_INPUT', message: 'The payload names no document.' },
    });
    expect(failures.map((failure) => failure.job?.id)).toEqual([flaky.id, invalid.id]);
    // The retry is not due yet.
    expect(await worker.runOnce()).toBe(false);
  });

  it('classifies and describes errors', () => {
    expect(isRetryableJobError(new Error('x'))).toBe(true);
    expect(isRetryableJobError(new EngineError('NOT_FOUND', 'x'))).toBe(false);
    expect(describeJobError('plain')).toEqual({ code: 'JOB_FAILED', message: 'plain' });
    expect(describeJobError(new EngineError('CONFLICT', 'Taken.'))).toEqual({
      code: 'CONFLICT',
      message: 'Taken.',
    });
  });
});

describe('the loop', () => {
  it('runs jobs as they come, survives failing handlers and periodic tasks, and stop() waits', async () => {
    const ran: string[] = [];
    let periodicRuns = 0;
    const errors: unknown[] = [];
    let release: () => void = () => undefined;
    const slowStarted = new Promise<void>((resolve) => {
      release = resolve;
    });
    const worker = new JobWorker({
      db,
      handlers: {
        'loop-ok': async (job) => {
          ran.push(job.id);
        },
        'loop-throws': async () => {
          throw new Error('Handler blew up.');
        },
        'loop-slow': async (job) => {
          release();
          await delay(300);
          ran.push(job.id);
        },
      },
      leaseMs: 60_000,
      pollMs: 5_000,
      periodic: [
        async () => {
          periodicRuns++;
        },
        async () => {
          throw new Error('Periodic task failed.');
        },
      ],
      onError: (error) => errors.push(error),
    });
    worker.start();
    expect(worker.running).toBe(true);
    await waitFor(async () => periodicRuns >= 1);

    const bad = await enqueueJob(db, { kind: 'loop-throws' });
    const good = await enqueueJob(db, { kind: 'loop-ok' });
    // pollMs is long: only wake() makes the loop look again this soon.
    worker.wake();
    await waitFor(async () => (await statusOf(good.id)) === 'SUCCEEDED');
    expect(await statusOf(bad.id)).toBe('QUEUED');
    expect(ran).toContain(good.id);
    expect(periodicRuns).toBeGreaterThanOrEqual(2);
    expect(errors.some((error) => error instanceof Error && error.message === 'Handler blew up.')).toBe(true);
    expect(errors.some((error) => error instanceof Error && error.message === 'Periodic task failed.')).toBe(
      true,
    );

    const slow = await enqueueJob(db, { kind: 'loop-slow' });
    worker.wake();
    await slowStarted;
    await worker.stop();
    expect(worker.running).toBe(false);
    expect(ran).toContain(slow.id);
    expect(await statusOf(slow.id)).toBe('SUCCEEDED');

    // Stopped: nothing is claimed any more.
    const later = await enqueueJob(db, { kind: 'loop-ok' });
    worker.wake();
    await delay(100);
    expect(await statusOf(later.id)).toBe('QUEUED');
  });

  it('renews the lease of a slow job so no other worker claims it', async () => {
    const attempts: (ClaimedJob | null)[] = [];
    let done = false;
    const worker = new JobWorker({
      db,
      handlers: {
        'slow-lease': async () => {
          for (const wait of [400, 400, 300]) {
            await delay(wait);
            attempts.push(await claimJob(db, { workerId: 'intruder', leaseMs: 300, kinds: ['slow-lease'] }));
          }
          done = true;
        },
      },
      leaseMs: 300,
    });
    const job = await enqueueJob(db, { kind: 'slow-lease' });
    expect(await worker.runOnce()).toBe(true);
    expect(done).toBe(true);
    expect(attempts).toEqual([null, null, null]);
    expect(await getJob(db, job.id)).toMatchObject({ status: 'SUCCEEDED', attempts: 1 });
  });

  it('aborts the handler when its lease is lost and leaves the job to its new holder', async () => {
    let aborted = false;
    let thief: ClaimedJob | null = null;
    const worker = new JobWorker({
      db,
      handlers: {
        stolen: async (job, context) => {
          // Another worker takes the job over, as if this one had stalled past its lease.
          await db.query(`UPDATE jobs SET locked_until = now() - interval '1 second' WHERE id = $1`, [
            job.id,
          ]);
          thief = await claimJob(db, { workerId: 'thief', leaseMs: 60_000, kinds: ['stolen'] });
          await waitFor(async () => context.signal.aborted);
          aborted = true;
          await expect(context.progress('storing', 0.9)).rejects.toMatchObject({ code: 'JOB_LEASE_LOST' });
        },
      },
      leaseMs: 150,
    });
    const job = await enqueueJob(db, { kind: 'stolen' });
    expect(await worker.runOnce()).toBe(true);
    expect(aborted).toBe(true);
    expect(thief).not.toBeNull();
    expect(await getJob(db, job.id)).toMatchObject({ status: 'RUNNING', attempts: 2, locked_by: 'thief' });
  });
});
