/**
 * Measures the figure table (src/budget) on the demo's `apbn` collection: how long reading the
 * figures adds to ingestion, and how many figure and comparison questions of the labelled sets get
 * a composed claim that mentions their `must_mention` amounts (numbers normalized as the evaluation
 * does, src/eval/metrics.ts). It only measures; nothing here knows a question.
 *
 *   node --conditions=source --import tsx packages/engine/scripts/budget-figures-eval.ts \
 *     [--data-dir DIR] [--set FILE ...] [--verbose]
 *
 * Without --data-dir the demo corpus is ingested into a fresh temporary data directory; with it, an
 * existing one (e.g. a demo .saksi) is opened — which fills its figure table at start-up once.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { understand } from '../src/answer/understand.js';
import { requireCollection } from '../src/collections.js';
import { loadConfig } from '../src/config.js';
import { demoCollections } from '../src/demo.js';
import { Engine } from '../src/engine.js';
import { mentions } from '../src/eval/metrics.js';
import { budgetFigureClaims } from '../src/packs/budget/answer.js';
import { backfillBudgetFigures } from '../src/packs/budget/figure-table.js';
import { readBudgetFigures } from '../src/packs/budget/figures.js';
import type { LegalRef } from '../src/types.js';

const repositoryRoot = path.resolve(import.meta.dirname, '../../..');
const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    set: { type: 'string', multiple: true },
    verbose: { type: 'boolean', default: false },
  },
});
const sets = values.set ?? [
  path.resolve(repositoryRoot, '../shared/data/eval/apbn-dev.jsonl'),
  path.resolve(repositoryRoot, '../shared/data/eval/apbn-dev2.jsonl'),
];
const temporary = values['data-dir'] === undefined;
const dataDir = values['data-dir'] ?? mkdtempSync(path.join(tmpdir(), 'saksi-figures-'));
const config = loadConfig({ SAKSI_DATA_DIR: dataDir, SAKSI_ANCHOR: 'none' }, repositoryRoot);

let started = performance.now();
const engine = await Engine.open({ config });
console.log(
  `opened ${dataDir} (migrations and figure fill) in ${Math.round(performance.now() - started)} ms`,
);

if (temporary) {
  const apbn = demoCollections(path.join(repositoryRoot, 'corpora')).find((item) => item.name === 'apbn')!;
  const files = (await readdir(apbn.directory)).filter((file) => file.endsWith('.md')).sort();
  started = performance.now();
  for (const file of files) {
    const bytes = new Uint8Array(await readFile(path.join(apbn.directory, file)));
    await engine.ingest(
      'apbn',
      { bytes, filename: file, ...(apbn.describe?.(file) ?? {}) },
      { language: apbn.language, profile: apbn.profile },
    );
  }
  console.log(
    `ingested ${files.length} files of corpora/apbn-uu in ${Math.round(performance.now() - started)} ms`,
  );
}

// What the figures cost: reading them from the stored chunks, and the whole table write.
const collection = await requireCollection(engine.db, 'apbn');
const chunks = await engine.db.query<{ text: string; legal: LegalRef | null }>(
  'SELECT text, legal FROM chunks WHERE collection_id = $1',
  [collection.id],
);
started = performance.now();
let read = 0;
for (const chunk of chunks.rows)
  read += readBudgetFigures(chunk.text, { fiscalYear: null, legal: chunk.legal }).length;
const readMs = performance.now() - started;
await engine.db.query(`DELETE FROM settings WHERE key = 'budget_figures'`);
started = performance.now();
const filled = await backfillBudgetFigures(engine.db);
const fillMs = performance.now() - started;
const table = await engine.db.query<{ figures: number; garbled: number; measured: number; checked: number }>(
  `SELECT count(*)::integer AS figures, count(*) FILTER (WHERE garbled)::integer AS garbled,
          count(*) FILTER (WHERE measure IS NOT NULL AND NOT garbled)::integer AS measured,
          count(*) FILTER (WHERE words_checked)::integer AS checked
     FROM budget_figures WHERE collection_id = $1`,
  [collection.id],
);
console.log(
  `read ${read} figures from ${chunks.rows.length} chunks in ${Math.round(readMs)} ms; ` +
    `rewrote the table for ${filled?.documents} documents in ${Math.round(fillMs)} ms`,
  table.rows[0],
);

const tally = {
  questions: 0,
  asked: 0,
  answered: 0,
  allMentioned: 0,
  someMentioned: 0,
  unanswerableAnswered: 0,
};
for (const set of sets) {
  for (const line of readFileSync(set, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const item = JSON.parse(line) as {
      id: string;
      question: string;
      answerable: boolean;
      must_mention?: string[];
    };
    tally.questions++;
    const plan = understand(item.question, { collectionLanguage: collection.language });
    const claims = await budgetFigureClaims(engine.db, collection, plan, []);
    const figureQuestion = plan.intent === 'figure' || plan.intent === 'comparison';
    if (figureQuestion) tally.asked++;
    if (claims.length === 0) {
      if (figureQuestion && values.verbose) console.log(`  -    ${item.id} ${item.question}`);
      continue;
    }
    tally.answered++;
    if (!item.answerable) tally.unanswerableAnswered++;
    const text = claims.map((claim) => claim.text).join(' ');
    const must = item.must_mention ?? [];
    const hit = must.filter((phrase) => mentions(text, phrase));
    if (must.length > 0 && hit.length === must.length) tally.allMentioned++;
    else if (hit.length > 0) tally.someMentioned++;
    if (values.verbose) {
      const mark = must.length > 0 && hit.length === must.length ? 'all ' : hit.length > 0 ? 'some' : 'none';
      console.log(`  ${mark} ${item.id} ${item.question} (${hit.length}/${must.length})`);
      for (const claim of claims) console.log(`         ${claim.text}`);
    }
  }
}
console.log(tally);
await engine.close();
if (temporary) rmSync(dataDir, { recursive: true, force: true });
