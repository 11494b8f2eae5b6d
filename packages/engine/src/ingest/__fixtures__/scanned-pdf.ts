/**
 * Scanned pages made from real text, for the OCR tests and bench (ocr.test.ts, bench/ocr.bench.ts):
 * paragraphs are drawn onto an A4 page with `@napi-rs/canvas` in Liberation Sans (the font file
 * pdfjs-dist ships, so no system font is needed), optionally speckled and turned a little like a
 * scanner leaves them, and wrapped as the only content of a PDF page (a grey image XObject, Flate
 * compressed, no text layer). `textLayerPdf` writes the same lines as a PDF with a text layer, the
 * baseline OCR is compared against; `characterErrorRate` compares recognized text with its source.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { PdfWriter, pdfString } from '@saksi/test-support/hostile';
import { toGrey } from '../ocr.js';

const require = createRequire(import.meta.url);
const FONTS = path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts');
const FAMILY = 'Saksi Scan Sans';
let registered = false;

function registerFont(): void {
  if (registered) return;
  GlobalFonts.registerFromPath(path.join(FONTS, 'LiberationSans-Regular.ttf'), FAMILY);
  GlobalFonts.registerFromPath(path.join(FONTS, 'LiberationSans-Bold.ttf'), FAMILY);
  registered = true;
}

/** A4 in points. */
export const PAGE_WIDTH = 595;
export const PAGE_HEIGHT = 842;
const MARGIN = 72;
const BODY_SIZE = 11;
const LEADING = 15;

/** One line of a page as drawn: its text, size and whether it is a heading. */
export interface DrawnLine {
  text: string;
  size: number;
  heading: boolean;
  /** The baseline, in points from the top of the page. */
  y: number;
}

/** A page's content: headings (drawn larger and bold) and paragraphs, in order. */
export type PageContent = readonly ({ heading: string } | { paragraph: string })[];

/**
 * Lays content out into lines that fit the page's width, page after page, at most `maxPages` pages.
 * A heading stands a line apart from what precedes it, as in a printed statute.
 */
export function layoutPages(content: PageContent, maxPages: number): DrawnLine[][] {
  registerFont();
  const measure = createCanvas(10, 10).getContext('2d');
  const pages: DrawnLine[][] = [[]];
  let y = MARGIN;
  const place = (text: string, size: number, heading: boolean, first: boolean): boolean => {
    const gap = first && heading && pages[pages.length - 1]!.length > 0 ? LEADING : 0;
    const step = gap + (heading ? size * 1.4 : LEADING);
    if (y + step > PAGE_HEIGHT - MARGIN) {
      if (pages.length >= maxPages) return false;
      pages.push([]);
      y = MARGIN;
      return place(text, size, heading, first);
    }
    y += step;
    pages[pages.length - 1]!.push({ text, size, heading, y });
    return true;
  };
  for (const item of content) {
    const heading = 'heading' in item;
    const size = heading ? BODY_SIZE * 1.45 : BODY_SIZE;
    measure.font = `${heading ? 'bold ' : ''}${size}px "${FAMILY}"`;
    let line = '';
    let first = true;
    for (const word of ('heading' in item ? item.heading : item.paragraph).split(/\s+/).filter(Boolean)) {
      const candidate = line === '' ? word : `${line} ${word}`;
      if (measure.measureText(candidate).width > PAGE_WIDTH - 2 * MARGIN && line !== '') {
        if (!place(line, size, heading, first)) return pages;
        first = false;
        line = word;
      } else line = candidate;
    }
    if (line !== '' && !place(line, size, heading, first)) return pages;
  }
  return pages;
}

/** The text of laid-out lines, one line each, as a reader of the page would type it. */
export function linesText(lines: readonly DrawnLine[]): string {
  return lines.map((line) => line.text).join('\n');
}

/** A deterministic pseudo-random generator (mulberry32), for speckle. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface ScanOptions {
  /** Scan resolution (default 300). */
  dpi?: number;
  /** Share of pixels flipped to dark specks (default 0: a clean scan). */
  speckle?: number;
  /** Rotation in degrees, as a sheet fed a little askew (default 0). */
  skewDegrees?: number;
  seed?: number;
}

/** Draws the lines as a scanner would see the printed page: grey pixels, row by row. */
export function scanLines(
  lines: readonly DrawnLine[],
  options: ScanOptions = {},
): { width: number; height: number; pixels: Uint8Array } {
  registerFont();
  const scale = (options.dpi ?? 300) / 72;
  const width = Math.round(PAGE_WIDTH * scale);
  const height = Math.round(PAGE_HEIGHT * scale);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  if (options.skewDegrees) {
    context.translate(width / 2, height / 2);
    context.rotate((options.skewDegrees * Math.PI) / 180);
    context.translate(-width / 2, -height / 2);
  }
  context.scale(scale, scale);
  context.fillStyle = '#111111';
  for (const line of lines) {
    context.font = `${line.heading ? 'bold ' : ''}${line.size}px "${FAMILY}"`;
    context.fillText(line.text, MARGIN, line.y);
  }
  const pixels = toGrey(context.getImageData(0, 0, width, height).data, width, height);
  const speckle = options.speckle ?? 0;
  if (speckle > 0) {
    const next = random(options.seed ?? 1);
    const count = Math.round(pixels.length * speckle);
    for (let index = 0; index < count; index++) pixels[Math.floor(next() * pixels.length)] = 40;
  }
  return { width, height, pixels };
}

/**
 * An image-only PDF: each page shows one grey scan over the whole A4 page, and has no text — unless
 * `hiddenText` is given: then each page also carries it as an invisible text layer (render mode 3, as
 * OCR software writes one), e.g. a garbled one.
 */
export function imageOnlyPdf(
  scans: readonly { width: number; height: number; pixels: Uint8Array }[],
  options: { hiddenText?: string } = {},
): Uint8Array {
  const writer = new PdfWriter();
  const catalog = writer.reserve();
  const pagesObject = writer.reserve();
  const font = writer.add(
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  );
  const hidden =
    options.hiddenText === undefined
      ? ''
      : `\nBT 3 Tr /F1 10 Tf 72 700 Td ${pdfString(options.hiddenText)} Tj ET`;
  const kids: number[] = [];
  for (const scan of scans) {
    const image = writer.add(
      PdfWriter.stream(
        `/Type /XObject /Subtype /Image /Width ${scan.width} /Height ${scan.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
        deflateSync(scan.pixels),
      ),
    );
    const content = writer.add(
      PdfWriter.stream(
        '',
        new TextEncoder().encode(`q ${PAGE_WIDTH} 0 0 ${PAGE_HEIGHT} 0 0 cm /Scan Do Q${hidden}`),
      ),
    );
    kids.push(
      writer.add(
        `<< /Type /Page /Parent ${pagesObject} 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources << /XObject << /Scan ${image} 0 R >> /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  writer.set(
    pagesObject,
    `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count ${kids.length} >>`,
  );
  writer.set(catalog, `<< /Type /Catalog /Pages ${pagesObject} 0 R >>`);
  return writer.finish(`/Root ${catalog} 0 R`);
}

/** The same lines as a PDF with a text layer (Helvetica, WinAnsi), laid out as {@link scanLines} draws them. */
export function textLayerPdf(pages: readonly (readonly DrawnLine[])[]): Uint8Array {
  const writer = new PdfWriter();
  const catalog = writer.reserve();
  const pagesObject = writer.reserve();
  const regular = writer.add(
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  );
  const bold = writer.add(
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
  );
  const kids: number[] = [];
  for (const lines of pages) {
    const operators = lines.map(
      (line) =>
        `BT /${line.heading ? 'F2' : 'F1'} ${line.size} Tf ${MARGIN} ${PAGE_HEIGHT - line.y} Td ${pdfString(line.text)} Tj ET`,
    );
    const content = writer.add(PdfWriter.stream('', new TextEncoder().encode(operators.join('\n'))));
    kids.push(
      writer.add(
        `<< /Type /Page /Parent ${pagesObject} 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources << /Font << /F1 ${regular} 0 R /F2 ${bold} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  writer.set(
    pagesObject,
    `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count ${kids.length} >>`,
  );
  writer.set(catalog, `<< /Type /Catalog /Pages ${pagesObject} 0 R >>`);
  return writer.finish(`/Root ${catalog} 0 R`);
}

/** Text compared character by character: white space runs become one space, ends trimmed. */
function comparable(text: string): string[] {
  return [...text.normalize('NFC').replace(/\s+/g, ' ').trim()];
}

/**
 * Character error rate: the edit distance (insertions, deletions, substitutions; Levenshtein) from
 * the reference to the recognized text, over the reference's length, white space collapsed.
 */
export function characterErrorRate(reference: string, recognized: string): number {
  const source = comparable(reference);
  const target = comparable(recognized);
  if (source.length === 0) return target.length === 0 ? 0 : 1;
  let previous = Array.from({ length: target.length + 1 }, (_, index) => index);
  for (let row = 1; row <= source.length; row++) {
    const current = [row];
    for (let column = 1; column <= target.length; column++) {
      const substitution = previous[column - 1]! + (source[row - 1] === target[column - 1] ? 0 : 1);
      current.push(Math.min(substitution, previous[column]! + 1, current[column - 1]! + 1));
    }
    previous = current;
  }
  return previous[target.length]! / source.length;
}
