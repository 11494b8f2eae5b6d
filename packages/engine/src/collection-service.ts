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
      ...(options.profile ? { profile: { ...options.profile } } : {}),
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
   * `examples` per interface language (`{id, en}`; null removes one).
   */
  configure(name: string, profile: CollectionProfile, options: InWorkspace = {}): Promise<Collection> {
    return updateCollectionProfile(this.db, name, { ...profile }, options.workspaceId ?? DEFAULT_WORKSPACE);
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
