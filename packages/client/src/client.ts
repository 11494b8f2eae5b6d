/**
 * A typed client for the Saksi API v1 (docs/api.md). It uses the global `fetch` (or the one given), so
 * it runs in Node 20 and in browsers, and has no dependencies. Every failure is a
 * {@link SaksiApiError}.
 *
 * @example
 * const saksi = new SaksiClient({ baseUrl: 'http://localhost:8080', apiKey: process.env.SAKSI_API_KEY });
 * const { document } = await saksi.uploadDocument({ collection: 'laws', file: bytes, filename: 'uu.pdf' });
 * const ready = await saksi.waitForDocument(document.id);
 * const answer = await saksi.query({ collection: 'laws', question: 'Apa sanksinya?' });
 */
import { errorFromResponse, SaksiApiError } from './errors.js';
import type {
  ApiKey,
  Bundle,
  ChatInput,
  ChatResponse,
  ChatSession,
  Checkpoint,
  Chunk,
  CollectionInfo,
  CreateCollectionInput,
  CreatedKey,
  CreatedUpload,
  CreatedWebhook,
  CreatedWorkspace,
  CreateKeyInput,
  CreateUploadInput,
  CreateWebhookInput,
  CreateWorkspaceInput,
  Delivery,
  Document,
  DocumentFile,
  FeedbackInput,
  FeedbackResult,
  Health,
  IngestAccepted,
  Job,
  ListDocumentsQuery,
  ListJobsQuery,
  Page,
  Paging,
  QueryInput,
  QueryResponse,
  UploadDocumentInput,
  Uploaded,
  UploadLargeInput,
  VerifiableCredential,
  Verification,
  VerifyInput,
  Webhook,
  WorkspaceInfo,
} from './types.js';

/** The API's base path on a Saksi server. */
export const API_BASE_PATH = '/api/v1';

export interface SaksiClientOptions {
  /** The server's origin, e.g. `https://saksi.example.org` (a trailing `/api/v1` is accepted too). */
  baseUrl: string;
  /** `saksi_…`, sent as `Authorization: Bearer`; without it only public routes answer. */
  apiKey?: string;
  /** A `fetch` to use instead of the global one (tests, proxies, instrumentation). */
  fetch?: typeof fetch;
  /** Headers sent with every API request, e.g. `X-Saksi-Workspace`. */
  headers?: Record<string, string>;
  /** Abort a request that takes longer (code `TIMEOUT`); default: no limit. */
  timeoutMs?: number;
}

export interface WaitForDocumentOptions {
  /** Give up after this long (code `TIMEOUT`); default 10 minutes. */
  timeoutMs?: number;
  /** Between polls; default 1 second. */
  intervalMs?: number;
  /** Called with the document after every poll. */
  onProgress?: (document: Document) => void;
}

type QueryValue = string | number | boolean | undefined;

interface RequestOptions {
  query?: Record<string, QueryValue> | undefined;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  /** Send the API key and the configured headers (not to upload URLs, which carry their own token). */
  authenticated?: boolean;
  /** The reply has no body (204). */
  empty?: boolean;
}

const DEFAULT_WAIT_MS = 10 * 60 * 1000;
const DEFAULT_INTERVAL_MS = 1000;
const FINISHED: ReadonlySet<string> = new Set(['READY', 'FAILED', 'ARCHIVED']);

export class SaksiClient {
  readonly baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #fetch: typeof fetch;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number | undefined;

  constructor(options: SaksiClientOptions) {
    const base = options.baseUrl.replace(/\/+$/, '');
    this.baseUrl = base.endsWith(API_BASE_PATH) ? base.slice(0, -API_BASE_PATH.length) : base;
    this.#apiKey = options.apiKey;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#headers = { ...options.headers };
    this.#timeoutMs = options.timeoutMs;
  }

  // Meta

  health(): Promise<Health> {
    return this.#request('GET', '/health');
  }

  /** The server's OpenAPI 3.1 document. */
  openApi(): Promise<Record<string, unknown>> {
    return this.#request('GET', '/openapi.json');
  }

  // Workspaces and keys

  /** The key's workspace, scopes, quotas and usage. */
  workspace(): Promise<WorkspaceInfo> {
    return this.#request('GET', '/workspace');
  }

  /** A new, independent workspace and its first admin key (scope `admin`). */
  createWorkspace(input: CreateWorkspaceInput): Promise<CreatedWorkspace> {
    return this.#request('POST', '/workspaces', { json: input });
  }

  async listKeys(): Promise<ApiKey[]> {
    return (await this.#request<{ items: ApiKey[] }>('GET', '/keys')).items;
  }

  /** The returned `key` is the only copy of the secret. */
  createKey(input: CreateKeyInput): Promise<CreatedKey> {
    return this.#request('POST', '/keys', { json: input });
  }

  async revokeKey(id: string): Promise<ApiKey> {
    return (await this.#request<{ record: ApiKey }>('DELETE', `/keys/${segment(id)}`)).record;
  }

  // Collections

  async listCollections(): Promise<CollectionInfo[]> {
    return (await this.#request<{ items: CollectionInfo[] }>('GET', '/collections')).items;
  }

  async createCollection(input: CreateCollectionInput): Promise<CollectionInfo> {
    return (await this.#request<{ collection: CollectionInfo }>('POST', '/collections', { json: input }))
      .collection;
  }

  // Documents

  /** Uploads a file; ingestion runs as a job (see {@link waitForDocument}). */
  uploadDocument(input: UploadDocumentInput): Promise<IngestAccepted> {
    const form = new FormData();
    form.set('file', toBlob(input.file), input.filename);
    for (const name of [
      'collection',
      'language',
      'title',
      'document_type',
      'fiscal_year',
      'source',
    ] as const) {
      const value = input[name];
      if (value !== undefined) form.set(name, String(value));
    }
    return this.#request('POST', '/documents', { body: form });
  }

  listDocuments(query: ListDocumentsQuery = {}): Promise<Page<Document>> {
    return this.#request('GET', '/documents', { query: { ...query } });
  }

  getDocument(id: string): Promise<Document> {
    return this.#request('GET', `/documents/${segment(id)}`);
  }

  /** Polls the document until it is READY or FAILED (or ARCHIVED) and returns it; `TIMEOUT` when it takes too long. */
  async waitForDocument(id: string, options: WaitForDocumentOptions = {}): Promise<Document> {
    const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_WAIT_MS);
    const interval = options.intervalMs ?? DEFAULT_INTERVAL_MS;
    for (;;) {
      const document = await this.getDocument(id);
      options.onProgress?.(document);
      if (FINISHED.has(document.status)) return document;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new SaksiApiError(
          'TIMEOUT',
          0,
          `Document ${id} is still ${document.status} (stage ${document.stage ?? 'unknown'}); wait longer or check GET /jobs/${document.job_id ?? ''}.`,
        );
      }
      await sleep(Math.min(interval, left));
    }
  }

  /**
   * The document's original file, as uploaded (`GET /documents/{id}/file`). The bytes are checked
   * against the SHA-256 the server sends (`X-Saksi-SHA256`): a mismatch is `BAD_RESPONSE`.
   */
  async downloadDocument(id: string): Promise<DocumentFile> {
    const path = `/documents/${segment(id)}/file`;
    const { response, bytes } = await this.#requestBytes('GET', path, { headers: { accept: '*/*' } });
    const sha256 = response.headers.get('x-saksi-sha256') ?? '';
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
    const actual = Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
    if (actual !== sha256) {
      throw new SaksiApiError(
        'BAD_RESPONSE',
        response.status,
        `GET ${API_BASE_PATH}${path}: the ${bytes.length} bytes received do not hash to the SHA-256 the server sent; download again.`,
      );
    }
    return {
      bytes,
      size: bytes.length,
      sha256,
      mime: response.headers.get('content-type') ?? 'application/octet-stream',
      filename: dispositionFilename(response.headers.get('content-disposition')),
    };
  }

  listChunks(documentId: string, paging: Paging = {}): Promise<Page<Chunk>> {
    return this.#request('GET', `/documents/${segment(documentId)}/chunks`, { query: { ...paging } });
  }

  async deleteDocument(id: string): Promise<void> {
    await this.#request('DELETE', `/documents/${segment(id)}`, { empty: true });
  }

  // Jobs

  listJobs(query: ListJobsQuery = {}): Promise<Page<Job>> {
    return this.#request('GET', '/jobs', { query: { ...query } });
  }

  getJob(id: string): Promise<Job> {
    return this.#request('GET', `/jobs/${segment(id)}`);
  }

  // Two-step uploads

  /** Step 1 of a large upload: the metadata, answered with a one-use URL for the bytes. */
  createUpload(input: CreateUploadInput): Promise<CreatedUpload> {
    return this.#request('POST', '/uploads', { json: input });
  }

  /** Step 2: PUT the bytes to `upload_url`. The URL's token authorises it; the API key is not sent. */
  putUploadContent(uploadUrl: string, file: Blob | Uint8Array): Promise<Uploaded> {
    return this.#request('PUT', uploadUrl, {
      body: toBlob(file),
      headers: { 'content-type': 'application/octet-stream' },
      authenticated: false,
    });
  }

  /** Step 3: turn the uploaded bytes into a document and an ingestion job. */
  processUpload(id: string): Promise<IngestAccepted> {
    return this.#request('POST', `/uploads/${segment(id)}/process`);
  }

  /** The three steps of a large upload in one call. */
  async uploadLarge(input: UploadLargeInput): Promise<IngestAccepted> {
    const { file, ...fields } = input;
    const size = file instanceof Uint8Array ? file.byteLength : file.size;
    const created = await this.createUpload({ ...fields, size: fields.size ?? size });
    await this.putUploadContent(created.upload_url, file);
    return this.processUpload(created.upload.id);
  }

  // Webhooks

  /** The returned `secret` (`whsec_…`) is the only copy; keep it to check signatures. */
  createWebhook(input: CreateWebhookInput): Promise<CreatedWebhook> {
    return this.#request('POST', '/webhooks', { json: input });
  }

  async listWebhooks(): Promise<Webhook[]> {
    return (await this.#request<{ items: Webhook[] }>('GET', '/webhooks')).items;
  }

  async deleteWebhook(id: string): Promise<void> {
    await this.#request('DELETE', `/webhooks/${segment(id)}`, { empty: true });
  }

  async listDeliveries(webhookId: string): Promise<Delivery[]> {
    return (await this.#request<{ items: Delivery[] }>('GET', `/webhooks/${segment(webhookId)}/deliveries`))
      .items;
  }

  // Query, chat and sessions

  /** Retrieval only: ranked chunks with citations, context, proofs and timings. */
  query(input: QueryInput): Promise<QueryResponse> {
    return this.#request('POST', '/query', { json: input });
  }

  /** An answer with its certificate bundle (JSON, not streamed). */
  chat(input: ChatInput): Promise<ChatResponse> {
    return this.#request('POST', '/chat', { json: { ...input, stream: false } });
  }

  getSession(id: string): Promise<ChatSession> {
    return this.#request('GET', `/sessions/${segment(id)}`);
  }

  async deleteSession(id: string): Promise<void> {
    await this.#request('DELETE', `/sessions/${segment(id)}`, { empty: true });
  }

  // Certificates and the log

  getCertificate(id: string): Promise<Bundle> {
    return this.#request('GET', `/certificates/${segment(id)}`);
  }

  /**
   * The certificate as a W3C Verifiable Credential (`GET /certificates/{id}?format=vc`), signed by
   * the server's issuer key; check it with `credentialToCertificate` of `@saksi/proof`.
   */
  getCertificateCredential(id: string): Promise<VerifiableCredential> {
    return this.#request('GET', `/certificates/${segment(id)}`, {
      query: { format: 'vc' },
      headers: { accept: 'application/vc, application/json' },
    });
  }

  /**
   * A thumbs up or down, with an optional comment, on an answer: one per certificate and caller, a
   * later one replaces it (`replaced: true`). Needs the access of reading the certificate.
   */
  giveFeedback(input: FeedbackInput): Promise<FeedbackResult> {
    return this.#request('POST', '/feedback', { json: input });
  }

  /** The server's verification of a bundle; check `verdict` (a failed one is not an error). */
  verify(input: VerifyInput): Promise<Verification> {
    return this.#request('POST', '/verify', { json: input });
  }

  /** The latest signed checkpoint of the transparency log. */
  checkpoint(): Promise<Checkpoint> {
    return this.#request('GET', '/log/checkpoint');
  }

  /** `path` is under `/api/v1`, or an absolute URL. */
  async #request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const { response, url, signal } = await this.#send(method, path, options);
    const text = await this.#read(method, url, signal, () => response.text());
    if (!response.ok) throw errorFromResponse(response, text);
    if (options.empty) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new SaksiApiError(
        'BAD_RESPONSE',
        response.status,
        `${method} ${url.pathname} answered ${response.status} with a body that is not JSON.`,
        { cause: error },
      );
    }
  }

  /** A reply whose body is bytes, not JSON (errors are still JSON). */
  async #requestBytes(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<{ response: Response; bytes: Uint8Array }> {
    const { response, url, signal } = await this.#send(method, path, options);
    if (!response.ok)
      throw errorFromResponse(response, await this.#read(method, url, signal, () => response.text()));
    const buffer = await this.#read(method, url, signal, () => response.arrayBuffer());
    return { response, bytes: new Uint8Array(buffer) };
  }

  async #send(
    method: string,
    path: string,
    options: RequestOptions,
  ): Promise<{ response: Response; url: URL; signal: AbortSignal | undefined }> {
    const url = new URL(/^https?:\/\//i.test(path) ? path : `${this.baseUrl}${API_BASE_PATH}${path}`);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const authenticated = options.authenticated ?? true;
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(authenticated ? this.#headers : {}),
      ...options.headers,
    };
    if (authenticated && this.#apiKey !== undefined) headers['authorization'] = `Bearer ${this.#apiKey}`;
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const signal = this.#timeoutMs === undefined ? undefined : AbortSignal.timeout(this.#timeoutMs);
    const response = await this.#read(method, url, signal, () =>
      this.#fetch(url, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        ...(signal !== undefined ? { signal } : {}),
      }),
    );
    return { response, url, signal };
  }

  /** Runs a step of a request (sending, reading the body); a failure becomes TIMEOUT or NETWORK_ERROR. */
  async #read<T>(
    method: string,
    url: URL,
    signal: AbortSignal | undefined,
    step: () => Promise<T>,
  ): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (signal?.aborted) {
        throw new SaksiApiError(
          'TIMEOUT',
          0,
          `${method} ${url.pathname} took longer than ${this.#timeoutMs} ms.`,
          {
            cause: error,
          },
        );
      }
      throw new SaksiApiError(
        'NETWORK_ERROR',
        0,
        `${method} ${url.origin}${url.pathname} failed before a reply arrived; is the server running and reachable?`,
        { cause: error },
      );
    }
  }
}

/** An id as one path segment: nothing in it can change the path. */
function segment(id: string): string {
  return encodeURIComponent(id);
}

/** The name in `Content-Disposition`: `filename*` (RFC 8187) when present, else `filename`. */
function dispositionFilename(header: string | null): string {
  const extended = /filename\*\s*=\s*UTF-8''([^;\s]+)/i.exec(header ?? '')?.[1];
  if (extended !== undefined) {
    try {
      return decodeURIComponent(extended);
    } catch {
      // fall back to the plain name
    }
  }
  return /filename\s*=\s*"([^"]*)"/i.exec(header ?? '')?.[1] ?? 'download';
}

function toBlob(file: Blob | Uint8Array): Blob {
  if (!(file instanceof Uint8Array)) return file;
  const bytes = file.buffer instanceof ArrayBuffer ? (file as Uint8Array<ArrayBuffer>) : new Uint8Array(file);
  return new Blob([bytes]);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
