/**
 * The admin portal's calls (`/api/v1/admin`), through the page's client: the session cookie goes
 * with every request, and the session's CSRF token (`X-CSRF-Token`) with every one that changes
 * something. Failures are {@link AdminApiError}s, with the wait a rate limit asks for.
 */
import type {
  AdminCreatedKey,
  AdminDocumentAnchor,
  AdminDocumentPage,
  AdminKeyRecord,
  AdminKeyScope,
  AdminUploadProgress,
  AdminUploadResult,
  ArchivedDocument,
  AdminDocument as ClientAdminDocument,
  AdminWorkspace as ClientAdminWorkspace,
} from '@saksi/client';
import { SaksiApiError } from '@saksi/client';
import { ApiError, saksi, toApiError, type WebErrorCode } from '../api.js';

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

export type DocumentAnchor = AdminDocumentAnchor;
export type AdminDocument = ClientAdminDocument;
export type DocumentPage = AdminDocumentPage;

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

export type UploadResult = AdminUploadResult;
export type UploadProgress = AdminUploadProgress;

/** Any failure of an admin call as an `AdminApiError`, with `Retry-After` (seconds) when the server sent it. */
export function adminError(error: unknown): AdminApiError {
  if (error instanceof AdminApiError) return error;
  const failure = toApiError(error);
  const retryAfter = error instanceof SaksiApiError ? error.retryAfterSeconds : undefined;
  return new AdminApiError(failure.code, failure.message, failure.status, retryAfter);
}

/** `call`, with its failure as an `AdminApiError`. */
async function adminCall<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw adminError(error);
  }
}

/** The client that acts for `auth`: its CSRF token goes with every state-changing request. */
function acting(auth: AdminSession) {
  return saksi.with({ csrfToken: auth.csrfToken }).admin;
}

function session(reply: { email?: unknown; csrf_token?: unknown }): AdminSession {
  if (typeof reply.email !== 'string' || typeof reply.csrf_token !== 'string') {
    throw new AdminApiError('MALFORMED', 'The server reply has no session.', 200);
  }
  return { email: reply.email, csrfToken: reply.csrf_token };
}

export async function login(email: string, password: string): Promise<AdminSession> {
  return session(await adminCall(saksi.admin.login(email, password)));
}

/** The current session; throws `UNAUTHENTICATED` or `SESSION_EXPIRED` (401) when there is none. */
export async function me(): Promise<AdminSession> {
  return session(await adminCall(saksi.admin.session()));
}

export async function logout(auth: AdminSession): Promise<void> {
  await adminCall(acting(auth).logout());
}

export async function listDocuments(
  filters: DocumentFilters,
  limit: number,
  offset: number,
): Promise<DocumentPage> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (typeof value === 'string' && value.trim() !== '') query[key] = value.trim();
  }
  const body: Partial<DocumentPage> = await adminCall(saksi.admin.listDocuments({ ...query, limit, offset }));
  if (!Array.isArray(body.items)) throw new AdminApiError('MALFORMED', 'The document list is malformed.');
  return {
    items: body.items,
    total: typeof body.total === 'number' ? body.total : body.items.length,
    limit: typeof body.limit === 'number' ? body.limit : limit,
    offset: typeof body.offset === 'number' ? body.offset : offset,
  };
}

export function setArchived(auth: AdminSession, id: string, archived: boolean): Promise<ArchivedDocument> {
  return adminCall(acting(auth).setArchived(id, archived));
}

export function deleteDocument(auth: AdminSession, id: string): Promise<void> {
  return adminCall(acting(auth).deleteDocument(id));
}

/** Uploads one file and follows the ingest pipeline as it happens (a server without streaming: at the end). */
export function uploadDocument(
  auth: AdminSession,
  input: UploadInput,
  onProgress: (progress: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<UploadResult> {
  return adminCall(
    acting(auth).uploadDocument(
      {
        file: input.file,
        filename: input.file.name,
        collection: input.collection,
        document_type: input.document_type,
        ...(input.fiscal_year?.trim() ? { fiscal_year: input.fiscal_year.trim() } : {}),
        ...(input.source?.trim() ? { source: input.source.trim() } : {}),
      },
      { onProgress, ...(signal ? { signal } : {}) },
    ),
  );
}

export type ApiKeyScope = AdminKeyScope;
export const API_KEY_SCOPES: readonly ApiKeyScope[] = ['read', 'ingest', 'admin'];

export type AdminWorkspace = ClientAdminWorkspace;
/** An API key as lists show it: its visible prefix, never the secret. */
export type ApiKeyRecord = AdminKeyRecord;
/** A new key: `key` is the secret, shown this once and never again. */
export type CreatedApiKey = AdminCreatedKey;

function list<T>(items: unknown, what: string): T[] {
  if (!Array.isArray(items)) throw new AdminApiError('MALFORMED', `The ${what} list is malformed.`);
  return items as T[];
}

export async function listWorkspaces(): Promise<AdminWorkspace[]> {
  return list<AdminWorkspace>(await adminCall(saksi.admin.listWorkspaces()), 'workspace');
}

export function createWorkspace(auth: AdminSession, name: string): Promise<AdminWorkspace> {
  return adminCall(acting(auth).createWorkspace(name));
}

export async function listApiKeys(workspaceId: string): Promise<ApiKeyRecord[]> {
  return list<ApiKeyRecord>(await adminCall(saksi.admin.listKeys(workspaceId)), 'key');
}

export async function createApiKey(
  auth: AdminSession,
  workspaceId: string,
  input: { name: string; scopes: readonly ApiKeyScope[] },
): Promise<CreatedApiKey> {
  const created: Partial<CreatedApiKey> = await adminCall(acting(auth).createKey(workspaceId, input));
  if (typeof created.key !== 'string' || !created.record)
    throw new AdminApiError('MALFORMED', 'The reply has no key.', 201);
  return { key: created.key, record: created.record };
}

export async function revokeApiKey(
  auth: AdminSession,
  workspaceId: string,
  keyId: string,
): Promise<ApiKeyRecord> {
  const record: ApiKeyRecord | undefined = await adminCall(acting(auth).revokeKey(workspaceId, keyId));
  if (!record) throw new AdminApiError('MALFORMED', 'The reply has no key.', 200);
  return record;
}
