import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '@saksi/server';
import { loadConfig } from '../packages/engine/src/config.js';
import { createHashEmbeddingModel } from '../packages/engine/src/embed/hash.js';
import { Engine } from '../packages/engine/src/engine.js';
import type { IngestProgress } from '../packages/engine/src/ingest/pipeline.js';
import { vectorArm } from '../packages/engine/src/retrieve/retrieve.js';
import { benchApiKey } from './api-harness.js';
import {
  buildSyntheticCollection,
  type CorpusFile,
  check,
  corpusDirectory,
  createTemporaryDatabase,
  embedDirect,
  evalQuestions,
  fixed,
  gitRevision,
  indonesianQuestions,
  nowMs,
  parseAndChunk,
  printTable,
  progressLog,
  readCorpus,
  type Summary,
  sentencePool,
  summarize,
  templatesOf,
  writeResults,
} from './engine-harness.js';

const quick = process.argv.includes('--quick');
const databaseUrl = process.env['DATABASE_URL'];
type Backend = 'pglite' | 'postgres';
const backends: Backend[] = databaseUrl ? ['pglite', 'postgres'] : ['pglite'];

const INGEST_TARGET_RATIO = 1.5;
const HYBRID_TARGET_P95_MS = 50;
const RETRIEVAL_QUESTIONS = 100;
const RECALL_K = 10;
const WIDE_EF_SEARCH = 100;
const WARMUP_QUESTIONS = 10;
const CHAT_REQUESTS = 60;
const CHAT_CONCURRENCY = 20;
const SCALES = quick ? [10_000] : [10_000, 100_000];

const revision = gitRevision();

const benchStart = nowMs();
const log = progressLog(benchStart);

process.stdout.write(
  `Engine benchmarks at ${revision} — Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, ` +
    `backends: ${backends.join(', ')}${quick ? ' (--quick: 10k chunks only)' : ''}\n\n`,
);

// ---------------------------------------------------------------------------------------------
// Engines on fresh databases

interface OpenedEngine {
  engine: Engine;
  openMs: number;
  close(): Promise<void>;
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'saksi-bench-'));
let databaseCounter = 0;

/** An engine on a fresh PGlite directory or a fresh database on the `DATABASE_URL` server. */
async function openEngine(backend: Backend, label: string): Promise<OpenedEngine> {
  const dataDir = path.join(scratch, `${backend}-${label}`);
  const database =
    backend === 'postgres'
      ? await createTemporaryDatabase(databaseUrl!, `saksi_bench_${process.pid}_${databaseCounter++}`)
      : undefined;
  const config = loadConfig(
    {
      SAKSI_DATA_DIR: dataDir,
      SAKSI_DEMO: '0',
      // No access log line per request: this bench's output is its tables.
      LOG_LEVEL: 'warn',
      // The chat step measures the engine, not the rate limits (the same as the API bench).
      SAKSI_PUBLIC_CHAT_LIMIT: '0',
      SAKSI_RATE_LIMIT_KEY: '0',
      SAKSI_RATE_LIMIT_IP: '0',
      ...(database ? { DATABASE_URL: database.url } : {}),
    },
    dataDir,
  );
  const start = nowMs();
  const engine = await Engine.open({ config, pgliteDataDir: path.join(dataDir, 'pglite') });
  const openMs = nowMs() - start;
  return {
    engine,
    openMs,
    async close() {
      await engine.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Chat API (run on the ingestion engines, right after ingestion)

const chatQuestions = [...evalQuestions('lalin-dev.jsonl'), ...evalQuestions('lalin-spec-cases.jsonl')];
/** Sequential chat requests measured before the explicit ANALYZE (a diagnostic, see README). */
const CHAT_BEFORE_ANALYZE_REQUESTS = 8;

interface LoadResult {
  latency: Summary;
  wallMs: number;
  requestsPerSecond: number;
}

/** `total` requests from `clients` concurrent clients; each response is checked by `accept`. */
async function load(
  clients: number,
  total: number,
  request: (index: number) => Promise<Response>,
  accept: (body: unknown) => boolean,
): Promise<LoadResult> {
  const latencies: number[] = [];
  let next = 0;
  const start = nowMs();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total) {
        const index = next++;
        const requestStart = nowMs();
        const response = await request(index);
        const body: unknown = await response.json();
        latencies.push(nowMs() - requestStart);
        check(response.status === 200 && accept(body), `request ${index} answered ${response.status}`);
      }
    }),
  );
  const wallMs = nowMs() - start;
  return { latency: summarize(latencies), wallMs, requestsPerSecond: total / (wallMs / 1000) };
}

interface ChatRun {
  backend: Backend;
  /** `before-analyze`: as ingestion leaves the database; `measured`: after an explicit ANALYZE. */
  state: 'before-analyze' | 'measured';
  clients: number;
  requests: number;
  health: LoadResult | null;
  chat: LoadResult;
  ratioP50: number | null;
  ratioP95: number | null;
}

async function chatBenchmark(backend: Backend, engine: Engine): Promise<ChatRun[]> {
  const runs: ChatRun[] = [];
  const server = await startServer(engine, { port: 0, host: '127.0.0.1' });
  check(new URL(server.url).hostname === '127.0.0.1', 'server on loopback');
  // The chat of a collection that is not public needs a key (docs/api.md).
  const key = await benchApiKey(engine);
  try {
    const health = () => fetch(`${server.url}/api/v1/health`);
    const chat = (index: number) =>
      fetch(`${server.url}/api/v1/chat`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Bearer ${key}`,
        },
        body: JSON.stringify({
          collection: 'lalu-lintas',
          question: chatQuestions[index % chatQuestions.length],
        }),
      });
    const healthy = (body: unknown) => (body as { status?: string }).status === 'ok';
    const answered = (body: unknown) =>
      typeof (body as { answer?: unknown }).answer === 'string' &&
      typeof (body as { bundle?: { certificate?: unknown } }).bundle?.certificate === 'object';

    // Diagnostic: the database as ingestion leaves it. The engine never runs ANALYZE; PGlite has no
    // autovacuum, so its planner has no statistics for `chunks` (PostgreSQL's autovacuum may or may not
    // have analyzed the table yet).
    const before = await load(1, CHAT_BEFORE_ANALYZE_REQUESTS, chat, answered);
    runs.push({
      backend,
      state: 'before-analyze',
      clients: 1,
      requests: CHAT_BEFORE_ANALYZE_REQUESTS,
      health: null,
      chat: before,
      ratioP50: null,
      ratioP95: null,
    });
    log(`chat on ${backend}, before ANALYZE: p50 ${fixed(before.latency.p50)} ms`);
    await engine.db.exec('ANALYZE');

    await load(1, 10, health, healthy);
    await load(1, 5, chat, answered);
    for (const clients of [1, CHAT_CONCURRENCY]) {
      const healthRun = await load(clients, CHAT_REQUESTS, health, healthy);
      const chatRun = await load(clients, CHAT_REQUESTS, chat, answered);
      runs.push({
        backend,
        state: 'measured',
        clients,
        requests: CHAT_REQUESTS,
        health: healthRun,
        chat: chatRun,
        ratioP50: chatRun.latency.p50 / healthRun.latency.p50,
        ratioP95: chatRun.latency.p95 / healthRun.latency.p95,
      });
      log(`chat on ${backend}, ${clients} client(s): p95 ${fixed(chatRun.latency.p95)} ms`);
    }
  } finally {
    await server.close();
  }
  return runs;
}

// ---------------------------------------------------------------------------------------------
// Ingestion

const uuFiles = readCorpus(corpusDirectory('uu-22-2009-llaj'), ['.md']);
const reduxFiles = readCorpus(path.join(corpusDirectory('docs-redux'), 'docs'), ['.md', '.mdx']);
check(uuFiles.length === 1, 'UU 22/2009 corpus has one Markdown file');
check(reduxFiles.length > 50, 'Redux docs found');
const ingestSets: { collection: string; language: 'id' | 'en'; files: CorpusFile[] }[] = [
  { collection: 'lalu-lintas', language: 'id', files: uuFiles },
  { collection: 'docs', language: 'en', files: reduxFiles },
];
const allIngestFiles = ingestSets.flatMap((set) => set.files);
const ingestBytes = allIngestFiles.reduce((sum, file) => sum + file.bytes.length, 0);
const hashModel = createHashEmbeddingModel({ dimensions: 384 });

interface DirectPass {
  parseMs: number;
  embedMs: number;
  chunks: number;
}

/** Parse + chunk every file, then embed every chunk, with no database: the baseline. */
async function directPass(): Promise<DirectPass> {
  let parseMs = 0;
  let embedMs = 0;
  let chunks = 0;
  for (const file of allIngestFiles) {
    const parseStart = nowMs();
    const drafts = await parseAndChunk(file);
    parseMs += nowMs() - parseStart;
    const embedStart = nowMs();
    const vectors = await embedDirect(
      hashModel,
      drafts.map((draft) => draft.text),
    );
    embedMs += nowMs() - embedStart;
    check(vectors.length === drafts.length, 'one vector per chunk');
    chunks += drafts.length;
  }
  return { parseMs, embedMs, chunks };
}

log('ingestion baseline: warm-up pass');
await directPass();
const directPasses: DirectPass[] = [];
for (let i = 0; i < 3; i++) directPasses.push(await directPass());
directPasses.sort((a, b) => a.parseMs + a.embedMs - (b.parseMs + b.embedMs));
const direct = directPasses[1]!;
const directMs = direct.parseMs + direct.embedMs;
log(
  `ingestion baseline: ${direct.chunks} chunks, parse ${fixed(direct.parseMs)} ms + embed ${fixed(direct.embedMs)} ms`,
);

/** Where `engine.ingest` spends its time, from its `onProgress` reports (see `stageOf`). */
const STAGES = ['lookup', 'parse', 'chunk+embed', 'hash+proofs', 'store', 'reload'] as const;
type Stage = (typeof STAGES)[number];

/**
 * The stage an interval belongs to, from the report that opens it: before `parsing` the pipeline hashes
 * the bytes, looks for a duplicate and inserts the job; `parsing` → `chunking` is parsing; `chunking` →
 * the last `embedding` report is chunking, leaf hashes and embedding; the last `embedding` report →
 * `storing` is chunk hashes and per-chunk inclusion proofs; `storing` → `done` is the one transaction;
 * `done` → return reloads the document row.
 */
function stageOf(progress: IngestProgress | null): Stage {
  if (progress === null) return 'lookup';
  switch (progress.stage) {
    case 'parsing':
      return 'parse';
    case 'chunking':
      return 'chunk+embed';
    case 'embedding': {
      const [done, total] = (progress.detail ?? '').split(' ')[0]!.split('/');
      return done !== undefined && done === total ? 'hash+proofs' : 'chunk+embed';
    }
    case 'storing':
      return 'store';
    default:
      return 'reload';
  }
}

interface IngestionRun {
  backend: Backend;
  /** Milliseconds per stage, summed over all files. */
  stages: Record<Stage, number>;
  openMs: number;
  wallMs: number;
  chunks: number;
  documents: number;
  perCollection: { collection: string; files: number; chunks: number; wallMs: number }[];
  ratio: number;
}

const ingestionRuns: IngestionRun[] = [];
const chatRuns: ChatRun[] = [];
for (const backend of backends) {
  const opened = await openEngine(backend, 'ingest');
  log(`ingestion on ${backend}: database opened and migrated in ${fixed(opened.openMs)} ms`);
  const perCollection: IngestionRun['perCollection'] = [];
  const stages = Object.fromEntries(STAGES.map((stage) => [stage, 0])) as Record<Stage, number>;
  let wallMs = 0;
  let chunks = 0;
  for (const set of ingestSets) {
    let setChunks = 0;
    const start = nowMs();
    for (const file of set.files) {
      let last: IngestProgress | null = null;
      let lastAt = nowMs();
      const onProgress = (progress: IngestProgress) => {
        const at = nowMs();
        stages[stageOf(last)] += at - lastAt;
        last = progress;
        lastAt = at;
      };
      const result = await opened.engine.ingest(
        set.collection,
        { bytes: file.bytes, filename: path.basename(file.path) },
        { language: set.language, onProgress },
      );
      stages[stageOf(last)] += nowMs() - lastAt;
      check(!result.deduplicated, `${file.name} ingested fresh`);
      setChunks += result.document.chunk_count;
    }
    const setMs = nowMs() - start;
    wallMs += setMs;
    chunks += setChunks;
    perCollection.push({
      collection: set.collection,
      files: set.files.length,
      chunks: setChunks,
      wallMs: setMs,
    });
  }
  check(chunks === direct.chunks, `ingestion stored ${chunks} chunks, the direct path made ${direct.chunks}`);
  ingestionRuns.push({
    backend,
    stages,
    openMs: opened.openMs,
    wallMs,
    chunks,
    documents: allIngestFiles.length,
    perCollection,
    ratio: wallMs / directMs,
  });
  log(`ingestion on ${backend}: ${chunks} chunks in ${fixed(wallMs)} ms`);
  chatRuns.push(...(await chatBenchmark(backend, opened.engine)));
  await opened.close();
}

printTable(
  `Ingestion — UU 22/2009 (1 file) + Redux docs (${reduxFiles.length} files), ${(ingestBytes / 1024).toFixed(0)} KiB, ${direct.chunks} chunks, hash embeddings (384 d)`,
  ['case', 'wall ms', 'chunks/s', '× (parse+embed)'],
  [
    [
      'parse+chunk (baseline part)',
      fixed(direct.parseMs),
      fixed(direct.chunks / (direct.parseMs / 1000), 0),
      fixed(direct.parseMs / directMs, 2),
    ],
    [
      'embed, hash doEmbed (baseline part)',
      fixed(direct.embedMs),
      fixed(direct.chunks / (direct.embedMs / 1000), 0),
      fixed(direct.embedMs / directMs, 2),
    ],
    ['parse+chunk+embed (baseline)', fixed(directMs), fixed(direct.chunks / (directMs / 1000), 0), '1.00'],
    ...ingestionRuns.flatMap((run) => [
      ...run.perCollection.map((part) => [
        `  engine.ingest ${run.backend}: ${part.collection} (${part.files} files)`,
        fixed(part.wallMs),
        fixed(part.chunks / (part.wallMs / 1000), 0),
        '',
      ]),
      [
        `engine.ingest, ${run.backend} (all)`,
        fixed(run.wallMs),
        fixed(run.chunks / (run.wallMs / 1000), 0),
        fixed(run.ratio, 2),
      ],
    ]),
  ],
);
printTable(
  'Where engine.ingest spends its time (ms, all files; from its onProgress reports)',
  ['backend', ...STAGES, 'total'],
  ingestionRuns.map((run) => [
    run.backend,
    ...STAGES.map((stage) => fixed(run.stages[stage], 0)),
    fixed(
      STAGES.reduce((sum, stage) => sum + run.stages[stage], 0),
      0,
    ),
  ]),
);
process.stdout.write(
  `(baseline: median of 3 passes after a warm-up pass; database open + migrations not counted: ${ingestionRuns
    .map((run) => `${run.backend} ${fixed(run.openMs, 0)} ms`)
    .join(', ')})\n`,
);
const ingestionTargets = ingestionRuns.map((run) => {
  const met = run.ratio <= INGEST_TARGET_RATIO;
  const line = `target: ingestion wall ÷ (parse + embed) ≤ ${INGEST_TARGET_RATIO} on ${run.backend} — ${met ? 'met' : 'MISSED'} (${fixed(run.ratio, 2)})`;
  process.stdout.write(`${line}\n`);
  return { name: `ingestion ratio ${run.backend}`, met, value: run.ratio, line };
});

printTable(
  `POST /api/v1/chat — extractive generator, collection lalu-lintas (UU 22/2009 only), ${CHAT_REQUESTS} requests per setting, loopback, after ANALYZE`,
  [
    'backend, clients',
    'health p50',
    'health p95',
    'chat p50',
    'chat p95',
    'chat÷health p50',
    'p95',
    'chat req/s',
  ],
  chatRuns
    .filter((run) => run.state === 'measured')
    .map((run) => [
      `${run.backend}, ${run.clients}`,
      fixed(run.health!.latency.p50, 2),
      fixed(run.health!.latency.p95, 2),
      fixed(run.chat.latency.p50, 1),
      fixed(run.chat.latency.p95, 1),
      fixed(run.ratioP50!, 1),
      fixed(run.ratioP95!, 1),
      fixed(run.chat.requestsPerSecond, 1),
    ]),
);
for (const run of chatRuns.filter((candidate) => candidate.state === 'before-analyze'))
  process.stdout.write(
    `(${run.backend}, before the explicit ANALYZE, ${run.requests} sequential chats: p50 ${fixed(run.chat.latency.p50, 1)} ms, max ${fixed(run.chat.latency.max, 1)} ms)\n`,
  );

// ---------------------------------------------------------------------------------------------
// Retrieval

const { questions, inDomain: inDomainQuestions } = indonesianQuestions(RETRIEVAL_QUESTIONS);
check(questions.length === RETRIEVAL_QUESTIONS, `${RETRIEVAL_QUESTIONS} questions available`);
const legalFiles = [
  ...readCorpus(corpusDirectory('uu-22-2009-llaj'), ['.md']),
  ...readCorpus(corpusDirectory('apbn-uu'), ['.md']),
];
const legalDrafts = (await Promise.all(legalFiles.map(parseAndChunk))).flat();
const pool = sentencePool(legalDrafts);
const templates = templatesOf(legalDrafts);
const questionVectors = await embedDirect(hashModel, questions);

const DIMENSIONS = hashModel.dimensions;
const FROM_WHERE = `FROM chunks c JOIN documents d ON d.id = c.document_id
  WHERE c.collection_id = $1 AND c.embedding_dimensions = ${DIMENSIONS} AND d.status = 'READY'`;
const DISTANCE = `c.embedding::vector(${DIMENSIONS}) <=> $2::vector(${DIMENSIONS})`;
/** The engine's vector arm as retrieve.ts `vectorArm` sends it (no filters; without its SET LOCAL ef_search). */
const ENGINE_VECTOR_SQL = `SELECT id FROM (SELECT c.id, ${DISTANCE} AS distance ${FROM_WHERE} ORDER BY ${DISTANCE} LIMIT $3) nearest ORDER BY distance, id`;
/** The same ranking ordered by distance alone, which the HNSW index can serve: the approximate arm. */
const HNSW_SQL = `SELECT c.id, (${DISTANCE}) AS distance ${FROM_WHERE} ORDER BY ${DISTANCE} LIMIT $3`;
/** The same ranking on the raw column: the HNSW index is on `embedding::vector(d)`, so this is a full scan. */
const EXACT_SQL = `SELECT c.id, (c.embedding <=> $2::vector) AS distance ${FROM_WHERE}
  ORDER BY c.embedding <=> $2::vector, c.id LIMIT $3`;
const CANDIDATES = 50; // retrieve.ts default `candidates` per arm and variant

interface RetrievalRun {
  backend: Backend;
  chunks: number;
  build: Awaited<ReturnType<typeof buildSyntheticCollection>>;
  openMs: number;
  hybrid: Summary;
  hybridParts: { embed: Summary; lexical: Summary; vector: Summary; fuse: Summary };
  variantsMean: number;
  hnsw: Summary;
  exact: Summary;
  recallAt10: number;
  recallMin: number;
  /** recall@10 over the in-domain questions only (lalin, lalin-spec, apbn). */
  recallAt10InDomain: number;
  /** recall@10 with `SET LOCAL hnsw.ef_search = WIDE_EF_SEARCH` (pgvector's default is 40). */
  recallAt10WideEf: number;
  /** recall@10 of the engine's vector arm (its first 10 of {@link CANDIDATES}, with its HNSW settings). */
  engineArmRecallAt10: number;
  engineArmRecallMin: number;
  /** Mean rows the engine's vector arm returns for its LIMIT 50 (hnsw.ef_search caps it). */
  vectorArmRowsAt50: number;
  /** The engine's own vector arm (LIMIT 50, with its HNSW settings), timed alone. */
  engineVector: Summary;
  /** Whether the planner serves the engine's vector-arm SQL from the HNSW index. */
  enginePlanUsesHnsw: boolean;
  /** Checks of the method: the approximate query uses the index, the exact one does not. */
  hnswPlanUsesHnsw: boolean;
  exactPlanAvoidsHnsw: boolean;
  hybridOverExactP50: number;
  hybridOverExactP95: number;
}

type Neighbour = { id: string; distance: number };
const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

async function explain(engine: Engine, sql: string, params: unknown[]): Promise<string> {
  const result = await engine.db.query<Record<string, string>>(`EXPLAIN ${sql}`, params);
  return result.rows.map((row) => Object.values(row).join(' ')).join('\n');
}

const retrievalRuns: RetrievalRun[] = [];
for (const backend of backends) {
  for (const scale of SCALES) {
    const opened = await openEngine(backend, `retrieval-${scale}`);
    const { engine } = opened;
    const name = 'bench';
    log(`retrieval on ${backend}, ${scale} chunks: building`);
    const build = await buildSyntheticCollection(engine, {
      name,
      count: scale,
      pool,
      templates,
      seed: scale,
      onProgress: (done) => {
        if (done % 25_000 === 0) log(`  ${done} chunks inserted`);
      },
    });
    log(
      `retrieval on ${backend}, ${scale} chunks: built (insert ${fixed(build.insertMs / 1000)} s, HNSW index ${fixed(build.indexMs / 1000)} s)`,
    );
    const collection = await engine.collections.get(name);
    const vectorLiteral = (index: number) => `[${questionVectors[index]!.join(',')}]`;

    const usesIndex = async (sql: string, limit: number) =>
      (await explain(engine, sql, [collection.id, vectorLiteral(0), limit])).includes(
        `chunks_embedding_hnsw_${DIMENSIONS}`,
      );
    const enginePlanUsesHnsw = await usesIndex(ENGINE_VECTOR_SQL, CANDIDATES);
    const hnswPlanUsesHnsw = await usesIndex(HNSW_SQL, RECALL_K);
    const exactPlanAvoidsHnsw = !(await usesIndex(EXACT_SQL, RECALL_K));

    // Warm-up: the first few questions once through each path.
    for (const [index, question] of questions.slice(0, WARMUP_QUESTIONS).entries()) {
      await engine.query(name, { question, top_k: 5 });
      await engine.db.query(HNSW_SQL, [collection.id, vectorLiteral(index), RECALL_K]);
      if (index < 2) await engine.db.query(EXACT_SQL, [collection.id, vectorLiteral(index), RECALL_K]);
    }

    const hybridMs: number[] = [];
    const parts = {
      embed: [] as number[],
      lexical: [] as number[],
      vector: [] as number[],
      fuse: [] as number[],
    };
    let variants = 0;
    for (const question of questions) {
      const start = nowMs();
      const result = await engine.query(name, { question, top_k: 5 });
      hybridMs.push(nowMs() - start);
      parts.embed.push(result.timings.embed_ms);
      parts.lexical.push(result.timings.lexical_ms);
      parts.vector.push(result.timings.vector_ms);
      parts.fuse.push(result.timings.fuse_ms);
      variants += result.parameters.rewrite_variants.length;
      check(result.results.length > 0, `hybrid query returns results for "${question}"`);
    }
    // The engine's own vector arm (retrieve.ts `vectorArm`, with its HNSW settings), timed alone;
    // its first RECALL_K ids are scored against the exact scan below.
    const engineVectorMs: number[] = [];
    const engineArmResults: Neighbour[][] = [];
    for (const index of questions.keys()) {
      const start = nowMs();
      const ids = await vectorArm(engine.db, collection, questionVectors[index]!, CANDIDATES, {});
      engineVectorMs.push(nowMs() - start);
      const top = ids.slice(0, RECALL_K);
      const distances = await engine.db.query<Neighbour>(
        `SELECT id, embedding <=> $2::vector AS distance FROM chunks WHERE id = ANY($1::text[])`,
        [top, vectorLiteral(index)],
      );
      engineArmResults.push(distances.rows);
    }
    const hnswMs: number[] = [];
    const hnswResults: Neighbour[][] = [];
    const widerResults: Neighbour[][] = [];
    let rowsAt50 = 0;
    for (const index of questions.keys()) {
      const start = nowMs();
      const result = await engine.db.query<Neighbour>(HNSW_SQL, [
        collection.id,
        vectorLiteral(index),
        RECALL_K,
      ]);
      hnswMs.push(nowMs() - start);
      hnswResults.push(result.rows);
      rowsAt50 += (await engine.db.query(HNSW_SQL, [collection.id, vectorLiteral(index), CANDIDATES])).rows
        .length;
      // The same query with a wider search list, to show what the default ef_search costs in recall.
      widerResults.push(
        await engine.db.transaction(async (tx) => {
          await tx.exec(`SET LOCAL hnsw.ef_search = ${WIDE_EF_SEARCH}`);
          return (await tx.query<Neighbour>(HNSW_SQL, [collection.id, vectorLiteral(index), RECALL_K])).rows;
        }),
      );
    }
    const exactMs: number[] = [];
    const recalls: number[] = [];
    const widerRecalls: number[] = [];
    const engineArmRecalls: number[] = [];
    for (const index of questions.keys()) {
      const start = nowMs();
      const result = await engine.db.query<{ id: string; distance: number }>(EXACT_SQL, [
        collection.id,
        vectorLiteral(index),
        RECALL_K,
      ]);
      exactMs.push(nowMs() - start);
      check(result.rows.length === RECALL_K, 'exact scan returns k rows');
      // Distance-based recall: an approximate hit counts when it is at least as close as the exact k-th
      // neighbour (equal texts have equal vectors, so ids alone would punish tie-breaking).
      const kth = Number(result.rows[RECALL_K - 1]!.distance) + 1e-9;
      const recall = (rows: Neighbour[]) =>
        Math.min(rows.filter((row) => Number(row.distance) <= kth).length, RECALL_K) / RECALL_K;
      recalls.push(recall(hnswResults[index]!));
      widerRecalls.push(recall(widerResults[index]!));
      engineArmRecalls.push(recall(engineArmResults[index]!));
    }
    const hybrid = summarize(hybridMs);
    const exact = summarize(exactMs);
    retrievalRuns.push({
      backend,
      chunks: scale,
      build,
      openMs: opened.openMs,
      hybrid,
      hybridParts: {
        embed: summarize(parts.embed),
        lexical: summarize(parts.lexical),
        vector: summarize(parts.vector),
        fuse: summarize(parts.fuse),
      },
      variantsMean: variants / questions.length,
      hnsw: summarize(hnswMs),
      exact,
      recallAt10: mean(recalls),
      recallMin: Math.min(...recalls),
      recallAt10InDomain: mean(recalls.slice(0, inDomainQuestions)),
      recallAt10WideEf: mean(widerRecalls),
      engineArmRecallAt10: mean(engineArmRecalls),
      engineArmRecallMin: Math.min(...engineArmRecalls),
      vectorArmRowsAt50: rowsAt50 / questions.length,
      engineVector: summarize(engineVectorMs),
      enginePlanUsesHnsw,
      hnswPlanUsesHnsw,
      exactPlanAvoidsHnsw,
      hybridOverExactP50: hybrid.p50 / exact.p50,
      hybridOverExactP95: hybrid.p95 / exact.p95,
    });
    log(`retrieval on ${backend}, ${scale} chunks: hybrid p95 ${fixed(hybrid.p95)} ms`);
    await opened.close();
  }
}

const scaleLabel = (chunks: number) => `${chunks / 1000}k`;
printTable(
  `Retrieval — ${RETRIEVAL_QUESTIONS} Indonesian questions, collection of synthetic chunks from UU 22/2009 + UU APBN sentences (mean ${fixed(
    templates.reduce((sum, t) => sum + t.length, 0) / templates.length,
    0,
  )} chars), top_k 5`,
  [
    'backend, chunks',
    'hybrid p50',
    'hybrid p95',
    'exact p50',
    'exact p95',
    'hybrid÷exact p50',
    'p95',
    'HNSW recall@10',
  ],
  retrievalRuns.map((run) => [
    `${run.backend}, ${scaleLabel(run.chunks)}`,
    fixed(run.hybrid.p50, 2),
    fixed(run.hybrid.p95, 2),
    fixed(run.exact.p50, 2),
    fixed(run.exact.p95, 2),
    fixed(run.hybridOverExactP50, 3),
    fixed(run.hybridOverExactP95, 3),
    `${fixed(run.recallAt10, 3)} (min ${fixed(run.recallMin, 1)})`,
  ]),
);
printTable(
  'Hybrid query breakdown (engine timings summed over variants, p50 / p95 ms)',
  ['backend, chunks', 'variants', 'embed', 'lexical arms', 'vector arms', 'fuse+load'],
  retrievalRuns.map((run) => [
    `${run.backend}, ${scaleLabel(run.chunks)}`,
    fixed(run.variantsMean, 2),
    `${fixed(run.hybridParts.embed.p50, 2)} / ${fixed(run.hybridParts.embed.p95, 2)}`,
    `${fixed(run.hybridParts.lexical.p50, 2)} / ${fixed(run.hybridParts.lexical.p95, 2)}`,
    `${fixed(run.hybridParts.vector.p50, 2)} / ${fixed(run.hybridParts.vector.p95, 2)}`,
    `${fixed(run.hybridParts.fuse.p50, 2)} / ${fixed(run.hybridParts.fuse.p95, 2)}`,
  ]),
);
printTable(
  `Vector arm — the engine's arm (nearest ${CANDIDATES}, its HNSW settings; recall of its first ${RECALL_K}) vs the index alone (ORDER BY distance, pgvector defaults)`,
  [
    'backend, chunks',
    'engine arm p50 / p95',
    `engine arm recall@${RECALL_K}`,
    'engine SQL uses HNSW',
    `HNSW k=${RECALL_K} p50`,
    `HNSW rows at LIMIT ${CANDIDATES}`,
    `recall@${RECALL_K} ef_search 40`,
    'in-domain',
    `ef_search ${WIDE_EF_SEARCH}`,
    'method check',
  ],
  retrievalRuns.map((run) => [
    `${run.backend}, ${scaleLabel(run.chunks)}`,
    `${fixed(run.engineVector.p50, 2)} / ${fixed(run.engineVector.p95, 2)}`,
    `${fixed(run.engineArmRecallAt10, 3)} (min ${fixed(run.engineArmRecallMin, 1)})`,
    run.enginePlanUsesHnsw ? 'yes' : 'NO (full scan)',
    fixed(run.hnsw.p50, 2),
    fixed(run.vectorArmRowsAt50, 1),
    fixed(run.recallAt10, 3),
    fixed(run.recallAt10InDomain, 3),
    fixed(run.recallAt10WideEf, 3),
    run.hnswPlanUsesHnsw && run.exactPlanAvoidsHnsw ? 'ok' : 'FAILED (plans differ from the method)',
  ]),
);
printTable(
  'Synthetic collection build (setup, not measured against a target)',
  ['backend, chunks', 'documents', 'generate s', 'INSERT s', 'HNSW build s', 'ANALYZE s'],
  retrievalRuns.map((run) => [
    `${run.backend}, ${scaleLabel(run.chunks)}`,
    String(run.build.documents),
    fixed(run.build.generateMs / 1000),
    fixed(run.build.insertMs / 1000),
    fixed(run.build.indexMs / 1000),
    fixed(run.build.analyzeMs / 1000),
  ]),
);
const retrievalTarget = (() => {
  const run = retrievalRuns.find(
    (candidate) => candidate.backend === 'postgres' && candidate.chunks === 100_000,
  );
  const name = `hybrid p95 ≤ ${HYBRID_TARGET_P95_MS} ms at 100k chunks on PostgreSQL`;
  if (!run) {
    const why = !databaseUrl ? 'DATABASE_URL is not set' : '--quick';
    const line = `target: ${name} — not measured (${why})`;
    return { name, met: null, value: null, line };
  }
  const met = run.hybrid.p95 <= HYBRID_TARGET_P95_MS;
  return {
    name,
    met,
    value: run.hybrid.p95,
    line: `target: ${name} — ${met ? 'met' : 'MISSED'} (${fixed(run.hybrid.p95, 2)} ms)`,
  };
})();
process.stdout.write(`${retrievalTarget.line}\n`);

// ---------------------------------------------------------------------------------------------
// Targets and results

process.stdout.write('\n');
for (const target of [...ingestionTargets, retrievalTarget]) process.stdout.write(`${target.line}\n`);
process.stdout.write(`(total ${fixed((nowMs() - benchStart) / 1000, 0)} s)\n`);

rmSync(scratch, { recursive: true, force: true });
writeResults('engine', revision, {
  quick,
  backends,
  ingestion: { baseline: { ...direct, totalMs: directMs, passes: directPasses }, runs: ingestionRuns },
  retrieval: { questions: questions.length, inDomainQuestions, runs: retrievalRuns },
  chat: { questions: chatQuestions.length, runs: chatRuns },
  targets: [...ingestionTargets, retrievalTarget],
  totalMs: nowMs() - benchStart,
});
