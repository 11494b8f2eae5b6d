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
 *
 * @example
 * // In a browser, on the server's own origin: no key; the admin session's cookie and CSRF token.
 * const page = new SaksiClient({ baseUrl: '', credentials: 'same-origin' });
 * for await (const event of page.chatStream({ collection: 'laws', question: 'Apa sanksinya?' })) …
 * const session = await page.admin.login(email, password);
 * const admin = page.with({ csrfToken: session.csrf_token }).admin;
 */
import { AdminApi } from './admin.js';
import { type ChatStreamEvent, type ChatStreamInput, type StreamOptions, streamChat } from './chat-stream.js';
import { SaksiApiError } from './errors.js';
import { sendFeedback } from './feedback.js';
import type { AnchorStatus, ConsistencyProof } from './log-and-anchors.js';
import { API_BASE_PATH, type SaksiClientOptions, segment, Transport } from './transport.js';
import { fetchTrustedKeys } from './trusted-keys.js';
import type {
  ApiKey,
  Bundle,
  CalibrationQuestion,
  ChatInput,
  ChatResponse,
  ChatSession,
  Checkpoint,
  Chunk,
  CollectionCalibrationInfo,
  CollectionGlossaryInfo,
  CollectionInfo,
  CollectionPacksInfo,
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
  Glossary,
  Health,
  IngestAccepted,
  Job,
  ListDocumentsQuery,
  ListJobsQuery,
  PackId,
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

export interface WaitForDocumentOptions {
  /** Give up after this long (code `TIMEOUT`); default 10 minutes. */
  timeoutMs?: number;
  /** Between polls; default 1 second. */
  intervalMs?: number;
  /** Called with the document after every poll. */
  onProgress?: (document: Document) => void;
}

const DEFAULT_WAIT_MS = 10 * 60 * 1000;
const DEFAULT_INTERVAL_MS = 1000;
const FINISHED: ReadonlySet<string> = new Set(['READY', 'FAILED', 'ARCHIVED']);

export class SaksiClient {
  /** The server's origin as given (without `/api/v1`); `''` for the page's own. */
  readonly baseUrl: string;
  readonly #transport: Transport;
  #admin: AdminApi | undefined;

  constructor(options: SaksiClientOptions) {
    this.#transport = new Transport(options);
    this.baseUrl = this.#transport.baseUrl;
  }

  /** A client like this one with some options changed, e.g. `with({ csrfToken })` after signing in. */
  with(options: Partial<SaksiClientOptions>): SaksiClient {
    return new SaksiClient({ ...this.#transport.options, ...options });
  }

  /** The admin session's routes (`/api/v1/admin`): sign-in, documents, workspaces and keys, usage. */
  get admin(): AdminApi {
    this.#admin ??= new AdminApi(this.#transport);
    return this.#admin;
  }

  // Meta

  health(): Promise<Health> {
    return this.#transport.request('GET', '/health');
  }

  /** The server's OpenAPI 3.1 document. */
  openApi(): Promise<Record<string, unknown>> {
    return this.#transport.request('GET', '/openapi.json');
  }

  // Workspaces and keys

  /** The key's workspace, scopes, quotas and usage. */
  workspace(): Promise<WorkspaceInfo> {
    return this.#transport.request('GET', '/workspace');
  }

  /** A new, independent workspace and its first admin key (scope `admin`). */
  createWorkspace(input: CreateWorkspaceInput): Promise<CreatedWorkspace> {
    return this.#transport.request('POST', '/workspaces', { json: input });
  }

  async listKeys(): Promise<ApiKey[]> {
    return (await this.#transport.request<{ items: ApiKey[] }>('GET', '/keys')).items;
  }

  /** The returned `key` is the only copy of the secret. */
  createKey(input: CreateKeyInput): Promise<CreatedKey> {
    return this.#transport.request('POST', '/keys', { json: input });
  }

  async revokeKey(id: string): Promise<ApiKey> {
    return (await this.#transport.request<{ record: ApiKey }>('DELETE', `/keys/${segment(id)}`)).record;
  }

  // Collections

  async listCollections(): Promise<CollectionInfo[]> {
    return (await this.#transport.request<{ items: CollectionInfo[] }>('GET', '/collections')).items;
  }

  /** The collection's glossary (docs/glossary.md) and its SHA-256; both null when it has none. */
  async getCollectionGlossary(name: string): Promise<CollectionGlossaryInfo> {
    return this.#transport.request('GET', `/collections/${segment(name)}/glossary`);
  }

  /** Sets the collection's glossary; a bad entry is `INVALID_GLOSSARY`, whose message names it. */
  async putCollectionGlossary(name: string, glossary: Glossary): Promise<CollectionGlossaryInfo> {
    return this.#transport.request('PUT', `/collections/${segment(name)}/glossary`, { json: glossary });
  }

  /** Removes the collection's glossary. */
  async deleteCollectionGlossary(name: string): Promise<void> {
    await this.#transport.request('DELETE', `/collections/${segment(name)}/glossary`, { empty: true });
  }

  /** The collection's document packs: its override (or null), the packs detected in its documents, the active ones. */
  async getCollectionPacks(name: string): Promise<CollectionPacksInfo> {
    return this.#transport.request('GET', `/collections/${segment(name)}/packs`);
  }

  /** Chooses the collection's document packs by id, or null to detect them; an unknown id is `INVALID_INPUT`. */
  async putCollectionPacks(name: string, packs: PackId[] | null): Promise<CollectionPacksInfo> {
    return this.#transport.request('PUT', `/collections/${segment(name)}/packs`, { json: { packs } });
  }

  /** Whether the collection's answer check is calibrated on its own questions, and what it releases. */
  async getCollectionCalibration(name: string): Promise<CollectionCalibrationInfo> {
    return this.#transport.request('GET', `/collections/${segment(name)}/calibration`);
  }

  /**
   * Calibrates the collection's answer check on questions you labelled (at least 30; each with
   * `must_mention` phrases, or `answerable: false`): every one is asked before this resolves. A bad
   * question is `INVALID_INPUT` naming it, and nothing is asked.
   */
  async putCollectionCalibration(
    name: string,
    questions: CalibrationQuestion[],
  ): Promise<CollectionCalibrationInfo> {
    return this.#transport.request('PUT', `/collections/${segment(name)}/calibration`, {
      json: { questions },
    });
  }

  /** Removes the collection's own calibration. */
  async deleteCollectionCalibration(name: string): Promise<void> {
    await this.#transport.request('DELETE', `/collections/${segment(name)}/calibration`, { empty: true });
  }

  async createCollection(input: CreateCollectionInput): Promise<CollectionInfo> {
    return (
      await this.#transport.request<{ collection: CollectionInfo }>('POST', '/collections', { json: input })
    ).collection;
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
    return this.#transport.request('POST', '/documents', { body: form });
  }

  listDocuments(query: ListDocumentsQuery = {}): Promise<Page<Document>> {
    return this.#transport.request('GET', '/documents', { query: { ...query } });
  }

  getDocument(id: string): Promise<Document> {
    return this.#transport.request('GET', `/documents/${segment(id)}`);
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
    const { response, url, signal } = await this.#transport.checked('GET', path, {
      headers: { accept: '*/*' },
    });
    const bytes = new Uint8Array(
      await this.#transport.read('GET', url, signal, () => response.arrayBuffer()),
    );
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
    return this.#transport.request('GET', `/documents/${segment(documentId)}/chunks`, {
      query: { ...paging },
    });
  }

  async deleteDocument(id: string): Promise<void> {
    await this.#transport.request('DELETE', `/documents/${segment(id)}`, { empty: true });
  }

  // Jobs

  listJobs(query: ListJobsQuery = {}): Promise<Page<Job>> {
    return this.#transport.request('GET', '/jobs', { query: { ...query } });
  }

  getJob(id: string): Promise<Job> {
    return this.#transport.request('GET', `/jobs/${segment(id)}`);
  }

  // Two-step uploads

  /** Step 1 of a large upload: the metadata, answered with a one-use URL for the bytes. */
  createUpload(input: CreateUploadInput): Promise<CreatedUpload> {
    return this.#transport.request('POST', '/uploads', { json: input });
  }

  /** Step 2: PUT the bytes to `upload_url`. The URL's token authorises it; the API key is not sent. */
  putUploadContent(uploadUrl: string, file: Blob | Uint8Array): Promise<Uploaded> {
    return this.#transport.request('PUT', uploadUrl, {
      body: toBlob(file),
      headers: { 'content-type': 'application/octet-stream' },
      authenticated: false,
    });
  }

  /** Step 3: turn the uploaded bytes into a document and an ingestion job. */
  processUpload(id: string): Promise<IngestAccepted> {
    return this.#transport.request('POST', `/uploads/${segment(id)}/process`);
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
    return this.#transport.request('POST', '/webhooks', { json: input });
  }

  async listWebhooks(): Promise<Webhook[]> {
    return (await this.#transport.request<{ items: Webhook[] }>('GET', '/webhooks')).items;
  }

  async deleteWebhook(id: string): Promise<void> {
    await this.#transport.request('DELETE', `/webhooks/${segment(id)}`, { empty: true });
  }

  async listDeliveries(webhookId: string): Promise<Delivery[]> {
    return (
      await this.#transport.request<{ items: Delivery[] }>(
        'GET',
        `/webhooks/${segment(webhookId)}/deliveries`,
      )
    ).items;
  }

  // Query, chat and sessions

  /** Retrieval only: ranked chunks with citations, context, proofs and timings. */
  query(input: QueryInput): Promise<QueryResponse> {
    return this.#transport.request('POST', '/query', { json: input });
  }

  /** An answer with its certificate bundle (JSON, not streamed). */
  chat(input: ChatInput): Promise<ChatResponse> {
    return this.#transport.request('POST', '/chat', { json: { ...input, stream: false } });
  }

  /**
   * An answer streamed as it is written (`POST /chat` as Server-Sent Events): `session`, `retrieval`,
   * `delta`…, `bundle`, then `done`, as typed events. A server `error` event is thrown as a
   * {@link SaksiApiError} with its code; a stream that stops before `done` is `STREAM_ENDED`, and
   * aborting `signal` is `ABORTED`.
   *
   * @example
   * for await (const event of saksi.chatStream({ collection: 'laws', question: 'Apa sanksinya?' })) {
   *   if (event.type === 'delta') process.stdout.write(event.text);
   * }
   */
  chatStream(input: ChatStreamInput, options: StreamOptions = {}): AsyncGenerator<ChatStreamEvent, void> {
    return streamChat(this.#transport, input, options);
  }

  getSession(id: string): Promise<ChatSession> {
    return this.#transport.request('GET', `/sessions/${segment(id)}`);
  }

  async deleteSession(id: string): Promise<void> {
    await this.#transport.request('DELETE', `/sessions/${segment(id)}`, { empty: true });
  }

  // Certificates and the log

  getCertificate(id: string): Promise<Bundle> {
    return this.#transport.request('GET', `/certificates/${segment(id)}`);
  }

  /**
   * The certificate as a W3C Verifiable Credential (`GET /certificates/{id}?format=vc`), signed by
   * the server's issuer key; check it with `credentialToCertificate` of `@saksi/proof`.
   */
  getCertificateCredential(id: string): Promise<VerifiableCredential> {
    return this.#transport.request('GET', `/certificates/${segment(id)}`, {
      query: { format: 'vc' },
      headers: { accept: 'application/vc, application/json' },
    });
  }

  /**
   * A thumbs up or down, with an optional comment, on an answer: one per certificate and caller, a
   * later one replaces it (`replaced: true`). Needs the access of reading the certificate.
   */
  giveFeedback(input: FeedbackInput): Promise<FeedbackResult> {
    return sendFeedback(this.#transport, input);
  }

  /** The server's verification of a bundle; check `verdict` (a failed one is not an error). */
  verify(input: VerifyInput): Promise<Verification> {
    return this.#transport.request('POST', '/verify', { json: input });
  }

  /**
   * The server's published keys (`/.well-known/saksi-keys.json`) as sent; read them with
   * `parseTrustedKeys` of `@saksi/proof` before trusting anything they sign.
   */
  trustedKeys(): Promise<unknown> {
    return fetchTrustedKeys(this.#transport);
  }

  /** The anchoring chain (its RPC URL when it is a local one), documents per anchor state and the latest rounds. */
  anchors(): Promise<AnchorStatus> {
    return this.#transport.request('GET', '/anchors');
  }

  /** The log's RFC 9162 consistency proof from size `first` to `second` (default: the current size). */
  consistencyProof(first: number, second?: number): Promise<ConsistencyProof> {
    return this.#transport.request('GET', '/log/proof/consistency', { query: { first, second } });
  }

  /** The latest signed checkpoint of the transparency log. */
  checkpoint(): Promise<Checkpoint> {
    return this.#transport.request('GET', '/log/checkpoint');
  }
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
