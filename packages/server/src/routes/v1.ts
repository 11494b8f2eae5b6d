/**
 * The developer API (docs/api.md): workspaces and keys, collections,
 * asynchronous document ingestion with jobs, two-step uploads, completion webhooks, and retrieval
 * with full-fidelity results. Every route here needs an API key (or an admin session) and touches
 * only the caller's workspace: another workspace's ids are simply not found. Feedback on answers,
 * registered here too, also takes public certificates without a key (routes/feedback.ts).
 */
import {
  answerRiskOf,
  type Collection,
  checkedProfile,
  collectionBaseUrl,
  collectionCalibrationOf,
  collectionPresentation,
  countTokens,
  DEFAULT_ALPHA,
  type Engine,
  EngineError,
  publicJob,
  publicUpload,
  type RetrievedChunk,
  type SubmitResult,
} from '@saksi/engine';
import { calibrateCollection, calibrationQuestionsOf, calibrationSummary } from '@saksi/engine/eval';
import { plainLabel } from '@saksi/proof';
import type { Access, Principal } from '../access.js';
import type { Mount } from '../api-spec/mount.js';
import { readBodyLimited, readJsonBody } from '../body.js';
import { ApiError } from '../errors.js';
import { COLLECTION_NAME, IDENTIFIER, listDocumentsOptions } from '../schemas.js';
import { parseUpload, safeFilename } from '../upload.js';
import { registerFeedbackRoutes } from './feedback.js';

export function registerV1Routes(mount: Mount, engine: Engine, access: Access): void {
  // Workspaces and keys.
  mount('createWorkspace', async (c, { principal, body }) => {
    const { workspace, apiKey } = await engine.workspaces.createWithAdminKey({
      name: body.name,
      createdBy: actor(principal),
    });
    c.header('Cache-Control', 'no-store');
    return c.json({ workspace, api_key: apiKey }, 201);
  });

  mount('getWorkspace', async (c, { principal }) => {
    const [workspace, quotas, usage] = await Promise.all([
      engine.workspaces.get(principal.workspace_id),
      engine.ingestion.quotas(principal.workspace_id),
      engine.ingestion.usage(principal.workspace_id),
    ]);
    return c.json({
      workspace,
      principal: {
        kind: principal.kind,
        key_id: principal.kind === 'api_key' ? principal.key_id : null,
        scopes: principal.scopes,
      },
      quotas,
      usage,
    });
  });

  mount('listKeys', async (c, { principal }) => {
    return c.json({ items: await engine.apiKeys.list(principal.workspace_id) });
  });

  mount('createKey', async (c, { principal, body }) => {
    const created = await engine.apiKeys.create({
      workspaceId: principal.workspace_id,
      name: body.name,
      scopes: body.scopes,
      createdBy: actor(principal),
    });
    c.header('Cache-Control', 'no-store');
    return c.json(created, 201);
  });

  mount('revokeKey', async (c, { principal }) => {
    const record = await engine.apiKeys.revoke(
      principal.workspace_id,
      identifier(c.req.param('id'), 'API key'),
      actor(principal),
    );
    return c.json({ record });
  });

  // Collections.
  mount('createCollection', async (c, { principal, body }) => {
    // Checked before anything is created: a bad base URL is INVALID_BASE_URL and no collection.
    const profile = checkedProfile({
      public: body.public === true,
      ...(body.domain != null ? { domain: body.domain } : {}),
      ...(body.base_url != null ? { base_url: body.base_url } : {}),
      ...(body.base_url_folder != null ? { base_url_folder: body.base_url_folder } : {}),
      ...(body.title != null ? { title: withoutNulls(body.title) } : {}),
      ...(body.description != null ? { description: withoutNulls(body.description) } : {}),
      ...(body.examples != null ? { examples: withoutNulls(body.examples) } : {}),
      ...(body.answer_risk != null ? { answer_risk: body.answer_risk } : {}),
    });
    if (await engine.collections.find(body.name, { workspaceId: principal.workspace_id })) {
      throw new EngineError('CONFLICT', `Collection "${body.name}" already exists.`);
    }
    await engine.collections.ensure(body.name, {
      workspaceId: principal.workspace_id,
      language: body.language,
    });
    const collection = await engine.collections.configure(body.name, profile, {
      workspaceId: principal.workspace_id,
    });
    return c.json({ collection: collectionInfo({ ...collection, documents: 0 }) }, 201);
  });

  // A collection's glossary (docs/glossary.md).
  mount('getCollectionGlossary', async (c, { principal }) => {
    const collection = await engine.collections.get(collectionName(c.req.param('name')), {
      workspaceId: principal.workspace_id,
    });
    return c.json(glossaryInfo(collection));
  });

  mount('putCollectionGlossary', async (c, { principal }) => {
    const name = collectionName(c.req.param('name'));
    // An unknown collection is 404 before the body is judged.
    await engine.collections.get(name, { workspaceId: principal.workspace_id });
    const body = await readJsonBody(c.req.raw, GLOSSARY_BODY_LIMIT);
    const collection = await engine.collections.setGlossary(name, body, {
      workspaceId: principal.workspace_id,
    });
    return c.json(glossaryInfo(collection));
  });

  mount('deleteCollectionGlossary', async (c, { principal }) => {
    await engine.collections.setGlossary(collectionName(c.req.param('name')), null, {
      workspaceId: principal.workspace_id,
    });
    return c.body(null, 204);
  });

  // A collection's own calibration of the answer check (docs/evaluation.md, "Calibrating a collection").
  mount('getCollectionCalibration', async (c, { principal }) => {
    const collection = await engine.collections.get(collectionName(c.req.param('name')), {
      workspaceId: principal.workspace_id,
    });
    return c.json(calibrationInfo(collection));
  });

  mount('putCollectionCalibration', async (c, { principal, body }) => {
    const name = collectionName(c.req.param('name'));
    // An unknown collection is 404, and a bad question 400, before anything is asked.
    await engine.collections.get(name, { workspaceId: principal.workspace_id });
    const questions = calibrationQuestionsOf(body.questions);
    await calibrateCollection(engine, name, questions, { workspaceId: principal.workspace_id });
    const collection = await engine.collections.get(name, { workspaceId: principal.workspace_id });
    return c.json(calibrationInfo(collection));
  });

  mount('deleteCollectionCalibration', async (c, { principal }) => {
    const name = collectionName(c.req.param('name'));
    await engine.collections.get(name, { workspaceId: principal.workspace_id });
    await engine.collections.configure(
      name,
      { answer_calibration: null },
      { workspaceId: principal.workspace_id },
    );
    return c.body(null, 204);
  });

  // A collection's document packs (docs/engine.md, "Document-type packs").
  mount('getCollectionPacks', async (c, { principal }) => {
    const name = collectionName(c.req.param('name'));
    const packs = await engine.collections.packs(name, { workspaceId: principal.workspace_id });
    return c.json({ collection: name, ...packs });
  });

  mount('putCollectionPacks', async (c, { principal, body }) => {
    const name = collectionName(c.req.param('name'));
    await engine.collections.configure(name, { packs: body.packs }, { workspaceId: principal.workspace_id });
    const packs = await engine.collections.packs(name, { workspaceId: principal.workspace_id });
    return c.json({ collection: name, ...packs });
  });

  // Documents: asynchronous ingestion.
  mount('uploadDocument', async (c, { principal }) => {
    const upload = await parseUpload(c, engine);
    const result = await engine.submit(
      upload.collection,
      { ...upload.input, uploader: actor(principal) },
      { workspaceId: principal.workspace_id, ...upload.options },
    );
    return c.json(submitted(result), result.deduplicated ? 200 : 202);
  });

  mount('listDocuments', async (c, { principal, query }) => {
    const page = await engine.documents.list({
      ...listDocumentsOptions(query),
      workspaceId: principal.workspace_id,
    });
    return c.json({ items: page.items, total: page.total, limit: page.limit, offset: page.offset });
  });

  mount('getDocument', async (c, { principal }) => {
    return c.json(
      await engine.documents.get(identifier(c.req.param('id'), 'document'), {
        workspaceId: principal.workspace_id,
      }),
    );
  });

  // The original bytes as uploaded, streamed part by part with their SHA-256 (docs/api.md).
  mount('getDocumentFile', async (c, { principal }) => {
    const file = await engine.documents.file(identifier(c.req.param('id'), 'document'), {
      workspaceId: principal.workspace_id,
    });
    const { document } = file;
    return c.body(readableOf(file.parts), 200, {
      'Content-Type': downloadMediaType(document.mime),
      'Content-Length': String(file.size),
      'Content-Disposition': contentDisposition(document.filename),
      'X-Saksi-SHA256': document.original_sha256,
      'Repr-Digest': `sha-256=:${Buffer.from(document.original_sha256, 'hex').toString('base64')}:`,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
    });
  });

  mount('listChunks', async (c, { principal, query }) => {
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await engine.documents.chunks(identifier(c.req.param('id'), 'document'), {
      workspaceId: principal.workspace_id,
      limit,
      offset,
    });
    return c.json({ items: page.items.map(fidelityResult), total: page.total, limit, offset });
  });

  mount('deleteDocument', async (c, { principal }) => {
    await engine.documents.delete(identifier(c.req.param('id'), 'document'), {
      workspaceId: principal.workspace_id,
    });
    return c.body(null, 204);
  });

  // Jobs.
  mount('listJobs', async (c, { principal, query }) => {
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await engine.jobs.list({
      workspaceId: principal.workspace_id,
      ...(query.status !== undefined ? { status: query.status } : {}),
      limit,
      offset,
    });
    return c.json({ items: page.items.map(publicJob), total: page.total, limit, offset });
  });

  mount('getJob', async (c, { principal }) => {
    const id = identifier(c.req.param('id'), 'job');
    const job = await engine.jobs.get(id, principal.workspace_id);
    if (!job) throw new ApiError('NOT_FOUND', 404, `No job ${JSON.stringify(id)}.`);
    return c.json(publicJob(job));
  });

  // Two-step uploads.
  mount('createUpload', async (c, { principal, body }) => {
    const quotas = await engine.ingestion.quotas(principal.workspace_id);
    const { upload, token } = await engine.uploads.create({
      workspaceId: principal.workspace_id,
      collection: body.collection,
      filename: safeFilename(body.filename),
      ...(body.mime != null ? { mime: body.mime } : {}),
      ...(body.size != null ? { declaredSize: body.size } : {}),
      fields: {
        ...(body.title != null ? { title: body.title.trim() } : {}),
        ...(body.language != null ? { language: body.language } : {}),
        ...(body.document_type != null ? { document_type: body.document_type } : {}),
        ...(body.fiscal_year != null ? { fiscal_year: body.fiscal_year } : {}),
        ...(body.source != null ? { source: body.source } : {}),
      },
      ttlSeconds: engine.config.uploadUrlTtlSeconds,
      maxBytes: quotas.max_document_bytes,
    });
    const base = engine.config.publicUrl ?? new URL(c.req.url).origin;
    c.header('Cache-Control', 'no-store');
    return c.json(
      {
        upload: publicUpload(upload),
        upload_url: `${base}/api/v1/uploads/${upload.id}/content?token=${token}`,
        method: 'PUT',
      },
      201,
    );
  });

  mount('putUploadContent', async (c) => {
    const id = identifier(c.req.param('id'), 'upload');
    const token = c.req.query('token') ?? '';
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) {
      await access.chargeAnonymous(c);
      throw new ApiError('NOT_FOUND', 404, 'No upload at this URL, or it has expired; create a new one.');
    }
    const maxBytes = engine.config.quotas.maxDocumentBytes;
    const bytes = await readBodyLimited(c.req.raw, maxBytes, 'FILE_TOO_LARGE');
    const upload = await engine.uploads.putContent(id, token, bytes, maxBytes);
    return c.json({ upload: publicUpload(upload) });
  });

  mount('processUpload', async (c, { principal }) => {
    const id = identifier(c.req.param('id'), 'upload');
    const upload = await engine.uploads.get(principal.workspace_id, id);
    const bytes = await engine.uploads.bytes(principal.workspace_id, id);
    const result = await engine.submit(
      upload.collection,
      {
        bytes,
        filename: upload.filename,
        ...(upload.mime ? { mime: upload.mime } : {}),
        ...(upload.fields.title ? { title: upload.fields.title } : {}),
        ...(upload.fields.document_type ? { document_type: upload.fields.document_type } : {}),
        ...(upload.fields.fiscal_year !== undefined ? { fiscal_year: upload.fields.fiscal_year } : {}),
        ...(upload.fields.source ? { source: upload.fields.source } : {}),
        uploader: actor(principal),
      },
      {
        workspaceId: principal.workspace_id,
        ...(upload.fields.language ? { language: upload.fields.language } : {}),
      },
    );
    const processed = await engine.uploads.markProcessed(id, result.document.id, result.job.id);
    return c.json({ ...submitted(result), upload: publicUpload(processed) }, result.deduplicated ? 200 : 202);
  });

  // Webhooks.
  mount('createWebhook', async (c, { principal, body }) => {
    const created = await engine.webhooks.create({
      workspaceId: principal.workspace_id,
      url: body.url,
      ...(body.events != null ? { events: body.events } : {}),
      allowPrivate: engine.config.webhooks.allowPrivate,
    });
    c.header('Cache-Control', 'no-store');
    return c.json(created, 201);
  });

  mount('listWebhooks', async (c, { principal }) => {
    return c.json({ items: await engine.webhooks.list(principal.workspace_id) });
  });

  mount('deleteWebhook', async (c, { principal }) => {
    await engine.webhooks.delete(principal.workspace_id, identifier(c.req.param('id'), 'webhook'));
    return c.body(null, 204);
  });

  mount('listDeliveries', async (c, { principal }) => {
    const items = await engine.webhooks.deliveries(
      principal.workspace_id,
      identifier(c.req.param('id'), 'webhook'),
      { limit: 100 },
    );
    return c.json({ items });
  });

  // Retrieval.
  mount('query', async (c, { principal, body }) => {
    const result = await engine.query(
      body.collection,
      {
        question: body.question,
        ...(body.top_k != null ? { top_k: body.top_k } : {}),
        ...(body.document_type != null ? { document_type: body.document_type } : {}),
        ...(body.fiscal_year != null ? { fiscal_year: body.fiscal_year } : {}),
      },
      { workspaceId: principal.workspace_id },
    );
    const results = result.results.map(fidelityResult);
    return c.json({
      results,
      hybrid: result.hybrid,
      timings: result.timings,
      tokens: {
        question: countTokens(body.question),
        results: results.reduce((total, item) => total + item.token_count, 0),
      },
      parameters: result.parameters,
    });
  });

  // Feedback on answers: also without a key, for public certificates (routes/feedback.ts).
  registerFeedbackRoutes(mount, engine, access);
}

/** Who did it, for the audit log and the document's uploader: the key id or the admin's email. */
function actor(principal: Principal): string {
  return principal.kind === 'api_key' ? `key:${principal.key_id}` : principal.email;
}

function submitted(result: SubmitResult) {
  return { document: result.document, job: publicJob(result.job), deduplicated: result.deduplicated };
}

/** `{id: "…", en: null}` → `{id: "…"}`: null counts as absent. */
function withoutNulls<T>(value: Record<string, T | null | undefined>): Record<string, T> {
  return Object.fromEntries(
    Object.entries(value).filter(
      (entry): entry is [string, T] => entry[1] !== null && entry[1] !== undefined,
    ),
  );
}

export function collectionInfo(collection: {
  name: string;
  language: string;
  profile: Record<string, unknown>;
  embedding_provider: string;
  embedding_model: string;
  embedding_dimensions: number;
  documents: number;
}) {
  const domain = collection.profile['domain'];
  return {
    name: collection.name,
    language: collection.language,
    public: collection.profile['public'] === true,
    domain: typeof domain === 'string' ? domain : null,
    base_url: collectionBaseUrl(collection),
    ...collectionPresentation(collection),
    documents: collection.documents,
    embedding: {
      provider: collection.embedding_provider,
      model: collection.embedding_model,
      dimensions: collection.embedding_dimensions,
    },
  };
}

/**
 * A retrieval result with everything needed to render and check a citation: parent context, where it
 * sits (document, page, section path), the table as HTML, the chunk hash and its RFC 6962 inclusion
 * proof to the document root (leaf index = position, tree size = the document's chunk count).
 */
export function fidelityResult(result: RetrievedChunk) {
  const sectionPath = result.citation.section_path ?? [];
  return {
    id: result.chunk_id,
    document_id: result.document_id,
    text: result.text,
    score: result.score,
    rank: result.rank,
    ranks: result.ranks,
    kind: result.kind,
    token_count: result.token_count,
    context: { before: result.context_before, after: result.context_after },
    citation: {
      document_name: result.document.filename,
      document_title: result.citation.document_title,
      page: result.citation.page ?? null,
      section_header: sectionPath.at(-1) ?? null,
      section_path: sectionPath,
      ...(result.citation.pasal ? { pasal: result.citation.pasal } : {}),
      ...(result.citation.ayat ? { ayat: result.citation.ayat } : {}),
      ...(result.citation.label ? { label: result.citation.label } : {}),
      ...(result.citation.url ? { url: result.citation.url } : {}),
      mime: result.document.mime,
    },
    table_html: result.table_html,
    chunk_hash: result.sha256,
    document: {
      id: result.document_id,
      root: result.document.root,
      chunk_count: result.document.chunk_count,
      filename: result.document.filename,
      document_type: result.document.document_type,
      fiscal_year: result.document.fiscal_year,
    },
    proof: {
      algorithm: 'rfc6962-sha256',
      leaf_index: result.position,
      tree_size: result.document.chunk_count,
      path: result.proof_path,
      root: result.document.root,
    },
  };
}

/**
 * A stream that reads the next part only when the client has taken the last one, so a slow reader
 * holds one part in memory, not the file. A failure mid-file (a part gone missing) aborts the
 * response: the client gets fewer bytes than `Content-Length` says, never a different file.
 */
function readableOf(parts: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = parts[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await iterator.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          console.error('[saksi] document download stopped:', error instanceof Error ? error.message : error);
          controller.error(error);
        }
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

/** RFC 6838 §4.2 `type/subtype` (parameters allowed); anything else is sent as octets. */
const MEDIA_TYPE =
  /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(?:\s*;\s*[A-Za-z0-9!#$&^_.+-]+=(?:[A-Za-z0-9!#$&^_.+-]+|"[^"\\\r\n]*"))*$/;

function downloadMediaType(mime: string): string {
  return MEDIA_TYPE.test(mime) ? mime : 'application/octet-stream';
}

/**
 * `attachment` with the name twice (RFC 6266 §4.3): `filename` in printable ASCII for old clients
 * (anything else becomes `_`), and `filename*` in UTF-8, percent-encoded by RFC 8187 §3.2.1 (only
 * `attr-char` is left as is), so no name can add a header parameter or break the header.
 */
export function contentDisposition(filename: string): string {
  // Stored names are plain since ingestion strips them; one stored before is made plain here.
  const name = plainLabel(filename.replace(/[\u0000-\u001f\u007f]/g, '')) || 'download';
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** An id from the path; one the engine could never have issued is simply not found. */
function identifier(value: string, what: string): string {
  if (!IDENTIFIER.test(value))
    throw new ApiError('NOT_FOUND', 404, `No ${what} ${JSON.stringify(value.slice(0, 100))}.`);
  return value;
}

/** The largest glossary body (1 MiB, as other JSON bodies): 5,000 entries of everyday length fit. */
const GLOSSARY_BODY_LIMIT = 1024 * 1024;

/** A collection name from the path; one that could never exist is simply not found. */
function collectionName(value: string): string {
  if (!COLLECTION_NAME.test(value))
    throw new ApiError('NOT_FOUND', 404, `No collection named ${JSON.stringify(value.slice(0, 100))}.`);
  return value;
}

/** A collection's own calibration as the API shows it: what it releases at the collection's α, not its points. */
function calibrationInfo(collection: Collection) {
  const calibration = collectionCalibrationOf(collection.profile);
  if (!calibration) return { collection: collection.name, calibration: null };
  const summary = calibrationSummary(calibration, answerRiskOf(collection) ?? DEFAULT_ALPHA);
  return {
    collection: collection.name,
    calibration: {
      questions: summary.questions,
      answerable: summary.answerable,
      calibrated_at: calibration.calibrated_at,
      sha256: summary.sha256,
      alpha: summary.alpha,
      threshold: summary.threshold,
      released: summary.released,
      released_wrong: summary.releasedWrong,
    },
  };
}

function glossaryInfo(collection: Collection) {
  return {
    collection: collection.name,
    glossary: collection.glossary ?? null,
    sha256: collection.glossary_sha256 ?? null,
  };
}
