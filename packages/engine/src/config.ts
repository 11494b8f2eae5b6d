/**
 * Configuration: `process.env` is parsed once, at start-up, into this typed object (zod) and passed
 * down. Nothing deeper in the engine reads the environment.
 */
import path from 'node:path';
import { z } from 'zod';
import { EngineError } from './errors.js';

const schema = z.object({
  SAKSI_DATA_DIR: z.string().min(1).optional(),
  DATABASE_URL: z.string().min(1).optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  SAKSI_EMBEDDING: z.string().min(1).default('hash'),
  SAKSI_EMBEDDING_BASE_URL: z.string().url().optional(),
  SAKSI_EMBEDDING_API_KEY: z.string().min(1).optional(),
  SAKSI_EMBEDDING_DIMENSIONS: z.coerce.number().int().min(1).max(4096).optional(),
  SAKSI_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(50 * 1024 * 1024),
  SAKSI_DEMO: z.enum(['0', '1', 'true', 'false']).default('1'),
  SAKSI_KEYS_DIR: z.string().min(1).optional(),
});

export interface EmbeddingConfig {
  provider: 'hash' | 'openai-compatible';
  model: string;
  dimensions: number;
  baseURL?: string;
  apiKey?: string;
}

export interface SaksiConfig {
  dataDir: string;
  databaseUrl?: string;
  port: number;
  host: string;
  keysDir: string;
  embedding: EmbeddingConfig;
  maxUploadBytes: number;
  demo: boolean;
}

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
  return {
    dataDir,
    ...(values.DATABASE_URL ? { databaseUrl: values.DATABASE_URL } : {}),
    port: values.PORT,
    host: values.HOST,
    keysDir: path.resolve(cwd, values.SAKSI_KEYS_DIR ?? path.join(dataDir, 'keys')),
    embedding,
    maxUploadBytes: values.SAKSI_MAX_UPLOAD_BYTES,
    demo: values.SAKSI_DEMO === '1' || values.SAKSI_DEMO === 'true',
  };
}
