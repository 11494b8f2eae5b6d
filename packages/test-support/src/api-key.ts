/**
 * Test helpers for the developer API (docs/api.md): an API key of the default workspace, its header, and
 * waiting for the job worker to finish a document submitted with `POST /api/v1/documents`.
 */
import {
  type ApiKeyScope,
  createApiKey,
  DEFAULT_WORKSPACE,
  type Engine,
  type Queryable,
} from '@saksi/engine';
import type { Hono } from 'hono';
import type { Json } from './sse-events.js';

/**
 * A new API key of the default workspace (all scopes unless told), created through an engine or
 * straight in a database (one a server process will open later).
 */
export async function testApiKey(
  target: Engine | Queryable,
  scopes: ApiKeyScope[] = ['read', 'ingest', 'admin'],
): Promise<string> {
  const db = 'db' in target ? target.db : target;
  const { key } = await createApiKey(db, { workspaceId: DEFAULT_WORKSPACE, name: 'test', scopes });
  return key;
}

/** The `Authorization` header that presents `key`. */
export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

/** An app called in process, or the base URL of a listening server called with fetch. */
export type ApiTarget = Hono | string;

/**
 * Polls `GET /api/v1/documents/:id` until the worker has finished the document (READY or FAILED) and
 * returns it; throws after `timeoutMs`.
 */
export async function waitForDocument(
  target: ApiTarget,
  id: string,
  headers: Record<string, string>,
  timeoutMs = 30_000,
): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  const url = `/api/v1/documents/${id}`;
  for (;;) {
    const response =
      typeof target === 'string'
        ? await fetch(`${target}${url}`, { headers })
        : await target.request(url, { headers });
    const body = (await response.json()) as Json;
    if (response.status !== 200) {
      throw new Error(`GET ${url} answered ${response.status}: ${JSON.stringify(body)}`);
    }
    if (body['status'] === 'READY' || body['status'] === 'FAILED') return body;
    if (Date.now() > deadline)
      throw new Error(`document ${id} is still ${body['status']} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Chunks stored for a document, counted in the database (a failed ingestion must leave none). */
export async function storedChunks(engine: Engine, documentId: string): Promise<number> {
  const result = await engine.db.query<{ count: number }>(
    'SELECT count(*)::integer AS count FROM chunks WHERE document_id = $1',
    [documentId],
  );
  return result.rows[0]?.count ?? 0;
}
