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
}

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
