/**
 * OCR of scanned pages (bench/README.md, "OCR benchmark"): pages of UU 22/2009 laid out on A4, each
 * written twice — as a PDF with a text layer (the baseline) and as an image-only PDF of the same
 * lines scanned at 300 dpi (clean, and speckled and a little askew) — and read by `parsePdf` as
 * ingestion reads them (the real pdf.js, @napi-rs/canvas and tesseract.js, in this process). Reports
 * pages/s and the character error rate against the text drawn, for the baseline and each scan, in
 * the same run.
 *
 * `--smoke`: one page, clean scan only (seconds). Nothing is asserted about time; it fails only on a
 * broken setup (a scan that reads as nothing).
 */
import os from 'node:os';
import {
  characterErrorRate,
  imageOnlyPdf,
  layoutPages,
  linesText,
  type ScanOptions,
  scanLines,
  textLayerPdf,
} from '../packages/engine/src/ingest/__fixtures__/scanned-pdf.js';
import { statuteContent } from '../packages/engine/src/ingest/__fixtures__/uu-pages.js';
import { DEFAULT_OCR_SETTINGS } from '../packages/engine/src/ingest/limits.js';
import { parsePdf } from '../packages/engine/src/ingest/pdf.js';
import { check, fixed, gitRevision, printTable, writeResults } from './engine-harness.js';

const smoke = process.argv.includes('--smoke');
const PAGES = smoke ? 1 : 6;

const pages = layoutPages(statuteContent(), PAGES);
check(pages.length === PAGES, `UU 22/2009 fills ${PAGES} pages`);
const source = pages.map(linesText).join('\n');
const revision = gitRevision();
process.stdout.write(
  `OCR bench (${smoke ? 'smoke' : 'full'}): ${PAGES} A4 pages of UU 22/2009, ${source.length.toLocaleString('en')} characters; ` +
    `revision ${revision}; load ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}\n`,
);

interface Row {
  name: string;
  bytes: number;
  seconds: number;
  pagesPerSecond: number;
  characterErrorRate: number;
  confidence: number | null;
}

async function measure(name: string, pdf: Uint8Array): Promise<Row> {
  const started = performance.now();
  const document = await parsePdf(pdf, `${name}.pdf`, { ocr: { ...DEFAULT_OCR_SETTINGS, language: 'ind' } });
  const seconds = (performance.now() - started) / 1000;
  const text = document.blocks.map((block) => block.text).join('\n');
  check(text.length > 0, `${name} reads as text`);
  const confidences = document.blocks.flatMap((block) =>
    block.ocr_confidence === undefined ? [] : [block.ocr_confidence],
  );
  return {
    name,
    bytes: pdf.length,
    seconds,
    pagesPerSecond: PAGES / seconds,
    characterErrorRate: characterErrorRate(source, text),
    confidence: confidences.length > 0 ? Math.min(...confidences) : null,
  };
}

const scans: [string, ScanOptions][] = smoke
  ? [['scan, clean, 300 dpi', {}]]
  : [
      ['scan, clean, 300 dpi', {}],
      ['scan, speckled and 0.5° askew, 300 dpi', { speckle: 0.001, skewDegrees: 0.5, seed: 7 }],
      ['scan, clean, 200 dpi', { dpi: 200 }],
    ];

// pdf.js's first document loads its worker code and fonts: not part of any row.
await parsePdf(textLayerPdf(pages.slice(0, 1)), 'warm-up.pdf');
const rows: Row[] = [await measure('text layer (baseline)', textLayerPdf(pages))];
for (const [name, options] of scans) {
  rows.push(await measure(name, imageOnlyPdf(pages.map((lines) => scanLines(lines, options)))));
  process.stdout.write(`  ${name}: done\n`);
}
const baseline = rows[0]!;

printTable(
  `OCR: ${PAGES} page${PAGES === 1 ? '' : 's'}, character error rate against the text drawn (white space collapsed)`,
  ['input', 'PDF KB', 's', 'pages/s', '× baseline time', 'CER %', 'lowest confidence'],
  rows.map((row) => [
    row.name,
    fixed(row.bytes / 1024, 0),
    fixed(row.seconds, 2),
    fixed(row.pagesPerSecond, 2),
    fixed(row.seconds / baseline.seconds, 0),
    fixed(row.characterErrorRate * 100, 2),
    row.confidence === null ? '—' : fixed(row.confidence, 2),
  ]),
);
process.stdout.write(
  `load after: ${os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}\n`,
);
writeResults(smoke ? 'ocr-smoke' : 'ocr', revision, { pages: PAGES, characters: source.length, rows });
