/**
 * Figures in text Saksi read by OCR (docs/engine.md, "OCR of scanned pages"): a budget answer states
 * one only when the amount in words beside it confirms its digits (figures.ts, figure-table.ts).
 */

import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { understand } from '../../answer/understand.js';
import type { Collection } from '../../collections.js';
import type { Engine } from '../../engine.js';
import { budgetFigureClaims } from './answer.js';
import { indexBudgetFigures } from './figure-table.js';
import { readBudgetFigures } from './figures.js';

/** UU 28/2022 (APBN 2023), two clauses as printed: the deficit with its amount in words, revenue without. */
const WITH_WORDS =
  'Dalam Tahun Anggaran 2023 terdapat defisit anggaran sebesar Rp598.151.433.061.000,00 (lima ratus sembilan puluh delapan triliun seratus lima puluh satu miliar empat ratus tiga puluh tiga juta enam puluh satu ribu rupiah).';
const DIGITS_ONLY =
  'Anggaran Pendapatan Negara Tahun Anggaran 2023 direncanakan sebesar Rp2.463.024.911.395.000,00.';

describe('readBudgetFigures with ocr', () => {
  it('keeps a figure whose words confirm its digits, and flags one without words as garbled', () => {
    const [confirmed] = readBudgetFigures(WITH_WORDS, { fiscalYear: 2023, ocr: true });
    expect(confirmed).toMatchObject({ amount: '598151433061000', words_checked: true, garbled: false });
    const [unconfirmed] = readBudgetFigures(DIGITS_ONLY, { fiscalYear: 2023, ocr: true });
    expect(unconfirmed).toMatchObject({ words_checked: false, garbled: true, amount: null });
    // From a text layer the same digits stand on their own.
    const [typed] = readBudgetFigures(DIGITS_ONLY, { fiscalYear: 2023 });
    expect(typed).toMatchObject({ amount: '2463024911395000', garbled: false });
  });
});

describe('budget answers from OCR chunks', () => {
  let test: TestEngine;
  let engine: Engine;
  let apbn: Collection;
  let documentId: string;

  beforeAll(async () => {
    test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
    engine = test.engine;
    const text = [
      '# UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 28 TAHUN 2022 TENTANG ANGGARAN PENDAPATAN DAN BELANJA NEGARA TAHUN ANGGARAN 2023',
      '',
      'Pasal 2',
      '',
      DIGITS_ONLY,
      '',
      'Pasal 24',
      '',
      WITH_WORDS,
      '',
    ].join('\n');
    const result = await engine.ingest(
      'apbn-ocr',
      { bytes: new TextEncoder().encode(text), filename: 'uu-2022-28.md', fiscal_year: 2023 },
      { language: 'id', profile: { domain: 'budget' } },
    );
    documentId = result.document.id;
    apbn = await engine.collections.get('apbn-ocr');
  });

  afterAll(async () => {
    await test?.close();
  });

  const claimsFor = (question: string) =>
    budgetFigureClaims(engine.db, apbn, understand(question, { collectionLanguage: 'id' }), []);

  it('states a digits-only figure from a text layer, and not once its chunk is marked as read by OCR', async () => {
    expect(await claimsFor('Berapa pendapatan negara APBN 2023?')).toHaveLength(1);
    expect(await claimsFor('Berapa defisit anggaran APBN 2023?')).toHaveLength(1);

    // The same chunks as OCR would have stored them: confidence recorded, figures read again.
    await engine.db.transaction(async (tx) => {
      await tx.query('UPDATE chunks SET ocr_confidence = 0.93 WHERE document_id = $1', [documentId]);
      await indexBudgetFigures(tx, documentId);
    });
    const figures = await engine.db.query<{ measure: string; garbled: boolean; words_checked: boolean }>(
      'SELECT measure, garbled, words_checked FROM budget_figures WHERE document_id = $1 ORDER BY measure',
      [documentId],
    );
    expect(figures.rows).toEqual([
      { measure: 'defisit', garbled: false, words_checked: true },
      { measure: 'pendapatan_negara', garbled: true, words_checked: false },
    ]);
    // Revenue has no words to confirm its digits: no figure is stated. The deficit's words confirm it.
    expect(await claimsFor('Berapa pendapatan negara APBN 2023?')).toEqual([]);
    const [deficit] = await claimsFor('Berapa defisit anggaran APBN 2023?');
    expect(deficit?.composition?.template).toBe('budget.figure');
  });
});
