/**
 * A worker dies mid-job and the job still finishes exactly once (docs/api.md, "4. Deduplication, jobs and
 * workers").
 *
 * 1. In-process, on every database: worker A claims an ingestion job and stops renewing its lease (as
 *    a frozen or killed process would); worker B takes the job over when the lease runs out and
 *    commits it; then A wakes up and tries to commit too — its transaction is refused and rolled back.
 * 2. Across processes, on PostgreSQL (the CI's second pass): a real worker process is killed with
 *    SIGKILL while it is embedding; a second process finishes the job.
 * Either way: one READY document, its chunks once, one ingest audit entry, one document.ready event.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { openTestEngine, TEST_DATABASE_URL } from '@saksi/test-support/engine-fixture';
import { afterAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.js';
import { ingestJobHandler } from '../ingest/async.js';
import { createWebhook } from '../webhooks.js';
import { DEFAULT_WORKSPACE } from '../workspaces.js';
import { claimJob } from './queue.js';

/** A Markdown document of `sections` sections: big enough that ingesting it takes a while. */
function bigDocument(sections: number): Uint8Array {
  const parts: string[] = ['# Laporan Keuangan Daerah\n'];
  for (let index = 0; index < sections; index++) {
    parts.push(
      `\n## Bagian ${index + 1}\n\nPada tahun anggaran ${2000 + (index % 25)}, pemerintah daerah nomor ${index} ` +
        `mengalokasikan Rp${(index + 1) * 1000}.000 untuk program pembangunan jalan, jembatan dan irigasi. ` +
        `Realisasi belanja mencapai ${50 + (index % 50)} persen dari pagu, dengan sisa lebih pembiayaan ` +
        `anggaran sebesar Rp${index * 7}.500 yang dicatat pada laporan realisasi semester kedua.\n`,
    );
  }
  return new TextEncoder().encode(parts.join(''));
}

async function counts(engine: Engine, documentId: string) {
  const one = async (sql: string) => (await engine.db.query<{ n: number }>(sql, [documentId])).rows[0]!.n;
  return {
    chunks: await one('SELECT count(*)::integer AS n FROM chunks WHERE document_id = $1'),
    distinctPositions: await one(
      'SELECT count(DISTINCT position)::integer AS n FROM chunks WHERE document_id = $1',
    ),
    audits: await one(
      `SELECT count(*)::integer AS n FROM audit_log WHERE action = 'document.ingest' AND target = $1`,
    ),
    events: await one(
      `SELECT count(*)::integer AS n FROM webhook_deliveries WHERE event = 'document.ready' AND payload->'data'->'document'->>'id' = $1`,
    ),
  };
}

describe('a worker that dies mid-job', () => {
  it('loses the job to another worker when its lease runs out, and its late commit is refused', async () => {
    const test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
    const { engine } = test;
    try {
      await createWebhook(engine.db, {
        workspaceId: DEFAULT_WORKSPACE,
        url: 'http://127.0.0.1:9/hook',
        allowPrivate: true,
      });
      await engine.collections.ensure('laporan', { workspaceId: DEFAULT_WORKSPACE });
      const submitted = await engine.submit(
        'laporan',
        { bytes: bigDocument(200), filename: 'laporan.md' },
        { workspaceId: DEFAULT_WORKSPACE },
      );
      const handler = ingestJobHandler({
        embedding: engine.embedding,
        quotas: (id) => engine.ingestion.quotas(id),
      });
      // Worker A claims the job with a short lease, then "freezes": it never renews the lease.
      const first = await claimJob(engine.db, { workerId: 'worker-a', leaseMs: 200 });
      expect(first?.id).toBe(submitted.job.id);
      await new Promise((resolve) => setTimeout(resolve, 400));
      // Worker B takes the expired job over and runs it to completion.
      const second = await claimJob(engine.db, { workerId: 'worker-b', leaseMs: 30_000 });
      expect(second?.id).toBe(submitted.job.id);
      expect(second?.attempts).toBe(2);
      const controller = new AbortController();
      const context = (job: typeof second) => ({
        db: engine.db,
        signal: controller.signal,
        progress: async () => undefined,
        job,
      });
      await handler(second!, context(second));
      // Worker A wakes up and finishes its (stale) run: its commit must not happen.
      await expect(handler(first!, context(first))).rejects.toMatchObject({ code: 'JOB_LEASE_LOST' });

      const document = await engine.documents.get(submitted.document.id);
      expect(document.status).toBe('READY');
      const job = await engine.db.query<{ status: string; attempts: number; locked_by: string }>(
        'SELECT status, attempts, locked_by FROM jobs WHERE id = $1',
        [submitted.job.id],
      );
      expect(job.rows[0]).toMatchObject({ status: 'SUCCEEDED', attempts: 2, locked_by: 'worker-b' });
      expect(await counts(engine, document.id)).toEqual({
        chunks: document.chunk_count,
        distinctPositions: document.chunk_count,
        audits: 1,
        events: 1,
      });
    } finally {
      await test.close();
    }
  }, 120_000);
});

describe.skipIf(!TEST_DATABASE_URL)('a worker process killed with SIGKILL (PostgreSQL)', () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
  });

  function startWorker(databaseUrl: string, keysDir: string): ChildProcess {
    const child = spawn(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        path.resolve(import.meta.dirname, '../../test/worker-process.ts'),
      ],
      {
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          SAKSI_KEYS_DIR: keysDir,
          SAKSI_ANCHOR: 'none',
          SAKSI_DEMO: '0',
          SAKSI_JOB_LEASE_SECONDS: '2',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    children.push(child);
    return child;
  }

  it('finishes the job exactly once in the next worker process', async () => {
    const test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
    const { engine } = test;
    const databaseUrl = engine.config.databaseUrl!;
    try {
      await createWebhook(engine.db, {
        workspaceId: DEFAULT_WORKSPACE,
        url: 'http://127.0.0.1:9/hook',
        allowPrivate: true,
      });
      await engine.collections.ensure('laporan', { workspaceId: DEFAULT_WORKSPACE });
      const submitted = await engine.submit(
        'laporan',
        { bytes: bigDocument(3000), filename: 'laporan-besar.md' },
        { workspaceId: DEFAULT_WORKSPACE },
      );
      const keysDir = path.join(test.dataDir, 'keys');
      const doomed = startWorker(databaseUrl, keysDir);
      const stage = async () =>
        (
          await engine.db.query<{ status: string; stage: string | null; locked_by: string | null }>(
            'SELECT status, stage, locked_by FROM jobs WHERE id = $1',
            [submitted.job.id],
          )
        ).rows[0]!;
      const deadline = Date.now() + 60_000;
      for (;;) {
        const now = await stage();
        if (now.status === 'RUNNING' && now.stage === 'embedding') break;
        expect(now.status).not.toBe('SUCCEEDED');
        if (Date.now() > deadline)
          throw new Error(`the worker never reached embedding (${JSON.stringify(now)})`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      doomed.kill('SIGKILL');
      await once(doomed, 'exit');
      expect((await stage()).status).toBe('RUNNING');
      expect((await engine.documents.get(submitted.document.id)).status).toBe('PROCESSING');

      const survivor = startWorker(databaseUrl, keysDir);
      const finishBy = Date.now() + 120_000;
      let document = await engine.documents.get(submitted.document.id);
      while (document.status !== 'READY' && document.status !== 'FAILED') {
        if (Date.now() > finishBy) throw new Error(`the job never finished (${document.status})`);
        await new Promise((resolve) => setTimeout(resolve, 100));
        document = await engine.documents.get(submitted.document.id);
      }
      survivor.kill('SIGTERM');
      expect(document.status).toBe('READY');
      const job = await engine.db.query<{ status: string; attempts: number; locked_by: string }>(
        'SELECT status, attempts, locked_by FROM jobs WHERE id = $1',
        [submitted.job.id],
      );
      expect(job.rows[0]!.status).toBe('SUCCEEDED');
      expect(job.rows[0]!.attempts).toBe(2);
      expect(job.rows[0]!.locked_by).toBe(`worker-${survivor.pid}`);
      expect(await counts(engine, document.id)).toEqual({
        chunks: document.chunk_count,
        distinctPositions: document.chunk_count,
        audits: 1,
        events: 1,
      });
      await once(survivor, 'exit');
    } finally {
      await test.close();
    }
  }, 240_000);
});
