/**
 * The macroeconomic assumptions of a budget: the exchange rate, the Indonesian crude price (ICP), oil
 * and gas lifting, inflation, growth and the bond rate a UU APBN is built on. The statutes state them
 * in prose, mostly in the Penjelasan Umum ("rata-rata nilai tukar rupiah pada tahun 2020 akan stabil
 * pada kisaran Rp14.400,00 (empat belas ribu empat ratus rupiah) per satu dolar Amerika Serikat"),
 * not in an article with "sebesar", so the figure table (figure-table.ts) does not hold them and a
 * question such as "Kurs rupiah yang diasumsikan di APBN 2022 berapa?" shares few words with them.
 *
 * A question that names an assumption and a fiscal year is answered from the statute of that year:
 * the assumption as the statute names it and its value with the value's own words, composed with
 * template `budget.figure` (docs/certificate.md) as "Menurut <citation>, <assumption>: <value> [n]".
 * Both are exact spans. A value is stated only when it reads cleanly and its digits agree with the
 * words in its parentheses; anything else is left to sentence selection.
 */
import { parseNumberWords } from '@saksi/proof';
import {
  type ComposedClaim,
  type CompositionPart,
  composeClaim,
  type SourceSpan,
  sourceIndexOf,
} from '../../answer/compose.js';
import { hasOcrNoise } from '../../answer/extractive.js';
import type { QuestionPlan } from '../../answer/question-plan.js';
import type { Collection } from '../../collections.js';
import type { Queryable } from '../../db/database.js';
import { loadChunks, type RetrievedChunk, toRetrievedChunk } from '../../retrieve/retrieve.js';
import { fiscalYearsAsked } from './answer.js';

export type MacroAssumption =
  | 'nilai_tukar'
  | 'harga_minyak'
  | 'lifting_minyak'
  | 'lifting_gas'
  | 'inflasi'
  | 'pertumbuhan_ekonomi'
  | 'suku_bunga';

interface AssumptionPattern {
  id: MacroAssumption;
  /** How a question names it (lower-cased, normalized question). */
  asked: RegExp;
  /** The assumption as a statute names it; also the database's filter (PostgreSQL ARE syntax). */
  named: string;
  /** Its value after the name: digits, their words in parentheses (group 1), the unit. */
  value: RegExp;
}

const WORDS = String.raw`\(([^()]{3,90})\)`;
const PERCENT = new RegExp(String.raw`\d{1,2}(?:,\d{1,2})?\s?%\s*${WORDS}`, 'u');

const ASSUMPTIONS: readonly AssumptionPattern[] = [
  {
    id: 'nilai_tukar',
    asked: /(?<![\p{L}])(?:kurs|nilai tukar|exchange rate|rupiah per dol+ar)(?![\p{L}])/u,
    named: String.raw`(?:rata-rata\s+)?nilai\s+tukar\s+rupiah`,
    value: new RegExp(
      String.raw`Rp\s?\d{1,3}(?:\.\d{3})*(?:,\d{2})?\s*${WORDS}\s*per\s+(?:satu\s+)?dol+ar(?:\s+Amerika(?:\s+Serikat)?)?`,
      'iu',
    ),
  },
  {
    id: 'harga_minyak',
    asked: /(?<![\p{L}])(?:icp|harga minyak|oil price|crude price|crude oil price)(?![\p{L}])/u,
    named: String.raw`(?:rata-rata\s+)?harga\s+minyak\s+mentah\s+Indonesia(?:\s*\([^)]{1,60}\))?`,
    value: new RegExp(
      String.raw`(?:USD|US\$|\$)\s?\d{1,3}(?:[.,]\d{1,2})?\s*${WORDS}(?:\s*Amerika\s+Serikat)?\s*per\s+barel`,
      'iu',
    ),
  },
  {
    id: 'lifting_minyak',
    asked: /(?<![\p{L}])(?:lifting minyak|oil lifting|lifting)(?![\p{L}])/u,
    named: String.raw`[_*]?lifting[_*]?\s+minyak(?:\s+mentah|\s+bumi)?(?:\s+dan\s+gas\s+bumi)?`,
    value: new RegExp(String.raw`\d{1,3}(?:\.\d{3})+\s*${WORDS}\s*barel\s+per\s+hari`, 'iu'),
  },
  {
    id: 'lifting_gas',
    asked: /(?<![\p{L}])(?:lifting (?:minyak (?:dan|&) )?gas|gas lifting|lifting)(?![\p{L}])/u,
    named: String.raw`[_*]?lifting[_*]?\s+(?:minyak\s+dan\s+)?gas(?:\s+bumi)?`,
    value: new RegExp(
      String.raw`\d{1,3}(?:\.\d{3})+\s*${WORDS}\s*barel\s+setara\s+minyak\s+per\s+hari`,
      'iu',
    ),
  },
  {
    id: 'inflasi',
    asked: /(?<![\p{L}])(?:inflasi|inflation)(?![\p{L}])/u,
    named: String.raw`(?:laju|tingkat|asumsi)\s+inflasi`,
    value: PERCENT,
  },
  {
    id: 'pertumbuhan_ekonomi',
    asked: /(?<![\p{L}])(?:pertumbuhan ekonomi|economic growth|gdp growth)(?![\p{L}])/u,
    named: String.raw`pertumbuhan\s+ekonomi`,
    value: PERCENT,
  },
  {
    id: 'suku_bunga',
    // "SBN" alone is the bonds (a financing figure), not their rate.
    asked: /(?<![\p{L}])(?:suku bunga|imbal hasil|interest rate|bond yield)(?![\p{L}])/u,
    named: String.raw`suku\s+bunga\s+(?:Surat\s+(?:Perbendaharaan|Utang)\s+Negara|SPN|SBN)(?:\s+\d+\s*\([^)]{1,20}\)\s*(?:bulan|tahun))?`,
    value: PERCENT,
  },
];

/** The most (assumption, year) pairs one question is answered with. */
const MAX_PAIRS = 4;
/** How far after its name an assumption's value may be, in characters. */
const MAX_GAP = 240;
/** Chunks read per assumption: the Penjelasan Umum of a few budgets. */
const MAX_CHUNKS = 24;

/** The assumptions a question names, in the order of {@link ASSUMPTIONS}. */
export function assumptionsAsked(question: string): MacroAssumption[] {
  const text = question.toLowerCase();
  const found = ASSUMPTIONS.filter((pattern) => pattern.asked.test(text)).map((pattern) => pattern.id);
  // "lifting" alone asks for both; "lifting minyak" only for oil, "lifting gas" only for gas.
  const onlyOil = /lifting minyak(?! (?:dan|&) gas)/u.test(text) && !/lifting gas/u.test(text);
  const onlyGas = /lifting gas/u.test(text) && !/lifting minyak/u.test(text);
  return found.filter((id) => !(onlyOil && id === 'lifting_gas') && !(onlyGas && id === 'lifting_minyak'));
}

const DIGIT_WORDS = ['nol', 'satu', 'dua', 'tiga', 'empat', 'lima', 'enam', 'tujuh', 'delapan', 'sembilan'];
const UNIT_WORDS =
  /(?:\s+(?:rupiah|dol+ars?|amerika|serikat|persen|per|barel|barrel|hari|setara|minyak|bulan|tahun))+$/iu;

/**
 * The number the words in a value's parentheses spell ("empat belas ribu empat ratus rupiah" →
 * "14400", "tiga koma lima persen" → "3,5"), or undefined when they are not number words.
 */
export function spelledValue(words: string): string | undefined {
  const text = words.replace(/\^/g, '').replace(/\s+/g, ' ').trim().replace(UNIT_WORDS, '').toLowerCase();
  const [whole, fraction, ...rest] = text.split(/\s+koma\s+/u);
  if (!whole || rest.length > 0 || !/^[\p{L}\s]+$/u.test(text)) return undefined;
  const integer = whole === 'nol' ? 0n : parseNumberWords(whole);
  if (integer === undefined) return undefined;
  if (fraction === undefined) return integer.toString();
  const digits = fraction.split(' ').map((word) => DIGIT_WORDS.indexOf(word));
  if (digits.some((digit) => digit < 0)) return undefined;
  return `${integer},${digits.join('')}`;
}

/** The number a value's digits write, in {@link spelledValue}'s form ("Rp14.400,00" → "14400"). */
export function writtenValue(value: string): string | undefined {
  const match = /(\d{1,3}(?:\.\d{3})*|\d+)(?:,(\d{1,2}))?/u.exec(value);
  if (!match) return undefined;
  const integer = match[1]!.replace(/\./g, '').replace(/^0+(?=\d)/u, '');
  const fraction = match[2];
  // A rupiah amount's ",00" is no fraction; a percentage's ",5" is.
  if (fraction === undefined || (/^\s*Rp/iu.test(value) && /^0+$/u.test(fraction))) return integer;
  return `${integer},${fraction}`;
}

interface Found {
  chunk: RetrievedChunk;
  name: SourceSpan;
  value: SourceSpan;
}

/** A number (digits, perhaps misread: "Rp13.4O0,OO", "5,3o/o") and words in parentheses after it. */
const ANY_VALUE = /[\dOoIl][\dOoIl.,\s^/%]*[^()\d]{0,12}\(([^()]{3,90})\)/u;

/**
 * The first statement of `pattern` in `text` that reads cleanly and whose digits agree with its
 * words; `misread` when the text states a value after the name that does not (OCR), else undefined.
 */
function statementIn(pattern: AssumptionPattern, text: string): Omit<Found, 'chunk'> | 'misread' | undefined {
  let misread = false;
  for (const named of text.matchAll(new RegExp(pattern.named, 'giu'))) {
    const start = named.index;
    const end = start + named[0].length;
    // The value follows within the same sentence: before the next full stop that ends one.
    const window = text.slice(end, end + MAX_GAP);
    const stop = /\.\s+\p{Lu}|;\s|\n\n/u.exec(window);
    const sentence = stop ? window.slice(0, stop.index) : window;
    const value = pattern.value.exec(sentence);
    const clean =
      value !== null &&
      // A caret between words ("satu ^juta") changes no word or figure and is quoted as written.
      !hasOcrNoise(named[0]) &&
      !hasOcrNoise(value[0]) &&
      !/[_|]|\d \d|\d\^|\^\d/u.test(value[0]) &&
      spelledValue(value[1]!) !== undefined &&
      spelledValue(value[1]!) === writtenValue(value[0]);
    if (value && clean) {
      const valueStart = end + value.index;
      return {
        name: { start, end, text: named[0] },
        value: { start: valueStart, end: valueStart + value[0].length, text: value[0] },
      };
    }
    const stated = ANY_VALUE.exec(sentence);
    if (stated && /\d/u.test(stated[0].slice(0, stated[0].indexOf('(')))) misread = true;
  }
  return misread ? 'misread' : undefined;
}

/** What the collection states of the assumptions a question asks: clean statements, and a misread one. */
interface Assumptions {
  found: Found[];
  /** A chunk that states an asked assumption in a form OCR misread, when no clean one was found for it. */
  misread?: RetrievedChunk;
}

async function findAssumptions(
  db: Queryable,
  collection: Pick<Collection, 'id'>,
  plan: QuestionPlan,
): Promise<Assumptions> {
  const asked = assumptionsAsked(plan.normalized);
  const years = fiscalYearsAsked(plan);
  if (asked.length === 0 || years.length === 0 || asked.length * years.length > MAX_PAIRS)
    return { found: [] };
  const found: Found[] = [];
  let misread: RetrievedChunk | undefined;
  for (const id of asked) {
    const pattern = ASSUMPTIONS.find((candidate) => candidate.id === id)!;
    for (const year of years) {
      // The amended budget first (it restates the assumptions), then the statute's own order.
      const rows = await db.query<{ id: string }>(
        `SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id
          WHERE c.collection_id = $1 AND d.status = 'READY' AND d.fiscal_year = $2 AND c.text ~* $3
          ORDER BY ((COALESCE(d.document_type, '') || ' ' || d.title) ~* 'perubahan|APBN-?P') DESC, d.id, c.position
          LIMIT $4`,
        [collection.id, year, pattern.named, MAX_CHUNKS],
      );
      const loaded = await loadChunks(
        db,
        rows.rows.map((row) => row.id),
      );
      let misreadHere: RetrievedChunk | undefined;
      let cleanHere = false;
      for (const row of rows.rows) {
        const chunk = loaded.get(row.id);
        if (!chunk) continue;
        const statement = statementIn(pattern, chunk.text);
        const retrieved = toRetrievedChunk(chunk, { score: 0, rank: 0, ranks: {} });
        if (statement === 'misread') misreadHere ??= retrieved;
        if (statement === undefined || statement === 'misread') continue;
        found.push({ chunk: retrieved, ...statement });
        cleanHere = true;
        break;
      }
      if (!cleanHere && misreadHere) misread ??= misreadHere;
    }
  }
  return { found, ...(misread ? { misread } : {}) };
}

/**
 * Where the collection states an assumption the question asks for only in a form OCR misread
 * ("Rp13.4O0,OO", "5,3o/o"): the citation label of that passage, so a refusal can say the statute
 * states it and that its scanned text cannot be quoted reliably (as budget/answer.ts does for figures).
 */
export async function misreadAssumption(
  db: Queryable,
  collection: Pick<Collection, 'id'>,
  plan: QuestionPlan,
): Promise<string | undefined> {
  const { found, misread } = await findAssumptions(db, collection, plan);
  return found.length === 0 ? misread?.citation.label : undefined;
}

/**
 * Claims for a question that names a macroeconomic assumption and a fiscal year, one per (assumption,
 * year) the collection states cleanly; none when it names no assumption or year, or none is stated
 * cleanly (`misread` then says whether the statute states one in a form OCR misread, which no other
 * sentence should stand in for). Chunks the claims cite are appended to `sources`.
 */
export async function assumptionClaims(
  db: Queryable,
  collection: Pick<Collection, 'id'>,
  plan: QuestionPlan,
  sources: RetrievedChunk[],
): Promise<{ claims: ComposedClaim[]; misread: boolean }> {
  const { found, misread } = await findAssumptions(db, collection, plan);
  const language = plan.language === 'en' ? 'en' : 'id';
  const markers = new Map<number, number>();
  const claims = found.map((item, index) => {
    const sourceIndex = sourceIndexOf(sources, item.chunk);
    if (!markers.has(sourceIndex)) markers.set(sourceIndex, markers.size + 1);
    const label = sources[sourceIndex]!.citation.label;
    const evidence = [
      { sourceIndex, span: item.name, ...(label ? { label } : {}) },
      { sourceIndex, span: item.value },
    ];
    const according = language === 'id' ? 'Menurut ' : 'According to ';
    const parts: CompositionPart[] = [
      ...(label ? [{ fixed: according }, { cite: 0 }, { fixed: ', ' }] : []),
      { span: 0 },
      { fixed: ': ' },
      { span: 1 },
      { fixed: ' ' },
      { marker: markers.get(sourceIndex)! },
    ];
    const claim = composeClaim('budget.figure', language, evidence, parts);
    // The assumptions of one question answer it together: kept or dropped together (ask.ts).
    return index === 0 ? claim : { ...claim, linked: true };
  });
  return { claims, misread: claims.length === 0 && misread !== undefined };
}
