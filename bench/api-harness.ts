/**
 * Helpers of `api.bench.ts`: the bench collection's workspace and API key, query questions, large
 * upload files, uploads that finish synchronously (201) or through a job (202, polled until READY),
 * percentiles with p99, and the load generator.
 *
 * The load generator runs in a child process (this file run with `--loadgen`), so its own work
 * (building requests, reading response bodies) does not share the server's event loop. The parent
 * writes one JSON `LoadSpec` line to its stdin (and later, optionally, `stop`); the child answers with
 * one JSON `LoadOutput` line on stdout. Times are `performance.timeOrigin + performance.now()` (epoch
 * ms, sub-ms resolution) so both processes can place requests on one time line.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { normalizeText } from '@saksi/proof';
import { DEFAULT_WORKSPACE } from '../packages/engine/src/collections.js';
import type { Engine } from '../packages/engine/src/engine.js';
import { createApiKey } from '../packages/engine/src/workspaces.js';
import { indonesianQuestions, percentile, seededRandom } from './engine-harness.js';

export const epochMs = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

// ---------------------------------------------------------------------------------------------
// Workspace and key

/**
 * An API key with every scope in the default workspace, where collections live today. The workspace
 * row is created first (the engine creates it lazily with the first collection).
 */
export async function benchApiKey(engine: Engine): Promise<string> {
  await engine.db.query(
    `INSERT INTO workspaces (id, name) VALUES ($1, 'Default') ON CONFLICT (id) DO NOTHING`,
    [DEFAULT_WORKSPACE],
  );
  const { key } = await createApiKey(engine.db, {
    workspaceId: DEFAULT_WORKSPACE,
    name: 'api bench',
    scopes: ['read', 'ingest', 'admin'],
  });
  return key;
}

// ---------------------------------------------------------------------------------------------
// Questions and files

const STOPWORDS = new Set(
  'yang dan atau dengan untuk dalam pada dari oleh sebagai adalah tersebut kepada terhadap setiap dapat tidak harus serta melalui antara bahwa huruf angka ayat pasal'.split(
    ' ',
  ),
);

/**
 * `count` query questions, alternating real questions (the eval sets, then FacQA-ID) with keyword
 * queries of 2–4 content words of a random seeded sentence (what people type into a search box).
 */
export function queryQuestions(pool: readonly string[], count: number, seed: number): string[] {
  const real = indonesianQuestions(count).questions;
  const random = seededRandom(seed);
  const keywords = () => {
    for (;;) {
      const sentence = pool[Math.floor(random() * pool.length)]!;
      const words = sentence
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((word) => word.length >= 5 && !STOPWORDS.has(word) && !/^\d+$/.test(word));
      if (words.length < 2) continue;
      const start = Math.floor(random() * Math.max(1, words.length - 3));
      return words.slice(start, start + 2 + Math.floor(random() * 3)).join(' ');
    }
  };
  return Array.from({ length: count }, (_, i) => (i % 2 === 0 ? (real[i / 2] ?? keywords()) : keywords()));
}

/**
 * A Markdown regulation of about `bytes` bytes made of real corpus sentences: BAB headings, then
 * `Pasal N` with numbered ayat of 1–4 sentences each. `seed` makes each file distinct (no dedupe).
 */
export function largeMarkdown(pool: readonly string[], bytes: number, seed: number): Uint8Array<ArrayBuffer> {
  const random = seededRandom(seed);
  const pick = () => pool[Math.floor(random() * pool.length)]!;
  const parts: string[] = [
    `# UNDANG-UNDANG REPUBLIK INDONESIA NOMOR ${seed} TAHUN 2026\n\nTENTANG UJI BEBAN ${seed}\n`,
  ];
  let size = parts[0]!.length;
  let pasal = 1;
  for (let bab = 1; size < bytes; bab++) {
    parts.push(`\n## BAB ${bab}\n`);
    for (let p = 0; p < 10 && size < bytes; p++, pasal++) {
      const lines = [`\n### Pasal ${pasal}\n`];
      const ayat = 1 + Math.floor(random() * 4);
      for (let a = 1; a <= ayat; a++) {
        const sentences = Array.from({ length: 1 + Math.floor(random() * 4) }, pick).join(' ');
        lines.push(`(${a}) ${sentences}\n`);
      }
      const text = lines.join('\n');
      parts.push(text);
      size += Buffer.byteLength(text);
    }
  }
  return new TextEncoder().encode(normalizeText(parts.join('')));
}

// ---------------------------------------------------------------------------------------------
// Uploads

export interface UploadOutcome {
  name: string;
  bytes: number;
  /** HTTP status of POST /documents: 201 (synchronous ingestion, today) or 202 (a job). */
  status: number;
  documentId: string;
  chunks: number;
  /** From the start of the POST until the document is READY (ms). */
  readyMs: number;
  /** Epoch ms of the start and of READY. */
  startedAt: number;
  readyAt: number;
  /** GET /documents/:id polls made (0 for a 201). */
  polls: number;
}

interface DocumentBody {
  id?: string;
  status?: string;
  chunk_count?: number;
  error?: { code?: string; message?: string } | null;
}

/**
 * POST /api/v1/documents (multipart) and, when it answers 202, GET /documents/:id every 250 ms until
 * the document is READY. Anything but READY (FAILED, a non-2xx answer, 10 minutes) throws.
 */
export async function uploadDocument(
  baseUrl: string,
  key: string,
  collection: string,
  name: string,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<UploadOutcome> {
  const headers = { authorization: `Bearer ${key}`, accept: 'application/json' };
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'text/markdown' }), name);
  form.append('collection', collection);
  form.append('language', 'id');
  const startedAt = epochMs();
  const response = await fetch(`${baseUrl}/api/v1/documents`, { method: 'POST', headers, body: form });
  const body = (await response.json()) as { document?: DocumentBody; error?: unknown };
  if (![200, 201, 202].includes(response.status) || !body.document?.id) {
    throw new Error(`upload of ${name} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  }
  let document = body.document;
  const documentId = body.document.id;
  let polls = 0;
  while (document.status !== 'READY') {
    if (document.status === 'FAILED' || epochMs() - startedAt > 10 * 60_000) {
      throw new Error(
        `upload of ${name}: document ${documentId} ${document.status} ${JSON.stringify(document.error)}`,
      );
    }
    await sleep(250);
    const poll = await fetch(`${baseUrl}/api/v1/documents/${documentId}`, { headers });
    polls++;
    const polled = (await poll.json()) as DocumentBody & { document?: DocumentBody };
    if (poll.status !== 200) throw new Error(`GET /documents/${documentId} answered ${poll.status}`);
    document = polled.document ?? polled;
  }
  const readyAt = epochMs();
  return {
    name,
    bytes: bytes.length,
    status: response.status,
    documentId,
    chunks: document.chunk_count ?? 0,
    readyMs: readyAt - startedAt,
    startedAt,
    readyAt,
    polls,
  };
}

// ---------------------------------------------------------------------------------------------
// Statistics

export interface LatencySummary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  max: number;
}

/** Nearest-rank p50/p95/p99 (engine-harness's `percentile`). */
export function latencySummary(values: readonly number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    mean: sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

// ---------------------------------------------------------------------------------------------
// Load generator

interface CommonSpec {
  url: string;
  key: string;
}

/** Fixed-size pool of clients, each sending its next request when its previous answer is read. */
export interface ClosedSpec extends CommonSpec {
  mode: 'closed';
  path: string;
  bodies: string[];
  clients: number;
  durationMs: number;
}

/**
 * Open loop: arrivals on a seeded Poisson schedule at `rate` per second for `durationMs`, whatever
 * the answers do. At most `maxInFlight` requests are outstanding; an arrival finding them all busy
 * waits in a backlog (FIFO) and is sent when one returns. Latency runs from the scheduled arrival.
 */
export interface OpenSpec extends CommonSpec {
  mode: 'open';
  path: string;
  bodies: string[];
  rate: number;
  maxInFlight: number;
  durationMs: number;
  seed: number;
  /** After the schedule ends, how long outstanding and backlogged requests may still take (ms). */
  drainMs: number;
}

/** `sessions` chat sessions at once, each asking `questionsPerSession` questions in turn with its session_id. */
export interface SessionsSpec extends CommonSpec {
  mode: 'sessions';
  collection: string;
  questions: string[];
  sessions: number;
  questionsPerSession: number;
}

export type LoadSpec = ClosedSpec | OpenSpec | SessionsSpec;

/** One request: `scheduledAt` is the arrival (open loop) or the send (closed loop, sessions). */
export interface RequestRecord {
  scheduledAt: number;
  sentAt: number;
  doneAt: number;
  status: number;
  /** Empty when the answer was a 200 of the expected shape. */
  error: string;
}

export interface LoadOutput {
  records: RequestRecord[];
  startedAt: number;
  /** End of the schedule (open), of the time budget (closed) or of the last session. */
  endedAt: number;
  /** Open loop: arrivals scheduled, the largest backlog seen, the backlog when the schedule ended, and arrivals never sent. */
  scheduled?: number;
  maxBacklog?: number;
  backlogAtEnd?: number;
  abandoned?: number;
  /** Sessions: sessions whose session_id changed or was missing. */
  sessionErrors?: number;
}

async function send(
  spec: CommonSpec,
  path: string,
  body: string,
  scheduledAt: number,
  accept: (status: number, json: unknown) => string,
): Promise<{ record: RequestRecord; json: unknown }> {
  const sentAt = epochMs();
  let status = 0;
  let json: unknown = null;
  let error = '';
  try {
    const response = await fetch(`${spec.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${spec.key}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body,
    });
    status = response.status;
    json = await response.json();
    error = accept(status, json);
  } catch (cause) {
    error = `network: ${cause instanceof Error ? cause.message : String(cause)}`;
  }
  return { record: { scheduledAt, sentAt, doneAt: epochMs(), status, error }, json };
}

const acceptQuery = (status: number, json: unknown) => {
  if (status !== 200) return `HTTP ${status} ${JSON.stringify(json).slice(0, 200)}`;
  return Array.isArray((json as { results?: unknown }).results) ? '' : 'no results array';
};

const acceptChat = (status: number, json: unknown) => {
  if (status !== 200) return `HTTP ${status} ${JSON.stringify(json).slice(0, 200)}`;
  const body = json as { answer?: unknown; session_id?: unknown; bundle?: { certificate?: unknown } };
  if (typeof body.answer !== 'string') return 'no answer';
  if (typeof body.session_id !== 'string') return 'no session_id';
  return typeof body.bundle?.certificate === 'object' ? '' : 'no certificate';
};

async function runClosed(spec: ClosedSpec, stopped: () => boolean): Promise<LoadOutput> {
  const records: RequestRecord[] = [];
  const startedAt = epochMs();
  const end = startedAt + spec.durationMs;
  let next = 0;
  await Promise.all(
    Array.from({ length: spec.clients }, async () => {
      while (epochMs() < end && !stopped()) {
        const body = spec.bodies[next++ % spec.bodies.length]!;
        records.push((await send(spec, spec.path, body, epochMs(), acceptQuery)).record);
      }
    }),
  );
  return { records, startedAt, endedAt: epochMs() };
}

async function runOpen(spec: OpenSpec, stopped: () => boolean): Promise<LoadOutput> {
  const random = seededRandom(spec.seed);
  const records: RequestRecord[] = [];
  const backlog: number[] = [];
  const outstanding = new Set<Promise<void>>();
  let inFlight = 0;
  let scheduled = 0;
  let maxBacklog = 0;
  let bodyIndex = 0;
  const dispatch = () => {
    while (inFlight < spec.maxInFlight && backlog.length > 0) {
      const scheduledAt = backlog.shift()!;
      const body = spec.bodies[bodyIndex++ % spec.bodies.length]!;
      inFlight++;
      const pending = send(spec, spec.path, body, scheduledAt, acceptQuery).then(({ record }) => {
        records.push(record);
        inFlight--;
        outstanding.delete(pending);
        dispatch();
      });
      outstanding.add(pending);
    }
  };
  const interArrival = () => (-Math.log(1 - random()) / spec.rate) * 1000;
  const startedAt = epochMs() + 5;
  const end = startedAt + spec.durationMs;
  let nextAt = startedAt + interArrival();
  while (nextAt < end && !stopped()) {
    await sleep(nextAt - epochMs());
    const now = epochMs();
    while (nextAt <= now && nextAt < end) {
      backlog.push(nextAt);
      scheduled++;
      nextAt += interArrival();
    }
    maxBacklog = Math.max(maxBacklog, backlog.length);
    dispatch();
  }
  const endedAt = Math.min(end, epochMs());
  const backlogAtEnd = backlog.length;
  const drainUntil = epochMs() + spec.drainMs;
  while ((outstanding.size > 0 || backlog.length > 0) && epochMs() < drainUntil) {
    await Promise.race([...outstanding, sleep(drainUntil - epochMs())]);
  }
  const abandoned = backlog.length;
  backlog.length = 0;
  await Promise.all(outstanding);
  return { records, startedAt, endedAt, scheduled, maxBacklog, backlogAtEnd, abandoned };
}

async function runSessions(spec: SessionsSpec): Promise<LoadOutput> {
  const records: RequestRecord[] = [];
  let sessionErrors = 0;
  const startedAt = epochMs();
  await Promise.all(
    Array.from({ length: spec.sessions }, async (_, session) => {
      let sessionId: string | null = null;
      for (let turn = 0; turn < spec.questionsPerSession; turn++) {
        const question = spec.questions[(session * spec.questionsPerSession + turn) % spec.questions.length]!;
        const body = JSON.stringify({
          collection: spec.collection,
          question,
          ...(sessionId ? { session_id: sessionId } : {}),
        });
        const { record, json } = await send(spec, '/api/v1/chat', body, epochMs(), acceptChat);
        records.push(record);
        const returned = (json as { session_id?: unknown } | null)?.session_id;
        if (record.error === '') {
          if (typeof returned !== 'string' || (sessionId !== null && returned !== sessionId)) sessionErrors++;
          sessionId ??= typeof returned === 'string' ? returned : null;
        }
      }
    }),
  );
  return { records, startedAt, endedAt: epochMs(), sessionErrors };
}

export async function runLoad(spec: LoadSpec, stopped: () => boolean = () => false): Promise<LoadOutput> {
  switch (spec.mode) {
    case 'closed':
      return runClosed(spec, stopped);
    case 'open':
      return runOpen(spec, stopped);
    case 'sessions':
      return runSessions(spec);
  }
}

export interface ChildLoad {
  /** Ends an open or closed run early (its schedule stops; outstanding requests still finish). */
  stop(): void;
  result: Promise<LoadOutput>;
}

/** Runs `spec` in a child Node process (this file with `--loadgen`, same loader flags as the parent). */
export function runLoadInChild(spec: LoadSpec): ChildLoad {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--loadgen'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.stdin.write(`${JSON.stringify(spec)}\n`);
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  const result = new Promise<LoadOutput>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const last = stdout.trim().split('\n').pop() ?? '';
      if (code !== 0 || !last.startsWith('{')) return reject(new Error(`load generator exited with ${code}`));
      try {
        resolve(JSON.parse(last) as LoadOutput);
      } catch {
        reject(new Error(`load generator's output is incomplete (${last.length} characters of JSON)`));
      }
    });
  });
  return {
    stop: () => {
      if (!child.stdin.destroyed) child.stdin.end('stop\n');
    },
    result,
  };
}

async function loadgenMain(): Promise<void> {
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  const first = await lines.next();
  const spec = JSON.parse(String(first.value)) as LoadSpec;
  let stop = false;
  void (async () => {
    for (let line = await lines.next(); !line.done; line = await lines.next()) {
      if (String(line.value).trim() === 'stop') stop = true;
    }
  })();
  const output = await runLoad(spec, () => stop);
  // Exit only once the records are flushed: on a pipe `process.exit` drops what is still buffered,
  // and a long run's records are hundreds of kilobytes.
  await new Promise<void>((resolve, reject) =>
    process.stdout.write(`${JSON.stringify(output)}\n`, (error) => (error ? reject(error) : resolve())),
  );
  process.exit(0);
}

if (process.argv.includes('--loadgen') && process.argv[1] === fileURLToPath(import.meta.url)) {
  await loadgenMain();
}
