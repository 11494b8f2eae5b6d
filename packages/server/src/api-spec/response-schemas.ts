/**
 * Response shapes of the v1 API (docs/api.md) as zod schemas, for the OpenAPI document. They
 * say what a client can rely on; the server may add fields. The certificate bundle and the verifier's
 * report are described loosely: their normative definitions are the certificate schema and
 * `verifyBundle` of `@saksi/proof` (docs/certificate.md, docs/verification.md).
 */
import { z } from 'zod';
import { glossarySchema } from './request-schemas.js';

const timestamp = z.string().describe('ISO 8601 timestamp');
const nullableTimestamp = timestamp.nullable();
const hex = z.string().regex(/^[0-9a-f]*$/);

export const errorSchema = z
  .object({
    error: z.object({
      code: z.string().describe('Stable machine-readable code, e.g. INVALID_INPUT, NOT_FOUND'),
      message: z.string().describe('What happened and what to do'),
      message_id: z.string().optional().describe('The same message in Indonesian, where there is one'),
    }),
  })
  .meta({ id: 'Error' });

export const healthSchema = z
  .object({
    status: z
      .enum(['ok', 'degraded'])
      .describe(
        '`degraded` when the database does not answer, the chain RPC of local/evm anchoring does not, or a configured read replica serves no reads',
      ),
    version: z.string(),
    database: z.object({
      kind: z.enum(['pglite', 'postgres']),
      ok: z.boolean().describe('Whether a query answered'),
      name: z.enum(['PGlite', 'PostgreSQL']),
      latency_ms: z.number().nullable(),
      replica: z
        .object({
          state: z.enum(['ok', 'lagging', 'unreachable', 'not_replica', 'unknown']),
          serving_reads: z.boolean().describe('Reads go to the replica now; otherwise to the primary'),
          lag_seconds: z.number().nullable(),
          lag_bytes: z.number().nullable(),
          max_lag_seconds: z.number(),
          checked_at: z.string().nullable(),
          error: z.string().nullable(),
        })
        .nullable()
        .describe('The read replica of DATABASE_READ_URL (docs/scaling.md); null without one'),
    }),
    log: z.object({
      origin: z.string(),
      size: z.number().int(),
      signer: z.object({
        loaded: z.boolean().describe('The signer in memory is the log key the well-known keys publish'),
        key_id: z.string().describe('The signed-note key ID, 8 hex digits'),
      }),
    }),
    anchor: z.object({
      provider: z.string(),
      running: z.boolean(),
      chain_id: z.number().int().nullable(),
      contract: z.string().nullable(),
    }),
    chain: z
      .object({
        provider: z.enum(['local', 'evm', 'none']),
        state: z.enum(['reachable', 'unreachable', 'not_started', 'none']),
        block_number: z.number().int().nullable(),
        latency_ms: z.number().nullable(),
        checked_at: nullableTimestamp.describe('When the probe ran (results are reused for 5 s)'),
        error: z.enum(['TIMEOUT', 'UNREACHABLE', 'HTTP_ERROR', 'BAD_RESPONSE']).nullable(),
      })
      .describe('The chain JSON-RPC endpoint (eth_blockNumber, 1.5 s timeout); never its URL'),
    anchoring: z.object({
      waiting: z.number().int().describe('READY documents whose root is not yet anchored'),
      oldest_waiting_since: nullableTimestamp,
      lag_seconds: z
        .number()
        .nullable()
        .describe('How long the oldest has waited; null when none or anchoring is off'),
    }),
  })
  .meta({ id: 'Health' });

export const quotasSchema = z
  .object({
    max_document_bytes: z.number().int().optional(),
    max_pages: z.number().int().optional(),
    max_storage_bytes: z.number().int().optional(),
  })
  .meta({ id: 'WorkspaceQuotas', description: 'Overrides of the configured quotas' });

export const workspaceSchema = z
  .object({ id: z.string(), name: z.string(), quotas: quotasSchema, created_at: timestamp })
  .meta({ id: 'Workspace' });

export const scopeSchema = z.enum(['read', 'ingest', 'admin']).meta({ id: 'Scope' });

export const apiKeySchema = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    name: z.string(),
    prefix: z.string().describe('The visible start of the key, e.g. saksi_AbCdEfGh'),
    scopes: z.array(scopeSchema),
    created_at: timestamp,
    last_used_at: nullableTimestamp,
    revoked_at: nullableTimestamp,
  })
  .meta({ id: 'ApiKey', description: 'An API key record: never the secret or its hash' });

export const createdKeySchema = z
  .object({
    key: z.string().describe('The secret key, shown only this once: saksi_<43 base64url characters>'),
    record: apiKeySchema,
  })
  .meta({ id: 'CreatedKey' });

export const createdWorkspaceSchema = z
  .object({ workspace: workspaceSchema, api_key: createdKeySchema })
  .meta({ id: 'CreatedWorkspace' });

export const workspaceInfoSchema = z
  .object({
    workspace: workspaceSchema,
    principal: z.object({ key_id: z.string().nullable(), scopes: z.array(scopeSchema) }),
    quotas: z.object({
      max_document_bytes: z.number().int(),
      max_pages: z.number().int(),
      max_storage_bytes: z.number().int(),
    }),
    usage: z.object({ documents: z.number().int(), storage_bytes: z.number().int() }),
  })
  .meta({ id: 'WorkspaceInfo' });

export const keyListSchema = z.object({ items: z.array(apiKeySchema) });
export const keyRecordSchema = z.object({ record: apiKeySchema });

/** A text per interface language; a language without one is absent. */
const localizedText = z.object({ id: z.string().optional(), en: z.string().optional() });

export const collectionInfoSchema = z
  .object({
    name: z.string(),
    language: z.enum(['id', 'en']),
    public: z.boolean(),
    domain: z.string(),
    base_url: z.string().nullable().describe('The site citations link to, or null'),
    title: localizedText.describe('A human name per interface language; empty when unset (show `name`)'),
    description: localizedText.describe('One line on what the collection holds, per interface language'),
    examples: z
      .object({ id: z.array(z.string()).optional(), en: z.array(z.string()).optional() })
      .describe('Example questions per interface language (the chat offers them as a first step)'),
    documents: z.number().int(),
    embedding: z.object({ provider: z.string(), model: z.string(), dimensions: z.number().int() }),
  })
  .meta({ id: 'CollectionInfo' });

export const collectionListSchema = z.object({ items: z.array(collectionInfoSchema) });

/** `GET`/`PUT /collections/{name}/glossary` (docs/glossary.md). */
export const collectionGlossarySchema = z.object({
  collection: z.string(),
  glossary: glossarySchema.nullable().describe('The glossary as stored, or null: the collection has none'),
  sha256: z
    .string()
    .nullable()
    .describe("SHA-256 (hex) of the glossary's RFC 8785 canonical JSON, as certificates record it"),
});
/** `GET`/`PUT /collections/{name}/calibration` (docs/evaluation.md, "Calibrating a collection"). */
export const collectionCalibrationSchema = z.object({
  collection: z.string(),
  calibration: z
    .object({
      questions: z.number().int(),
      answerable: z.number().int(),
      calibrated_at: z.string().describe('When the questions were asked (ISO 8601)'),
      sha256: z
        .string()
        .describe("SHA-256 of the calibration's RFC 8785 canonical JSON, as certificates record it"),
      alpha: z.number().describe("The risk answers are released at: the collection's answer_risk, else 0.05"),
      threshold: z.number().describe('The check score from which answers are released (1: none is)'),
      released: z.number().int().describe('Calibration questions released at that threshold'),
      released_wrong: z.number().int().describe('Of them, those whose answer was wrong'),
    })
    .nullable()
    .describe(
      'null: the collection is not calibrated on its own questions (the strictest demo threshold applies)',
    ),
});
const packIds = z.array(z.string());
export const collectionPacksSchema = z.object({
  collection: z.string(),
  override: packIds.nullable().describe('The packs an admin chose, or null: they are detected'),
  detected: packIds.describe(
    "The kinds of documents detected in a sample of the collection's READY documents (plain when none)",
  ),
  active: packIds.describe('The packs that contribute: the override, else every pack, each per document'),
});
export const createdCollectionSchema = z.object({ collection: collectionInfoSchema });

const failure = z.object({ code: z.string(), message: z.string() }).nullable();

export const documentStatusSchema = z
  .enum(['PENDING', 'PROCESSING', 'READY', 'FAILED', 'ARCHIVED'])
  .meta({ id: 'DocumentStatus' });

export const documentSchema = z
  .object({
    id: z.string(),
    collection: z.string(),
    title: z.string(),
    filename: z.string(),
    mime: z.string(),
    original_sha256: hex,
    size: z.number().int(),
    status: documentStatusSchema,
    stage: z
      .string()
      .nullable()
      .describe('The ingestion stage last reached (parsing, chunking, embedding, storing, done)'),
    progress: z.number().min(0).max(1).describe('0–1'),
    error: failure.describe('Why ingestion failed (status FAILED)'),
    root: hex.nullable().describe('RFC 6962 root over the chunk hashes, hex'),
    chunk_count: z.number().int(),
    pages: z.number().int().nullable(),
    document_type: z.string().nullable(),
    fiscal_year: z.number().int().nullable(),
    source: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    anchor_state: z.enum(['PENDING_ANCHOR', 'ANCHORING', 'ANCHORED']),
    created_at: timestamp,
    job_id: z.string().nullable().describe('The latest ingestion job'),
  })
  .meta({ id: 'Document' });

export const jobSchema = z
  .object({
    id: z.string(),
    kind: z.literal('ingest'),
    status: z.enum(['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED']),
    stage: z.string().nullable(),
    progress: z.number().min(0).max(1),
    attempts: z.number().int(),
    max_attempts: z.number().int(),
    error: failure,
    document_id: z.string().nullable(),
    created_at: timestamp,
    updated_at: timestamp,
    finished_at: nullableTimestamp,
  })
  .meta({ id: 'Job' });

const page = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  });

export const documentPageSchema = page(documentSchema);
export const jobPageSchema = page(jobSchema);

export const ingestAcceptedSchema = z
  .object({
    document: documentSchema,
    job: jobSchema,
    deduplicated: z.boolean().describe('True when the same bytes were already in the workspace'),
  })
  .meta({ id: 'IngestAccepted' });

export const createdUploadSchema = z
  .object({
    upload: z.object({ id: z.string(), status: z.literal('CREATED'), expires_at: timestamp }),
    upload_url: z.string().describe('Absolute URL with a one-use ?token=…; PUT the bytes there, no API key'),
    method: z.literal('PUT'),
  })
  .meta({ id: 'CreatedUpload' });

export const uploadedSchema = z
  .object({
    upload: z.object({ id: z.string(), status: z.literal('UPLOADED'), size: z.number().int(), sha256: hex }),
  })
  .meta({ id: 'Uploaded' });

export const webhookEventSchema = z.enum(['document.ready', 'document.failed']).meta({ id: 'WebhookEvent' });

export const webhookSchema = z
  .object({ id: z.string(), url: z.string(), events: z.array(webhookEventSchema), created_at: timestamp })
  .meta({ id: 'Webhook' });

export const createdWebhookSchema = z
  .object({
    webhook: webhookSchema,
    secret: z.string().describe('whsec_…, shown only this once; verifies Saksi-Signature'),
  })
  .meta({ id: 'CreatedWebhook' });

export const webhookListSchema = z.object({ items: z.array(webhookSchema) });

export const deliverySchema = z
  .object({
    id: z.string(),
    event_id: z.string().describe('Stable across retries (the Saksi-Delivery header)'),
    event: webhookEventSchema,
    status: z.enum(['PENDING', 'DELIVERED', 'FAILED']),
    attempts: z.number().int(),
    last_status: z
      .number()
      .int()
      .nullable()
      .describe("The receiver's HTTP status of the last attempt; null when no HTTP answer came"),
    last_error: z
      .string()
      .nullable()
      .describe(
        '"Delivery failed." after a failed attempt, null once delivered; never the reply or the reason',
      ),
    next_attempt_at: nullableTimestamp,
    delivered_at: nullableTimestamp,
    created_at: timestamp,
  })
  .meta({ id: 'Delivery' });

export const deliveryListSchema = z.object({ items: z.array(deliverySchema) });

export const citationSchema = z
  .object({
    document_name: z.string().optional(),
    document_title: z.string(),
    page: z.number().int().nullable().optional(),
    section_header: z.string().nullable().optional(),
    section_path: z.array(z.string()).optional().describe('Section hierarchy, outermost first'),
    pasal: z.string().optional(),
    ayat: z.string().optional(),
    label: z.string().optional().describe('How the citation reads, e.g. "Pasal 287 ayat (2) UU 22/2009"'),
    url: z
      .string()
      .optional()
      .describe("The page and heading on the collection's site (`<page>#<anchor>`), when it has a base URL"),
    mime: z
      .string()
      .optional()
      .describe(
        "The cited document's media type (text/markdown, text/plain, application/pdf, text/html, …): only a Markdown document's text may be read as Markdown",
      ),
  })
  .meta({ id: 'Citation' });

export const sourceCitationSchema = citationSchema
  .extend({
    document_name: z.string().describe("The uploaded file's name"),
    page: z.number().int().nullable(),
    section_header: z.string().nullable().describe('The innermost section heading, or null'),
    section_path: z.array(z.string()).describe('Section hierarchy, outermost first'),
    mime: z
      .string()
      .describe("The cited document's media type: only a Markdown document's text may be read as Markdown"),
  })
  .meta({
    id: 'SourceCitation',
    description:
      'The citation of a query result or a document chunk: always names the document, its media type and the place',
  });

export const queryResultSchema = z
  .object({
    id: z.string().describe('Chunk id'),
    document_id: z.string(),
    text: z.string(),
    score: z.number().describe('Reciprocal rank fusion score'),
    rank: z.number().int(),
    ranks: z.record(z.string(), z.number().int()).describe('Rank in each retrieval arm'),
    kind: z.string(),
    token_count: z.number().int(),
    context: z.object({ before: z.string(), after: z.string() }),
    citation: sourceCitationSchema,
    table_html: z.string().nullable(),
    chunk_hash: hex,
    document: z.object({
      id: z.string(),
      root: hex,
      chunk_count: z.number().int(),
      filename: z.string(),
      document_type: z.string().nullable(),
      fiscal_year: z.number().int().nullable(),
    }),
    proof: z.object({
      algorithm: z.literal('rfc6962-sha256'),
      leaf_index: z.number().int(),
      tree_size: z.number().int(),
      path: z.array(hex),
      root: hex,
    }),
  })
  .meta({ id: 'QueryResult' });

export const chunkSchema = queryResultSchema.partial({ score: true, rank: true, ranks: true }).meta({
  id: 'Chunk',
  description: 'A chunk as GET /documents/{id}/chunks lists it: a query result without the ranking fields',
});

export const chunkPageSchema = page(chunkSchema);

export const queryResponseSchema = z
  .object({
    results: z.array(queryResultSchema),
    hybrid: z.boolean(),
    timings: z.object({
      embed_ms: z.number(),
      lexical_ms: z.number(),
      vector_ms: z.number(),
      fuse_ms: z.number(),
      total_ms: z.number(),
    }),
    tokens: z.object({ question: z.number().int(), results: z.number().int() }),
    parameters: z.object({
      top_k: z.number().int(),
      rrf_k: z.number().int(),
      weights: z.record(z.string(), z.number()),
      rewrite_variants: z.array(z.unknown()),
    }),
  })
  .meta({ id: 'QueryResponse' });

export const certificateSchema = z
  .looseObject({
    schema: z.enum(['saksi.certificate/v1', 'saksi.certificate/v1.1', 'saksi.certificate/v1.2']),
    certificate_id: z.string(),
    issued_at: timestamp,
  })
  .meta({
    id: 'Certificate',
    description:
      'An answer certificate: its normative fields are in docs/certificate.md (the certificate schema of @saksi/proof)',
  });

export const bundleSchema = z
  .looseObject({
    certificate: certificateSchema,
    signature: z.string().describe('Ed25519 over the RFC 8785 canonical certificate, base64'),
    log: z.looseObject({
      origin: z.string(),
      leaf_index: z.number().int(),
      inclusion_proof: z.array(z.string()),
      checkpoint: z.string().describe('C2SP signed checkpoint note'),
      cosignatures: z.array(z.string()),
    }),
    chunks: z.array(z.looseObject({ chunk_id: z.string(), text: z.string() })),
  })
  .meta({
    id: 'Bundle',
    description:
      'A signed certificate with its log proof and cited chunks (schema saksi.certificate/v1.2, or v1.1 or v1 for older answers; see docs/certificate.md).',
  });

export const verifiableCredentialSchema = z
  .looseObject({
    '@context': z.tuple([
      z.literal('https://www.w3.org/ns/credentials/v2'),
      z.literal('https://saksi.dev/ns/certificate/v1'),
    ]),
    id: z.string().describe('urn:uuid:<certificate_id>'),
    type: z.tuple([z.literal('VerifiableCredential'), z.literal('SaksiAnswerCertificate')]),
    issuer: z.string().describe('The did:key of the issuer key'),
    validFrom: timestamp,
    credentialSubject: z.object({
      id: z.string(),
      certificate: certificateSchema.describe('The certificate, unchanged'),
    }),
    proof: z.looseObject({
      type: z.literal('DataIntegrityProof'),
      cryptosuite: z.literal('eddsa-jcs-2022'),
      created: timestamp.optional(),
      verificationMethod: z.string(),
      proofPurpose: z.string(),
      proofValue: z.string().describe('Multibase base58btc Ed25519 signature'),
    }),
  })
  .meta({
    id: 'VerifiableCredential',
    description:
      'A certificate as a W3C Verifiable Credential (VC Data Model 2.0) with an eddsa-jcs-2022 Data Integrity proof by the issuer key (docs/certificate.md).',
  });

export const resultSummarySchema = z
  .object({
    chunk_id: z.string(),
    document_id: z.string(),
    score: z.number(),
    rank: z.number().int(),
    kind: z
      .string()
      .describe('What the chunk is: `text`, `table` or `code` (a code block, shown with its lines kept)'),
    citation: citationSchema,
    snippet: z.string(),
    context: z.object({ before: z.string(), after: z.string() }),
  })
  .meta({ id: 'ResultSummary' });

export const chatVerdictSchema = z
  .object({
    outcome: z
      .enum(['answered', 'related', 'refused'])
      .describe(
        '`answered` when the certificate says answered and its answer check passes; `related` for related passages, not a confirmed answer (the certificate says related, or answered below its threshold); `refused` when Saksi declined to answer',
      ),
    answers_question: z
      .boolean()
      .describe('True only for `answered`: the signed answer check scores at or above its threshold'),
    check: z
      .object({
        score: z.number().describe('The answer check’s score, 0 to 1'),
        threshold: z.number().describe('The calibrated release threshold'),
        alpha: z
          .number()
          .describe(
            'The risk the threshold was calibrated for: at most this share of released answers were wrong',
          ),
        method: z.object({ id: z.string(), version: z.string() }),
      })
      .optional()
      .describe(
        'The certificate’s answer check (certificate v1.2); absent for a refusal and for older certificates',
      ),
    view: z
      .literal('server')
      .describe(
        'Read by the server from the signed certificate, not a verification: verify the bundle to rely on it',
      ),
  })
  .meta({
    id: 'ChatVerdict',
    description:
      'The server’s view of the answer, from its signed certificate: which of the three outcomes it states (docs/api.md, "POST /api/v1/chat").',
  });

export const chatResponseSchema = z
  .looseObject({
    session_id: z.string(),
    answer: z.string(),
    found: z.boolean().describe('False when the documents hold no good evidence'),
    cached: z
      .boolean()
      .describe(
        'The earlier answer to the same question on unchanged content, in a certificate issued again for this asker',
      ),
    bundle: bundleSchema,
    results: z.array(resultSummarySchema),
    timings: z.record(z.string(), z.number()),
    verdict: chatVerdictSchema,
  })
  .meta({ id: 'ChatResponse' });

export const chatSessionSchema = z
  .object({
    session_id: z.string(),
    collection: z.string().nullable(),
    messages: z.array(
      z.object({
        role: z.enum(['user', 'assistant']),
        content: z.string(),
        certificate_id: z.string().nullable(),
        created_at: timestamp,
      }),
    ),
  })
  .meta({ id: 'ChatSession' });

export const verificationSchema = z
  .looseObject({
    verdict: z.enum(['verified', 'failed']),
    certificate_id: z.string().nullable(),
    checks: z.array(z.record(z.string(), z.unknown())),
    codes: z.array(z.string()),
    claims: z.array(z.record(z.string(), z.unknown())),
    summary: z.record(z.string(), z.unknown()),
    checkpoint: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({
    id: 'Verification',
    description:
      'The result of verifyBundle (@saksi/proof): every check, integrity codes and per-claim render decisions.',
  });

export const checkpointSchema = z
  .object({
    origin: z.string(),
    size: z.number().int(),
    root_hash: hex.describe('hex'),
    checkpoint: z.string().describe('C2SP signed note'),
    cosignatures: z.array(z.string()),
  })
  .meta({ id: 'Checkpoint' });

export const inclusionProofSchema = z.object({
  leaf_index: z.number().int(),
  tree_size: z.number().int(),
  proof: z.array(hex),
});

export const consistencyProofSchema = z.object({
  first: z.number().int(),
  second: z.number().int(),
  proof: z.array(hex),
});

export const cosignaturesSchema = z.object({ size: z.number().int(), cosignatures: z.array(z.string()) });

export const anchorStatusSchema = z
  .looseObject({
    provider: z.enum(['local', 'evm', 'none']),
    chain: z
      .object({
        provider: z.string(),
        chain_id: z.number().int(),
        contract: z.string(),
        rpc_url: z.string().nullable().describe('Local chain only'),
      })
      .nullable(),
    documents: z.record(z.string(), z.number().int()).describe('READY documents per anchor state'),
    rounds: z.array(
      z.looseObject({
        id: z.string(),
        status: z.enum(['BUILT', 'SENT', 'CONFIRMED']),
        explorer_url: z.string().nullable(),
      }),
    ),
    document: z
      .looseObject({
        id: z.string(),
        title: z.string(),
        root: hex.nullable(),
        anchor_state: z.enum(['PENDING_ANCHOR', 'ANCHORING', 'ANCHORED']),
        anchor: z.record(z.string(), z.unknown()).nullable().describe('The certificate evidence anchor'),
        explorer_url: z.string().nullable(),
      })
      .optional(),
  })
  .meta({
    id: 'AnchorStatus',
    description:
      'provider, chain, documents per anchor state and recent rounds (id, status, chain_id, contract, batch_root, size, log_size, tx_hash, block_number, block_timestamp, gas_used, attempts, last_error, created_at, explorer_url); for one document also `document`.',
  });

export const trustedKeysSchema = z
  .record(z.string(), z.unknown())
  .describe('Public keys to pin: certificate issuers, the log, witnesses');

export const openApiSchema = z.record(z.string(), z.unknown()).describe('OpenAPI 3.1');

export const adminIdentitySchema = z
  .object({
    email: z.string(),
    csrf_token: z.string().describe('Send as X-CSRF-Token on every non-GET admin request'),
  })
  .meta({ id: 'AdminIdentity' });

export const adminDocumentSchema = z
  .object({
    ...documentSchema.shape,
    anchor: z
      .object({
        chain_id: z.number().int(),
        tx_hash: z.string(),
        block_number: z.number().int(),
        explorer_url: z.string().nullable().describe('null for the local chain'),
      })
      .nullable()
      .describe('The confirmed on-chain anchor, or null'),
  })
  .meta({ id: 'AdminDocument' });

export const adminDocumentPageSchema = page(adminDocumentSchema);

export const adminIngestSchema = z.object({ document: documentSchema, deduplicated: z.boolean() });
export const adminDocumentResultSchema = z.object({ document: documentSchema });

export const feedbackResultSchema = z
  .object({
    feedback: z.object({
      certificate_id: z.string(),
      rating: z.enum(['up', 'down']),
      comment: z.string().nullable(),
      created_at: timestamp.describe('When this submitter first gave feedback on the certificate'),
      updated_at: timestamp,
    }),
    replaced: z.boolean().describe("This replaced the submitter's earlier feedback on the certificate"),
  })
  .meta({ id: 'Feedback' });

const usageFigures = {
  questions: z.int().describe('Certificates issued: questions answered or refused'),
  answered: z.int(),
  refused: z.int(),
  refusal_rate: z.number().nullable().describe('refused / questions; null without questions'),
  with_feedback: z.int().describe('Certificates with at least one feedback'),
  feedback_rate: z.number().nullable().describe('with_feedback / questions; null without questions'),
  up: z.int(),
  down: z.int(),
  latency: z.object({
    measured: z.int().describe('Certificates whose latency is known (null for older ones)'),
    p50_ms: z.int().nullable(),
    p95_ms: z.int().nullable(),
    mean_ms: z.int().nullable(),
  }),
};

export const usageReportSchema = z
  .object({
    workspace_id: z.string(),
    collection: z.string().nullable().describe('null: every collection of the workspace'),
    period: z.object({
      from: z.string().describe('First day, YYYY-MM-DD'),
      to: z.string().describe('Last day (today), YYYY-MM-DD'),
      days: z.int(),
      time_zone: z.string(),
    }),
    totals: z.object(usageFigures),
    days: z.array(z.object({ date: z.string(), ...usageFigures })),
    top_refused: z.array(
      z.object({
        question: z.string().describe('The newest wording'),
        count: z.int(),
        last_asked_at: timestamp,
      }),
    ),
    collections: z.array(z.string()).describe("The workspace's collections"),
  })
  .meta({ id: 'UsageReport' });
