/**
 * A scanned statute through the real ingestion pipeline (pipeline.ts → extraction process → pdf.ts →
 * ocr.ts → chunks in PGlite): stored chunks record that they came from OCR and how sure it was,
 * progress reports the pages, and a cancelled ingestion leaves nothing behind.
 */

import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.js';
import {
  characterErrorRate,
  imageOnlyPdf,
  layoutPages,
  linesText,
  scanLines,
} from './__fixtures__/scanned-pdf.js';
import { statuteContent } from './__fixtures__/uu-pages.js';
import type { IngestProgress } from './pipeline.js';

let test: TestEngine;
let engine: Engine;

beforeAll(async () => {
  test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
  engine = test.engine;
});

afterAll(async () => {
  await test?.close();
});

const pages = layoutPages(statuteContent(), 2);
const source = pages.map(linesText).join('\n');
const scanned = imageOnlyPdf(pages.map((lines) => scanLines(lines, { speckle: 0.0005, skewDegrees: -0.25 })));

async function storedIn(collection: string) {
  const rows = await engine.db.query<{ documents: number; chunks: number }>(
    `SELECT (SELECT count(*)::integer FROM documents d JOIN collections c ON c.id = d.collection_id WHERE c.name = $1) AS documents,
            (SELECT count(*)::integer FROM chunks k JOIN collections c ON c.id = k.collection_id WHERE c.name = $1) AS chunks`,
    [collection],
  );
  return rows.rows[0]!;
}

describe('a scanned PDF through the pipeline', () => {
  it('stores OCR chunks with their confidence, reports OCR progress, and reads the statute back', async () => {
    const progress: IngestProgress[] = [];
    const result = await engine.ingest(
      'scans',
      { bytes: scanned, filename: 'uu-22-2009-scan.pdf' },
      { language: 'id', onProgress: (event) => progress.push(event) },
    );
    expect(result.document.status).toBe('READY');
    expect(result.document.pages).toBe(2);
    const chunks = await engine.db.query<{ text: string; page: number; ocr_confidence: number | null }>(
      'SELECT text, page, ocr_confidence FROM chunks WHERE document_id = $1 ORDER BY position',
      [result.document.id],
    );
    expect(chunks.rows.length).toBeGreaterThan(2);
    for (const chunk of chunks.rows) {
      expect(chunk.ocr_confidence).toBeGreaterThan(0.5);
      expect(chunk.ocr_confidence).toBeLessThanOrEqual(1);
    }
    const rate = characterErrorRate(source, chunks.rows.map((chunk) => chunk.text).join('\n'));
    console.info(`OCR through the pipeline: character error rate ${(rate * 100).toFixed(2)} %`);
    expect(rate).toBeLessThanOrEqual(0.1);
    expect(chunks.rows.some((chunk) => /^Pasal 5\b/m.test(chunk.text))).toBe(true);

    const ocr = progress.filter((event) => event.detail?.startsWith('OCR '));
    expect(ocr.map((event) => event.detail)).toEqual(['OCR 0/2 pages', 'OCR 1/2 pages', 'OCR 2/2 pages']);
    expect(
      ocr.every(
        (event) => event.stage === 'parsing' && event.progress > 0.05 - 1e-9 && event.progress <= 0.2 + 1e-9,
      ),
    ).toBe(true);

    // A text-layer chunk from the same collection records no OCR.
    const typed = await engine.ingest('scans', {
      bytes: new TextEncoder().encode('# Catatan\n\nPasal 1 berlaku sejak diundangkan.\n'),
      filename: 'catatan.md',
    });
    const plain = await engine.db.query<{ ocr_confidence: number | null }>(
      'SELECT ocr_confidence FROM chunks WHERE document_id = $1',
      [typed.document.id],
    );
    expect(plain.rows.map((row) => row.ocr_confidence)).toEqual(plain.rows.map(() => null));
  }, 240_000);

  it('cancels between pages: the ingestion rejects with the reason and nothing is stored', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled by the test');
    const error = await engine
      .ingest(
        'cancelled-scans',
        { bytes: scanned, filename: 'uu-22-2009-scan-cancelled.pdf' },
        {
          language: 'id',
          signal: controller.signal,
          onProgress: (event) => {
            if (event.detail === 'OCR 1/2 pages') controller.abort(reason);
          },
        },
      )
      .catch((cause: unknown) => cause);
    expect((error as { cause?: unknown }).cause ?? error).toBe(reason);
    expect(await storedIn('cancelled-scans')).toEqual({ documents: 0, chunks: 0 });
    // The extraction process was ended with its OCR worker; the next document starts a new one. A few
    // lines of page 2 are enough to show that (a whole page would only add seconds of recognition).
    const next = await engine.ingest(
      'cancelled-scans',
      { bytes: imageOnlyPdf([scanLines(pages[1]!.slice(0, 4))]), filename: 'page-2.pdf' },
      { language: 'id' },
    );
    expect(next.document.status).toBe('READY');
    const read = await engine.db.query<{ ocr_confidence: number | null }>(
      'SELECT ocr_confidence FROM chunks WHERE document_id = $1',
      [next.document.id],
    );
    expect(read.rows.length).toBeGreaterThan(0);
    for (const row of read.rows) expect(row.ocr_confidence).toBeGreaterThan(0.5);
  }, 240_000);
});
