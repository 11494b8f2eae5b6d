/**
 * PDF → blocks with pdf.js (legacy build for Node). pdf.js runs in this thread (its worker module
 * is loaded as the main-thread handler; no worker thread, no network, no eval, no font loading).
 *
 * Layout reconstruction, per page:
 * 1. text items are rotated into their own reading direction (the page's dominant direction first;
 *    text in other directions, such as margin stamps, follows at the end of the page);
 * 2. items are grouped into lines by baseline, and lines into segments at wide horizontal gaps;
 * 3. two-column prose is detected by an empty vertical strip ("gutter") and read column by column;
 * 4. tables: a run of lines whose segments line up in ≥ 3 columns for ≥ 3 rows becomes a `table`
 *    block (HTML rows and cells; colspan where a cell spans columns; a non-numeric first row over
 *    numeric rows becomes the header);
 * 5. other lines become paragraphs (split at vertical gaps, first-line indents and short lines
 *    ending a sentence); lines clearly larger than the body text become headings, levels by size.
 * Line breaks inside a paragraph are kept ("\n"); hyphens at line ends are kept as printed.
 *
 * OCR (`ocr.ts`, with `options.ocr`): a page with no text layer, a garbled one, or a scanned page
 * whose text layer is only a stamp (fewer than 20 visible characters over an image) is rendered and
 * recognized, and its words go through the same layout as a text layer's; its blocks carry the
 * page's recognition confidence. The text layers are read first, so the OCR page limit fails a
 * document before any page is recognized; then the pages are recognized one at a time.
 *
 * Errors: password-protected → `ENCRYPTED_FILE`; unreadable/corrupt → `MALFORMED_FILE`; no text
 * layer and nothing OCR could read (a photograph, a blank page, OCR off) → `NO_TEXT`; past a limit
 * (pages, text, OCR pages, OCR time per page) → `QUOTA_EXCEEDED`.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { ParsedDocument } from '../types.js';
import { baseName, MIME_TYPES, titleFromFilename } from './detect.js';
import { IngestError } from './errors.js';
import { escapeHtml } from './html.js';
import { quotaExceeded } from './limits.js';
import {
  isGarbledText,
  MAX_IMAGE_PIXELS,
  MIN_PAGE_CONFIDENCE,
  type OcrOptions,
  PageReader,
  pagePaints,
  recognizePage,
  SPARSE_TEXT_CHARS,
  visibleLength,
} from './ocr.js';
import type { PositionedText } from './positioned-text.js';
import { BlockBuilder } from './text.js';

export type { PositionedText } from './positioned-text.js';

/** A horizontal run of text inside a line, separated from its neighbours by a wide gap. */
interface Segment {
  x0: number;
  x1: number;
  text: string;
  /** The runs it was joined from, left to right. */
  runs: PositionedText[];
}

interface Line {
  y: number;
  size: number;
  x0: number;
  x1: number;
  runs: PositionedText[];
  segments: Segment[];
}

/** A table found on a page: cells per row, already laid out on a column grid. */
export interface LayoutTable {
  kind: 'table';
  html: string;
  text: string;
  rows: number;
  columns: number;
}

/** What the layout of one page yields, in reading order. */
export type PageElement = { kind: 'line'; line: Line } | LayoutTable;

/** Gap (in font sizes) that separates two segments of a line. */
const SEGMENT_GAP = 1.5;
/** Gap (in font sizes) above which runs in a segment are separated by a space. */
const SPACE_GAP = 0.15;
const MIN_TABLE_ROWS = 3;
const MIN_TABLE_COLUMNS = 3;

// ---------------------------------------------------------------------------------------------
// pdf.js set-up

const require = createRequire(import.meta.url);
const PDFJS_ROOT = path.dirname(require.resolve('pdfjs-dist/package.json'));
const CMAP_URL = path.join(PDFJS_ROOT, 'cmaps') + path.sep;
const STANDARD_FONT_URL = path.join(PDFJS_ROOT, 'standard_fonts') + path.sep;

let workerReady: Promise<void> | undefined;

/**
 * Loads pdf.js's worker code into this thread (`globalThis.pdfjsWorker`), so pdf.js uses it
 * directly instead of spawning a worker or fetching a script.
 */
function ensureMainThreadWorker(): Promise<void> {
  workerReady ??= (async () => {
    const holder = globalThis as { pdfjsWorker?: { WorkerMessageHandler?: unknown } };
    if (holder.pdfjsWorker?.WorkerMessageHandler !== undefined) return;
    try {
      const specifier = 'pdfjs-dist/legacy/build/pdf.worker.mjs';
      holder.pdfjsWorker = (await import(specifier)) as { WorkerMessageHandler?: unknown };
    } catch {
      // pdf.js then loads the same file itself ("fake worker", GlobalWorkerOptions.workerSrc in Node).
    }
  })();
  return workerReady;
}

/** The fields of a pdf.js text item that the layout uses (`getTextContent().items`). */
export interface PdfTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
}

// ---------------------------------------------------------------------------------------------
// Entry point

/** Bounds on reading one PDF; each passed one is `QUOTA_EXCEEDED`. */
export interface PdfLimits {
  /** Checked once the document opens, before any page is read. */
  maxPages?: number;
  /** Characters of text items, counted page by page. */
  maxTextChars?: number;
}

/** How to read one PDF: its limits, OCR, progress and cancellation. */
export interface PdfOptions extends PdfLimits {
  /** OCR of pages without a usable text layer; none when absent or `mode: 'off'`. */
  ocr?: OcrOptions | undefined;
  /** Hears each page OCR is about to read (`done` pages of `total` read so far). */
  onOcrPage?: ((done: number, total: number) => void) | undefined;
  /** Checked between pages: when it aborts, reading stops (the OCR worker is terminated) with its reason. */
  signal?: AbortSignal | undefined;
}

/** Parses a PDF. Throws `ENCRYPTED_FILE`, `MALFORMED_FILE`, `NO_TEXT` or `QUOTA_EXCEEDED`. */
export async function parsePdf(
  bytes: Uint8Array,
  filename: string,
  options: PdfOptions = {},
): Promise<ParsedDocument> {
  const name = baseName(filename);
  const limits = options;
  const ocr = options.ocr?.mode === 'auto' ? options.ocr : undefined;
  const { signal } = options;
  signal?.throwIfAborted();
  await ensureMainThreadWorker();
  const task = getDocument({
    data: bytes.slice(),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    isOffscreenCanvasSupported: false,
    maxImageSize: MAX_IMAGE_PIXELS,
    cMapUrl: CMAP_URL,
    cMapPacked: true,
    standardFontDataUrl: STANDARD_FONT_URL,
    verbosity: 0,
  });
  let reader: PageReader | undefined;
  try {
    let document: Awaited<typeof task.promise>;
    try {
      document = await task.promise;
    } catch (cause) {
      throw openError(cause, name);
    }
    if (limits.maxPages !== undefined && document.numPages > limits.maxPages) {
      throw quotaExceeded(
        'maxPages',
        limits.maxPages,
        `${name} has ${document.numPages.toLocaleString('en')} pages`,
      );
    }
    const metadata: Record<string, string | number | boolean> = {};
    let metadataTitle: string | undefined;
    try {
      const info = (await document.getMetadata()).info as Record<string, unknown>;
      metadataTitle = cleanMetadataTitle(info['Title']);
      for (const [key, field] of [
        ['author', 'Author'],
        ['subject', 'Subject'],
        ['keywords', 'Keywords'],
        ['creator', 'Creator'],
        ['producer', 'Producer'],
        ['created', 'CreationDate'],
      ] as const) {
        const value = info[field];
        if (typeof value === 'string' && value.trim() !== '') metadata[key] = value.trim().normalize('NFC');
      }
    } catch {
      // Unreadable metadata does not make the document unreadable.
    }

    const pages: PageElement[][] = [];
    /** Pages whose text layer is missing or unusable, with the visible characters it has. */
    const unreadable: { pageNumber: number; visible: number }[] = [];
    let characters = 0;
    const checkCharacters = (pageNumber: number) => {
      if (limits.maxTextChars !== undefined && characters > limits.maxTextChars) {
        throw quotaExceeded(
          'maxTextChars',
          limits.maxTextChars,
          `${name} holds more than ${limits.maxTextChars.toLocaleString('en')} characters of text by page ${pageNumber}`,
        );
      }
    };
    try {
      for (let pageNumber = 1; pageNumber <= document.numPages; pageNumber++) {
        signal?.throwIfAborted();
        const page = await document.getPage(pageNumber);
        const content = await page.getTextContent({ includeMarkedContent: false });
        // Marked-content entries have no `str`; text items do.
        const items: PdfTextItem[] = [];
        for (const item of content.items) {
          if (!('str' in item)) continue;
          items.push(item);
          characters += item.str.length;
        }
        checkCharacters(pageNumber);
        pages.push(layoutPage(items));
        if (ocr) {
          const visible = visibleLength(items.map((item) => item.str).join(' '));
          if (await needsOcr(page, items, visible)) unreadable.push({ pageNumber, visible });
        }
        page.cleanup();
      }
    } catch (cause) {
      if (cause instanceof IngestError || signal?.aborted) throw cause;
      throw new IngestError(
        'MALFORMED_FILE',
        `${name} is damaged: a page could not be read (${cause instanceof Error ? cause.message : 'unknown error'}).`,
        { cause },
      );
    }

    // OCR, one page at a time, after the page limit is known to hold.
    const confidences = new Map<number, number>();
    if (ocr && unreadable.length > 0) {
      if (unreadable.length > ocr.maxPages) {
        throw quotaExceeded(
          'ocrMaxPages',
          ocr.maxPages,
          `${name} has ${unreadable.length.toLocaleString('en')} pages without a usable text layer to read by OCR`,
        );
      }
      reader = await PageReader.start(ocr.language);
      for (const [index, { pageNumber, visible }] of unreadable.entries()) {
        signal?.throwIfAborted();
        options.onOcrPage?.(index, unreadable.length);
        const page = await document.getPage(pageNumber);
        let recognized: Awaited<ReturnType<typeof recognizePage>>;
        try {
          recognized = await recognizePage(page, reader, {
            pageSeconds: ocr.pageSeconds,
            name,
            pageNumber,
            signal,
          });
        } catch (cause) {
          if (cause instanceof IngestError || signal?.aborted) throw cause;
          throw new IngestError(
            'MALFORMED_FILE',
            `${name} is damaged: page ${pageNumber} could not be rendered for OCR (${cause instanceof Error ? cause.message : 'unknown error'}).`,
            { cause },
          );
        } finally {
          page.cleanup();
        }
        // A picture, not text (or nothing at all): the page keeps what its text layer had. So does a
        // page whose few characters of text sit beside a picture (a caption, a logo) rather than on a
        // scan: OCR must find a line's worth more than the text layer has.
        if (recognized === undefined || recognized.confidence < MIN_PAGE_CONFIDENCE) continue;
        if (visible > 0 && recognized.characters < visible + SPARSE_TEXT_CHARS) continue;
        pages[pageNumber - 1] = layoutRuns(recognized.runs);
        confidences.set(pageNumber, recognized.confidence);
        characters += recognized.characters;
        checkCharacters(pageNumber);
      }
      options.onOcrPage?.(unreadable.length, unreadable.length);
    }

    const builder = pagesToBlocks(pages, confidences);
    if (builder.blocks.length === 0) {
      throw new IngestError(
        'NO_TEXT',
        ocr
          ? `${name} has no text layer, and OCR found no text it could read on its pages (they hold pictures, or scans too faint or too large to read); upload a clearer scan or a PDF with text.`
          : `${name} has no text layer (it is scanned or holds only images) and OCR is off (SAKSI_OCR); run OCR on it and upload the result.`,
      );
    }
    const firstHeading = builder.blocks.find((block) => block.kind === 'heading')?.text;
    const firstLine = builder.blocks
      .find((block) => block.kind === 'paragraph')
      ?.text.split('\n')[0]
      ?.trim();
    const title =
      metadataTitle ??
      firstHeading ??
      (firstLine !== undefined && firstLine.length >= 3 ? shorten(firstLine, 120) : undefined) ??
      titleFromFilename(filename);
    return {
      title,
      mime: MIME_TYPES.pdf,
      metadata,
      blocks: builder.blocks,
      pages: document.numPages,
    };
  } finally {
    await reader?.terminate();
    await task.destroy().catch(() => undefined);
  }
}

/**
 * Whether a page's text layer is unusable, so OCR should read it: no text at all on a page that
 * paints something, fewer than {@link SPARSE_TEXT_CHARS} visible characters over an image (a page
 * number or a stamp on a scan), or a garbled text layer ({@link isGarbledText}).
 */
async function needsOcr(
  page: Awaited<ReturnType<PdfDocument['getPage']>>,
  items: readonly PdfTextItem[],
  visible: number,
): Promise<boolean> {
  if (visible >= SPARSE_TEXT_CHARS) return isGarbledText(items.map((item) => item.str).join(' '));
  const paints = await pagePaints(page);
  return visible === 0 ? paints.anything : paints.images;
}

type PdfDocument = Awaited<ReturnType<typeof getDocument>['promise']>;

function openError(cause: unknown, name: string): IngestError {
  const errorName = cause instanceof Error ? cause.name : '';
  if (errorName === 'PasswordException') {
    return new IngestError(
      'ENCRYPTED_FILE',
      `${name} is password-protected; remove the password (print or save without protection) and upload it again.`,
      { cause },
    );
  }
  return new IngestError(
    'MALFORMED_FILE',
    `${name} is not a readable PDF (${cause instanceof Error ? cause.message : 'unknown error'}); it may be truncated or corrupt.`,
    { cause },
  );
}

function cleanMetadataTitle(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const title = value
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/^Microsoft (?:Word|Excel|PowerPoint) - /i, '')
    .replace(/\.(?:docx?|xlsx?|pptx?|odt|rtf|tex|pdf)$/i, '')
    .replace(/\s+/g, ' ')
    .trim()
    .normalize('NFC');
  if (title === '' || /^(?:untitled|document\d*|title|\(anonymous\))$/i.test(title)) return undefined;
  return title;
}

function shorten(text: string, length: number): string {
  if (text.length <= length) return text;
  const cut = text.slice(0, length);
  const space = cut.lastIndexOf(' ');
  return `${space > length / 2 ? cut.slice(0, space) : cut}…`;
}

// ---------------------------------------------------------------------------------------------
// Page layout

/** Lays out the text items of one page (pdf.js `getTextContent().items`) in reading order. */
export function layoutPage(items: readonly PdfTextItem[]): PageElement[] {
  const byDirection = new Map<number, PositionedText[]>();
  const characters = new Map<number, number>();
  for (const item of items) {
    const text = item.str;
    if (typeof text !== 'string' || text.trim() === '' || item.transform.length < 6) continue;
    const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = item.transform;
    if (![a, b, c, d, e, f, item.width].every(Number.isFinite)) continue;
    const quadrant = (((Math.round(Math.atan2(b, a) / (Math.PI / 2)) % 4) + 4) % 4) as 0 | 1 | 2 | 3;
    const size = item.height > 0 ? item.height : Math.hypot(c, d) || Math.hypot(a, b) || 1;
    const [x, y] = rotate(e, f, quadrant);
    const width = item.width > 0 ? item.width : size * 0.5 * text.length;
    const runs = byDirection.get(quadrant) ?? [];
    runs.push(...splitWideSpaces({ text, x, y, width, size }));
    byDirection.set(quadrant, runs);
    characters.set(quadrant, (characters.get(quadrant) ?? 0) + text.length);
  }
  const directions = [...byDirection.keys()].sort(
    (left, right) => (characters.get(right) ?? 0) - (characters.get(left) ?? 0),
  );
  const elements: PageElement[] = [];
  for (const direction of directions) elements.push(...layoutRuns(byDirection.get(direction) ?? []));
  return elements;
}

/** Lays out runs that share one reading direction. */
export function layoutRuns(runs: readonly PositionedText[]): PageElement[] {
  const lines = readingOrder(groupLines(runs));
  return findTables(dropPageNumbers(lines));
}

function rotate(x: number, y: number, quadrant: 0 | 1 | 2 | 3): [number, number] {
  switch (quadrant) {
    case 0:
      return [x, y];
    case 1:
      return [y, -x];
    case 2:
      return [-x, -y];
    case 3:
      return [-y, x];
  }
}

/** Splits a run at runs of 3+ spaces (producers that pad table columns with spaces). */
function splitWideSpaces(run: PositionedText): PositionedText[] {
  if (!/\S\s{3,}\S/.test(run.text)) return [run];
  const perCharacter = run.width / Math.max(1, run.text.length);
  const parts: PositionedText[] = [];
  const pattern = /\S+(?:\s{1,2}\S+)*/g;
  for (let match = pattern.exec(run.text); match !== null; match = pattern.exec(run.text)) {
    parts.push({
      text: match[0],
      x: run.x + match.index * perCharacter,
      y: run.y,
      width: match[0].length * perCharacter,
      size: run.size,
    });
  }
  return parts;
}

function groupLines(runs: readonly PositionedText[]): Line[] {
  const sorted = [...runs].sort((left, right) => right.y - left.y || left.x - right.x);
  const lines: Line[] = [];
  let current: PositionedText[] = [];
  let baseline = 0;
  let size = 0;
  const finish = () => {
    if (current.length > 0) lines.push(makeLine(current));
    current = [];
  };
  for (const run of sorted) {
    if (current.length > 0 && Math.abs(run.y - baseline) <= 0.5 * Math.min(size, run.size)) {
      current.push(run);
      // A tiny glyph (a 2-point "-" in a scanned table) must not set the line's baseline and tolerance.
      if (run.size > size) {
        baseline = run.y;
        size = run.size;
      }
      continue;
    }
    finish();
    current = [run];
    baseline = run.y;
    size = run.size;
  }
  finish();
  return lines;
}

function makeLine(runs: PositionedText[]): Line {
  const sorted = [...runs].sort((left, right) => left.x - right.x);
  const kept: PositionedText[] = [];
  for (const run of sorted) {
    const previous = kept[kept.length - 1];
    // Fake bold: the same text drawn twice with a tiny offset.
    if (previous !== undefined && previous.text === run.text && Math.abs(previous.x - run.x) < 0.3 * run.size)
      continue;
    kept.push(run);
  }
  const sizes = kept.map((run) => run.size).sort((left, right) => left - right);
  const size = sizes[Math.floor(sizes.length / 2)] ?? 1;
  const line: Line = {
    y: maxOf(kept, (run) => run.y),
    size,
    x0: minOf(kept, (run) => run.x),
    x1: maxOf(kept, (run) => run.x + run.width),
    runs: kept,
    segments: [],
  };
  line.segments = segmentsOf(kept);
  return line;
}

function segmentsOf(runs: readonly PositionedText[]): Segment[] {
  const segments: Segment[] = [];
  let current: Segment | undefined;
  for (const run of runs) {
    const gap = current === undefined ? 0 : run.x - current.x1;
    if (current === undefined || gap > SEGMENT_GAP * run.size) {
      current = { x0: run.x, x1: run.x + run.width, text: run.text.trim(), runs: [run] };
      segments.push(current);
      continue;
    }
    current.runs.push(run);
    const needsSpace = gap > SPACE_GAP * run.size && !/\s$/.test(current.text) && !/^\s/.test(run.text);
    current.text = `${current.text}${needsSpace ? ' ' : ''}${run.text}`.replace(/\s+/g, ' ').trim();
    current.x1 = Math.max(current.x1, run.x + run.width);
  }
  return segments;
}

function textOf(line: Line): string {
  return line.segments.map((segment) => segment.text).join(' ');
}

/** Smallest value of `select` over `items` (no argument spreading: pages can hold very many items). */
function minOf<T>(items: readonly T[], select: (item: T) => number): number {
  let result = Number.POSITIVE_INFINITY;
  for (const item of items) result = Math.min(result, select(item));
  return result;
}

function maxOf<T>(items: readonly T[], select: (item: T) => number): number {
  let result = Number.NEGATIVE_INFINITY;
  for (const item of items) result = Math.max(result, select(item));
  return result;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * Two-column pages: finds a vertical strip, in the middle of the text area, that almost no line
 * crosses while prose lines sit on both sides; lines on either side are then read column by column
 * (lines that cross the strip, such as a title, stay where they are).
 */
function readingOrder(lines: Line[]): Line[] {
  if (lines.length < 10) return lines;
  const left = minOf(lines, (line) => line.x0);
  const right = maxOf(lines, (line) => line.x1);
  const width = right - left;
  if (width <= 0 || width > 20_000) return lines;
  const bins = new Uint16Array(Math.ceil(width) + 1);
  for (const line of lines) {
    for (const run of line.runs) {
      const start = Math.max(0, Math.floor(run.x - left));
      const end = Math.min(bins.length, Math.ceil(run.x + run.width - left));
      for (let bin = start; bin < end; bin++) bins[bin] = (bins[bin] ?? 0) + 1;
    }
  }
  const bodySize = median(lines.map((line) => line.size));
  const allowed = Math.max(2, Math.floor(lines.length * 0.1));
  let best: { start: number; end: number } | undefined;
  let runStart = -1;
  for (let bin = Math.floor(width * 0.25); bin <= Math.ceil(width * 0.75) + 1; bin++) {
    const free = bin < bins.length && (bins[bin] ?? 0) <= allowed;
    if (free && runStart < 0) runStart = bin;
    if (!free && runStart >= 0) {
      if (
        bin - runStart >= 0.6 * bodySize &&
        (best === undefined || bin - runStart > best.end - best.start)
      ) {
        best = { start: runStart, end: bin };
      }
      runStart = -1;
    }
  }
  if (best === undefined) return lines;
  const gutterStart = left + best.start;
  const gutterEnd = left + best.end;
  const center = (gutterStart + gutterEnd) / 2;

  const sides = lines.map((line) => {
    const crossing = line.runs.some((run) => run.x < gutterEnd && run.x + run.width > gutterStart);
    if (crossing) return undefined;
    const leftRuns = line.runs.filter((run) => run.x + run.width / 2 < center);
    const rightRuns = line.runs.filter((run) => run.x + run.width / 2 >= center);
    return {
      left: leftRuns.length > 0 ? makeLine(leftRuns) : undefined,
      right: rightRuns.length > 0 ? makeLine(rightRuns) : undefined,
    };
  });
  const leftLines = sides.flatMap((side) => (side?.left === undefined ? [] : [side.left]));
  const rightLines = sides.flatMap((side) => (side?.right === undefined ? [] : [side.right]));
  const isProse = (side: Line[]) =>
    side.length >= 5 &&
    side.length >= lines.length * 0.25 &&
    side.reduce((total, line) => total + textOf(line).length, 0) / side.length >= 20 &&
    side.filter((line) => line.segments.length === 1).length >= side.length * 0.7;
  if (!isProse(leftLines) || !isProse(rightLines)) return lines;

  const ordered: Line[] = [];
  let pendingLeft: Line[] = [];
  let pendingRight: Line[] = [];
  const flush = () => {
    ordered.push(...pendingLeft, ...pendingRight);
    pendingLeft = [];
    pendingRight = [];
  };
  lines.forEach((line, index) => {
    const side = sides[index];
    if (side === undefined) {
      flush();
      ordered.push(line);
      return;
    }
    if (side.left !== undefined) pendingLeft.push(side.left);
    if (side.right !== undefined) pendingRight.push(side.right);
  });
  flush();
  return ordered;
}

/** Drops a lone page number as the first or last line of a page. */
function dropPageNumbers(lines: Line[]): Line[] {
  const isPageNumber = (line: Line | undefined) =>
    line !== undefined &&
    line.segments.length === 1 &&
    /^[-–—\s]*(?:(?:page|halaman|hal\.)\s*)?\d{1,4}(?:\s*(?:\/|of|dari)\s*\d{1,4})?[-–—\s]*$/i.test(
      textOf(line),
    );
  const result = [...lines];
  const last = result[result.length - 1];
  const beforeLast = result[result.length - 2];
  if (
    isPageNumber(last) &&
    last !== undefined &&
    beforeLast !== undefined &&
    beforeLast.y - last.y > 2 * last.size
  ) {
    result.pop();
  }
  const first = result[0];
  const second = result[1];
  if (
    isPageNumber(first) &&
    first !== undefined &&
    second !== undefined &&
    first.y - second.y > 2 * first.size
  ) {
    result.shift();
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Tables

function findTables(lines: Line[]): PageElement[] {
  const elements: PageElement[] = [];
  let index = 0;
  while (index < lines.length) {
    const run = tableRun(lines, index);
    if (run.length >= MIN_TABLE_ROWS) {
      const table = buildTable(run);
      if (table !== undefined) {
        elements.push(table);
        index += run.length;
        continue;
      }
    }
    const line = lines[index];
    if (line !== undefined) elements.push({ kind: 'line', line });
    index++;
  }
  return elements;
}

/** The longest run of table-like lines starting at `start` (multi-segment lines, close together). */
function tableRun(lines: Line[], start: number): Line[] {
  const first = lines[start];
  if (first === undefined || first.segments.length < 2) return [];
  const run: Line[] = [first];
  let index = start + 1;
  while (index < lines.length) {
    const line = lines[index];
    const previous = run[run.length - 1];
    if (line === undefined || previous === undefined) break;
    const gap = previous.y - line.y;
    if (gap <= 0 || gap > 3 * Math.max(previous.size, line.size)) break;
    if (line.segments.length >= 2) {
      run.push(line);
      index++;
      continue;
    }
    // One single-segment line (a wrapped cell, a group label) may sit between table rows.
    const next = lines[index + 1];
    if (
      next !== undefined &&
      next.segments.length >= 2 &&
      textOf(line).length <= 80 &&
      line.y - next.y > 0 &&
      line.y - next.y <= 3 * Math.max(line.size, next.size)
    ) {
      run.push(line, next);
      index += 2;
      continue;
    }
    break;
  }
  // Trailing single-segment lines are not part of the table.
  while (run.length > 0 && (run[run.length - 1]?.segments.length ?? 0) < 2) run.pop();
  return run;
}

interface Band {
  x0: number;
  x1: number;
}

function buildTable(rows: Line[]): LayoutTable | undefined {
  // Columns come from the rows with the most segments (at least three such rows).
  const counts = rows.map((row) => row.segments.length).sort((left, right) => right - left);
  const threshold = counts[MIN_TABLE_ROWS - 1] ?? 0;
  if (threshold < 2) return undefined;
  const bandSource = rows.filter((row) => row.segments.length >= threshold).flatMap((row) => row.segments);
  const bands = mergeBands(bandSource, median(rows.map((row) => row.size)));
  if (bands.length < MIN_TABLE_COLUMNS) return undefined;

  const grid = rows.map((row) => {
    const cells: { text: string; span: number }[] = bands.map(() => ({ text: '', span: 1 }));
    const covered = new Set<number>();
    for (const segment of row.segments.flatMap((candidate) => splitAcrossBands(candidate, bands))) {
      const overlapping = bands
        .map((band, bandIndex) => ({
          bandIndex,
          overlap: Math.min(band.x1, segment.x1) - Math.max(band.x0, segment.x0),
        }))
        .filter((entry) => entry.overlap > 0)
        .map((entry) => entry.bandIndex);
      const startBand = overlapping[0] ?? nearestBand(bands, (segment.x0 + segment.x1) / 2);
      const endBand = overlapping[overlapping.length - 1] ?? startBand;
      const cell = cells[startBand];
      if (cell === undefined) continue;
      cell.text = cell.text === '' ? segment.text : `${cell.text} ${segment.text}`;
      if (endBand > startBand && !covered.has(startBand)) {
        cell.span = Math.max(cell.span, endBand - startBand + 1);
        for (let band = startBand + 1; band <= endBand; band++) covered.add(band);
      }
    }
    return cells.map((cell, bandIndex) => (covered.has(bandIndex) ? undefined : cell));
  });

  const alignedRows = grid.filter(
    (row) => row.filter((cell) => cell !== undefined && cell.text !== '').length >= MIN_TABLE_COLUMNS,
  );
  if (alignedRows.length < MIN_TABLE_ROWS) return undefined;

  const isNumeric = (text: string) => /\d/.test(text) && /^[\d\s.,()%+\-–—/:]+$/.test(text);
  const firstRow = grid[0] ?? [];
  const header =
    firstRow.every((cell) => cell === undefined || !isNumeric(cell.text)) &&
    grid.slice(1).some((row) => row.some((cell) => cell !== undefined && isNumeric(cell.text)));

  const renderRow = (row: ({ text: string; span: number } | undefined)[], tag: 'th' | 'td') =>
    '<tr>' +
    row
      .filter((cell): cell is { text: string; span: number } => cell !== undefined)
      .map(
        (cell) =>
          `<${tag}${cell.span > 1 ? ` colspan="${cell.span}"` : ''}>${escapeHtml(cell.text)}</${tag}>`,
      )
      .join('') +
    '</tr>';
  const bodyRows = header ? grid.slice(1) : grid;
  const html =
    '<table>' +
    (header ? `<thead>${renderRow(firstRow, 'th')}</thead>` : '') +
    `<tbody>${bodyRows.map((row) => renderRow(row, 'td')).join('')}</tbody>` +
    '</table>';
  const text = grid
    .map((row) =>
      row
        .filter((cell): cell is { text: string; span: number } => cell !== undefined && cell.text !== '')
        .map((cell) => cell.text)
        .join(' | '),
    )
    .filter((row) => row !== '')
    .join('\n');
  return { kind: 'table', html, text, rows: grid.length, columns: bands.length };
}

/**
 * A segment that straddles column bands although its runs each sit in one band (a narrow gap
 * between two cells, e.g. "XVIII" + "Provinsi Sulawesi Utara") is split between those bands.
 */
function splitAcrossBands(segment: Segment, bands: Band[]): Segment[] {
  if (segment.runs.length < 2) return [segment];
  const bandOf = (x0: number, x1: number): number | undefined => {
    let best: number | undefined;
    let bestOverlap = 0;
    bands.forEach((band, index) => {
      const overlap = Math.min(band.x1, x1) - Math.max(band.x0, x0);
      if (overlap > bestOverlap) {
        bestOverlap = overlap;
        best = index;
      }
    });
    // Only a run that lies mostly inside one band decides; a run across bands keeps the segment whole.
    return best !== undefined && bestOverlap >= 0.5 * (x1 - x0) ? best : undefined;
  };
  const parts: Segment[] = [];
  let previousBand: number | undefined;
  for (const run of segment.runs) {
    const band = bandOf(run.x, run.x + run.width);
    if (band === undefined) return [segment];
    const last = parts[parts.length - 1];
    if (last !== undefined && band === previousBand) {
      last.text = `${last.text} ${run.text}`.replace(/\s+/g, ' ').trim();
      last.x1 = Math.max(last.x1, run.x + run.width);
      last.runs.push(run);
    } else {
      if (previousBand !== undefined && band < previousBand) return [segment];
      parts.push({ x0: run.x, x1: run.x + run.width, text: run.text.trim(), runs: [run] });
    }
    previousBand = band;
  }
  return parts.length > 1 ? parts : [segment];
}

function mergeBands(segments: Segment[], size: number): Band[] {
  const sorted = [...segments].sort((left, right) => left.x0 - right.x0);
  const bands: Band[] = [];
  for (const segment of sorted) {
    const last = bands[bands.length - 1];
    if (last !== undefined && segment.x0 <= last.x1 + 0.3 * size) last.x1 = Math.max(last.x1, segment.x1);
    else bands.push({ x0: segment.x0, x1: segment.x1 });
  }
  return bands;
}

function nearestBand(bands: Band[], x: number): number {
  let best = 0;
  let distance = Number.POSITIVE_INFINITY;
  bands.forEach((band, index) => {
    const candidate = x < band.x0 ? band.x0 - x : x > band.x1 ? x - band.x1 : 0;
    if (candidate < distance) {
      distance = candidate;
      best = index;
    }
  });
  return best;
}

// ---------------------------------------------------------------------------------------------
// Paragraphs and headings

function roundSize(size: number): number {
  return Math.round(size * 2) / 2;
}

/**
 * Turns laid-out pages into blocks: headings by font size, paragraphs by spacing, tables as they are.
 * The blocks of a page in `confidences` (1-based page → OCR confidence, 0–1) carry it.
 */
export function pagesToBlocks(
  laidOut: readonly PageElement[][],
  confidences: ReadonlyMap<number, number> = new Map(),
): BlockBuilder {
  const pages = dropRunningLines(laidOut);
  // Body size: the font size that carries the most characters outside tables.
  const weight = new Map<number, number>();
  for (const page of pages) {
    for (const element of page) {
      if (element.kind !== 'line') continue;
      const size = roundSize(element.line.size);
      weight.set(size, (weight.get(size) ?? 0) + textOf(element.line).length);
    }
  }
  let bodySize = 0;
  let bodyWeight = -1;
  for (const [size, total] of weight) {
    if (total > bodyWeight) {
      bodySize = size;
      bodyWeight = total;
    }
  }
  const isHeadingLine = (line: Line) => {
    const text = textOf(line);
    return (
      bodySize > 0 &&
      line.size >= bodySize * 1.15 &&
      line.size - bodySize >= 1 &&
      text.length <= 150 &&
      /\p{L}/u.test(text)
    );
  };
  const headingSizes = new Set<number>();
  for (const page of pages) {
    for (const element of page)
      if (element.kind === 'line' && isHeadingLine(element.line))
        headingSizes.add(roundSize(element.line.size));
  }
  const levels = [...headingSizes].sort((left, right) => right - left);
  const levelOf = (size: number) => Math.min(6, levels.indexOf(roundSize(size)) + 1);

  const builder = new BlockBuilder();
  pages.forEach((elements, pageIndex) => {
    const page = pageIndex + 1;
    const ocrConfidence = confidences.get(page);
    const extras = ocrConfidence === undefined ? { page } : { page, ocrConfidence };
    const pitches: number[] = [];
    for (let index = 1; index < elements.length; index++) {
      const previous = elements[index - 1];
      const current = elements[index];
      if (previous?.kind === 'line' && current?.kind === 'line') {
        const gap = previous.line.y - current.line.y;
        if (gap > 0 && gap < 3 * current.line.size) pitches.push(gap);
      }
    }
    const pitch = median(pitches);

    let paragraph: Line[] = [];
    let heading: Line[] = [];
    const flushParagraph = () => {
      if (paragraph.length > 0) builder.add('paragraph', paragraph.map(textOf).join('\n'), extras);
      paragraph = [];
    };
    const flushHeading = () => {
      const first = heading[0];
      if (first !== undefined) builder.heading(levelOf(first.size), heading.map(textOf).join(' '), extras);
      heading = [];
    };

    for (const element of elements) {
      if (element.kind === 'table') {
        flushHeading();
        flushParagraph();
        builder.add('table', element.text, { ...extras, html: element.html });
        continue;
      }
      const line = element.line;
      if (isHeadingLine(line)) {
        flushParagraph();
        const previous = heading[heading.length - 1];
        if (
          previous !== undefined &&
          (roundSize(previous.size) !== roundSize(line.size) ||
            previous.y - line.y > 2 * line.size ||
            previous.y <= line.y)
        ) {
          flushHeading();
        }
        heading.push(line);
        continue;
      }
      flushHeading();
      const previous = paragraph[paragraph.length - 1];
      if (previous !== undefined && startsParagraph(previous, line, paragraph, pitch)) flushParagraph();
      paragraph.push(line);
    }
    flushHeading();
    flushParagraph();
  });
  return builder;
}

const ENUMERATION = /^(?:[a-z]\.|\d{1,3}[.)]|\(\d{1,3}\)|\([a-z]\)|[•▪◦·–-])\s/;
const SENTENCE_END = /[.!?:;]["'”’)\]]?$/;

function startsParagraph(previous: Line, line: Line, paragraph: Line[], pitch: number): boolean {
  const gap = previous.y - line.y;
  if (gap <= 0) return true; // a new column or a jump back up the page
  const expected = pitch > 0 ? pitch : 1.2 * line.size;
  if (gap > Math.max(1.45 * expected, expected + 0.4 * line.size)) return true;
  if (Math.abs(previous.size - line.size) > 0.15 * Math.max(previous.size, line.size)) return true;
  const previousText = textOf(previous);
  const ended = SENTENCE_END.test(previousText);
  // A new enumerated item ("a.", "1.", "(2)", "•") after an item that ended.
  if (ended && ENUMERATION.test(textOf(line))) return true;
  const shift = line.x0 - previous.x0;
  // First-line indent after a finished sentence (an indent after an unfinished line is a hanging indent).
  if (ended && shift >= 0.8 * line.size && shift <= 4 * line.size) return true;
  // Back out to the left after a finished sentence: the end of a hanging-indent item.
  if (ended && shift <= -0.8 * line.size) return true;
  // A short line ending a sentence ends the paragraph.
  if (ended && paragraph.length >= 2) {
    const margin = minOf(paragraph, (candidate) => candidate.x0);
    const right = maxOf(paragraph, (candidate) => candidate.x1);
    if (previous.x1 - margin < 0.7 * (right - margin)) return true;
  }
  return false;
}

/**
 * Running headers and footers: a line among the first or last two of a page whose text (digits
 * ignored) recurs on at least half of the pages (and on at least two).
 */
function dropRunningLines(pages: readonly PageElement[][]): PageElement[][] {
  if (pages.length < 2) return pages.map((page) => [...page]);
  const keyOf = (line: Line) => textOf(line).replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().toLowerCase();
  const edges = (page: readonly PageElement[]) => {
    const lines = page.filter((element): element is { kind: 'line'; line: Line } => element.kind === 'line');
    return new Set([...lines.slice(0, 2), ...lines.slice(-2)]);
  };
  const counts = new Map<string, number>();
  for (const page of pages) {
    const keys = new Set([...edges(page)].map((element) => keyOf(element.line)));
    for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const threshold = Math.max(2, Math.ceil(pages.length / 2));
  return pages.map((page) => {
    if (page.length <= 3) return [...page];
    const edge = edges(page);
    return page.filter(
      (element) =>
        !(
          element.kind === 'line' &&
          edge.has(element) &&
          (counts.get(keyOf(element.line)) ?? 0) >= threshold
        ),
    );
  });
}
