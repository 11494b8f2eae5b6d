/**
 * The fiscal year a budget document that is no regulation names in its heading (an annex, an
 * allocation table), recorded as its metadata at ingestion so retrieval keeps documents of different
 * years apart (docs/engine.md, "Regulations", "Identity").
 */

/** How far into a document its heading may name the fiscal year it is about. */
const LEADING_CHARS = 600;
/** "TAHUN ANGGARAN 2017", "TA 2017", "TA2017"; an OCR'd "T" ("1'AHUN") is read past. */
const LEADING_FISCAL_YEAR = /(?:AHUN\s+ANGGARAN|(?<![\p{L}\d])T\.?\s?A\.?)\s*((?:19|20)\d\d)(?!\d)/iu;

/**
 * The fiscal year a budget document's heading names — a regulation's annex ("LAMPIRAN … TAHUN
 * ANGGARAN 2013") or an allocation table ("RINCIAN ALOKASI … TA 2017") — read from its title and
 * its first {@link LEADING_CHARS} characters. Undefined when they name none, or more than one.
 */
export function leadingFiscalYear(title: string, text: string): number | undefined {
  const head = `${title}\n${text.slice(0, LEADING_CHARS)}`;
  const years = new Set(
    [...head.matchAll(new RegExp(LEADING_FISCAL_YEAR.source, 'giu'))].map((match) => Number(match[1])),
  );
  return years.size === 1 ? [...years][0] : undefined;
}
