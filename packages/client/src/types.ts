/**
 * Request and response types of the Saksi API v1 (docs/api.md), under the names the client exports.
 * The wire shapes come from wire.ts, which `npm run wire-types` generates from the server's route list —
 * the zod schemas the routes validate with, as in the OpenAPI document at `/api/v1/openapi.json` — so
 * they cannot drift from the server. Written here by hand is only what the document cannot say; each such
 * type says why. Servers may add fields; these types list what a client can rely on.
 */
import type { Operations, Schemas } from './wire.js';

/** An operation of the API, by its operationId. */
export type OperationId = keyof Operations;

/** The body of an operation's successful (2xx) responses in one media type, JSON unless named. */
export type ResponseBody<Id extends OperationId, Media extends string = 'application/json'> = {
  [Status in keyof Operations[Id]['responses']]: Operations[Id]['responses'][Status] extends Record<
    Media,
    infer Body
  >
    ? Body
    : never;
}[keyof Operations[Id]['responses']];

/** The JSON request body of an operation. */
export type RequestBody<Id extends OperationId> = Operations[Id]['requestBody'] extends {
  'application/json': infer Body;
}
  ? Body
  : never;

/** The query parameters of an operation, as the document states them (strings on the wire). */
type QueryParameters<Id extends OperationId> = Operations[Id]['parameters']['query'];

export type Scope = Schemas['Scope'];
export type Language = Schemas['CollectionInfo']['language'];
export type DocumentStatus = Schemas['DocumentStatus'];
export type JobStatus = Schemas['Job']['status'];
export type AnchorState = Schemas['Document']['anchor_state'];
export type WebhookEvent = Schemas['WebhookEvent'];

/** A failure recorded on a document or job. */
export type Failure = NonNullable<Schemas['Document']['error']>;

/**
 * A page of a list endpoint. By hand because the document has no generics: it spells each page out
 * (a test checks `Page<Document>`, `Page<Job>` and `Page<Chunk>` against them).
 */
export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

/**
 * Paging of a list endpoint. By hand because a query string is text on the wire (the document says
 * `string` with a digits pattern) while the client takes numbers and writes them out.
 */
export interface Paging {
  /** 1–100, default 20. */
  limit?: number;
  /** Default 0. */
  offset?: number;
}

export type Health = Schemas['Health'];

/**
 * A document's original file (`GET /documents/{id}/file`), its SHA-256 checked by the client. By hand: it
 * is what the client makes of the bytes and headers, not a JSON body.
 */
export interface DocumentFile {
  bytes: Uint8Array;
  size: number;
  /** SHA-256 of `bytes`, lowercase hex (the document's `original_sha256`). */
  sha256: string;
  mime: string;
  filename: string;
}

export type WorkspaceQuotas = Schemas['WorkspaceQuotas'];
export type Workspace = Schemas['Workspace'];
/** An API key record: never the secret or its hash. */
export type ApiKey = Schemas['ApiKey'];
/** A new key: `key` is the secret, returned only this once. */
export type CreatedKey = Schemas['CreatedKey'];
export type CreateWorkspaceInput = RequestBody<'createWorkspace'>;
export type CreatedWorkspace = Schemas['CreatedWorkspace'];
export type WorkspaceInfo = Schemas['WorkspaceInfo'];
export type CreateKeyInput = RequestBody<'createKey'>;

export type CollectionInfo = Schemas['CollectionInfo'];
export type CreateCollectionInput = RequestBody<'createCollection'>;
/** A collection's glossary file (docs/glossary.md). */
export type Glossary = Schemas['Glossary'];
/** A collection's glossary as stored, with the SHA-256 certificates record; null parts: none. */
export type CollectionGlossaryInfo = ResponseBody<'getCollectionGlossary'>;
/** A collection's document packs (docs/engine.md, "Document-type packs"). */
export type CollectionPacksInfo = ResponseBody<'getCollectionPacks'>;
/** A collection's own calibration of the answer check (docs/evaluation.md, "Calibrating a collection"). */
export type CollectionCalibrationInfo = ResponseBody<'getCollectionCalibration'>;
/** A question labelled for calibrating a collection. */
export type CalibrationQuestion = RequestBody<'putCollectionCalibration'>['questions'][number];
/** A document pack's id. */
export type PackId = NonNullable<RequestBody<'putCollectionPacks'>['packs']>[number];
/** A text per interface language (`id`, `en`). */
export type LocalizedText = Schemas['CollectionInfo']['title'];

export type Document = Schemas['Document'];
export type Job = Schemas['Job'];
/** The reply to an upload: 202 with a PENDING document, or 200 when the bytes were already there. */
export type IngestAccepted = Schemas['IngestAccepted'];

/**
 * Metadata fields of an upload: the multipart fields of `POST /documents` but the file. `fiscal_year` is
 * by hand: a form field is text on the wire, and the client takes a number and writes it out.
 */
export type DocumentFields = Omit<
  Operations['uploadDocument']['requestBody']['multipart/form-data'],
  'file' | 'fiscal_year'
> & { fiscal_year?: number };

/** By hand: the file part is bytes and a name, which the client puts in the form. */
export interface UploadDocumentInput extends DocumentFields {
  file: Blob | Uint8Array;
  filename: string;
}

/** The filters of `GET /documents`; the numbers by hand, as in {@link Paging}. */
export type ListDocumentsQuery = Omit<QueryParameters<'listDocuments'>, 'fiscal_year' | 'limit' | 'offset'> &
  Paging & { fiscal_year?: number };

/** The filters of `GET /jobs`; the numbers by hand, as in {@link Paging}. */
export type ListJobsQuery = Omit<QueryParameters<'listJobs'>, 'limit' | 'offset'> & Paging;

export type CreateUploadInput = RequestBody<'createUpload'>;
export type CreatedUpload = Schemas['CreatedUpload'];
export type Uploaded = Schemas['Uploaded'];

/** {@link CreateUploadInput} with the bytes, which the client PUTs to the upload URL. */
export interface UploadLargeInput extends CreateUploadInput {
  file: Blob | Uint8Array;
}

export type Webhook = Schemas['Webhook'];
export type CreateWebhookInput = RequestBody<'createWebhook'>;
/** A new webhook: `secret` (`whsec_…`) signs its deliveries and is returned only this once. */
export type CreatedWebhook = Schemas['CreatedWebhook'];
export type Delivery = Schemas['Delivery'];

/**
 * The JSON body of a webhook delivery. By hand: deliveries are requests the server makes to the
 * receiver, not an operation of the API (`POST /webhooks` describes them in prose).
 */
export interface WebhookPayload {
  id: string;
  type: WebhookEvent;
  created_at: string;
  workspace_id: string;
  data: { document: Document; job: Job };
}

export type Citation = Schemas['Citation'];
/** The citation of a query result or a document chunk: always names the document and its place. */
export type SourceCitation = Schemas['SourceCitation'];
export type QueryResult = Schemas['QueryResult'];
/** A chunk as `GET /documents/{id}/chunks` lists it: a query result without the ranking fields. */
export type Chunk = Schemas['Chunk'];
export type QueryInput = RequestBody<'query'>;
export type QueryResponse = Schemas['QueryResponse'];

/**
 * What {@link SaksiClient.chat} sends. `question` is required here by hand: the server also takes the
 * question as `message` or as the last user message of `messages` (the document can only say all three
 * are optional), and the client sets `stream` itself.
 */
export type ChatInput = Omit<RequestBody<'chat'>, 'question' | 'message' | 'stream'> & {
  /** The question. */
  question: string;
};

/**
 * A certificate bundle (docs/certificate.md). Verify it with `verifyBundle` of `@saksi/proof` or
 * {@link SaksiClient.verify}.
 */
export type Bundle = Schemas['Bundle'];
export type ResultSummary = Schemas['ResultSummary'];
export type ChatResponse = Schemas['ChatResponse'];
export type ChatMessage = Schemas['ChatSession']['messages'][number];
export type ChatSession = Schemas['ChatSession'];

/** A thumbs up or down on an answer, given by its certificate id (`POST /feedback`). */
export type FeedbackInput = RequestBody<'giveFeedback'>;
export type FeedbackResult = Schemas['Feedback'];

/** What `POST /verify` takes: a bundle, or a bundle with the question asked and the last checkpoint seen. */
export type VerifyInput = RequestBody<'verify'>;

/**
 * A certificate as a W3C Verifiable Credential (VC Data Model 2.0, `eddsa-jcs-2022` Data Integrity
 * proof); `credentialToCertificate` of `@saksi/proof` checks it and returns the certificate.
 */
export type VerifiableCredential = Schemas['VerifiableCredential'];

/** The verifier's report (`verifyBundle` of `@saksi/proof`); a failed verdict is still a 200. */
export type Verification = Schemas['Verification'];
export type Checkpoint = Schemas['Checkpoint'];

/** The JSON body of every error response. */
export type ErrorBody = Schemas['Error'];
