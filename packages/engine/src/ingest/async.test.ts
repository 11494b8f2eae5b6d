import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.js';
import { createWebhook } from '../webhooks.js';
import { createWorkspace, DEFAULT_WORKSPACE } from '../workspaces.js';

const shared = path.resolve(import.meta.dirname, '../../../../../shared/data');
const pdf = new Uint8Array(
  readFileSync(path.join(shared, 'corpora/pmk-transfer-pdf/PMK_Nomor_16_Tahun_2014.pdf')),
);
const docx = new Uint8Array(readFileSync(path.join(shared, 'files/docx-samples/mammoth/tables.docx')));

let test: TestEngine;
let engine: Engine;

beforeAll(async () => {
  test = await openTestEngine();
  engine = test.engine;
  await createWorkspace(engine.db, { id: 'wsp_other', name: 'Other' });
  await engine.collections.ensure('docs', { workspaceId: DEFAULT_WORKSPACE });
});

afterAll(async () => {
  await test.close();
});

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const result = await engine.db.query<{ n: number }>(sql, params);
  return result.rows[0]!.n;
}

/** Runs queued jobs until none is left. */
async function drain(): Promise<void> {
  const worker = engine.workers.start({ workerId: 'test-worker' });
  await engine.workers.stop();
  while (await worker.runOnce()) {
    // keep going
  }
}

describe('asynchronous ingestion', () => {
  it('answers PENDING with a queued job, then the worker makes the document READY', async () => {
    const submitted = await engine.submit(
      'docs',
      { bytes: pdf, filename: 'pmk-16-2014.pdf', document_type: 'PMK' },
      { workspaceId: DEFAULT_WORKSPACE },
    );
    expect(submitted.deduplicated).toBe(false);
    expect(submitted.document.status).toBe('PENDING');
    expect(submitted.job.status).toBe('QUEUED');
    expect(
      await count('SELECT count(*)::integer AS n FROM chunks WHERE document_id = $1', [
        submitted.document.id,
      ]),
    ).toBe(0);

    await drain();
    const ready = await engine.documents.get(submitted.document.id, { workspaceId: DEFAULT_WORKSPACE });
    expect(ready.status).toBe('READY');
    expect(ready.stage).toBe('done');
    expect(ready.progress).toBe(1);
    expect(ready.root).toMatch(/^[0-9a-f]{64}$/);
    expect(ready.chunk_count).toBeGreaterThan(0);
    expect(ready.mime).toBe('application/pdf');
    expect(ready.document_type).toBe('PMK');
    expect(await count('SELECT count(*)::integer AS n FROM chunks WHERE document_id = $1', [ready.id])).toBe(
      ready.chunk_count,
    );
    const job = await engine.db.query<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM jobs WHERE id = $1',
      [submitted.job.id],
    );
    expect(job.rows[0]).toEqual({ status: 'SUCCEEDED', attempts: 1 });
  });

  it('the same bytes again in the same collection are instant: READY, same document, no job to run', async () => {
    const again = await engine.submit(
      'docs',
      { bytes: pdf, filename: 'copy.pdf' },
      { workspaceId: DEFAULT_WORKSPACE },
    );
    expect(again.deduplicated).toBe(true);
    expect(again.document.status).toBe('READY');
    expect(again.job.status).toBe('SUCCEEDED');
    expect(await count("SELECT count(*)::integer AS n FROM jobs WHERE status = 'QUEUED'")).toBe(0);
  });

  it('in another collection of the workspace the chunks are copied without parsing, with the same root', async () => {
    const original = (await engine.documents.list({ collection: 'docs' })).items[0]!;
    await engine.collections.ensure('archive', { workspaceId: DEFAULT_WORKSPACE });
    const copy = await engine.submit(
      'archive',
      { bytes: pdf, filename: 'pmk.pdf' },
      { workspaceId: DEFAULT_WORKSPACE },
    );
    expect(copy.deduplicated).toBe(true);
    expect(copy.document.id).not.toBe(original.id);
    expect(copy.document.status).toBe('READY');
    expect(copy.document.root).toBe(original.root);
    expect(copy.document.chunk_count).toBe(original.chunk_count);
    expect(
      await count('SELECT count(*)::integer AS n FROM chunks WHERE document_id = $1', [copy.document.id]),
    ).toBe(original.chunk_count);
    const hits = await engine.query('archive', { question: 'dana alokasi khusus' });
    expect(hits.results.length).toBeGreaterThan(0);
    expect(hits.results.every((result) => result.document_id === copy.document.id)).toBe(true);
  });

  it('another workspace shares the stored blob but parses its own copy and sees nothing of the first', async () => {
    await engine.collections.ensure('docs', { workspaceId: 'wsp_other' });
    const theirs = await engine.submit(
      'docs',
      { bytes: pdf, filename: 'pmk.pdf' },
      { workspaceId: 'wsp_other' },
    );
    expect(theirs.deduplicated).toBe(false);
    expect(theirs.document.status).toBe('PENDING');
    expect(await count('SELECT count(*)::integer AS n FROM blobs WHERE size = $1', [pdf.length])).toBe(1);
    await drain();
    const ready = await engine.documents.get(theirs.document.id, { workspaceId: 'wsp_other' });
    expect(ready.status).toBe('READY');
    await expect(
      engine.documents.get(theirs.document.id, { workspaceId: DEFAULT_WORKSPACE }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const listed = await engine.documents.list({ workspaceId: 'wsp_other' });
    expect(listed.items.map((item) => item.id)).toEqual([theirs.document.id]);
  });

  it('a DOCX with tables becomes READY with table HTML', async () => {
    const submitted = await engine.submit(
      'docs',
      { bytes: docx, filename: 'tables.docx' },
      { workspaceId: DEFAULT_WORKSPACE },
    );
    await drain();
    const ready = await engine.documents.get(submitted.document.id);
    expect(ready.error).toBeNull();
    expect(ready.status).toBe('READY');
    const tables = await count(
      'SELECT count(*)::integer AS n FROM chunks WHERE document_id = $1 AND table_html IS NOT NULL',
      [ready.id],
    );
    expect(tables).toBeGreaterThan(0);
  });

  it('a malformed file ends FAILED with its reason, the job FAILED, and document.failed queued for webhooks', async () => {
    await createWebhook(engine.db, {
      workspaceId: 'wsp_other',
      url: 'http://127.0.0.1:9/hook',
      allowPrivate: true,
    });
    const broken = new TextEncoder().encode('%PDF-1.7\nthis is not really a PDF');
    const submitted = await engine.submit(
      'docs',
      { bytes: broken, filename: 'broken.pdf' },
      { workspaceId: 'wsp_other' },
    );
    await drain();
    const failed = await engine.documents.get(submitted.document.id, { workspaceId: 'wsp_other' });
    expect(failed.status).toBe('FAILED');
    expect(failed.error?.code).toBe('MALFORMED_FILE');
    expect(failed.error?.message.length).toBeGreaterThan(0);
    const job = await engine.db.query<{ status: string; error: { code: string } }>(
      'SELECT status, error FROM jobs WHERE id = $1',
      [submitted.job.id],
    );
    expect(job.rows[0]?.status).toBe('FAILED');
    expect(await count('SELECT count(*)::integer AS n FROM chunks WHERE document_id = $1', [failed.id])).toBe(
      0,
    );
    const events = await engine.db.query<{ event: string; payload: { data: { document: { id: string } } } }>(
      "SELECT event, payload FROM webhook_deliveries WHERE workspace_id = 'wsp_other' ORDER BY created_at",
    );
    expect(events.rows.map((row) => row.event)).toEqual(['document.failed']);
    expect(events.rows[0]?.payload.data.document.id).toBe(failed.id);
  });

  it('enforces the workspace quotas: document size, pages and storage', async () => {
    await engine.db.query(
      `UPDATE workspaces SET quotas = '{"max_document_bytes": 1000}' WHERE id = 'wsp_other'`,
    );
    await expect(
      engine.submit('docs', { bytes: pdf, filename: 'big.pdf' }, { workspaceId: 'wsp_other' }),
    ).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED', status: 413 });
    await engine.db.query(
      `UPDATE workspaces SET quotas = '{"max_storage_bytes": 30000}' WHERE id = 'wsp_other'`,
    );
    await expect(
      engine.submit('docs', { bytes: docx, filename: 'more.docx' }, { workspaceId: 'wsp_other' }),
    ).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
    await engine.db.query(`UPDATE workspaces SET quotas = '{"max_pages": 1}' WHERE id = 'wsp_other'`);
    const fourPages = new Uint8Array(
      readFileSync(path.join(shared, 'corpora/pmk-transfer-pdf/2011_PMK_186.pdf')),
    );
    const submitted = await engine.submit(
      'docs',
      { bytes: fourPages, filename: 'long.pdf' },
      { workspaceId: 'wsp_other' },
    );
    await drain();
    const failed = await engine.documents.get(submitted.document.id, { workspaceId: 'wsp_other' });
    expect(failed.status).toBe('FAILED');
    expect(failed.error?.code).toBe('QUOTA_EXCEEDED');
  });
});
