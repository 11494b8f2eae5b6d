/**
 * The answer cache (bench/README.md, "Answer cache"): UU 22/2009 in a fresh PGlite engine, the
 * traffic-law eval questions each asked once (the baseline: answered afresh, certificate and log entry
 * included) and then again by another asker (a hit: the earlier answer, its bundle, the turn stored in
 * the new session). Per request latency, p50 / p95, and the ratio of the two from the same run.
 *
 *   npm run bench:cache              every traffic-law eval question (lalin-*), each hit 3 times
 *   npm run bench:cache -- --smoke   10 questions, each hit once (CI)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../packages/engine/src/config.js';
import { Engine } from '../packages/engine/src/engine.js';
import {
  check,
  corpusDirectory,
  evalQuestions,
  fixed,
  gitRevision,
  nowMs,
  printTable,
  readCorpus,
  summarize,
  writeResults,
} from './engine-harness.js';

const smoke = process.argv.includes('--smoke');
const HITS_PER_QUESTION = smoke ? 1 : 3;
const TARGET_HIT_P95_MS = 10;

const revision = gitRevision();
process.stdout.write(
  `Answer cache benchmark at ${revision} — Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}` +
    `${smoke ? ' (--smoke)' : ''}, load average ${os.loadavg()[0]!.toFixed(2)}\n\n`,
);

const questions = [
  ...new Set([
    ...evalQuestions('lalin-dev.jsonl'),
    ...evalQuestions('lalin-dev2.jsonl'),
    ...evalQuestions('lalin-spec-cases.jsonl'),
  ]),
].slice(0, smoke ? 10 : undefined);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'saksi-bench-cache-'));
const engine = await Engine.open({
  config: loadConfig({ SAKSI_DATA_DIR: dataDir, SAKSI_ANCHOR: 'none', SAKSI_DEMO: '0' }, dataDir),
});
try {
  const [law] = readCorpus(corpusDirectory('uu-22-2009-llaj'), ['.md']);
  check(law !== undefined, 'the UU 22/2009 Markdown is in the corpus');
  await engine.ingest('lalu-lintas', { bytes: law.bytes, filename: path.basename(law.path) });
  // One question first, untimed: the statement plans and the log's first checkpoint.
  await engine.ask('lalu-lintas', { question: 'Apa itu kendaraan bermotor?' });

  const fresh: number[] = [];
  for (const question of questions) {
    const start = nowMs();
    const result = await engine.ask('lalu-lintas', { question });
    fresh.push(nowMs() - start);
    check(!result.cached, `the first asking of "${question}" is answered afresh`);
  }
  const hits: number[] = [];
  for (let round = 0; round < HITS_PER_QUESTION; round += 1) {
    for (const question of questions) {
      const start = nowMs();
      const result = await engine.ask('lalu-lintas', { question });
      hits.push(nowMs() - start);
      check(result.cached, `"${question}" asked again comes from the cache`);
    }
  }
  const miss = summarize(fresh);
  const hit = summarize(hits);
  printTable(
    `Answering ${questions.length} questions on PGlite, ms per request`,
    ['case', 'n', 'p50', 'p95', 'max', 'p95 ÷ fresh p95'],
    [
      [
        'answered afresh (baseline)',
        String(miss.n),
        fixed(miss.p50),
        fixed(miss.p95),
        fixed(miss.max),
        '1.00',
      ],
      [
        'from the cache',
        String(hit.n),
        fixed(hit.p50, 2),
        fixed(hit.p95, 2),
        fixed(hit.max, 2),
        fixed(hit.p95 / miss.p95, 3),
      ],
    ],
  );
  process.stdout.write(
    `\nCache hit p95 ${fixed(hit.p95, 2)} ms (target ≤ ${TARGET_HIT_P95_MS} ms): ${hit.p95 <= TARGET_HIT_P95_MS ? 'met' : 'missed'}` +
      `${smoke ? ' (smoke sizes: not a result)' : ''}.\n`,
  );
  writeResults(smoke ? 'cache-smoke' : 'cache', revision, {
    questions: questions.length,
    hitsPerQuestion: HITS_PER_QUESTION,
    fresh: miss,
    hit,
    targetHitP95Ms: TARGET_HIT_P95_MS,
  });
} finally {
  await engine.close();
  rmSync(dataDir, { recursive: true, force: true });
}
