/**
 * Budget answers from the figure table (figure-table.ts): a question that asks how much a measure
 * was in a fiscal year ("Berapa defisit APBN 2023?") is answered with the statute's own clause,
 * composed per certificate v1.1 (docs/certificate.md) — template `budget.figure`:
 *
 *   Menurut Pasal 24 UU 28/2022, dalam Tahun Anggaran 2023 terdapat defisit anggaran sebesar
 *   Rp598.151.433.061.000,00 (…) [1]
 *
 * and a comparison of two years (or of two measures in one year) with template `budget.comparison`:
 * both clauses, then the difference of the two amounts, which a verifier recomputes from two
 * evidence spans that are exactly the amounts:
 *
 *   Menurut …, … Rp60.000.000.000.000,00 (…) [1]; menurut …, … Rp70.000.000.000.000,00 (…) [2].
 *   Selisihnya Rp10.000.000.000.000,00.
 *
 * Only figures whose digits and words agree are used (figures.ts). A question the table cannot
 * answer exactly — a share or a percentage, a realization, a per-unit amount, a measure or year
 * with no clean figure — gets no claims, and the caller selects sentences instead.
 */
import { formatRupiah, spelledRupiah, wholeRupiah } from '@saksi/proof';
import {
  type ComposedClaim,
  type ComposedEvidence,
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
import { digitsConfirmWords } from './figures.js';
import { BUDGET_MEASURES, type BudgetMeasure, isBudgetMeasure } from './measures.js';

/** More (measure, year) figures than this in one question are left to sentence selection. */
const MAX_FIGURES = 4;

/**
 * Questions the table's totals do not answer: a share or ratio ("berapa persen dari belanja negara",
 * "terhadap PDB"), a realization, an amount per village or person.
 */
const NOT_A_TOTAL =
  /(?<![\p{L}\p{N}])(?:berapa\s+(?:persen|%)|persen(?:tase|nya)|percent(?:age)?|how many %|rasio|ratio|proporsi|proportion|share of|pdb|gdp|realisasi\p{L}*|reali[sz]ed|actual(?:ly)?|setiap|tiap|per (?:desa|kapita|orang|daerah|provinsi|kabupaten|kota|penduduk|village|person|region)|each|per capita)(?![\p{L}\p{N}])/iu;
/** Words asking how a figure changed between the two years it names. */
const CHANGE =
  /(?<![\p{L}\p{N}])(?:naik|turun|bertambah|berkurang|berubah|beda\p{L}*|selisih\p{L}*|kenaikan|penurunan|increase[ds]?|decrease[ds]?|grow|grew|grown|change[ds]?|rise|rose|fell|fall|differ\p{L}*)(?![\p{L}\p{N}])/iu;
/** The question asks for the budget as first enacted, not as amended (APBN-P). */
const ORIGINAL =
  /(?<![\p{L}\p{N}])(?:awal(?:nya)?|semula|murni|original(?:ly)?|initial(?:ly)?)(?![\p{L}\p{N}])/iu;
/** The question asks for the amended budget. */
const REVISED = /(?<![\p{L}\p{N}])(?:apbn-?p|perubahan|revised|amended)(?![\p{L}\p{N}])/iu;

const FIXED = {
  id: {
    according: 'Menurut ',
    comma: ', ',
    space: ' ',
    amountOf: ' sebesar ',
    next: '; menurut ',
    difference: '. Selisihnya ',
    stop: '.',
  },
  en: {
    according: 'According to ',
    comma: ', ',
    space: ' ',
    amountOf: ': ',
    next: '; according to ',
    difference: '. The difference is ',
    stop: '.',
  },
} as const;

interface FigureRow {
  chunk_id: string;
  document_id: string;
  fiscal_year: number;
  measure: BudgetMeasure;
  amount: string;
  span_start: number;
  span_end: number;
  span_text: string;
  amount_start: number;
  amount_end: number;
  words_checked: boolean;
  garbled: boolean;
  primary_statement: boolean;
  position: number;
  penjelasan: boolean;
  revised: boolean;
}

/**
 * The fiscal years a question asks about: the years it names, except those that only number a
 * regulation ("UU 28/2022", "UU Nomor 17 Tahun 2003").
 */
export function fiscalYearsAsked(plan: Pick<QuestionPlan, 'normalized' | 'slots'>): number[] {
  return [...new Set(plan.slots.years)].filter((year) =>
    [...plan.normalized.matchAll(new RegExp(`(?<![\\p{N}])${year}(?![\\p{N}])`, 'gu'))].some(
      (match) =>
        !/(?:\d\s*\/\s*|(?:nomor|no\.?)\s*\d+\s+tahun\s+)$/iu.test(plan.normalized.slice(0, match.index)),
    ),
  );
}

/**
 * A difference as certificate v1.1 renders it: the proof package's `formatRupiah` ("Rp" + grouped
 * integer digits + ",00" / ".00"), the one formatter issuer and verifiers share.
 */
export const formatDifference = formatRupiah;

/**
 * A span that is exactly one whole rupiah amount as written, read as a verifier's `difference` part
 * reads it (the proof package's `wholeRupiah`).
 */
const exactAmount = wholeRupiah;

/**
 * The figures of each (measure, year), best first: the amended or original budget as asked, the
 * statute's own statement, digits read as written, checked words, the body before the Penjelasan.
 */
function ranked(
  rows: FigureRow[],
  measure: BudgetMeasure,
  year: number,
  wantRevised: boolean,
  strict: boolean,
): FigureRow[] {
  const candidates = rows.filter(
    (row) => row.measure === measure && row.fiscal_year === year && (!strict || row.revised === wantRevised),
  );
  const key = (row: FigureRow) => [
    row.revised === wantRevised ? 0 : 1,
    row.primary_statement ? 0 : 1,
    row.garbled ? 1 : 0,
    row.words_checked ? 0 : 1,
    row.penjelasan ? 1 : 0,
    row.position,
    row.span_start,
  ];
  return candidates.sort((a, b) => {
    const left = key(a);
    const right = key(b);
    for (let index = 0; index < left.length; index++)
      if (left[index] !== right[index]) return left[index]! - right[index]!;
    return 0;
  });
}

/**
 * One figure as the answer states it. `quote`: the statute's clause verbatim (its text reads
 * cleanly and its digits are as written). `words`: the clause's subject and the amount its words
 * spell, recomputed by every verifier from the words (`spelled`), for a clause whose digits or
 * wording OCR misread — the digits still confirm the words (figures.ts).
 */
interface Stated {
  sourceIndex: number;
  statement: SourceSpan;
  amount: SourceSpan;
  /** `words` mode: the clause's subject ("Anggaran Pendapatan Negara Tahun Anggaran 2023 direncanakan"). */
  subject?: SourceSpan;
  /** `words` mode: the amount in words, inside its parentheses. */
  words?: SourceSpan;
  label: string | undefined;
  marker: number;
}

/** OCR debris a reader should not see quoted: marks, split or misread numbers ("20 1 7", "2O2O", "sebes2r"). */
function readsBadly(text: string): boolean {
  return hasOcrNoise(text) || /[\^_|]|\d \d|\p{L}\d\p{L}|\d\p{Lu}\d/u.test(text);
}

/** "sebesar", OCR'd "se besar" / "sebes2r": where a clause's subject ends. */
const SEBESAR = /(?<![\p{L}])se ?bes[a2]r(?![\p{L}])/giu;

/**
 * How a figure can be stated from its chunk, or undefined when it cannot: quoted when the clause
 * reads cleanly, else through its words when they are readable and the digits confirm them.
 */
function statable(
  row: FigureRow,
  text: string,
): Omit<Stated, 'sourceIndex' | 'label' | 'marker'> | undefined {
  const statement = { start: row.span_start, end: row.span_end, text: row.span_text };
  const amount = {
    start: row.amount_start,
    end: row.amount_end,
    text: text.slice(row.amount_start, row.amount_end),
  };
  if (!row.garbled && !readsBadly(row.span_text) && exactAmount(amount.text) !== undefined)
    return { statement, amount };
  // The words: inside the parentheses after the digits, before the clause ends.
  const open = text.indexOf('(', row.amount_end);
  const close = open >= 0 ? text.indexOf(')', open) : -1;
  if (open < 0 || close < 0 || close > row.span_end) return undefined;
  const inner = text.slice(open + 1, close);
  const lead = inner.length - inner.trimStart().length;
  const wordsText = inner.trim();
  const value = spelledRupiah(wordsText);
  if (value === undefined || row.amount === null || value.toString() !== row.amount.replace(/^-/, ''))
    return undefined;
  if (!digitsConfirmWords(amount.text, value)) return undefined;
  const words = { start: open + 1 + lead, end: open + 1 + lead + wordsText.length, text: wordsText };
  const subject = subjectSpan(row, text);
  return subject ? { statement, amount, subject, words } : undefined;
}

/**
 * The clause's subject, up to its "sebesar", when it reads cleanly; else its longest clean beginning
 * that still names the measure ("Program Pengelolaan Subsidi" of "… Subsidi dalam Tahun Anggaran 2O2O
 * direncanakan"), without a year cut short; else the statute's name of the measure inside it
 * ("defisit anggaran").
 */
function subjectSpan(row: FigureRow, text: string): SourceSpan | undefined {
  const before = text.slice(row.span_start, row.amount_start);
  const trigger = [...before.matchAll(SEBESAR)].at(-1);
  if (!trigger) return undefined;
  const whole = before.slice(0, trigger.index).trimEnd();
  const at = (from: number, phrase: string) => ({
    start: row.span_start + from,
    end: row.span_start + from + phrase.length,
    text: phrase,
  });
  if (whole.length > 0 && !readsBadly(whole)) return at(0, whole);
  const names = [...(BUDGET_MEASURES.find((measure) => measure.id === row.measure)?.statute ?? [])]
    .sort((a, b) => b.length - a.length)
    .map(
      (name) => new RegExp(`(?<![\\p{L}])(?:anggaran\\s+)?${name.replace(/\s+/g, '\\s+')}(?![\\p{L}])`, 'iu'),
    );
  // The longest clean beginning, without a trailing number (a year OCR split: "Tahun Anggaran 20 1 7"),
  // "Tahun Anggaran" or a connective left dangling.
  const tokens = [...whole.matchAll(/\S+/g)];
  let end = 0;
  for (const token of tokens) {
    const next = token.index + token[0].length;
    if (readsBadly(whole.slice(0, next))) break;
    end = next;
  }
  const prefix = whole
    .slice(0, end)
    .replace(/(?:\s+(?:\d+|Tahun|Anggaran|dalam|pada|untuk|yang|dan))+$/iu, '')
    .trimEnd();
  if (names.some((name) => name.test(prefix))) return at(0, prefix);
  for (const name of names) {
    const found = name.exec(whole);
    if (found && !readsBadly(found[0])) return at(found.index, found[0]);
  }
  return undefined;
}

/**
 * Claims that answer a figure or comparison question from the collection's figure table, or none
 * when the question asks something the table does not hold (the caller then selects sentences).
 * Chunks the claims cite are appended to `sources` when they are not among them yet.
 */
export async function budgetFigureClaims(
  db: Queryable,
  collection: Pick<Collection, 'id'>,
  plan: QuestionPlan,
  sources: RetrievedChunk[],
): Promise<ComposedClaim[]> {
  const measures = plan.slots.measures.filter(isBudgetMeasure);
  const years = fiscalYearsAsked(plan);
  // A question no intent rule recognized ("What was the deficit in 2023?") still asks for a figure
  // when it names a measure and a year.
  const asksFigure =
    plan.intent === 'figure' || plan.intent === 'comparison' || (plan.intent === 'other' && years.length > 0);
  if (!asksFigure || measures.length === 0 || NOT_A_TOTAL.test(plan.normalized)) return [];

  // Misread figures come too: their words may still state them (statable).
  const found = await db.query<FigureRow>(
    `SELECT f.chunk_id, f.document_id, f.fiscal_year, f.measure, f.amount::text AS amount, f.span_start, f.span_end,
            f.span_text, f.amount_start, f.amount_end, f.words_checked, f.garbled, f.primary_statement, c.position,
            COALESCE((c.legal->>'penjelasan')::boolean, false) AS penjelasan,
            (COALESCE(d.document_type, '') || ' ' || d.title) ~* 'perubahan|APBN-?P' AS revised
       FROM budget_figures f JOIN chunks c ON c.id = f.chunk_id JOIN documents d ON d.id = f.document_id
      WHERE f.collection_id = $1 AND f.measure = ANY($2::text[]) AND d.status = 'READY'
        AND f.amount IS NOT NULL AND f.fiscal_year IS NOT NULL
        AND (cardinality($3::integer[]) = 0 OR f.fiscal_year = ANY($3::integer[]))`,
    [collection.id, measures, years],
  );
  const rows = found.rows;
  // No year named: answer only when the collection states the measure for a single fiscal year.
  if (years.length === 0) {
    const stated = new Set(rows.map((row) => row.fiscal_year));
    if (stated.size !== 1) return [];
    years.push(...stated);
  }
  const pairs = measures.flatMap((measure) => years.map((year) => ({ measure, year })));
  if (pairs.length > MAX_FIGURES) return [];
  // The amended budget (APBN-P) when there is one, unless the question asks for the budget as first
  // enacted ("APBN 2015 awal"): then only that, never the amended figure in its place.
  const original = ORIGINAL.test(plan.normalized);
  const revised = REVISED.test(plan.normalized);
  const wantRevised = !original || revised;
  const strict = original && !revised;
  const candidates = pairs.map(({ measure, year }) => ranked(rows, measure, year, wantRevised, strict));
  if (candidates.some((list) => list.length === 0)) return [];

  // Load the candidates' chunks; the spans must still be where the table says.
  const loaded = await loadChunks(db, [...new Set(candidates.flat().map((row) => row.chunk_id))]);
  const language = plan.language === 'en' ? 'en' : 'id';
  const markers = new Map<number, number>();
  const stated: Stated[] = [];
  for (const list of candidates) {
    let figure: Stated | undefined;
    for (const row of list) {
      const chunk = loaded.get(row.chunk_id);
      if (!chunk || chunk.text.slice(row.span_start, row.span_end) !== row.span_text) continue;
      const how = statable(row, chunk.text);
      if (!how) continue;
      const sourceIndex = sourceIndexOf(sources, toRetrievedChunk(chunk, { score: 0, rank: 0, ranks: {} }));
      if (!markers.has(sourceIndex)) markers.set(sourceIndex, markers.size + 1);
      figure = {
        ...how,
        sourceIndex,
        label: sources[sourceIndex]!.citation.label,
        marker: markers.get(sourceIndex)!,
      };
      break;
    }
    if (!figure) return [];
    stated.push(figure);
  }

  const compare =
    stated.length === 2 &&
    (plan.intent === 'comparison' || (years.length === 2 && CHANGE.test(plan.normalized)));
  if (compare) {
    const [first, second] = [stated[0]!, stated[1]!];
    return [comparisonClaim(first, second, language)];
  }
  // The figures of one question answer it together: kept or dropped together (ask.ts).
  return stated.map((figure, index) => {
    const claim = figureClaim(figure, language);
    return index === 0 ? claim : { ...claim, linked: true };
  });
}

/**
 * "Menurut <citation>, <clause> [n]" (`budget.figure`), or for a clause OCR misread "Menurut
 * <citation>, <subject> sebesar <the amount its words spell> (<words>) [n]" (`budget.figure-words`).
 */
function figureClaim(figure: Stated, language: 'id' | 'en'): ComposedClaim {
  const words = FIXED[language];
  if (figure.subject && figure.words && figure.label) {
    const evidence = [
      { sourceIndex: figure.sourceIndex, span: figure.subject, label: figure.label },
      { sourceIndex: figure.sourceIndex, span: figure.words },
    ];
    const parts: CompositionPart[] = [
      { fixed: words.according },
      { cite: 0 },
      { fixed: words.comma },
      { span: 0 },
      { fixed: words.amountOf },
      { spelled: 1 },
    ];
    // The words are shown after the figure unless OCR marks run through them ("tiga ^ratus").
    if (!readsBadly(figure.words.text)) parts.push({ fixed: ' (' }, { span: 1 }, { fixed: ')' });
    parts.push({ fixed: words.space }, { marker: figure.marker });
    return composeClaim('budget.figure-words', language, evidence, parts);
  }
  const evidence = [{ sourceIndex: figure.sourceIndex, span: figure.statement, ...labelOf(figure) }];
  const parts: CompositionPart[] = figure.label
    ? [{ fixed: words.according }, { cite: 0 }, { fixed: words.comma }, { span: 0 }]
    : [{ span: 0 }];
  parts.push({ fixed: words.space }, { marker: figure.marker });
  return composeClaim('budget.figure', language, evidence, parts);
}

function labelOf(figure: Stated): { label?: string } {
  return figure.label ? { label: figure.label } : {};
}

/**
 * "Menurut <a>, <clause> [1]; menurut <b>, <clause> [2]. Selisihnya <b − a>." A misread clause is
 * stated as "<subject> sebesar <the amount its words spell> (<words>)". The difference is recomputed
 * from the two amounts: each as written, or as its words spell it.
 */
function comparisonClaim(first: Stated, second: Stated, language: 'id' | 'en'): ComposedClaim {
  const words = FIXED[language];
  const evidence: ComposedEvidence[] = [];
  const parts: CompositionPart[] = [];
  /**
   * The figure's clause (or its subject and spelled amount) after its citation; then where its
   * amount is read for the difference: an evidence index, an amount span still to add, or nothing.
   */
  const state = (figure: Stated): number | SourceSpan | undefined => {
    if (figure.subject && figure.words) {
      const subject =
        evidence.push({ sourceIndex: figure.sourceIndex, span: figure.subject, ...labelOf(figure) }) - 1;
      const amount = evidence.push({ sourceIndex: figure.sourceIndex, span: figure.words }) - 1;
      parts.push({ span: subject }, { fixed: words.amountOf }, { spelled: amount });
      if (!readsBadly(figure.words.text)) parts.push({ fixed: ' (' }, { span: amount }, { fixed: ')' });
      return amount;
    }
    parts.push({
      span:
        evidence.push({ sourceIndex: figure.sourceIndex, span: figure.statement, ...labelOf(figure) }) - 1,
    });
    return exactAmount(figure.amount.text) === undefined ? undefined : figure.amount;
  };
  if (first.label) parts.push({ fixed: words.according }, { cite: evidence.length }, { fixed: words.comma });
  const a = state(first);
  parts.push({ fixed: words.space }, { marker: first.marker });
  if (second.label) parts.push({ fixed: words.next }, { cite: evidence.length }, { fixed: words.comma });
  else parts.push({ fixed: words.stop }, { fixed: words.space });
  const b = state(second);
  parts.push({ fixed: words.space }, { marker: second.marker });
  // An amount no verifier reads as one number as written (digits split by spaces): no difference.
  if (a !== undefined && b !== undefined) {
    const index = (figure: Stated, read: number | SourceSpan) =>
      typeof read === 'number' ? read : evidence.push({ sourceIndex: figure.sourceIndex, span: read }) - 1;
    parts.push(
      { fixed: words.difference },
      { difference: [index(first, a), index(second, b)] },
      { fixed: words.stop },
    );
  }
  return composeClaim('budget.comparison', language, evidence, parts);
}

/**
 * Where the collection states a figure the question asks for only in a form OCR misread (digits
 * with letters, or digits and words that disagree): the citation label of that provision, so a
 * refusal can say the statute states it and that its scanned text cannot be quoted reliably.
 */
export async function unreadableFigure(
  db: Queryable,
  collection: Pick<Collection, 'id'>,
  plan: QuestionPlan,
): Promise<string | undefined> {
  const measures = plan.slots.measures.filter(isBudgetMeasure);
  const years = fiscalYearsAsked(plan);
  if (measures.length === 0 || years.length === 0) return undefined;
  const found = await db.query<{ chunk_id: string }>(
    `SELECT f.chunk_id FROM budget_figures f JOIN documents d ON d.id = f.document_id
      WHERE f.collection_id = $1 AND f.measure = ANY($2::text[]) AND f.fiscal_year = ANY($3::integer[])
        AND f.garbled AND f.primary_statement AND d.status = 'READY'
      ORDER BY f.fiscal_year, f.amount_start LIMIT 1`,
    [collection.id, measures, years],
  );
  const id = found.rows[0]?.chunk_id;
  if (!id) return undefined;
  const row = (await loadChunks(db, [id])).get(id);
  return row ? toRetrievedChunk(row, { score: 0, rank: 0, ranks: {} }).citation.label : undefined;
}
