/**
 * The engine: one object the server and the CLI hold (docs/architecture.md, "Interfaces"). It opens
 * the database, the embedding model, the signing keys and the transparency log, and composes the
 * services that work on them: collections, documents, ingestion and its workers, answers, anchoring
 * and health, beside the storage repositories of each aggregate. The verbs callers use most (ask,
 * query, ingest, submit, bundle, verify) are also on the engine itself.
 */

import type { Bundle, BundleVerification, TrustedKeys, VerifyBundleOptions } from '@saksi/proof';
import type { VerifiableCredential } from '@saksi/proof/vc';
import { Anchoring } from './anchor/anchoring.js';
import { Answers, type AskOptions, type QueryInput } from './answer/answers.js';
import type { AskInput, AskResult } from './answer/ask.js';
import { authSecretFromSecrets, loadOrCreateAuthSecret } from './auth.js';
import { Collections, type InWorkspace } from './collection-service.js';
import type { Collection } from './collections.js';
import type { SaksiConfig } from './config.js';
import { type Database, openDatabase } from './db/database.js';
import { loadMigrations, migrate } from './db/migrate.js';
import { Documents } from './documents.js';
import { createHashEmbeddingModel } from './embed/hash.js';
import type { EmbeddingModel } from './embed/model.js';
import { createOpenAICompatibleEmbeddingModel } from './embed/openai-compatible.js';
import { EngineError } from './errors.js';
import { type Health, HealthCheck } from './health.js';
import type { SubmitResult } from './ingest/async.js';
import { Ingestion, type IngestOptions, type SubmitOptions } from './ingest/ingestion.js';
import type { IngestInput, IngestResult } from './ingest/pipeline.js';
import { Workers } from './jobs/workers.js';
import { keysFromSecrets, loadOrCreateKeys, type SigningKeys } from './keys.js';
import { type AnswerModel, createAnswerModel } from './llm/model.js';
import { LogSequencer } from './log/sequencer.js';
import { TransparencyLog } from './log/transparency-log.js';
import { backfillPacks } from './packs/registry.js';
import { openRepositories, type Repositories } from './repositories.js';
import type { RetrieveResult } from './retrieve/retrieve.js';

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
  /** PGlite's `shared_buffers` (`DatabaseOptions.sharedBuffers`); PostgreSQL ignores it. */
  pgliteSharedBuffers?: string;
}

export class Engine {
  readonly sequencer: LogSequencer;
  // The repositories of each aggregate (repositories.ts): outside the engine, storage is reached
  // through these and the services below, never through `db`.
  readonly workspaces: Repositories['workspaces'];
  readonly apiKeys: Repositories['apiKeys'];
  readonly admins: Repositories['admins'];
  readonly chatSessions: Repositories['chatSessions'];
  readonly jobs: Repositories['jobs'];
  readonly uploads: Repositories['uploads'];
  readonly webhooks: Repositories['webhooks'];
  readonly feedback: Repositories['feedback'];
  readonly usageReports: Repositories['usage'];
  readonly operations: Repositories['operations'];
  readonly rateLimits: Repositories['rateLimits'];
  readonly logStorage: Repositories['transparencyLog'];
  // The services.
  readonly collections: Collections;
  readonly documents: Documents;
  readonly anchoring: Anchoring;
  readonly ingestion: Ingestion;
  readonly workers: Workers;
  readonly answers: Answers;
  private readonly healthCheck: HealthCheck;
  private closed = false;
  private authSecretLoading: Promise<Uint8Array> | null = null;

  private constructor(
    readonly config: SaksiConfig,
    readonly db: Database,
    readonly embedding: EmbeddingModel,
    readonly keys: SigningKeys,
    readonly log: TransparencyLog,
    /** The configured language model, or null (extractive answers). */
    readonly answerModel: AnswerModel | null,
  ) {
    this.sequencer = new LogSequencer(db, log);
    const repositories = openRepositories(db, log);
    this.workspaces = repositories.workspaces;
    this.apiKeys = repositories.apiKeys;
    this.admins = repositories.admins;
    this.chatSessions = repositories.chatSessions;
    this.jobs = repositories.jobs;
    this.uploads = repositories.uploads;
    this.webhooks = repositories.webhooks;
    this.feedback = repositories.feedback;
    this.usageReports = repositories.usage;
    this.operations = repositories.operations;
    this.rateLimits = repositories.rateLimits;
    this.logStorage = repositories.transparencyLog;
    this.collections = new Collections(db, embedding);
    this.documents = new Documents(db, this.collections);
    this.anchoring = new Anchoring(db, config, keys);
    this.ingestion = new Ingestion({
      db,
      config,
      embedding,
      collections: this.collections,
      onQueued: () => this.workers.wake(),
    });
    this.workers = new Workers(db, config, this.ingestion, () => this.closed);
    this.answers = new Answers({
      db,
      config,
      embedding,
      keys,
      log,
      sequencer: this.sequencer,
      answerModel,
      collections: this.collections,
      anchoring: this.anchoring,
    });
    this.healthCheck = new HealthCheck({ db, config, keys, log, anchoring: this.anchoring });
  }

  /** Opens the database (PGlite in the data directory, or `DATABASE_URL`), migrates it and loads the keys. */
  static async open(options: EngineOptions): Promise<Engine> {
    const { config } = options;
    const keys = config.keySecrets
      ? keysFromSecrets(config.keySecrets)
      : await loadOrCreateKeys(config.keysDir);
    const migrations = loadMigrations();
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
        : {
            ...(pgliteDir ? { dataDir: pgliteDir, migrations } : {}),
            ...(options.pgliteSharedBuffers ? { sharedBuffers: options.pgliteSharedBuffers } : {}),
          },
    );
    try {
      await migrate(db, migrations);
    } catch (cause) {
      await db.close().catch(() => undefined);
      throw new EngineError('DATABASE_ERROR', 'Applying database migrations failed.', { cause });
    }
    try {
      await backfillPacks(db);
    } catch (cause) {
      await db.close().catch(() => undefined);
      throw new EngineError(
        'DATABASE_ERROR',
        "Filling a document pack's index (the budget figure table) failed.",
        {
          cause,
        },
      );
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

  /** Stops the worker and anchoring (and a local anvil) and closes the database; again does nothing. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.workers.stop();
    await this.anchoring.stop();
    await this.db.close();
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

  /** What `GET /api/v1/health` reports (health.ts). */
  health(): Promise<Health> {
    return this.healthCheck.report();
  }

  /**
   * Answers with a certificate; `onEvent` receives retrieval results, text deltas and the final bundle.
   * `collection` is a name, or the collection's row when the caller has already read it (the server
   * reads it for its access check), so it is not read again.
   */
  ask(collection: string | Collection, input: AskInput, options: AskOptions = {}): Promise<AskResult> {
    return this.answers.ask(collection, input, options);
  }

  /** Retrieval only: ranked chunks with citations, parent context and timings. */
  query(collectionName: string, input: QueryInput, options: InWorkspace = {}): Promise<RetrieveResult> {
    return this.answers.query(collectionName, input, options);
  }

  /** Creates the collection if needed (with this engine's embedding model) and ingests one file now. */
  ingest(collectionName: string, input: IngestInput, options: IngestOptions = {}): Promise<IngestResult> {
    return this.ingestion.ingest(collectionName, input, options);
  }

  /** Accepts a file for the job worker (the API's upload); see {@link Ingestion.submit}. */
  submit(collectionName: string, input: IngestInput, options: SubmitOptions): Promise<SubmitResult> {
    return this.ingestion.submit(collectionName, input, options);
  }

  /** A stored certificate with its proofs; NOT_FOUND for an unknown id. */
  bundle(certificateId: string): Promise<Bundle> {
    return this.answers.bundle(certificateId);
  }

  /** A certificate as a W3C Verifiable Credential; see {@link Answers.credential}. */
  credential(certificateId: string): Promise<VerifiableCredential> {
    return this.answers.credential(certificateId);
  }

  /** Verifies a bundle against this server's own keys (the same `verifyBundle` the CLI and browser run). */
  verify(bundle: unknown, options: Partial<VerifyBundleOptions> = {}): Promise<BundleVerification> {
    return this.answers.verify(bundle, options);
  }

  /** The options {@link verify} runs `verifyBundle` with; see {@link Answers.verificationOptions}. */
  verificationOptions(options: Partial<VerifyBundleOptions> = {}): VerifyBundleOptions {
    return this.answers.verificationOptions(options);
  }
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
