/**
 * Workspaces and API keys (docs/api.md, "Authentication and scopes"). A workspace owns collections,
 * documents, jobs, uploads, webhooks and keys; nothing crosses between workspaces. An API key is shown once:
 * `saksi_<32 random bytes, base64url>`; only its SHA-256 is stored, with the first characters kept
 * as a visible prefix so people can tell their keys apart. Scopes: `read` (query, chat, documents and
 * jobs), `ingest` (upload, delete), `admin` (keys, webhooks, workspaces).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DEFAULT_WORKSPACE } from './collections.js';
import type { Database, Queryable } from './db/database.js';
import { EngineError } from './errors.js';
import { newId } from './ids.js';

export const API_KEY_SCOPES = ['read', 'ingest', 'admin'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

const KEY_PREFIX = 'saksi_';
/** Characters of a key kept in clear as its visible prefix (`saksi_` and 8 more). */
const VISIBLE_PREFIX_LENGTH = KEY_PREFIX.length + 8;
const KEY_PATTERN = /^saksi_[A-Za-z0-9_-]{43}$/;
const WORKSPACE_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,79}$/u;
const KEY_NAME_MAX = 100;

export interface Workspace {
  id: string;
  name: string;
  quotas: WorkspaceQuotas;
  created_at: string;
}

/** Overrides of the configured quotas for one workspace. */
export interface WorkspaceQuotas {
  max_document_bytes?: number;
  max_pages?: number;
  max_storage_bytes?: number;
}

export interface ApiKeyRecord {
  id: string;
  workspace_id: string;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** Who is calling: the key's workspace and scopes. */
export interface ApiPrincipal {
  kind: 'api_key';
  key_id: string;
  workspace_id: string;
  scopes: ApiKeyScope[];
}

const WORKSPACE_COLUMNS = `id, name, quotas, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`;
const KEY_COLUMNS = `id, workspace_id, name, prefix, scopes, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(last_used_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_used_at, to_char(revoked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS revoked_at`;

export function isApiKeyScope(value: unknown): value is ApiKeyScope {
  return typeof value === 'string' && (API_KEY_SCOPES as readonly string[]).includes(value);
}

/** SHA-256 (hex) of a key: keys are 256 random bits, so a fast hash is enough to store them. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export async function createWorkspace(
  db: Queryable,
  options: { name: string; quotas?: WorkspaceQuotas; id?: string },
): Promise<Workspace> {
  const name = options.name.trim();
  if (!WORKSPACE_NAME.test(name)) {
    throw new EngineError(
      'INVALID_INPUT',
      'Workspace names are 1–80 letters, digits, spaces, ".", "_" or "-", starting with a letter or digit.',
    );
  }
  const quotas = validateQuotas(options.quotas ?? {});
  const result = await db.query<Workspace>(
    `INSERT INTO workspaces (id, name, quotas) VALUES ($1, $2, $3) RETURNING ${WORKSPACE_COLUMNS}`,
    [options.id ?? newId('wsp'), name, JSON.stringify(quotas)],
  );
  return result.rows[0]!;
}

export async function listWorkspaces(
  db: Queryable,
): Promise<(Workspace & { documents: number; keys: number })[]> {
  const result = await db.query<Workspace & { documents: number; keys: number }>(
    `SELECT w.id, w.name, w.quotas, to_char(w.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
       (SELECT count(*)::integer FROM documents d JOIN collections c ON c.id = d.collection_id WHERE c.workspace_id = w.id) AS documents,
       (SELECT count(*)::integer FROM api_keys k WHERE k.workspace_id = w.id AND k.revoked_at IS NULL) AS keys
     FROM workspaces w WHERE w.disabled_at IS NULL ORDER BY w.created_at, w.id`,
  );
  return result.rows;
}

export async function getWorkspace(db: Queryable, id: string): Promise<Workspace> {
  const result = await db.query<Workspace>(
    `SELECT ${WORKSPACE_COLUMNS} FROM workspaces WHERE id = $1 AND disabled_at IS NULL`,
    [id],
  );
  const workspace = result.rows[0];
  if (!workspace) throw new EngineError('NOT_FOUND', `No workspace ${JSON.stringify(id.slice(0, 100))}.`);
  return workspace;
}

export async function updateWorkspaceQuotas(
  db: Queryable,
  id: string,
  quotas: WorkspaceQuotas,
): Promise<Workspace> {
  await getWorkspace(db, id);
  await db.query('UPDATE workspaces SET quotas = $2 WHERE id = $1', [
    id,
    JSON.stringify(validateQuotas(quotas)),
  ]);
  return getWorkspace(db, id);
}

function validateQuotas(quotas: WorkspaceQuotas): WorkspaceQuotas {
  const out: WorkspaceQuotas = {};
  for (const name of ['max_document_bytes', 'max_pages', 'max_storage_bytes'] as const) {
    const value = quotas[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new EngineError('INVALID_INPUT', `Quota ${name} must be a positive integer.`);
    }
    out[name] = value;
  }
  return out;
}

/**
 * A workspace and its first admin key, in one transaction: a workspace never exists without a key
 * that can manage it.
 */
export function createWorkspaceWithAdminKey(
  db: Database,
  options: { name: string; createdBy: string },
): Promise<{ workspace: Workspace; apiKey: { key: string; record: ApiKeyRecord } }> {
  return db.transaction(async (tx) => {
    const workspace = await createWorkspace(tx, { name: options.name });
    const apiKey = await createApiKey(tx, {
      workspaceId: workspace.id,
      name: `${workspace.name} admin`,
      scopes: ['admin'],
      createdBy: options.createdBy,
    });
    return { workspace, apiKey };
  });
}

/** Creates a key; the returned `key` is the only time the secret exists outside the caller. */
export async function createApiKey(
  db: Queryable,
  options: { workspaceId: string; name: string; scopes: readonly string[]; createdBy?: string },
): Promise<{ key: string; record: ApiKeyRecord }> {
  await getWorkspace(db, options.workspaceId);
  const name = options.name.trim();
  if (name.length === 0 || name.length > KEY_NAME_MAX || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new EngineError('INVALID_INPUT', `Key names are 1–${KEY_NAME_MAX} printable characters.`);
  }
  const scopes = [...new Set(options.scopes)];
  if (scopes.length === 0 || !scopes.every(isApiKeyScope)) {
    throw new EngineError('INVALID_INPUT', `Scopes are one or more of ${API_KEY_SCOPES.join(', ')}.`);
  }
  const ordered = API_KEY_SCOPES.filter((scope) => scopes.includes(scope));
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const result = await db.query<ApiKeyRecord>(
    `INSERT INTO api_keys (id, workspace_id, name, prefix, key_hash, scopes, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${KEY_COLUMNS}`,
    [
      newId('key'),
      options.workspaceId,
      name,
      key.slice(0, VISIBLE_PREFIX_LENGTH),
      hashApiKey(key),
      JSON.stringify(ordered),
      options.createdBy ?? null,
    ],
  );
  await db.query(
    `INSERT INTO audit_log (actor, action, target, details) VALUES ($1, 'api_key.create', $2, $3)`,
    [
      options.createdBy ?? null,
      result.rows[0]!.id,
      JSON.stringify({ workspace: options.workspaceId, scopes: ordered }),
    ],
  );
  return { key, record: result.rows[0]! };
}

export async function listApiKeys(db: Queryable, workspaceId: string): Promise<ApiKeyRecord[]> {
  await getWorkspace(db, workspaceId);
  const result = await db.query<ApiKeyRecord>(
    `SELECT ${KEY_COLUMNS} FROM api_keys WHERE workspace_id = $1 ORDER BY created_at, id`,
    [workspaceId],
  );
  return result.rows;
}

/** Revokes a key of `workspaceId`; a key of another workspace is not found. */
export async function revokeApiKey(
  db: Queryable,
  workspaceId: string,
  keyId: string,
  actor?: string,
): Promise<ApiKeyRecord> {
  const result = await db.query<ApiKeyRecord>(
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 AND workspace_id = $2 RETURNING ${KEY_COLUMNS}`,
    [keyId, workspaceId],
  );
  const record = result.rows[0];
  if (!record) throw new EngineError('NOT_FOUND', `No API key ${JSON.stringify(keyId.slice(0, 100))}.`);
  await db.query(
    `INSERT INTO audit_log (actor, action, target, details) VALUES ($1, 'api_key.revoke', $2, $3)`,
    [actor ?? null, keyId, JSON.stringify({ workspace: workspaceId })],
  );
  return record;
}

/**
 * The principal of a presented key. Unknown, malformed and revoked keys all fail the same way
 * (UNAUTHENTICATED), so a caller learns nothing about which keys exist.
 */
export async function authenticateApiKey(db: Queryable, presented: string): Promise<ApiPrincipal> {
  const failure = () =>
    new EngineError('UNAUTHENTICATED', 'The API key is missing, malformed, revoked or unknown.');
  if (!KEY_PATTERN.test(presented)) throw failure();
  const hash = hashApiKey(presented);
  const result = await db.query<{
    id: string;
    workspace_id: string;
    scopes: ApiKeyScope[];
    key_hash: string;
  }>(
    `SELECT k.id, k.workspace_id, k.scopes, k.key_hash FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
      WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND w.disabled_at IS NULL`,
    [hash],
  );
  const row = result.rows[0];
  if (!row || !timingSafeEqual(Buffer.from(row.key_hash), Buffer.from(hash))) throw failure();
  await db.query(
    `UPDATE api_keys SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
    [row.id],
  );
  return {
    kind: 'api_key',
    key_id: row.id,
    workspace_id: row.workspace_id,
    scopes: row.scopes.filter(isApiKeyScope),
  };
}

/** Throws FORBIDDEN unless the principal holds `scope` (`admin` implies every scope). */
export function requireScope(principal: { scopes: readonly ApiKeyScope[] }, scope: ApiKeyScope): void {
  if (principal.scopes.includes(scope) || principal.scopes.includes('admin')) return;
  throw new EngineError('FORBIDDEN', `This API key lacks the "${scope}" scope.`);
}

export { DEFAULT_WORKSPACE };
