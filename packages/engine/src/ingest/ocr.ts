/**
 * OCR of PDF pages without a usable text layer (docs/engine.md, "OCR of scanned pages"). A page is
 * rendered by pdf.js onto a canvas (`@napi-rs/canvas`, whose binary ships in its npm package), turned
 * grey, and read by tesseract.js; its words come back with boxes and confidences, and `pdf.ts` lays
 * them out exactly like the runs of a text layer (lines, paragraphs, headings by size, tables).
 *
 * Offline, always: the recognition data are the npm packages `@tesseract.js-data/ind` and
 * `@tesseract.js-data/eng` (LSTM models, folder `4.0.0_best_int`), read from node_modules through
 * `langPath`; nothing is cached or written (`cacheMethod: 'none'`), and tesseract.js's own code and
 * WebAssembly come from `tesseract.js` and `tesseract.js-core` in node_modules. Nothing is fetched.
 *
 * Bounded: one page is rendered at a time, at {@link OCR_DPI} but never more than
 * {@link MAX_RENDER_PIXELS}; rendering and recognition of a page share one deadline
 * (`SAKSI_OCR_PAGE_SECONDS`), after which the tesseract worker is terminated and the document fails
 * with `QUOTA_EXCEEDED`. The worker is terminated whatever the outcome ({@link PageReader.terminate}).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Canvas, createCanvas } from '@napi-rs/canvas';
import { OPS, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import type { IngestError } from './errors.js';
import { quotaExceeded } from './limits.js';
import type { OcrLanguage } from './ocr-options.js';
import type { PositionedText } from './positioned-text.js';

export { type OcrLanguage, type OcrOptions, ocrLanguageOf } from './ocr-options.js';

const require = createRequire(import.meta.url);

/**
 * The folder holding `<language>.traineddata.gz` inside its npm package: the integer LSTM models
 * (`4.0.0_best_int`, what tesseract.js itself would otherwise download for the LSTM engine).
 */
export function traineddataFolder(language: OcrLanguage): string {
  return path.join(
    path.dirname(require.resolve(`@tesseract.js-data/${language}/package.json`)),
    '4.0.0_best_int',
  );
}

// ---------------------------------------------------------------------------------------------
// Which pages need OCR

/** Fewer visible characters than this on a page is too little text to judge, or a stamp on a scan. */
export const SPARSE_TEXT_CHARS = 20;
/** A text layer where more than this share of the characters are unreadable is garbled… */
const MAX_UNREADABLE_SHARE = 0.1;
/** …and so is one where fewer than this share are letters, digits or marks. */
const MIN_WORD_CHARACTER_SHARE = 0.5;

/**
 * Whether a page's text layer is garbled: a font without a usable character map gives replacement
 * characters (U+FFFD), private-use or control characters, or runs of symbols in place of words. The
 * test, over the visible characters once runs of one repeated symbol (the dots of a table of
 * contents) are dropped: at least {@link SPARSE_TEXT_CHARS} of them, and more than 10 % unreadable
 * (U+FFFD, private use, control, unassigned) or fewer than half letters, digits and combining marks.
 * A text layer in the wrong letters (a font whose codes map to other letters) passes the test: it
 * cannot be told from a foreign language by characters alone.
 */
export function isGarbledText(text: string): boolean {
  const visible = text
    .replace(/([\p{P}\p{S}])\1{2,}/gu, (run) => (run.includes('\ufffd') ? run : ''))
    .replace(/\s+/g, '');
  const characters = [...visible];
  if (characters.length < SPARSE_TEXT_CHARS) return false;
  let unreadable = 0;
  let wordCharacters = 0;
  for (const character of characters) {
    if (/[\ufffd\p{Co}\p{Cc}\p{Cn}]/u.test(character)) unreadable++;
    else if (/[\p{L}\p{N}\p{M}]/u.test(character)) wordCharacters++;
  }
  return (
    unreadable / characters.length > MAX_UNREADABLE_SHARE ||
    wordCharacters / characters.length < MIN_WORD_CHARACTER_SHARE
  );
}

/** The visible characters of a text (no white space). */
export function visibleLength(text: string): number {
  return text.replace(/\s+/g, '').length;
}

// ---------------------------------------------------------------------------------------------
// Rendering

/** The resolution pages are rendered at: what OCR engines are tuned for. */
export const OCR_DPI = 300;
/**
 * Most pixels of one rendered page: an A4 or F4 page at 300 dpi (8.7 and 9.9 million) fits; a page
 * the size of a wall (a PDF's MediaBox may say anything) is rendered at a lower resolution instead.
 * The canvas takes 4 bytes a pixel, the grey image 1.
 */
export const MAX_RENDER_PIXELS = 12_000_000;
/**
 * Largest image pdf.js decodes while rendering, in pixels (its `maxImageSize`): a 600 dpi A4 scan
 * (35 million) fits; a larger one, such as an image stream that inflates to gigabytes, is left out of
 * the page rather than decoded.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** A page whose rendering has fewer dark pixels than this share is blank: nothing to read. */
const MIN_INK_SHARE = 0.0005;
/** Grey levels below this count as ink. */
const INK_LEVEL = 160;

/** A rendered page as one byte of grey per pixel, rows top to bottom. */
export interface GreyImage {
  width: number;
  height: number;
  pixels: Uint8Array;
  /** Pixels per PDF point (1/72 inch). */
  scale: number;
}

/** The scale a page is rendered at: {@link OCR_DPI}, lowered to stay within {@link MAX_RENDER_PIXELS}. */
export function renderScale(width: number, height: number): number {
  const dpiScale = OCR_DPI / 72;
  const area = width * height;
  if (!(area > 0) || !Number.isFinite(area)) return dpiScale;
  return Math.min(dpiScale, Math.sqrt(MAX_RENDER_PIXELS / area));
}

/** Converts RGBA pixels to grey (ITU-R BT.601 weights). */
export function toGrey(rgba: Uint8ClampedArray | Uint8Array, width: number, height: number): Uint8Array {
  const grey = new Uint8Array(width * height);
  for (let pixel = 0, byte = 0; pixel < grey.length; pixel++, byte += 4) {
    grey[pixel] = ((rgba[byte]! * 77 + rgba[byte + 1]! * 150 + rgba[byte + 2]! * 29) >> 8) & 0xff;
  }
  return grey;
}

/** Whether a grey image has any ink to read (at least {@link MIN_INK_SHARE} dark pixels). */
export function hasInk(image: GreyImage): boolean {
  const needed = Math.max(1, Math.ceil(image.pixels.length * MIN_INK_SHARE));
  let dark = 0;
  for (const level of image.pixels) {
    if (level < INK_LEVEL && ++dark >= needed) return true;
  }
  return false;
}

/** A grey image as a binary PGM file (Netpbm P5), which tesseract's image reader takes as it is. */
export function toPgm(image: GreyImage): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${image.width} ${image.height}\n255\n`);
  const file = new Uint8Array(header.length + image.pixels.length);
  file.set(header);
  file.set(image.pixels, header.length);
  return file;
}

/** pdf.js operators that paint something; a page with none of them is blank. */
const PAINTING_OPERATORS = [
  'fill',
  'eoFill',
  'stroke',
  'fillStroke',
  'eoFillStroke',
  'closeStroke',
  'closeFillStroke',
  'closeEOFillStroke',
  'constructPath',
  'shadingFill',
  'showText',
  'showSpacedText',
  'nextLineShowText',
  'nextLineSetSpacingShowText',
  'paintFormXObjectBegin',
  'paintImageMaskXObject',
  'paintImageMaskXObjectGroup',
  'paintImageXObject',
  'paintInlineImageXObject',
  'paintInlineImageXObjectGroup',
  'paintImageXObjectRepeat',
  'paintImageMaskXObjectRepeat',
  'paintSolidColorImageMask',
] as const;
const IMAGE_OPERATORS = PAINTING_OPERATORS.filter(
  (name) => name.startsWith('paint') && name.includes('Image'),
);

/** What a page paints, from its operator list: anything at all, and images. */
export async function pagePaints(page: PDFPageProxy): Promise<{ anything: boolean; images: boolean }> {
  const list = await page.getOperatorList();
  const codes = new Set(list.fnArray);
  const ops = OPS as Record<string, number>;
  const has = (names: readonly string[]) =>
    names.some((name) => ops[name] !== undefined && codes.has(ops[name]!));
  return { anything: has(PAINTING_OPERATORS), images: has(IMAGE_OPERATORS) };
}

/**
 * Renders a page (white background) at {@link renderScale} and returns it grey, or undefined when
 * nothing on it is dark enough to read. Cancels the rendering when `signal` aborts.
 */
export async function renderPage(page: PDFPageProxy, signal: AbortSignal): Promise<GreyImage | undefined> {
  const unit = page.getViewport({ scale: 1 });
  const scale = renderScale(unit.width, unit.height);
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.ceil(viewport.width));
  const height = Math.max(1, Math.ceil(viewport.height));
  const canvas: Canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  const task = page.render({
    canvas: null,
    // pdf.js draws through the 2D context API, which @napi-rs/canvas implements.
    canvasContext: context as unknown as NonNullable<Parameters<PDFPageProxy['render']>[0]['canvasContext']>,
    viewport,
  });
  const cancel = () => task.cancel();
  signal.addEventListener('abort', cancel, { once: true });
  try {
    await task.promise;
  } finally {
    signal.removeEventListener('abort', cancel);
  }
  const pixels = toGrey(context.getImageData(0, 0, width, height).data, width, height);
  const image = { width, height, pixels, scale };
  return hasInk(image) ? image : undefined;
}

// ---------------------------------------------------------------------------------------------
// Recognition

/** A page's words, recognized: runs in the page's reading frame, and how sure tesseract was. */
export interface RecognizedPage {
  /** The words as runs in points, y (the baseline) growing up the page, as `pdf.ts` lays out. */
  runs: PositionedText[];
  /** Tesseract's confidence in the page's words, weighted by their length, 0–1. */
  confidence: number;
  /** Characters recognized. */
  characters: number;
}

/**
 * Pages whose words tesseract is less sure of than this (on average, by length) are pictures, not
 * text: a photograph reads as a scatter of short "words" at 0–40 % (the shared image-only samples
 * read at 21 % and below), a clean scan at 85–95 %.
 */
export const MIN_PAGE_CONFIDENCE = 0.5;
/**
 * Words tesseract is less sure of than this (0–100) are left out: the specks, rules and picture
 * edges it reads as "|", "—" or "[|" come at 0–25 %, printed words at 60 % and above.
 */
export const MIN_WORD_CONFIDENCE = 30;

interface TesseractBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface TesseractLine {
  words: { text: string; confidence: number; bbox: TesseractBox }[];
  bbox: TesseractBox;
  baseline: TesseractBox;
  rowAttributes?: { rowHeight?: number };
}

/**
 * The recognized lines as runs in points (y up), one per word, sized by the line's row height; words
 * below {@link MIN_WORD_CONFIDENCE} left out. The confidence is over the words kept.
 */
export function linesToRuns(lines: readonly TesseractLine[], image: Pick<GreyImage, 'height' | 'scale'>) {
  const runs: PositionedText[] = [];
  let weighted = 0;
  let characters = 0;
  for (const line of lines) {
    const height = line.rowAttributes?.rowHeight ?? line.bbox.y1 - line.bbox.y0;
    if (!(height > 0)) continue;
    const { x0, y0, x1, y1 } = line.baseline;
    // The baseline's height at a word's middle (a line may be slightly skewed on a scan).
    const baselineAt = (x: number) => (x1 === x0 ? y0 : y0 + ((y1 - y0) * (x - x0)) / (x1 - x0));
    for (const word of line.words) {
      const text = word.text.trim();
      if (text === '' || word.confidence < MIN_WORD_CONFIDENCE) continue;
      const middle = (word.bbox.x0 + word.bbox.x1) / 2;
      runs.push({
        text,
        x: word.bbox.x0 / image.scale,
        y: (image.height - baselineAt(middle)) / image.scale,
        width: Math.max(1, word.bbox.x1 - word.bbox.x0) / image.scale,
        size: height / image.scale,
      });
      const length = [...text].length;
      weighted += Math.max(0, Math.min(100, word.confidence)) * length;
      characters += length;
    }
  }
  return { runs, confidence: characters > 0 ? weighted / characters / 100 : 0, characters };
}

/**
 * One tesseract.js worker (a worker thread running tesseract's WebAssembly) for one document's pages.
 * Start it with {@link PageReader.start}; always {@link PageReader.terminate} it.
 */
export class PageReader {
  #worker: Worker | undefined;
  readonly language: OcrLanguage;

  private constructor(worker: Worker, language: OcrLanguage) {
    this.#worker = worker;
    this.language = language;
  }

  /** Starts a worker for `language`, its data read from node_modules (see the module comment). */
  static async start(language: OcrLanguage): Promise<PageReader> {
    const worker = await createWorker(language, OEM.LSTM_ONLY, {
      langPath: traineddataFolder(language),
      gzip: true,
      cacheMethod: 'none',
      logger: () => undefined,
      errorHandler: () => undefined,
    });
    const reader = new PageReader(worker, language);
    try {
      await worker.setParameters({
        tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
        user_defined_dpi: String(OCR_DPI),
      });
    } catch (error) {
      await reader.terminate();
      throw error;
    }
    return reader;
  }

  /** Whether the worker is still running (a page past its deadline terminates it). */
  get running(): boolean {
    return this.#worker !== undefined;
  }

  /**
   * Reads a grey page image. Rejects with `signal`'s reason when it aborts first, and then terminates
   * the worker (tesseract cannot stop a recognition half way).
   */
  async read(image: GreyImage, signal: AbortSignal): Promise<RecognizedPage> {
    const worker = this.#worker;
    if (worker === undefined) throw new Error('The OCR worker was terminated.');
    signal.throwIfAborted();
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const result = await Promise.race([
        worker.recognize(Buffer.from(toPgm(image).buffer), {}, { text: false, blocks: true }),
        aborted,
      ]);
      const lines = (result.data.blocks ?? []).flatMap((block) =>
        block.paragraphs.flatMap((paragraph) => paragraph.lines),
      ) as TesseractLine[];
      return linesToRuns(lines, image);
    } catch (error) {
      if (signal.aborted) await this.terminate();
      throw error;
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  /** Ends the worker thread; safe to call more than once. */
  async terminate(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) await worker.terminate().catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------
// One page, within its deadline

/** Why a page's deadline passed: `QUOTA_EXCEEDED` naming `SAKSI_OCR_PAGE_SECONDS`. */
export function pageTimeout(pageSeconds: number, name: string, pageNumber: number): IngestError {
  return quotaExceeded(
    'ocrPageSeconds',
    pageSeconds,
    `OCR of page ${pageNumber} of ${name} took longer than ${pageSeconds} s`,
  );
}

/**
 * Renders and reads one page within `pageSeconds`; undefined for a blank page. Past the deadline
 * the rendering is cancelled or the worker terminated, and `QUOTA_EXCEEDED` is thrown; when `signal`
 * aborts, its reason is.
 */
export async function recognizePage(
  page: PDFPageProxy,
  reader: PageReader,
  options: { pageSeconds: number; name: string; pageNumber: number; signal?: AbortSignal | undefined },
): Promise<RecognizedPage | undefined> {
  const timeout = pageTimeout(options.pageSeconds, options.name, options.pageNumber);
  const deadline = AbortSignal.timeout(options.pageSeconds * 1000);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const reason = () => (options.signal?.aborted ? options.signal.reason : timeout);
  try {
    const image = await renderPage(page, signal);
    if (signal.aborted) throw reason();
    if (image === undefined) return undefined;
    return await reader.read(image, signal);
  } catch (error) {
    if (signal.aborted) {
      await reader.terminate();
      throw reason();
    }
    throw error;
  }
}
