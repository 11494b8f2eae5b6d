/**
 * The registry of document packs (pack.ts): the one module of general code that imports a pack. It
 * lists the packs, picks a collection's packs and runs their contributions for ingestion and
 * answering (docs/engine.md, "Document-type packs").
 *
 * A collection's packs are its override (`packs` in its profile, set by an admin), or else every
 * pack, each deciding by its detector, document by document, whether a document is of its kind: a
 * regulation is structured as one wherever it is ingested, as before packs. {@link detectPacks} names
 * the kinds a set of documents holds (`plain` when none); `Collections.packs` reports it for a
 * collection beside its override.
 */
import type { ComposedClaim } from '../answer/compose.js';
import type { QuestionPlan } from '../answer/question-plan.js';
import type { Collection } from '../collections.js';
import type { Database, Queryable } from '../db/database.js';
import { EngineError } from '../errors.js';
import type { ParsedDocument } from '../types.js';
import { budgetPack } from './budget/index.js';
import { legislationPack } from './legislation/index.js';
import type {
  ClaimInput,
  DocumentPack,
  DocumentSample,
  FollowingInput,
  PackId,
  ProvisionLinks,
  RewriteGroup,
  StructureInput,
} from './pack.js';
import { PACK_IDS } from './pack.js';
import { plainPack } from './plain/index.js';
import { softwareDocsPack } from './software-docs/index.js';

/** Every pack, in the order their contributions run: the first that structures a document wins. */
export const DOCUMENT_PACKS: readonly DocumentPack[] = [
  legislationPack,
  budgetPack,
  softwareDocsPack,
  plainPack,
];

export type { DocumentPack, DocumentSample, PackId, RewriteGroup, RewriteRule } from './pack.js';
export { PACK_IDS } from './pack.js';

/** The pack of `id`. */
export function packById(id: PackId): DocumentPack {
  return DOCUMENT_PACKS.find((pack) => pack.id === id)!;
}

/** The kinds of documents `samples` holds: every pack whose detector says so, or `plain` when none does. */
export function detectPacks(samples: readonly DocumentSample[]): PackId[] {
  const found = DOCUMENT_PACKS.filter(
    (pack) => pack.id !== 'plain' && samples.some((sample) => pack.detect(sample)),
  ).map((pack) => pack.id);
  return found.length > 0 ? found : ['plain'];
}

/**
 * A list of pack ids as an admin gives it, checked: known ids, each once (order kept); null removes
 * the override. Anything else is `INVALID_INPUT` naming the ids there are.
 */
export function checkedPackIds(value: unknown): PackId[] | null {
  if (value === null) return null;
  const known = PACK_IDS as readonly string[];
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    !value.every((id) => typeof id === 'string' && known.includes(id)) ||
    new Set(value).size !== value.length
  )
    throw new EngineError(
      'INVALID_INPUT',
      `A collection's packs must be a non-empty list of distinct pack ids (${PACK_IDS.join(', ')}), or null to detect them.`,
    );
  return value as PackId[];
}

/** The collection's override (`packs` in its profile), or undefined when its packs are detected. */
export function packOverride(collection: Pick<Collection, 'profile'>): PackId[] | undefined {
  const value = collection.profile['packs'];
  if (!Array.isArray(value)) return undefined;
  const known = PACK_IDS as readonly string[];
  return value.filter((id): id is PackId => typeof id === 'string' && known.includes(id));
}

/** The packs that may contribute to a collection: its override, else every pack (each detecting per document). */
export function collectionPacks(collection: Pick<Collection, 'profile'>): readonly DocumentPack[] {
  const override = packOverride(collection);
  return override ? DOCUMENT_PACKS.filter((pack) => override.includes(pack.id)) : DOCUMENT_PACKS;
}

/** The packs of `ids` (every pack when undefined). */
function packsOf(ids: readonly PackId[] | undefined): readonly DocumentPack[] {
  return ids ? DOCUMENT_PACKS.filter((pack) => ids.includes(pack.id)) : DOCUMENT_PACKS;
}

/**
 * Ingestion, in the extraction process: the document structured by the first of the packs `ids`
 * (every pack when undefined) that recognizes it, then the metadata each of them reads from it.
 */
export function structureDocument(input: StructureInput, ids?: readonly PackId[]): ParsedDocument {
  const packs = packsOf(ids);
  let document = input.parsed;
  let structured = false;
  for (const pack of packs) {
    const result = pack.structure?.(input);
    if (result) {
      document = result;
      structured = true;
      break;
    }
  }
  for (const pack of packs) {
    const metadata = pack.metadata?.(document, structured);
    if (metadata) document = { ...document, metadata: { ...document.metadata, ...metadata } };
  }
  return document;
}

/** Ingestion, in the transaction that makes a document READY: each pack's index of it; the rows written. */
export async function indexDocument(
  tx: Queryable,
  collection: Pick<Collection, 'profile'>,
  documentId: string,
): Promise<number> {
  let rows = 0;
  for (const pack of collectionPacks(collection))
    if (pack.indexDocument) rows += await pack.indexDocument(tx, documentId);
  return rows;
}

/** On engine open: each pack's backfill of its index, in turn. */
export async function backfillPacks(db: Database): Promise<void> {
  for (const pack of DOCUMENT_PACKS) await pack.backfill?.(db);
}

/** Retrieval: the documents the question names, from the first of the collection's packs that finds any. */
export async function scopedDocuments(
  db: Queryable,
  collection: Collection,
  question: string,
): Promise<string[] | undefined> {
  for (const pack of collectionPacks(collection)) {
    const documents = await pack.scope?.(db, collection, question);
    if (documents) return documents;
  }
  return undefined;
}

/**
 * Retrieval: the query rewriter's pattern-rule groups (each pack's `rewriteGroup`), by name. A
 * collection enables them through its glossary or `rewrite_rules`, not through its packs: the demo's
 * traffic law and a ministry's regulations are both legislation, and only the first asks for them.
 */
export const REWRITE_GROUPS: readonly RewriteGroup[] = DOCUMENT_PACKS.flatMap((pack) =>
  pack.rewriteGroup ? [pack.rewriteGroup] : [],
);

/** The rewrite groups of `names` (unknown names skipped), in the registry's order. */
export function rewriteGroupsNamed(names: readonly string[]): RewriteGroup[] {
  return REWRITE_GROUPS.filter((group) => names.includes(group.name));
}

/** Every phrase any rewrite rule adds: the wording of a kind of provision, not of what it is about. */
export const REWRITE_PHRASES: readonly string[] = [
  ...new Set(REWRITE_GROUPS.flatMap((group) => group.rules.flatMap((rule) => rule.add))),
];

/**
 * Understanding: the measures a question names in every pack's vocabulary. Every pack reads it, as
 * the plan is made before the collection's documents are searched; a measure only adds a slot.
 */
export function questionMeasures(normalizedQuestion: string): string[] {
  return DOCUMENT_PACKS.flatMap((pack) => pack.questionMeasures?.(normalizedQuestion) ?? []);
}

/**
 * Selection: the claims of the first of the collection's packs that answers the question itself;
 * undefined when none does (an empty list: the question must get no other answer).
 */
export async function packClaims(input: ClaimInput): Promise<ComposedClaim[] | undefined> {
  for (const pack of collectionPacks(input.collection)) {
    const claims = await pack.claims?.(input);
    if (claims) return claims;
  }
  return undefined;
}

/**
 * Selection: the quotes that complete the offline answer from one source (a how-to step's code), from
 * the first of the collection's packs that has any.
 */
export async function followingQuotes(
  collection: Pick<Collection, 'profile'>,
  input: FollowingInput,
): Promise<ComposedClaim[]> {
  for (const pack of collectionPacks(collection)) {
    const quotes = (await pack.following?.(input)) ?? [];
    if (quotes.length > 0) return quotes;
  }
  return [];
}

const NO_LINKS: ProvisionLinks = {
  sanctionsFor: async () => [],
  rulesFor: async () => [],
  provision: async () => undefined,
  elucidation: async () => undefined,
  dependents: async () => [],
};

/** Selection: the provisions linked by their text, from the collection's pack that reads them (none otherwise). */
export function provisionLinks(db: Queryable, collection: Collection): ProvisionLinks {
  for (const pack of collectionPacks(collection)) if (pack.links) return pack.links(db, collection);
  return NO_LINKS;
}

/** Refusals: the citation label of what was asked, where the collection states it only unreadably. */
export async function unreadableEvidence(
  db: Queryable,
  collection: Collection,
  plan: QuestionPlan,
): Promise<string | undefined> {
  for (const pack of collectionPacks(collection)) {
    const label = await pack.unreadable?.(db, collection, plan);
    if (label) return label;
  }
  return undefined;
}

// The legislation pack's reference reading, used by the offline selection of sanctions and rules
// (answer/select.ts), and its public names (the engine's index).
export {
  internalReferences,
  legalCitationLabel,
  listItems,
  parseReferences,
  parseRegulation,
  type RegulationAyat,
  type RegulationOutline,
  type RegulationPasal,
  type RegulationPoint,
  referencedItems,
  regulationOutline,
  regulationShortName,
} from './legislation/index.js';
