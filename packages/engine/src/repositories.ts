/**
 * The engine's storage by aggregate (docs/architecture.md, "Storage"): each repository is the
 * functions of one aggregate bound to the engine's database, so the server and the CLI reach the
 * database only through them and never hold its handle. The functions stay exported for tests that
 * work on a transaction or a bare database.
 */

import { createAdmin, ensureFirstAdmin, login, logout, sessionFor } from './auth.js';
import type { Database, Queryable } from './db/database.js';
import { submitFeedback } from './feedback.js';
import { failOrphanedDocuments } from './ingest/async.js';
import { databaseNow, finishedJobs, getJob, listJobs } from './jobs/queue.js';
import { checkpointWithCosignatures, readTile } from './log/tiles.js';
import type { TransparencyLog } from './log/transparency-log.js';
import { addCosignature } from './log/witness.js';
import { operationalReadings } from './operations.js';
import { chargeSharedRateLimit, sweepSharedRateLimits } from './rate-limits.js';
import { deleteChatSession, getChatSession } from './sessions.js';
import { createUpload, getUpload, markUploadProcessed, putUploadContent, uploadBytes } from './uploads.js';
import { usageReport } from './usage.js';
import {
  createWebhook,
  deleteWebhook,
  deliverDueWebhooks,
  listDeliveries,
  listWebhooks,
} from './webhooks.js';
import {
  authenticateApiKey,
  createApiKey,
  createWorkspace,
  createWorkspaceWithAdminKey,
  getWorkspace,
  listApiKeys,
  listWorkspaces,
  revokeApiKey,
} from './workspaces.js';

// biome-ignore lint/suspicious/noExplicitAny: the rest of a storage function's parameters, whatever they are.
type StorageFunction<D> = (db: D, ...rest: any[]) => unknown;

/** `f(db, ...rest)` as `(...rest)`. */
type Bound<F> = F extends (db: never, ...rest: infer A) => infer R ? (...rest: A) => R : never;

export type Repository<T> = { readonly [K in keyof T]: Bound<T[K]> };

/** Binds each function's first parameter, the database, to `db`. */
function bind<D, T extends Record<string, StorageFunction<D>>>(db: D, functions: T): Repository<T> {
  const bound: Record<string, unknown> = {};
  for (const [name, storageFunction] of Object.entries(functions)) {
    bound[name] = (...rest: unknown[]) => storageFunction(db, ...rest);
  }
  return bound as Repository<T>;
}

/** The repositories of one engine, over its database and transparency log. */
export function openRepositories(db: Database, log: TransparencyLog) {
  return {
    workspaces: bind(db, {
      create: createWorkspace,
      createWithAdminKey: createWorkspaceWithAdminKey,
      get: getWorkspace,
      list: listWorkspaces,
    }),
    apiKeys: bind(db, {
      authenticate: authenticateApiKey,
      create: createApiKey,
      list: listApiKeys,
      revoke: revokeApiKey,
    }),
    admins: bind(db, {
      create: createAdmin,
      ensureFirst: ensureFirstAdmin,
      login,
      logout,
      session: sessionFor,
    }),
    chatSessions: bind(db, { delete: deleteChatSession, get: getChatSession }),
    jobs: bind(db, {
      databaseNow,
      failOrphanedDocuments,
      finished: finishedJobs,
      get: getJob,
      list: listJobs,
    }),
    uploads: bind(db, {
      bytes: uploadBytes,
      create: createUpload,
      get: getUpload,
      markProcessed: markUploadProcessed,
      putContent: putUploadContent,
    }),
    webhooks: bind(db, {
      create: createWebhook,
      delete: deleteWebhook,
      deliverDue: deliverDueWebhooks,
      deliveries: listDeliveries,
      list: listWebhooks,
    }),
    feedback: bind(db, { submit: submitFeedback }),
    usage: bind(db, { report: usageReport }),
    operations: bind(db, { readings: operationalReadings }),
    rateLimits: {
      /** Whether the limits are shared with other processes (PostgreSQL) or kept per process. */
      shared: db.kind === 'postgres',
      ...bind(db as Queryable, { charge: chargeSharedRateLimit, sweep: sweepSharedRateLimits }),
    },
    transparencyLog: {
      addCosignature: (
        ...rest: Parameters<typeof addCosignature> extends [unknown, ...infer A] ? A : never
      ) => addCosignature(db, ...rest),
      checkpointWithCosignatures: () => checkpointWithCosignatures(db),
      consistencyProof: (first: number, second?: number) => log.consistencyProof(db, first, second),
      inclusionProof: (leafIndex: number, treeSize?: number) => log.inclusionProof(db, leafIndex, treeSize),
      latestCheckpoint: () => log.latestCheckpoint(db),
      readTile: (...rest: Parameters<typeof readTile> extends [unknown, ...infer A] ? A : never) =>
        readTile(db, ...rest),
    },
  };
}

export type Repositories = ReturnType<typeof openRepositories>;
