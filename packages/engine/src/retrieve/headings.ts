/**
 * The heading arm of retrieval: chunks ranked by how well the headings above them match the question.
 * A heading names what its section answers ("What is Redux?", "Dispatch", "Paragraf 5 Kecepatan",
 * "Why isn't my component re-rendering?"), often in the words a reader asks with, while the section's
 * text may not repeat them; FAQ pages are written as headings that are questions.
 *
 * Each section (a document and one `section_path`) is an entry with two fields: its own heading (the
 * last heading of the path that is not a statute's unit: "Pasal 106", "Penjelasan", "Pasal demi
 * Pasal") and its context (the document title and the headings above). An entry scores the idf-weighted
 * overlap of its lexemes with the question's, as a share of both (so a short heading the question
 * covers whole wins), the own heading counting more than the context; the words both share before
 * stemming and stopwords (the "what is" of "what is redux?" and "What is Redux?") break ties. Idf is over
 * the collection's sections. The sections are read once per collection and cached until its chunk
 * count changes.
 */
import type { Collection } from '../collections.js';
import type { Queryable } from '../db/database.js';
import { withoutStopwords } from '../language/stopwords.js';
import { lexemesOf } from './lexemes.js';

interface Section {
  /** Its place in the index (documents by id, chunks by position). */
  order: number;
  documentId: string;
  status: string;
  documentType: string | null;
  fiscalYear: number | null;
  own: string[];
  context: string[];
  /** Words of the own heading as written (lower case), stopwords included. */
  words: Set<string>;
  /** The section's chunks in document order. */
  chunkIds: string[];
}

interface SectionIndex {
  total: number;
  sections: Section[];
  idf: Map<string, number>;
  /** The sections whose own heading has each lexeme: only they can score. */
  byLexeme: Map<string, Section[]>;
}

/** Path elements that are a statute's units, not headings that say what a section is about. */
const LEGAL_UNIT = /^(?:Pasal\s+\d+\w*|Penjelasan|Pasal demi Pasal|Pembukaan|Penutup)$/iu;
/** The own heading weighs this much more than the title and the headings above it. */
const CONTEXT_SHARE = 0.35;
/** Weight of the shared words as written (stopwords included), a tie-breaker. */
const WORDS_SHARE = 0.15;
/** Sections the index holds at most; a collection with more has no heading arm (its cost would grow). */
const MAX_SECTIONS = 20_000;

const indexes = new Map<string, SectionIndex>();

function wordsOf(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

async function sectionIndex(
  db: Queryable,
  collection: Collection,
  total: number,
): Promise<SectionIndex | null> {
  const cached = indexes.get(collection.id);
  if (cached && cached.total === total) return cached.sections.length > 0 ? cached : null;
  const counted = await db.query<{ sections: number }>(
    `SELECT count(*)::integer AS sections FROM (
       SELECT DISTINCT document_id, section_path FROM chunks WHERE collection_id = $1 LIMIT ${MAX_SECTIONS + 1}
     ) s`,
    [collection.id],
  );
  if ((counted.rows[0]?.sections ?? 0) > MAX_SECTIONS) {
    // Remembered too, so a large collection is not counted again on every question.
    indexes.set(collection.id, { total, sections: [], idf: new Map(), byLexeme: new Map() });
    return null;
  }
  const rows = await db.query<{
    id: string;
    document_id: string;
    title: string;
    section_path: string[];
    status: string;
    document_type: string | null;
    fiscal_year: number | null;
  }>(
    `SELECT c.id, c.document_id, d.title, c.section_path, d.status, d.document_type, d.fiscal_year
       FROM chunks c JOIN documents d ON d.id = c.document_id
      WHERE c.collection_id = $1 AND d.status IN ('READY', 'ARCHIVED')
      ORDER BY c.document_id, c.position`,
    [collection.id],
  );
  const byKey = new Map<
    string,
    { row: (typeof rows.rows)[number]; own: string; context: string; ids: string[] }
  >();
  for (const row of rows.rows) {
    const key = `${row.document_id}\u0000${JSON.stringify(row.section_path)}`;
    let entry = byKey.get(key);
    if (!entry) {
      const headings = row.section_path.filter((heading) => !LEGAL_UNIT.test(heading.trim()));
      const own = headings.at(-1) ?? '';
      entry = { row, own, context: [row.title, ...headings.slice(0, -1)].join(' \u2022 '), ids: [] };
      byKey.set(key, entry);
    }
    entry.ids.push(row.id);
  }
  const entries = [...byKey.values()];
  const texts = entries.flatMap((entry) => [
    withoutStopwords(entry.own, collection.language),
    withoutStopwords(entry.context, collection.language),
  ]);
  const lexemes = texts.length > 0 ? await lexemesOf(db, collection, texts) : [];
  const sections: Section[] = entries.map((entry, index) => ({
    order: index,
    documentId: entry.row.document_id,
    status: entry.row.status,
    documentType: entry.row.document_type,
    fiscalYear: entry.row.fiscal_year,
    own: lexemes[2 * index] ?? [],
    context: lexemes[2 * index + 1] ?? [],
    words: new Set(wordsOf(entry.own)),
    chunkIds: entry.ids,
  }));
  const df = new Map<string, number>();
  for (const section of sections)
    for (const lexeme of new Set([...section.own, ...section.context]))
      df.set(lexeme, (df.get(lexeme) ?? 0) + 1);
  const count = sections.length;
  const idf = new Map(
    [...df].map(([lexeme, frequency]) => [
      lexeme,
      Math.log((count - frequency + 0.5) / (frequency + 0.5) + 1),
    ]),
  );
  const byLexeme = new Map<string, Section[]>();
  for (const section of sections)
    for (const lexeme of new Set(section.own)) {
      const list = byLexeme.get(lexeme);
      if (list) list.push(section);
      else byLexeme.set(lexeme, [section]);
    }
  const index: SectionIndex = { total, sections, idf, byLexeme };
  indexes.set(collection.id, index);
  return index;
}

/** Idf-weighted overlap of `field` with the query, as the geometric mean of its share of each. */
function overlap(
  field: readonly string[],
  query: Map<string, number>,
  queryTotal: number,
  idf: Map<string, number>,
): number {
  if (field.length === 0 || queryTotal === 0) return 0;
  let fieldTotal = 0;
  let shared = 0;
  for (const lexeme of new Set(field)) {
    const weight = idf.get(lexeme) ?? 0;
    fieldTotal += weight;
    if (query.has(lexeme)) shared += Math.min(weight, query.get(lexeme)!);
  }
  return fieldTotal > 0 ? shared / Math.sqrt(fieldTotal * queryTotal) : 0;
}

export interface HeadingFilter {
  includeArchived?: boolean;
  documentType?: string;
  fiscalYear?: number;
  documentIds?: readonly string[];
}

/** Chunk ids under the sections whose headings best match `question`, best first, at most `limit`. */
export async function headingArm(
  db: Queryable,
  collection: Collection,
  total: number,
  question: string,
  limit: number,
  filter: HeadingFilter = {},
): Promise<string[]> {
  const index = await sectionIndex(db, collection, total);
  if (!index || index.sections.length === 0) return [];
  const [lexemes = []] = await lexemesOf(db, collection, [withoutStopwords(question, collection.language)]);
  const query = new Map<string, number>();
  for (const lexeme of lexemes) {
    const weight = index.idf.get(lexeme);
    if (weight !== undefined) query.set(lexeme, weight);
  }
  const queryTotal = [...query.values()].reduce((sum, weight) => sum + weight, 0);
  if (queryTotal === 0) return [];
  const words = new Set(wordsOf(question));
  // Statuses are read now, not from the cached index: a document archived or restored since the
  // index was read keeps its chunks (and the index its sections) but changes what may be retrieved.
  const statuses = await db.query<{ id: string; status: string }>(
    'SELECT id, status FROM documents WHERE collection_id = $1',
    [collection.id],
  );
  const statusOf = new Map(statuses.rows.map((row) => [row.id, row.status]));
  const scored: { section: Section; order: number; score: number }[] = [];
  const matching = new Set([...query.keys()].flatMap((lexeme) => index.byLexeme.get(lexeme) ?? []));
  for (const section of matching) {
    const status = statusOf.get(section.documentId);
    if (status !== 'READY' && !(filter.includeArchived && status === 'ARCHIVED')) continue;
    if (filter.documentType !== undefined && section.documentType !== filter.documentType) continue;
    if (filter.fiscalYear !== undefined && section.fiscalYear !== filter.fiscalYear) continue;
    if (filter.documentIds !== undefined && !filter.documentIds.includes(section.documentId)) continue;
    const own = overlap(section.own, query, queryTotal, index.idf);
    const context = overlap(section.context, query, queryTotal, index.idf);
    if (own === 0) continue;
    let sharedWords = 0;
    for (const word of section.words) if (words.has(word)) sharedWords++;
    const written = section.words.size > 0 ? sharedWords / section.words.size : 0;
    scored.push({
      section,
      order: section.order,
      score: own + CONTEXT_SHARE * context + WORDS_SHARE * written,
    });
  }
  // Ties keep the sections' order in the collection (documents by id, then position).
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  // The first chunk of every matching section, best section first, then the second chunks, and so on:
  // a long section does not crowd out the other sections that match as well.
  const ids: string[] = [];
  for (let round = 0; ids.length < limit; round++) {
    let added = false;
    for (const { section } of scored) {
      const id = section.chunkIds[round];
      if (id === undefined) continue;
      ids.push(id);
      added = true;
      if (ids.length >= limit) break;
    }
    if (!added) break;
  }
  return ids;
}
