/**
 * The public verify route under attack (bench/README.md, "Verify benchmark"): a real `saksi serve`
 * (the compiled CLI, PGlite, with `loop-monitor.mjs` preloaded) gets eight bundles at once from one
 * address, each the largest the limits per bundle allow (`BUNDLE_LIMITS` of @saksi/proof), built as
 * the audit built its own: one real claim of the golden bundle (UU 22/2009 Pasal 287) copied. Meanwhile
 * `GET /api/v1/health` is polled every 50 ms on an open-loop schedule and the server reports each turn
 * of its event loop over 20 ms. The baseline is the same server left idle for as long, in the same run.
 *
 * The eight come from a child process, so that sending them never delays this process's polls.
 *
 * Three servers, one after the other:
 * - `threads`: the default (verification threads), rate limits and work budget off, so all eight run;
 * - `inline`: `SAKSI_VERIFY_WORKERS=0`, verification on the event loop as before the threads (the
 *   serverless fallback), limits off too — the reference the threads are measured against;
 * - `budget`: the default configuration: the work budget refuses most of the eight (429).
 *
 * `--smoke` (CI): the `threads` server only, with bundles of 32 claims, about 20 s. Nothing is
 * asserted about time; it fails only on a broken setup (a server that does not start, an answer that
 * is neither a verification nor a typed refusal).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUNDLE_LIMITS, measureBundle } from '@saksi/proof';
import { buildGoldenFixture } from '@saksi/test-support/golden';
import { VERIFY_BODY_LIMIT, verificationWork } from '../packages/server/src/verify-request.js';
import { check, fixed, gitRevision, nowMs, percentile, printTable, writeResults } from './engine-harness.js';
import {
  buildCli,
  pollHealth,
  type RunningServe,
  type Stalls,
  stallsOf,
  startServe,
} from './hostile-harness.js';

const smoke = process.argv.includes('--smoke');
const PARALLEL = 8;
const HEALTH_TARGET_P99_MS = 200;
const STALL_TARGET_MS = 100;
const IDLE_MS = smoke ? 3_000 : 6_000;
const GOLDEN = JSON.stringify(buildGoldenFixture({ version: 'v1.1' }).bundle);

// biome-ignore lint/suspicious/noExplicitAny: the attack edits a bundle freely
type Loose = any;

/**
 * The largest bundle the limits allow, from the golden bundle's first claim: `claims` claims of
 * evidence items copied from its span, as many per claim as the evidence limit leaves, proofs of the
 * most nodes the node limit leaves, a distinct anchored batch root per claim, every cosignature slot
 * filled, and the cited chunks padded until the body is just under 16 MiB.
 */
function maximalBundle(claims: number, evidenceLimit: number, fillBody: boolean): string {
  const golden = buildGoldenFixture({ version: 'v1.1' }).bundle as Loose;
  const bundle: Loose = structuredClone(golden);
  const claim = golden.certificate.claims[0];
  const evidencePerClaim = Math.min(BUNDLE_LIMITS.evidencePerClaim, Math.floor(evidenceLimit / claims));
  const evidence = claims * evidencePerClaim;
  const logNodes = golden.log.inclusion_proof.length;
  const perProof = Math.min(
    BUNDLE_LIMITS.proofLength,
    Math.floor(
      ((BUNDLE_LIMITS.proofNodes - logNodes) * (evidence / BUNDLE_LIMITS.evidence)) / (2 * evidence),
    ),
  );
  const node = (i: number) => (i % 256).toString(16).padStart(2, '0').repeat(32);
  bundle.certificate.claims = Array.from({ length: claims }, (_, c) => ({
    ...structuredClone(claim),
    claim_id: `c${c}`,
    evidence: Array.from({ length: evidencePerClaim }, () => {
      const item = structuredClone(claim.evidence[0]);
      item.document_proof.path = Array.from({ length: perProof }, (_, i) => node(i));
      item.anchor.batch_proof.path = Array.from({ length: perProof }, (_, i) => node(i + 1));
      item.anchor.batch_root = c.toString(16).padStart(64, '0');
      return item;
    }),
  }));
  bundle.certificate.answer.text = bundle.certificate.claims.map((c: Loose) => c.text).join(' ');
  bundle.log.cosignatures = Array.from(
    { length: BUNDLE_LIMITS.cosignatures },
    (_, i) => golden.log.cosignatures[i % golden.log.cosignatures.length],
  );
  const chunk = golden.chunks[0];
  const chunks = Math.min(BUNDLE_LIMITS.chunks, claims);
  bundle.chunks = Array.from({ length: chunks }, () => ({ ...chunk }));
  let text = JSON.stringify(bundle);
  if (fillBody) {
    // Pad every chunk's text alike (real statute text repeated) to just under the body limit.
    const spare = VERIFY_BODY_LIMIT - 64 * 1024 - Buffer.byteLength(text);
    const extra = Math.floor(spare / chunks);
    const padding = ` ${chunk.text}`.repeat(Math.ceil(extra / (chunk.text.length + 1))).slice(0, extra);
    bundle.chunks = bundle.chunks.map((item: Loose) => ({ ...item, text: item.text + padding }));
    text = JSON.stringify(bundle);
  }
  check(Buffer.byteLength(text) <= VERIFY_BODY_LIMIT, 'the bundle fits the body limit');
  measureBundle(JSON.parse(text)); // throws if over a limit
  return text;
}

interface Phase {
  health: { n: number; p50: number; p99: number; max: number; failures: number };
  stall: Stalls;
  statuses: Record<string, number>;
  seconds: number;
}

/** Health and event-loop stalls while `work` runs (or for `IDLE_MS` when there is none). */
async function phase(server: RunningServe, work: (() => Promise<number[]>) | null): Promise<Phase> {
  const stderrStart = server.output.stderr.length;
  const poller = pollHealth(server.url, 50);
  const start = nowMs();
  const statuses: Record<string, number> = {};
  if (work === null) await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  else for (const status of await work()) statuses[status] = (statuses[status] ?? 0) + 1;
  const seconds = (nowMs() - start) / 1000;
  const { latencies, failures } = await poller.stop();
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    health: {
      n: sorted.length,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? Number.NaN,
      failures,
    },
    stall: stallsOf(server.output.stderr.slice(stderrStart)),
    statuses,
    seconds,
  };
}

/**
 * A child process that sends `PARALLEL` copies of the body in `file` at once (one address) and
 * prints the status of each answer; a separate process, so that sending 128 MiB does not delay this
 * process's health polls.
 */
const ATTACKER = `
import { readFileSync } from 'node:fs';
const [url, file, parallel] = process.argv.slice(1);
const body = readFileSync(file, 'utf8');
const statuses = await Promise.all(Array.from({ length: Number(parallel) }, async () => {
  const response = await fetch(url + '/api/v1/verify', { method: 'POST', body });
  const json = await response.json();
  const typed = response.status === 200 ? typeof json.verdict === 'string' : typeof json.error?.code === 'string';
  if (!typed) throw new Error('neither a verification nor a typed refusal: ' + response.status + ' ' + JSON.stringify(json).slice(0, 200));
  return response.status;
}));
process.stdout.write(JSON.stringify(statuses));
`;

/** Eight bundles at once from one address (a child process); the status of each answer. */
function attack(url: string, file: string): () => Promise<number[]> {
  return async () => {
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', ATTACKER, url, file, String(PARALLEL)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    check(code === 0, `the attacking process exited with ${code}`);
    return JSON.parse(output) as number[];
  };
}

interface ServerRun {
  name: string;
  idle: Phase;
  attack: Phase;
}

async function runServer(name: string, env: Record<string, string>, file: string): Promise<ServerRun> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `saksi-verify-bench-${name}-`));
  const server = await startServe(dataDir, { LOG_LEVEL: 'warn', ...env });
  try {
    // A warm-up: the first verification starts the threads and compiles the verifier. One golden
    // bundle (15 units), so the budget server still has its minute's budget for the attack.
    const warmUp = await fetch(`${server.url}/api/v1/verify`, { method: 'POST', body: GOLDEN });
    check(warmUp.status === 200, `the warm-up verification answered ${warmUp.status}`);
    const idle = await phase(server, null);
    const attacked = await phase(server, attack(server.url, file));
    check(server.alive(), `the ${name} server is still running`);
    return { name, idle, attack: attacked };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  buildCli();
  // The smoke run's bundles are an eighth of the limits (claims, evidence, proof nodes), without padding.
  const body = smoke
    ? maximalBundle(BUNDLE_LIMITS.claims / 8, BUNDLE_LIMITS.evidence / 8, false)
    : maximalBundle(BUNDLE_LIMITS.claims, BUNDLE_LIMITS.evidence, true);
  const size = measureBundle(JSON.parse(body));
  const bytes = Buffer.byteLength(body);
  const units = verificationWork(size, bytes);
  console.log(
    `bundle: ${(bytes / 1024 / 1024).toFixed(1)} MiB, ${size.claims} claims, ${size.evidence} evidence items, ${size.chunks} chunks, ${size.proofNodes} proof nodes, ${size.anchorRoots} batch roots, ${size.cosignatures} cosignatures = ${units} work units; ${PARALLEL} at once from one address`,
  );
  const directory = mkdtempSync(path.join(os.tmpdir(), 'saksi-verify-bench-'));
  const file = path.join(directory, 'bundle.json');
  writeFileSync(file, body);
  const off = { SAKSI_RATE_LIMIT_IP: '0', SAKSI_VERIFY_WORK_LIMIT: '0' };
  const runs: ServerRun[] = [];
  try {
    runs.push(await runServer('threads', off, file));
    if (!smoke) {
      runs.push(await runServer('inline', { ...off, SAKSI_VERIFY_WORKERS: '0' }, file));
      runs.push(await runServer('budget', {}, file));
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  const baseline = runs[0]!.idle.health.p99;
  const row = (name: string, label: string, p: Phase) => [
    name,
    label,
    Object.entries(p.statuses)
      .map(([status, count]) => `${count}×${status}`)
      .join(' ') || '—',
    fixed(p.seconds, 1),
    fixed(p.health.p50, 0),
    fixed(p.health.p99, 0),
    fixed(p.health.max, 0),
    fixed(p.health.p99 / baseline, 2),
    String(p.stall.longestHeld),
    String(p.stall.longestBusy),
    String(p.stall.longest),
  ];
  printTable(
    `POST /api/v1/verify, ${PARALLEL} bundles at once (health every 50 ms from the scheduled time; event-loop turns over 20 ms: held = its thread ran ≥ 80 % of the turn, busy = the process did)`,
    [
      'server',
      'phase',
      'answers',
      's',
      'health p50 ms',
      'p99 ms',
      'max ms',
      'p99 × idle',
      'held ms',
      'busy ms',
      'longest turn ms',
    ],
    runs.flatMap((run) => [row(run.name, 'idle', run.idle), row(run.name, 'attack', run.attack)]),
  );
  const threads = runs[0]!.attack;
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  console.log(
    `target: health p99 ≤ ${HEALTH_TARGET_P99_MS} ms under attack (threads) — ${met(threads.health.p99 <= HEALTH_TARGET_P99_MS)} (${fixed(threads.health.p99, 0)} ms)`,
  );
  console.log(
    `target: no event-loop turn held by its own thread over ${STALL_TARGET_MS} ms (threads) — ${met((threads.stall.longestHeld ?? 0) <= STALL_TARGET_MS)} (${threads.stall.longestHeld} ms; process busy ${threads.stall.longestBusy} ms; longest turn ${threads.stall.longest} ms)`,
  );
  writeResults(smoke ? 'verify-smoke' : 'verify', gitRevision(), {
    bundle: { bytes, ...size, units },
    parallel: PARALLEL,
    runs,
  });
}

await main();
