/**
 * The figure table (migration 005): the figures of each budget document's chunks (figures.ts),
 * written in the transaction that stores the chunks — by synchronous and job ingestion and by the
 * copy a dedupe makes into another collection — and filled once at start-up for documents stored
 * before the table existed (or before the reading last changed, {@link FIGURE_TABLE_VERSION}).
 *
 * A budget document is one in a collection whose profile says `domain: "budget"`, or an Indonesian
 * document with a fiscal year (given at ingestion, or named by its title: "… TAHUN ANGGARAN 2023").
 */
import type { Database, Queryable } from '../../db/database.js';
import type { LegalRef } from '../../types.js';
import { type BudgetFigure, fiscalYearOfTitle, readBudgetFigures } from './figures.js';

/** Bumped when figures are read differently: start-up then reads every budget document again. */
export const FIGURE_TABLE_VERSION = 1;

/** The `settings` key recording which version filled the table. */
const SETTING = 'budget_figures';
/** Serializes start-up fills of several processes sharing one PostgreSQL database. */
const FILL_LOCK = 727375;
const COLUMNS = 15;
const ROWS_PER_INSERT = 200;

/** Whether a document's figures belong in the table, and the fiscal year of its clauses that name none. */
export function budgetDocument(
  collection: { language: string; profile: Record<string, unknown> | null },
  document: { title: string; fiscal_year: number | null },
): { budget: boolean; fiscalYear: number | null } {
  const fiscalYear = document.fiscal_year ?? fiscalYearOfTitle(document.title) ?? null;
  const budget =
    collection.profile?.['domain'] === 'budget' || (collection.language === 'id' && fiscalYear !== null);
  return { budget, fiscalYear };
}

/**
 * (Re)writes the figures of one stored document from its chunks; returns how many it stored (0 for
 * a document that is not a budget document). Call it inside the transaction that stores the chunks.
 */
export async function indexBudgetFigures(tx: Queryable, documentId: string): Promise<number> {
  await tx.query('DELETE FROM budget_figures WHERE document_id = $1', [documentId]);
  const found = await tx.query<{
    title: string;
    fiscal_year: number | null;
    collection_id: string;
    language: string;
    profile: Record<string, unknown> | null;
  }>(
    `SELECT d.title, d.fiscal_year, d.collection_id, c.language, c.profile
       FROM documents d JOIN collections c ON c.id = d.collection_id WHERE d.id = $1`,
    [documentId],
  );
  const document = found.rows[0];
  if (!document) return 0;
  const { budget, fiscalYear } = budgetDocument(document, document);
  if (!budget) return 0;
  const chunks = await tx.query<{ id: string; text: string; legal: LegalRef | null; ocr: boolean }>(
    'SELECT id, text, legal, ocr_confidence IS NOT NULL AS ocr FROM chunks WHERE document_id = $1 ORDER BY position',
    [documentId],
  );
  const rows: { chunkId: string; figure: BudgetFigure }[] = [];
  for (const chunk of chunks.rows) {
    // Figures read by OCR are stated only when their words confirm them (figures.ts).
    for (const figure of readBudgetFigures(chunk.text, { fiscalYear, legal: chunk.legal, ocr: chunk.ocr })) {
      if (figure.span.start > figure.amount_span.start || figure.amount_span.end > figure.span.end) continue;
      rows.push({ chunkId: chunk.id, figure });
    }
  }
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const batch = rows.slice(start, start + ROWS_PER_INSERT);
    const params: unknown[] = [];
    const values = batch.map(({ chunkId, figure }, row) => {
      params.push(
        chunkId,
        documentId,
        document.collection_id,
        figure.fiscal_year,
        figure.measure,
        figure.label,
        figure.amount,
        figure.span.start,
        figure.span.end,
        figure.span.text,
        figure.amount_span.start,
        figure.amount_span.end,
        figure.words_checked,
        figure.garbled,
        figure.primary,
      );
      const base = row * COLUMNS;
      return `(${Array.from({ length: COLUMNS }, (_, index) => `$${base + index + 1}`).join(', ')})`;
    });
    await tx.query(
      `INSERT INTO budget_figures (chunk_id, document_id, collection_id, fiscal_year, measure, label, amount,
         span_start, span_end, span_text, amount_start, amount_end, words_checked, garbled, primary_statement)
       VALUES ${values.join(', ')}`,
      params,
    );
  }
  return rows.length;
}

/**
 * Fills the table for every stored budget document, once per {@link FIGURE_TABLE_VERSION}: a
 * database whose table is current costs one query. Returns what it read, or undefined when the
 * table was already current.
 */
export async function backfillBudgetFigures(
  db: Database,
): Promise<{ documents: number; figures: number } | undefined> {
  const isCurrent = async (q: Queryable) => {
    const setting = await q.query<{ value: { version?: unknown } | null }>(
      'SELECT value FROM settings WHERE key = $1',
      [SETTING],
    );
    return setting.rows[0]?.value?.version === FIGURE_TABLE_VERSION;
  };
  if (await isCurrent(db)) return undefined;
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${FILL_LOCK})`);
    if (await isCurrent(tx)) return undefined;
    const documents = await tx.query<{ id: string }>(
      `SELECT d.id FROM documents d JOIN collections c ON c.id = d.collection_id
        WHERE d.status IN ('READY', 'ARCHIVED') AND (c.profile->>'domain' = 'budget' OR c.language = 'id')
        ORDER BY d.created_at, d.id`,
    );
    await tx.query('DELETE FROM budget_figures');
    let figures = 0;
    for (const document of documents.rows) figures += await indexBudgetFigures(tx, document.id);
    await tx.query(
      `INSERT INTO settings (key, value) VALUES ($1, $2)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [SETTING, JSON.stringify({ version: FIGURE_TABLE_VERSION })],
    );
    return { documents: documents.rows.length, figures };
  });
}
