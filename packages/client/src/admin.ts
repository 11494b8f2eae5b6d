/**
 * The admin session's routes (`/api/v1/admin`, docs/api.md "Admin routes"), as the web app's admin
 * portal uses them: a session cookie set by {@link AdminApi.login}, and the session's `csrf_token`
 * in `X-CSRF-Token` on every request that changes something. In a browser, make the client with
 * `{ baseUrl: '', credentials: 'same-origin' }` and, once signed in, `client.with({ csrfToken })`.
 */
import { SaksiApiError } from './errors.js';
import { eventError, eventJson, sseOf } from './sse.js';
import { segment, type Transport } from './transport.js';
import type { ResponseBody } from './types.js';
import type { Schemas } from './wire.js';

/** Who is signed in, and the token their state-changing requests carry. */
export type AdminSession = ResponseBody<'adminMe'>;

/** A document as the admin list shows it, with its anchor transaction once anchored. */
export type AdminDocument = Schemas['AdminDocument'];
export type AdminDocumentAnchor = NonNullable<AdminDocument['anchor']>;
export type AdminDocumentPage = ResponseBody<'adminListDocuments'>;
/** A document as archiving or restoring it returns it. */
export type ArchivedDocument = ResponseBody<'adminArchiveDocument'>['document'];

/** The list's filters; numbers are written into the query string. */
export interface AdminDocumentQuery {
  collection?: string;
  document_type?: string;
  fiscal_year?: string | number;
  status?: string;
  limit?: number;
  offset?: number;
}

export interface AdminUploadInput {
  file: Blob;
  filename: string;
  collection: string;
  document_type?: string;
  fiscal_year?: string | number;
  source?: string;
}

export type AdminUploadResult = ResponseBody<'adminUploadDocument'>;

/** A stage of ingestion, and how far it is (0 to 1). */
export interface AdminUploadProgress {
  stage: string;
  progress: number;
}

export interface AdminUploadOptions {
  /**
   * Called as ingestion goes through its stages; with it the reply is streamed (Server-Sent Events
   * `progress`, then `done` or `error`), without it the reply is JSON once ingestion is over.
   */
  onProgress?: (progress: AdminUploadProgress) => void;
  /** Stops waiting (code `ABORTED`); ingestion already under way goes on. */
  signal?: AbortSignal;
}

export type AdminWorkspace = ResponseBody<'adminListWorkspaces'>['items'][number];
export type AdminKeyScope = Schemas['Scope'];
/** An API key as lists show it: its visible prefix, never the secret. */
export type AdminKeyRecord = Schemas['ApiKey'];
/** A new key: `key` is the secret, shown this once and never again. */
export type AdminCreatedKey = ResponseBody<'adminCreateKey'>;

/** `GET /admin/usage`: a workspace's questions, refusals, feedback and latency per day. */
export type UsageReport = ResponseBody<'adminUsage'>;
export type UsageFigures = UsageReport['totals'];
export type UsageDay = UsageReport['days'][number];

export interface UsageQuery {
  days: number;
  workspace: string;
  /** Absent or empty: every collection. */
  collection?: string;
  /** An IANA time zone: days start there (default UTC). */
  tz?: string;
}

export class AdminApi {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** Signs in: the server sets the session cookie; keep `csrf_token` for {@link SaksiClient.with}. */
  login(email: string, password: string): Promise<AdminSession> {
    return this.#transport.request('POST', '/admin/login', { json: { email, password } });
  }

  /** The current session; `UNAUTHENTICATED` or `SESSION_EXPIRED` (401) when there is none. */
  session(): Promise<AdminSession> {
    return this.#transport.request('GET', '/admin/me');
  }

  async logout(): Promise<void> {
    await this.#transport.request('POST', '/admin/logout', { empty: true });
  }

  listDocuments(query: AdminDocumentQuery = {}): Promise<AdminDocumentPage> {
    return this.#transport.request('GET', '/admin/documents', { query: { ...query } });
  }

  /** Archives a document (`archived`), or restores an archived one. */
  /** The document as it is now (without its anchor, which the list adds). */
  async setArchived(id: string, archived: boolean): Promise<ArchivedDocument> {
    const action = archived ? 'archive' : 'restore';
    return (
      await this.#transport.request<{ document: ArchivedDocument }>(
        'POST',
        `/admin/documents/${segment(id)}/${action}`,
      )
    ).document;
  }

  async deleteDocument(id: string): Promise<void> {
    await this.#transport.request('DELETE', `/admin/documents/${segment(id)}`, { empty: true });
  }

  /** Uploads one file and ingests it; with `onProgress`, follows ingestion's stages as they happen. */
  async uploadDocument(
    input: AdminUploadInput,
    options: AdminUploadOptions = {},
  ): Promise<AdminUploadResult> {
    const form = new FormData();
    form.set('file', input.file, input.filename);
    for (const name of ['collection', 'document_type', 'fiscal_year', 'source'] as const) {
      const value = input[name];
      if (value !== undefined) form.set(name, String(value));
    }
    const { onProgress, signal } = options;
    if (onProgress === undefined)
      return this.#transport.request('POST', '/admin/documents', { body: form, signal });
    const { response, url } = await this.#transport.checked('POST', '/admin/documents', {
      body: form,
      headers: { accept: 'text/event-stream' },
      signal,
    });
    const body = response.body;
    if (body === null || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      // A server that does not stream answers JSON when ingestion is over.
      const text = await this.#transport.read('POST', url, signal, () => response.text());
      let reply: Partial<AdminUploadResult> | undefined;
      try {
        reply = JSON.parse(text) as Partial<AdminUploadResult>;
      } catch {
        reply = undefined;
      }
      if (typeof reply?.document !== 'object' || reply.document === null)
        throw new SaksiApiError('BAD_RESPONSE', response.status, 'The upload reply has no document.');
      return { document: reply.document, deduplicated: reply.deduplicated === true };
    }
    for await (const event of sseOf(`POST ${url.pathname}`, body, signal)) {
      const data = eventJson(event);
      if (event.event === 'progress') {
        const stage = typeof data['stage'] === 'string' ? data['stage'] : '';
        const progress = typeof data['progress'] === 'number' ? data['progress'] : 0;
        onProgress({ stage, progress: Math.min(1, Math.max(0, progress)) });
      } else if (event.event === 'done') {
        const document = data['document'];
        if (typeof document === 'object' && document !== null)
          return { document: document as AdminDocument, deduplicated: data['deduplicated'] === true };
      } else if (event.event === 'error') {
        throw eventError(data, response.status);
      }
    }
    throw new SaksiApiError('STREAM_ENDED', response.status, 'The upload stream ended before it was done.');
  }

  async listWorkspaces(): Promise<AdminWorkspace[]> {
    return (await this.#transport.request<{ items: AdminWorkspace[] }>('GET', '/admin/workspaces')).items;
  }

  /** A new workspace; it has no documents and no keys yet. */
  async createWorkspace(name: string): Promise<AdminWorkspace> {
    const reply = await this.#transport.request<{ workspace: Omit<AdminWorkspace, 'documents' | 'keys'> }>(
      'POST',
      '/admin/workspaces',
      { json: { name } },
    );
    if (typeof reply.workspace !== 'object' || reply.workspace === null)
      throw new SaksiApiError('BAD_RESPONSE', 201, 'The reply has no workspace.');
    return { ...reply.workspace, documents: 0, keys: 0 };
  }

  async listKeys(workspaceId: string): Promise<AdminKeyRecord[]> {
    return (
      await this.#transport.request<{ items: AdminKeyRecord[] }>(
        'GET',
        `/admin/workspaces/${segment(workspaceId)}/keys`,
      )
    ).items;
  }

  /** The returned `key` is the only copy of the secret. */
  createKey(
    workspaceId: string,
    input: { name: string; scopes: readonly AdminKeyScope[] },
  ): Promise<AdminCreatedKey> {
    return this.#transport.request('POST', `/admin/workspaces/${segment(workspaceId)}/keys`, {
      json: { name: input.name, scopes: input.scopes },
    });
  }

  async revokeKey(workspaceId: string, keyId: string): Promise<AdminKeyRecord> {
    const path = `/admin/workspaces/${segment(workspaceId)}/keys/${segment(keyId)}/revoke`;
    return (await this.#transport.request<{ record: AdminKeyRecord }>('POST', path)).record;
  }

  usage(query: UsageQuery): Promise<UsageReport> {
    return this.#transport.request('GET', '/admin/usage', { query: usageParameters(query) });
  }

  /**
   * Where the CSV of `table` downloads from (`GET /admin/usage.csv`), for a link the browser follows
   * with the session cookie: a URL, not a request.
   */
  usageCsvUrl(query: UsageQuery, table: 'days' | 'refused'): string {
    const url = this.#transport.url('/admin/usage.csv', { query: { ...usageParameters(query), table } });
    return this.#transport.baseUrl === '' ? `${url.pathname}${url.search}` : url.href;
  }
}

function usageParameters(query: UsageQuery): Record<string, string> {
  const parameters: Record<string, string> = { days: String(query.days), workspace: query.workspace };
  if (query.collection !== undefined && query.collection !== '') parameters['collection'] = query.collection;
  if (query.tz !== undefined) parameters['tz'] = query.tz;
  return parameters;
}
