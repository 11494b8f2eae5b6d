/**
 * The HTTP API (docs/api.md): routes under `/api/v1`, SSE chat, the OpenAPI document, the
 * well-known keys and the web assets. Every failure is JSON `{error: {code, message}}` with the right
 * status (errors.ts); a stack trace never leaves the process.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import {
  type AskEvent,
  type AskInput,
  type AskResult,
  type Collection,
  DEFAULT_WORKSPACE,
  type Engine,
  EngineError,
  type RetrievedChunk,
  requireScope,
} from '@saksi/engine';
import { type Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type Access, type AccessOptions, createAccess, isPublicCollection, peerAddress } from './access.js';
import { routeMounter } from './api-spec/mount.js';
import { readBodyLimited } from './body.js';
import { chatVerdict } from './chat-verdict.js';
import { cors } from './cors.js';
import type { ErrorReporter } from './error-reports.js';
import { ApiError, toErrorResponse } from './errors.js';
import { homePage } from './home.js';
import { createLogger, isLoopback, type Logger, Metrics, requestIdOf, sameSecret } from './observability.js';
import { openApiDocument } from './openapi.js';
import { registerAdminRoutes } from './routes/admin.js';
import { registerAnchorRoutes } from './routes/anchors.js';
import { registerSessionRoutes } from './routes/sessions.js';
import { registerTileRoutes } from './routes/tiles.js';
import { collectionInfo, registerV1Routes } from './routes/v1.js';
import { registerWitnessRoutes } from './routes/witness.js';
import { type ChatRequest, conversationOf, IDENTIFIER, questionOf } from './schemas.js';
import { streamEvents } from './sse.js';
import type { RequestTrace, Tracing } from './tracing.js';
import { type BundleVerifier, createBundleVerifier } from './verify-pool.js';
import { trustOf, VERIFY_BODY_LIMIT } from './verify-request.js';

export interface AppOptions {
  /** A directory of built web assets served at `/` (single-page app: unknown paths get index.html). */
  webRoot?: string;
  /**
   * Which reverse proxies may name the client (default: `SAKSI_TRUST_PROXY`); `true` is one hop of
   * `X-Forwarded-For`, `false` none (docs/configuration.md).
   */
  trustProxy?: AccessOptions['trustProxy'];
  /** Where the server logs (default: JSON lines on stdout at `LOG_LEVEL`). */
  logger?: Logger;
  /** The process's metrics (default: new ones), served at `GET /metrics`. */
  metrics?: Metrics;
  /** Where internal errors (500) are reported besides the log (`SENTRY_DSN`; default nowhere). */
  errors?: ErrorReporter;
  /** Where request and answer spans go (`OTEL_EXPORTER_OTLP_ENDPOINT`; default nowhere). */
  tracing?: Tracing;
  /**
   * What runs `POST /verify` (verify-pool.ts; default: threads as `SAKSI_VERIFY_WORKERS` says). The
   * caller closes one it passes; the default's threads never keep the process alive.
   */
  verifier?: BundleVerifier;
}

/** The media type of a credential (VC Data Model 2.0, "Media Types"; registered with IANA). */
const VC_MEDIA_TYPE = 'application/vc';
/** Characters of chunk text and parent context in chat results (the full text is in the bundle). */
const SNIPPET_LENGTH = 320;

export function createApp(engine: Engine, options: AppOptions = {}): Hono {
  const app = new Hono();
  const access = createAccess(
    engine,
    options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy },
  );
  const logger = options.logger ?? createLogger(engine.config.logLevel);
  // The default verifier is made on the first verification: most apps never start its threads.
  let verifier = options.verifier;
  const metrics = options.metrics ?? new Metrics();
  const reportInternal = (c: Context, error: unknown) => {
    const requestId = requestIds.get(c.req.raw);
    logger.error('request failed', {
      request_id: requestId,
      method: c.req.method,
      route: c.req.routePath,
      error,
    });
    options.errors?.capture(error, {
      ...(requestId !== undefined ? { request_id: requestId } : {}),
      route: c.req.routePath,
      method: c.req.method,
    });
  };
  // Request ids, the access log and latency per route (docs/operations.md).
  const requestIds = new WeakMap<Request, string>();
  const traces = new WeakMap<Request, RequestTrace>();
  const recordAnswer = (c: Context, found: boolean, cached: boolean, timings: AskResult['timings']) => {
    metrics.answer(found, cached, timings);
    traces.get(c.req.raw)?.answer(found, cached, timings);
  };
  app.use('*', async (c, next) => {
    const id = requestIdOf(c.req.header('x-request-id'));
    requestIds.set(c.req.raw, id);
    const trace = options.tracing?.startRequest(c.req.method, c.req.raw.headers);
    if (trace) traces.set(c.req.raw, trace);
    const start = performance.now();
    await next();
    const seconds = (performance.now() - start) / 1000;
    // The route's pattern, never the path: paths hold session and certificate ids.
    const route = c.req.routePath === '/*' ? 'unmatched' : c.req.routePath;
    const status = c.res.status;
    c.res.headers.set('X-Request-Id', id);
    trace?.end({ route, status, requestId: id });
    metrics.requests.observe(
      { method: c.req.method, route, status: `${Math.floor(status / 100)}xx` },
      seconds,
    );
    // API requests at info; the web app's files at debug, so a browser's page load is one line or none.
    const log = c.req.path.startsWith('/api/') ? logger.info : logger.debug;
    log('request', {
      request_id: id,
      method: c.req.method,
      route,
      status,
      ms: Math.round(seconds * 10_000) / 10,
    });
  });
  app.use('*', cors(engine.config.allowedOrigins));

  app.onError((error, c) => {
    const mapped = toErrorResponse(error);
    const requestId = requestIds.get(c.req.raw);
    if (mapped.internal) {
      reportInternal(c, error);
      // The id lets a user's report be found in the logs.
      if (requestId !== undefined) (mapped.body.error as { request_id?: string }).request_id = requestId;
    }
    return c.json(mapped.body, mapped.status as ContentfulStatusCode, mapped.headers ?? {});
  });

  app.get('/metrics', async (c) => {
    const key = engine.config.metricsKey;
    if (key !== undefined) {
      if (!sameSecret(c.req.header('authorization') ?? '', `Bearer ${key}`))
        throw new ApiError(
          'UNAUTHENTICATED',
          401,
          'GET /metrics needs "Authorization: Bearer <SAKSI_METRICS_KEY>".',
        );
    } else if (!isLoopback(peerAddress(c)) || !isLoopback(access.clientAddress(c))) {
      // Both the TCP peer and the resolved client: behind a proxy on this machine every peer is
      // loopback, and a platform's function has no peer on its machine, whatever it forwards.
      throw new ApiError(
        'FORBIDDEN',
        403,
        'Metrics are served to loopback clients only; set SAKSI_METRICS_KEY to read them from elsewhere.',
      );
    }
    const readings = await engine.operations.readings();
    const body = metrics.render([
      {
        name: 'saksi_jobs',
        help: 'Jobs waiting or running, by status.',
        samples: Object.entries(readings.jobs).map(([status, value]) => ({ labels: { status }, value })),
      },
      {
        name: 'saksi_log_entries',
        help: 'Entries in the transparency log.',
        samples: [{ value: readings.logSize }],
      },
      {
        name: 'saksi_anchor_lag_seconds',
        help: 'How long the oldest READY document not yet anchored has waited (0 when none waits).',
        samples: [{ value: readings.anchorLagSeconds }],
      },
      {
        name: 'saksi_cached_answers',
        help: 'Answers in the answer cache.',
        samples: [{ value: readings.cachedAnswers }],
      },
    ]);
    return c.body(body, 200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
  });
  app.notFound((c) =>
    c.json(
      {
        error: {
          code: 'NOT_FOUND',
          message: `No route ${c.req.method} ${c.req.path}; see /api/v1/openapi.json.`,
        },
      },
      404,
    ),
  );

  const api = new Hono();
  const mount = routeMounter(access, { api, root: app });

  mount('getHealth', async (c) => c.json(await engine.health()));

  // With a key: the workspace's collections; without: the public collections of the default workspace.
  mount('listCollections', async (c, { principal }) => {
    if (principal) requireScope(principal, 'read');
    else await access.chargeAnonymous(c);
    const collections = await engine.collections.list({
      workspaceId: principal?.workspace_id ?? DEFAULT_WORKSPACE,
    });
    return c.json({
      items: collections
        .filter((collection) => principal !== null || isPublicCollection(collection))
        .map((collection) => ({
          ...collectionInfo(collection),
          text_search_config: collection.text_search_config,
        })),
    });
  });

  mount('chat', async (c, { body }) => {
    const input = askInput(body);
    // Fail before the stream starts when the collection is unknown: a 404 is clearer than an SSE error event.
    const collection = await chatCollection(c, engine, access, body.collection);
    if (wantsStream(c, body))
      return streamChat(
        c,
        engine,
        collection,
        input,
        (result) => recordAnswer(c, result.found, result.cached, result.timings),
        (error) => reportInternal(c, error),
      );
    const result = await engine.ask(collection, input);
    recordAnswer(c, result.found, result.cached, result.timings);
    return c.json({
      session_id: result.session_id,
      answer: result.answer,
      found: result.found,
      cached: result.cached,
      bundle: result.bundle,
      results: result.results.map(summarizeResult),
      timings: result.timings,
      verdict: chatVerdict(result.bundle.certificate),
    });
  });

  // Verified on a verification thread (verify-pool.ts): parsing, the limits per bundle, hashing and
  // signatures never run on this event loop; the caller's budget is charged in work units.
  mount('verify', async (c) => {
    const principal = await access.principal(c);
    if (principal === null) await access.chargeAnonymous(c);
    verifier ??= createBundleVerifier(engine.config.verification);
    // A place on the threads first: a busy server refuses before it reads the body (503).
    const place = verifier.reserve();
    try {
      const bytes = await readBodyLimited(c.req.raw, VERIFY_BODY_LIMIT);
      const options = engine.verificationOptions();
      const { fetchConsistencyProof, anchorLookup } = options;
      const json = await place.verify(bytes, {
        trust: trustOf(options),
        callbacks: {
          ...(fetchConsistencyProof ? { fetchConsistencyProof } : {}),
          ...(anchorLookup ? { anchorLookup } : {}),
        },
        charge: (units) => access.chargeVerification(c, principal, units),
      });
      return c.body(json, 200, { 'Content-Type': 'application/json' });
    } finally {
      place.release();
    }
  });

  // `?format=vc`: the certificate as a W3C Verifiable Credential instead of the bundle (docs/api.md).
  mount('getCertificate', async (c, { query }) => {
    const { format } = query;
    const id = identifier(c.req.param('id'), 'certificate');
    await access.requireRecord(c, 'certificate', id);
    if (format === 'vc') return c.json(await engine.credential(id), 200, { 'Content-Type': VC_MEDIA_TYPE });
    return c.json(await engine.bundle(id));
  });

  mount('getCheckpoint', async (c) => c.json(await latestCheckpoint(engine)));

  mount('getCheckpointNote', async (c) => {
    const checkpoint = await latestCheckpoint(engine);
    // The cosigned note: the log's signed note with the witnesses' cosignature lines appended (C2SP tlog-cosignature).
    const note = checkpoint.checkpoint + checkpoint.cosignatures.map((line) => `${line}\n`).join('');
    return c.text(note, 200, { 'content-type': 'text/plain; charset=utf-8' });
  });

  mount('getInclusionProof', async (c, { query }) =>
    c.json(await engine.logStorage.inclusionProof(query.leaf_index, query.tree_size)),
  );

  mount('getConsistencyProof', async (c, { query }) =>
    c.json(await engine.logStorage.consistencyProof(query.first, query.second)),
  );

  registerTileRoutes(mount, engine);
  registerAnchorRoutes(mount, engine, (c, id) => access.requireRecord(c, 'document', id));
  registerWitnessRoutes(mount, engine);
  registerSessionRoutes(mount, engine, (c, id) => access.requireRecord(c, 'session', id));
  registerAdminRoutes(mount, engine, access);
  registerV1Routes(mount, engine, access);

  mount('getOpenApi', async (c) => c.json(openApiDocument()));

  app.route('/api/v1', api);

  mount('getTrustedKeys', async (c) => c.json(engine.trustedKeys()));

  const webRoot = options.webRoot !== undefined ? path.resolve(options.webRoot) : undefined;
  if (webRoot !== undefined && existsSync(webRoot) && statSync(webRoot).isDirectory()) {
    app.use('*', async (c, next) => {
      await next();
      if (isApiPath(c.req.path)) return;
      c.header('X-Content-Type-Options', 'nosniff');
      c.header('Referrer-Policy', 'no-referrer');
      if ((c.res.headers.get('content-type') ?? '').startsWith('text/html'))
        c.header('Content-Security-Policy', contentSecurityPolicy(engine.anchoring.chain()?.rpc_url ?? null));
    });
    const assets = serveStatic({ root: webRoot });
    const spa = serveStatic({ root: webRoot, path: 'index.html' });
    app.get('*', async (c, next) => (isApiPath(c.req.path) ? next() : assets(c, next)));
    app.get('*', async (c, next) => (isApiPath(c.req.path) ? next() : spa(c, next)));
  } else {
    app.get('/', (c) => c.html(homePage(new URL(c.req.url).origin)));
  }

  return app;
}

/**
 * The web app's policy: its own scripts and styles only, no plugins, no framing, no base rewriting.
 * The page may also call the local chain's JSON-RPC to check anchors itself: the running chain's
 * origin when known, otherwise any loopback port. It may read any `https:` address, because a
 * reader pins keys from an address of their own choosing (the publisher's site, a mirror); what it
 * reads there is data the page checks, never code (`script-src` stays `'self'`).
 */
export function contentSecurityPolicy(rpcUrl: string | null): string {
  let chain = 'http://127.0.0.1:* http://localhost:*';
  if (rpcUrl !== null) {
    try {
      chain = new URL(rpcUrl).origin;
    } catch {
      // keep the loopback default
    }
  }
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ${chain} https:`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

/**
 * The collection a chat addresses: with a key (scope read), one of the key's workspace; without, a
 * public collection of the default workspace, charged to the address's public-chat budget.
 */
async function chatCollection(c: Context, engine: Engine, access: Access, name: string): Promise<Collection> {
  const principal = await access.principal(c);
  if (principal) {
    requireScope(principal, 'read');
    return engine.collections.get(name, { workspaceId: principal.workspace_id });
  }
  await access.chargePublicChat(c);
  const collection = await engine.collections.get(name, { workspaceId: DEFAULT_WORKSPACE });
  if (!isPublicCollection(collection)) {
    throw new EngineError(
      'UNAUTHENTICATED',
      `Collection "${name}" is not public: send an API key ("Authorization: Bearer saksi_…").`,
    );
  }
  return collection;
}

function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/') || pathname.startsWith('/.well-known/');
}

/** An id from the path; one the engine could never have issued is simply not found. */
function identifier(value: string, what: string): string {
  if (!IDENTIFIER.test(value))
    throw new ApiError('NOT_FOUND', 404, `No ${what} ${JSON.stringify(value.slice(0, 100))}.`);
  return value;
}

async function latestCheckpoint(engine: Engine) {
  const checkpoint = await engine.logStorage.latestCheckpoint();
  if (!checkpoint)
    throw new ApiError(
      'NOT_FOUND',
      404,
      'The transparency log is empty; ask a question to create its first entry.',
    );
  return checkpoint;
}

function askInput(body: ChatRequest): AskInput {
  const question = questionOf(body).trim();
  const pageUrl = body.page_url ?? body.context?.pageUrl;
  return {
    question,
    ...(body.messages != null ? { conversation: conversationOf(body) } : {}),
    ...(body.mode != null ? { mode: body.mode } : {}),
    ...(body.selection != null ? { selection: body.selection } : {}),
    ...(body.session_id != null ? { session_id: body.session_id } : {}),
    ...(body.top_k != null ? { top_k: body.top_k } : {}),
    ...(body.document_type != null ? { document_type: body.document_type } : {}),
    ...(body.fiscal_year != null ? { fiscal_year: body.fiscal_year } : {}),
    ...(pageUrl != null ? { page_url: pageUrl } : {}),
  };
}

function wantsStream(c: Context, body: ChatRequest): boolean {
  const stream = c.req.query('stream');
  if (stream === '1' || stream === 'true') return true;
  if (body.stream === true) return true;
  return (c.req.header('accept') ?? '').toLowerCase().includes('text/event-stream');
}

/**
 * Chat as Server-Sent Events: `session`, `retrieval`, `delta`…, `bundle`, then `done` (with the
 * server's `verdict`, chat-verdict.ts). The bundle is sent only after its log entry is durable; on
 * failure an `error` event `{code, message}` replaces it.
 */
function streamChat(
  c: Context,
  engine: Engine,
  collection: Collection,
  input: AskInput,
  onAnswered: (result: AskResult) => void,
  onInternalError: (error: unknown) => void,
): Response {
  return streamEvents(
    c,
    async (send) => {
      const result = await engine.ask(collection, input, {
        onEvent: (event: AskEvent) => {
          switch (event.type) {
            case 'session':
              send('session', { session_id: event.session_id });
              break;
            case 'retrieval':
              send('retrieval', { results: event.results.map(summarizeResult), timings: event.timings });
              break;
            case 'delta':
              send('delta', { text: event.text });
              break;
            case 'bundle':
              send('bundle', event.bundle);
              break;
          }
        },
      });
      onAnswered(result);
      send('done', {
        session_id: result.session_id,
        certificate_id: result.bundle.certificate.certificate_id,
        found: result.found,
        cached: result.cached,
        timings: result.timings,
        verdict: chatVerdict(result.bundle.certificate),
      });
    },
    onInternalError,
  );
}

/** A retrieval result without the bulky fields (full chunk text, proof path): for chat clients. */
function summarizeResult(result: RetrievedChunk) {
  return {
    chunk_id: result.chunk_id,
    document_id: result.document_id,
    score: result.score,
    rank: result.rank,
    // `code`: the chunk is a code block, whose quoted text a client shows as code (lines kept).
    kind: result.kind,
    // The document's media type tells a client whether its text may be read as Markdown.
    citation: { ...result.citation, mime: result.document.mime },
    snippet: head(result.text, SNIPPET_LENGTH),
    context: {
      before: tail(result.context_before, SNIPPET_LENGTH),
      after: head(result.context_after, SNIPPET_LENGTH),
    },
  };
}

function head(value: string, length: number): string {
  if (value.length <= length) return value;
  const cut = /[\uD800-\uDBFF]/.test(value.charAt(length - 1)) ? length - 1 : length;
  return `${value.slice(0, cut).trimEnd()}…`;
}

function tail(value: string, length: number): string {
  if (value.length <= length) return value;
  const start = value.length - length;
  const cut = /[\uDC00-\uDFFF]/.test(value.charAt(start)) ? start + 1 : start;
  return `…${value.slice(cut).trimStart()}`;
}
