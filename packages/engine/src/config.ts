/**
 * Configuration: `process.env` is parsed once, at start-up, into this typed object (zod) and passed
 * down. Nothing deeper in the engine reads the environment.
 */
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { EngineError } from './errors.js';
import { DEFAULT_INGEST_LIMITS, DEFAULT_OCR_SETTINGS, type OcrSettings } from './ingest/limits.js';
import { type LlmConfig, parseLlmConfig } from './llm/config.js';
import { DEFAULT_SESSION_POLICY, type SessionPolicy } from './sessions.js';

/**
 * Verification work units a caller may spend a minute on `POST /api/v1/verify` (docs/api.md,
 * "Verification work"): about 400 ordinary bundles, or two at the limits per bundle.
 */
export const DEFAULT_VERIFY_WORK_PER_MINUTE = 20_000;
/** Verifications that may wait for a verification thread before the route answers 503. */
export const DEFAULT_VERIFY_QUEUE = 16;

/** One verification thread per core but one, which the server's event loop keeps; at least one. */
export function defaultVerifyWorkers(): number {
  return Math.max(1, availableParallelism() - 1);
}

const schema = z.object({
  SAKSI_DATA_DIR: z.string().min(1).optional(),
  DATABASE_URL: z.string().min(1).optional(),
  DATABASE_READ_URL: z.string().min(1).optional(),
  SAKSI_REPLICA_MAX_LAG_SECONDS: z.coerce.number().min(0).max(3600).default(5),
  SAKSI_TRUST_PROXY: z.string().default(''),
  SAKSI_PROXY_HEADER: z.enum(['x-forwarded-for', 'forwarded']).default('x-forwarded-for'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  SAKSI_EMBEDDING: z.string().min(1).default('hash'),
  SAKSI_EMBEDDING_BASE_URL: z.string().url().optional(),
  SAKSI_EMBEDDING_API_KEY: z.string().min(1).optional(),
  SAKSI_EMBEDDING_DIMENSIONS: z.coerce.number().int().min(1).max(4000).optional(),
  SAKSI_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(50 * 1024 * 1024),
  SAKSI_DEMO: z.enum(['0', '1', 'true', 'false']).default('1'),
  SAKSI_KEYS_DIR: z.string().min(1).optional(),
  SAKSI_ISSUER_KEY: z.string().min(1).optional(),
  SAKSI_LOG_KEY: z.string().min(1).optional(),
  SAKSI_WITNESS_KEY: z.string().min(1).optional(),
  SAKSI_TRUSTED_KEYS: z.string().min(1).optional(),
  SAKSI_AUTH_SECRET: z.string().min(1).optional(),
  SAKSI_ANCHOR: z.enum(['local', 'evm', 'base-sepolia', 'base', 'none']).default('local'),
  SAKSI_ANCHOR_RPC_URL: z.string().url().optional(),
  SAKSI_ANCHOR_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x followed by 64 hex digits')
    .optional(),
  SAKSI_ANCHOR_CONTRACT: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address')
    .optional(),
  SAKSI_ANCHOR_CHAIN_ID: z.coerce.number().int().min(1).optional(),
  SAKSI_ANCHOR_INTERVAL: z.coerce.number().min(0.05).default(5),
  SAKSI_ANCHOR_BATCH_SIZE: z.coerce.number().int().min(1).max(100_000).default(1000),
  SAKSI_ANCHOR_LOG_INTERVAL: z.coerce.number().min(1).default(600),
  SAKSI_ANCHOR_CONFIRM_TIMEOUT: z.coerce.number().min(1).default(120),
  SAKSI_ANCHOR_FROM_BLOCK: z.coerce.number().int().min(0).optional(),
  SAKSI_ANVIL_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  SAKSI_ALLOWED_ORIGINS: z.string().default(''),
  SAKSI_MAX_QUESTION_CHARS: z.coerce.number().int().min(1).max(100_000).default(4_000),
  SAKSI_CONFIDENCE_THRESHOLD: z.coerce.number().min(0).max(1).default(0.5),
  SAKSI_VERIFIER: z.enum(['lexical', 'llm-judge']).default('lexical'),
  SAKSI_QUERY_EXPANSION: z.enum(['none', 'llm']).default('none'),
  SAKSI_CLAIMS: z.enum(['sentence', 'llm']).default('sentence'),
  SAKSI_WORKER: z.enum(['inline', 'off']).default('inline'),
  SAKSI_JOB_LEASE_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  SAKSI_JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(3),
  SAKSI_RATE_LIMIT_KEY: z.coerce.number().int().min(0).default(600),
  SAKSI_RATE_LIMIT_IP: z.coerce.number().int().min(0).default(300),
  SAKSI_PUBLIC_CHAT_LIMIT: z.coerce.number().int().min(0).default(100),
  SAKSI_VERIFY_WORK_LIMIT: z.coerce.number().int().min(0).default(DEFAULT_VERIFY_WORK_PER_MINUTE),
  SAKSI_VERIFY_WORKERS: z.coerce.number().int().min(0).max(64).optional(),
  SAKSI_VERIFY_QUEUE: z.coerce.number().int().min(0).max(10_000).default(DEFAULT_VERIFY_QUEUE),
  SAKSI_MAX_PAGES: z.coerce.number().int().min(1).default(5_000),
  SAKSI_MAX_CHUNKS: z.coerce.number().int().min(1).default(DEFAULT_INGEST_LIMITS.maxChunks),
  SAKSI_MAX_TEXT_CHARS: z.coerce.number().int().min(1).default(DEFAULT_INGEST_LIMITS.maxTextChars),
  SAKSI_INGEST_MEMORY_MB: z.coerce.number().int().min(64).max(16_384).default(DEFAULT_INGEST_LIMITS.memoryMb),
  SAKSI_OCR: z.enum(['auto', 'off']).default(DEFAULT_OCR_SETTINGS.mode),
  SAKSI_OCR_MAX_PAGES: z.coerce.number().int().min(1).default(DEFAULT_OCR_SETTINGS.maxPages),
  SAKSI_OCR_PAGE_SECONDS: z.coerce.number().min(1).max(3_600).default(DEFAULT_OCR_SETTINGS.pageSeconds),
  SAKSI_WORKSPACE_STORAGE_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(5 * 1024 * 1024 * 1024),
  SAKSI_UPLOAD_URL_TTL: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 24 * 3600)
    .default(3600),
  SAKSI_WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  SAKSI_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  SAKSI_WEBHOOK_ALLOW_PRIVATE: z.enum(['0', '1', 'true', 'false']).default('0'),
  SAKSI_PUBLIC_URL: z.string().url().optional(),
  SAKSI_SESSION_TTL: z.coerce
    .number()
    .int()
    .min(0)
    .max(365 * 24 * 3600)
    .default(DEFAULT_SESSION_POLICY.ttlSeconds),
  SAKSI_SESSION_MAX_TURNS: z.coerce.number().int().min(1).max(1_000).default(DEFAULT_SESSION_POLICY.maxTurns),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  SAKSI_METRICS_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  SENTRY_DSN: z.string().min(1).optional(),
  SENTRY_ENVIRONMENT: z.string().min(1).max(64).optional(),
  SENTRY_RELEASE: z.string().min(1).max(200).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().url().optional(),
  OTEL_EXPORTER_OTLP_HEADERS: z.string().optional(),
  OTEL_SERVICE_NAME: z.string().min(1).max(200).default('saksi'),
  SAKSI_ANSWER_CACHE: z.enum(['on', 'off']).default('on'),
  SAKSI_ANSWER_CACHE_ENTRIES: z.coerce.number().int().min(1).max(10_000_000).default(10_000),
  SAKSI_SESSION_PROMPT_TURNS: z.coerce
    .number()
    .int()
    .min(0)
    .max(20)
    .default(DEFAULT_SESSION_POLICY.promptTurns),
});

/** Chains with a preset: `SAKSI_ANCHOR=base-sepolia` or `base` (RPC URL overridable). */
export const ANCHOR_PRESETS = {
  'base-sepolia': { chainId: 84532, rpcUrl: 'https://sepolia.base.org' },
  base: { chainId: 8453, rpcUrl: 'https://mainnet.base.org' },
} as const;

export interface AnchorConfig {
  /** `local`: anvil in the data directory; `evm`: a configured chain; `none`: no anchoring. */
  provider: 'local' | 'evm' | 'none';
  /** The preset name when one was used. */
  preset?: keyof typeof ANCHOR_PRESETS;
  rpcUrl?: string;
  chainId?: number;
  /** Secret: never logged or echoed. */
  privateKey?: `0x${string}`;
  contract?: `0x${string}`;
  /** Milliseconds between anchoring rounds. */
  intervalMs: number;
  /** Largest number of document roots in one round. */
  batchSize: number;
  /** A round for the log root alone at most this often (ms) when no document is waiting. */
  logIntervalMs: number;
  /** How long to wait for a receipt before leaving the round to the next reconciliation (ms). */
  confirmTimeoutMs: number;
  /** First block to search for RootAnchored events when reconciling (evm). */
  fromBlock?: number;
  /** `local`: the anvil port (`SAKSI_ANVIL_PORT`; 0 a free one); default the port kept in the data directory. */
  localPort?: number;
}

export interface EmbeddingConfig {
  provider: 'hash' | 'openai-compatible';
  model: string;
  dimensions: number;
  baseURL?: string;
  apiKey?: string;
}

/** Keys given as text (docs/deploy.md, "Keys from the environment"). */
export interface KeySecrets {
  /** The issuer's secret key, base64 (the content of `issuer.key`). */
  issuer: string;
  /** The log's signer key, `PRIVATE+KEY+…` (the content of `log.key`). */
  log: string;
  /** The witness's signer key (the content of `witness.key`); none: the log is not cosigned here. */
  witness?: string;
  /** The trusted-keys document (the content of `saksi-keys.json`); none: made from the keys. */
  trusted?: string;
  /** The admin CSRF secret, base64 of 32 bytes or more; none: derived from the issuer key. */
  auth?: string;
}

export interface SaksiConfig {
  dataDir: string;
  databaseUrl?: string;
  /** A streaming replica of `databaseUrl` that serves retrieval (docs/scaling.md). */
  readUrl?: string;
  /** Reads leave a replica whose replay is further behind than this (seconds). */
  replicaMaxLagSeconds: number;
  /**
   * Which reverse proxies may say who the client is (`SAKSI_TRUST_PROXY`); null: none, the TCP
   * peer is the client and forwarding headers are ignored.
   */
  trustProxy: TrustProxyConfig | null;
  port: number;
  host: string;
  keysDir: string;
  /**
   * The signing keys themselves, from the environment (`SAKSI_ISSUER_KEY`, `SAKSI_LOG_KEY`, …) instead
   * of files in `keysDir`: a deployment with no local disk (docs/deploy.md).
   */
  keySecrets?: KeySecrets;
  embedding: EmbeddingConfig;
  maxUploadBytes: number;
  demo: boolean;
  anchor: AnchorConfig;
  /** Origins other pages may call the public API from (CORS, for the widget); `*` is any origin. */
  allowedOrigins: string[];
  /** The answer model (`SAKSI_LLM=provider:model`); null answers extractively, offline. */
  llm: LlmConfig | null;
  /** Claim verifiers: `lexical` (default) or `llm-judge` (lexical and the model as judge; needs SAKSI_LLM). */
  verifier: 'lexical' | 'llm-judge';
  /** Claims whose verifier confidence is below this are not rendered (fail closed). */
  confidenceThreshold: number;
  /** Longest question accepted, in characters. */
  maxQuestionChars: number;
  /** `llm`: the model also rewrites each question into a legal search query and key phrases. */
  queryExpansion: 'none' | 'llm';
  /** `llm`: the model splits each sentence claim into atomic statements, each verified. */
  claims: 'sentence' | 'llm';
  /** `inline`: `saksi serve` runs the job worker in-process; `off`: only `saksi worker` processes do. */
  worker: 'inline' | 'off';
  jobs: {
    /** A claimed job is taken over by another worker when its lease (renewed while working) runs out (ms). */
    leaseMs: number;
    maxAttempts: number;
  };
  /** Requests per minute per API key and per client address; 0 turns a limit off. */
  rateLimits: { perKeyPerMinute: number; perIpPerMinute: number; publicChatPerHour: number };
  /**
   * `POST /api/v1/verify` (docs/api.md): the threads that verify bundles off the server's event loop
   * (0: on it), how many verifications may wait for one, and the work units a caller may spend a
   * minute (0: no limit).
   */
  verification: { workers: number; queue: number; workPerMinute: number };
  /** Defaults for every workspace (a workspace's own `quotas` override them). */
  quotas: { maxDocumentBytes: number; maxPages: number; maxStorageBytes: number };
  /**
   * Bounds on one document's ingestion (docs/configuration.md): chunks, extracted text and the memory
   * of the thread that reads it, and OCR of scanned PDF pages. Passing one fails the document with
   * `QUOTA_EXCEEDED`.
   */
  ingest: { maxChunks: number; maxTextChars: number; memoryMb: number; ocr: OcrSettings };
  /** Seconds a two-step upload URL stays valid. */
  uploadUrlTtlSeconds: number;
  webhooks: {
    maxAttempts: number;
    timeoutMs: number;
    /**
     * Deliver to loopback, private, link-local and other non-public addresses too (self-hosted setups
     * whose receivers are on the local network). Off by default: see docs/api.md ("Webhooks").
     */
    allowPrivate: boolean;
  };
  /** The server's public base URL, used for upload URLs (defaults to the request's origin). */
  publicUrl?: string;
  /** Chat sessions' time-to-live, the turns each keeps and the turns a language model sees. */
  sessions: SessionPolicy;
  /** The answer cache: on or off, and the most entries kept per collection. */
  answerCache: { enabled: boolean; maxEntries: number };
  /** Lines the server logs (JSON) at or above this level (`LOG_LEVEL`). */
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Bearer key of `GET /metrics` (secret); without one, only loopback clients may read it. */
  metricsKey?: string;
  /** Where unexpected errors are reported (`SENTRY_DSN`); none: nowhere (docs/operations.md). */
  errorReports?: ErrorReportConfig;
  /** Where traces go (OTLP/HTTP; `OTEL_EXPORTER_OTLP_*`); none: no tracing is loaded (docs/operations.md). */
  traces?: TracesConfig;
}

export interface TracesConfig {
  /** The OTLP/HTTP traces endpoint (`…/v1/traces`). */
  url: string;
  /** Sent with every export (`OTEL_EXPORTER_OTLP_HEADERS`; secret: never logged). */
  headers: Record<string, string>;
  serviceName: string;
}

/** A Sentry-compatible DSN, parsed (`<scheme>://<public key>@<host>/<project id>`). */
export interface ErrorReportConfig {
  /** The envelope endpoint: `<scheme>://<host>[/<path>]/api/<project id>/envelope/`. */
  envelopeUrl: string;
  /** The DSN's public key, sent as `sentry_key` (not a secret to the service, but kept out of logs). */
  publicKey: string;
  environment?: string;
  release?: string;
}

/**
 * `SAKSI_TRUST_PROXY`: either a number of proxy hops in front of the server (each appends the address
 * it received the request from), or the addresses and CIDR ranges of the proxies. `header` is the one
 * header those proxies write; the other is ignored.
 */
export type TrustProxyConfig =
  | { hops: number; header: 'x-forwarded-for' | 'forwarded' }
  | { addresses: string[]; header: 'x-forwarded-for' | 'forwarded' };

/** Parses the environment; throws `CONFIG_INVALID` naming the variable. Secrets never appear in the message. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>, cwd: string): SaksiConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EngineError(
      'CONFIG_INVALID',
      `Invalid configuration: ${issue?.path.join('.')} ${issue?.message ?? ''}`.trim(),
    );
  }
  const values = parsed.data;
  const dataDir = path.resolve(cwd, values.SAKSI_DATA_DIR ?? '.saksi');
  const [provider, ...modelParts] = values.SAKSI_EMBEDDING.split(':');
  let embedding: EmbeddingConfig;
  if (provider === 'hash') {
    embedding = {
      provider: 'hash',
      model: 'saksi-hash-v1',
      dimensions: values.SAKSI_EMBEDDING_DIMENSIONS ?? 384,
    };
  } else if (provider === 'openai-compatible') {
    const model = modelParts.join(':');
    if (!model || !values.SAKSI_EMBEDDING_BASE_URL || !values.SAKSI_EMBEDDING_DIMENSIONS) {
      throw new EngineError(
        'CONFIG_INVALID',
        'SAKSI_EMBEDDING=openai-compatible:<model> needs SAKSI_EMBEDDING_BASE_URL and SAKSI_EMBEDDING_DIMENSIONS.',
      );
    }
    embedding = {
      provider: 'openai-compatible',
      model,
      dimensions: values.SAKSI_EMBEDDING_DIMENSIONS,
      baseURL: values.SAKSI_EMBEDDING_BASE_URL,
      ...(values.SAKSI_EMBEDDING_API_KEY ? { apiKey: values.SAKSI_EMBEDDING_API_KEY } : {}),
    };
  } else {
    throw new EngineError(
      'CONFIG_INVALID',
      `SAKSI_EMBEDDING must be "hash" or "openai-compatible:<model>", not "${provider}".`,
    );
  }
  const llm = parseLlmConfig(env);
  if (values.SAKSI_CLAIMS === 'llm' && !llm) {
    throw new EngineError('CONFIG_INVALID', 'SAKSI_CLAIMS=llm needs a model: set SAKSI_LLM=provider:model.');
  }
  if (values.SAKSI_QUERY_EXPANSION === 'llm' && !llm) {
    throw new EngineError(
      'CONFIG_INVALID',
      'SAKSI_QUERY_EXPANSION=llm needs a model: set SAKSI_LLM=provider:model.',
    );
  }
  if (values.SAKSI_VERIFIER === 'llm-judge' && !llm) {
    throw new EngineError(
      'CONFIG_INVALID',
      'SAKSI_VERIFIER=llm-judge needs a model: set SAKSI_LLM=provider:model.',
    );
  }
  if (values.DATABASE_READ_URL && !values.DATABASE_URL) {
    throw new EngineError(
      'CONFIG_INVALID',
      'DATABASE_READ_URL needs DATABASE_URL: the replica serves reads for a PostgreSQL primary.',
    );
  }
  return {
    anchor: anchorConfig(values),
    ...(values.DATABASE_READ_URL ? { readUrl: values.DATABASE_READ_URL } : {}),
    replicaMaxLagSeconds: values.SAKSI_REPLICA_MAX_LAG_SECONDS,
    trustProxy: trustProxyConfig(values.SAKSI_TRUST_PROXY, values.SAKSI_PROXY_HEADER),
    llm,
    verifier: values.SAKSI_VERIFIER,
    queryExpansion: values.SAKSI_QUERY_EXPANSION,
    claims: values.SAKSI_CLAIMS,
    confidenceThreshold: values.SAKSI_CONFIDENCE_THRESHOLD,
    maxQuestionChars: values.SAKSI_MAX_QUESTION_CHARS,
    dataDir,
    ...(values.DATABASE_URL ? { databaseUrl: values.DATABASE_URL } : {}),
    port: values.PORT,
    host: values.HOST,
    keysDir: path.resolve(cwd, values.SAKSI_KEYS_DIR ?? path.join(dataDir, 'keys')),
    ...keySecretsConfig(values),
    embedding,
    maxUploadBytes: values.SAKSI_MAX_UPLOAD_BYTES,
    demo: values.SAKSI_DEMO === '1' || values.SAKSI_DEMO === 'true',
    allowedOrigins: allowedOrigins(values.SAKSI_ALLOWED_ORIGINS),
    worker: values.SAKSI_WORKER,
    jobs: { leaseMs: values.SAKSI_JOB_LEASE_SECONDS * 1000, maxAttempts: values.SAKSI_JOB_MAX_ATTEMPTS },
    rateLimits: {
      perKeyPerMinute: values.SAKSI_RATE_LIMIT_KEY,
      perIpPerMinute: values.SAKSI_RATE_LIMIT_IP,
      publicChatPerHour: values.SAKSI_PUBLIC_CHAT_LIMIT,
    },
    verification: {
      workers: values.SAKSI_VERIFY_WORKERS ?? defaultVerifyWorkers(),
      queue: values.SAKSI_VERIFY_QUEUE,
      workPerMinute: values.SAKSI_VERIFY_WORK_LIMIT,
    },
    quotas: {
      maxDocumentBytes: values.SAKSI_MAX_UPLOAD_BYTES,
      maxPages: values.SAKSI_MAX_PAGES,
      maxStorageBytes: values.SAKSI_WORKSPACE_STORAGE_BYTES,
    },
    ingest: {
      maxChunks: values.SAKSI_MAX_CHUNKS,
      maxTextChars: values.SAKSI_MAX_TEXT_CHARS,
      memoryMb: values.SAKSI_INGEST_MEMORY_MB,
      ocr: {
        mode: values.SAKSI_OCR,
        maxPages: values.SAKSI_OCR_MAX_PAGES,
        pageSeconds: values.SAKSI_OCR_PAGE_SECONDS,
      },
    },
    uploadUrlTtlSeconds: values.SAKSI_UPLOAD_URL_TTL,
    webhooks: {
      maxAttempts: values.SAKSI_WEBHOOK_MAX_ATTEMPTS,
      timeoutMs: values.SAKSI_WEBHOOK_TIMEOUT_MS,
      allowPrivate:
        values.SAKSI_WEBHOOK_ALLOW_PRIVATE === '1' || values.SAKSI_WEBHOOK_ALLOW_PRIVATE === 'true',
    },
    ...(values.SAKSI_PUBLIC_URL ? { publicUrl: values.SAKSI_PUBLIC_URL.replace(/\/+$/, '') } : {}),
    logLevel: values.LOG_LEVEL,
    ...(values.SAKSI_METRICS_KEY ? { metricsKey: values.SAKSI_METRICS_KEY } : {}),
    ...tracesConfig(values),
    ...(values.SENTRY_DSN
      ? {
          errorReports: {
            ...parseDsn(values.SENTRY_DSN),
            ...(values.SENTRY_ENVIRONMENT ? { environment: values.SENTRY_ENVIRONMENT } : {}),
            ...(values.SENTRY_RELEASE ? { release: values.SENTRY_RELEASE } : {}),
          },
        }
      : {}),
    answerCache: {
      enabled: values.SAKSI_ANSWER_CACHE === 'on',
      maxEntries: values.SAKSI_ANSWER_CACHE_ENTRIES,
    },
    sessions: {
      ttlSeconds: values.SAKSI_SESSION_TTL,
      maxTurns: values.SAKSI_SESSION_MAX_TURNS,
      promptTurns: Math.min(values.SAKSI_SESSION_PROMPT_TURNS, values.SAKSI_SESSION_MAX_TURNS),
    },
  };
}

function keySecretsConfig(values: z.infer<typeof schema>): { keySecrets?: KeySecrets } {
  const given = {
    SAKSI_ISSUER_KEY: values.SAKSI_ISSUER_KEY,
    SAKSI_LOG_KEY: values.SAKSI_LOG_KEY,
    SAKSI_WITNESS_KEY: values.SAKSI_WITNESS_KEY,
    SAKSI_TRUSTED_KEYS: values.SAKSI_TRUSTED_KEYS,
    SAKSI_AUTH_SECRET: values.SAKSI_AUTH_SECRET,
  };
  if (Object.values(given).every((value) => value === undefined)) return {};
  const missing = (['SAKSI_ISSUER_KEY', 'SAKSI_LOG_KEY'] as const).filter(
    (name) => given[name] === undefined,
  );
  if (missing.length > 0) {
    const named = Object.entries(given)
      .filter(([, value]) => value !== undefined)
      .map(([name]) => name);
    throw new EngineError(
      'CONFIG_INVALID',
      `${named.join(', ')} ${named.length === 1 ? 'is' : 'are'} set, so the keys come from the environment: set ${missing.join(' and ')} too (saksi keys env prints them from a keys folder).`,
    );
  }
  return {
    keySecrets: {
      issuer: values.SAKSI_ISSUER_KEY!,
      log: values.SAKSI_LOG_KEY!,
      ...(values.SAKSI_WITNESS_KEY ? { witness: values.SAKSI_WITNESS_KEY } : {}),
      ...(values.SAKSI_TRUSTED_KEYS ? { trusted: values.SAKSI_TRUSTED_KEYS } : {}),
      ...(values.SAKSI_AUTH_SECRET ? { auth: values.SAKSI_AUTH_SECRET } : {}),
    },
  };
}

function anchorConfig(values: z.infer<typeof schema>): AnchorConfig {
  const timing = {
    intervalMs: values.SAKSI_ANCHOR_INTERVAL * 1000,
    batchSize: values.SAKSI_ANCHOR_BATCH_SIZE,
    logIntervalMs: values.SAKSI_ANCHOR_LOG_INTERVAL * 1000,
    confirmTimeoutMs: values.SAKSI_ANCHOR_CONFIRM_TIMEOUT * 1000,
    ...(values.SAKSI_ANCHOR_FROM_BLOCK !== undefined ? { fromBlock: values.SAKSI_ANCHOR_FROM_BLOCK } : {}),
  };
  const kind = values.SAKSI_ANCHOR;
  if (kind === 'none') return { provider: kind, ...timing };
  if (kind === 'local') {
    return {
      provider: kind,
      ...timing,
      ...(values.SAKSI_ANVIL_PORT !== undefined ? { localPort: values.SAKSI_ANVIL_PORT } : {}),
    };
  }
  const preset = kind === 'evm' ? undefined : ANCHOR_PRESETS[kind];
  const rpcUrl = values.SAKSI_ANCHOR_RPC_URL ?? preset?.rpcUrl;
  const chainId = values.SAKSI_ANCHOR_CHAIN_ID ?? preset?.chainId;
  const missing = [
    rpcUrl ? null : 'SAKSI_ANCHOR_RPC_URL',
    chainId ? null : 'SAKSI_ANCHOR_CHAIN_ID',
    values.SAKSI_ANCHOR_PRIVATE_KEY ? null : 'SAKSI_ANCHOR_PRIVATE_KEY',
    values.SAKSI_ANCHOR_CONTRACT ? null : 'SAKSI_ANCHOR_CONTRACT (deploy one with `saksi anchor deploy`)',
  ].filter((name) => name !== null);
  if (missing.length > 0) {
    throw new EngineError('CONFIG_INVALID', `SAKSI_ANCHOR=${kind} needs ${missing.join(', ')}.`);
  }
  if (preset && chainId !== preset.chainId) {
    throw new EngineError(
      'CONFIG_INVALID',
      `SAKSI_ANCHOR=${kind} is chain ${preset.chainId}, but SAKSI_ANCHOR_CHAIN_ID is ${chainId}.`,
    );
  }
  return {
    provider: 'evm',
    ...(kind === 'evm' ? {} : { preset: kind }),
    rpcUrl: rpcUrl!,
    chainId: chainId!,
    privateKey: values.SAKSI_ANCHOR_PRIVATE_KEY as `0x${string}`,
    contract: values.SAKSI_ANCHOR_CONTRACT as `0x${string}`,
    ...timing,
  };
}

/**
 * OpenTelemetry's standard variables ("OpenTelemetry Protocol Exporter" specification): the traces
 * endpoint as given, else `OTEL_EXPORTER_OTLP_ENDPOINT` with `/v1/traces` appended; headers as
 * `key=value` pairs separated by commas, values percent-decoded.
 */
function tracesConfig(values: z.infer<typeof schema>): { traces?: TracesConfig } {
  const base = values.OTEL_EXPORTER_OTLP_ENDPOINT;
  const url =
    values.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined);
  if (url === undefined) return {};
  const headers: Record<string, string> = {};
  for (const pair of (values.OTEL_EXPORTER_OTLP_HEADERS ?? '').split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    const name = at > 0 ? pair.slice(0, at).trim() : '';
    let value: string | undefined;
    try {
      value = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      value = undefined;
    }
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || value === undefined) {
      throw new EngineError(
        'CONFIG_INVALID',
        'Invalid configuration: OTEL_EXPORTER_OTLP_HEADERS must read name=value,name2=value2 (values percent-encoded).',
      );
    }
    headers[name] = value;
  }
  return { traces: { url, headers, serviceName: values.OTEL_SERVICE_NAME } };
}

/**
 * `SENTRY_DSN` (Sentry's "Data Source Name": `https://<public key>@<host>[/<path>]/<project id>`)
 * to the envelope endpoint and key. The message of a DSN that does not parse never repeats it.
 */
export function parseDsn(dsn: string): Pick<ErrorReportConfig, 'envelopeUrl' | 'publicKey'> {
  const invalid = () =>
    new EngineError(
      'CONFIG_INVALID',
      'Invalid configuration: SENTRY_DSN must read https://<public key>@<host>/<project id> (as the service shows it).',
    );
  let url: URL;
  try {
    url = new URL(dsn.trim());
  } catch {
    throw invalid();
  }
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  const project = segments.pop();
  if (
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    !/^[A-Za-z0-9]{1,64}$/.test(decodeURIComponent(url.username)) ||
    project === undefined ||
    !/^\d+$/.test(project) ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    throw invalid();
  }
  const prefix = segments.length > 0 ? `/${segments.join('/')}` : '';
  return {
    envelopeUrl: `${url.protocol}//${url.host}${prefix}/api/${project}/envelope/`,
    publicKey: decodeURIComponent(url.username),
  };
}

/** Most proxy hops `SAKSI_TRUST_PROXY` may name. */
const MAX_PROXY_HOPS = 20;

/**
 * `SAKSI_TRUST_PROXY`: empty, `0` or `false` trusts no proxy; `1`…`20` that many hops; otherwise a
 * comma-separated list of IP addresses and CIDR ranges (`10.0.0.0/8`, `fd00::/8`), or `loopback`.
 */
function trustProxyConfig(value: string, header: 'x-forwarded-for' | 'forwarded'): TrustProxyConfig | null {
  const text = value.trim();
  if (text === '' || text === '0' || text === 'false') return null;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_PROXY_HOPS) {
      throw new EngineError(
        'CONFIG_INVALID',
        `Invalid configuration: SAKSI_TRUST_PROXY is ${hops} hops; at most ${MAX_PROXY_HOPS}.`,
      );
    }
    return { hops, header };
  }
  const addresses: string[] = [];
  for (const item of text.split(',').map((part) => part.trim())) {
    if (item === '') continue;
    if (item === 'loopback') {
      addresses.push('127.0.0.0/8', '::1/128');
      continue;
    }
    const [address = '', prefix] = item.split('/');
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    if (family === 0 || (prefix !== undefined && !(/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits))) {
      throw new EngineError(
        'CONFIG_INVALID',
        `Invalid configuration: SAKSI_TRUST_PROXY entry "${item.slice(0, 100)}" is not a hop count, an IP address, a CIDR range (10.0.0.0/8) or "loopback".`,
      );
    }
    addresses.push(prefix === undefined ? `${address}/${bits}` : `${address}/${Number(prefix)}`);
  }
  return addresses.length === 0 ? null : { addresses, header };
}

/** `SAKSI_ALLOWED_ORIGINS`: comma-separated `scheme://host[:port]` origins, or `*`. */
function allowedOrigins(value: string): string[] {
  const origins: string[] = [];
  for (const item of value.split(',').map((part) => part.trim())) {
    if (item === '') continue;
    if (item === '*') {
      origins.push('*');
      continue;
    }
    let origin: string;
    try {
      origin = new URL(item).origin;
    } catch {
      origin = 'null';
    }
    if (origin === 'null' || origin !== item.replace(/\/$/, '')) {
      throw new EngineError(
        'CONFIG_INVALID',
        `Invalid configuration: SAKSI_ALLOWED_ORIGINS entry "${item}" is not an origin such as https://docs.example.org.`,
      );
    }
    origins.push(origin);
  }
  return [...new Set(origins)];
}
