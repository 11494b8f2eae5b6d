/**
 * The OpenAPI 3.1 document served at `/api/v1/openapi.json` (DESIGN.md §11). Hand-written: the
 * request schemas mirror schemas.ts, the bundle is described loosely (its normative definition is the
 * certificate schema of `@saksi/proof`, docs/certificate.md).
 */

import { adminPaths, adminSecuritySchemes } from './openapi-admin.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });

const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      { description: ERROR_DESCRIPTIONS[status] ?? 'Error', content: json(ref('Error')) },
    ]),
  );

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input (`INVALID_INPUT`) or a body that is not JSON (`INVALID_JSON`)',
  403: 'The witness key is not trusted by this log (`WITNESS_UNKNOWN`)',
  404: 'Not found (`NOT_FOUND`)',
  413: 'Too large (`FILE_TOO_LARGE`, `BODY_TOO_LARGE`)',
  415: 'Not a format Saksi reads (`UNSUPPORTED_TYPE`), or not multipart (`UNSUPPORTED_MEDIA_TYPE`)',
  422: 'The file could not be ingested (`EMPTY_FILE`, `MALFORMED_FILE`, `ENCRYPTED_FILE`, `NO_TEXT`, `INGEST_FAILED`)',
  500: 'Server failure (`INTERNAL`); the message is generic',
};

const integerQuery = (name: string, description: string, required = false) => ({
  name,
  in: 'query',
  required,
  description,
  schema: { type: 'integer', minimum: 0 },
});

const idPath = (description: string) => ({
  name: 'id',
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});

const schemas = {
  Error: {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: {
            type: 'string',
            description: 'Stable machine-readable code, e.g. INVALID_INPUT, NOT_FOUND',
          },
          message: { type: 'string', description: 'What happened and what to do' },
        },
      },
    },
  },
  Citation: {
    type: 'object',
    properties: {
      document_title: { type: 'string' },
      page: { type: 'integer' },
      section_path: { type: 'array', items: { type: 'string' } },
      pasal: { type: 'string' },
      ayat: { type: 'string' },
      label: { type: 'string', description: 'How the citation reads, e.g. "Pasal 287 ayat (2) UU 22/2009"' },
      url: { type: 'string' },
    },
  },
  Bundle: {
    type: 'object',
    description:
      'A signed certificate with its log proof and cited chunks (schema saksi.certificate/v1; see docs/certificate.md).',
    required: ['certificate', 'signature', 'log', 'chunks'],
    properties: {
      certificate: {
        type: 'object',
        required: [
          'schema',
          'certificate_id',
          'issued_at',
          'issuer',
          'query',
          'retrieval',
          'answer',
          'claims',
          'policy',
        ],
        properties: {
          schema: { const: 'saksi.certificate/v1' },
          certificate_id: { type: 'string' },
          issued_at: { type: 'string', format: 'date-time' },
        },
        additionalProperties: true,
      },
      signature: { type: 'string', description: 'Ed25519 over the RFC 8785 canonical certificate, base64' },
      log: {
        type: 'object',
        required: ['origin', 'leaf_index', 'inclusion_proof', 'checkpoint', 'cosignatures'],
        properties: {
          origin: { type: 'string' },
          leaf_index: { type: 'integer' },
          inclusion_proof: { type: 'array', items: { type: 'string' } },
          checkpoint: { type: 'string', description: 'C2SP signed checkpoint note' },
          cosignatures: { type: 'array', items: { type: 'string' } },
        },
      },
      chunks: {
        type: 'array',
        items: { type: 'object', properties: { chunk_id: { type: 'string' }, text: { type: 'string' } } },
      },
    },
    additionalProperties: true,
  },
  ChatRequest: {
    type: 'object',
    required: ['collection'],
    description: 'Send `question` (or `message`). Unknown fields are ignored.',
    properties: {
      question: { type: 'string', maxLength: 4000 },
      message: { type: 'string', maxLength: 4000, description: 'Alias of question' },
      collection: { type: 'string' },
      session_id: { type: 'string', description: 'Continue a session returned earlier' },
      mode: { enum: ['full', 'selection'], default: 'full' },
      selection: { type: 'string', maxLength: 20000, description: 'Selected text (mode selection)' },
      page_url: { type: 'string' },
      top_k: { type: 'integer', minimum: 1, maximum: 50, default: 5 },
      document_type: { type: 'string' },
      fiscal_year: { type: 'integer' },
      stream: {
        type: 'boolean',
        description: 'Respond with Server-Sent Events (also: Accept: text/event-stream or ?stream=1)',
      },
    },
  },
  ResultSummary: {
    type: 'object',
    properties: {
      chunk_id: { type: 'string' },
      document_id: { type: 'string' },
      score: { type: 'number' },
      rank: { type: 'integer' },
      citation: ref('Citation'),
      snippet: { type: 'string' },
      context: { type: 'object', properties: { before: { type: 'string' }, after: { type: 'string' } } },
    },
  },
  ChatResponse: {
    type: 'object',
    required: ['session_id', 'answer', 'found', 'bundle', 'results', 'timings'],
    properties: {
      session_id: { type: 'string' },
      answer: { type: 'string' },
      found: { type: 'boolean', description: 'False when the documents hold no good evidence' },
      bundle: ref('Bundle'),
      results: { type: 'array', items: ref('ResultSummary') },
      timings: { type: 'object', additionalProperties: { type: 'number' } },
    },
  },
  QueryRequest: {
    type: 'object',
    required: ['question', 'collection'],
    properties: {
      question: { type: 'string', maxLength: 4000 },
      collection: { type: 'string' },
      top_k: { type: 'integer', minimum: 1, maximum: 50, default: 5 },
      document_type: { type: 'string' },
      fiscal_year: { type: 'integer' },
    },
  },
  QueryResult: {
    type: 'object',
    properties: {
      chunk_id: { type: 'string' },
      document_id: { type: 'string' },
      text: { type: 'string' },
      sha256: { type: 'string' },
      position: { type: 'integer' },
      kind: { type: 'string' },
      score: { type: 'number' },
      rank: { type: 'integer' },
      ranks: { type: 'object', additionalProperties: { type: 'integer' } },
      citation: ref('Citation'),
      legal: { type: ['object', 'null'] },
      table_html: { type: ['string', 'null'] },
      context_before: { type: 'string' },
      context_after: { type: 'string' },
      document: { type: 'object' },
      proof_path: { type: 'array', items: { type: 'string' } },
    },
  },
  QueryResponse: {
    type: 'object',
    required: ['results', 'parameters', 'timings'],
    properties: {
      results: { type: 'array', items: ref('QueryResult') },
      parameters: { type: 'object' },
      timings: { type: 'object', additionalProperties: { type: 'number' } },
    },
  },
  Document: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      collection: { type: 'string' },
      title: { type: 'string' },
      filename: { type: 'string' },
      mime: { type: 'string' },
      original_sha256: { type: 'string' },
      size: { type: 'integer' },
      status: { enum: ['PENDING', 'PROCESSING', 'READY', 'FAILED', 'ARCHIVED'] },
      root: { type: ['string', 'null'], description: 'RFC 6962 root over the chunk hashes, hex' },
      chunk_count: { type: 'integer' },
      pages: { type: ['integer', 'null'] },
      document_type: { type: ['string', 'null'] },
      fiscal_year: { type: ['integer', 'null'] },
      source: { type: ['string', 'null'] },
      metadata: { type: 'object' },
      created_at: { type: 'string' },
    },
  },
  IngestResponse: {
    type: 'object',
    required: ['document', 'job_id', 'deduplicated'],
    properties: { document: ref('Document'), job_id: { type: 'string' }, deduplicated: { type: 'boolean' } },
  },
  Verification: {
    type: 'object',
    description:
      'The result of verifyBundle (@saksi/proof): every check, integrity codes and per-claim render decisions.',
    required: ['verdict', 'checks', 'codes', 'claims', 'summary'],
    properties: {
      verdict: { enum: ['verified', 'failed'] },
      certificate_id: { type: ['string', 'null'] },
      checks: { type: 'array', items: { type: 'object' } },
      codes: { type: 'array', items: { type: 'string' } },
      claims: { type: 'array', items: { type: 'object' } },
      summary: { type: 'object' },
      checkpoint: { type: ['object', 'null'] },
    },
  },
  Checkpoint: {
    type: 'object',
    required: ['origin', 'size', 'root_hash', 'checkpoint', 'cosignatures'],
    properties: {
      origin: { type: 'string' },
      size: { type: 'integer' },
      root_hash: { type: 'string', description: 'hex' },
      checkpoint: { type: 'string', description: 'C2SP signed note' },
      cosignatures: { type: 'array', items: { type: 'string' } },
    },
  },
} as const;

const anchorStatusSchema = {
  type: 'object',
  description:
    'provider (local | evm | none), chain {provider, chain_id, contract, rpc_url (local chain only)}, documents per anchor state, ' +
    'rounds [{id, status BUILT|SENT|CONFIRMED, chain_id, contract, batch_root, size, log_size, tx_hash, block_number, block_timestamp, gas_used, attempts, last_error, created_at, explorer_url}], ' +
    'and for one document: document {id, title, root, anchor_state PENDING_ANCHOR|ANCHORING|ANCHORED, anchor (the certificate evidence anchor), explorer_url}',
} as const;

const paths = {
  '/api/v1/anchors': {
    get: {
      summary: 'Anchoring status: provider, chain, contract, documents per state and recent rounds',
      responses: { '200': { description: 'Status', content: json(anchorStatusSchema) } },
    },
  },
  '/api/v1/anchors/{document_id}': {
    get: {
      summary: "One document's anchor: state, round, transaction, block, batch root and batch proof",
      parameters: [{ name: 'document_id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': { description: 'Status with `document`', content: json(anchorStatusSchema) },
        ...errorResponses(404),
      },
    },
  },
  '/api/v1/health': {
    get: {
      summary: 'Health of the database and the log',
      responses: { '200': { description: 'Health', content: json({ type: 'object' }) } },
    },
  },
  '/api/v1/collections': {
    get: {
      summary: 'List collections',
      responses: {
        '200': {
          description: 'Collections',
          content: json({ type: 'object', properties: { items: { type: 'array' } } }),
        },
      },
    },
  },
  '/api/v1/chat': {
    post: {
      summary: 'Ask a question; the answer comes with its certificate bundle',
      description:
        'JSON by default. With `Accept: text/event-stream`, `?stream=1` or `"stream": true` the reply is Server-Sent Events: ' +
        '`session`, `retrieval`, `delta` (repeated), `bundle`, `done`; on failure an `error` event `{code, message}` and no bundle.',
      parameters: [{ name: 'stream', in: 'query', schema: { enum: ['1', 'true'] } }],
      requestBody: { required: true, content: json(ref('ChatRequest')) },
      responses: {
        '200': {
          description: 'The answer',
          content: { ...json(ref('ChatResponse')), 'text/event-stream': { schema: { type: 'string' } } },
        },
        ...errorResponses(400, 404, 413, 500),
      },
    },
  },
  '/api/v1/sessions/{id}': {
    get: {
      summary: "A chat session's messages in order; each answer carries its certificate id",
      parameters: [idPath('Session id (from the chat reply)')],
      responses: {
        '200': {
          description: 'The session',
          content: json({
            type: 'object',
            required: ['session_id', 'collection', 'messages'],
            properties: {
              session_id: { type: 'string' },
              collection: { type: ['string', 'null'] },
              messages: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['role', 'content', 'certificate_id', 'created_at'],
                  properties: {
                    role: { enum: ['user', 'assistant'] },
                    content: { type: 'string' },
                    certificate_id: { type: ['string', 'null'] },
                    created_at: { type: 'string', format: 'date-time' },
                  },
                },
              },
            },
          }),
        },
        ...errorResponses(404),
      },
    },
    delete: {
      summary: 'Delete a chat session and its messages (certificates and log entries stay)',
      parameters: [idPath('Session id')],
      responses: { '204': { description: 'Deleted' }, ...errorResponses(404) },
    },
  },
  '/api/v1/query': {
    post: {
      summary: 'Retrieval only: ranked chunks with citations, parent context, table HTML and timings',
      requestBody: { required: true, content: json(ref('QueryRequest')) },
      responses: {
        '200': { description: 'Results', content: json(ref('QueryResponse')) },
        ...errorResponses(400, 404, 413, 500),
      },
    },
  },
  '/api/v1/documents': {
    post: {
      summary: 'Upload a document (PDF, DOCX, Markdown, HTML, text)',
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file', 'collection'],
              properties: {
                file: { type: 'string', format: 'binary' },
                collection: { type: 'string', description: 'Created on first upload' },
                language: { enum: ['id', 'en'], description: 'Language of a new collection (default id)' },
                title: { type: 'string' },
                document_type: { type: 'string' },
                fiscal_year: { type: 'integer' },
                source: { type: 'string' },
              },
            },
          },
        },
      },
      responses: {
        '201': { description: 'Ingested', content: json(ref('IngestResponse')) },
        '200': {
          description: 'The same bytes were already in the collection (deduplicated)',
          content: json(ref('IngestResponse')),
        },
        ...errorResponses(400, 413, 415, 422, 500),
      },
    },
    get: {
      summary: 'List documents with filters and paging',
      parameters: [
        { name: 'collection', in: 'query', schema: { type: 'string' } },
        {
          name: 'status',
          in: 'query',
          schema: { enum: ['PENDING', 'PROCESSING', 'READY', 'FAILED', 'ARCHIVED'] },
        },
        { name: 'document_type', in: 'query', schema: { type: 'string' } },
        integerQuery('fiscal_year', 'Fiscal year'),
        integerQuery('limit', '1–100, default 20'),
        integerQuery('offset', 'Default 0'),
      ],
      responses: {
        '200': {
          description: 'A page of documents',
          content: json({
            type: 'object',
            required: ['items', 'total', 'limit', 'offset'],
            properties: {
              items: { type: 'array', items: ref('Document') },
              total: { type: 'integer' },
              limit: { type: 'integer' },
              offset: { type: 'integer' },
            },
          }),
        },
        ...errorResponses(400, 404),
      },
    },
  },
  '/api/v1/documents/{id}': {
    get: {
      summary: 'One document',
      parameters: [idPath('Document id')],
      responses: {
        '200': { description: 'The document', content: json(ref('Document')) },
        ...errorResponses(404),
      },
    },
    delete: {
      summary: 'Delete a document and its chunks',
      parameters: [idPath('Document id')],
      responses: { '204': { description: 'Deleted' }, ...errorResponses(404) },
    },
  },
  '/api/v1/verify': {
    post: {
      summary: 'Verify a bundle against this server’s keys (a failed verdict is still 200)',
      requestBody: {
        required: true,
        content: json({
          oneOf: [
            ref('Bundle'),
            {
              type: 'object',
              required: ['bundle'],
              properties: {
                bundle: ref('Bundle'),
                question: { type: 'string', description: 'The question actually asked (replay check)' },
                last_checkpoint: {
                  type: 'string',
                  description: 'The last checkpoint note the client saw (rollback/fork check)',
                },
              },
            },
          ],
        }),
      },
      responses: {
        '200': { description: 'The verification', content: json(ref('Verification')) },
        ...errorResponses(400, 413),
      },
    },
  },
  '/api/v1/certificates/{id}': {
    get: {
      summary: 'The bundle of a certificate',
      parameters: [idPath('Certificate id (UUIDv7)')],
      responses: {
        '200': { description: 'The bundle', content: json(ref('Bundle')) },
        ...errorResponses(404),
      },
    },
  },
  '/api/v1/log/checkpoint': {
    get: {
      summary: 'The latest signed checkpoint of the transparency log',
      responses: {
        '200': { description: 'Checkpoint', content: json(ref('Checkpoint')) },
        ...errorResponses(404),
      },
    },
  },
  '/api/v1/log/checkpoint.txt': {
    get: {
      summary: 'The latest checkpoint as a cosigned C2SP note',
      responses: {
        '200': { description: 'Note', content: { 'text/plain': { schema: { type: 'string' } } } },
        ...errorResponses(404),
      },
    },
  },
  '/api/v1/log/proof/inclusion': {
    get: {
      summary: 'RFC 9162 inclusion proof of a log entry',
      parameters: [
        integerQuery('leaf_index', 'Entry index', true),
        integerQuery('tree_size', 'Tree size (default: current)'),
      ],
      responses: {
        '200': {
          description: 'Proof (hex hashes)',
          content: json({
            type: 'object',
            properties: {
              leaf_index: { type: 'integer' },
              tree_size: { type: 'integer' },
              proof: { type: 'array', items: { type: 'string' } },
            },
          }),
        },
        ...errorResponses(400),
      },
    },
  },
  '/api/v1/log/proof/consistency': {
    get: {
      summary: 'RFC 9162 consistency proof between two tree sizes',
      parameters: [
        integerQuery('first', 'Smaller tree size', true),
        integerQuery('second', 'Larger tree size (default: current)'),
      ],
      responses: {
        '200': {
          description: 'Proof (hex hashes)',
          content: json({
            type: 'object',
            properties: {
              first: { type: 'integer' },
              second: { type: 'integer' },
              proof: { type: 'array', items: { type: 'string' } },
            },
          }),
        },
        ...errorResponses(400),
      },
    },
  },
  '/api/v1/log/cosignatures': {
    post: {
      summary: 'Add a witness cosignature to a stored checkpoint',
      description:
        'A witness that checked the checkpoint for consistency with the last one it cosigned (`saksi witness`) sends its ' +
        'C2SP tlog-cosignature line. It is stored when it verifies over the checkpoint of `size` with a witness key in ' +
        '/.well-known/saksi-keys.json, replacing an older line of the same key; bundles fetched later carry it. ' +
        'A line that is not a cosignature or does not verify is `COSIGNATURE_INVALID` (400).',
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['size', 'cosignature'],
          properties: {
            size: { type: 'integer', minimum: 1, description: 'Tree size of the cosigned checkpoint' },
            cosignature: {
              type: 'string',
              maxLength: 1000,
              description: 'The signature line `— <witness name> <base64>`, without its newline',
            },
          },
        }),
      },
      responses: {
        '200': {
          description: 'Stored; every cosignature line of that checkpoint',
          content: json({
            type: 'object',
            required: ['size', 'cosignatures'],
            properties: {
              size: { type: 'integer' },
              cosignatures: { type: 'array', items: { type: 'string' } },
            },
          }),
        },
        ...errorResponses(400, 403, 404, 413),
      },
    },
  },
  // C2SP tlog-tiles (https://c2sp.org/tlog-tiles): the log as static resources under one prefix.
  '/api/v1/log/tiles/checkpoint': {
    get: {
      summary: 'C2SP tlog-tiles checkpoint: the signed note with witness cosignature lines (not cached)',
      responses: {
        '200': {
          description: 'Note',
          content: { 'text/plain; charset=utf-8': { schema: { type: 'string' } } },
        },
        ...errorResponses(404),
      },
    },
  },
  '/api/v1/log/tiles/tile/{level}/{index}': {
    get: {
      summary: 'C2SP hash tile: up to 256 concatenated 32-byte hashes of tree level 8·level',
      description:
        'The path is `tile/<L>/<N>[.p/<W>]`: `<N>` in zero-padded 3-digit groups, all but the last prefixed with `x` (1234067 → `x001/x234/067`), `.p/<W>` for a partial tile of width 1–255. Full tiles are immutable (`Cache-Control: public, max-age=31536000, immutable`); partial tiles are not cached. 404 for a tile the latest checkpoint does not cover.',
      parameters: [
        { name: 'level', in: 'path', required: true, schema: { type: 'integer', minimum: 0, maximum: 63 } },
        {
          name: 'index',
          in: 'path',
          required: true,
          description: 'Encoded tile index, optionally followed by `.p/<W>` (contains `/`)',
          schema: { type: 'string', example: 'x001/234.p/5' },
        },
      ],
      responses: {
        '200': {
          description: 'Hash tile',
          content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
        },
        ...errorResponses(400, 404),
      },
    },
  },
  '/api/v1/log/tiles/tile/entries/{index}': {
    get: {
      summary:
        'C2SP entry bundle: the leaf inputs of up to 256 entries, each a big-endian uint16 length and its bytes',
      description:
        'Same index encoding and caching as hash tiles; each entry hashes to the matching hash of the level-0 tile.',
      parameters: [
        {
          name: 'index',
          in: 'path',
          required: true,
          description: 'Encoded tile index, optionally followed by `.p/<W>` (contains `/`)',
          schema: { type: 'string', example: '000.p/44' },
        },
      ],
      responses: {
        '200': {
          description: 'Entry bundle',
          content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
        },
        ...errorResponses(400, 404),
      },
    },
  },
  ...adminPaths,
  '/api/v1/openapi.json': {
    get: {
      summary: 'This document',
      responses: { '200': { description: 'OpenAPI 3.1', content: json({ type: 'object' }) } },
    },
  },
  '/.well-known/saksi-keys.json': {
    get: {
      summary: 'Public keys to pin: certificate issuers, the log, witnesses',
      responses: { '200': { description: 'Trusted keys', content: json({ type: 'object' }) } },
    },
  },
};

/** The OpenAPI 3.1 document (a fresh object each call). */
export function openApiDocument(): Record<string, unknown> {
  return structuredClone({
    openapi: '3.1.0',
    info: {
      title: 'Saksi API',
      version: '1',
      description:
        'Answers from official documents, each with a proof anyone can check. Errors are JSON `{"error": {"code", "message"}}` with the HTTP status.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    paths,
    components: { schemas, securitySchemes: adminSecuritySchemes },
  });
}
