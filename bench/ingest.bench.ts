/**
 * Ingestion under hostile sizes (bench/README.md, "Ingestion benchmark"): for each file, a fresh engine
 * on PGlite behind the real server ingests it the way an API upload is ingested (`engine.submit`, then
 * the job worker) while the samplers run — in the child, the event-loop gap and the peak RSS (the
 * extraction process included); in the parent, a separate process, `GET /api/v1/health` every 50 ms
 * over HTTP, timed from the moment it was due. Each case runs in a child process of its own, so one
 * case's memory does not show in the next. The baseline is the same samplers over an engine left idle,
 * in the same run: every stall and health figure is also shown as a ratio to it.
 *
 * Nothing is asserted about time; it fails only on a broken setup (a case with no outcome).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { startServer } from '@saksi/server';
import { loadConfig } from '../packages/engine/src/config.js';
import { Engine } from '../packages/engine/src/engine.js';
import { check, fixed, gitRevision, printTable, writeResults } from './engine-harness.js';
import {
  emptyHeadings,
  type LoopSample,
  type ProbeSample,
  sampleEventLoop,
  samplePeakRss,
  sampleProbe,
  statuteMarkdown,
  statuteSentences,
  textPdf,
} from './ingest-harness.js';

const quick = process.argv.includes('--quick');
/** `--only <text>`: only the cases whose name contains it (and the baseline). */
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const STALL_TARGET_MS = 100;
const RSS_TARGET_MB = 512;
const HEALTH_TARGET_P99_MS = 200;
const IDLE_MS = 3_000;
const MB = 1024 * 1024;

interface Case {
  name: string;
  filename: string;
  build(pool: readonly string[]): Uint8Array;
}

const CASES: Case[] = [
  { name: '20,000 empty headings', filename: 'headings.md', build: () => emptyHeadings(20_000) },
  ...(quick
    ? [
        {
          name: '1 MB statute Markdown',
          filename: 'statute-1mb.md',
          build: (pool: readonly string[]) => statuteMarkdown(pool, MB, 1),
        },
        {
          name: '300-page PDF',
          filename: 'pages-300.pdf',
          build: (pool: readonly string[]) => textPdf(pool, 300, 20, 3),
        },
      ]
    : [
        {
          name: '5 MB statute Markdown',
          filename: 'statute-5mb.md',
          build: (pool: readonly string[]) => statuteMarkdown(pool, 5 * MB, 5),
        },
        {
          name: '50 MB statute Markdown',
          filename: 'statute-50mb.md',
          build: (pool: readonly string[]) => statuteMarkdown(pool, 49 * MB, 50),
        },
        {
          name: '2,000-page PDF',
          filename: 'pages-2000.pdf',
          build: (pool: readonly string[]) => textPdf(pool, 2_000, 20, 7),
        },
        {
          name: '6,000-page PDF',
          filename: 'pages-6000.pdf',
          build: (pool: readonly string[]) => textPdf(pool, 6_000, 4, 11),
        },
      ]),
];

interface CaseResult {
  name: string;
  bytes: number;
  outcome: string;
  seconds: number;
  rssBeforeMb: number;
  /** The server process's RSS rise. */
  rssRiseMb: number;
  /** The rise of the server's RSS plus its children's (the extraction process), over the same start. */
  totalRiseMb: number;
  loop: LoopSample;
  health: ProbeSample;
}

/** RSS of this process's children (the extraction process), from `/proc`; 0 elsewhere. */
function childrenRss(): number {
  try {
    const ids = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim();
    return (ids ? ids.split(/\s+/) : []).reduce((total, id) => {
      try {
        return total + Number(readFileSync(`/proc/${id}/statm`, 'utf8').split(' ')[1]) * 4096;
      } catch {
        return total;
      }
    }, 0);
  } catch {
    return 0;
  }
}

// ---------------------------------------------------------------------------------------------
// A child: one case (or the idle baseline) on a fresh engine

async function runChild(name: string): Promise<Omit<CaseResult, 'health'>> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'saksi-ingest-bench-'));
  const config = loadConfig(
    // Warnings only: this process's standard output carries the result line the parent reads.
    {
      SAKSI_DATA_DIR: dataDir,
      SAKSI_ANCHOR: 'none',
      SAKSI_DEMO: '0',
      SAKSI_WORKER: 'off',
      LOG_LEVEL: 'warn',
    },
    dataDir,
  );
  const engine = await Engine.open({ config });
  const server = await startServer(engine, { port: 0, host: '127.0.0.1' });
  try {
    const pool = await statuteSentences();
    // Warm-up: the extraction process starts and the collection exists before anything is measured.
    await engine.ingest('bench-ingest', {
      bytes: statuteMarkdown(pool, 100 * 1024, 99),
      filename: 'warm-up.md',
    });
    const benchCase = CASES.find((item) => item.name === name);
    const bytes = benchCase?.build(pool) ?? new Uint8Array();
    global.gc?.();
    const rssBefore = process.memoryUsage.rss();
    const totalBefore = rssBefore + childrenRss();
    const rss = samplePeakRss();
    const loop = sampleEventLoop();
    // The parent probes /api/v1/health from the moment this line appears until the result does.
    process.stdout.write(`LISTENING ${server.url}\n`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    let outcome: string;
    if (!benchCase) {
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      outcome = 'idle';
    } else {
      outcome = await ingestAsUploaded(engine, benchCase.filename, bytes);
    }
    const seconds = (performance.now() - started) / 1000;
    const loopSample = loop.stop();
    const peak = await rss.stop();
    const result = {
      name,
      bytes: bytes.length,
      outcome,
      seconds,
      rssBeforeMb: rssBefore / MB,
      rssRiseMb: (peak.server - rssBefore) / MB,
      totalRiseMb: (peak.withChildren - totalBefore) / MB,
      loop: loopSample,
    };
    // The result first, then a moment for the parent's last probes before the server closes.
    process.stdout.write(`${JSON.stringify(result)}\n`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return result;
  } finally {
    await server.close();
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `engine.submit` (what `POST /api/v1/documents` does), then the job worker until the document settles. */
async function ingestAsUploaded(engine: Engine, filename: string, bytes: Uint8Array): Promise<string> {
  let submitted: Awaited<ReturnType<Engine['submit']>>;
  try {
    submitted = await engine.submit('bench-ingest', { bytes, filename }, { workspaceId: 'wsp_default' });
  } catch (error) {
    return `refused ${(error as { code?: string }).code ?? 'error'}`;
  }
  engine.workers.start({ pollMs: 50 });
  try {
    for (;;) {
      const document = await engine.documents.get(submitted.document.id);
      if (document.status === 'READY') return `READY, ${document.chunk_count.toLocaleString('en')} chunks`;
      if (document.status === 'FAILED') return `FAILED ${document.error?.code ?? ''}`.trim();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await engine.workers.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// The parent: every case in a child of its own, then the table

/** Runs one case in a child process, probing its `/api/v1/health` while it ingests. */
async function runInChild(name: string): Promise<CaseResult> {
  const child = spawn(
    process.execPath,
    [
      '--conditions=source',
      '--import',
      'tsx',
      '--expose-gc',
      path.join(import.meta.dirname, 'ingest.bench.ts'),
      '--child',
      name,
      ...(quick ? ['--quick'] : []),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let probe: ReturnType<typeof sampleProbe> | undefined;
  let result: Omit<CaseResult, 'health'> | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    if (line.startsWith('LISTENING ')) {
      const url = `${line.slice('LISTENING '.length)}/api/v1/health`;
      probe = sampleProbe(async () => {
        const response = await fetch(url, { signal: AbortSignal.timeout(600_000) });
        if (!response.ok) throw new Error(`health answered ${response.status}`);
        await response.arrayBuffer();
      });
    } else if (line.startsWith('{')) {
      result = JSON.parse(line) as Omit<CaseResult, 'health'>;
      break;
    }
  }
  const health = await probe?.stop();
  const code = await exited;
  check(
    result !== undefined && health !== undefined,
    `case "${name}" printed its result (exit code ${code})`,
  );
  return { ...result, health };
}

const childIndex = process.argv.indexOf('--child');
if (childIndex >= 0) {
  await runChild(process.argv[childIndex + 1] ?? '');
  process.exit(0);
}

const revision = gitRevision();
process.stdout.write(
  `Ingestion benchmark at ${revision}${quick ? ' (--quick)' : ''}: PGlite, hash embeddings, load average ${os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}\n`,
);
const idle = await runInChild('idle');
const results: CaseResult[] = [];
for (const benchCase of CASES.filter((item) => only === undefined || item.name.includes(only))) {
  process.stdout.write(`  ${benchCase.name}…\n`);
  const result = await runInChild(benchCase.name);
  check(result.outcome !== '', `case "${benchCase.name}" has an outcome`);
  results.push(result);
}
const ratio = (value: number, base: number) => (base > 0 ? `${fixed(value / base, 1)}×` : '—');
printTable(
  `Ingestion, each case on a fresh engine (baseline: the same engine idle for ${IDLE_MS / 1000} s)`,
  [
    'case',
    'MB',
    'outcome',
    's',
    'RSS rise MB',
    '+ children MB',
    'max stall ms',
    '× idle',
    'p99 stall ms',
    'busy stall ms',
    'health p99 ms',
    '× idle',
    'health max ms',
    'health errors',
  ],
  [idle, ...results].map((result) => [
    result.name === 'idle' ? 'idle (baseline)' : result.name,
    fixed(result.bytes / MB, 2),
    result.outcome,
    fixed(result.seconds, 1),
    fixed(result.rssRiseMb, 0),
    fixed(result.totalRiseMb, 0),
    fixed(result.loop.maxStallMs, 0),
    ratio(result.loop.maxStallMs, idle.loop.maxStallMs),
    fixed(result.loop.p99StallMs, 0),
    fixed(result.loop.maxBusyStallMs, 0),
    fixed(result.health.p99Ms, 0),
    ratio(result.health.p99Ms, idle.health.p99Ms),
    fixed(result.health.maxMs, 0),
    String(result.health.failed),
  ]),
);
const worst = (pick: (result: CaseResult) => number) => Math.max(...results.map(pick));
const verdict = (met: boolean) => (met ? 'met' : 'MISSED');
const maxStall = worst((result) => result.loop.maxStallMs);
const maxBusy = worst((result) => result.loop.maxBusyStallMs);
const maxRise = worst((result) => Math.max(result.rssRiseMb, result.totalRiseMb));
const maxHealth = worst((result) => result.health.p99Ms);
process.stdout.write(
  `\ntarget: longest event-loop stall ≤ ${STALL_TARGET_MS} ms — ${verdict(maxStall <= STALL_TARGET_MS)} (${fixed(maxStall, 0)} ms; idle ${fixed(idle.loop.maxStallMs, 0)} ms; of it spent working: at most ${fixed(maxBusy, 0)} ms)\n` +
    `target: RSS rise per file ≤ ${RSS_TARGET_MB} MB, extraction process included — ${verdict(maxRise <= RSS_TARGET_MB)} (${fixed(maxRise, 0)} MB)\n` +
    `target: health p99 ≤ ${HEALTH_TARGET_P99_MS} ms while ingesting — ${verdict(maxHealth <= HEALTH_TARGET_P99_MS)} (${fixed(maxHealth, 0)} ms; idle ${fixed(idle.health.p99Ms, 0)} ms)\n`,
);
writeResults(quick ? 'ingest-quick' : 'ingest', revision, { quick, idle, results });
