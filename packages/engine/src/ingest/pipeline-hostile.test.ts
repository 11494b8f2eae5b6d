/**
 * The CI subset of the hostile corpus (docs/security.md) through the engine's real ingestion on a real
 * database, as `saksi ingest` calls it: every file ends READY with all its chunks, or in a typed error
 * that leaves nothing behind. The upload route's run of the same files is in
 * packages/server/src/hostile-uploads.test.ts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { diskName, hostileBytes, hostileCorpus } from '@saksi/test-support/hostile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.js';
import { isEngineError } from '../errors.js';
import { isIngestError } from './errors.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const sharedFiles = path.resolve(repoRoot, '../shared/data/files');
const subset = hostileCorpus(existsSync(sharedFiles) ? { sharedFiles } : {}).filter((hostile) => hostile.ci);

let test: TestEngine;
let engine: Engine;

beforeAll(async () => {
  test = await openTestEngine();
  engine = test.engine;
});

afterAll(async () => {
  await test?.close();
});

async function count(sql: string, params: unknown[] = []): Promise<number> {
  return (await engine.db.query<{ n: number }>(sql, params)).rows[0]!.n;
}

/** What the database holds: documents, chunks, chunks of documents that are not READY, jobs still running. */
async function state() {
  return {
    documents: await count('SELECT count(*)::integer AS n FROM documents'),
    chunks: await count('SELECT count(*)::integer AS n FROM chunks'),
    orphanChunks: await count(
      `SELECT count(*)::integer AS n FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.status <> 'READY'`,
    ),
    running: await count(`SELECT count(*)::integer AS n FROM jobs WHERE status = 'RUNNING'`),
  };
}

/** The most precise code of a failure: the parser's IngestError code, else the engine's; anything else is a crash. */
function failureCode(error: unknown): string {
  if (isEngineError(error)) return isIngestError(error.cause) ? error.cause.code : error.code;
  if (isIngestError(error)) return error.code;
  throw error;
}

describe('hostile files through engine.ingest', () => {
  it.each(subset.map((hostile) => [hostile.id, hostile] as const))('%s', async (_id, hostile) => {
    const before = await state();
    let outcome: string;
    try {
      // The name `saksi ingest` would pass: the file's name on disk (the upload route gets the raw one).
      const filename = diskName(hostile);
      const result = await engine.ingest('hostile', { bytes: hostileBytes(hostile), filename });
      expect(result.deduplicated).toBe(false);
      const document = result.document;
      expect(document.status).toBe('READY');
      expect(document.chunk_count).toBeGreaterThan(0);
      expect(
        await count('SELECT count(*)::integer AS n FROM chunks WHERE document_id = $1', [document.id]),
      ).toBe(document.chunk_count);
      expect(document.filename).toBe(filename);
      const texts = await engine.db.query<{ text: string }>(
        'SELECT text FROM chunks WHERE document_id = $1',
        [document.id],
      );
      for (const forbidden of hostile.forbidden ?? []) {
        for (const row of texts.rows)
          expect(row.text, `${hostile.id} keeps ${forbidden}`).not.toContain(forbidden);
      }
      expect(await state()).toEqual({
        ...before,
        documents: before.documents + 1,
        chunks: before.chunks + document.chunk_count,
      });
      outcome = 'ingested';
    } catch (error) {
      outcome = failureCode(error);
      expect((error as Error).message).not.toMatch(/\n\s+at |\.ts:\d+/);
      // Nothing half-written: no document, no chunk, no job left running.
      expect(await state()).toEqual(before);
    }
    expect(hostile.expect, `${hostile.id} ended in ${outcome}`).toContain(outcome);
    // YAML frontmatter with __proto__ keys must not reach Object.prototype.
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('still ingests an ordinary file afterwards', async () => {
    const result = await engine.ingest('hostile', {
      bytes: new TextEncoder().encode(
        '# Catatan akhir\n\nSetelah berkas-berkas jahat, berkas biasa tetap masuk.\n',
      ),
      filename: 'akhir.md',
    });
    expect(result.document.status).toBe('READY');
    expect((await state()).orphanChunks).toBe(0);
  });
});
