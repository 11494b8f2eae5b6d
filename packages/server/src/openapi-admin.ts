/**
 * The admin part of the OpenAPI document (`/api/v1/admin/*`, routes/admin.ts): cookie sessions and
 * the CSRF header, kept apart from openapi.ts so the admin surface reads in one place.
 */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });
const error = (description: string) => ({ description, content: json(ref('Error')) });

const unauthenticated = error('No session (`UNAUTHENTICATED`) or an expired one (`SESSION_EXPIRED`)');
const csrf = error('Missing or wrong `X-CSRF-Token` header (`CSRF_INVALID`)');
const notFound = error('No such document (`NOT_FOUND`)');
const withCsrf = [{ adminSession: [], csrfToken: [] }];
const sessionOnly = [{ adminSession: [] }];

const AdminIdentity = {
  type: 'object',
  required: ['email', 'csrf_token'],
  properties: {
    email: { type: 'string' },
    csrf_token: { type: 'string', description: 'Send as X-CSRF-Token on every non-GET admin request' },
  },
};

const AdminDocument = {
  allOf: [
    ref('Document'),
    {
      type: 'object',
      properties: {
        anchor_state: { enum: ['PENDING_ANCHOR', 'ANCHORING', 'ANCHORED'] },
        anchor: {
          type: ['object', 'null'],
          description: 'The confirmed on-chain anchor, or null',
          properties: {
            chain_id: { type: 'integer' },
            tx_hash: { type: 'string' },
            block_number: { type: 'integer' },
            explorer_url: { type: ['string', 'null'], description: 'null for the local chain' },
          },
        },
      },
    },
  ],
};

const documentId = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'Document id',
  schema: { type: 'string' },
};

const query = (name: string, schema: Record<string, unknown>) => ({
  name,
  in: 'query',
  required: false,
  schema,
});

export const adminSecuritySchemes = {
  adminSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'saksi_session',
    description: 'Set by POST /api/v1/admin/login (HttpOnly, SameSite=Strict, 12 hours)',
  },
  csrfToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRF-Token',
    description: 'The csrf_token from login or /admin/me; required on non-GET admin requests',
  },
};

export const adminPaths = {
  '/api/v1/admin/login': {
    post: {
      summary: 'Sign in as an admin: sets the saksi_session cookie',
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['email', 'password'],
          properties: { email: { type: 'string' }, password: { type: 'string' } },
        }),
      },
      responses: {
        '200': { description: 'Signed in; Set-Cookie saksi_session', content: json(AdminIdentity) },
        '400': error('Invalid input (`INVALID_INPUT`, `INVALID_JSON`)'),
        '401': error('Email or password is wrong (`LOGIN_FAILED`; the same for both)'),
        '429': {
          description:
            'More than 5 failed attempts in 15 minutes for this address or email (`RATE_LIMITED`); see Retry-After',
          headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait' } },
          content: json(ref('Error')),
        },
      },
    },
  },
  '/api/v1/admin/logout': {
    post: {
      summary: 'Sign out: deletes the session and clears the cookie',
      responses: { '204': { description: 'Signed out' } },
    },
  },
  '/api/v1/admin/me': {
    get: {
      summary: 'The signed-in admin and the session CSRF token',
      security: sessionOnly,
      responses: {
        '200': { description: 'Signed in', content: json(AdminIdentity) },
        '401': unauthenticated,
      },
    },
  },
  '/api/v1/admin/documents': {
    get: {
      summary: 'List documents (all statuses) with their anchors',
      security: sessionOnly,
      parameters: [
        query('collection', { type: 'string' }),
        query('document_type', { enum: ['APBN', 'APBD', 'other'] }),
        query('fiscal_year', { type: 'integer' }),
        query('status', { enum: ['PENDING', 'PROCESSING', 'READY', 'FAILED', 'ARCHIVED'] }),
        query('limit', { type: 'integer', minimum: 1, maximum: 100, default: 20 }),
        query('offset', { type: 'integer', minimum: 0, default: 0 }),
      ],
      responses: {
        '200': {
          description: 'A page of documents, newest first',
          content: json({
            type: 'object',
            required: ['items', 'total', 'limit', 'offset'],
            properties: {
              items: { type: 'array', items: AdminDocument },
              total: { type: 'integer' },
              limit: { type: 'integer' },
              offset: { type: 'integer' },
            },
          }),
        },
        '400': error('Invalid query (`INVALID_INPUT`)'),
        '401': unauthenticated,
      },
    },
    post: {
      summary: 'Upload a document; with Accept: text/event-stream, ingestion progress as SSE',
      description:
        'SSE events: `progress` {stage: parsing|chunking|embedding|storing, progress: 0..1}, then `done` {document, deduplicated} or `error` {code, message} (the parser code, e.g. MALFORMED_FILE; nothing is stored).',
      security: withCsrf,
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file', 'collection'],
              properties: {
                file: { type: 'string', format: 'binary' },
                collection: { type: 'string' },
                document_type: { enum: ['APBN', 'APBD', 'other'] },
                fiscal_year: { type: 'integer' },
                source: { type: 'string' },
                language: { enum: ['id', 'en'] },
                title: { type: 'string' },
              },
            },
          },
        },
      },
      responses: {
        '200': {
          description: 'Server-Sent Events (when asked for with Accept: text/event-stream)',
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        },
        '201': {
          description: 'Ingested (or already present: deduplicated true)',
          content: json({
            type: 'object',
            required: ['document', 'deduplicated'],
            properties: { document: ref('Document'), deduplicated: { type: 'boolean' } },
          }),
        },
        '400': error('Invalid fields (`INVALID_INPUT`)'),
        '401': unauthenticated,
        '403': csrf,
        '413': error('Too large (`FILE_TOO_LARGE`)'),
        '415': error(
          'Not multipart (`UNSUPPORTED_MEDIA_TYPE`) or not a format Saksi reads (`UNSUPPORTED_TYPE`)',
        ),
        '422': error('The file could not be ingested (`MALFORMED_FILE`, `EMPTY_FILE`, `NO_TEXT`, …)'),
      },
    },
  },
  '/api/v1/admin/documents/{id}': {
    delete: {
      summary: 'Delete a document, its chunks and proofs',
      security: withCsrf,
      parameters: [documentId],
      responses: { '204': { description: 'Deleted' }, '401': unauthenticated, '403': csrf, '404': notFound },
    },
  },
  '/api/v1/admin/documents/{id}/archive': {
    post: {
      summary: 'Archive a READY document: it is no longer retrieved',
      security: withCsrf,
      parameters: [documentId],
      responses: {
        '200': {
          description: 'Archived',
          content: json({ type: 'object', properties: { document: ref('Document') } }),
        },
        '401': unauthenticated,
        '403': csrf,
        '404': notFound,
        '409': error('The document is not READY (`CONFLICT`)'),
      },
    },
  },
  '/api/v1/admin/documents/{id}/restore': {
    post: {
      summary: 'Restore an ARCHIVED document: it is retrieved again',
      security: withCsrf,
      parameters: [documentId],
      responses: {
        '200': {
          description: 'Restored',
          content: json({ type: 'object', properties: { document: ref('Document') } }),
        },
        '401': unauthenticated,
        '403': csrf,
        '404': notFound,
        '409': error('The document is not ARCHIVED (`CONFLICT`)'),
      },
    },
  },
};
