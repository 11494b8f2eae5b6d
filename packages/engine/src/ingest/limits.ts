/**
 * Bounds on one document's ingestion (docs/configuration.md, "Ingestion limits"): how many chunks it
 * may make, how much text may be extracted from it and how much memory the process that reads it may
 * use. Passing one is an {@link IngestError} `QUOTA_EXCEEDED` naming the setting and its value; the
 * document then fails whole, with nothing of it stored.
 */
import { IngestError } from './errors.js';

export interface IngestLimits {
  /** Most chunks one document may make (`SAKSI_MAX_CHUNKS`). */
  maxChunks: number;
  /** Most characters of text extracted from one document (`SAKSI_MAX_TEXT_CHARS`). */
  maxTextChars: number;
  /** Heap, in MB, of the process that parses and chunks documents (`SAKSI_INGEST_MEMORY_MB`). */
  memoryMb: number;
  /** OCR of PDF pages without a usable text layer (default {@link DEFAULT_OCR_SETTINGS}). */
  ocr?: OcrSettings;
}

/**
 * OCR of scanned PDF pages (docs/engine.md, "OCR of scanned pages"): whether it runs, and its bounds.
 * Passing a bound is `QUOTA_EXCEEDED` naming the setting, and the document fails whole.
 */
export interface OcrSettings {
  /** `auto`: pages without a usable text layer are recognized; `off`: they are not (`SAKSI_OCR`). */
  mode: 'auto' | 'off';
  /** Most pages of one document that OCR may read (`SAKSI_OCR_MAX_PAGES`), counted before the first. */
  maxPages: number;
  /** Longest time, in seconds, OCR may take on one page, rendering included (`SAKSI_OCR_PAGE_SECONDS`). */
  pageSeconds: number;
}

/**
 * The OCR defaults. A page took about 10 s on the 2-core VM under load (bench/README.md, "OCR
 * benchmark"), so 300 pages, more than a long statute with its elucidation, take about an hour; a page
 * that takes 60 s is not a page of text at any sane resolution.
 */
export const DEFAULT_OCR_SETTINGS: OcrSettings = {
  mode: 'auto',
  maxPages: 300,
  pageSeconds: 60,
};

/**
 * The defaults. The largest demo document (UU 22/2009: 1,239 chunks, 255,000 characters) fits eight
 * times over in chunks and twenty times in text. Parsing and chunking take about 40 bytes of heap per
 * character of Markdown (measured: 8 million characters fit in 384 MB, not in 256 MB), so 6 million
 * characters stay well inside the 384 MB the extraction process gets.
 */
export const DEFAULT_INGEST_LIMITS: IngestLimits = {
  maxChunks: 10_000,
  maxTextChars: 6_000_000,
  memoryMb: 384,
};

/** The setting that bounds each limit, as the error names it. */
export const LIMIT_SETTINGS = {
  maxChunks: 'SAKSI_MAX_CHUNKS',
  maxTextChars: 'SAKSI_MAX_TEXT_CHARS',
  memoryMb: 'SAKSI_INGEST_MEMORY_MB',
  maxPages: 'max_pages',
  ocrMaxPages: 'SAKSI_OCR_MAX_PAGES',
  ocrPageSeconds: 'SAKSI_OCR_PAGE_SECONDS',
} as const;

export type LimitName = keyof typeof LIMIT_SETTINGS;

/** `QUOTA_EXCEEDED` for `limit`: the message names the setting and its value, then what to do. */
export function quotaExceeded(limit: LimitName, value: number, what: string): IngestError {
  const setting = LIMIT_SETTINGS[limit];
  return new IngestError(
    'QUOTA_EXCEEDED',
    `${what}; the limit ${setting} is ${value.toLocaleString('en')}. Split the document or ask an operator to raise ${setting}.`,
    { limit: { name: setting, value } },
  );
}
