/**
 * The keyword index against an exhaustive BM25 (bench/README.md, "Keyword index"): for each backend
 * and size, a synthetic collection of real statute sentences, then per question the lexical arm's top
 * 50 from the index (`keywordTopK`) and the same ranking summed over every posting in SQL
 * (`exhaustiveKeywordTopK`, the baseline), timed back to back, and whether their top 10 agree; and
 * what the lexical arm runs (`searchKeywords`: exhaustive for questions of few postings, else the index).
 *
 *   npm run bench:keyword                 PGlite 10k and 100k chunks (and PostgreSQL with DATABASE_URL)
 *   npm run bench:keyword -- --smoke      2,000 chunks, 20 questions (CI, on both backends)
 *   npm run bench:keyword -- --million    adds 1M chunks on PostgreSQL
 *   npm run bench:keyword -- --backend postgres   one backend only (pglite or postgres)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../packages/engine/src/config.js';
import { Engine } from '../packages/engine/src/engine.js';
import { withoutStopwords } from '../packages/engine/src/language/stopwords.js';
import {
  exhaustiveKeywordTopK,
  type KeywordHit,
  type KeywordTerm,
  keywordTopK,
  searchKeywords,
} from '../packages/engine/src/retrieve/keyword-index.js';
import { lexemeStatistics, lexemesOf } from '../packages/engine/src/retrieve/lexemes.js';
import {
  buildSyntheticCollection,
  check,
  corpusDirectory,
  createTemporaryDatabase,
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

const smoke = process.argv.includes('--smoke');
const million = process.argv.includes('--million');
const databaseUrl = process.env['DATABASE_URL'];
type Backend = 'pglite' | 'postgres';
const only = process.argv.includes('--backend')
  ? (process.argv[process.argv.indexOf('--backend') + 1] ?? '')
  : undefined;
if (only !== undefined && only !== 'pglite' && only !== 'postgres') {
  process.stderr.write(`--backend takes pglite or postgres, not "${only}".\n`);
  process.exit(2);
}
if (only === 'postgres' && !databaseUrl) {
  process.stderr.write('--backend postgres needs DATABASE_URL (bench/README.md, "Keyword index").\n');
  process.exit(2);
}
const backends: Backend[] = (databaseUrl ? (['pglite', 'postgres'] as const) : (['pglite'] as const)).filter(
  (backend) => only === undefined || backend === only,
);
const QUESTIONS = smoke ? 20 : 100;
const CANDIDATES = 50; // retrieve.ts: candidates per arm
const AGREEMENT_K = 10;
const TARGET_AGREEMENT = 0.95;

function scalesOf(backend: Backend): number[] {
  if (smoke) return [2_000];
  return backend === 'postgres' && million ? [10_000, 100_000, 1_000_000] : [10_000, 100_000];
}

const revision = gitRevision();
const log = progressLog(nowMs());
process.stdout.write(
  `Keyword index benchmark at ${revision} — Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, ` +
    `backends: ${backends.join(', ')}${smoke ? ' (--smoke)' : ''}, load average ${os.loadavg()[0]!.toFixed(2)}\n\n`,
);

const scratch = mkdtempSync(path.join(os.tmpdir(), 'saksi-keyword-bench-'));
let databaseCounter = 0;

async function openEngine(
  backend: Backend,
  label: string,
): Promise<{ engine: Engine; close(): Promise<void> }> {
  const dataDir = path.join(scratch, `${backend}-${label}`);
  const database =
    backend === 'postgres'
      ? await createTemporaryDatabase(databaseUrl!, `saksi_kwbench_${process.pid}_${databaseCounter++}`)
      : undefined;
  const config = loadConfig(
    { SAKSI_DATA_DIR: dataDir, SAKSI_DEMO: '0', ...(database ? { DATABASE_URL: database.url } : {}) },
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

/** Equal rankings: the same chunks in the same order, or different only among equal scores. */
function sameRanking(a: readonly KeywordHit[], b: readonly KeywordHit[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((hit, index) => {
    const other = b[index]!;
    const tolerance = 1e-4 * Math.max(1, hit.score);
    if (Math.abs(hit.score - other.score) > tolerance) return false;
    return hit.documentId === other.documentId && hit.position === other.position
      ? true
      : Math.abs(hit.score - other.score) <= 1e-9 * Math.max(1, hit.score);
  });
}

const { questions } = indonesianQuestions(QUESTIONS);
const legalFiles = [
  ...readCorpus(corpusDirectory('uu-22-2009-llaj'), ['.md']),
  ...readCorpus(corpusDirectory('apbn-uu'), ['.md']),
];
const legalDrafts = (await Promise.all(legalFiles.map(parseAndChunk))).flat();
const pool = sentencePool(legalDrafts);
const templates = templatesOf(legalDrafts);

interface Run {
  backend: Backend;
  chunks: number;
  postings: number;
  buildKeywordMs: number;
  index: Summary;
  exhaustive: Summary;
  engine: Summary;
  agreement: number;
  exactShare: number;
  /** Searches whose first round proved the top k (the rest summed every posting, or stopped at the budget). */
  provedShare: number;
  rowsReadMean: number;
  termsMean: number;
}

const runs: Run[] = [];
for (const backend of backends) {
  for (const scale of scalesOf(backend)) {
    const opened = await openEngine(backend, `keyword-${scale}`);
    const { engine } = opened;
    log(`${backend}, ${scale} chunks: building`);
    const build = await buildSyntheticCollection(engine, {
      name: 'bench',
      count: scale,
      pool,
      templates,
      seed: scale,
      vectorIndex: false,
      onProgress: (done) => {
        if (done % 100_000 === 0) log(`  ${done} chunks inserted`);
      },
    });
    const collection = await engine.collections.get('bench');
    const postings = await engine.db.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM keyword_postings WHERE collection_id = $1',
      [collection.id],
    );
    log(`${backend}, ${scale} chunks: keyword index built in ${fixed(build.keywordMs / 1000)} s`);

    const termsOf = async (question: string): Promise<KeywordTerm[]> => {
      const [lexemes = []] = await lexemesOf(engine.db, collection, [withoutStopwords(question, 'id')]);
      const { statistics } = await lexemeStatistics(engine.db, collection, lexemes);
      return [...statistics.values()]
        .filter((term) => term.df > 0)
        .map((term) => ({ lexeme: term.lexeme, weight: term.idf, df: term.df }));
    };
    const allTerms = await Promise.all(questions.map(termsOf));
    // Warm-up: the first ten questions through both paths.
    for (const terms of allTerms.slice(0, 10)) {
      await keywordTopK(engine.db, collection.id, terms, CANDIDATES);
      await exhaustiveKeywordTopK(engine.db, collection.id, terms, CANDIDATES);
    }
    const indexMs: number[] = [];
    const exhaustiveMs: number[] = [];
    const engineMs: number[] = [];
    let agreeing = 0;
    let exact = 0;
    let proved = 0;
    let blocks = 0;
    for (const terms of allTerms) {
      let start = nowMs();
      const search = await keywordTopK(engine.db, collection.id, terms, CANDIDATES);
      indexMs.push(nowMs() - start);
      start = nowMs();
      const reference = await exhaustiveKeywordTopK(engine.db, collection.id, terms, CANDIDATES);
      exhaustiveMs.push(nowMs() - start);
      start = nowMs();
      await searchKeywords(engine.db, collection.id, terms, CANDIDATES);
      engineMs.push(nowMs() - start);
      check(terms.length === 0 || reference.length > 0, 'the exhaustive ranking finds chunks');
      if (search.exact) exact += 1;
      if (search.exact && search.rounds === 1) proved += 1;
      blocks += search.rowsRead;
      const top = await keywordTopK(engine.db, collection.id, terms, AGREEMENT_K);
      const referenceTop = await exhaustiveKeywordTopK(engine.db, collection.id, terms, AGREEMENT_K);
      if (sameRanking(top.hits, referenceTop)) agreeing += 1;
    }
    const run: Run = {
      backend,
      chunks: scale,
      postings: postings.rows[0]?.n ?? 0,
      buildKeywordMs: build.keywordMs,
      index: summarize(indexMs),
      exhaustive: summarize(exhaustiveMs),
      engine: summarize(engineMs),
      agreement: agreeing / allTerms.length,
      exactShare: exact / allTerms.length,
      provedShare: proved / allTerms.length,
      rowsReadMean: blocks / allTerms.length,
      termsMean: allTerms.reduce((sum, terms) => sum + terms.length, 0) / allTerms.length,
    };
    runs.push(run);
    log(
      `${backend}, ${scale} chunks: index p95 ${fixed(run.index.p95)} ms, exhaustive p95 ${fixed(run.exhaustive.p95)} ms, top 10 equal ${fixed(run.agreement * 100)} %`,
    );
    await opened.close();
  }
}
rmSync(scratch, { recursive: true, force: true });

printTable(
  `Keyword arm, top ${CANDIDATES}, ${questions.length} questions (ms)`,
  [
    'backend, chunks',
    'posting rows',
    'index p50',
    'index p95',
    'exhaustive p50',
    'exhaustive p95',
    'p95 index ÷ exhaustive',
    'arm p50',
    'arm p95',
    'rows read',
    'first round proved',
    'exact',
    `top ${AGREEMENT_K} = exhaustive`,
  ],
  runs.map((run) => [
    `${run.backend}, ${run.chunks}`,
    String(run.postings),
    fixed(run.index.p50, 2),
    fixed(run.index.p95, 2),
    fixed(run.exhaustive.p50, 2),
    fixed(run.exhaustive.p95, 2),
    fixed(run.index.p95 / run.exhaustive.p95, 3),
    fixed(run.engine.p50, 2),
    fixed(run.engine.p95, 2),
    fixed(run.rowsReadMean, 0),
    `${fixed(run.provedShare * 100, 0)} %`,
    `${fixed(run.exactShare * 100, 0)} %`,
    `${fixed(run.agreement * 100, 0)} %`,
  ]),
);
for (const run of runs) {
  const verdict = run.agreement >= TARGET_AGREEMENT ? 'met' : 'MISSED';
  process.stdout.write(
    `target: top ${AGREEMENT_K} equals the exhaustive top ${AGREEMENT_K} on ≥ ${TARGET_AGREEMENT * 100} % of the questions (${run.backend}, ${run.chunks}) — ${verdict} (${fixed(run.agreement * 100)} %)\n`,
  );
}
writeResults(smoke ? 'keyword-smoke' : 'keyword', revision, { questions: questions.length, runs });
