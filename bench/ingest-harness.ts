/**
 * Helpers of `ingest.bench.ts`: the input files (a Markdown file of empty headings, Markdown built from
 * real statute sentences, PDFs written by hand with one text object per line), and the samplers (the
 * event-loop gap, the peak RSS from a thread of its own, the latency of `engine.health()`).
 */
import { Worker } from 'node:worker_threads';
import { largeMarkdown } from './api-harness.js';
import {
  corpusDirectory,
  parseAndChunk,
  percentile,
  readCorpus,
  seededRandom,
  sentencePool,
} from './engine-harness.js';

// ---------------------------------------------------------------------------------------------
// Inputs

/** `# h0` … `# h{count-1}`, one per line (20,000 make 169 KB). */
export function emptyHeadings(count: number): Uint8Array {
  return new TextEncoder().encode(Array.from({ length: count }, (_, index) => `# h${index}\n`).join(''));
}

/** Sentences of the UU 22/2009 text, the material of the generated files. */
export async function statuteSentences(): Promise<string[]> {
  const files = readCorpus(corpusDirectory('uu-22-2009-llaj'), ['.md']);
  const chunks = (await Promise.all(files.map((file) => parseAndChunk(file)))).flat();
  return sentencePool(chunks);
}

/** A statute-shaped Markdown file (BAB / Pasal / ayat) of about `bytes` bytes. */
export function statuteMarkdown(pool: readonly string[], bytes: number, seed: number): Uint8Array {
  return largeMarkdown(pool, bytes, seed);
}

/**
 * A PDF of `pages` pages, each `linesPerPage` lines of Helvetica (one of the 14 standard fonts, so
 * nothing is embedded), drawn from `pool`; written by hand: objects, a cross-reference table and a
 * trailer (ISO 32000-1 §7.5).
 */
export function textPdf(
  pool: readonly string[],
  pages: number,
  linesPerPage: number,
  seed: number,
): Uint8Array {
  const random = seededRandom(seed);
  const latin = (text: string) =>
    text
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/[\\()]/g, (character) => `\\${character}`);
  const objects: string[] = [];
  const add = (body: string): number => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add('');
  const pageTree = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (let page = 1; page <= pages; page++) {
    const lines = [`BT /F1 14 Tf 56 790 Td (Halaman ${page}) Tj ET`];
    for (let line = 0; line < linesPerPage; line++) {
      const sentence = latin(pool[Math.floor(random() * pool.length)]!).slice(0, 95);
      lines.push(`BT /F1 10 Tf 56 ${760 - line * 14} Td (${sentence}) Tj ET`);
    }
    const stream = lines.join('\n');
    const content = add(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pageTree} 0 R >>`;
  objects[pageTree - 1] =
    `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count ${pages} >>`;
  let output = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(output.length);
    output += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = output.length;
  output += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) output += `${String(offset).padStart(10, '0')} 00000 n \n`;
  output += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(output);
}

// ---------------------------------------------------------------------------------------------
// Samplers

export interface LoopSample {
  /** Longest time between two turns of a 5 ms interval timer, less the interval. */
  maxStallMs: number;
  p99StallMs: number;
  /**
   * The most CPU time the process used within one such gap (capped at the gap): the part of a stall
   * this process spent working. On a shared machine a gap also holds time the process waited for a
   * CPU; this figure leaves that out.
   */
  maxBusyStallMs: number;
  turns: number;
}

/** Samples the event loop with a 5 ms interval timer until `stop()`. */
export function sampleEventLoop(): { stop(): LoopSample } {
  const INTERVAL_MS = 5;
  const gaps: number[] = [];
  let maxBusy = 0;
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  const tick = () => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    const gap = Math.max(0, now - last - INTERVAL_MS);
    gaps.push(gap);
    maxBusy = Math.max(maxBusy, Math.min(gap, Math.max(0, (cpu.user + cpu.system) / 1000 - INTERVAL_MS)));
    last = now;
    lastCpu = process.cpuUsage();
  };
  const timer = setInterval(tick, INTERVAL_MS);
  return {
    stop() {
      clearInterval(timer);
      tick();
      const sorted = [...gaps].sort((a, b) => a - b);
      return {
        maxStallMs: sorted.at(-1) ?? 0,
        p99StallMs: percentile(sorted, 99),
        maxBusyStallMs: maxBusy,
        turns: gaps.length,
      };
    },
  };
}

/**
 * Samples RSS every 10 ms from a thread of its own, so the figure keeps coming while the main thread
 * is busy: this process's, and this process's plus its children's (the extraction process) from
 * `/proc` (Linux; elsewhere the children are not counted). `stop()` returns the highest of each, in
 * bytes.
 */
export function samplePeakRss(): { stop(): Promise<{ server: number; withChildren: number }> } {
  const peak = new Float64Array(new SharedArrayBuffer(16));
  peak[0] = process.memoryUsage.rss();
  peak[1] = peak[0];
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     const { readFileSync } = require('node:fs');
     const peak = new Float64Array(workerData.buffer);
     const pageSize = 4096;
     const childrenRss = () => {
       try {
         const ids = readFileSync('/proc/' + workerData.pid + '/task/' + workerData.pid + '/children', 'utf8').trim();
         let total = 0;
         for (const id of ids ? ids.split(/s+/) : []) {
           try { total += Number(readFileSync('/proc/' + id + '/statm', 'utf8').split(' ')[1]) * pageSize; } catch {}
         }
         return total;
       } catch { return 0; }
     };
     setInterval(() => {
       const rss = process.memoryUsage.rss();
       if (rss > peak[0]) peak[0] = rss;
       const all = rss + childrenRss();
       if (all > peak[1]) peak[1] = all;
     }, 10);`,
    { eval: true, workerData: { buffer: peak.buffer, pid: process.pid } },
  );
  return {
    async stop() {
      await worker.terminate();
      const now = process.memoryUsage.rss();
      return { server: Math.max(peak[0]!, now), withChildren: Math.max(peak[1]!, now) };
    },
  };
}

export interface ProbeSample {
  count: number;
  /** Calls that threw (a non-2xx answer, a timeout). */
  failed: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * Calls `probe` every `everyMs` without waiting for the previous call, and times each call from the
 * moment it was due, so a server that does not answer for a second shows as a second, not as one late
 * sample.
 */
export function sampleProbe(probe: () => Promise<unknown>, everyMs = 50): { stop(): Promise<ProbeSample> } {
  const latencies: number[] = [];
  let failed = 0;
  const pending = new Set<Promise<unknown>>();
  const first = performance.now();
  let due = 0;
  const timer = setInterval(() => {
    // Every call that fell due since the last tick (this process may itself have been slow).
    while (first + due * everyMs <= performance.now()) {
      const scheduled = first + due * everyMs;
      due++;
      const call = probe()
        .catch(() => {
          failed++;
        })
        .finally(() => {
          latencies.push(performance.now() - scheduled);
          pending.delete(call);
        });
      pending.add(call);
    }
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all([...pending]);
      const sorted = [...latencies].sort((a, b) => a - b);
      return {
        count: sorted.length,
        failed,
        p50Ms: percentile(sorted, 50),
        p99Ms: percentile(sorted, 99),
        maxMs: sorted.at(-1) ?? 0,
      };
    },
  };
}
