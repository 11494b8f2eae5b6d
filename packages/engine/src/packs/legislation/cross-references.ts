/**
 * Cross-references between the provisions of a statute. A criminal provision names the rule it
 * punishes ("… sebagaimana dimaksud dalam Pasal 106 ayat (8) dipidana …"), so a sanction can be
 * found from its rule and a rule from its sanction, in the stored chunks of one collection
 * (docs/engine.md, "Answering").
 */
import type { Collection } from '../../collections.js';
import type { Queryable } from '../../db/database.js';
import { loadChunks, type RetrievedChunk, toRetrievedChunk } from '../../retrieve/retrieve.js';

export interface ProvisionRef {
  pasal: string;
  ayat?: string;
}

const PASAL = /^\d{1,4}[A-Z]?$/;
const AYAT = /^\d{1,3}[a-z]?$/;
/** "Pasal 106 ayat (8)", "Pasal 48 ayat (2) dan ayat (3)", "Pasal 77". */
const REFERENCE = /Pasal\s+(\d{1,4}[A-Z]?)((?:\s*(?:,|dan|atau)?\s*ayat\s*\(\d{1,3}[a-z]?\))*)/g;

/** The provisions `text` refers to, in order, without repeats. */
export function parseReferences(text: string): ProvisionRef[] {
  const refs: ProvisionRef[] = [];
  const seen = new Set<string>();
  const push = (ref: ProvisionRef) => {
    const key = `${ref.pasal}/${ref.ayat ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    refs.push(ref);
  };
  for (const match of text.matchAll(REFERENCE)) {
    const pasal = match[1]!;
    const ayat = [...(match[2] ?? '').matchAll(/\((\d{1,3}[a-z]?)\)/g)].map((item) => item[1]!);
    if (ayat.length === 0) push({ pasal });
    for (const item of ayat) push({ pasal, ayat: item });
  }
  return refs;
}

/** Matched without regard to case: a provision may open with its penalty ("Dipidana dengan …, setiap …"). */
const SANCTION = '(dipidana|sanksi administratif)';

async function asResults(db: Queryable, ids: string[]): Promise<RetrievedChunk[]> {
  const rows = await loadChunks(db, ids);
  return ids.flatMap((id) => {
    const row = rows.get(id);
    return row ? [toRetrievedChunk(row, { score: 0, rank: 0, ranks: {} })] : [];
  });
}

/** Criminal provisions of the collection that refer to `ref` (READY documents, body text only). */
export async function sanctionsFor(
  db: Queryable,
  collection: Pick<Collection, 'id'>,
  ref: ProvisionRef,
  limit = 3,
): Promise<RetrievedChunk[]> {
  if (!PASAL.test(ref.pasal) || (ref.ayat !== undefined && !AYAT.test(ref.ayat))) return [];
  const pattern =
    ref.ayat !== undefined
      ? `Pasal ${ref.pasal}(\\s*(,|dan|atau)?\\s*ayat\\s*\\(\\d+[a-z]?\\))*\\s*(,|dan|atau)?\\s*ayat\\s*\\(${ref.ayat}\\)`
      : `Pasal ${ref.pasal}([^0-9A-Z]|$)`;
  const found = await db.query<{ id: string }>(
    `SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id
      WHERE c.collection_id = $1 AND d.status = 'READY' AND COALESCE((c.legal->>'penjelasan')::boolean, false) = false
        AND c.text ~* $2 AND c.text ~ $3
      ORDER BY c.position LIMIT $4`,
    [collection.id, SANCTION, pattern, limit],
  );
  return asResults(
    db,
    found.rows.map((row) => row.id),
  );
}

/**
 * The provisions a criminal provision refers to (READY documents, body text only); its own Pasal
 * (the heading its chunk starts with) is not a reference.
 */
export async function rulesFor(
  db: Queryable,
  collection: Pick<Collection, 'id'>,
  sanction: { text: string; pasal?: string },
  limit = 2,
): Promise<RetrievedChunk[]> {
  const refs = parseReferences(sanction.text)
    .filter((ref) => ref.pasal !== sanction.pasal)
    .slice(0, limit);
  const rules: RetrievedChunk[] = [];
  for (const ref of refs) {
    const rule = await provisionChunk(db, collection, ref);
    if (rule && !rules.some((known) => known.chunk_id === rule.chunk_id)) rules.push(rule);
  }
  return rules;
}

/**
 * The items ("huruf") of a rule that a sanction names: "sebagaimana dimaksud dalam Pasal 106 ayat (5)
 * huruf b" gives ["b"] for Pasal 106 ayat (5); none when the sanction names the whole provision.
 */
export function referencedItems(sanction: string, rule: ProvisionRef): string[] {
  if (!PASAL.test(rule.pasal) || (rule.ayat !== undefined && !AYAT.test(rule.ayat))) return [];
  const ayat = rule.ayat !== undefined ? `\\s*ayat\\s*\\(${rule.ayat}\\)` : '';
  const pattern = new RegExp(
    `Pasal\\s+${rule.pasal}${ayat}\\s*huruf\\s+([a-z])((?:\\s*(?:,|dan|atau)\\s*(?:huruf\\s+)?[a-z](?![\\p{L}]))*)`,
    'gu',
  );
  const letters = new Set<string>();
  for (const match of sanction.matchAll(pattern)) {
    letters.add(match[1]!);
    for (const more of (match[2] ?? '').matchAll(/(?:^|[\s,])(?:huruf\s+)?([a-z])(?![\p{L}])/gu))
      letters.add(more[1]!);
  }
  return [...letters];
}

/**
 * The part of a provision that its items `letters` belong to: the list's introduction ("Pada saat
 * diadakan pemeriksaan … wajib menunjukkan:") and those items ("b. Surat Izin Mengemudi;").
 */
export function listItems(text: string, letters: readonly string[]): string[] {
  if (letters.length === 0) return [];
  const lines = text.split('\n').map((line) => line.trim());
  const first = lines.findIndex((line) => /^[a-z]\.\s/.test(line));
  if (first < 0) return [];
  const intro = lines.slice(0, first).filter((line) => /:$/.test(line));
  const items = lines.slice(first).filter((line) => {
    const letter = /^([a-z])\.\s/.exec(line)?.[1];
    return letter !== undefined && letters.includes(letter);
  });
  return items.length > 0 ? [...intro.slice(-1), ...items] : [];
}

/** The ayat of its own Pasal a provision refers to: "sebagaimana dimaksud pada ayat (4)" gives ["4"]. */
export function internalReferences(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:dimaksud|disebut)\s+pada\s+ayat\s*\((\d{1,3}[a-z]?)\)/g))
    if (!found.includes(match[1]!)) found.push(match[1]!);
  return found;
}

/** The body chunk of one provision of the collection (READY documents), or its elucidation, if stored. */
export async function provisionChunk(
  db: Queryable,
  collection: Pick<Collection, 'id'>,
  ref: ProvisionRef,
  options: { elucidation?: boolean } = {},
): Promise<RetrievedChunk | undefined> {
  if (!PASAL.test(ref.pasal) || (ref.ayat !== undefined && !AYAT.test(ref.ayat))) return undefined;
  const found = await db.query<{ id: string }>(
    `SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id
      WHERE c.collection_id = $1 AND d.status = 'READY' AND COALESCE((c.legal->>'penjelasan')::boolean, false) = $4
        AND c.legal->>'pasal' = $2 AND ($3::text IS NULL OR c.legal->>'ayat' = $3)
      ORDER BY c.position LIMIT 1`,
    [collection.id, ref.pasal, ref.ayat ?? null, options.elucidation === true],
  );
  const id = found.rows[0]?.id;
  return id ? (await asResults(db, [id]))[0] : undefined;
}

/** The elucidation (Penjelasan) of one provision, if the statute has one for it. */
export function elucidationChunk(
  db: Queryable,
  collection: Pick<Collection, 'id'>,
  ref: ProvisionRef,
): Promise<RetrievedChunk | undefined> {
  return provisionChunk(db, collection, ref, { elucidation: true });
}

/**
 * The later ayat of a provision's Pasal that build on an earlier one ("Dalam hal perbuatan
 * sebagaimana dimaksud pada ayat (4) mengakibatkan orang lain meninggal dunia, …"): the graver
 * forms of an offence, which a question about its consequences asks for.
 */
export async function dependentAyat(
  db: Queryable,
  collection: Pick<Collection, 'id'>,
  ref: ProvisionRef,
  limit = 8,
): Promise<RetrievedChunk[]> {
  if (!PASAL.test(ref.pasal)) return [];
  const found = await db.query<{ id: string; text: string }>(
    `SELECT c.id, c.text FROM chunks c JOIN documents d ON d.id = c.document_id
      WHERE c.collection_id = $1 AND d.status = 'READY' AND COALESCE((c.legal->>'penjelasan')::boolean, false) = false
        AND c.legal->>'pasal' = $2 AND c.legal->>'ayat' IS NOT NULL AND c.legal->>'ayat' IS DISTINCT FROM $3
      ORDER BY c.position LIMIT $4`,
    [collection.id, ref.pasal, ref.ayat ?? null, limit],
  );
  const ids = found.rows.filter((row) => internalReferences(row.text).length > 0).map((row) => row.id);
  return ids.length > 0 ? asResults(db, ids) : [];
}
