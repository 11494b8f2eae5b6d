/**
 * A question that names a regulation by its number ("PMK 186/PMK.07/2011", "UU 22/2009", "PP Nomor
 * 55 Tahun 2012", "Perda No. 3 tahun 2019") is about that regulation: in a collection of several,
 * it is first searched within the documents whose recorded identity (docs/engine.md, "Regulations":
 * `regulation_number` and `regulation_year` in the document's metadata) is the one named, so a
 * near-identical regulation of another number or year does not answer for it. A number no document
 * carries, or one every document carries, changes nothing.
 */
import type { Collection } from '../../collections.js';
import type { Queryable } from '../../db/database.js';

/** A regulation a question names: its number, and the year and kind when it says them. */
export interface NamedRegulation {
  /** The regulation's own number: "186" of "186/PMK.07/2011", "22" of "UU 22/2009". */
  number: string;
  year?: number;
  /** The kind as written, lower case: "pmk", "uu", "pp", … */
  kind?: string;
}

const YEAR = '((?:19|20)\\d\\d)(?!\\d)';

/** A ministry's or agency's numbering: "186/PMK.07/2011", "77/POJK.01/2016", "12/PBI/2010". */
const AGENCY_NUMBER = new RegExp(
  `(?<![\\p{L}\\d])(\\d{1,4})\\s*/\\s*([\\p{L}]{2,10})(?:\\.\\d{1,3})?\\s*/\\s*${YEAR}`,
  'giu',
);

/**
 * A kind and its number: "UU 22/2009", "UU No. 22 Tahun 2009", "PP nomor 55 tahun 2012", "Perpres 12".
 * The kinds are the short names of the UU 12/2011 hierarchy (Pasal 7) and of the other regulations it
 * recognizes (Pasal 8: a ministry's, Bank Indonesia's, a commission's or agency's, a region's).
 */
const KIND_NUMBER = new RegExp(
  `(?<![\\p{L}\\d])(uu|undang-undang|perppu|perpu|pp|perpres|keppres|inpres|permen\\p{L}*|pmk|pojk|pbi|perma|pkpu|perban|perda|pergub|perbup|perwal|perpol|perkap)\\s*(?:no\\.?|nomor|nomer)?\\s*(\\d{1,4})(?:\\s*(?:/|tahun|thn\\.?|th\\.?)\\s*${YEAR})?`,
  'giu',
);

/** "Nomor 22 Tahun 2009" without a kind. */
const NUMBER_YEAR = new RegExp(
  `(?<![\\p{L}\\d])(?:no\\.?|nomor|nomer)\\s*(\\d{1,4})\\s+tahun\\s+${YEAR}`,
  'giu',
);

/** The regulations `question` names by number, each once. */
export function namedRegulations(question: string): NamedRegulation[] {
  const found = new Map<string, NamedRegulation>();
  const add = (named: NamedRegulation) => {
    const key = `${named.kind ?? ''}|${named.number}|${named.year ?? ''}`;
    if (!found.has(key)) found.set(key, named);
  };
  const taken: [number, number][] = [];
  const free = (start: number, end: number) => taken.every(([from, to]) => end <= from || start >= to);
  for (const match of question.matchAll(AGENCY_NUMBER)) {
    taken.push([match.index, match.index + match[0].length]);
    add({ number: String(Number(match[1])), year: Number(match[3]), kind: match[2]!.toLowerCase() });
  }
  for (const match of question.matchAll(KIND_NUMBER)) {
    if (!free(match.index, match.index + match[0].length)) continue;
    taken.push([match.index, match.index + match[0].length]);
    const kind = match[1]!.toLowerCase();
    add({
      number: String(Number(match[2])),
      ...(match[3] ? { year: Number(match[3]) } : {}),
      kind: kind === 'undang-undang' ? 'uu' : kind === 'perpu' ? 'perppu' : kind,
    });
  }
  for (const match of question.matchAll(NUMBER_YEAR)) {
    if (!free(match.index, match.index + match[0].length)) continue;
    add({ number: String(Number(match[1])), year: Number(match[2]) });
  }
  return [...found.values()];
}

/** A stored document's identity, as ingestion records it. */
export interface DocumentIdentity {
  id: string;
  /** "186/PMK.07/2011" or "22". */
  number: string;
  year: number | null;
  /** The kind's short name: "PMK", "UU", … */
  kind: string | null;
}

/** Whether `document` is the regulation `named` says. */
export function isNamed(document: DocumentIdentity, named: NamedRegulation): boolean {
  const own = /^\s*(\d{1,4})/.exec(document.number);
  if (!own || String(Number(own[1])) !== named.number) return false;
  if (named.year !== undefined && document.year !== null && document.year !== named.year) return false;
  if (named.kind === undefined || document.kind === null) return true;
  const kind = document.kind.toLowerCase();
  // "Permenkeu", "Permendagri" name a Permen; a ministry's numbering carries its own code ("PMK", "POJK").
  return (
    kind === named.kind ||
    (named.kind.startsWith('permen') && kind.startsWith('permen')) ||
    document.number.toLowerCase().includes(`/${named.kind}`)
  );
}

/** The identities of the collection's searchable regulations (those ingestion recognized). */
export async function regulationIdentities(
  db: Queryable,
  collection: Pick<Collection, 'id'>,
): Promise<DocumentIdentity[]> {
  const result = await db.query<{ id: string; number: string; year: string | null; kind: string | null }>(
    `SELECT id, metadata->>'regulation_number' AS number, metadata->>'regulation_year' AS year,
            metadata->>'document_type' AS kind
       FROM documents
      WHERE collection_id = $1 AND status = 'READY' AND metadata ? 'regulation_number'`,
    [collection.id],
  );
  return result.rows.map((row) => ({
    id: row.id,
    number: row.number,
    year: row.year !== null && /^\d{4}$/.test(row.year) ? Number(row.year) : null,
    kind: row.kind,
  }));
}

/**
 * The documents of the regulations `question` names, when that narrows the collection: undefined when
 * it names none, when no document is one it names, or when every regulation of the collection is.
 */
export async function documentsNamedBy(
  db: Queryable,
  collection: Pick<Collection, 'id'>,
  question: string,
): Promise<string[] | undefined> {
  const named = namedRegulations(question);
  if (named.length === 0) return undefined;
  const identities = await regulationIdentities(db, collection);
  const matched = identities.filter((document) => named.some((entry) => isNamed(document, entry)));
  if (matched.length === 0 || matched.length === identities.length) return undefined;
  return matched.map((document) => document.id);
}
