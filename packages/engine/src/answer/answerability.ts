/**
 * Answerability: refusing what the documents cannot answer, in the question's language, and saying
 * what is there instead (docs/engine.md, "Answering").
 *
 * - Before searching: a slot the collection cannot satisfy — a fiscal year none of its documents
 *   covers — is a refusal that lists the years it has ("APBN 2021 tidak ada di koleksi ini; tersedia:
 *   2015, 2017–2020, 2022, 2023").
 * - After checking: when no claim's evidence covers the question's distinctive content
 *   (relevance.ts), the answer is a refusal that names the closest passages as related, never quotes
 *   them as the answer.
 */

import { availableFiscalYears } from '../answer-storage.js';
import type { Collection } from '../collections.js';
import type { Queryable } from '../db/database.js';
import { NOT_FOUND_TEXT } from './extractive.js';
import type { Language } from './stem.js';
import type { QuestionPlan } from './understand.js';

export interface Refusal {
  reason: 'SLOT_UNAVAILABLE' | 'NOT_COVERED' | 'NO_EVIDENCE' | 'INVALID_QUESTION';
  /**
   * The provision that states the figure asked in a form OCR misread ("Pasal 3 UU 20/2019"): the
   * refusal says so instead of listing related passages.
   */
  unreadable?: string;
  /** What the collection has instead (fiscal years), as shown to the reader. */
  available?: string[];
  /** The asked fiscal years the collection lacks (not certified: the text names them). */
  missing?: number[];
}

/**
 * Years the question asks about as fiscal years: a year that numbers a law ("UU 17/2003", "Nomor 17
 * Tahun 2003") is the law's name, not a budget year.
 */
export function fiscalYearsAsked(question: string, years: readonly number[]): number[] {
  return years.filter((year) => {
    const naming = new RegExp(`(?:/\\s*|(?:nomor|no\\.?)\\s*\\d+\\s+tahun\\s+)${year}(?!\\d)`, 'iu');
    return !naming.test(question);
  });
}

/** Years as a reader writes them: runs of three or more as ranges ("2015, 2017–2020, 2022"). */
export function formatYears(years: readonly number[]): string[] {
  const sorted = [...new Set(years)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    if (j - i >= 2) out.push(`${sorted[i]}–${sorted[j]}`);
    else for (let k = i; k <= j; k++) out.push(String(sorted[k]));
    i = j + 1;
  }
  return out;
}

/**
 * The refusal for a fiscal year the collection has no document for, or undefined. Collections
 * without fiscal years (statutes, documentation) have no such slot.
 */
export async function slotRefusal(
  db: Queryable,
  collection: Pick<Collection, 'id'>,
  plan: Pick<QuestionPlan, 'normalized' | 'slots'>,
  fiscalYear?: number,
): Promise<Refusal | undefined> {
  const asked = fiscalYear !== undefined ? [fiscalYear] : fiscalYearsAsked(plan.normalized, plan.slots.years);
  if (asked.length === 0) return undefined;
  const available = await availableFiscalYears(db, collection.id);
  if (available.length === 0) return undefined;
  if (asked.every((year) => available.includes(year))) return undefined;
  return {
    reason: 'SLOT_UNAVAILABLE',
    available: formatYears(available),
    missing: asked.filter((year) => !available.includes(year)),
  };
}

const TEXT = {
  id: {
    invalid: 'Pertanyaan ini tidak berisi kata yang bisa dicari di dokumen.',
    missingYears: (years: string, available: string) =>
      `Dokumen tahun ${years} tidak ada di koleksi ini; tersedia: ${available}.`,
    related: 'Bagian yang paling dekat (bukan jawaban):',
    unreadable: (place: string) =>
      `Angka ini dinyatakan dalam ${place}, tetapi teks hasil pindaian (OCR) angkanya tidak terbaca dengan pasti, jadi tidak dikutip. Periksa dokumen aslinya.`,
    and: ' dan ',
  },
  en: {
    invalid: 'This question has no words that can be searched for in the documents.',
    missingYears: (years: string, available: string) =>
      `No document for ${years} is in this collection; available: ${available}.`,
    related: 'Closest passages (not an answer):',
    unreadable: (place: string) =>
      `This figure is stated in ${place}, but the scanned (OCR) text of the amount cannot be read reliably, so it is not quoted. Please check the original document.`,
    and: ' and ',
  },
} as const;

/** Where a related passage is: its citation label, or its document and nearest heading. */
function placeOf(source: {
  citation: { label?: string; document_title: string; section_path?: string[] };
}): string {
  if (source.citation.label) return source.citation.label;
  const heading = source.citation.section_path?.at(-1);
  return heading ? `${source.citation.document_title} — ${heading}` : source.citation.document_title;
}

/** The refusal the reader sees, in the question's language. */
export function refusalText(
  refusal: Refusal,
  plan: Pick<QuestionPlan, 'language' | 'normalized' | 'slots'>,
  related: readonly { citation: { label?: string; document_title: string; section_path?: string[] } }[],
): string {
  const words = TEXT[plan.language as Language];
  switch (refusal.reason) {
    case 'INVALID_QUESTION':
      return words.invalid;
    case 'SLOT_UNAVAILABLE': {
      const years = refusal.missing ?? fiscalYearsAsked(plan.normalized, plan.slots.years);
      return words.missingYears(years.join(words.and), (refusal.available ?? []).join(', '));
    }
    default: {
      if (refusal.unreadable) return words.unreadable(refusal.unreadable);
      const places = [...new Set(related.slice(0, 3).map(placeOf))];
      const notFound = NOT_FOUND_TEXT[plan.language as Language];
      return places.length > 0 ? `${notFound} ${words.related} ${places.join('; ')}.` : notFound;
    }
  }
}
