/**
 * The engine: one object the server and the CLI hold. It owns the database, the embedding model, the
 * signing keys and the transparency log, and exposes the operations behind the HTTP API and the CLI
 * (docs/architecture.md, "Interfaces").
 */

import { createRegistryLookup, explorerTxUrl } from '@saksi/contracts';
import {
  type Anchor,
  type AnchorLookup,
  type Bundle,
  type BundleVerification,
  fromBase64,
  type TrustedKeys,
  toHex,
  trustOptions,
  type VerifyBundleOptions,
  verifyBundle,
} from '@saksi/proof';
import { certificateToCredential, type VerifiableCredential } from '@saksi/proof/vc';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { startLocalAnchorProvider } from './anchor/local.js';
import { type AnchorProvider, createEvmAnchorProvider } from './anchor/provider.js';
import { createRpcProbe, type RpcProbe, type RpcProbeError } from './anchor/rpc-probe.js';
import {
  type AnchorEvent,
  AnchorService,
  anchorsFor,
  listRounds,
  ROUND_COLUMNS,
  type RoundRow,
} from './anchor/service.js';
import {
  type AskEvent,
  type AskInput,
  type AskResult,
  ask,
  type ClaimJudge,
  loadBundle,
} from './answer/ask.js';
import { pruneAnswerCache } from './answer/cache.js';
import { createLlmDecomposer } from './answer/decompose.js';
import { combineVerdicts, createLlmJudge, type LlmJudge } from './answer/judge.js';
import { archiveDocument, restoreDocument } from './archive.js';
import { authSecretFromSecrets, loadOrCreateAuthSecret } from './auth.js';
import { backfillBudgetFigures } from './budget/figure-table.js';
import {
  type Collection,
  type CollectionProfile,
  ensureCollection,
  listCollections,
  requireCollection,
  updateCollectionProfile,
} from './collections.js';
import type { SaksiConfig } from './config.js';
import { type Database, openDatabase } from './db/database.js';
import { migrate } from './db/migrate.js';
import type { ReplicaStatus } from './db/replica.js';
import { createHashEmbeddingModel } from './embed/hash.js';
import type { EmbeddingModel } from './embed/model.js';
import { createOpenAICompatibleEmbeddingModel } from './embed/openai-compatible.js';
import { EngineError } from './errors.js';
import {
  type EffectiveQuotas,
  failOrphanedDocuments,
  ingestJobHandler,
  type SubmitResult,
  submitDocument,
  workspaceStorage,
} from './ingest/async.js';
import { openBlob } from './ingest/blob-store.js';
import { type IngestListener, notifyIngested } from './ingest/ingest-report.js';
import {
  type DocumentRecord,
  deleteDocument,
  getDocument,
  type IngestInput,
  type IngestProgress,
  type IngestResult,
  ingestDocument,
  listDocuments,
} from './ingest/pipeline.js';
import { asForeground } from './ingest/priority.js';
import { JobWorker, type JobWorkerOptions } from './jobs/worker.js';
import { keysFromSecrets, loadOrCreateKeys, type SigningKeys, trustRegistry } from './keys.js';
import { createLlmExpander } from './llm/expander.js';
import { type AnswerModel, createAnswerModel } from './llm/model.js';
import { LogSequencer } from './log/sequencer.js';
import { TransparencyLog } from './log/transparency-log.js';
import { openRepositories, type Repositories } from './repositories.js';
import type { QueryExpander } from './retrieve/expander.js';
import { retrieveForQuestion } from './retrieve/plan.js';
import {
  loadChunks,
  type RetrievalArms,
  type RetrievedChunk,
  type RetrieveResult,
  toRetrievedChunk,
} from './retrieve/retrieve.js';
import { deleteEndedSessions } from './sessions.js';
import { deliverDueWebhooks } from './webhooks.js';
import { DEFAULT_WORKSPACE, getWorkspace } from './workspaces.js';

export const ENGINE_VERSION = '0.1.0';
/** Ended chat sessions and stale cached answers are deleted by the job worker at most this often. */
const SESSION_SWEEP_INTERVAL_MS = 60_000;

export interface EngineOptions {
  config: SaksiConfig;
  /** Use this embedding model instead of the configured one (tests). */
  embedding?: EmbeddingModel;
  /** PGlite data directory override; `null` for an in-memory database (tests). */
  pgliteDataDir?: string | null;
  /** Use this answer model instead of the configured one (`SAKSI_LLM`); `null` for none. */
  answerModel?: AnswerModel | null;
  /** PostgreSQL `application_name` of this process's connections (`saksi-serve`, `saksi-worker`). */
  applicationName?: string;
}

export interface QueryInput {
  question: string;
  top_k?: number;
  document_type?: string;
  fiscal_year?: number;
  /** Which retrieval arms run (default `hybrid`); the evaluation compares them. */
  arms?: RetrievalArms;
  /** Add the dictionary rewrites to the question (default true); false searches the question alone. */
  rewrite?: boolean;
}

export class Engine {
  readonly config: SaksiConfig;
  readonly db: Database;
  readonly embedding: EmbeddingModel;
  readonly keys: SigningKeys;
  readonly log: TransparencyLog;
  readonly sequencer: LogSequencer;
  // The repositories of each aggregate (repositories.ts): outside the engine, storage is reached
  // through these, never through `db`.
  readonly workspaces: Repositories['workspaces'];
  readonly apiKeys: Repositories['apiKeys'];
  readonly admins: Repositories['admins'];
  readonly chatSessions: Repositories['chatSessions'];
  readonly collectionProfiles: Repositories['collectionProfiles'];
  readonly jobs: Repositories['jobs'];
  readonly uploads: Repositories['uploads'];
  readonly webhooks: Repositories['webhooks'];
  readonly feedback: Repositories['feedback'];
  readonly usageReports: Repositories['usage'];
  readonly operations: Repositories['operations'];
  readonly rateLimits: Repositories['rateLimits'];
  readonly logStorage: Repositories['transparencyLog'];
  private anchorProvider: AnchorProvider | null = null;
  private anchorService: AnchorService | null = null;
  /** The configured language model, or null (extractive answers). */
  readonly answerModel: AnswerModel | null;
  private queryExpander: QueryExpander | undefined;

  /** The LLM query expander when `SAKSI_QUERY_EXPANSION=llm` (and a model is configured). */
  private expander(): QueryExpander | undefined {
    if (this.config.queryExpansion !== 'llm' || !this.answerModel) return undefined;
    this.queryExpander ??= createLlmExpander(this.answerModel);
    return this.queryExpander;
  }
  private anchorStarting: Promise<AnchorService | null> | null = null;

  private constructor(
    config: SaksiConfig,
    db: Database,
    embedding: EmbeddingModel,
    keys: SigningKeys,
    log: TransparencyLog,
    answerModel: AnswerModel | null,
  ) {
    this.answerModel = answerModel;
    this.config = config;
    this.db = db;
    this.embedding = embedding;
    this.keys = keys;
    this.log = log;
    this.sequencer = new LogSequencer(db, log);
    const repositories = openRepositories(db, log);
    this.workspaces = repositories.workspaces;
    this.apiKeys = repositories.apiKeys;
    this.admins = repositories.admins;
    this.chatSessions = repositories.chatSessions;
    this.collectionProfiles = repositories.collectionProfiles;
    this.jobs = repositories.jobs;
    this.uploads = repositories.uploads;
    this.webhooks = repositories.webhooks;
    this.feedback = repositories.feedback;
    this.usageReports = repositories.usage;
    this.operations = repositories.operations;
    this.rateLimits = repositories.rateLimits;
    this.logStorage = repositories.transparencyLog;
  }

  /** Opens the database (PGlite in the data directory, or `DATABASE_URL`), migrates it and loads the keys. */
  static async open(options: EngineOptions): Promise<Engine> {
    const { config } = options;
    const keys = config.keySecrets
      ? keysFromSecrets(config.keySecrets)
      : await loadOrCreateKeys(config.keysDir);
    const pgliteDir =
      options.pgliteDataDir === null ? undefined : (options.pgliteDataDir ?? `${config.dataDir}/pglite`);
    const db = await openDatabase(
      config.databaseUrl
        ? {
            databaseUrl: config.databaseUrl,
            ...(config.readUrl ? { readUrl: config.readUrl } : {}),
            maxReplicaLagSeconds: config.replicaMaxLagSeconds,
            ...(options.applicationName ? { applicationName: options.applicationName } : {}),
          }
        : pgliteDir
          ? { dataDir: pgliteDir }
          : {},
    );
    try {
      await migrate(db);
    } catch (cause) {
      await db.close().catch(() => undefined);
      throw new EngineError('DATABASE_ERROR', 'Applying database migrations failed.', { cause });
    }
    try {
      await backfillBudgetFigures(db);
    } catch (cause) {
      await db.close().catch(() => undefined);
      throw new EngineError('DATABASE_ERROR', 'Filling the budget figure table failed.', { cause });
    }
    const embedding = options.embedding ?? createEmbeddingModel(config);
    const log = new TransparencyLog({
      origin: keys.logOrigin,
      signer: keys.logSigner,
      cosigners: keys.cosigners,
    });
    const answerModel =
      options.answerModel !== undefined
        ? options.answerModel
        : config.llm
          ? createAnswerModel(config.llm)
          : null;
    return new Engine(config, db, embedding, keys, log, answerModel);
  }

  private closed = false;

  private authSecretLoading: Promise<Uint8Array> | null = null;

  /**
   * The secret admin CSRF tokens are made with: from the environment or the issuer key when the keys
   * come from the environment, else `<keys>/admin-csrf.key` (created on first use).
   */
  authSecret(): Promise<Uint8Array> {
    this.authSecretLoading ??= (
      this.config.keySecrets
        ? Promise.resolve().then(() =>
            authSecretFromSecrets(this.config.keySecrets!, this.keys.issuerSecretKey),
          )
        : loadOrCreateAuthSecret(this.config.keysDir)
    ).catch((error: unknown) => {
      this.authSecretLoading = null;
      throw error;
    });
    return this.authSecretLoading;
  }

  /** Stops anchoring (and a local anvil) and closes the database; calling it again does nothing. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.stopWorker();
    await this.stopAnchoring();
    await this.db.close();
  }

  /**
   * Connects the configured anchor provider (`local` starts anvil in the data directory) and reconciles
   * rounds left open by an earlier run. With `loop`, anchoring rounds then run every interval.
   * Returns null for `SAKSI_ANCHOR=none`.
   */
  async startAnchoring(
    options: {
      loop?: boolean;
      onEvent?: (event: AnchorEvent) => void;
      onWarning?: (message: string) => void;
    } = {},
  ): Promise<AnchorService | null> {
    if (this.anchorService) {
      if (options.loop) this.anchorService.start();
      return this.anchorService;
    }
    this.anchorStarting ??= (async () => {
      const { anchor } = this.config;
      if (anchor.provider === 'none') return null;
      const provider =
        anchor.provider === 'local'
          ? await startLocalAnchorProvider({
              dataDir: this.config.dataDir,
              ...(anchor.localPort !== undefined ? { port: anchor.localPort } : {}),
              ...(options.onWarning ? { onWarning: options.onWarning } : {}),
            })
          : await createEvmAnchorProvider({
              rpcUrl: anchor.rpcUrl!,
              chainId: anchor.chainId!,
              privateKey: anchor.privateKey!,
              contract: anchor.contract!,
              ...(anchor.fromBlock !== undefined ? { fromBlock: anchor.fromBlock } : {}),
            });
      this.anchorProvider = provider;
      this.keys.trusted = await trustRegistry(
        this.config.keySecrets ? null : this.config.keysDir,
        this.keys.trusted,
        {
          chain_id: provider.chainId,
          contract: provider.contract,
        },
      );
      this.anchorService = new AnchorService(this.db, provider, {
        batchSize: anchor.batchSize,
        intervalMs: anchor.intervalMs,
        logIntervalMs: anchor.logIntervalMs,
        confirmTimeoutMs: anchor.confirmTimeoutMs,
        ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      });
      return this.anchorService;
    })();
    const service = await this.anchorStarting.catch((error) => {
      this.anchorStarting = null;
      throw error;
    });
    if (service) {
      if (options.loop) service.start();
      else await service.reconcile();
    }
    return service;
  }

  async stopAnchoring(): Promise<void> {
    await this.anchorService?.stop();
    await this.anchorProvider?.close();
    this.anchorService = null;
    this.anchorProvider = null;
    this.anchorStarting = null;
  }

  /** Runs anchoring rounds now until no document waits (CLI ingest); null when anchoring is off. */
  async anchorNow(options: { onEvent?: (event: AnchorEvent) => void } = {}): Promise<RoundRow[] | null> {
    const service = await this.startAnchoring(options.onEvent ? { onEvent: options.onEvent } : {});
    if (!service) return null;
    const rounds: RoundRow[] = [];
    for (;;) {
      const round = await service.runOnce();
      if (!round) return rounds;
      rounds.push(round);
      if (round.status !== 'CONFIRMED') return rounds;
    }
  }

  /** The chain the running anchor provider writes to, for `/api/v1/anchors` and verifiers. */
  anchorChain(): { provider: string; chain_id: number; contract: string; rpc_url: string | null } | null {
    const provider = this.anchorProvider;
    if (!provider) return null;
    // The local chain's RPC URL is loopback-only, so it is shown; a configured RPC URL may hold a key.
    return {
      provider: provider.kind,
      chain_id: provider.chainId,
      contract: provider.contract,
      rpc_url: provider.kind === 'local' ? provider.rpcUrl : null,
    };
  }

  /** An on-chain lookup (`verifyRoot` + the anchoring transaction) through the running provider's RPC. */
  anchorLookup(): AnchorLookup | undefined {
    const provider = this.anchorProvider;
    if (!provider) return undefined;
    if (this.lookup?.rpcUrl !== provider.rpcUrl) {
      this.lookup = { rpcUrl: provider.rpcUrl, lookup: createRegistryLookup({ rpcUrl: provider.rpcUrl }) };
    }
    return this.lookup.lookup;
  }

  /** One lookup per provider, so its cached chain id is reused across verifications. */
  private lookup: { rpcUrl: string; lookup: AnchorLookup } | undefined;

  /** Anchoring status: recent rounds, or one document's state, round and anchor. */
  async anchorStatus(documentId?: string): Promise<AnchorStatus> {
    const counts = await this.db.query<{ anchor_state: string; count: number }>(
      `SELECT anchor_state, count(*)::integer AS count FROM documents WHERE status = 'READY' GROUP BY anchor_state`,
    );
    const documents = Object.fromEntries(counts.rows.map((row) => [row.anchor_state, row.count]));
    const base = { provider: this.config.anchor.provider, chain: this.anchorChain(), documents };
    if (!documentId) return { ...base, rounds: (await listRounds(this.db)).map(describeRound) };
    const document = await this.getDocument(documentId);
    const round = await this.db.query<RoundRow>(
      `SELECT ${ROUND_COLUMNS} FROM anchor_rounds WHERE id = (SELECT anchor_round_id FROM documents WHERE id = $1)`,
      [documentId],
    );
    const anchor = (await anchorsFor(this.db, [documentId])).get(documentId) ?? null;
    return {
      ...base,
      rounds: round.rows.map(describeRound),
      document: {
        id: document.id,
        title: document.title,
        root: document.root,
        anchor_state: document.anchor_state,
        anchor,
        explorer_url: anchor ? explorerTxUrl(anchor.chain_id, anchor.tx_hash) : null,
      },
    };
  }

  /**
   * Refreshes the planner's statistics (PGlite has no autovacuum): without them a fresh collection's
   * queries can take seconds. Run after bulk ingestion; cheap on small tables.
   */
  async analyze(): Promise<void> {
    await this.db.exec('ANALYZE documents; ANALYZE chunks');
  }

  /** The public keys verifiers pin (served at /.well-known/saksi-keys.json). */
  trustedKeys(): TrustedKeys {
    return this.keys.trusted;
  }

  async collection(name: string, workspaceId = DEFAULT_WORKSPACE): Promise<Collection> {
    return requireCollection(this.db, name, workspaceId);
  }

  /**
   * Collection policy: with `require_anchor`, certificates block claims whose evidence is not yet
   * anchored on chain (reason ANCHOR_REQUIRED), and verifiers do the same unless they checked the anchor.
   */
  async setCollectionPolicy(name: string, policy: { require_anchor: boolean }): Promise<Collection> {
    return updateCollectionProfile(this.db, name, { require_anchor: policy.require_anchor });
  }

  /**
   * Merges settings into a collection's profile: `domain` (legal, budget, docs, general — which prompt
   * and rules suit it), `rewrite_rules` (the dictionary and pattern groups: traffic, budget) and
   * `rewrite_weights` ({legal, original, phrases}), and how people see it: `title`, `description` and
   * `examples` per interface language (`{id, en}`; null removes one).
   */
  async configureCollection(name: string, profile: CollectionProfile): Promise<Collection> {
    return updateCollectionProfile(this.db, name, { ...profile });
  }

  async collections(workspaceId = DEFAULT_WORKSPACE) {
    return listCollections(this.db, workspaceId);
  }

  /** The collection `name` of a workspace, created (with this engine's embedding model) when missing. */
  async ensureCollection(
    name: string,
    options: {
      workspaceId: string;
      language?: 'id' | 'en';
      profile?: CollectionProfile & Record<string, unknown>;
    },
  ): Promise<Collection> {
    return ensureCollection(this.db, {
      name,
      workspaceId: options.workspaceId,
      language: options.language ?? 'id',
      ...(options.profile ? { profile: { ...options.profile } } : {}),
      embedding: {
        provider: this.embedding.provider,
        model: this.embedding.modelId,
        dimensions: this.embedding.dimensions,
      },
    });
  }

  /** The quotas in force for a workspace: its own overrides of the configured defaults. */
  async quotas(workspaceId: string): Promise<EffectiveQuotas> {
    const workspace = await getWorkspace(this.db, workspaceId);
    return {
      max_document_bytes: workspace.quotas.max_document_bytes ?? this.config.quotas.maxDocumentBytes,
      max_pages: workspace.quotas.max_pages ?? this.config.quotas.maxPages,
      max_storage_bytes: workspace.quotas.max_storage_bytes ?? this.config.quotas.maxStorageBytes,
    };
  }

  /** Documents and stored bytes of a workspace (for its quota). */
  async usage(workspaceId: string): Promise<{ documents: number; storage_bytes: number }> {
    const usage = await workspaceStorage(this.db, workspaceId);
    return { documents: usage.documents, storage_bytes: usage.bytes };
  }

  /**
   * Accepts a file for asynchronous ingestion (the API's `POST /documents`): the document is PENDING
   * and a job is queued, unless the same bytes are already in the workspace (deduplicated, READY).
   * Creates the collection when needed.
   */
  async submit(
    collectionName: string,
    input: IngestInput,
    options: { workspaceId: string; language?: 'id' | 'en'; profile?: CollectionProfile },
  ): Promise<SubmitResult> {
    const quotas = await this.quotas(options.workspaceId);
    const collection = await ensureCollection(this.db, {
      name: collectionName,
      workspaceId: options.workspaceId,
      language: options.language ?? 'id',
      ...(options.profile ? { profile: { ...options.profile } } : {}),
      embedding: {
        provider: this.embedding.provider,
        model: this.embedding.modelId,
        dimensions: this.embedding.dimensions,
      },
    });
    const result = await submitDocument(
      { db: this.db, workspaceId: options.workspaceId, quotas, maxAttempts: this.config.jobs.maxAttempts },
      collection,
      input,
    );
    if (!result.deduplicated) this.worker?.wake();
    return result;
  }

  private worker: JobWorker | null = null;
  private readonly ingestListeners = new Set<IngestListener>();

  /**
   * Hears every ingestion this engine runs (synchronous, and the jobs of its worker) as it ends, with
   * its outcome and stage times; returns a function that stops listening.
   */
  observeIngestion(listener: IngestListener): () => void {
    this.ingestListeners.add(listener);
    return () => this.ingestListeners.delete(listener);
  }

  private readonly notifyIngestion: IngestListener = (report) => {
    for (const listener of this.ingestListeners) notifyIngested(listener, report);
  };

  /**
   * A job worker on this engine's database: runs ingestion jobs, delivers webhooks and fails the
   * documents of abandoned jobs. `saksi serve` starts one in-process (`SAKSI_WORKER=inline`);
   * `saksi worker` runs one in its own process.
   */
  startWorker(options: { workerId?: string; pollMs?: number } = {}): JobWorker {
    if (this.worker) return this.worker;
    const worker = this.createJobWorker(options);
    this.worker = worker;
    worker.start();
    return worker;
  }

  /**
   * Runs due jobs in this call until none is left or `deadline` (epoch ms) has passed, after one round
   * of the worker's periodic tasks: a deployment without a long-lived process (a serverless function
   * after an upload, or its cron call) works its queue this way. Returns how many jobs ran.
   */
  async runPendingJobs(options: { deadline: number; workerId?: string }): Promise<number> {
    const worker = this.createJobWorker({ ...(options.workerId ? { workerId: options.workerId } : {}) });
    await worker.runPeriodic();
    let ran = 0;
    while (Date.now() < options.deadline && (await worker.runOnce())) ran += 1;
    return ran;
  }

  /**
   * A job worker on this engine's database, not started: the one `startWorker` runs, for a caller
   * that drives it itself (`saksi worker --once`). `onError` replaces the default report of errors
   * outside a job's own failure.
   */
  createJobWorker(
    options: { workerId?: string; pollMs?: number; onError?: JobWorkerOptions['onError'] } = {},
  ): JobWorker {
    let sessionsSweptAt = 0;
    return new JobWorker({
      db: this.db,
      leaseMs: this.config.jobs.leaseMs,
      ...(options.workerId ? { workerId: options.workerId } : {}),
      ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
      handlers: {
        ingest: ingestJobHandler({
          embedding: this.embedding,
          quotas: (workspaceId) => this.quotas(workspaceId),
          limits: this.config.ingest,
          onIngested: this.notifyIngestion,
        }),
      },
      periodic: [
        async () => {
          await deliverDueWebhooks(this.db, {
            timeoutMs: this.config.webhooks.timeoutMs,
            maxAttempts: this.config.webhooks.maxAttempts,
            allowPrivate: this.config.webhooks.allowPrivate,
          });
        },
        async () => {
          await failOrphanedDocuments(this.db);
        },
        async () => {
          if (Date.now() - sessionsSweptAt < SESSION_SWEEP_INTERVAL_MS) return;
          sessionsSweptAt = Date.now();
          await deleteEndedSessions(this.db, this.config.sessions.ttlSeconds);
          await pruneAnswerCache(this.db, this.config.answerCache.maxEntries);
        },
      ],
      onError:
        options.onError ??
        ((error) => {
          if (!this.closed) console.error('[saksi] worker:', error instanceof Error ? error.message : error);
        }),
    });
  }

  async stopWorker(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.stop();
  }

  /** Creates the collection if needed (with this engine's embedding model) and ingests one file. */
  async ingest(
    collectionName: string,
    input: IngestInput,
    options: {
      language?: 'id' | 'en';
      /** The profile of a collection created by this call (an existing one keeps its own). */
      profile?: CollectionProfile;
      onProgress?: (progress: IngestProgress) => void;
      workspaceId?: string;
      /** Cancels the ingestion when it aborts (nothing is stored; see `IngestContext.signal`). */
      signal?: AbortSignal;
    } = {},
  ): Promise<IngestResult> {
    const collection = await ensureCollection(this.db, {
      name: collectionName,
      ...(options.workspaceId ? { workspaceId: options.workspaceId } : {}),
      language: options.language ?? 'id',
      ...(options.profile ? { profile: { ...options.profile } } : {}),
      embedding: {
        provider: this.embedding.provider,
        model: this.embedding.modelId,
        dimensions: this.embedding.dimensions,
      },
    });
    return ingestDocument(
      {
        db: this.db,
        embedding: this.embedding,
        maxBytes: this.config.maxUploadBytes,
        maxPages: this.config.quotas.maxPages,
        limits: this.config.ingest,
        onIngested: this.notifyIngestion,
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      },
      collection,
      input,
    );
  }

  async listDocuments(options: {
    collection?: string;
    status?: string;
    document_type?: string;
    fiscal_year?: number;
    limit?: number;
    offset?: number;
    /** Only this workspace's documents (default: the default workspace). */
    workspaceId?: string;
  }) {
    const workspaceId = options.workspaceId ?? DEFAULT_WORKSPACE;
    const collectionId = options.collection
      ? (await this.collection(options.collection, workspaceId)).id
      : undefined;
    const limit = options.limit ?? 20;
    const offset = options.offset ?? 0;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 100)
      throw new EngineError('INVALID_INPUT', 'limit must be 1–100.');
    if (!Number.isSafeInteger(offset) || offset < 0)
      throw new EngineError('INVALID_INPUT', 'offset must be ≥ 0.');
    const page = await listDocuments(this.db, {
      workspaceId,
      ...(collectionId ? { collectionId } : {}),
      ...(options.status ? { status: options.status } : {}),
      ...(options.document_type ? { documentType: options.document_type } : {}),
      ...(options.fiscal_year !== undefined ? { fiscalYear: options.fiscal_year } : {}),
      limit,
      offset,
    });
    return { ...page, limit, offset };
  }

  /** A document; with `workspaceId`, one of another workspace is not found (the same error as an unknown id). */
  async getDocument(id: string, workspaceId?: string): Promise<DocumentRecord> {
    const document = await getDocument(this.db, id, workspaceId);
    if (!document) throw new EngineError('NOT_FOUND', `No document ${id}.`);
    return document;
  }

  /**
   * The original bytes of a document as uploaded (docs/api.md, `GET /documents/{id}/file`), to be sent
   * part by part: the whole file is never held in memory. A document whose stored original is missing
   * or incomplete is `FILE_NOT_FOUND`; one of another workspace is `NOT_FOUND`, as for an unknown id.
   */
  async documentFile(
    id: string,
    workspaceId: string,
  ): Promise<{ document: DocumentRecord; size: number; parts: AsyncIterable<Uint8Array> }> {
    const document = await this.getDocument(id, workspaceId);
    const blob = await openBlob(this.db, document.original_sha256);
    if (!blob || blob.size !== document.size) {
      throw new EngineError(
        'FILE_NOT_FOUND',
        `The original file of document ${id} is missing or incomplete on this server; upload it again to restore it.`,
      );
    }
    return { document, size: blob.size, parts: blob.parts() };
  }

  async deleteDocument(id: string, workspaceId?: string): Promise<void> {
    if (workspaceId !== undefined) await this.getDocument(id, workspaceId);
    if (!(await deleteDocument(this.db, id))) throw new EngineError('NOT_FOUND', `No document ${id}.`);
  }

  /** A document's chunks in order (citation, context, table HTML, hash and proof each); paged. */
  async documentChunks(
    id: string,
    workspaceId: string,
    page: { limit: number; offset: number },
  ): Promise<{ items: RetrievedChunk[]; total: number }> {
    const document = await this.getDocument(id, workspaceId);
    const ids = await this.db.query<{ id: string }>(
      'SELECT id FROM chunks WHERE document_id = $1 ORDER BY position LIMIT $2 OFFSET $3',
      [document.id, page.limit, page.offset],
    );
    const rows = await loadChunks(
      this.db,
      ids.rows.map((row) => row.id),
    );
    const items = ids.rows.flatMap((row) => {
      const chunk = rows.get(row.id);
      return chunk ? [toRetrievedChunk(chunk, { score: 0, rank: 0, ranks: {} })] : [];
    });
    return { items, total: document.chunk_count };
  }

  /**
   * The workspace a certificate, chat session or document belongs to (through its collection) and whether that
   * collection is public; null when there is no such record.
   */
  async owner(
    kind: 'certificate' | 'session' | 'document',
    id: string,
  ): Promise<{ workspace_id: string | null; public: boolean } | null> {
    const table = { certificate: 'certificates', session: 'chat_sessions', document: 'documents' }[kind];
    const result = await this.db.query<{ workspace_id: string | null; public: boolean | null }>(
      `SELECT c.workspace_id, (c.profile->>'public')::boolean AS public
         FROM ${table} r LEFT JOIN collections c ON c.id = r.collection_id WHERE r.id = $1`,
      [id],
    );
    const row = result.rows[0];
    return row ? { workspace_id: row.workspace_id, public: row.public === true } : null;
  }

  /** Retrieval only: ranked chunks with citations, parent context and timings. */
  async query(
    collectionName: string,
    input: QueryInput,
    options: { workspaceId?: string } = {},
  ): Promise<RetrieveResult> {
    const question = input.question?.trim() ?? '';
    if (!question) throw new EngineError('INVALID_INPUT', 'The question is empty.');
    const collection = await this.collection(collectionName, options.workspaceId ?? DEFAULT_WORKSPACE);
    // Foreground work: ingestion in this process gives way to it (ingest/priority.ts).
    return asForeground(() =>
      retrieveForQuestion(this.db.reader, this.embedding, collection, question.slice(0, 4_000), {
        topK: input.top_k ?? 5,
        ...(this.expander() ? { expander: this.expander()! } : {}),
        ...(input.rewrite !== undefined ? { rewrite: input.rewrite } : {}),
        ...(input.arms !== undefined ? { arms: input.arms } : {}),
        ...(input.document_type !== undefined ? { documentType: input.document_type } : {}),
        ...(input.fiscal_year !== undefined ? { fiscalYear: input.fiscal_year } : {}),
      }),
    );
  }

  /** Answers with a certificate; `onEvent` receives retrieval results, text deltas and the final bundle. */
  async ask(
    collectionName: string,
    input: AskInput,
    options: { onEvent?: (event: AskEvent) => void; workspaceId?: string } = {},
  ): Promise<AskResult> {
    const collection = await this.collection(collectionName, options.workspaceId ?? DEFAULT_WORKSPACE);
    return asForeground(() => this.answer(collection, input, options.onEvent));
  }

  private answer(
    collection: Collection,
    input: AskInput,
    onEvent: ((event: AskEvent) => void) | undefined,
  ): Promise<AskResult> {
    return ask(
      {
        db: this.db,
        // A turn of an existing session reads its own earlier turns' writes: everything from the
        // primary. A new chat may search a replica that trails by at most its lag bound.
        ...(input.session_id === undefined ? { reader: this.db.reader } : {}),
        embedding: this.embedding,
        keys: this.keys,
        log: this.log,
        sequencer: this.sequencer,
        confidenceThreshold: this.config.confidenceThreshold ?? 0.5,
        anchors: (documentIds) => anchorsFor(this.db, documentIds),
        requireAnchor: collection.profile['require_anchor'] === true,
        sessions: this.config.sessions,
        answerCache: this.config.answerCache.enabled,
        ...(this.config.maxQuestionChars ? { maxQuestionChars: this.config.maxQuestionChars } : {}),
        ...(this.answerModel ? { answerModel: this.answerModel } : {}),
        ...(this.expander() ? { expander: this.expander()! } : {}),
        ...(this.answerModel && this.config.claims === 'llm'
          ? { decomposer: createLlmDecomposer(this.answerModel) }
          : {}),
        ...(this.answerModel && this.config.verifier === 'llm-judge'
          ? { judge: judgeWith(createLlmJudge(this.answerModel, { language: collection.language })) }
          : {}),
      },
      collection,
      input,
      onEvent,
    );
  }

  async bundle(certificateId: string): Promise<Bundle> {
    const bundle = await loadBundle(this.db, this.log, certificateId);
    if (!bundle) throw new EngineError('NOT_FOUND', `No certificate ${certificateId}.`);
    return bundle;
  }

  /**
   * A certificate as a W3C Verifiable Credential (VC Data Model 2.0 with an `eddsa-jcs-2022` Data
   * Integrity proof; `certificateToCredential` of `@saksi/proof`, docs/certificate.md), signed with
   * this server's issuer key. A certificate issued under another issuer key cannot be re-signed as
   * that issuer: `CONFLICT` (its bundle still verifies with the key it names).
   */
  async credential(certificateId: string): Promise<VerifiableCredential> {
    const { certificate } = await this.bundle(certificateId);
    if (certificate.issuer.key_id !== this.keys.issuer.key_id) {
      throw new EngineError(
        'CONFLICT',
        `Certificate ${certificateId} was issued under key ${certificate.issuer.key_id}; this server signs with ${this.keys.issuer.key_id} and cannot make its credential. Fetch the bundle instead.`,
      );
    }
    return certificateToCredential(certificate as unknown as Record<string, unknown>, {
      secretKey: this.keys.issuerSecretKey,
      publicKey: fromBase64(this.keys.issuer.public_key),
    });
  }

  /** Verifies a bundle against this server's own keys (the same `verifyBundle` the CLI and browser run). */
  async verify(bundle: unknown, options: Partial<VerifyBundleOptions> = {}): Promise<BundleVerification> {
    return verifyBundle(bundle, {
      ...trustOptions(this.keys.trusted),
      fetchConsistencyProof: async (first, second) =>
        (await this.log.consistencyProof(this.db, first, second)).proof,
      ...(this.anchorProvider ? { anchorLookup: this.anchorLookup()! } : {}),
      ...options,
      vocabulary: options.vocabulary ?? SAKSI_VOCABULARY,
    });
  }

  /** The chain RPC's state for health, probed at most once per few seconds (anchor/rpc-probe.ts). */
  private readonly rpcProbe: RpcProbe = createRpcProbe();

  /**
   * What `GET /api/v1/health` reports (docs/api.md, "Meta"): the database (its kind, and whether a
   * query answers), the log (its size and whether the signer in memory is the key verifiers pin),
   * the anchor provider, the chain RPC (reachable or not, probed with a short timeout and cached;
   * never its URL) and the anchoring lag. `status` is `degraded` when the database does not answer or
   * a configured chain's RPC does not.
   */
  async health(): Promise<Health> {
    const started = performance.now();
    let databaseOk = true;
    let size = 0;
    let lag: Health['anchoring'] = { waiting: 0, oldest_waiting_since: null, lag_seconds: null };
    try {
      size = await this.log.size(this.db);
      lag = await this.anchoringLag();
    } catch {
      databaseOk = false;
    }
    const latency = Math.round((performance.now() - started) * 10) / 10;
    const replica = await this.db.replicaStatus();
    const chain = this.anchorChain();
    const rpc = await this.chainHealth();
    const logKeyId = toHex(this.keys.logSigner.keyId);
    const pinned = this.keys.trusted.logs.find((log) => log.origin === this.log.origin)?.vkey;
    return {
      status:
        databaseOk && rpc.state !== 'unreachable' && (replica === null || replica.serving_reads)
          ? 'ok'
          : 'degraded',
      version: ENGINE_VERSION,
      database: {
        kind: this.db.kind,
        ok: databaseOk,
        name: this.db.kind === 'pglite' ? 'PGlite' : 'PostgreSQL',
        latency_ms: databaseOk ? latency : null,
        replica,
      },
      log: {
        origin: this.log.origin,
        size,
        signer: { loaded: pinned?.split('+')[1] === logKeyId, key_id: logKeyId },
      },
      anchor: {
        provider: this.config.anchor.provider,
        running: chain !== null,
        chain_id: chain?.chain_id ?? null,
        contract: chain?.contract ?? null,
      },
      chain: rpc,
      anchoring: lag,
    };
  }

  /**
   * The chain RPC for health: the running provider's endpoint, or the configured one of `evm` when
   * the provider is not running; `local` has none until anvil is started, `none` never has one.
   */
  private async chainHealth(): Promise<Health['chain']> {
    const provider = this.config.anchor.provider;
    const none = { block_number: null, latency_ms: null, checked_at: null, error: null };
    if (provider === 'none') return { provider, state: 'none', ...none };
    const rpcUrl =
      this.anchorProvider?.rpcUrl ?? (provider === 'evm' ? this.config.anchor.rpcUrl : undefined);
    if (rpcUrl === undefined) return { provider, state: 'not_started', ...none };
    const result = await this.rpcProbe.check(rpcUrl);
    return {
      provider,
      state: result.reachable ? 'reachable' : 'unreachable',
      block_number: result.block_number,
      latency_ms: result.latency_ms,
      checked_at: result.checked_at,
      error: result.error,
    };
  }

  /**
   * READY documents whose root is not yet confirmed on chain, and since when the oldest has waited:
   * `updated_at` is when it became READY (a waiting document is not written again) or, once in a
   * sent round, when that round was sent. With `SAKSI_ANCHOR=none` nothing is ever anchored, so
   * there is no lag.
   */
  private async anchoringLag(): Promise<Health['anchoring']> {
    const result = await this.db.query<{ waiting: number; oldest: string | null; seconds: number | null }>(
      `SELECT count(*)::integer AS waiting,
              to_char(min(updated_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS oldest,
              extract(epoch FROM now() - min(updated_at))::float8 AS seconds
         FROM documents WHERE status = 'READY' AND anchor_state <> 'ANCHORED' AND root IS NOT NULL`,
    );
    const row = result.rows[0];
    const waiting = row?.waiting ?? 0;
    if (this.config.anchor.provider === 'none' || !row || waiting === 0 || row.seconds === null)
      return { waiting, oldest_waiting_since: null, lag_seconds: null };
    return {
      waiting,
      oldest_waiting_since: row.oldest,
      lag_seconds: Math.max(0, Math.round(row.seconds * 10) / 10),
    };
  }

  /** READY → ARCHIVED (no longer retrieved); NOT_FOUND, or CONFLICT from any other status. */
  async archiveDocument(id: string): Promise<DocumentRecord> {
    return archiveDocument(this.db, id);
  }

  /** ARCHIVED → READY (retrieved again); NOT_FOUND, or CONFLICT from any other status. */
  async restoreDocument(id: string): Promise<DocumentRecord> {
    return restoreDocument(this.db, id);
  }

  /** The confirmed on-chain anchor of each document that has one, with its explorer link. */
  async documentAnchors(documentIds: readonly string[]): Promise<Map<string, DocumentAnchor>> {
    const anchors = await anchorsFor(this.db, documentIds);
    return new Map(
      [...anchors].map(([id, anchor]) => [
        id,
        {
          chain_id: anchor.chain_id,
          tx_hash: anchor.tx_hash,
          block_number: anchor.block_number,
          explorer_url: explorerTxUrl(anchor.chain_id, anchor.tx_hash),
        },
      ]),
    );
  }
}

/** `GET /api/v1/health` (docs/api.md, "Meta"). */
export interface Health {
  status: 'ok' | 'degraded';
  version: string;
  database: {
    kind: 'pglite' | 'postgres';
    /** Whether a query answered. */
    ok: boolean;
    name: 'PGlite' | 'PostgreSQL';
    /** The health queries' time, when they answered. */
    latency_ms: number | null;
    /**
     * The read replica (`DATABASE_READ_URL`), or null without one: its state, whether it serves reads
     * now (otherwise they go to the primary) and its lag.
     */
    replica: ReplicaStatus | null;
  };
  log: {
    origin: string;
    size: number;
    /** The log's note signer: its key ID (hex) and whether it is the key the trusted keys publish. */
    signer: { loaded: boolean; key_id: string };
  };
  anchor: { provider: string; running: boolean; chain_id: number | null; contract: string | null };
  /** The chain's JSON-RPC endpoint; `none` when anchoring is off, `not_started` before anvil runs. */
  chain: {
    provider: 'local' | 'evm' | 'none';
    state: 'reachable' | 'unreachable' | 'not_started' | 'none';
    block_number: number | null;
    latency_ms: number | null;
    /** When the (cached) probe was made. */
    checked_at: string | null;
    error: RpcProbeError | null;
  };
  /** READY documents not yet anchored; the oldest one's wait (null when none waits or anchoring is off). */
  anchoring: { waiting: number; oldest_waiting_since: string | null; lag_seconds: number | null };
}

/** Where a document's root was anchored (admin document list). */
export interface DocumentAnchor {
  chain_id: number;
  tx_hash: string;
  block_number: number;
  explorer_url: string | null;
}

export function createEmbeddingModel(config: SaksiConfig): EmbeddingModel {
  if (config.embedding.provider === 'hash')
    return createHashEmbeddingModel({ dimensions: config.embedding.dimensions });
  return createOpenAICompatibleEmbeddingModel({
    baseURL: config.embedding.baseURL!,
    modelId: config.embedding.model,
    dimensions: config.embedding.dimensions,
    ...(config.embedding.apiKey ? { apiKey: config.embedding.apiKey } : {}),
  });
}

/** A round as the anchor status shows it: the row without its transaction bytes, with an explorer link. */
export type AnchorRoundSummary = Pick<
  RoundRow,
  | 'id'
  | 'status'
  | 'chain_id'
  | 'contract'
  | 'batch_root'
  | 'size'
  | 'log_size'
  | 'tx_hash'
  | 'block_number'
  | 'block_timestamp'
  | 'gas_used'
  | 'attempts'
  | 'last_error'
  | 'created_at'
> & { explorer_url: string | null };

export interface AnchorStatus {
  provider: 'local' | 'evm' | 'none';
  chain: { provider: string; chain_id: number; contract: string; rpc_url: string | null } | null;
  /** READY documents per anchor state. */
  documents: Record<string, number>;
  rounds: AnchorRoundSummary[];
  document?: {
    id: string;
    title: string;
    root: string | null;
    anchor_state: string;
    anchor: Anchor | null;
    explorer_url: string | null;
  };
}

function describeRound(row: RoundRow): AnchorRoundSummary {
  return {
    id: row.id,
    status: row.status,
    chain_id: row.chain_id,
    contract: row.contract,
    batch_root: row.batch_root,
    size: row.size,
    log_size: row.log_size,
    tx_hash: row.tx_hash,
    block_number: row.block_number,
    block_timestamp: row.block_timestamp,
    gas_used: row.gas_used,
    attempts: row.attempts,
    last_error: row.last_error,
    created_at: String(row.created_at),
    explorer_url: row.tx_hash ? explorerTxUrl(row.chain_id, row.tx_hash) : null,
  };
}

/** The LLM judge as a second verifier: its verdict, combined with the lexical one, is recorded. */
function judgeWith(judge: LlmJudge): ClaimJudge {
  return {
    async judge(claim, evidence, lexical) {
      const verdict = combineVerdicts(lexical, await judge.judge(claim, evidence));
      return { label: verdict.label, confidence: verdict.confidence, verifier: verdict.verifier };
    },
  };
}
