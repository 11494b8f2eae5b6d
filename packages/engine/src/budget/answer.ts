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
import { parseAmounts } from '@saksi/proof';
import type { ComposedClaim, CompositionPart, SourceSpan } from '../answer/compose.js';
import type { QuestionPlan } from '../answer/understand.js';
import type { Collection } from '../collections.js';
import type { Queryable } from '../db/database.js';
import { type ChunkRow, loadChunks, type RetrievedChunk, toRetrievedChunk } from '../retrieve/retrieve.js';
import type { BudgetMeasure } from './measures.js';

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
    next: '; menurut ',
    difference: '. Selisihnya ',
    stop: '.',
  },
  en: {
    according: 'According to ',
    comma: ', ',
    space: ' ',
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

/** Index of `chunk` among the sources, appending it when it is not there. */
function sourceIndexOf(sources: RetrievedChunk[], chunk: RetrievedChunk): number {
  const index = sources.findIndex((source) => source.chunk_id === chunk.chunk_id);
  if (index >= 0) return index;
  sources.push(chunk);
  return sources.length - 1;
}

/** `1234567` → `1.234.567` (id) or `1,234,567` (en). */
function group(digits: string, separator: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

/** A difference as certificate v1.1 renders it: "Rp" + grouped integer digits + ",00" (id) / ".00" (en). */
export function formatDifference(value: bigint, language: 'id' | 'en'): string {
  const absolute = value < 0n ? -value : value;
  return language === 'id'
    ? `Rp${group(absolute.toString(), '.')},00`
    : `Rp${group(absolute.toString(), ',')}.00`;
}

/** The integer value of a span that is exactly one rupiah amount, as the proof package reads it. */
function exactAmount(text: string): bigint | undefined {
  const amounts = parseAmounts(text);
  const amount = amounts[0];
  if (amounts.length !== 1 || !amount || amount.unit !== 'currency' || amount.approximate) return undefined;
  if (!/^\d+$/.test(amount.value)) return undefined;
  return BigInt(amount.value);
}

/**
 * The text of a composition (certificate v1.1): fixed words, evidence spans, citation labels,
 * markers "[n]" and differences. With `markers: false`, the statement the verifiers read: markers
 * and the space before each left out.
 */
function render(
  parts: readonly CompositionPart[],
  evidence: readonly { sourceIndex: number; span: SourceSpan }[],
  sources: readonly RetrievedChunk[],
  language: 'id' | 'en',
  markers = true,
): string {
  let text = '';
  parts.forEach((part, index) => {
    if ('fixed' in part) {
      const next = parts[index + 1];
      if (!markers && part.fixed === ' ' && next !== undefined && 'marker' in next) return;
      text += part.fixed;
    } else if ('span' in part) text += evidence[part.span]!.span.text;
    else if ('cite' in part) text += sources[evidence[part.cite]!.sourceIndex]!.citation.label ?? '';
    else if ('marker' in part) text += markers ? `[${part.marker}]` : '';
    else {
      const [a, b] = part.difference;
      const left = exactAmount(evidence[a]!.span.text)!;
      const right = exactAmount(evidence[b]!.span.text)!;
      text += formatDifference(right - left, language);
    }
  });
  return text;
}

/** The best clean figure of each (measure, year): the statute's own statement first, checked words first. */
function choose(
  rows: FigureRow[],
  measure: BudgetMeasure,
  year: number,
  wantRevised: boolean,
  strict: boolean,
): FigureRow | undefined {
  const candidates = rows.filter(
    (row) => row.measure === measure && row.fiscal_year === year && (!strict || row.revised === wantRevised),
  );
  const key = (row: FigureRow) => [
    row.revised === wantRevised ? 0 : 1,
    row.primary_statement ? 0 : 1,
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
  })[0];
}

/** One composed figure: the statement span (and the amount span inside it) in its loaded chunk. */
interface Stated {
  sourceIndex: number;
  statement: SourceSpan;
  amount: SourceSpan;
  label: string | undefined;
  marker: number;
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
  const measures = plan.slots.measures;
  const years = fiscalYearsAsked(plan);
  // A question no intent rule recognized ("What was the deficit in 2023?") still asks for a figure
  // when it names a measure and a year.
  const asksFigure =
    plan.intent === 'figure' || plan.intent === 'comparison' || (plan.intent === 'other' && years.length > 0);
  if (!asksFigure || measures.length === 0 || NOT_A_TOTAL.test(plan.normalized)) return [];

  const found = await db.query<FigureRow>(
    `SELECT f.chunk_id, f.document_id, f.fiscal_year, f.measure, f.amount::text AS amount, f.span_start, f.span_end,
            f.span_text, f.amount_start, f.amount_end, f.words_checked, f.primary_statement, c.position,
            COALESCE((c.legal->>'penjelasan')::boolean, false) AS penjelasan,
            (COALESCE(d.document_type, '') || ' ' || d.title) ~* 'perubahan|APBN-?P' AS revised
       FROM budget_figures f JOIN chunks c ON c.id = f.chunk_id JOIN documents d ON d.id = f.document_id
      WHERE f.collection_id = $1 AND f.measure = ANY($2::text[]) AND NOT f.garbled AND d.status = 'READY'
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
  const chosen: FigureRow[] = [];
  for (const { measure, year } of pairs) {
    const row = choose(rows, measure, year, wantRevised, strict);
    if (!row) return [];
    chosen.push(row);
  }

  // Load the cited chunks as sources; the spans must still be where the table says.
  const loaded = await loadChunks(
    db,
    chosen.map((row) => row.chunk_id),
  );
  const cited: { row: FigureRow; chunk: ChunkRow }[] = [];
  for (const row of chosen) {
    const chunk = loaded.get(row.chunk_id);
    if (!chunk || chunk.text.slice(row.span_start, row.span_end) !== row.span_text) return [];
    cited.push({ row, chunk });
  }
  const markers = new Map<number, number>();
  const stated: Stated[] = cited.map(({ row, chunk }) => {
    const sourceIndex = sourceIndexOf(sources, toRetrievedChunk(chunk, { score: 0, rank: 0, ranks: {} }));
    if (!markers.has(sourceIndex)) markers.set(sourceIndex, markers.size + 1);
    return {
      sourceIndex,
      statement: { start: row.span_start, end: row.span_end, text: row.span_text },
      amount: {
        start: row.amount_start,
        end: row.amount_end,
        text: chunk.text.slice(row.amount_start, row.amount_end),
      },
      label: sources[sourceIndex]!.citation.label,
      marker: markers.get(sourceIndex)!,
    };
  });

  const language = plan.language === 'en' ? 'en' : 'id';
  const compare =
    stated.length === 2 &&
    (plan.intent === 'comparison' || (years.length === 2 && CHANGE.test(plan.normalized)));
  if (compare) {
    const [first, second] = [stated[0]!, stated[1]!];
    return [comparisonClaim(first, second, sources, language)];
  }
  return stated.map((figure) => figureClaim(figure, sources, language));
}

/** "Menurut <citation>, <clause> [n]"; the clause alone when its chunk has no citation label. */
function figureClaim(
  figure: Stated,
  sources: readonly RetrievedChunk[],
  language: 'id' | 'en',
): ComposedClaim {
  const words = FIXED[language];
  const evidence = [{ sourceIndex: figure.sourceIndex, span: figure.statement }];
  const parts: CompositionPart[] = figure.label
    ? [{ fixed: words.according }, { cite: 0 }, { fixed: words.comma }, { span: 0 }]
    : [{ span: 0 }];
  parts.push({ fixed: words.space }, { marker: figure.marker });
  return composed('budget.figure', parts, evidence, sources, language);
}

function comparisonClaim(
  first: Stated,
  second: Stated,
  sources: readonly RetrievedChunk[],
  language: 'id' | 'en',
): ComposedClaim {
  const words = FIXED[language];
  const evidence = [
    { sourceIndex: first.sourceIndex, span: first.statement },
    { sourceIndex: second.sourceIndex, span: second.statement },
  ];
  // "Menurut <a>, <clause> [1]; menurut <b>, <clause> [2]. Selisihnya <b − a>."
  const parts: CompositionPart[] = first.label
    ? [{ fixed: words.according }, { cite: 0 }, { fixed: words.comma }, { span: 0 }]
    : [{ span: 0 }];
  parts.push({ fixed: words.space }, { marker: first.marker });
  if (second.label) parts.push({ fixed: words.next }, { cite: 1 }, { fixed: words.comma }, { span: 1 });
  else parts.push({ fixed: words.stop }, { fixed: words.space }, { span: 1 });
  parts.push({ fixed: words.space }, { marker: second.marker });
  const a = exactAmount(first.amount.text);
  const b = exactAmount(second.amount.text);
  if (a !== undefined && b !== undefined) {
    evidence.push(
      { sourceIndex: first.sourceIndex, span: first.amount },
      { sourceIndex: second.sourceIndex, span: second.amount },
    );
    parts.push({ fixed: words.difference }, { difference: [2, 3] }, { fixed: words.stop });
  }
  return composed('budget.comparison', parts, evidence, sources, language);
}

function composed(
  template: string,
  parts: CompositionPart[],
  evidence: { sourceIndex: number; span: SourceSpan }[],
  sources: readonly RetrievedChunk[],
  language: 'id' | 'en',
): ComposedClaim {
  return {
    text: render(parts, evidence, sources, language),
    statement: render(parts, evidence, sources, language, false),
    evidence,
    composition: { template, language, parts },
  };
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
  const measures = plan.slots.measures;
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
