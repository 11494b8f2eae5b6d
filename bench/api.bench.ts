import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '@saksi/server';
import { ensureCollection } from '../packages/engine/src/collections.js';
import { loadConfig } from '../packages/engine/src/config.js';
import { Engine } from '../packages/engine/src/engine.js';
import {
  benchApiKey,
  type LatencySummary,
  type LoadOutput,
  largeMarkdown,
  latencySummary,
  queryQuestions,
  runLoadInChild,
  type UploadOutcome,
  uploadDocument,
} from './api-harness.js';
import {
  buildSyntheticCollection,
  check,
  corpusDirectory,
  createTemporaryDatabase,
  evalQuestions,
  fixed,
  gitRevision,
  nowMs,
  parseAndChunk,
  printTable,
  progressLog,
  readCorpus,
  sentencePool,
  templatesOf,
  writeResults,
} from './engine-harness.js';

// ---------------------------------------------------------------------------------------------
// Flags

function flag(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}
function numberFlag(name: string, fallback: number): number {
  const value = flag(name);
  if (value === undefined) return fallback;
  const parsed = Number(value);
  check(Number.isFinite(parsed) && parsed > 0, `${name} ${value} is a positive number`);
  return parsed;
}

const quick = process.argv.includes('--quick');
const CHUNKS = Math.round(numberFlag('--chunks', quick ? 10_000 : 100_000));
const DURATION_S = numberFlag('--duration', quick ? 15 : 45);
const FIXED_RATE = flag('--rate') !== undefined ? numberFlag('--rate', 1) : null;
const UPLOAD_MB = numberFlag('--upload-mb', quick ? 2 : 5);
const CLIENTS = 20;
/** Without --rate, the arrival rate is this share of the closed-loop capacity measured in the warm-up. */
const RATE_SHARE = 0.5;
const CALIBRATION_S = quick ? 4 : 8;
const BASELINE_QUERIES = quick ? 100 : 200;
const CHAT_SESSIONS = 100;
const QUESTIONS_PER_SESSION = Math.round(numberFlag('--turns', quick ? 3 : 5));
const CHAT_BASELINE = quick ? 10 : 30;
const QUERY_TARGET_P95_MS = 100;
const COLLECTION = 'bench-api';
const UPLOAD_COLLECTION = 'bench-uploads';
/** Limits off, so the bench measures the server rather than its rate limiter (read by the new server; ignored today). */
const LIMITS_OFF = { SAKSI_PUBLIC_CHAT_LIMIT: '0', SAKSI_RATE_LIMIT_KEY: '0', SAKSI_RATE_LIMIT_IP: '0' };

const databaseUrl = process.env['DATABASE_URL'];
if (!databaseUrl) {
  process.stderr.write(
    'api.bench.ts needs a PostgreSQL 15 + pgvector server: DATABASE_URL=postgres://… (see bench/README.md)\n',
  );
  process.exit(2);
}

const revision = gitRevision();
/** Other work on the machine shows in every latency here: the 1-minute load average goes into the output. */
const loadAverage = () => fixed(os.loadavg()[0] ?? Number.NaN, 2);
const loadAtStart = loadAverage();
const benchStart = nowMs();
const log = progressLog(benchStart);
process.stdout.write(
  `API benchmarks at ${revision} — Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, ` +
    `PostgreSQL, ${CHUNKS.toLocaleString('en')} chunks${quick ? ' (--quick)' : ''}, load average ${loadAverage()}\n` +
    `rate limits off: ${Object.entries(LIMITS_OFF)
      .map(([name, value]) => `${name}=${value}`)
      .join(' ')}\n\n`,
);

// ---------------------------------------------------------------------------------------------
// Engine, seeded collection, key, server

const scratch = mkdtempSync(path.join(os.tmpdir(), 'saksi-apibench-'));
const database = await createTemporaryDatabase(databaseUrl, `saksi_apibench_${process.pid}`);
const config = loadConfig(
  {
    DATABASE_URL: database.url,
    SAKSI_DATA_DIR: scratch,
    SAKSI_ANCHOR: 'none',
    SAKSI_DEMO: '0',
    // No access log line per request: this bench's output is its tables.
    LOG_LEVEL: 'warn',
    SAKSI_MAX_UPLOAD_BYTES: String(Math.max(50, Math.ceil(UPLOAD_MB * 2)) * 1024 * 1024),
    ...LIMITS_OFF,
  },
  scratch,
);
const engine = await Engine.open({ config, pgliteDataDir: null });
// The engine's in-process job worker: the uploads below are ingested asynchronously, behind a 202.
engine.workers.start();

const legalDrafts = (
  await Promise.all(
    [
      ...readCorpus(corpusDirectory('uu-22-2009-llaj'), ['.md']),
      ...readCorpus(corpusDirectory('apbn-uu'), ['.md']),
    ].map(parseAndChunk),
  )
).flat();
const pool = sentencePool(legalDrafts);
const build = await buildSyntheticCollection(engine, {
  name: COLLECTION,
  count: CHUNKS,
  pool,
  templates: templatesOf(legalDrafts),
  seed: 8,
  onProgress: (done) => {
    if (done % 20_000 === 0) log(`seeded ${done.toLocaleString('en')} chunks`);
  },
});
const seeded = await engine.db.query<{ n: number }>(
  'SELECT count(*)::integer AS n FROM chunks c JOIN collections k ON k.id = c.collection_id WHERE k.name = $1',
  [COLLECTION],
);
check(seeded.rows[0]?.n === CHUNKS, `${CHUNKS} chunks seeded (found ${seeded.rows[0]?.n})`);
log(
  `seeded: insert ${fixed(build.insertMs / 1000)} s, HNSW ${fixed(build.indexMs / 1000)} s, analyze ${fixed(build.analyzeMs / 1000)} s`,
);
await ensureCollection(engine.db, {
  name: UPLOAD_COLLECTION,
  language: 'id',
  embedding: {
    provider: engine.embedding.provider,
    model: engine.embedding.modelId,
    dimensions: engine.embedding.dimensions,
  },
});
const key = await benchApiKey(engine);
const server = await startServer(engine, { port: 0, host: '127.0.0.1' });
check(new URL(server.url).hostname === '127.0.0.1', 'server on loopback');

const questions = queryQuestions(pool, 400, 8);
const queryBodies = questions.map((question) =>
  JSON.stringify({ collection: COLLECTION, question, top_k: 5 }),
);
const chatQuestions = [
  ...evalQuestions('lalin-dev.jsonl'),
  ...evalQuestions('lalin-spec-cases.jsonl'),
  ...evalQuestions('apbn-dev.jsonl'),
];

interface OpenRun {
  rate: number;
  durationS: number;
  scheduled: number;
  completed: number;
  errors: number;
  firstError: string | null;
  /** Completions inside the schedule window ÷ its length. */
  achievedPerSecond: number;
  offeredPerSecond: number;
  maxBacklog: number;
  backlogAtEnd: number;
  abandoned: number;
  latency: LatencySummary;
  /** Scheduled arrival → send, i.e. time spent in the backlog (or behind a late timer). */
  queueDelay: LatencySummary;
}

/** Summarizes open-loop records whose arrival lies in [from, to] (the whole run by default). */
function openRun(output: LoadOutput, rate: number, from = output.startedAt, to = output.endedAt): OpenRun {
  const inWindow = output.records.filter((r) => r.scheduledAt >= from && r.scheduledAt <= to);
  const failed = inWindow.filter((r) => r.error !== '');
  const windowS = (to - from) / 1000;
  return {
    rate,
    durationS: windowS,
    scheduled: output.scheduled ?? inWindow.length,
    completed: inWindow.length,
    errors: failed.length,
    firstError: failed[0]?.error ?? null,
    achievedPerSecond:
      output.records.filter((r) => r.error === '' && r.doneAt >= from && r.doneAt <= to).length / windowS,
    offeredPerSecond: inWindow.length / windowS,
    maxBacklog: output.maxBacklog ?? 0,
    backlogAtEnd: output.backlogAtEnd ?? 0,
    abandoned: output.abandoned ?? 0,
    latency: latencySummary(inWindow.map((r) => r.doneAt - r.scheduledAt)),
    queueDelay: latencySummary(inWindow.map((r) => r.sentAt - r.scheduledAt)),
  };
}

const openSpec = (rate: number, durationMs: number, seed: number) =>
  ({
    mode: 'open',
    url: server.url,
    key,
    path: '/api/v1/query',
    bodies: queryBodies,
    rate,
    maxInFlight: CLIENTS,
    durationMs,
    seed,
    drainMs: 30_000,
  }) as const;

try {
  // -------------------------------------------------------------------------------------------
  // Baseline: the engine's in-process retrieval, one query at a time

  for (const question of questions.slice(0, 10)) await engine.query(COLLECTION, { question, top_k: 5 });
  const inProcess: number[] = [];
  for (let i = 0; i < BASELINE_QUERIES; i++) {
    const start = nowMs();
    const result = await engine.query(COLLECTION, { question: questions[i % questions.length]!, top_k: 5 });
    inProcess.push(nowMs() - start);
    check(result.results.length > 0, `query ${i} finds chunks`);
  }
  const baseline = latencySummary(inProcess);
  // queryQuestions alternates: even indices are real questions, odd ones keyword queries.
  const baselineByKind = {
    questions: latencySummary(inProcess.filter((_, i) => i % 2 === 0)),
    keywords: latencySummary(inProcess.filter((_, i) => i % 2 === 1)),
  };
  log(
    `in-process engine.query: p50 ${fixed(baseline.p50)} ms, p95 ${fixed(baseline.p95)} ms ` +
      `(real questions p95 ${fixed(baselineByKind.questions.p95)} ms, keyword queries p95 ${fixed(baselineByKind.keywords.p95)} ms)`,
  );

  // -------------------------------------------------------------------------------------------
  // Warm-up and calibration: 20 closed-loop clients

  const calibration = await runLoadInChild({
    mode: 'closed',
    url: server.url,
    key,
    path: '/api/v1/query',
    bodies: queryBodies,
    clients: CLIENTS,
    durationMs: CALIBRATION_S * 1000,
  }).result;
  const calibrationErrors = calibration.records.filter((r) => r.error !== '');
  check(calibrationErrors.length === 0, `warm-up queries answer 200 (${calibrationErrors[0]?.error})`);
  const capacity = calibration.records.length / ((calibration.endedAt - calibration.startedAt) / 1000);
  const closedLatency = latencySummary(calibration.records.map((r) => r.doneAt - r.sentAt));
  const rate = FIXED_RATE ?? Math.max(1, Math.round(capacity * RATE_SHARE));
  log(
    `closed loop, ${CLIENTS} clients: ${fixed(capacity)} queries/s (p95 ${fixed(closedLatency.p95)} ms); open-loop rate ${rate}/s`,
  );

  // -------------------------------------------------------------------------------------------
  // (a) Open-loop /query

  const queryOutput = await runLoadInChild(openSpec(rate, DURATION_S * 1000, 1)).result;
  const query = openRun(queryOutput, rate);
  log(`(a) open loop at ${rate}/s: p95 ${fixed(query.latency.p95)} ms, ${query.errors} errors`);

  // -------------------------------------------------------------------------------------------
  // (b) Chat: 100 concurrent sessions, several questions each

  for (const question of chatQuestions.slice(0, 3)) await engine.ask(COLLECTION, { question });
  const askTimes: number[] = [];
  for (let i = 0; i < CHAT_BASELINE; i++) {
    const start = nowMs();
    await engine.ask(COLLECTION, { question: chatQuestions[i % chatQuestions.length]! });
    askTimes.push(nowMs() - start);
  }
  const askBaseline = latencySummary(askTimes);
  const chatOutput = await runLoadInChild({
    mode: 'sessions',
    url: server.url,
    key,
    collection: COLLECTION,
    questions: chatQuestions,
    sessions: CHAT_SESSIONS,
    questionsPerSession: QUESTIONS_PER_SESSION,
  }).result;
  const chatFailures = chatOutput.records.filter((r) => r.error !== '');
  const chat = {
    sessions: CHAT_SESSIONS,
    questionsPerSession: QUESTIONS_PER_SESSION,
    requests: chatOutput.records.length,
    errors: chatFailures.length,
    errorRate: chatFailures.length / Math.max(1, chatOutput.records.length),
    firstError: chatFailures[0]?.error ?? null,
    sessionErrors: chatOutput.sessionErrors ?? 0,
    wallS: (chatOutput.endedAt - chatOutput.startedAt) / 1000,
    perSecond: chatOutput.records.length / ((chatOutput.endedAt - chatOutput.startedAt) / 1000),
    latency: latencySummary(chatOutput.records.map((r) => r.doneAt - r.sentAt)),
    baseline: askBaseline,
  };
  check(chat.requests === CHAT_SESSIONS * QUESTIONS_PER_SESSION, 'every chat turn ran');
  log(`(b) chat: ${chat.requests} turns, ${chat.errors} errors, p95 ${fixed(chat.latency.p95)} ms`);

  // -------------------------------------------------------------------------------------------
  // (c) Queries while two large files upload

  const uploadBytes = Math.round(UPLOAD_MB * 1024 * 1024);
  const files = [1, 2].map((n) => ({
    name: `uji-beban-${n}.md`,
    bytes: largeMarkdown(pool, uploadBytes, 2026 + n),
  }));
  const loaded = runLoadInChild(openSpec(rate, 10 * 60_000, 2));
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  let uploads: UploadOutcome[];
  try {
    uploads = await Promise.all(
      files.map((file) => uploadDocument(server.url, key, UPLOAD_COLLECTION, file.name, file.bytes)),
    );
  } finally {
    loaded.stop();
  }
  const loadedOutput = await loaded.result;
  const window = {
    from: Math.min(...uploads.map((u) => u.startedAt)),
    to: Math.max(...uploads.map((u) => u.readyAt)),
  };
  const underUploads = openRun(loadedOutput, rate, window.from, window.to);
  log(
    `(c) uploads: ${uploads.map((u) => `${u.name} ${u.status} → READY ${fixed(u.readyMs / 1000)} s, ${u.chunks} chunks`).join('; ')}`,
  );

  // -------------------------------------------------------------------------------------------
  // Report

  const ms = (value: number) => fixed(value, 1);
  printTable(
    `(a) POST /api/v1/query, ${CHUNKS.toLocaleString('en')} chunks, open loop (Poisson arrivals), ≤ ${CLIENTS} in flight`,
    [
      'run',
      'arrivals/s',
      'achieved/s',
      'n',
      'errors',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'max ms',
      'p95 ÷ in-process',
    ],
    [
      [
        'in-process engine.query (baseline, sequential)',
        '—',
        '—',
        String(baseline.n),
        '0',
        ms(baseline.p50),
        ms(baseline.p95),
        ms(baseline.p99),
        ms(baseline.max),
        '1.0',
      ],
      [
        `HTTP closed loop, ${CLIENTS} clients (warm-up)`,
        '—',
        fixed(capacity),
        String(closedLatency.n),
        '0',
        ms(closedLatency.p50),
        ms(closedLatency.p95),
        ms(closedLatency.p99),
        ms(closedLatency.max),
        fixed(closedLatency.p95 / baseline.p95),
      ],
      ...[
        ['HTTP open loop', query],
        ['HTTP open loop during 2 uploads', underUploads],
      ].map(([label, run]) => {
        const r = run as OpenRun;
        return [
          label as string,
          fixed(r.offeredPerSecond),
          fixed(r.achievedPerSecond),
          String(r.completed),
          String(r.errors),
          ms(r.latency.p50),
          ms(r.latency.p95),
          ms(r.latency.p99),
          ms(r.latency.max),
          fixed(r.latency.p95 / baseline.p95),
        ];
      }),
    ],
  );
  process.stdout.write(
    `open loop: target rate ${rate}/s (${FIXED_RATE !== null ? '--rate' : `${RATE_SHARE} × closed-loop capacity`}), ` +
      `${query.scheduled} arrivals in ${fixed(query.durationS)} s; backlog max ${query.maxBacklog}, at end ${query.backlogAtEnd}, ` +
      `never sent ${query.abandoned}; queue delay p95 ${ms(query.queueDelay.p95)} ms (latency counts from the scheduled arrival)\n`,
  );
  const targetMet = query.latency.p95 <= QUERY_TARGET_P95_MS && query.errors === 0;
  process.stdout.write(
    `target: /query p95 ≤ ${QUERY_TARGET_P95_MS} ms at 100k chunks — ${
      CHUNKS >= 100_000 ? (targetMet ? 'met' : 'MISSED') : 'not measured (fewer chunks)'
    } (${ms(query.latency.p95)} ms at ${CHUNKS.toLocaleString('en')} chunks)\n`,
  );

  printTable(
    `(b) POST /api/v1/chat, ${CHAT_SESSIONS} concurrent sessions × ${QUESTIONS_PER_SESSION} questions (extractive, session_id after the first)`,
    ['run', 'requests', 'errors', 'error rate', 'per s', 'p50 ms', 'p95 ms', 'p99 ms', 'p95 ÷ in-process'],
    [
      [
        'in-process engine.ask (baseline, sequential)',
        String(askBaseline.n),
        '0',
        '0',
        '—',
        ms(askBaseline.p50),
        ms(askBaseline.p95),
        ms(askBaseline.p99),
        '1.0',
      ],
      [
        'HTTP sessions',
        String(chat.requests),
        String(chat.errors),
        fixed(chat.errorRate, 4),
        fixed(chat.perSecond),
        ms(chat.latency.p50),
        ms(chat.latency.p95),
        ms(chat.latency.p99),
        fixed(chat.latency.p95 / askBaseline.p95),
      ],
    ],
  );
  process.stdout.write(
    `chat: error rate ${chat.errorRate === 0 ? '0 (required 0: met)' : `${fixed(chat.errorRate, 4)} (required 0: MISSED; first: ${chat.firstError})`}; ` +
      `session id changed or missing in ${chat.sessionErrors} turns\n`,
  );

  printTable(
    `(c) /query at ${rate}/s while two ${fixed(UPLOAD_MB)} MB Markdown files upload concurrently`,
    ['file', 'bytes', 'POST status', 'chunks', 'to READY s', 'polls'],
    uploads.map((u) => [
      u.name,
      u.bytes.toLocaleString('en'),
      String(u.status),
      String(u.chunks),
      fixed(u.readyMs / 1000, 2),
      String(u.polls),
    ]),
  );
  const uploadRatio = underUploads.latency.p95 / query.latency.p95;
  process.stdout.write(
    `query p95 without uploads ${ms(query.latency.p95)} ms (run a), with uploads ${ms(underUploads.latency.p95)} ms ` +
      `(${underUploads.completed} queries arriving in the ${fixed(underUploads.durationS)} s upload window, ${underUploads.errors} errors); ` +
      `ratio ${fixed(uploadRatio, 2)}\n` +
      `load average at start ${loadAtStart}, at end ${loadAverage()} (1 min; ${os.cpus().length} cores)\n\n`,
  );

  writeResults('api', revision, {
    quick,
    chunks: CHUNKS,
    durationS: DURATION_S,
    clients: CLIENTS,
    rateLimitsOff: LIMITS_OFF,
    loadAverage: { start: Number(loadAtStart), end: Number(loadAverage()) },
    seed: { insertMs: build.insertMs, indexMs: build.indexMs, analyzeMs: build.analyzeMs },
    baseline,
    baselineByKind,
    closedLoop: { clients: CLIENTS, perSecond: capacity, latency: closedLatency },
    query: { ...query, ratioP95ToInProcess: query.latency.p95 / baseline.p95 },
    chat: { ...chat, ratioP95ToInProcess: chat.latency.p95 / askBaseline.p95 },
    uploads: {
      files: uploads,
      queryUnderUploads: underUploads,
      ratioP95: uploadRatio,
    },
    targets: { queryP95Ms: QUERY_TARGET_P95_MS, met: CHUNKS >= 100_000 ? targetMet : null },
    totalMs: nowMs() - benchStart,
  });
} finally {
  await server.close();
  await engine.close();
  await database.drop();
  rmSync(scratch, { recursive: true, force: true });
}
