/**
 * The hostile corpus (docs/security.md) through the compiled CLI, one `saksi ingest` child process per
 * file with its peak RSS, and through the upload route of a running `saksi serve`, with its RSS from
 * /proc and `/api/v1/health` polled every 50 ms. Per file: outcome, time, peak RSS; then crashes,
 * partial documents, files over 512 MB of RSS increase, and health latency while the 20,000-heading
 * and the 50 MB files ingest. Baseline: a plain small Markdown file ingested the same way, in the
 * same run. `--smoke` runs the CI subset (part of it on the CLI) and fails on a crash, a partial
 * document, a stack trace or an unexpected outcome. Writes bench/results/hostile.json.
 */
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openAsBlob,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type HostileCase,
  hostileCorpus,
  type WrittenHostileFile,
  writeHostileCorpus,
} from '@saksi/test-support/hostile';
import {
  check,
  dataRoot,
  fixed,
  gitRevision,
  nowMs,
  percentile,
  printTable,
  progressLog,
  writeResults,
} from './engine-harness.js';
import {
  buildCli,
  type CliRun,
  createApiKeyWithCli,
  isWhole,
  pollHealth,
  processMemory,
  type RunningServe,
  readStoredState,
  runCliIngest,
  STACK_TRACE,
  type Stalls,
  type StoredDocument,
  stallsOf,
  startServe,
  watchPeak,
  withoutStalls,
} from './hostile-harness.js';

// ---------------------------------------------------------------------------------------------
// Flags

function flag(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}
const smoke = process.argv.includes('--smoke');
const onlyPattern = flag('--only');
const only = onlyPattern ? new RegExp(onlyPattern) : undefined;
const skipCli = process.argv.includes('--skip-cli');
const skipServer = process.argv.includes('--skip-server');
const seed = Number(flag('--seed') ?? 15);
const timeoutS = Number(flag('--timeout') ?? (smoke ? 180 : 1200));
const keep = process.argv.includes('--keep');
const jsonPath = flag('--json');
check(Number.isInteger(seed), '--seed is an integer');
check(Number.isFinite(timeoutS) && timeoutS > 0, '--timeout is a positive number of seconds');

/** The targets of docs/security.md. */
const RSS_LIMIT_MB = 512;
const HEALTH_P99_TARGET_MS = 200;
/** The longest the server's event loop may be held at a time while a watched file ingests. */
const LOOP_TARGET_MS = 100;

/** A turn counts as held by the server when the process ran for most of it (bench/loop-monitor.mjs). */
const loopText = (loop: Stalls) =>
  `event loop held ≤ ${fixed(loop.longestBusy, 0)} ms (longest turn ${fixed(loop.longest, 0)} ms)`;
const COLLECTION = 'hostile';
/** Rate limits off, so 20 health polls a second are not refused (read by the server at start). */
const LIMITS_OFF = { SAKSI_PUBLIC_CHAT_LIMIT: '0', SAKSI_RATE_LIMIT_KEY: '0', SAKSI_RATE_LIMIT_IP: '0' };
/** With --smoke, the CLI (a new process per file, ~6 s each) runs only these. */
const SMOKE_CLI = new Set([
  'txt-plain-small',
  'md-headings-500',
  'enc-nul-single-md',
  'empty-empty-md',
  'html-scripts',
  'pdf-encrypted-rc4',
  'docx-bomb-1gb',
  'docx-xxe-file',
  'wrong-png-as-pdf',
  'filename-dot-dot-slash',
]);

/** A process that died, a file past the timeout, a 5xx, an upload the live server dropped. */
const CRASHES = new Set(['crash', 'timeout', 'dropped']);

const revision = gitRevision();
const began = nowMs();
const log = progressLog(began);
const sharedFiles = path.join(dataRoot, 'files');
const corpus = hostileCorpus({ seed, ...(existsSync(sharedFiles) ? { sharedFiles } : {}) });
const selected = corpus.filter((hostile) => (!smoke || hostile.ci) && (!only || only.test(hostile.id)));
check(selected.length > 0, 'the selection holds at least one case');

const directory = flag('--dir') ?? mkdtempSync(path.join(os.tmpdir(), 'saksi-hostile-bench-'));
mkdirSync(directory, { recursive: true });
process.stdout.write(
  `hostile corpus bench at ${revision}: ${selected.length} of ${corpus.length} cases${smoke ? ' (smoke)' : ''}, seed ${seed}, ` +
    `timeout ${timeoutS} s per file; ${os.cpus().length} CPUs, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB, load ${os.loadavg()[0]!.toFixed(2)}; files in ${directory}\n`,
);

// ---------------------------------------------------------------------------------------------
// The files

log('building the CLI (tsc -b)');
buildCli();
log('writing the corpus');
const written = await writeHostileCorpus(path.join(directory, 'files'), selected);
const seen = new Map<string, string>();
for (const file of written) {
  if (file.bytes === 0) continue;
  const other = seen.get(file.sha256);
  check(
    other === undefined,
    `${file.case.id} and ${other} have the same bytes (the second would be deduplicated)`,
  );
  seen.set(file.sha256, file.case.id);
}
log(
  `wrote ${written.length} files, ${(written.reduce((sum, file) => sum + file.bytes, 0) / 1e6).toFixed(0)} MB`,
);

/** Plain small Markdown files: a warm-up, then the three baseline runs (distinct bytes, so none is deduplicated). */
const baselineFiles = [0, 1, 2, 3].map((index) => {
  const file = path.join(directory, 'baseline', `catatan-${index}.md`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    `# Catatan ${index}\n\nSetiap orang yang mengemudikan kendaraan bermotor di jalan wajib memiliki surat izin mengemudi (${index}).\n\n## Sanksi\n\nDipidana dengan pidana kurungan paling lama empat bulan atau denda paling banyak satu juta rupiah.\n`,
  );
  return file;
});

/** One JSON line per file as it finishes, so a run that is stopped keeps what it measured. */
const progressFile = path.join(directory, 'progress.jsonl');
const recordProgress = (via: 'cli' | 'server', id: string, result: object) =>
  appendFileSync(progressFile, `${JSON.stringify({ via, id, ...result })}\n`);

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const timeoutMs = timeoutS * 1000;

// ---------------------------------------------------------------------------------------------
// The CLI

interface CliResult extends CliRun {
  increaseMb: number;
  timeRatio: number;
}

const cli = new Map<string, CliResult>();
let cliBaseline: { seconds: number; peakMb: number; firstStart: CliRun } | undefined;
let cliStored: { documents: StoredDocument[]; runningJobs: number } | undefined;
if (!skipCli) {
  const dataDir = path.join(directory, 'cli-data');
  const run = (file: string) => runCliIngest(file, { dataDir, collection: COLLECTION, timeoutMs });
  log('CLI: first start (migrations) and the baseline, a plain small Markdown file three times');
  const firstStart = await run(baselineFiles[0]!);
  check(
    firstStart.outcome === 'ingested',
    `the warm-up ingest works (${firstStart.outcome}: ${firstStart.detail})`,
  );
  const runs: CliRun[] = [];
  for (const file of baselineFiles.slice(1)) runs.push(await run(file));
  check(
    runs.every((entry) => entry.outcome === 'ingested'),
    'the baseline files ingest',
  );
  cliBaseline = {
    seconds: median(runs.map((entry) => entry.seconds)),
    peakMb: median(runs.map((entry) => entry.peakMb)),
    firstStart,
  };
  log(`CLI baseline: ${fixed(cliBaseline.seconds, 2)} s, peak ${fixed(cliBaseline.peakMb, 0)} MB`);
  const onCli = written.filter((file) => !smoke || SMOKE_CLI.has(file.case.id));
  for (const [index, file] of onCli.entries()) {
    const result = await run(file.path);
    const entry = {
      ...result,
      increaseMb: result.peakMb - cliBaseline.peakMb,
      timeRatio: result.seconds / cliBaseline.seconds,
    };
    cli.set(file.case.id, entry);
    recordProgress('cli', file.case.id, entry);
    log(
      `CLI [${index + 1}/${onCli.length}] ${file.case.id}: ${result.outcome} in ${fixed(result.seconds, 1)} s, peak ${fixed(result.peakMb, 0)} MB${result.outcome === 'crash' ? ` — ${oneLine(result.detail)}` : ''}`,
    );
  }
  cliStored = await readStoredState(dataDir);
}

// ---------------------------------------------------------------------------------------------
// The upload route of saksi serve

interface ServerResult {
  outcome: string;
  httpStatus: number | null;
  seconds: number;
  rssBeforeMb: number;
  peakMb: number;
  increaseMb: number;
  timeRatio: number;
  health: HealthSummary;
  /** The longest turns of the server's event loop while the file ingested (bench/loop-monitor.mjs). */
  loop: Stalls;
  /** Status polls (GET /documents/:id) whose connection the server dropped; each was sent again. */
  droppedPolls: number;
  stack: boolean;
  detail: string;
  documentId: string | null;
}

interface HealthSummary {
  n: number;
  /** Polls answered with anything but 200, or whose connection the server dropped. */
  failures: number;
  p50: number;
  p99: number;
  max: number;
}

function healthSummary({ latencies, failures }: { latencies: number[]; failures: number }): HealthSummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    n: sorted.length,
    failures,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

const server = new Map<string, ServerResult>();
let serverBaseline: { seconds: number; increaseMb: number; health: HealthSummary; loop: Stalls } | undefined;
let serverStored: { documents: StoredDocument[]; runningJobs: number } | undefined;
let serverRestarts = 0;
if (!skipServer) {
  const dataDir = path.join(directory, 'server-data');
  log('server: API key (saksi api-keys create), then saksi serve --no-demo');
  const key = createApiKeyWithCli(dataDir);
  const headers = { authorization: `Bearer ${key}`, accept: 'application/json' };
  let serve: RunningServe = await startServe(dataDir, LIMITS_OFF);
  const restart = async (documentId: string | null) => {
    serverRestarts++;
    await serve.stop().catch(() => undefined);
    serve = await startServe(dataDir, LIMITS_OFF);
    // The document the dead server was working on would be taken up again once its job's lease ends.
    if (documentId) await fetch(`${serve.url}/api/v1/documents/${documentId}`, { method: 'DELETE', headers });
  };

  const upload = async (file: string, filename: string): Promise<Omit<ServerResult, 'timeRatio'>> => {
    const rssBefore = processMemory(serve.pid)?.rss ?? Number.NaN;
    const stderrBefore = serve.output.stderr.length;
    const peak = watchPeak(serve.pid);
    const health = pollHealth(serve.url);
    const started = nowMs();
    const deadline = started + timeoutMs;
    let outcome = 'crash';
    let httpStatus: number | null = null;
    let stack = false;
    let detail = '';
    let documentId: string | null = null;
    const dropped = { polls: 0 };
    try {
      const form = new FormData();
      form.append('file', await openAsBlob(file), filename);
      form.append('collection', COLLECTION);
      const response = await fetch(`${serve.url}/api/v1/documents`, {
        method: 'POST',
        headers,
        body: form,
        signal: AbortSignal.timeout(timeoutMs),
      });
      httpStatus = response.status;
      const text = await response.text();
      stack = STACK_TRACE.test(text);
      const body = JSON.parse(text) as { error?: { code: string }; document?: { id: string } };
      if (response.status === 202 && body.document) {
        documentId = body.document.id;
        outcome = await waitForDocument(serve.url, documentId, headers, deadline, dropped, (found) => {
          stack ||= found;
        });
      } else if (response.status === 200) {
        outcome = 'deduplicated';
      } else if (response.status >= 400 && response.status < 500 && body.error) {
        outcome = body.error.code;
      } else {
        outcome = `http-${response.status}`;
        detail = text.slice(0, 300);
      }
    } catch (error) {
      // The upload itself failed: past the deadline a timeout; a live server that dropped it, `dropped`.
      outcome = nowMs() >= deadline ? 'timeout' : serve.alive() ? 'dropped' : 'crash';
      detail = `POST: ${error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error)}`;
    }
    const seconds = (nowMs() - started) / 1000;
    const peakMb = peak.stop();
    const latencies = await health.stop();
    const reported = serve.output.stderr.slice(stderrBefore);
    const loop = stallsOf(reported);
    const stderr = withoutStalls(reported);
    if (STACK_TRACE.test(stderr)) stack = true;
    if (!serve.alive()) {
      outcome = 'crash';
      const exit = await serve.exited;
      detail = `saksi serve exited (${exit.code ?? exit.signal}): ${oneLine(withoutStalls(serve.output.stderr).slice(-400))}`;
      await restart(documentId);
    } else if (outcome === 'timeout') {
      await restart(documentId);
    }
    return {
      outcome,
      httpStatus,
      seconds,
      rssBeforeMb: rssBefore,
      peakMb,
      increaseMb: peakMb - rssBefore,
      health: healthSummary(latencies),
      loop,
      droppedPolls: dropped.polls,
      stack,
      detail: detail || oneLine(stderr.slice(-300)),
      documentId,
    };
  };

  log('server: warm-up and the baseline, a plain small Markdown file three times');
  await upload(baselineFiles[0]!, 'catatan-0.md');
  const runs = [];
  for (const [index, file] of baselineFiles.slice(1).entries())
    runs.push(await upload(file, `catatan-${index + 1}.md`));
  check(
    runs.every((entry) => entry.outcome === 'ingested'),
    `the baseline uploads become READY (${runs.map((entry) => `${entry.outcome} ${entry.detail}`).join('; ')})`,
  );
  serverBaseline = {
    seconds: median(runs.map((entry) => entry.seconds)),
    increaseMb: median(runs.map((entry) => entry.increaseMb)),
    health: {
      n: runs.reduce((sum, entry) => sum + entry.health.n, 0),
      failures: runs.reduce((sum, entry) => sum + entry.health.failures, 0),
      p50: median(runs.map((entry) => entry.health.p50)),
      p99: Math.max(...runs.map((entry) => entry.health.p99)),
      max: Math.max(...runs.map((entry) => entry.health.max)),
    },
    loop: {
      longest: Math.max(...runs.map((entry) => entry.loop.longest)),
      longestBusy: Math.max(...runs.map((entry) => entry.loop.longestBusy)),
    },
  };
  log(
    `server baseline: ${fixed(serverBaseline.seconds, 2)} s to READY, RSS +${fixed(serverBaseline.increaseMb, 0)} MB, health max ${fixed(serverBaseline.health.max, 0)} ms, ${loopText(serverBaseline.loop)}`,
  );
  for (const [index, file] of written.entries()) {
    const result = await upload(file.path, file.case.filename);
    const entry = { ...result, timeRatio: result.seconds / serverBaseline.seconds };
    server.set(file.case.id, entry);
    recordProgress('server', file.case.id, entry);
    log(
      `server [${index + 1}/${written.length}] ${file.case.id}: ${result.outcome} in ${fixed(result.seconds, 1)} s, RSS +${fixed(result.increaseMb, 0)} MB, health p99 ${fixed(result.health.p99, 0)} ms max ${fixed(result.health.max, 0)} ms, ${loopText(result.loop)}${result.health.failures > 0 ? ` (${result.health.failures} polls failed)` : ''}${result.droppedPolls > 0 ? `, ${result.droppedPolls} status polls dropped` : ''}${CRASHES.has(result.outcome) || result.outcome.startsWith('http-') ? ` — ${oneLine(result.detail)}` : ''}`,
    );
  }
  await serve.stop();
  serverStored = await readStoredState(dataDir);
}

/**
 * GET /documents/:id every 100 ms until READY or FAILED; checks the chunks and the error text. A poll
 * whose connection the server dropped (Node closes requests it could not read for 60 s, as happens
 * after a long freeze) is counted and sent again.
 */
async function waitForDocument(
  url: string,
  id: string,
  headers: Record<string, string>,
  deadline: number,
  dropped: { polls: number },
  onStack: (found: boolean) => void,
): Promise<string> {
  const get = async <T>(path: string): Promise<T | undefined> => {
    try {
      const response = await fetch(`${url}${path}`, {
        headers,
        signal: AbortSignal.timeout(Math.max(1, Math.ceil(deadline - nowMs()))),
      });
      if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
      return (await response.json()) as T;
    } catch {
      dropped.polls++;
      return undefined;
    }
  };
  for (;;) {
    if (deadline - nowMs() <= 0) return 'timeout';
    const document = await get<{
      status: string;
      chunk_count: number;
      error: { code: string; message: string } | null;
    }>(`/api/v1/documents/${id}`);
    if (document && (document.status === 'READY' || document.status === 'FAILED')) {
      const chunks = await get<{ total: number }>(`/api/v1/documents/${id}/chunks?limit=1`);
      if (!chunks) continue;
      const total = chunks.total;
      if (document.status === 'READY')
        return total === document.chunk_count && total > 0 ? 'ingested' : 'partial';
      onStack(STACK_TRACE.test(document.error?.message ?? ''));
      return total === 0 ? (document.error?.code ?? 'FAILED') : 'partial';
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 240);
}

// ---------------------------------------------------------------------------------------------
// Partial documents, from the databases afterwards

/**
 * Documents left in a state they must never be in, by case: a document written by a CLI run that
 * failed, a READY document missing chunks, a FAILED one with chunks, one still PENDING/PROCESSING.
 */
function partialDocuments(
  stored: { documents: StoredDocument[] } | undefined,
  outcomes: Map<string, { outcome: string }>,
  via: 'cli' | 'server',
): Map<string, string> {
  const partial = new Map<string, string>();
  if (!stored) return partial;
  const bySha = new Map<string, WrittenHostileFile>(written.map((file) => [file.sha256, file]));
  for (const document of stored.documents) {
    const file = bySha.get(document.original_sha256);
    if (!file) continue; // a baseline file
    const outcome = outcomes.get(file.case.id)?.outcome;
    if (!isWhole(document)) {
      partial.set(
        file.case.id,
        `${document.status} with ${document.chunks} of ${document.chunk_count} chunks`,
      );
    } else if (via === 'cli' && outcome !== 'ingested') {
      partial.set(file.case.id, `a ${document.status} document left by a run that ended in ${outcome}`);
    } else if (document.status === 'READY' && outcome !== 'ingested') {
      partial.set(file.case.id, `READY in the database, ${outcome} over HTTP`);
    }
  }
  return partial;
}

const cliPartial = partialDocuments(cliStored, cli, 'cli');
const serverPartial = partialDocuments(serverStored, server, 'server');
for (const [id, why] of cliPartial) {
  const result = cli.get(id);
  if (result) result.detail = `PARTIAL: ${why}. ${result.detail}`;
}
for (const [id, why] of serverPartial) {
  const result = server.get(id);
  if (result) result.detail = `PARTIAL: ${why}. ${result.detail}`;
}

// ---------------------------------------------------------------------------------------------
// Report

const isCrash = (outcome: string | undefined) =>
  outcome !== undefined && (CRASHES.has(outcome) || outcome.startsWith('http-5'));
const unexpected = (hostile: HostileCase, outcome: string | undefined) =>
  outcome !== undefined &&
  !isCrash(outcome) &&
  outcome !== 'partial' &&
  !hostile.expect.includes(outcome as never);

const rows = written.map((file) => {
  const c = cli.get(file.case.id);
  const s = server.get(file.case.id);
  const mark = (outcome: string | undefined) =>
    outcome === undefined ? '—' : `${outcome}${unexpected(file.case, outcome) ? ' (!)' : ''}`;
  return [
    file.case.id,
    file.bytes >= 1e6 ? `${fixed(file.bytes / 1e6, 1)} MB` : `${fixed(file.bytes / 1e3, 1)} kB`,
    file.case.expect.length > 2
      ? `${file.case.expect[0]}|… (${file.case.expect.length})`
      : file.case.expect.join('|'),
    mark(c?.outcome),
    c ? fixed(c.seconds, 1) : '—',
    c ? fixed(c.timeRatio, 1) : '—',
    c ? fixed(c.peakMb, 0) : '—',
    c ? fixed(c.increaseMb, 0) : '—',
    mark(s?.outcome),
    s ? fixed(s.seconds, 1) : '—',
    s ? fixed(s.timeRatio, 1) : '—',
    s ? fixed(s.increaseMb, 0) : '—',
    s ? `${fixed(s.health.max, 0)}${s.health.failures > 0 ? ` (${s.health.failures} failed)` : ''}` : '—',
    s ? `${fixed(s.loop.longestBusy, 0)} / ${fixed(s.loop.longest, 0)}` : '—',
  ];
});
printTable(
  'Per file (CLI: a new process per file, peak RSS of the process; server: time from POST to READY/FAILED, RSS increase of the server, slowest /health answer, longest turn of the server event loop with the process running / at all)',
  [
    'case',
    'size',
    'expected',
    'CLI outcome',
    'CLI s',
    '× base',
    'peak MB',
    'Δ MB',
    'server outcome',
    's',
    '× base',
    'Δ MB',
    'health max ms',
    'loop busy / any ms',
  ],
  rows,
);

const count = (
  results: Map<string, { outcome: string }>,
  predicate: (outcome: string, id: string) => boolean,
) => [...results].filter(([id, result]) => predicate(result.outcome, id)).map(([id]) => id);
const byId = new Map(written.map((file) => [file.case.id, file.case]));
const summary = (via: 'cli' | 'server') => {
  const results: Map<string, { outcome: string; increaseMb: number; stack: boolean }> =
    via === 'cli' ? cli : server;
  const partial = via === 'cli' ? cliPartial : serverPartial;
  return {
    files: results.size,
    crashes: count(results, (outcome) => isCrash(outcome)),
    partial: [...new Set([...partial.keys(), ...count(results, (outcome) => outcome === 'partial')])],
    unexpected: count(results, (outcome, id) => unexpected(byId.get(id)!, outcome)),
    stackTraces: [...results].filter(([, result]) => result.stack).map(([id]) => id),
    overRss: [...results].filter(([, result]) => result.increaseMb > RSS_LIMIT_MB).map(([id]) => id),
    deduplicated: count(results, (outcome) => outcome === 'deduplicated'),
  };
};
const cliSummary = summary('cli');
const serverSummary = summary('server');
const watched = written
  .filter((file) => file.case.watchHealth && server.has(file.case.id))
  .map((file) => ({
    id: file.case.id,
    ...server.get(file.case.id)!.health,
    loop: server.get(file.case.id)!.loop,
  }));

process.stdout.write('\nSummary\n');
for (const [via, result] of [
  ['CLI', cliSummary],
  ['server', serverSummary],
] as const) {
  if (result.files === 0) continue;
  const list = (ids: string[]) => (ids.length === 0 ? '0' : `${ids.length} (${ids.join(', ')})`);
  process.stdout.write(
    `  ${via}: ${result.files} files; crashes, timeouts, 5xx or dropped uploads ${list(result.crashes)}; partial documents ${list(result.partial)}; ` +
      `stack traces ${list(result.stackTraces)}; unexpected outcomes ${list(result.unexpected)}; ` +
      `over ${RSS_LIMIT_MB} MB RSS increase ${list(result.overRss)}${result.deduplicated.length > 0 ? `; deduplicated ${list(result.deduplicated)}` : ''}\n`,
  );
}
if (cliStored)
  process.stdout.write(
    `  CLI database: ${cliStored.documents.length} documents, ${cliStored.runningJobs} jobs left RUNNING\n`,
  );
if (serverStored) {
  process.stdout.write(
    `  server database: ${serverStored.documents.length} documents, ${serverStored.runningJobs} jobs left RUNNING; server restarts ${serverRestarts}\n`,
  );
}
for (const entry of watched) {
  process.stdout.write(
    `  /api/v1/health while ${entry.id} ingests: p50 ${fixed(entry.p50, 0)} ms, p99 ${fixed(entry.p99, 0)} ms, max ${fixed(entry.max, 0)} ms over ${entry.n} polls (${entry.failures} failed) — target p99 ≤ ${HEALTH_P99_TARGET_MS} ms ${entry.p99 <= HEALTH_P99_TARGET_MS ? 'met' : 'MISSED'}; ` +
      `event loop held by the server at most ${fixed(entry.loop.longestBusy, 0)} ms at a time (longest turn ${fixed(entry.loop.longest, 0)} ms) — target ≤ ${LOOP_TARGET_MS} ms ${entry.loop.longestBusy <= LOOP_TARGET_MS ? 'met' : 'MISSED'}\n`,
  );
}
if (cliBaseline) {
  process.stdout.write(
    `  baseline (plain small Markdown): CLI ${fixed(cliBaseline.seconds, 2)} s, peak ${fixed(cliBaseline.peakMb, 0)} MB (first start with migrations: ${fixed(cliBaseline.firstStart.seconds, 1)} s, ${fixed(cliBaseline.firstStart.peakMb, 0)} MB)` +
      (serverBaseline
        ? `; server ${fixed(serverBaseline.seconds, 2)} s to READY, RSS +${fixed(serverBaseline.increaseMb, 0)} MB`
        : '') +
      '\n',
  );
}

const report = {
  smoke,
  seed,
  timeout_s: timeoutS,
  targets: {
    rss_increase_mb: RSS_LIMIT_MB,
    health_p99_ms: HEALTH_P99_TARGET_MS,
    event_loop_ms: LOOP_TARGET_MS,
  },
  baseline: { cli: cliBaseline, server: serverBaseline },
  summary: { cli: cliSummary, server: serverSummary, server_restarts: serverRestarts, health: watched },
  databases: {
    cli: cliStored ? { documents: cliStored.documents.length, running_jobs: cliStored.runningJobs } : null,
    server: serverStored
      ? { documents: serverStored.documents.length, running_jobs: serverStored.runningJobs }
      : null,
  },
  files: written.map((file) => ({
    id: file.case.id,
    family: file.case.family,
    filename: file.case.filename,
    bytes: file.bytes,
    sha256: file.sha256,
    expect: file.case.expect,
    cli: cli.get(file.case.id) ?? null,
    server: server.get(file.case.id) ?? null,
  })),
};
writeResults(smoke ? 'hostile-smoke' : 'hostile', revision, report);
if (jsonPath) writeFileSync(jsonPath, `${JSON.stringify({ revision, ...report }, null, 2)}\n`);
process.stdout.write(`took ${((nowMs() - began) / 60_000).toFixed(1)} min\n`);
if (!keep && !flag('--dir')) rmSync(directory, { recursive: true, force: true });

if (smoke) {
  const failures = [cliSummary, serverSummary].flatMap((result) => [
    ...result.crashes,
    ...result.partial,
    ...result.stackTraces,
    ...result.unexpected,
  ]);
  if (failures.length > 0) {
    process.stderr.write(
      `hostile smoke: ${failures.length} failures (${[...new Set(failures)].join(', ')})\n`,
    );
    process.exit(1);
  }
}
