import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ANVIL_DEFAULT_PRIVATE_KEY, deployDocumentRegistry, startAnvil } from '@saksi/contracts';
import {
  canonicalizeToBytes,
  fromHex,
  hashLeaf,
  type LogEntry,
  parseCheckpoint,
  parseNote,
  toBase64,
  toHex,
  utf8Encode,
  verifyInclusionProof,
} from '@saksi/proof';
import { uuidv7 } from '@saksi/proof/issue';
import { createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { AnchorEvent, RoundRow } from '../packages/engine/src/anchor/service.js';
import { loadConfig } from '../packages/engine/src/config.js';
import { Engine } from '../packages/engine/src/engine.js';
import type { LogAppendResult } from '../packages/engine/src/log/transparency-log.js';
import {
  check,
  createTemporaryDatabase,
  fixed,
  gitRevision,
  nowMs,
  printTable,
  progressLog,
  type Summary,
  summarize,
  writeResults,
} from './engine-harness.js';

const databaseUrl = process.env['DATABASE_URL'];
type Backend = 'pglite' | 'postgres';
/** PostgreSQL first: it is the backend the targets are about. */
const backends: Backend[] = databaseUrl ? ['postgres', 'pglite'] : ['pglite'];
const anchorBackend: Backend = databaseUrl ? 'postgres' : 'pglite';

const BATCHED_APPENDS = 2_000;
const IN_FLIGHT = 200;
const SINGLE_COMMITS = 1_000;
const UNBATCHED_APPENDS = 300;
const REPEATS = 3;
const TARGET_APPENDS_PER_SECOND = 1_000;
const TARGET_RATIO = 10;
const ANCHOR_SIZES = [1, 500] as const;
const ANCHOR_REPEATS = 3;
/**
 * A warm-up round first: the first `anchorRoot` on a fresh contract sets its root counter from zero
 * (a ~17k-gas dearer SSTORE), which would flatter the rounds after it. Then the sizes, interleaved.
 */
const ANCHOR_ROUNDS = [
  { documents: 1, warmup: true },
  ...Array.from({ length: ANCHOR_REPEATS }, () =>
    ANCHOR_SIZES.map((documents) => ({ documents, warmup: false })),
  ).flat(),
];

const revision = gitRevision();

const benchStart = nowMs();
/** The 1-minute load average: other work on the machine moves every figure here (fsync above all). */
const loadAverage = () => fixed(os.loadavg()[0] ?? Number.NaN, 2);
const log = progressLog(benchStart);

process.stdout.write(
  `Log and anchoring benchmarks at ${revision} — Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, ` +
    `backends: ${backends.join(', ')}; load average ${loadAverage()}\n\n`,
);

// ---------------------------------------------------------------------------------------------
// Engines on fresh databases

const scratch = mkdtempSync(path.join(os.tmpdir(), 'saksi-log-bench-'));
let databaseCounter = 0;

async function openEngine(
  backend: Backend,
  label: string,
  env: Record<string, string> = {},
): Promise<{ engine: Engine; close(): Promise<void> }> {
  const dataDir = path.join(scratch, `${backend}-${label}`);
  const database =
    backend === 'postgres'
      ? await createTemporaryDatabase(databaseUrl!, `saksi_logbench_${process.pid}_${databaseCounter++}`)
      : undefined;
  const config = loadConfig(
    {
      SAKSI_DATA_DIR: dataDir,
      SAKSI_DEMO: '0',
      SAKSI_ANCHOR: 'none',
      ...env,
      ...(database ? { DATABASE_URL: database.url } : {}),
    },
    dataDir,
  );
  const engine = await Engine.open({ config, pgliteDataDir: path.join(dataDir, 'pglite') });
  return {
    engine,
    async close() {
      await engine.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// 1. Log appends

/**
 * A log entry as the engine writes it (docs/transparency-log.md, "Entries and checkpoints"): RFC 8785 JSON of
 * {certificate_id, certificate_sha256, signature, issued_at}, with a fresh UUIDv7, a random digest and random
 * signature bytes (the log does not check them): 287 bytes.
 */
function leafInput(): { certificateId: string; leafInput: Uint8Array } {
  const entry: LogEntry = {
    certificate_id: uuidv7(),
    certificate_sha256: randomBytes(32).toString('hex'),
    signature: randomBytes(64).toString('base64'),
    issued_at: new Date().toISOString(),
  };
  return { certificateId: entry.certificate_id, leafInput: canonicalizeToBytes(entry) };
}

/** Runs `total` calls of `work`, at most `concurrency` at a time; returns each call's latency (ms). */
async function inFlight(
  total: number,
  concurrency: number,
  work: (index: number) => Promise<unknown>,
): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, total) }, async () => {
      while (next < total) {
        const index = next++;
        const start = nowMs();
        await work(index);
        latencies.push(nowMs() - start);
      }
    }),
  );
  return latencies;
}

interface PathRun {
  count: number;
  wallMs: number;
  perSecond: number;
  latency: Summary;
}

interface PathResult {
  name: string;
  count: number;
  concurrency: number;
  /** Median of the repeats. */
  perSecond: number;
  minPerSecond: number;
  maxPerSecond: number;
  /** Latency of each call, over all repeats. */
  latency: Summary;
  runs: PathRun[];
}

interface LogRun {
  backend: Backend;
  settings: Record<string, string>;
  leafBytes: Summary;
  single: PathResult;
  batched: PathResult;
  unbatched: PathResult;
  /** Median over the repeats of (path ÷ single commits) within each repeat. */
  batchedOverSingle: number;
  unbatchedOverSingle: number;
  sequencer: {
    batches: number;
    entries: number;
    largestBatch: number;
    meanBatch: number;
    /** Sizes of the measured batches, in order (read off `appendBatch`, which the sequencer calls once per batch). */
    sizes: number[];
  };
  logSize: number;
}

const SCRATCH_TABLE = `CREATE TABLE bench_single_commits (
  id serial PRIMARY KEY,
  certificate_id text NOT NULL UNIQUE,
  leaf_input text NOT NULL,
  leaf_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
)`;

const median = (values: readonly number[]) => summarize(values).p50;
/**
 * Median over the repeats of `path` ÷ `baseline` within the same repeat: the two ran back to back, so
 * the ratio cancels most of what the machine was doing at the time.
 */
const pairedRatio = (path: PathResult, baseline: PathResult) =>
  median(path.runs.map((run, index) => run.perSecond / baseline.runs[index]!.perSecond));

function pathResult(name: string, concurrency: number, runs: PathRun[], latencies: number[]): PathResult {
  const rates = runs.map((run) => run.perSecond);
  return {
    name,
    count: runs[0]!.count,
    concurrency,
    perSecond: median(rates),
    minPerSecond: Math.min(...rates),
    maxPerSecond: Math.max(...rates),
    latency: summarize(latencies),
    runs,
  };
}

async function logBenchmark(backend: Backend): Promise<LogRun> {
  const opened = await openEngine(backend, 'log');
  const { engine } = opened;
  const settings: Record<string, string> = {};
  for (const name of ['synchronous_commit', 'fsync', 'wal_sync_method', 'commit_delay']) {
    const result = await engine.db.query<Record<string, string>>(`SHOW ${name}`);
    settings[name] = Object.values(result.rows[0] ?? {})[0] ?? '?';
  }
  await engine.db.exec(SCRATCH_TABLE);
  // Observe (not change) the sequencer's batches: each batch is one `appendBatch` call.
  const batchSizes: number[] = [];
  const appendBatch = engine.log.appendBatch.bind(engine.log);
  engine.log.appendBatch = (tx, entries) => {
    batchSizes.push(entries.length);
    return appendBatch(tx, entries);
  };

  const singleCommit = async (item: { certificateId: string; leafInput: Uint8Array }) => {
    await engine.db.query(
      'INSERT INTO bench_single_commits (certificate_id, leaf_input, leaf_hash) VALUES ($1, $2, $3)',
      [item.certificateId, toBase64(item.leafInput), toHex(hashLeaf(item.leafInput))],
    );
  };
  const unbatchedAppend = (item: { certificateId: string; leafInput: Uint8Array }) =>
    engine.db.transaction((tx) => engine.log.append(tx, item.certificateId, item.leafInput));

  // Leaf inputs are made before timing: a caller has its entry before it appends it.
  const total = (SINGLE_COMMITS + BATCHED_APPENDS + UNBATCHED_APPENDS) * REPEATS + 400;
  const items = Array.from({ length: total }, leafInput);
  let used = 0;
  const take = (count: number) => {
    const slice = items.slice(used, used + count);
    used += count;
    return slice;
  };
  const leafBytes = summarize(items.map((item) => item.leafInput.length));

  // Warm-up of each path (connections, JIT, the log's node cache).
  for (const item of take(100)) await singleCommit(item);
  const warm = take(250);
  await inFlight(warm.length, 50, (index) => engine.sequencer.append(warm[index]!));
  for (const item of take(50)) await unbatchedAppend(item);
  const statsBefore = { ...engine.sequencer.stats };
  batchSizes.length = 0;
  let appended = 300;

  const timed = async (
    count: number,
    concurrency: number,
    work: (item: { certificateId: string; leafInput: Uint8Array }) => Promise<unknown>,
    into: number[],
  ): Promise<PathRun> => {
    const batch = take(count);
    const start = nowMs();
    const latencies = await inFlight(count, concurrency, (index) => work(batch[index]!));
    const wallMs = nowMs() - start;
    into.push(...latencies);
    return { count, wallMs, perSecond: (count / wallMs) * 1000, latency: summarize(latencies) };
  };

  const runs = { single: [] as PathRun[], batched: [] as PathRun[], unbatched: [] as PathRun[] };
  const latencies = { single: [] as number[], batched: [] as number[], unbatched: [] as number[] };
  let lastBatched: LogAppendResult | undefined;
  let lastBatchedItem: { leafInput: Uint8Array } | undefined;
  const sequencerSizes: number[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    // Interleaved, so drift (autovacuum, a growing log) touches every path alike.
    runs.single.push(await timed(SINGLE_COMMITS, 1, singleCommit, latencies.single));
    const unbatchedCalls = batchSizes.length;
    runs.batched.push(
      await timed(
        BATCHED_APPENDS,
        IN_FLIGHT,
        async (item) => {
          lastBatched = await engine.sequencer.append(item);
          lastBatchedItem = item;
        },
        latencies.batched,
      ),
    );
    sequencerSizes.push(...batchSizes.slice(unbatchedCalls));
    runs.unbatched.push(await timed(UNBATCHED_APPENDS, 1, unbatchedAppend, latencies.unbatched));
    appended += BATCHED_APPENDS + UNBATCHED_APPENDS;
    log(
      `log on ${backend}, repeat ${repeat + 1}/${REPEATS}: single commits ${fixed(runs.single.at(-1)!.perSecond, 0)}/s, ` +
        `batched ${fixed(runs.batched.at(-1)!.perSecond, 0)}/s, unbatched ${fixed(runs.unbatched.at(-1)!.perSecond, 0)}/s`,
    );
  }

  // The setup is right: every append is in the log, and a batched result's proof checks out.
  const size = (await engine.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM log_entries'))
    .rows[0]!.n;
  check(size === appended, `log size ${size} equals the ${appended} appends`);
  const singles = (
    await engine.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM bench_single_commits')
  ).rows[0]!.n;
  check(singles === 100 + SINGLE_COMMITS * REPEATS, 'every single-row commit is stored');
  check(lastBatched !== undefined && lastBatchedItem !== undefined, 'batched appends returned results');
  const checkpoint = parseCheckpoint(parseNote(lastBatched.checkpoint).text);
  check(
    verifyInclusionProof(
      lastBatched.leaf_index,
      lastBatched.size,
      hashLeaf(lastBatchedItem.leafInput),
      lastBatched.inclusion_proof.map((hash) => fromHex(hash, 32)),
      checkpoint.rootHash,
    ),
    'a batched append verifies against its checkpoint',
  );

  const stats = engine.sequencer.stats;
  const batches = stats.batches - statsBefore.batches;
  const entries = stats.entries - statsBefore.entries;
  const single = pathResult('single-row commits (baseline)', 1, runs.single, latencies.single);
  const batched = pathResult('LogSequencer, batched', IN_FLIGHT, runs.batched, latencies.batched);
  const unbatched = pathResult('TransparencyLog.append, unbatched', 1, runs.unbatched, latencies.unbatched);
  await opened.close();
  return {
    backend,
    settings,
    leafBytes,
    single,
    batched,
    unbatched,
    batchedOverSingle: pairedRatio(batched, single),
    unbatchedOverSingle: pairedRatio(unbatched, single),
    sequencer: {
      batches,
      entries,
      largestBatch: stats.largestBatch,
      meanBatch: entries / batches,
      sizes: sequencerSizes,
    },
    logSize: size,
  };
}

const logRuns: LogRun[] = [];
for (const backend of backends) logRuns.push(await logBenchmark(backend));

for (const run of logRuns) {
  const paths = [run.single, run.batched, run.unbatched];
  printTable(
    `Log appends on ${run.backend}${run.backend === 'pglite' && backends.length > 1 ? ' (secondary)' : ''} — leaf inputs ${fixed(run.leafBytes.p50, 0)} B of canonical JSON; ` +
      `median of ${REPEATS} interleaved repeats (÷ single commits: median of the per-repeat ratios); synchronous_commit=${run.settings['synchronous_commit']}, fsync=${run.settings['fsync']}, wal_sync_method=${run.settings['wal_sync_method']}`,
    [
      'path',
      'per repeat',
      'in flight',
      'per second',
      'min–max',
      '÷ single commits',
      'latency p50 ms',
      'p95 ms',
    ],
    paths.map((result) => [
      result.name,
      String(result.count),
      String(result.concurrency),
      fixed(result.perSecond, 0),
      `${fixed(result.minPerSecond, 0)}–${fixed(result.maxPerSecond, 0)}`,
      fixed(pairedRatio(result, run.single), 2),
      fixed(result.latency.p50, 2),
      fixed(result.latency.p95, 2),
    ]),
  );
  process.stdout.write(
    `sequencer: ${run.sequencer.entries} entries in ${run.sequencer.batches} batches (mean ${fixed(run.sequencer.meanBatch, 1)}, ` +
      `largest ${run.sequencer.largestBatch}; ${run.sequencer.sizes.filter((size) => size === 1).length} of one entry; ` +
      `first sizes ${run.sequencer.sizes.slice(0, 6).join(', ')}, …); log size at the end ${run.logSize}\n`,
  );
}

const logTargets = (() => {
  const run = logRuns.find((candidate) => candidate.backend === 'postgres');
  const rateName = `batched appends ≥ ${TARGET_APPENDS_PER_SECOND.toLocaleString('en')}/s on PostgreSQL`;
  const ratioName = `batched ≥ ${TARGET_RATIO}× single-row commits on PostgreSQL`;
  if (!run) {
    return [rateName, ratioName].map((name) => ({
      name,
      met: null,
      value: null,
      line: `target: ${name} — not measured (DATABASE_URL is not set)`,
    }));
  }
  const rateMet = run.batched.perSecond >= TARGET_APPENDS_PER_SECOND;
  const ratioMet = run.batchedOverSingle >= TARGET_RATIO;
  return [
    {
      name: rateName,
      met: rateMet,
      value: run.batched.perSecond,
      line: `target: ${rateName} — ${rateMet ? 'met' : 'MISSED'} (${fixed(run.batched.perSecond, 0)}/s)`,
    },
    {
      name: ratioName,
      met: ratioMet,
      value: run.batchedOverSingle,
      line: `target: ${ratioName} — ${ratioMet ? 'met' : 'MISSED'} (${fixed(run.batchedOverSingle, 2)}×, median of the repeats' ${run.batched.runs
        .map((r, index) => fixed(r.perSecond / run.single.runs[index]!.perSecond, 2))
        .join(', ')})`,
    },
  ];
})();
for (const target of logTargets) process.stdout.write(`${target.line}\n`);

// ---------------------------------------------------------------------------------------------
// 2. Anchoring rounds

interface AnchorRun {
  documents: number;
  warmup: boolean;
  leaves: number;
  transactions: number;
  gasUsed: number;
  gasPerDocument: number;
  buildMs: number;
  sendMs: number;
  confirmMs: number;
  wallMs: number;
  status: string;
}

/** A tiny Markdown regulation, different for each `index` (identical bytes would be deduplicated). */
const tinyDocument = (index: number) =>
  utf8Encode(
    `# Peraturan Uji Nomor ${index}\n\nPasal 1\n\nSetiap penyelenggara wajib menyimpan arsip nomor ${index} ` +
      'selama lima tahun.\n\nPasal 2\n\nPelanggaran atas Pasal 1 dikenai sanksi administratif.\n',
  );

log(`anchoring on ${anchorBackend}: starting anvil`);
const anvil = await startAnvil();
const anchorRuns: AnchorRun[] = [];
let ingestMs = 0;
try {
  const registry = await deployDocumentRegistry({
    rpcUrl: anvil.rpcUrl,
    privateKey: ANVIL_DEFAULT_PRIVATE_KEY,
    chainId: anvil.chainId,
  });
  const opened = await openEngine(anchorBackend, 'anchor', {
    SAKSI_ANCHOR: 'evm',
    SAKSI_ANCHOR_RPC_URL: anvil.rpcUrl,
    SAKSI_ANCHOR_CHAIN_ID: String(anvil.chainId),
    SAKSI_ANCHOR_PRIVATE_KEY: ANVIL_DEFAULT_PRIVATE_KEY,
    SAKSI_ANCHOR_CONTRACT: registry.address,
    SAKSI_ANCHOR_FROM_BLOCK: String(registry.blockNumber),
  });
  const { engine } = opened;
  try {
    const events: { at: number; event: AnchorEvent }[] = [];
    // Connecting to the chain (chain id, contract code) and the first reconcile are not part of a round.
    const service = await engine.anchoring.start({ onEvent: (event) => events.push({ at: nowMs(), event }) });
    check(service !== null, 'anchoring is on');
    const sender = privateKeyToAccount(ANVIL_DEFAULT_PRIVATE_KEY).address;
    const client = createPublicClient({ transport: http(anvil.rpcUrl) });
    const nonce = () => client.getTransactionCount({ address: sender, blockTag: 'pending' });

    let next = 0;
    for (const { documents, warmup } of ANCHOR_ROUNDS) {
      const ingestStart = nowMs();
      for (let i = 0; i < documents; i++) {
        const index = next++;
        await engine.ingest('anchor-bench', {
          bytes: tinyDocument(index),
          filename: `peraturan-${index}.md`,
        });
      }
      ingestMs += nowMs() - ingestStart;
      const waiting = await engine.db.query<{ n: number }>(
        `SELECT count(*)::integer AS n FROM documents WHERE status = 'READY' AND anchor_state = 'PENDING_ANCHOR' AND root IS NOT NULL`,
      );
      check(waiting.rows[0]!.n === documents, `${documents} documents wait for anchoring`);
      log(
        `anchoring on ${anchorBackend}: ${documents} document(s) ingested, running one round${warmup ? ' (warm-up)' : ''}`,
      );

      events.length = 0;
      const nonceBefore = await nonce();
      const start = nowMs();
      const round: RoundRow | null = await service.runOnce();
      const wallMs = nowMs() - start;
      const nonceAfter = await nonce();
      check(round !== null, 'a round was built');
      const at = (type: AnchorEvent['type']) =>
        events.find((entry) => entry.event.type === type)?.at ?? Number.NaN;
      const left = await engine.db.query<{ n: number }>(
        `SELECT count(*)::integer AS n FROM documents WHERE anchor_state <> 'ANCHORED'`,
      );
      check(round.status === 'CONFIRMED' && left.rows[0]!.n === 0, 'the round confirmed every document');
      const gasUsed = round.gas_used ?? Number.NaN;
      anchorRuns.push({
        documents,
        warmup,
        leaves: round.size,
        transactions: nonceAfter - nonceBefore,
        gasUsed,
        gasPerDocument: gasUsed / documents,
        buildMs: at('round-built') - start,
        sendMs: at('round-sent') - at('round-built'),
        confirmMs: at('round-confirmed') - at('round-sent'),
        wallMs,
        status: round.status,
      });
    }
  } finally {
    await opened.close();
  }
} finally {
  await anvil.stop();
}

printTable(
  `Anchoring rounds on anvil (engine on ${anchorBackend}, SAKSI_ANCHOR=evm, automine; times in ms)`,
  [
    'round',
    'documents',
    'leaves',
    'transactions',
    'gas used',
    'gas per document',
    'build',
    'prepare+sign',
    'broadcast+confirm',
    'round wall',
  ],
  anchorRuns.map((run, index) => [
    run.warmup ? `${index + 1} (warm-up)` : String(index + 1),
    String(run.documents),
    String(run.leaves),
    String(run.transactions),
    String(run.gasUsed),
    fixed(run.gasPerDocument, 0),
    fixed(run.buildMs, 1),
    fixed(run.sendMs, 1),
    fixed(run.confirmMs, 1),
    fixed(run.wallMs, 1),
  ]),
);
const measuredRounds = anchorRuns.filter((run) => !run.warmup);
const bySize = ANCHOR_SIZES.map((documents) => {
  const runs = measuredRounds.filter((run) => run.documents === documents);
  return {
    documents,
    rounds: runs.length,
    transactionsPerRound: median(runs.map((run) => run.transactions)),
    maxTransactions: Math.max(...runs.map((run) => run.transactions)),
    gasUsed: median(runs.map((run) => run.gasUsed)),
    wallMs: median(runs.map((run) => run.wallMs)),
  };
});
const [one, many] = [bySize[0]!, bySize[bySize.length - 1]!];
const gasRatio = many.gasUsed / one.gasUsed;
process.stdout.write(
  `medians over ${ANCHOR_REPEATS} rounds each (warm-up excluded): ` +
    bySize
      .map(
        (size) =>
          `${size.documents} doc${size.documents === 1 ? '' : 's'}: ${size.transactionsPerRound} transaction(s)/round, ` +
          `gas ${size.gasUsed}, wall ${fixed(size.wallMs, 1)} ms`,
      )
      .join('; ') +
    `\ngas ${many.documents} ÷ ${one.documents} documents: ${fixed(gasRatio, 3)}; wall ${fixed(many.wallMs / one.wallMs, 2)}×; ` +
    `gas per document at ${many.documents}: ${fixed(many.gasUsed / many.documents, 0)}\n` +
    `(setup, not measured: ${anchorRuns.reduce((sum, run) => sum + run.documents, 0)} tiny Markdown documents ingested in ${fixed(ingestMs / 1000, 1)} s)\n`,
);
const oneTxMet = anchorRuns.every((run) => run.transactions === 1);
const anchorTarget = {
  name: 'one transaction per anchoring round, whatever the number of documents',
  met: oneTxMet,
  value: anchorRuns.map((run) => run.transactions),
  line: `target: one transaction per anchoring round, whatever the number of documents — ${oneTxMet ? 'met' : 'MISSED'} (${bySize
    .map((size) => `at most ${size.maxTransactions} per round of ${size.documents}`)
    .join(', ')})`,
};

// ---------------------------------------------------------------------------------------------
// Targets and results

process.stdout.write('\n');
for (const target of [...logTargets, anchorTarget]) process.stdout.write(`${target.line}\n`);
process.stdout.write(
  `(total ${fixed((nowMs() - benchStart) / 1000, 0)} s; load average now ${loadAverage()})\n`,
);

rmSync(scratch, { recursive: true, force: true });
writeResults('log-anchor', revision, {
  backends,
  log: { appends: BATCHED_APPENDS, inFlight: IN_FLIGHT, repeats: REPEATS, runs: logRuns },
  anchoring: { backend: anchorBackend, runs: anchorRuns, bySize, gasRatio },
  targets: [...logTargets, anchorTarget],
  totalMs: nowMs() - benchStart,
});
