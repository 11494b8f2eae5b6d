/**
 * The budget pack: Indonesian budget statutes (UU APBN and their annexes, allocation tables). At
 * ingestion it records the fiscal year an annex names (leading-fiscal-year.ts) and reads every
 * amount clause into the figure table (figures.ts, figure-table.ts); when answering it reads the
 * measures a question names (measures.ts) and answers figures, comparisons (answer.ts) and
 * macroeconomic assumptions (assumptions.ts) from the statute's own clauses, and names the clause a
 * refusal could not quote because OCR misread it.
 */
import type { DocumentPack } from '../pack.js';
import { DOCUMENT_PACK_SPECIFICATION } from '../pack.js';
import { budgetFigureClaims, unreadableFigure } from './answer.js';
import { assumptionClaims, misreadAssumption } from './assumptions.js';
import { backfillBudgetFigures, indexBudgetFigures } from './figure-table.js';
import { fiscalYearOfTitle } from './figures.js';
import { leadingFiscalYear } from './leading-fiscal-year.js';
import { measuresIn } from './measures.js';

export const budgetPack: DocumentPack = {
  specificationVersion: DOCUMENT_PACK_SPECIFICATION,
  id: 'budget',
  version: '1',
  description: 'Indonesian budget statutes (UU APBN, annexes, allocation tables): figures, assumptions',
  detect: (sample) =>
    typeof sample.metadata['fiscal_year'] === 'number' ||
    fiscalYearOfTitle(sample.title) !== undefined ||
    leadingFiscalYear(sample.title, sample.text) !== undefined,
  // "berapa defisit tahun 2020", "alokasinya berapa": no wording is added (the figure's own words find
  // it); the question is marked as a figure question, and its years are fiscal years.
  rewriteGroup: { name: 'budget', rules: [{ kind: 'figure', add: [] }], fiscalYears: true },
  // A budget document that is no regulation (an annex, an allocation table) records the fiscal year
  // its heading names, so retrieval keeps documents of different years apart.
  metadata: (document, structured) => {
    if (structured || document.metadata['fiscal_year'] !== undefined || document.mime === 'text/html')
      return undefined;
    const leading = document.blocks
      .slice(0, 8)
      .map((block) => block.text)
      .join('\n');
    const fiscalYear = leadingFiscalYear(document.title, leading);
    return fiscalYear !== undefined ? { fiscal_year: fiscalYear } : undefined;
  },
  indexDocument: indexBudgetFigures,
  backfill: backfillBudgetFigures,
  questionMeasures: measuresIn,
  claims: async ({ db, collection, plan, sources }) => {
    // A macroeconomic assumption (kurs, ICP, lifting) is stated in prose, not in the figure table.
    const assumptions = await assumptionClaims(db, collection, plan, sources);
    if (assumptions.claims.length > 0) return assumptions.claims;
    // The statute states it, but OCR misread the value: no other sentence stands in for it; the
    // refusal names where it is.
    if (assumptions.misread) return [];
    // A figure the statute states cleanly (digits and words agreeing) comes from the figure table
    // built at ingestion, composed as "Menurut <Pasal>, <clause> [n]".
    const figures = await budgetFigureClaims(db, collection, plan, sources);
    return figures.length > 0 ? figures : undefined;
  },
  unreadable: async (db, collection, plan) =>
    (await misreadAssumption(db, collection, plan)) ?? (await unreadableFigure(db, collection, plan)),
};
