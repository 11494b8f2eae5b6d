/**
 * A document pack: what Saksi knows about one kind of document (Indonesian legislation, Indonesian
 * budget statutes, software documentation), kept behind one small interface so that ingestion and
 * answering stay general (docs/engine.md, "Document-type packs"). Each pack lives in its own folder
 * under `packs/`; `registry.ts` lists them, picks a collection's packs and is the only general module
 * that imports one.
 *
 * Every contribution is optional; a pack offers only what its documents need. The interface carries
 * a version (`specificationVersion`) so that a change of its shape is explicit.
 */
import type { ComposedClaim, SourceSpan } from '../answer/compose.js';
import type { QuestionPlan } from '../answer/question-plan.js';
import type { Collection } from '../collections.js';
import type { Database, Queryable } from '../db/database.js';
import type { QuestionKind } from '../language/question-kinds.js';
import type { RetrievedChunk } from '../retrieve/retrieve.js';
import type { ParsedDocument } from '../types.js';
import type { RewriteGroupName } from './rewrite-groups.js';

/** The version of this interface; a pack states the one it implements. */
export const DOCUMENT_PACK_SPECIFICATION = 1;

/** The packs there are (registry.ts lists one of each). */
export const PACK_IDS = ['legislation', 'budget', 'software-docs', 'plain'] as const;
export type PackId = (typeof PACK_IDS)[number];

/** What a detector sees of one document: its parsed title, type, metadata and leading text. */
export interface DocumentSample {
  title: string;
  /** The detected media type (`text/markdown`, `application/pdf`, …). */
  mime: string;
  metadata: Readonly<Record<string, string | number | boolean>>;
  /** The document's text, or its first part (detectors read at most the first 20,000 characters). */
  text: string;
  /** The file name the document was uploaded as, when known (`docs/intro.mdx`). */
  filename?: string;
}

/** The document being structured at ingestion: the parser's result and what it was read from. */
export interface StructureInput {
  parsed: ParsedDocument;
  /** The uploaded bytes (text and Markdown files are read again from them). */
  bytes: Uint8Array;
  /** The file's own name, without its folders. */
  filename: string;
}

/** A question, with what has been found for it, offered to the packs before the general selection. */
export interface ClaimInput {
  db: Queryable;
  collection: Collection;
  plan: QuestionPlan;
  /** The retrieved sources; a pack may append the chunks its claims cite. */
  sources: RetrievedChunk[];
}

/** The offline answer's quoted spans in one source, for a pack to complete (`DocumentPack.following`). */
export interface FollowingInput {
  db: Queryable;
  /** The retrieved sources; a pack may append the chunk its quotes cite. */
  sources: RetrievedChunk[];
  sourceIndex: number;
  quoted: readonly SourceSpan[];
  markers: { source: number; next: number };
}

/**
 * Provisions linked to one another by their text (a criminal provision naming the Pasal it
 * sanctions), read from the stored chunks; the offline selection follows them (answer/select.ts,
 * `StatuteLinks`, has the same shape).
 */
export interface ProvisionLinks {
  sanctionsFor(ref: { pasal: string; ayat?: string }): Promise<RetrievedChunk[]>;
  rulesFor(sanction: { text: string; pasal?: string }): Promise<RetrievedChunk[]>;
  provision(ref: { pasal: string; ayat?: string }): Promise<RetrievedChunk | undefined>;
  elucidation(ref: { pasal: string; ayat?: string }): Promise<RetrievedChunk | undefined>;
  dependents(ref: { pasal: string; ayat?: string }): Promise<RetrievedChunk[]>;
}

/** A pattern rule: a question of `kind` (language/question-kinds.ts) searched with the documents' wording too. */
export interface RewriteRule {
  kind: QuestionKind;
  /** Wording the documents use for such provisions; each phrase occurs in them. Empty: the kind is only marked. */
  add: readonly string[];
  /** Only when the question opens with its kind ("what is …"), not when it mentions it on the way. */
  opening?: boolean;
}

/** A pack's pattern rules, enabled together under one name. */
export interface RewriteGroup {
  /** The name a glossary's `pattern_groups` enables the group by (rewrite-groups.ts). */
  name: RewriteGroupName;
  rules: readonly RewriteRule[];
  /**
   * The years a question names are fiscal years: one year is searched within that year's documents
   * first, a comparison of years with one variant per year.
   */
  fiscalYears?: boolean;
}

export interface DocumentPack {
  /** The version of this interface the pack implements ({@link DOCUMENT_PACK_SPECIFICATION}). */
  readonly specificationVersion: typeof DOCUMENT_PACK_SPECIFICATION;
  readonly id: PackId;
  /** The pack's own version; bumped when what it contributes changes. */
  readonly version: string;
  /** One line on the documents it is for. */
  readonly description: string;
  /** Whether a document is of this pack's kind, by its content (and type and metadata). */
  detect(sample: DocumentSample): boolean;
  /**
   * The query rewriter's pattern rules for this pack's documents (retrieve/rewrite.ts): the wording its
   * documents use for a kind of question. A collection enables the group by its name through its
   * glossary or `rewrite_rules` (docs/glossary.md).
   */
  readonly rewriteGroup?: RewriteGroup;
  /**
   * Ingestion, in the extraction process: the document re-read in the pack's structure (a
   * regulation's BAB, Pasal and ayat), or null when it is not of this kind. The first pack that
   * returns a document structures it.
   */
  structure?(input: StructureInput): ParsedDocument | null;
  /**
   * Ingestion, in the extraction process, after structuring: metadata the pack reads from a
   * document (a budget annex's fiscal year). `structured` says whether a pack structured it.
   */
  metadata?(document: ParsedDocument, structured: boolean): Record<string, string | number> | undefined;
  /**
   * Ingestion, in the transaction that makes a stored document READY (and in a dedupe's copy): the
   * pack's own index of the document (the budget figure table); returns the rows written.
   */
  indexDocument?(tx: Queryable, documentId: string): Promise<number>;
  /**
   * On every engine open, after the migrations: brings the pack's index up to date for documents
   * stored before it existed or before its reading changed; cheap when it is current.
   */
  backfill?(db: Database): Promise<unknown>;
  /**
   * Retrieval: the documents a question names (a regulation by its number), searched first, or
   * undefined when it names none or naming does not narrow the collection.
   */
  scope?(db: Queryable, collection: Collection, question: string): Promise<string[] | undefined>;
  /** Understanding: the measures a question names in the pack's vocabulary (plan.slots.measures). */
  questionMeasures?(normalizedQuestion: string): string[];
  /**
   * Selection: claims the pack answers the question with before the general selection; undefined
   * when it has none, an empty list when the question must get no other answer (the statute states
   * it, but only in a form OCR misread).
   */
  claims?(input: ClaimInput): Promise<ComposedClaim[] | undefined>;
  /**
   * Selection: quotes that complete the offline answer from one source after its quoted spans (the
   * code a how-to step introduces); `markers` are the citation markers of that source and of the next
   * source the quotes may add to `sources`. An empty list when the pack has none to add.
   */
  following?(input: FollowingInput): Promise<ComposedClaim[]>;
  /** Selection: the provisions linked by their text, for the offline selection to follow. */
  links?(db: Queryable, collection: Collection): ProvisionLinks;
  /**
   * Refusals: where the collection states what was asked only in a form that cannot be quoted (OCR
   * misread it): the citation label the refusal names.
   */
  unreadable?(db: Queryable, collection: Collection, plan: QuestionPlan): Promise<string | undefined>;
}
