/**
 * Every route under `/api/v1` (and the well-known keys), described once: the OpenAPI document is
 * generated from this list (openapi.ts) and coverage.test.ts checks it against the routes the app
 * registers, so neither can drift from the other.
 */
import { z } from 'zod';
import {
  certificateQuerySchema,
  chatRequestSchema,
  consistencyQuerySchema,
  feedbackRequestSchema,
  inclusionQuerySchema,
  listDocumentsSchema,
  uploadFieldsSchema,
  usageCsvQuerySchema,
  usageQuerySchema,
} from '../schemas.js';
import type { RouteSpec } from './registry.js';
import {
  adminKeyBody,
  adminListQuery,
  adminLoginBody,
  adminUploadFields,
  adminWorkspaceBody,
  collectionCalibrationBody,
  collectionPacksBody,
  cosignatureRequestSchema,
  createCollectionBody,
  createKeyBody,
  createUploadBody,
  createWebhookBody,
  createWorkspaceBody,
  glossarySchema,
  listChunksQuery,
  listJobsQuery,
  queryBodyV1,
} from './request-schemas.js';
import {
  adminDocumentPageSchema,
  adminDocumentResultSchema,
  adminIdentitySchema,
  adminIngestSchema,
  anchorStatusSchema,
  bundleSchema,
  chatResponseSchema,
  chatSessionSchema,
  checkpointSchema,
  chunkPageSchema,
  collectionCalibrationSchema,
  collectionGlossarySchema,
  collectionListSchema,
  collectionPacksSchema,
  consistencyProofSchema,
  cosignaturesSchema,
  createdCollectionSchema,
  createdKeySchema,
  createdUploadSchema,
  createdWebhookSchema,
  createdWorkspaceSchema,
  deliveryListSchema,
  documentPageSchema,
  documentSchema,
  errorSchema,
  feedbackResultSchema,
  healthSchema,
  inclusionProofSchema,
  ingestAcceptedSchema,
  jobPageSchema,
  jobSchema,
  keyListSchema,
  keyRecordSchema,
  openApiSchema,
  queryResponseSchema,
  trustedKeysSchema,
  uploadedSchema,
  usageReportSchema,
  verifiableCredentialSchema,
  verificationSchema,
  webhookListSchema,
  workspaceInfoSchema,
  workspaceSchema,
} from './response-schemas.js';

/** Where `PUT <upload_url>` goes: the upload's content, authorised by the one-use token in the URL. */
export const UPLOAD_CONTENT_PATH = '/uploads/{id}/content';

const noContent = { description: 'Deleted' };
const text = (description: string) => ({
  description,
  schema: z.string(),
  contentType: 'text/plain; charset=utf-8',
});
const binary = (description: string) => ({
  description,
  schema: z.string().meta({ contentMediaType: 'application/octet-stream' }),
  contentType: 'application/octet-stream',
});
const errorWith = (description: string) => ({ description, schema: errorSchema });

/** The encoded tile index, optionally followed by `.p/<W>` (contains `/`). */
const tileIndex = z.string().describe('Encoded tile index, optionally followed by `.p/<W>` (contains `/`)');

const verifyRequest = z.union([
  bundleSchema,
  z.object({
    bundle: bundleSchema,
    question: z.string().max(4_000).nullish().describe('The question actually asked (replay check)'),
    last_checkpoint: z
      .string()
      .max(10_000)
      .nullish()
      .describe('The last checkpoint note the client saw (rollback/fork check)'),
  }),
]);

const adminWorkspaceListSchema = z.object({
  items: z.array(z.object({ ...workspaceSchema.shape, documents: z.int(), keys: z.int() })),
});
const csrfError = errorWith('Missing or wrong `X-CSRF-Token` header (`CSRF_INVALID`)');

const streamQuery = z.object({
  // Other values are ignored, as they always were: `Accept: text/event-stream` or `stream: true` in the body also ask for events.
  stream: z.enum(['1', 'true']).optional().catch(undefined).describe('Respond with Server-Sent Events'),
});

const uploadTokenQuery = z.object({
  token: z.string().describe('The one-use token from upload_url'),
});

/**
 * `as const`, so that a handler mounted by operation id (mount.ts) gets its caller, query and body typed
 * from the schemas declared here.
 */
export const ROUTES = [
  // Meta
  {
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    summary: 'Health of the database, the log, the chain RPC and anchoring',
    tags: ['meta'],
    security: 'public',
    responses: { 200: { description: 'Health', schema: healthSchema } },
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApi',
    summary: 'This document',
    tags: ['meta'],
    security: 'public',
    responses: { 200: { description: 'OpenAPI 3.1', schema: openApiSchema } },
  },
  {
    method: 'get',
    path: '/.well-known/saksi-keys.json',
    outsideBase: true,
    operationId: 'getTrustedKeys',
    summary: 'Public keys to pin: certificate issuers, the log, witnesses',
    tags: ['meta'],
    security: 'public',
    responses: { 200: { description: 'Trusted keys', schema: trustedKeysSchema } },
  },

  // Workspaces and keys
  {
    method: 'post',
    path: '/workspaces',
    operationId: 'createWorkspace',
    summary: 'Create a new, independent workspace and its first admin key',
    description: 'The calling key gets no access to the new workspace: use the returned key.',
    tags: ['workspaces'],
    security: 'key:admin',
    request: { body: createWorkspaceBody, what: 'workspace' },
    responses: {
      201: { description: 'Created; the key is shown only this once', schema: createdWorkspaceSchema },
    },
    errors: [400, 413],
  },
  {
    method: 'get',
    path: '/workspace',
    operationId: 'getWorkspace',
    summary: "The calling key's workspace, scopes, quotas and usage",
    description: 'Any scope may call it.',
    tags: ['workspaces'],
    security: 'key:read',
    responses: { 200: { description: 'The workspace', schema: workspaceInfoSchema } },
  },
  {
    method: 'get',
    path: '/keys',
    operationId: 'listKeys',
    summary: "The workspace's API keys (never their secrets)",
    tags: ['keys'],
    security: 'key:admin',
    responses: { 200: { description: 'Keys', schema: keyListSchema } },
  },
  {
    method: 'post',
    path: '/keys',
    operationId: 'createKey',
    summary: 'Create an API key with scopes',
    tags: ['keys'],
    security: 'key:admin',
    request: { body: createKeyBody, what: 'API key' },
    responses: { 201: { description: 'Created; the key is shown only this once', schema: createdKeySchema } },
    errors: [400, 413],
  },
  {
    method: 'delete',
    path: '/keys/{id}',
    operationId: 'revokeKey',
    summary: 'Revoke an API key (it stops working at once)',
    tags: ['keys'],
    security: 'key:admin',
    responses: { 200: { description: 'Revoked (revoked_at set)', schema: keyRecordSchema } },
    errors: [404],
  },

  // Collections
  {
    method: 'get',
    path: '/collections',
    operationId: 'listCollections',
    summary: 'List collections',
    description:
      "With a key, the collections of the key's workspace; without, the public collections of the default workspace.",
    tags: ['collections'],
    security: 'public-or-key',
    responses: { 200: { description: 'Collections', schema: collectionListSchema } },
  },
  {
    method: 'post',
    path: '/collections',
    operationId: 'createCollection',
    summary: 'Create a collection',
    tags: ['collections'],
    security: 'key:ingest',
    request: { body: createCollectionBody, what: 'collection' },
    responses: { 201: { description: 'Created', schema: createdCollectionSchema } },
    errors: [400, 413],
  },
  {
    method: 'get',
    path: '/collections/{name}/glossary',
    operationId: 'getCollectionGlossary',
    summary:
      "A collection's glossary (its vocabulary: dictionary, translations, pattern groups) and its SHA-256",
    tags: ['collections'],
    security: 'key:read',
    responses: { 200: { description: 'The glossary, or null', schema: collectionGlossarySchema } },
    errors: [404],
  },
  {
    method: 'put',
    path: '/collections/{name}/glossary',
    operationId: 'putCollectionGlossary',
    summary:
      "Set a collection's glossary (docs/glossary.md); answers cached under the old one are not served again",
    description:
      'The body is the glossary file. It is checked as a whole before anything is stored: a bad entry is ' +
      '400 INVALID_GLOSSARY, whose message names it (`dictionary[3].terms[1] must be lower case`).',
    tags: ['collections'],
    security: 'key:ingest',
    request: {
      body: glossarySchema,
      what: 'glossary',
      // The engine checks the glossary itself, so the error is INVALID_GLOSSARY naming the bad entry.
      readBy: 'handler',
    },
    responses: { 200: { description: 'Stored', schema: collectionGlossarySchema } },
    errors: [400, 404, 413],
  },
  {
    method: 'delete',
    path: '/collections/{name}/glossary',
    operationId: 'deleteCollectionGlossary',
    summary: "Remove a collection's glossary: its questions are no longer rewritten with any vocabulary",
    tags: ['collections'],
    security: 'key:ingest',
    responses: { 204: noContent },
    errors: [404],
  },
  {
    method: 'get',
    path: '/collections/{name}/calibration',
    operationId: 'getCollectionCalibration',
    summary: "Whether a collection's answer check is calibrated on its own questions, and what it releases",
    tags: ['collections'],
    security: 'key:read',
    responses: { 200: { description: 'The calibration, or null', schema: collectionCalibrationSchema } },
    errors: [404],
  },
  {
    method: 'put',
    path: '/collections/{name}/calibration',
    operationId: 'putCollectionCalibration',
    summary:
      'Calibrate a collection\'s answer check on questions an admin labelled (docs/evaluation.md, "Calibrating a collection")',
    description:
      'Every question is asked afresh (each answer is certified and logged like any other) before the ' +
      'response; its answer check features and whether its answer was wrong are stored, and the ' +
      "collection's answers are then released at the threshold split-conformal risk control chooses on " +
      'them. The questions are checked first: a bad one is 400 INVALID_INPUT naming it, and nothing is asked.',
    tags: ['collections'],
    security: 'key:ingest',
    request: { body: collectionCalibrationBody, what: 'calibration questions' },
    responses: { 200: { description: 'Calibrated', schema: collectionCalibrationSchema } },
    errors: [400, 404, 413],
  },
  {
    method: 'delete',
    path: '/collections/{name}/calibration',
    operationId: 'deleteCollectionCalibration',
    summary:
      "Remove a collection's own calibration: its answers are released at the strictest demo threshold again",
    tags: ['collections'],
    security: 'key:ingest',
    responses: { 204: noContent },
    errors: [404],
  },
  {
    method: 'get',
    path: '/collections/{name}/packs',
    operationId: 'getCollectionPacks',
    summary:
      "A collection's document packs: its override, the packs detected in its documents, the active ones",
    tags: ['collections'],
    security: 'key:read',
    responses: { 200: { description: 'The packs', schema: collectionPacksSchema } },
    errors: [404],
  },
  {
    method: 'put',
    path: '/collections/{name}/packs',
    operationId: 'putCollectionPacks',
    summary:
      'Choose a collection\'s document packs (docs/engine.md, "Document-type packs"), or null to detect them',
    description:
      'Documents ingested afterwards are read and indexed by the chosen packs only, and only they answer; ' +
      'documents already stored keep the structure they were ingested with.',
    tags: ['collections'],
    security: 'key:ingest',
    request: { body: collectionPacksBody, what: 'packs' },
    responses: { 200: { description: 'Stored', schema: collectionPacksSchema } },
    errors: [400, 404, 413],
  },

  // Documents
  {
    method: 'post',
    path: '/documents',
    operationId: 'uploadDocument',
    summary: 'Upload a document (PDF, DOCX, Markdown, HTML, text); ingestion runs as a job',
    description:
      'Returns at once with the document (PENDING) and its job; poll GET /documents/{id} or /jobs/{id}, or register a webhook. ' +
      'The same bytes again in the same workspace return the existing READY document (200, `deduplicated: true`) without parsing.',
    tags: ['documents'],
    security: 'key:ingest',
    request: { body: { multipart: uploadFieldsSchema } },
    responses: {
      202: {
        description: 'Accepted: the document is PENDING and its job QUEUED',
        schema: ingestAcceptedSchema,
      },
      200: {
        description: 'The same bytes were already in the workspace (deduplicated)',
        schema: ingestAcceptedSchema,
      },
    },
    errors: [400, 404, 413, 415, 422],
  },
  {
    method: 'get',
    path: '/documents',
    operationId: 'listDocuments',
    summary: 'List documents with filters and paging',
    tags: ['documents'],
    security: 'key:read',
    request: { query: listDocumentsSchema, what: 'document list' },
    responses: { 200: { description: 'A page of documents', schema: documentPageSchema } },
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/documents/{id}',
    operationId: 'getDocument',
    summary: 'One document, with its ingestion status and progress',
    tags: ['documents'],
    security: 'key:read',
    responses: { 200: { description: 'The document', schema: documentSchema } },
    errors: [404],
  },
  {
    method: 'get',
    path: '/documents/{id}/file',
    operationId: 'getDocumentFile',
    summary: 'The original file of a document, as uploaded',
    description:
      "Streams the stored bytes with the document's media type, `Content-Disposition: attachment` and their SHA-256 " +
      '(`X-Saksi-SHA256` in hex, `Repr-Digest` per RFC 9530). If the stored bytes fail their hash while streaming, ' +
      'the response is cut short of `Content-Length`.',
    tags: ['documents'],
    security: 'key:read',
    responses: {
      200: {
        description: 'The original bytes',
        schema: z.string().meta({ contentMediaType: 'application/octet-stream' }),
        contentType: 'application/octet-stream',
        headers: {
          'Content-Disposition': {
            description: '`attachment; filename="…"; filename*=UTF-8\'\'…` (RFC 6266, RFC 8187)',
            schema: z.string(),
          },
          'X-Saksi-SHA256': {
            description: 'SHA-256 of the bytes, lowercase hex (`original_sha256`)',
            schema: z.string(),
          },
          'Repr-Digest': { description: 'RFC 9530: `sha-256=:<base64>:`', schema: z.string() },
        },
      },
      404: errorWith(
        'No such document in this workspace (`NOT_FOUND`), or its stored original is missing or incomplete (`FILE_NOT_FOUND`)',
      ),
    },
  },
  {
    method: 'get',
    path: '/documents/{id}/chunks',
    operationId: 'listChunks',
    summary: "A document's chunks in order, with citations and proofs",
    tags: ['documents'],
    security: 'key:read',
    request: { query: listChunksQuery, what: 'chunk list' },
    responses: { 200: { description: 'A page of chunks', schema: chunkPageSchema } },
    errors: [400, 404],
  },
  {
    method: 'delete',
    path: '/documents/{id}',
    operationId: 'deleteDocument',
    summary: 'Delete a document and its chunks',
    tags: ['documents'],
    security: 'key:ingest',
    responses: { 204: noContent },
    errors: [404],
  },

  // Jobs
  {
    method: 'get',
    path: '/jobs',
    operationId: 'listJobs',
    summary: 'List ingestion jobs, newest first',
    tags: ['jobs'],
    security: 'key:read',
    request: { query: listJobsQuery, what: 'job list' },
    responses: { 200: { description: 'A page of jobs', schema: jobPageSchema } },
    errors: [400],
  },
  {
    method: 'get',
    path: '/jobs/{id}',
    operationId: 'getJob',
    summary: 'One job: status, stage, progress, attempts and error',
    tags: ['jobs'],
    security: 'key:read',
    responses: { 200: { description: 'The job', schema: jobSchema } },
    errors: [404],
  },

  // Two-step uploads
  {
    method: 'post',
    path: '/uploads',
    operationId: 'createUpload',
    summary: 'Start a two-step upload of a large file: returns a one-use URL to PUT the bytes to',
    tags: ['uploads'],
    security: 'key:ingest',
    request: { body: createUploadBody, what: 'upload' },
    responses: { 201: { description: 'Created', schema: createdUploadSchema } },
    errors: [400, 404, 413],
  },
  {
    method: 'put',
    path: UPLOAD_CONTENT_PATH,
    operationId: 'putUploadContent',
    summary: "An upload's bytes (use upload_url as returned; its one-use token authorises the request)",
    tags: ['uploads'],
    security: 'public',
    request: {
      body: 'binary',
      query: uploadTokenQuery,
      // A missing or malformed token is the same 404 as an expired one: the handler checks it.
      readBy: 'handler',
    },
    responses: {
      200: { description: 'Stored', schema: uploadedSchema },
      401: errorWith('The token is missing, wrong, already used or expired (`UNAUTHENTICATED`)'),
    },
    errors: [400, 404, 413],
  },
  {
    method: 'post',
    path: '/uploads/{id}/process',
    operationId: 'processUpload',
    summary: 'Turn an uploaded file into a document and an ingestion job',
    tags: ['uploads'],
    security: 'key:ingest',
    responses: {
      202: {
        description: 'Accepted: the document is PENDING and its job QUEUED',
        schema: ingestAcceptedSchema,
      },
      200: {
        description: 'The same bytes were already in the workspace (deduplicated)',
        schema: ingestAcceptedSchema,
      },
    },
    errors: [400, 404, 413, 415],
  },

  // Webhooks
  {
    method: 'post',
    path: '/webhooks',
    operationId: 'createWebhook',
    summary: 'Register a completion webhook; its secret signs every delivery',
    description:
      'Deliveries POST `{"id", "type", "created_at", "workspace_id", "data": {"document", "job"}}` with headers `Saksi-Event`, ' +
      '`Saksi-Delivery` (the event id, stable across retries) and `Saksi-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. ' +
      'A 2xx answer is delivered; anything else is retried with exponential backoff; redirects are not followed. ' +
      'The receiver must be on a public address: a host that is `localhost`, a loopback, private, link-local or reserved ' +
      'IP address (in any spelling), or a name resolving to one, is refused with 400 `WEBHOOK_URL_FORBIDDEN`, and is ' +
      'checked again before every delivery (unless the server sets SAKSI_WEBHOOK_ALLOW_PRIVATE=1).',
    tags: ['webhooks'],
    security: 'key:admin',
    request: { body: createWebhookBody, what: 'webhook' },
    responses: {
      201: { description: 'Created; the secret is shown only this once', schema: createdWebhookSchema },
    },
    errors: [400, 413],
  },
  {
    method: 'get',
    path: '/webhooks',
    operationId: 'listWebhooks',
    summary: "The workspace's webhooks",
    tags: ['webhooks'],
    security: 'key:admin',
    responses: { 200: { description: 'Webhooks', schema: webhookListSchema } },
  },
  {
    method: 'delete',
    path: '/webhooks/{id}',
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook (pending deliveries are dropped)',
    tags: ['webhooks'],
    security: 'key:admin',
    responses: { 204: noContent },
    errors: [404],
  },
  {
    method: 'get',
    path: '/webhooks/{id}/deliveries',
    operationId: 'listDeliveries',
    summary: "A webhook's deliveries with their attempts and last result",
    tags: ['webhooks'],
    security: 'key:admin',
    responses: { 200: { description: 'Deliveries', schema: deliveryListSchema } },
    errors: [404],
  },

  // Query and chat
  {
    method: 'post',
    path: '/query',
    operationId: 'query',
    summary: 'Retrieval only: ranked chunks with citations, parent context, table HTML, proofs and timings',
    tags: ['query'],
    security: 'key:read',
    request: { body: queryBodyV1, what: 'query request' },
    responses: { 200: { description: 'Results', schema: queryResponseSchema } },
    errors: [400, 404, 413],
  },
  {
    method: 'post',
    path: '/chat',
    operationId: 'chat',
    summary: 'Ask a question; the answer comes with its certificate bundle',
    description:
      'JSON by default. With `Accept: text/event-stream`, `?stream=1` or `"stream": true` the reply is Server-Sent Events: ' +
      '`session`, `retrieval`, `delta` (repeated), `bundle`, `done` (with the same `verdict` as the JSON reply); on failure an `error` event `{code, message}` and no bundle. ' +
      '`verdict` is the server’s view of the signed certificate: `answered`, `related` (related passages, not a confirmed answer) or `refused`; verify the bundle to rely on it. ' +
      "Without a key, public collections only (rate limited per address); with one, any collection of the key's workspace.",
    tags: ['chat'],
    security: 'public-or-key',
    request: { body: chatRequestSchema, query: streamQuery, what: 'chat request' },
    responses: {
      200: { description: 'The answer', schema: chatResponseSchema, alternatives: ['text/event-stream'] },
    },
    errors: [400, 404, 413],
  },
  {
    method: 'get',
    path: '/sessions/{id}',
    operationId: 'getSession',
    summary: "A chat session's messages in order; each answer carries its certificate id",
    description:
      'Without a key for sessions of public collections of the default workspace (the id is the credential); others need a key of the owning workspace (404 for anyone else).',
    tags: ['sessions'],
    security: 'public-or-key',
    responses: { 200: { description: 'The session', schema: chatSessionSchema } },
    errors: [404],
  },
  {
    method: 'delete',
    path: '/sessions/{id}',
    operationId: 'deleteSession',
    summary: 'Delete a chat session and its messages (certificates and log entries stay)',
    description: 'Who may delete a session is who may read it (`GET /sessions/{id}`).',
    tags: ['sessions'],
    security: 'public-or-key',
    responses: { 204: noContent },
    errors: [404],
  },

  // Certificates and verification
  {
    method: 'get',
    path: '/certificates/{id}',
    operationId: 'getCertificate',
    summary: 'The bundle of a certificate',
    description:
      'Public for certificates of public collections of the default workspace; others need a key of the owning workspace (404 for anyone else). ' +
      '`format=vc` returns the certificate as a W3C Verifiable Credential signed by the issuer key (eddsa-jcs-2022); any other `format` is 400 `INVALID_INPUT`.',
    tags: ['certificates'],
    security: 'public-or-key',
    request: { query: certificateQuerySchema, what: 'certificate' },
    responses: {
      200: {
        description:
          'The bundle; with `format=vc`, the certificate as a W3C Verifiable Credential (`application/vc`)',
        schema: bundleSchema,
        variants: { 'application/vc': verifiableCredentialSchema },
      },
      409: errorWith(
        '`format=vc` for a certificate issued under another issuer key than the server signs with now (`CONFLICT`)',
      ),
    },
    errors: [400, 404],
  },
  {
    method: 'post',
    path: '/feedback',
    operationId: 'giveFeedback',
    summary: 'A thumbs up or down, with an optional comment, on an answer (its certificate)',
    description:
      'The access of reading the certificate: anyone for a certificate of a public collection of the default workspace, a key with `read` (or an admin session) of the owning workspace otherwise (404 for anyone else, and for an unknown id). ' +
      'One feedback per certificate and submitter (the key, the admin, or the client address without either): a later one replaces it (200, `replaced: true`). ' +
      'Without a key an address may give `SAKSI_PUBLIC_CHAT_LIMIT` feedbacks per hour (429 after).',
    tags: ['certificates'],
    security: 'public-or-key',
    request: { body: feedbackRequestSchema, what: 'feedback', limit: 16 * 1024 },
    responses: {
      200: { description: "Replaced the submitter's earlier feedback", schema: feedbackResultSchema },
      201: { description: 'Stored', schema: feedbackResultSchema },
    },
    errors: [400, 404, 413],
  },
  {
    method: 'post',
    path: '/verify',
    operationId: 'verify',
    summary: 'Verify a bundle against this server’s keys (a failed verdict is still 200)',
    description:
      'Verified on the server’s verification threads, never on its event loop. A bundle over a limit per bundle ' +
      '(claims, evidence items, cited chunks, proof nodes, anchored batch roots, cosignatures) is refused before anything is hashed. ' +
      'Each verification costs the caller work units (about one per claim, evidence item and cited chunk) from a budget of ' +
      '`SAKSI_VERIFY_WORK_LIMIT` a minute, per address without a key, per key with one.',
    tags: ['certificates'],
    security: 'public',
    request: {
      body: verifyRequest,
      // A bare bundle goes to the verifier as it came: what is wrong with it is the verification's
      // result, not a 400. The handler validates only the wrapped form.
      readBy: 'handler',
    },
    responses: {
      200: { description: 'The verification', schema: verificationSchema },
      413: errorWith(
        'Body over 16 MiB, or a bundle over a limit per bundle (`BODY_TOO_LARGE`; the message names the limit and its value)',
      ),
      429: {
        description:
          'The caller’s verification work budget or request limit is spent (`RATE_LIMITED`); see Retry-After',
        schema: errorSchema,
        headers: { 'Retry-After': { description: 'Seconds to wait', schema: z.int() } },
      },
      503: {
        description:
          'Every verification thread is busy and the queue is full (`UNAVAILABLE`); see Retry-After',
        schema: errorSchema,
        headers: { 'Retry-After': { description: 'Seconds to wait', schema: z.int() } },
      },
    },
    errors: [400],
  },

  // Transparency log
  {
    method: 'get',
    path: '/log/checkpoint',
    operationId: 'getCheckpoint',
    summary: 'The latest signed checkpoint of the transparency log',
    tags: ['log'],
    security: 'public',
    responses: { 200: { description: 'Checkpoint', schema: checkpointSchema } },
    errors: [404],
  },
  {
    method: 'get',
    path: '/log/checkpoint.txt',
    operationId: 'getCheckpointNote',
    summary: 'The latest checkpoint as a cosigned C2SP note',
    tags: ['log'],
    security: 'public',
    responses: { 200: text('Note') },
    errors: [404],
  },
  {
    method: 'get',
    path: '/log/proof/inclusion',
    operationId: 'getInclusionProof',
    summary: 'RFC 9162 inclusion proof of a log entry',
    tags: ['log'],
    security: 'public',
    request: { query: inclusionQuerySchema, what: 'inclusion proof' },
    responses: { 200: { description: 'Proof (hex hashes)', schema: inclusionProofSchema } },
    errors: [400],
  },
  {
    method: 'get',
    path: '/log/proof/consistency',
    operationId: 'getConsistencyProof',
    summary: 'RFC 9162 consistency proof between two tree sizes',
    tags: ['log'],
    security: 'public',
    request: { query: consistencyQuerySchema, what: 'consistency proof' },
    responses: { 200: { description: 'Proof (hex hashes)', schema: consistencyProofSchema } },
    errors: [400],
  },
  {
    method: 'post',
    path: '/log/cosignatures',
    operationId: 'addCosignature',
    summary: 'Add a witness cosignature to a stored checkpoint',
    description:
      'A witness that checked the checkpoint for consistency with the last one it cosigned (`saksi witness`) sends its ' +
      'C2SP tlog-cosignature line. It is stored when it verifies over the checkpoint of `size` with a witness key in ' +
      '/.well-known/saksi-keys.json, replacing an older line of the same key; bundles fetched later carry it. ' +
      'A line that is not a cosignature or does not verify is `COSIGNATURE_INVALID` (400).',
    tags: ['log'],
    security: 'public',
    request: { body: cosignatureRequestSchema, what: 'cosignature request', limit: 16 * 1024 },
    responses: {
      200: { description: 'Stored; every cosignature line of that checkpoint', schema: cosignaturesSchema },
      403: errorWith('The witness key is not trusted by this log (`WITNESS_UNKNOWN`)'),
    },
    errors: [400, 404, 413],
  },
  // C2SP tlog-tiles (https://c2sp.org/tlog-tiles): the log as static resources under one prefix.
  {
    method: 'get',
    path: '/log/tiles/checkpoint',
    operationId: 'getTileCheckpoint',
    summary: 'C2SP tlog-tiles checkpoint: the signed note with witness cosignature lines (not cached)',
    tags: ['log'],
    security: 'public',
    responses: { 200: text('Note') },
    errors: [404],
  },
  {
    method: 'get',
    path: '/log/tiles/tile/{level}/{index}',
    honoPath: '/log/tiles/tile/*',
    operationId: 'getHashTile',
    summary: 'C2SP hash tile: up to 256 concatenated 32-byte hashes of tree level 8·level',
    description:
      'The path is `tile/<L>/<N>[.p/<W>]`: `<N>` in zero-padded 3-digit groups, all but the last prefixed with `x` (1234067 → `x001/x234/067`), `.p/<W>` for a partial tile of width 1–255. Full tiles are immutable (`Cache-Control: public, max-age=31536000, immutable`); partial tiles are not cached. 404 for a tile the latest checkpoint does not cover.',
    tags: ['log'],
    security: 'public',
    request: {
      params: z.object({
        level: z.int().min(0).max(63),
        index: tileIndex.meta({ examples: ['x001/234.p/5'] }),
      }),
    },
    responses: { 200: binary('Hash tile') },
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/log/tiles/tile/entries/{index}',
    honoPath: '/log/tiles/tile/*',
    operationId: 'getEntryBundle',
    summary:
      'C2SP entry bundle: the leaf inputs of up to 256 entries, each a big-endian uint16 length and its bytes',
    description:
      'Same index encoding and caching as hash tiles; each entry hashes to the matching hash of the level-0 tile.',
    tags: ['log'],
    security: 'public',
    request: { params: z.object({ index: tileIndex.meta({ examples: ['000.p/44'] }) }) },
    responses: { 200: binary('Entry bundle') },
    errors: [400, 404],
  },

  // Anchors
  {
    method: 'get',
    path: '/anchors',
    operationId: 'getAnchorStatus',
    summary: 'Anchoring status: provider, chain, contract, documents per state and recent rounds',
    tags: ['anchors'],
    security: 'public',
    responses: { 200: { description: 'Status', schema: anchorStatusSchema } },
  },
  {
    method: 'get',
    path: '/anchors/{document_id}',
    operationId: 'getDocumentAnchor',
    summary: "One document's anchor: state, round, transaction, block, batch root and batch proof",
    description:
      'Public for documents of public collections of the default workspace; others need a key of the owning workspace (404 for anyone else).',
    tags: ['anchors'],
    security: 'public-or-key',
    responses: { 200: { description: 'Status with `document`', schema: anchorStatusSchema } },
    errors: [404],
  },

  // Admin portal (routes/admin.ts)
  {
    method: 'post',
    path: '/admin/login',
    operationId: 'adminLogin',
    summary: 'Sign in as an admin: sets the saksi_session cookie',
    tags: ['admin'],
    security: 'public',
    request: { body: adminLoginBody, what: 'login request', limit: 16 * 1024 },
    responses: {
      200: { description: 'Signed in; Set-Cookie saksi_session', schema: adminIdentitySchema },
      401: errorWith('Email or password is wrong (`LOGIN_FAILED`; the same for both)'),
      429: {
        description:
          'Too many failed attempts from this address for this email, or from this address overall (`RATE_LIMITED`); see Retry-After',
        schema: errorSchema,
        headers: { 'Retry-After': { description: 'Seconds to wait', schema: z.int() } },
      },
    },
    errors: [400, 413],
  },
  {
    method: 'post',
    path: '/admin/logout',
    operationId: 'adminLogout',
    summary: 'Sign out: deletes the session and clears the cookie',
    tags: ['admin'],
    security: 'public',
    responses: { 204: { description: 'Signed out' } },
  },
  {
    method: 'get',
    path: '/admin/me',
    operationId: 'adminMe',
    summary: 'The signed-in admin and the session CSRF token',
    tags: ['admin'],
    security: 'admin-session',
    responses: { 200: { description: 'Signed in', schema: adminIdentitySchema } },
  },
  {
    method: 'get',
    path: '/admin/documents',
    operationId: 'adminListDocuments',
    summary: 'List documents (all statuses) with their anchors',
    tags: ['admin'],
    security: 'admin-session',
    request: { query: adminListQuery, what: 'document list' },
    responses: { 200: { description: 'A page of documents, newest first', schema: adminDocumentPageSchema } },
    errors: [400],
  },
  {
    method: 'post',
    path: '/admin/documents',
    operationId: 'adminUploadDocument',
    summary: 'Upload a document; with Accept: text/event-stream, ingestion progress as SSE',
    description:
      'SSE events: `progress` {stage: parsing|chunking|embedding|storing, progress: 0..1}, then `done` {document, deduplicated} or `error` {code, message} (the parser code, e.g. MALFORMED_FILE; nothing is stored).',
    tags: ['admin'],
    security: 'admin-session',
    request: { body: { multipart: adminUploadFields } },
    responses: {
      200: {
        description: 'Server-Sent Events (when asked for with Accept: text/event-stream)',
        schema: z.string(),
        contentType: 'text/event-stream',
      },
      201: { description: 'Ingested (or already present: deduplicated true)', schema: adminIngestSchema },
      403: csrfError,
    },
    errors: [400, 413, 415, 422],
  },
  {
    method: 'delete',
    path: '/admin/documents/{id}',
    operationId: 'adminDeleteDocument',
    summary: 'Delete a document, its chunks and proofs',
    tags: ['admin'],
    security: 'admin-session',
    responses: {
      204: noContent,
      403: csrfError,
    },
    errors: [404],
  },
  {
    method: 'post',
    path: '/admin/documents/{id}/archive',
    operationId: 'adminArchiveDocument',
    summary: 'Archive a READY document: it is no longer retrieved',
    tags: ['admin'],
    security: 'admin-session',
    responses: {
      200: { description: 'Archived', schema: adminDocumentResultSchema },
      403: csrfError,
      409: errorWith('The document is not READY (`CONFLICT`)'),
    },
    errors: [404],
  },
  {
    method: 'post',
    path: '/admin/documents/{id}/restore',
    operationId: 'adminRestoreDocument',
    summary: 'Restore an ARCHIVED document: it is retrieved again',
    tags: ['admin'],
    security: 'admin-session',
    responses: {
      200: { description: 'Restored', schema: adminDocumentResultSchema },
      403: csrfError,
      409: errorWith('The document is not ARCHIVED (`CONFLICT`)'),
    },
    errors: [404],
  },
  {
    method: 'get',
    path: '/admin/usage',
    operationId: 'adminUsage',
    summary:
      'Usage of a workspace or collection per day: questions, refusals, feedback, latency, top refused questions',
    description:
      'Counts certificates issued in the last `days` days (today included) in the time zone `tz`. Latency percentiles are over the certificates that recorded one.',
    tags: ['admin'],
    security: 'admin-session',
    request: { query: usageQuerySchema, what: 'usage' },
    responses: { 200: { description: 'The figures', schema: usageReportSchema } },
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/admin/usage.csv',
    operationId: 'adminUsageCsv',
    summary: 'The usage figures as a CSV download: one row per day and a total, or the refused questions',
    tags: ['admin'],
    security: 'admin-session',
    request: { query: usageCsvQuerySchema, what: 'usage' },
    responses: {
      200: {
        description: 'CSV (RFC 4180, UTF-8 with a byte order mark, CRLF lines) as an attachment',
        schema: z.string(),
        contentType: 'text/csv',
      },
    },
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/admin/workspaces',
    operationId: 'adminListWorkspaces',
    summary: 'List workspaces with their document and active key counts',
    tags: ['admin'],
    security: 'admin-session',
    responses: { 200: { description: 'Workspaces', schema: adminWorkspaceListSchema } },
  },
  {
    method: 'post',
    path: '/admin/workspaces',
    operationId: 'adminCreateWorkspace',
    summary: 'Create a workspace',
    tags: ['admin'],
    security: 'admin-session',
    request: { body: adminWorkspaceBody, what: 'workspace', limit: 16 * 1024 },
    responses: {
      201: { description: 'Created', schema: z.object({ workspace: workspaceSchema }) },
      403: csrfError,
    },
    errors: [400, 413],
  },
  {
    method: 'get',
    path: '/admin/workspaces/{id}/keys',
    operationId: 'adminListKeys',
    summary: "A workspace's API keys (visible prefixes, never the secrets)",
    tags: ['admin'],
    security: 'admin-session',
    responses: { 200: { description: 'Keys', schema: keyListSchema } },
    errors: [404],
  },
  {
    method: 'post',
    path: '/admin/workspaces/{id}/keys',
    operationId: 'adminCreateKey',
    summary: 'Create an API key in a workspace; its secret is in this reply only',
    tags: ['admin'],
    security: 'admin-session',
    request: {
      body: adminKeyBody,
      what: 'API key',
      limit: 16 * 1024,
      // An unknown workspace is a 404 before the body is judged: the handler reads it.
      readBy: 'handler',
    },
    responses: {
      201: { description: 'Created; the key is shown only this once', schema: createdKeySchema },
      403: csrfError,
    },
    errors: [400, 404, 413],
  },
  {
    method: 'post',
    path: '/admin/workspaces/{id}/keys/{keyId}/revoke',
    operationId: 'adminRevokeKey',
    summary: 'Revoke an API key of a workspace',
    tags: ['admin'],
    security: 'admin-session',
    responses: {
      200: { description: 'Revoked (revoked_at set)', schema: keyRecordSchema },
      403: csrfError,
    },
    errors: [404],
  },
] as const satisfies readonly RouteSpec[];
