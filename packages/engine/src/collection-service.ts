/**
 * The engine's collections (docs/architecture.md, "Storage"): find, list and create them with the
 * engine's embedding model, and change their profile and policy. Every call names its workspace or
 * works in the default one.
 */

import {
  type Collection,
  type CollectionProfile,
  DEFAULT_WORKSPACE,
  ensureCollection,
  getCollection,
  listCollections,
  requireCollection,
  setCollectionGlossary,
  updateCollectionProfile,
} from './collections.js';
import type { Database } from './db/database.js';
import type { EmbeddingModel } from './embed/model.js';
import {
  checkedPackIds,
  DOCUMENT_PACKS,
  type DocumentSample,
  detectPacks,
  type PackId,
  packOverride,
} from './packs/registry.js';

/** How many of a collection's documents, and how much of each, pack detection reads. */
const SAMPLE_DOCUMENTS = 50;
const SAMPLE_CHUNKS = 40;

/** A collection's document packs (docs/engine.md, "Document-type packs"). */
export interface CollectionPacks {
  /** The packs an admin chose (`packs` in the profile), or null when they are detected. */
  override: PackId[] | null;
  /** The kinds of documents the collection holds, detected from a sample of its READY documents. */
  detected: PackId[];
  /** The packs that contribute: the override, or else every pack, each deciding per document. */
  active: PackId[];
}

/** A profile with its `packs` checked (`INVALID_INPUT` on an unknown or repeated id). */
function withCheckedPacks(profile: CollectionProfile): Record<string, unknown> {
  return profile.packs === undefined ? { ...profile } : { ...profile, packs: checkedPackIds(profile.packs) };
}

/** Which workspace a call works in; the default workspace when not given. */
export interface InWorkspace {
  workspaceId?: string;
}

export interface EnsureCollectionOptions extends InWorkspace {
  /** The language of a collection created by this call (default `id`). */
  language?: 'id' | 'en';
  /** The profile of a collection created by this call (an existing one keeps its own). */
  profile?: CollectionProfile;
}

/** Where a record belongs: its collection's workspace (null once the collection is gone), and whether that collection is public. */
export interface RecordOwner {
  workspace_id: string | null;
  public: boolean;
}

const OWNED_TABLES = {
  certificate: 'certificates',
  session: 'chat_sessions',
  document: 'documents',
} as const;

export class Collections {
  constructor(
    private readonly db: Database,
    private readonly embedding: EmbeddingModel,
  ) {}

  /** The collection `name`; NOT_FOUND when the workspace has none by that name. */
  get(name: string, options: InWorkspace = {}): Promise<Collection> {
    return requireCollection(this.db, name, options.workspaceId ?? DEFAULT_WORKSPACE);
  }

  /** The collection `name`, or null when the workspace has none by that name. */
  find(name: string, options: InWorkspace = {}): Promise<Collection | null> {
    return getCollection(this.db, name, options.workspaceId ?? DEFAULT_WORKSPACE);
  }

  /** A workspace's collections by name, each with its count of READY documents. */
  list(options: InWorkspace = {}): Promise<(Collection & { documents: number })[]> {
    return listCollections(this.db, options.workspaceId ?? DEFAULT_WORKSPACE);
  }

  /** The collection `name`, created (with this engine's embedding model) when missing. */
  ensure(name: string, options: EnsureCollectionOptions = {}): Promise<Collection> {
    return ensureCollection(this.db, {
      name,
      ...(options.workspaceId ? { workspaceId: options.workspaceId } : {}),
      language: options.language ?? 'id',
      ...(options.profile ? { profile: withCheckedPacks(options.profile) } : {}),
      embedding: {
        provider: this.embedding.provider,
        model: this.embedding.modelId,
        dimensions: this.embedding.dimensions,
      },
    });
  }

  /**
   * Merges settings into a collection's profile: `domain` (legal, budget, docs, general — which prompt
   * and rules suit it), `rewrite_rules` (pattern-rule groups besides the glossary's: traffic, budget, docs) and
   * `rewrite_weights` ({legal, original, phrases}), and how people see it: `title`, `description` and
   * `examples` per interface language (`{id, en}`; null removes one), and `packs`, the document packs
   * an admin chose (null: detected; an unknown id is `INVALID_INPUT`).
   */
  async configure(name: string, profile: CollectionProfile, options: InWorkspace = {}): Promise<Collection> {
    return updateCollectionProfile(
      this.db,
      name,
      withCheckedPacks(profile),
      options.workspaceId ?? DEFAULT_WORKSPACE,
    );
  }

  /**
   * The collection's document packs: its override, the kinds of documents detected from a sample of
   * its READY documents (their title, type, metadata and first chunks), and the packs that contribute.
   */
  async packs(name: string, options: InWorkspace = {}): Promise<CollectionPacks> {
    const collection = await this.get(name, options);
    const rows = await this.db.query<{
      title: string;
      filename: string;
      mime: string;
      metadata: Record<string, string | number | boolean> | null;
      text: string | null;
    }>(
      `SELECT d.title, d.filename, d.mime, d.metadata,
              (SELECT string_agg(c.text, E'\n' ORDER BY c.position) FROM chunks c
                WHERE c.document_id = d.id AND c.position < $3) AS text
         FROM documents d WHERE d.collection_id = $1 AND d.status = 'READY'
        ORDER BY d.created_at, d.id LIMIT $2`,
      [collection.id, SAMPLE_DOCUMENTS, SAMPLE_CHUNKS],
    );
    const samples: DocumentSample[] = rows.rows.map((row) => ({
      title: row.title,
      filename: row.filename,
      mime: row.mime,
      metadata: row.metadata ?? {},
      text: row.text ?? '',
    }));
    const override = packOverride(collection) ?? null;
    return {
      override,
      detected: detectPacks(samples),
      active: override ?? DOCUMENT_PACKS.map((pack) => pack.id),
    };
  }

  /**
   * Sets the collection's glossary (docs/glossary.md): its dictionary, translations and pattern-rule
   * groups, checked first (`INVALID_GLOSSARY` names the bad entry); null removes it. Answers cached
   * under another glossary are not served again.
   */
  setGlossary(name: string, glossary: unknown, options: InWorkspace = {}): Promise<Collection> {
    return setCollectionGlossary(this.db, name, glossary, options.workspaceId ?? DEFAULT_WORKSPACE);
  }

  /**
   * Collection policy: with `require_anchor`, certificates block claims whose evidence is not yet
   * anchored on chain (reason ANCHOR_REQUIRED), and verifiers do the same unless they checked the anchor.
   */
  setPolicy(
    name: string,
    policy: { require_anchor: boolean },
    options: InWorkspace = {},
  ): Promise<Collection> {
    return updateCollectionProfile(
      this.db,
      name,
      { require_anchor: policy.require_anchor },
      options.workspaceId ?? DEFAULT_WORKSPACE,
    );
  }

  /**
   * The workspace a certificate, chat session or document belongs to (through its collection) and
   * whether that collection is public; null when there is no such record.
   */
  async ownerOf(kind: keyof typeof OWNED_TABLES, id: string): Promise<RecordOwner | null> {
    const result = await this.db.query<{ workspace_id: string | null; public: boolean | null }>(
      `SELECT c.workspace_id, (c.profile->>'public')::boolean AS public
         FROM ${OWNED_TABLES[kind]} r LEFT JOIN collections c ON c.id = r.collection_id WHERE r.id = $1`,
      [id],
    );
    const row = result.rows[0];
    return row ? { workspace_id: row.workspace_id, public: row.public === true } : null;
  }
}
