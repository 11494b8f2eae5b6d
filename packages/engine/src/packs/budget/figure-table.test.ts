import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WORKSPACE } from '../../collections.js';
import type { Engine } from '../../engine.js';
import { backfillBudgetFigures, budgetDocument, FIGURE_TABLE_VERSION } from './figure-table.js';

const corpus = path.resolve(import.meta.dirname, '../../../../../../shared/data/corpora/apbn-uu');
const uu2023 = new Uint8Array(readFileSync(path.join(corpus, 'uu-2022-28.md')));
const uu2019 = new Uint8Array(readFileSync(path.join(corpus, 'uu-2018-12.md')));
const budgetProfile = { domain: 'budget' as const };

let test: TestEngine;
let engine: Engine;

beforeAll(async () => {
  test = await openTestEngine();
  engine = test.engine;
});

afterAll(async () => {
  await test.close();
});

async function figuresOf(documentId: string) {
  const result = await engine.db.query<{
    chunk_id: string;
    collection_id: string;
    measure: string | null;
    fiscal_year: number | null;
    amount: string | null;
    garbled: boolean;
    span_start: number;
    span_end: number;
    span_text: string;
    text: string;
  }>(
    `SELECT f.chunk_id, f.collection_id, f.measure, f.fiscal_year, f.amount::text AS amount, f.garbled,
            f.span_start, f.span_end, f.span_text, c.text
       FROM budget_figures f JOIN chunks c ON c.id = f.chunk_id WHERE f.document_id = $1 ORDER BY c.position, f.span_start`,
    [documentId],
  );
  return result.rows;
}

describe('budgetDocument', () => {
  it('is a budget collection, or an Indonesian document with a fiscal year', () => {
    expect(
      budgetDocument({ language: 'en', profile: { domain: 'budget' } }, { title: 'x', fiscal_year: null }),
    ).toEqual({ budget: true, fiscalYear: null });
    expect(budgetDocument({ language: 'id', profile: {} }, { title: 'Catatan', fiscal_year: 2020 })).toEqual({
      budget: true,
      fiscalYear: 2020,
    });
    expect(
      budgetDocument(
        { language: 'id', profile: { domain: 'legal' } },
        {
          title: 'UNDANG-UNDANG … TENTANG ANGGARAN PENDAPATAN DAN BELANJA NEGARA TAHUN ANGGARAN 2O2O',
          fiscal_year: null,
        },
      ),
    ).toEqual({ budget: true, fiscalYear: 2020 });
    expect(
      budgetDocument(
        { language: 'id', profile: { domain: 'legal' } },
        { title: 'UU 22/2009', fiscal_year: null },
      ),
    ).toEqual({
      budget: false,
      fiscalYear: null,
    });
    expect(
      budgetDocument({ language: 'en', profile: null }, { title: 'Redux', fiscal_year: 2020 }).budget,
    ).toBe(false);
  });
});

describe('the figure table at ingestion', () => {
  let documentId: string;

  it('stores the figures of a budget document with its chunks, keyed to the chunk and the collection', async () => {
    const result = await engine.ingest(
      'apbn',
      { bytes: uu2023, filename: 'uu-2022-28.md', fiscal_year: 2023 },
      { language: 'id', profile: budgetProfile },
    );
    documentId = result.document.id;
    const collection = await engine.collections.get('apbn');
    const figures = await figuresOf(documentId);
    expect(figures.length).toBeGreaterThan(50);
    for (const figure of figures) {
      expect(figure.collection_id).toBe(collection.id);
      expect(figure.chunk_id.startsWith(`${documentId}-`)).toBe(true);
      expect(figure.text.slice(figure.span_start, figure.span_end)).toBe(figure.span_text);
    }
    const deficit = figures.filter((figure) => figure.measure === 'defisit' && !figure.garbled);
    expect(deficit.map((figure) => [figure.fiscal_year, figure.amount])).toEqual([[2023, '598151433061000']]);
    // Its own article misread ("Rp3.06 l. l 76…"), Belanja Negara is also stated cleanly in the education article.
    const spending = figures.filter((figure) => figure.measure === 'belanja_negara');
    expect(spending.map((figure) => figure.garbled)).toEqual([true, false]);
  });

  it('stores nothing for a document that is not a budget document', async () => {
    // A regulation stating amounts, for no fiscal year (an APBN law is recognized by its title's
    // "TAHUN ANGGARAN" now, wherever it is ingested).
    const tariff = [
      'PERATURAN MENTERI KEUANGAN REPUBLIK INDONESIA',
      'NOMOR 10/PMK.07/2015',
      'TENTANG',
      'TARIF LAYANAN PENGUJIAN',
      'DENGAN RAHMAT TUHAN YANG MAHA ESA',
      'MEMUTUSKAN:',
      'Pasal 1',
      'Tarif layanan pengujian ditetapkan sebesar Rp10.000,00 (sepuluh ribu rupiah), dan belanja pengujian paling banyak Rp2.000.000,00.',
      'Pasal 2',
      'Peraturan Menteri ini mulai berlaku pada tanggal diundangkan.',
    ].join('\n');
    const result = await engine.ingest(
      'statutes',
      { bytes: new TextEncoder().encode(tariff), filename: 'pmk-tarif.txt' },
      { language: 'id', profile: { domain: 'legal' } },
    );
    expect(await figuresOf(result.document.id)).toEqual([]);
  });

  it('stores the figures of a document ingested by a job, and of its copy into another collection', async () => {
    const submitted = await engine.submit(
      'apbn-jobs',
      { bytes: uu2019, filename: 'uu-2018-12.md' },
      { workspaceId: DEFAULT_WORKSPACE, profile: budgetProfile },
    );
    expect(submitted.deduplicated).toBe(false);
    expect(await figuresOf(submitted.document.id)).toEqual([]);
    const worker = engine.workers.start({ workerId: 'test-worker' });
    await engine.workers.stop();
    while (await worker.runOnce()) {
      // until the queue is empty
    }
    const ingested = await figuresOf(submitted.document.id);
    // No fiscal year given: the title's "TAHUN ANGGARAN 2019" is the year of clauses that name none.
    expect(ingested.find((figure) => figure.measure === 'cukai')).toMatchObject({
      fiscal_year: 2019,
      amount: '165501000000000',
      garbled: false,
    });

    // The same bytes into another budget collection of the workspace: chunks copied, figures read again.
    const copy = await engine.submit(
      'apbn-copy',
      { bytes: uu2019, filename: 'uu-2018-12.md' },
      { workspaceId: DEFAULT_WORKSPACE, profile: budgetProfile },
    );
    expect(copy.deduplicated).toBe(true);
    expect(copy.document.id).not.toBe(submitted.document.id);
    const copied = await figuresOf(copy.document.id);
    expect(copied.length).toBe(ingested.length);
    expect(copied.every((figure) => figure.chunk_id.startsWith(`${copy.document.id}-`))).toBe(true);
  });

  it('fills the table once for documents stored before it, and again only when the reading changes', async () => {
    const before = await engine.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM budget_figures');
    // A database from before migration 005: no figures, no record of a fill.
    await engine.db.query('DELETE FROM budget_figures');
    await engine.db.query(`DELETE FROM settings WHERE key = 'budget_figures'`);
    const filled = await backfillBudgetFigures(engine.db);
    expect(filled).toEqual({ documents: 4, figures: before.rows[0]!.n });
    const setting = await engine.db.query<{ value: unknown }>(
      `SELECT value FROM settings WHERE key = 'budget_figures'`,
    );
    expect(setting.rows[0]!.value).toEqual({ version: FIGURE_TABLE_VERSION });
    expect(await backfillBudgetFigures(engine.db)).toBeUndefined();
    const after = await engine.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM budget_figures');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('deletes a document’s figures with the document', async () => {
    await engine.documents.delete(documentId);
    expect(await figuresOf(documentId)).toEqual([]);
  });
});
