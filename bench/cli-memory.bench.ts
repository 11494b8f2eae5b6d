/**
 * Peak memory of `saksi ingest` of a tiny Markdown file (docs/operations.md, "Memory"):
 *
 *   npm run bench:cli-memory              # four cases, each run twice
 *   npm run bench:cli-memory -- --smoke   # CI: one run of the fresh data directory without anchoring
 *
 * The compiled CLI (`packages/cli/bin/saksi.js`; `npm run build` first) ingests a three-line Markdown
 * file into a fresh data directory, then a second file into the same one (existing), each with the
 * default anchoring (`local`: anvil, a separate process) and with `SAKSI_ANCHOR=none`. The figure is
 * the peak RSS of the CLI's own process (`VmHWM` polled from /proc), not anvil's. The baseline, in the
 * same run, is a bare Node process that only creates a PGlite data directory with PGlite's defaults
 * (what every command did before the template, the lazy imports and the smaller buffer pool). Writes
 * `bench/results/cli-memory.json` (`cli-memory-smoke.json`). Nothing is asserted about memory; it
 * fails only when a command fails.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const smoke = process.argv.includes('--smoke');
const runs = smoke ? 1 : 2;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const saksi = path.join(root, 'packages/cli/bin/saksi.js');
const work = mkdtempSync(path.join(tmpdir(), 'saksi-cli-memory-'));

/** Runs `node <args>` in `cwd` and returns its peak RSS in MB and wall time in seconds. */
function measure(
  args: string[],
  env: Record<string, string>,
  cwd = work,
): Promise<{ peakMb: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      cwd,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (data) => (output += data));
    child.stderr.on('data', (data) => (output += data));
    let peakKb = 0;
    const poll = () => {
      try {
        const match = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (match) peakKb = Math.max(peakKb, Number(match[1]));
      } catch {
        // gone
      }
    };
    const timer = setInterval(poll, 5);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) reject(new Error(`${args.join(' ')} exited with ${code}:\n${output}`));
      else resolve({ peakMb: Math.round(peakKb / 1024), seconds: (performance.now() - started) / 1000 });
    });
  });
}

const BARE_PGLITE = `import { PGlite } from '@electric-sql/pglite';
const db = await PGlite.create({ dataDir: process.argv[1] });
await db.close();`;

interface Row {
  case: string;
  peakMb: number[];
  seconds: number[];
}
const rows: Row[] = [];
const record = (name: string, result: { peakMb: number; seconds: number }) => {
  let row = rows.find((candidate) => candidate.case === name);
  if (!row) {
    row = { case: name, peakMb: [], seconds: [] };
    rows.push(row);
  }
  row.peakMb.push(result.peakMb);
  row.seconds.push(result.seconds);
};

try {
  writeFileSync(path.join(work, 'kecil.md'), '# Judul\n\nIni dokumen kecil.\n');
  writeFileSync(path.join(work, 'dua.md'), '# Dua\n\nDokumen kedua.\n');
  const anchors = smoke ? ['none'] : ['local', 'none'];
  for (let run = 0; run < runs; run++) {
    const bare = path.join(work, `bare-${run}`);
    mkdirSync(bare);
    // Run in the repository, where PGlite resolves from.
    record(
      'baseline: bare PGlite.create, fresh directory',
      await measure(['--input-type=module', '-e', BARE_PGLITE, bare], {}, root),
    );
    for (const anchor of anchors) {
      const dataDir = path.join(work, `data-${anchor}-${run}`);
      const env = { SAKSI_DATA_DIR: dataDir, SAKSI_ANCHOR: anchor };
      const ingest = (file: string) => [saksi, 'ingest', file, '--collection', 'uji'];
      record(`saksi ingest, fresh directory, anchor ${anchor}`, await measure(ingest('kecil.md'), env));
      if (!smoke)
        record(`saksi ingest, existing directory, anchor ${anchor}`, await measure(ingest('dua.md'), env));
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const baseline = median(rows[0]!.peakMb);
console.log(`\n| case | peak RSS MB (runs) | median | × baseline | s (median) |`);
console.log(`| --- | --: | --: | --: | --: |`);
for (const row of rows) {
  const peak = median(row.peakMb);
  console.log(
    `| ${row.case} | ${row.peakMb.join(', ')} | ${peak} | ${(peak / baseline).toFixed(2)} | ${median(row.seconds).toFixed(1)} |`,
  );
}
const results = path.join(root, 'bench/results');
mkdirSync(results, { recursive: true });
writeFileSync(
  path.join(results, smoke ? 'cli-memory-smoke.json' : 'cli-memory.json'),
  `${JSON.stringify({ date: new Date().toISOString(), smoke, baselineMb: baseline, rows }, null, 2)}\n`,
);
