/**
 * Budget questions (docs/engine.md, "Retrieval"): amounts and fiscal years on the query side.
 *
 * - {@link amountVariants}: a question that states an amount gets one more query variant with the
 *   amount's other spellings (Indonesian grouping with and without `Rp`, English grouping, the
 *   triliun/miliar form, and the amount in words as UU APBN texts spell it: "dua ratus dua puluh
 *   dua triliun …"), so the lexical arm finds `Rp222.506.897.630.000,00` from `222,5 triliun` when
 *   the exact figure is given, and the vector arm sees the words. The chunks' tsvector is left as it is.
 * - {@link yearComparison}: a question naming two or more fiscal years ("bandingkan 2015 dan 2016",
 *   "naik dari 2019 ke 2020", "2020 vs 2023") yields one question per year, each without the other
 *   years, and the fiscal-year filter to search it with.
 * - {@link retrieveAcrossYears}: runs the search once per year (filtered to that fiscal year's
 *   documents) and interleaves the results, so each year's document is among the top results.
 */
import { type Amount, parseAmounts } from '@saksi/proof';
import type { Collection } from '../collections.js';
import type { Queryable } from '../db/database.js';
import type { EmbeddingModel } from '../embed/model.js';
import { EngineError } from '../errors.js';
import {
  type QueryVariant,
  type RetrievedChunk,
  type RetrieveOptions,
  type RetrieveResult,
  retrieve,
} from './retrieve.js';

/** Weight of the amount-spellings variant in the weighted RRF. */
export const AMOUNT_VARIANT_WEIGHT = 1.0;

// ---------------------------------------------------------------------------------------------
// Amount spellings

/** `1234567` → `1.234.567` (Indonesian) or `1,234,567` (English). */
function group(whole: string, separator: string): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

const SCALES: { exponent: number; id: string; en: string }[] = [
  { exponent: 12, id: 'triliun', en: 'trillion' },
  { exponent: 9, id: 'miliar', en: 'billion' },
  { exponent: 6, id: 'juta', en: 'million' },
];

/** The other ways an amount is written (no duplicates, the original spelling excluded). */
export function amountSpellings(amount: Amount): string[] {
  const spellings: string[] = [];
  if (amount.unit === 'percent') {
    const [whole = '0', fraction] = amount.value.split('.');
    spellings.push(
      fraction ? `${whole},${fraction}%` : `${whole}%`,
      `${amount.value}%`,
      `${amount.value} persen`,
    );
  } else {
    const [whole = '0', fraction] = amount.value.split('.');
    const indonesian = group(whole, '.') + (fraction ? `,${fraction}` : '');
    const english = group(whole, ',') + (fraction ? `.${fraction}` : '');
    if (amount.approximate) {
      // A rounded figure: its scale-word forms (the exact figure is not known).
      const scale = SCALES.find((candidate) => whole.length > candidate.exponent);
      if (scale !== undefined) {
        const [head, tail] = splitAt(amount.value, scale.exponent);
        spellings.push(
          `Rp${group(head, '.')}${tail ? `,${tail}` : ''} ${scale.id}`,
          `${group(head, ',')}${tail ? `.${tail}` : ''} ${scale.en}`,
        );
      }
    } else {
      spellings.push(`Rp${indonesian},00`, indonesian, english);
    }
    if (!fraction) spellings.push(terbilang(BigInt(whole)));
  }
  const raw = amount.raw.trim();
  return [...new Set(spellings)].filter((spelling) => spelling !== raw && spelling !== '');
}

/** `value` divided by 10^exponent as [whole, fraction] digit strings (fraction without trailing zeros). */
function splitAt(value: string, exponent: number): [string, string] {
  const [whole = '0'] = value.split('.');
  const padded = whole.padStart(exponent + 1, '0');
  const head = padded.slice(0, padded.length - exponent).replace(/^0+(?=\d)/, '');
  const tail = padded.slice(padded.length - exponent).replace(/0+$/, '');
  return [head, tail];
}

const ONES = ['', 'satu', 'dua', 'tiga', 'empat', 'lima', 'enam', 'tujuh', 'delapan', 'sembilan'];
const GROUP_NAMES = ['', 'ribu', 'juta', 'miliar', 'triliun', 'kuadriliun'];

function belowThousand(n: number): string {
  const words: string[] = [];
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (hundreds === 1) words.push('seratus');
  else if (hundreds > 1) words.push(ONES[hundreds]!, 'ratus');
  if (rest === 10) words.push('sepuluh');
  else if (rest === 11) words.push('sebelas');
  else if (rest > 11 && rest < 20) words.push(ONES[rest - 10]!, 'belas');
  else {
    const tens = Math.floor(rest / 10);
    if (tens > 1) words.push(ONES[tens]!, 'puluh');
    if (rest % 10 > 0) words.push(ONES[rest % 10]!);
  }
  return words.join(' ');
}

/** An integer in Indonesian words, as regulations spell amounts ("seribu", "dua ratus lima puluh juta"). */
export function terbilang(value: bigint): string {
  if (value === 0n) return 'nol';
  const groups: number[] = [];
  for (let rest = value; rest > 0n; rest /= 1000n) groups.push(Number(rest % 1000n));
  if (groups.length > GROUP_NAMES.length) return value.toString();
  const words: string[] = [];
  for (let index = groups.length - 1; index >= 0; index--) {
    const n = groups[index]!;
    if (n === 0) continue;
    if (index === 1 && n === 1) words.push('seribu');
    else words.push(belowThousand(n), GROUP_NAMES[index]!);
  }
  return words.filter((word) => word !== '').join(' ');
}

/**
 * One more query variant for a question that states amounts: the question's amounts in their
 * other spellings (empty when the question states none, or only years and small counts).
 * Call it beside `rewriteQuery(...)` and append its result to the variants.
 */
export function amountVariants(question: string, weight = AMOUNT_VARIANT_WEIGHT): QueryVariant[] {
  const spellings: string[] = [];
  for (const amount of parseAmounts(question)) {
    if (!isBudgetAmount(amount)) continue;
    spellings.push(...amountSpellings(amount));
  }
  if (spellings.length === 0) return [];
  return [{ text: [...new Set(spellings)].join(' ; '), weight, kind: 'amount' }];
}

/** Amounts worth respelling: money, percentages, and numbers with a scale word or grouping (not years, not "Pasal 4"). */
function isBudgetAmount(amount: Amount): boolean {
  if (amount.unit !== 'number') return true;
  return amount.approximate || /[.,]\d{3}/.test(amount.raw);
}

// ---------------------------------------------------------------------------------------------
// Fiscal years

const YEAR = /(?<![\d.,])((?:19|20)\d\d)(?![\d.,]\d)/g;

/** One year of a comparison: the question restricted to that year and the filter to search with. */
export interface YearQuestion {
  year: number;
  question: string;
  fiscalYear: number;
}

export interface YearComparison {
  years: number[];
  perYear: YearQuestion[];
}

/**
 * The fiscal years a budget question compares, or undefined when it names fewer than two distinct
 * years ("bandingkan 2015 dan 2016", "naik dari 2019 ke 2020", "2020 vs 2023"). The per-year
 * question drops the other years and the comparison words, so it reads like a one-year question.
 */
export function yearComparison(question: string): YearComparison | undefined {
  const years: number[] = [];
  for (const match of question.matchAll(YEAR)) {
    const year = Number(match[1]);
    if (!years.includes(year)) years.push(year);
  }
  if (years.length < 2) return undefined;
  const perYear = years.map((year) => {
    let text = question;
    for (const other of years) {
      if (other === year) continue;
      text = text.replace(
        new RegExp(`(?:\\b(?:TA|tahun(?: anggaran)?|APBN(?:-P)?)\\s*)?(?<![\\d.,])${other}(?![\\d])`, 'gi'),
        ' ',
      );
    }
    text = text
      .replace(
        /\b(?:bandingkan|dibandingkan|dibanding|banding|versus|vs\.?|selisih(?:nya)?|naik|turun|dari|ke|dan|dengan|antara)\b/gi,
        ' ',
      )
      .replace(/\s+([,.?!])/g, '$1')
      .replace(/\s+/g, ' ')
      .trim();
    return { year, question: text, fiscalYear: year };
  });
  return { years, perYear };
}

/** Options of {@link retrieveAcrossYears}: those of `retrieve`, without the fiscal-year filter. */
export type AcrossYearsOptions = Omit<RetrieveOptions, 'fiscalYear'>;

/**
 * Searches `collection` once per fiscal year (the year's own variants, filtered to documents of that
 * fiscal year) and merges the lists by interleaving their ranks (year A's first, year B's first,
 * year A's second, …), so every year's best chunks are in the top `topK` even when one year's
 * document would outrank the other's throughout. Chunks found twice are kept once. A year whose
 * documents are missing contributes nothing. `variantsByYear` maps each year to its variants
 * (e.g. `rewriteQuery(perYear.question)` for each entry of {@link yearComparison}).
 */
export async function retrieveAcrossYears(
  db: Queryable,
  embedding: EmbeddingModel,
  collection: Collection,
  variantsByYear: ReadonlyMap<number, QueryVariant[]>,
  options: AcrossYearsOptions = {},
): Promise<RetrieveResult> {
  if (variantsByYear.size === 0)
    throw new EngineError('INVALID_INPUT', 'Name at least one fiscal year to compare.');
  const started = performance.now();
  const topK = options.topK ?? 5;
  const perYear: RetrieveResult[] = [];
  for (const [year, variants] of variantsByYear) {
    perYear.push(await retrieve(db, embedding, collection, variants, { ...options, topK, fiscalYear: year }));
  }
  const merged: RetrievedChunk[] = [];
  const seen = new Set<string>();
  for (let rank = 0; merged.length < topK; rank++) {
    let any = false;
    for (const result of perYear) {
      const chunk = result.results[rank];
      if (chunk === undefined) continue;
      any = true;
      if (seen.has(chunk.chunk_id) || merged.length >= topK) continue;
      seen.add(chunk.chunk_id);
      merged.push({ ...chunk, rank: merged.length + 1 });
    }
    if (!any) break;
  }
  const first = perYear[0]!;
  const sum = (select: (result: RetrieveResult) => number) =>
    Math.round(perYear.reduce((total, result) => total + select(result), 0) * 100) / 100;
  return {
    results: merged,
    parameters: {
      ...first.parameters,
      top_k: topK,
      rewrite_variants: perYear.flatMap((result) => result.parameters.rewrite_variants),
    },
    hybrid: first.hybrid,
    timings: {
      embed_ms: sum((result) => result.timings.embed_ms),
      lexical_ms: sum((result) => result.timings.lexical_ms),
      vector_ms: sum((result) => result.timings.vector_ms),
      fuse_ms: sum((result) => result.timings.fuse_ms),
      total_ms: Math.round((performance.now() - started) * 100) / 100,
    },
  };
}
