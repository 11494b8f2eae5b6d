/**
 * Request and response types of the Saksi API v1 (docs/api.md; the served OpenAPI document at
 * `/api/v1/openapi.json` is generated from the server's zod schemas). Servers may add fields; these
 * interfaces list what a client can rely on.
 */

export type Scope = 'read' | 'ingest' | 'admin';
export type Language = 'id' | 'en';
export type DocumentStatus = 'PENDING' | 'PROCESSING' | 'READY' | 'FAILED' | 'ARCHIVED';
export type JobStatus = 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED';
export type AnchorState = 'PENDING_ANCHOR' | 'ANCHORING' | 'ANCHORED';
export type WebhookEvent = 'document.ready' | 'document.failed';

/** A failure recorded on a document or job. */
export interface Failure {
  code: string;
  message: string;
}

/** A page of a list endpoint. */
export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

export interface Paging {
  /** 1–100, default 20. */
  limit?: number;
  /** Default 0. */
  offset?: number;
}

export interface Health {
  /** `degraded` when the database does not answer, or the chain RPC of local/evm anchoring does not. */
  status: 'ok' | 'degraded';
  version: string;
  database: { kind: string; ok: boolean; name: 'PGlite' | 'PostgreSQL'; latency_ms: number | null };
  log: { origin: string; size: number; signer: { loaded: boolean; key_id: string } };
  anchor: { provider: string; running: boolean; chain_id: number | null; contract: string | null };
  /** The chain's JSON-RPC endpoint, probed with a short timeout and cached a few seconds; never its URL. */
  chain: {
    provider: 'local' | 'evm' | 'none';
    state: 'reachable' | 'unreachable' | 'not_started' | 'none';
    block_number: number | null;
    latency_ms: number | null;
    checked_at: string | null;
    error: 'TIMEOUT' | 'UNREACHABLE' | 'HTTP_ERROR' | 'BAD_RESPONSE' | null;
  };
  /** READY documents not yet anchored, and how long the oldest has waited (null: none, or anchoring off). */
  anchoring: { waiting: number; oldest_waiting_since: string | null; lag_seconds: number | null };
}

/** A document's original file (`GET /documents/{id}/file`), its SHA-256 checked by the client. */
export interface DocumentFile {
  bytes: Uint8Array;
  size: number;
  /** SHA-256 of `bytes`, lowercase hex (the document's `original_sha256`). */
  sha256: string;
  mime: string;
  filename: string;
}

export interface WorkspaceQuotas {
  max_document_bytes?: number;
  max_pages?: number;
  max_storage_bytes?: number;
}

export interface Workspace {
  id: string;
  name: string;
  quotas: WorkspaceQuotas;
  created_at: string;
}

/** An API key record: never the secret or its hash. */
export interface ApiKey {
  id: string;
  workspace_id: string;
  name: string;
  /** The visible start of the key, e.g. `saksi_AbCdEfGh`. */
  prefix: string;
  scopes: Scope[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** A new key: `key` is the secret, returned only this once. */
export interface CreatedKey {
  key: string;
  record: ApiKey;
}

export interface CreateWorkspaceInput {
  name: string;
}

export interface CreatedWorkspace {
  workspace: Workspace;
  api_key: CreatedKey;
}

export interface WorkspaceInfo {
  workspace: Workspace;
  principal: { key_id: string | null; scopes: Scope[] };
  quotas: { max_document_bytes: number; max_pages: number; max_storage_bytes: number };
  usage: { documents: number; storage_bytes: number };
}

export interface CreateKeyInput {
  name: string;
  scopes: Scope[];
}

export interface CollectionInfo {
  name: string;
  language: Language;
  public: boolean;
  domain: string;
  /** The site citations link to, or null. */
  base_url: string | null;
  /** A human name per interface language (empty when unset: show `name`). */
  title: LocalizedText;
  /** One line on what the collection holds, per interface language. */
  description: LocalizedText;
  /** Example questions per interface language. */
  examples: { id?: string[]; en?: string[] };
  documents: number;
  embedding: { provider: string; model: string; dimensions: number };
}

export interface CreateCollectionInput {
  name: string;
  language: Language;
  public?: boolean;
  domain?: 'legal' | 'budget' | 'docs' | 'general';
  /** The http(s) site the documents are published on: citations of Markdown pages link there. */
  base_url?: string;
  /** The folder of the stored document paths the base URL serves (e.g. `docs`). */
  base_url_folder?: string;
  title?: LocalizedText;
  description?: LocalizedText;
  /** At most 5 example questions per interface language. */
  examples?: { id?: string[]; en?: string[] };
}

/** A text per interface language (`id`, `en`). */
export interface LocalizedText {
  id?: string;
  en?: string;
}

export interface Document {
  id: string;
  collection: string;
  title: string;
  filename: string;
  mime: string;
  original_sha256: string;
  size: number;
  status: DocumentStatus;
  /** The ingestion stage last reached (parsing, chunking, embedding, storing, done). */
  stage: string | null;
  /** 0–1. */
  progress: number;
  error: Failure | null;
  /** RFC 6962 root over the chunk hashes, hex; null until READY. */
  root: string | null;
  chunk_count: number;
  pages: number | null;
  document_type: string | null;
  fiscal_year: number | null;
  source: string | null;
  metadata: Record<string, unknown>;
  anchor_state: AnchorState;
  created_at: string;
  job_id: string | null;
}

export interface Job {
  id: string;
  kind: 'ingest';
  status: JobStatus;
  stage: string | null;
  progress: number;
  attempts: number;
  max_attempts: number;
  error: Failure | null;
  document_id: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** The reply to an upload: 202 with a PENDING document, or 200 when the bytes were already there. */
export interface IngestAccepted {
  document: Document;
  job: Job;
  deduplicated: boolean;
}

/** Metadata fields of an upload (multipart fields or the JSON of `POST /uploads`). */
export interface DocumentFields {
  collection: string;
  /** Language of a new collection. */
  language?: Language;
  title?: string;
  document_type?: string;
  fiscal_year?: number;
  source?: string;
}

export interface UploadDocumentInput extends DocumentFields {
  file: Blob | Uint8Array;
  filename: string;
}

export interface ListDocumentsQuery extends Paging {
  collection?: string;
  status?: DocumentStatus;
  document_type?: string;
  fiscal_year?: number;
}

export interface ListJobsQuery extends Paging {
  status?: JobStatus;
}

export interface CreateUploadInput extends DocumentFields {
  filename: string;
  /** Declared size in bytes. */
  size?: number;
  mime?: string;
}

export interface CreatedUpload {
  upload: { id: string; status: 'CREATED'; expires_at: string };
  /** Absolute URL carrying a one-use token: PUT the bytes there, without the API key. */
  upload_url: string;
  method: 'PUT';
}

export interface Uploaded {
  upload: { id: string; status: 'UPLOADED'; size: number; sha256: string };
}

export interface UploadLargeInput extends CreateUploadInput {
  file: Blob | Uint8Array;
}

export interface Webhook {
  id: string;
  url: string;
  events: WebhookEvent[];
  created_at: string;
}

export interface CreateWebhookInput {
  url: string;
  /** Default: every event. */
  events?: WebhookEvent[];
}

/** A new webhook: `secret` (`whsec_…`) signs its deliveries and is returned only this once. */
export interface CreatedWebhook {
  webhook: Webhook;
  secret: string;
}

export interface Delivery {
  id: string;
  /** Stable across retries (the `Saksi-Delivery` header). */
  event_id: string;
  event: WebhookEvent;
  status: 'PENDING' | 'DELIVERED' | 'FAILED';
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
}

/** The JSON body of a webhook delivery. */
export interface WebhookPayload {
  id: string;
  type: WebhookEvent;
  created_at: string;
  workspace_id: string;
  data: { document: Document; job: Job };
}

export interface Citation {
  document_name?: string;
  document_title: string;
  page?: number | null;
  section_header?: string | null;
  /** Section hierarchy, outermost first. */
  section_path?: string[];
  pasal?: string;
  ayat?: string;
  /** How the citation reads, e.g. "Pasal 287 ayat (2) UU 22/2009". */
  label?: string;
  url?: string;
  /** The cited document's media type (`text/markdown`, `text/plain`, `application/pdf`, …). */
  mime?: string;
}

/** The citation of a query result or a document chunk: always names the document and its place. */
export interface SourceCitation extends Citation {
  /** The uploaded file's name. */
  document_name: string;
  page: number | null;
  /** The innermost section heading, or null. */
  section_header: string | null;
  section_path: string[];
}

export interface QueryResult {
  /** Chunk id. */
  id: string;
  document_id: string;
  text: string;
  /** Reciprocal rank fusion score. */
  score: number;
  rank: number;
  /** Rank in each retrieval arm. */
  ranks: Record<string, number>;
  kind: string;
  token_count: number;
  context: { before: string; after: string };
  citation: SourceCitation;
  table_html: string | null;
  chunk_hash: string;
  document: {
    id: string;
    root: string;
    chunk_count: number;
    filename: string;
    document_type: string | null;
    fiscal_year: number | null;
  };
  proof: { leaf_index: number; tree_size: number; path: string[]; root: string };
}

/** A chunk as `GET /documents/{id}/chunks` lists it: a query result without the ranking fields. */
export type Chunk = Omit<QueryResult, 'score' | 'rank' | 'ranks'> &
  Partial<Pick<QueryResult, 'score' | 'rank' | 'ranks'>>;

export interface QueryInput {
  collection: string;
  question: string;
  /** 1–50, default 5. */
  top_k?: number;
  document_type?: string;
  fiscal_year?: number;
}

export interface QueryResponse {
  results: QueryResult[];
  hybrid: boolean;
  timings: { embed_ms: number; lexical_ms: number; vector_ms: number; fuse_ms: number; total_ms: number };
  tokens: { question: number; results: number };
  parameters: { top_k: number; rrf_k: number; weights: Record<string, number>; rewrite_variants: unknown[] };
}

export interface ChatInput {
  collection: string;
  /** The question (the server also accepts it as `message`). */
  question: string;
  /** Continue a session returned earlier. */
  session_id?: string;
  /**
   * The conversation so far, as a stateless client keeps it (oldest first): the newest turns are the
   * language model's context for the question, never evidence. Sessions keep their own otherwise.
   */
  messages?: { role: 'user' | 'assistant'; content: string }[];
  mode?: 'full' | 'selection';
  /** Selected text (mode `selection`). */
  selection?: string;
  top_k?: number;
  document_type?: string;
  fiscal_year?: number;
}

/**
 * A certificate bundle (schema `saksi.certificate/v1`, docs/certificate.md). Verify it with
 * `verifyBundle` of `@saksi/proof` or {@link SaksiClient.verify}.
 */
export interface Bundle {
  certificate: {
    schema: 'saksi.certificate/v1';
    certificate_id: string;
    issued_at: string;
    [field: string]: unknown;
  };
  signature: string;
  log: {
    origin: string;
    leaf_index: number;
    inclusion_proof: string[];
    checkpoint: string;
    cosignatures: string[];
    [field: string]: unknown;
  };
  chunks: { chunk_id: string; text: string; [field: string]: unknown }[];
  [field: string]: unknown;
}

export interface ResultSummary {
  chunk_id: string;
  document_id: string;
  score: number;
  rank: number;
  citation: Citation;
  snippet: string;
  context: { before: string; after: string };
}

export interface ChatResponse {
  session_id: string;
  answer: string;
  /** False when the documents hold no good evidence. */
  found: boolean;
  /** The earlier answer to the same question on unchanged content, with its certificate's bundle. */
  cached?: boolean;
  bundle: Bundle;
  results: ResultSummary[];
  timings: Record<string, number>;
  [field: string]: unknown;
}

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
  certificate_id: string | null;
  created_at: string;
}

export interface ChatSession {
  session_id: string;
  collection: string | null;
  messages: ChatMessage[];
}

/** A thumbs up or down on an answer, given by its certificate id (`POST /feedback`). */
export interface FeedbackInput {
  certificate_id: string;
  rating: 'up' | 'down';
  /** At most 1,000 characters; trimmed, and an empty one is none. */
  comment?: string;
}

export interface FeedbackResult {
  feedback: {
    certificate_id: string;
    rating: 'up' | 'down';
    comment: string | null;
    created_at: string;
    updated_at: string;
  };
  /** True when this replaced the caller's earlier feedback on the same certificate. */
  replaced: boolean;
}

/** What `POST /verify` takes: a bundle, or a bundle with the question asked and the last checkpoint seen. */
export type VerifyInput = Bundle | { bundle: Bundle; question?: string; last_checkpoint?: string };

/**
 * A certificate as a W3C Verifiable Credential (VC Data Model 2.0, `eddsa-jcs-2022` Data Integrity
 * proof); `credentialToCertificate` of `@saksi/proof` checks it and returns the certificate.
 */
export interface VerifiableCredential {
  '@context': string[];
  id: string;
  type: string[];
  issuer: string;
  validFrom: string;
  credentialSubject: { id: string; certificate: Bundle['certificate'] };
  proof: {
    type: 'DataIntegrityProof';
    cryptosuite: 'eddsa-jcs-2022';
    created?: string;
    verificationMethod: string;
    proofPurpose: string;
    proofValue: string;
  };
}

/** The verifier's report (`verifyBundle` of `@saksi/proof`); a failed verdict is still a 200. */
export interface Verification {
  verdict: 'verified' | 'failed';
  certificate_id: string | null;
  checks: Record<string, unknown>[];
  codes: string[];
  claims: Record<string, unknown>[];
  summary: Record<string, unknown>;
  checkpoint: Record<string, unknown> | null;
  [field: string]: unknown;
}

export interface Checkpoint {
  origin: string;
  size: number;
  /** Hex. */
  root_hash: string;
  /** The C2SP signed note. */
  checkpoint: string;
  cosignatures: string[];
}

/** The JSON body of every error response. */
export interface ErrorBody {
  error: { code: string; message: string; message_id?: string };
}
