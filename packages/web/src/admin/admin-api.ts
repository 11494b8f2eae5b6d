/**
 * Calls to the admin API (`/api/v1/admin`): session cookie (`credentials: 'same-origin'`) plus the
 * session's CSRF token in `X-CSRF-Token` on every non-GET request.
 */
import { ApiError, errorFromResponse, serverCode, type WebErrorCode } from '../api.js';
import { eventJson, readSse, SseError } from '../sse.js';

const BASE = '/api/v1/admin';

/** An admin call that failed; `retryAfter` (seconds) comes with `RATE_LIMITED`. */
export class AdminApiError extends ApiError {
  constructor(
    code: WebErrorCode,
    message: string,
    status = 0,
    readonly retryAfter: number | undefined = undefined,
  ) {
    super(code, message, status);
    this.name = 'AdminApiError';
  }
}

export interface AdminSession {
  email: string;
  csrfToken: string;
}

export type DocumentType = 'APBN' | 'APBD' | 'other';
export const DOCUMENT_TYPES: readonly DocumentType[] = ['APBN', 'APBD', 'other'];
export const DOCUMENT_STATUSES = ['READY', 'ARCHIVED', 'PROCESSING', 'PENDING', 'FAILED'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export interface DocumentAnchor {
  chain_id: number;
  tx_hash: string;
  block_number: number | null;
  explorer_url: string | null;
}

export interface AdminDocument {
  id: string;
  collection: string;
  title: string;
  filename: string;
  status: string;
  document_type: string | null;
  fiscal_year: number | null;
  source: string | null;
  chunk_count: number;
  root: string | null;
  anchor_state: string;
  created_at: string;
  anchor: DocumentAnchor | null;
}

export interface DocumentPage {
  items: AdminDocument[];
  total: number;
  limit: number;
  offset: number;
}

export interface DocumentFilters {
  collection?: string;
  document_type?: string;
  fiscal_year?: string;
  status?: string;
}

export interface UploadInput {
  file: File;
  collection: string;
  document_type: DocumentType;
  fiscal_year?: string;
  source?: string;
}

export interface UploadResult {
  document: AdminDocument;
  /** The same bytes were already in the collection: the existing document is returned. */
  deduplicated: boolean;
}

export interface UploadProgress {
  stage: string;
  progress: number;
}

/** A non-2xx admin reply as an `AdminApiError`, with `Retry-After` (seconds) when the server sent it. */
export async function adminError(response: Response): Promise<AdminApiError> {
  const error = await errorFromResponse(response);
  const header = response.headers.get('retry-after');
  const seconds = header !== null && /^\d+$/.test(header.trim()) ? Number(header.trim()) : undefined;
  return new AdminApiError(error.code, error.message, response.status, seconds);
}

async function request(
  path: string,
  init: { method?: string; body?: BodyInit; headers?: Record<string, string>; csrfToken?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  if (init.csrfToken !== undefined) headers['x-csrf-token'] = init.csrfToken;
  let response: Response;
  try {
    response = await fetch(`${BASE}${path}`, {
      method: init.method ?? 'GET',
      credentials: 'same-origin',
      headers,
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
  } catch {
    throw new AdminApiError('NETWORK', 'The server cannot be reached.');
  }
  if (!response.ok) throw await adminError(response);
  return response;
}

async function json<T>(response: Response): Promise<T> {
  try {
    return (await response.json()) as T;
  } catch {
    throw new AdminApiError('MALFORMED', 'The server reply is not JSON.', response.status);
  }
}

function session(body: { email?: unknown; csrf_token?: unknown }, status: number): AdminSession {
  if (typeof body.email !== 'string' || typeof body.csrf_token !== 'string') {
    throw new AdminApiError('MALFORMED', 'The server reply has no session.', status);
  }
  return { email: body.email, csrfToken: body.csrf_token };
}

export async function login(email: string, password: string): Promise<AdminSession> {
  const response = await request('/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return session(await json(response), response.status);
}

/** The current session; throws `UNAUTHENTICATED` or `SESSION_EXPIRED` (401) when there is none. */
export async function me(): Promise<AdminSession> {
  const response = await request('/me');
  return session(await json(response), response.status);
}

export async function logout(auth: AdminSession): Promise<void> {
  await request('/logout', { method: 'POST', csrfToken: auth.csrfToken });
}

export async function listDocuments(
  filters: DocumentFilters,
  limit: number,
  offset: number,
): Promise<DocumentPage> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (typeof value === 'string' && value.trim() !== '') query.set(key, value.trim());
  }
  query.set('limit', String(limit));
  query.set('offset', String(offset));
  const body = await json<Partial<DocumentPage>>(await request(`/documents?${query}`));
  if (!Array.isArray(body.items)) throw new AdminApiError('MALFORMED', 'The document list is malformed.');
  return {
    items: body.items,
    total: typeof body.total === 'number' ? body.total : body.items.length,
    limit: typeof body.limit === 'number' ? body.limit : limit,
    offset: typeof body.offset === 'number' ? body.offset : offset,
  };
}

export async function setArchived(auth: AdminSession, id: string, archived: boolean): Promise<AdminDocument> {
  const action = archived ? 'archive' : 'restore';
  const response = await request(`/documents/${encodeURIComponent(id)}/${action}`, {
    method: 'POST',
    csrfToken: auth.csrfToken,
  });
  return (await json<{ document: AdminDocument }>(response)).document;
}

export async function deleteDocument(auth: AdminSession, id: string): Promise<void> {
  await request(`/documents/${encodeURIComponent(id)}`, { method: 'DELETE', csrfToken: auth.csrfToken });
}

/**
 * Uploads one file and follows the ingest pipeline over SSE (`progress`, then `done` or `error`).
 * A plain JSON reply (a server without streaming) is accepted too.
 */
export async function uploadDocument(
  auth: AdminSession,
  input: UploadInput,
  onProgress: (progress: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<UploadResult> {
  const form = new FormData();
  form.set('file', input.file, input.file.name);
  form.set('collection', input.collection);
  form.set('document_type', input.document_type);
  if (input.fiscal_year?.trim()) form.set('fiscal_year', input.fiscal_year.trim());
  if (input.source?.trim()) form.set('source', input.source.trim());
  let response: Response;
  try {
    response = await fetch(`${BASE}/documents`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'text/event-stream', 'x-csrf-token': auth.csrfToken },
      body: form,
      ...(signal ? { signal } : {}),
    });
  } catch {
    throw new AdminApiError('NETWORK', 'The server cannot be reached.');
  }
  if (!response.ok) throw await adminError(response);
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream') || !response.body) {
    const body = await json<{ document?: AdminDocument; deduplicated?: unknown }>(response);
    if (!body.document) throw new AdminApiError('MALFORMED', 'The upload reply has no document.');
    return { document: body.document, deduplicated: body.deduplicated === true };
  }
  const outcome: { result?: UploadResult; failure?: AdminApiError } = {};
  try {
    await readSse(
      response.body,
      (event) => {
        const data = eventJson(event);
        if (event.event === 'progress') {
          const stage = typeof data['stage'] === 'string' ? data['stage'] : '';
          const progress = typeof data['progress'] === 'number' ? data['progress'] : 0;
          onProgress({ stage, progress: Math.min(1, Math.max(0, progress)) });
        } else if (event.event === 'done') {
          const document = data['document'];
          if (typeof document === 'object' && document !== null)
            outcome.result = {
              document: document as AdminDocument,
              deduplicated: data['deduplicated'] === true,
            };
        } else if (event.event === 'error') {
          outcome.failure = new AdminApiError(
            serverCode(data['code'], 'UPLOAD_FAILED'),
            typeof data['message'] === 'string' ? data['message'] : 'The upload failed.',
            response.status,
          );
        }
      },
      signal,
    );
  } catch (error) {
    if (error instanceof SseError) throw new AdminApiError(error.code, error.message, response.status);
    throw new AdminApiError('STREAM_ENDED', 'The upload stream broke off.', response.status);
  }
  if (outcome.failure) throw outcome.failure;
  if (!outcome.result) {
    throw new AdminApiError('STREAM_ENDED', 'The upload stream ended before it was done.');
  }
  return outcome.result;
}

export type ApiKeyScope = 'read' | 'ingest' | 'admin';
export const API_KEY_SCOPES: readonly ApiKeyScope[] = ['read', 'ingest', 'admin'];

export interface AdminWorkspace {
  id: string;
  name: string;
  quotas: Record<string, number>;
  created_at: string;
  documents: number;
  /** Keys not revoked. */
  keys: number;
}

/** An API key as lists show it: its visible prefix, never the secret. */
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

/** A new key: `key` is the secret, shown this once and never again. */
export interface CreatedApiKey {
  key: string;
  record: ApiKeyRecord;
}

function items<T>(body: { items?: unknown }, what: string): T[] {
  if (!Array.isArray(body.items)) throw new AdminApiError('MALFORMED', `The ${what} list is malformed.`);
  return body.items as T[];
}

function workspacePath(id: string): string {
  return `/workspaces/${encodeURIComponent(id)}/keys`;
}

export async function listWorkspaces(): Promise<AdminWorkspace[]> {
  return items<AdminWorkspace>(await json(await request('/workspaces')), 'workspace');
}

export async function createWorkspace(auth: AdminSession, name: string): Promise<AdminWorkspace> {
  const response = await request('/workspaces', {
    method: 'POST',
    csrfToken: auth.csrfToken,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  const body = await json<{ workspace?: AdminWorkspace }>(response);
  if (!body.workspace) throw new AdminApiError('MALFORMED', 'The reply has no workspace.', response.status);
  return { ...body.workspace, documents: 0, keys: 0 };
}

export async function listApiKeys(workspaceId: string): Promise<ApiKeyRecord[]> {
  return items<ApiKeyRecord>(await json(await request(workspacePath(workspaceId))), 'key');
}

export async function createApiKey(
  auth: AdminSession,
  workspaceId: string,
  input: { name: string; scopes: readonly ApiKeyScope[] },
): Promise<CreatedApiKey> {
  const response = await request(workspacePath(workspaceId), {
    method: 'POST',
    csrfToken: auth.csrfToken,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: input.name, scopes: input.scopes }),
  });
  const body = await json<Partial<CreatedApiKey>>(response);
  if (typeof body.key !== 'string' || !body.record)
    throw new AdminApiError('MALFORMED', 'The reply has no key.', response.status);
  return { key: body.key, record: body.record };
}

export async function revokeApiKey(
  auth: AdminSession,
  workspaceId: string,
  keyId: string,
): Promise<ApiKeyRecord> {
  const response = await request(`${workspacePath(workspaceId)}/${encodeURIComponent(keyId)}/revoke`, {
    method: 'POST',
    csrfToken: auth.csrfToken,
  });
  const body = await json<{ record?: ApiKeyRecord }>(response);
  if (!body.record) throw new AdminApiError('MALFORMED', 'The reply has no key.', response.status);
  return body.record;
}
