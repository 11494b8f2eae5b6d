/**
 * One entry point for every supported upload: size limit → type detection → the parser for that
 * type → final clean-up (NFC, LF, trimmed, no empty blocks). Every failure is an
 * {@link IngestError}; a parser's unexpected exception becomes `MALFORMED_FILE` with its cause kept.
 */
import { plainLabel } from '@saksi/proof';
import type { ParsedDocument } from '../types.js';
import { baseName, decodeText, detectType, MIME_TYPES } from './detect.js';
import { IngestError } from './errors.js';
import { parseHtml } from './html.js';
import { quotaExceeded } from './limits.js';
import { parseMarkdown } from './markdown.js';
import type { OcrOptions } from './ocr-options.js';
import { normalizeBlocks, parseText } from './text.js';

/** Default upload limit: 50 MB. */
export const DEFAULT_MAX_BYTES = 50 * 1024 * 1024;

export interface ParseOptions {
  /** The original file name (its extension helps detection; its stem is the fallback title). */
  filename: string;
  /** The media type the uploader declared, if any. Magic bytes and the extension win over it. */
  mime?: string | undefined;
  /** Largest accepted input in bytes (default {@link DEFAULT_MAX_BYTES}). */
  maxBytes?: number | undefined;
  /** Most pages a PDF may have (checked before any page is read); unbounded when absent. */
  maxPages?: number | undefined;
  /** Most characters of extracted text; unbounded when absent. */
  maxTextChars?: number | undefined;
  /** OCR of PDF pages without a usable text layer (`ocr.ts`); none when absent. */
  ocr?: OcrOptions | undefined;
  /** Hears OCR's progress through a PDF's pages. */
  onOcrPage?: ((done: number, total: number) => void) | undefined;
  /** Stops reading a PDF between pages when it aborts. */
  signal?: AbortSignal | undefined;
}

/**
 * Parses an uploaded document into blocks. Throws {@link IngestError}: `FILE_TOO_LARGE`,
 * `EMPTY_FILE`, `UNSUPPORTED_TYPE`, `MALFORMED_FILE`, `ENCRYPTED_FILE`, `NO_TEXT`, and
 * `QUOTA_EXCEEDED` past `maxPages` or `maxTextChars` (as early as the format allows: before parsing
 * Markdown or plain text, page by page in a PDF, after parsing HTML and Word).
 */
export async function parseDocument(bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument> {
  const { filename } = options;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (bytes.length > maxBytes) {
    throw new IngestError(
      'FILE_TOO_LARGE',
      `${baseName(filename)} is ${formatBytes(bytes.length)}, more than the ${formatBytes(maxBytes)} allowed; split it or raise the limit.`,
    );
  }
  const type = detectType(bytes, filename, options.mime);
  const { maxTextChars } = options;
  const decode = (): string => {
    const text = decodeText(bytes, filename);
    if (maxTextChars !== undefined) checkTextSize(text.length, maxTextChars, filename);
    return text;
  };
  // The PDF (pdf.js, OCR) and Word (mammoth) parsers are loaded at first use, so reading Markdown,
  // HTML or text never loads them; outside the try below, so a broken install is no malformed file.
  const pdf = type === 'pdf' ? await import('./pdf.js') : undefined;
  const docx = type === 'docx' ? await import('./docx.js') : undefined;
  let document: ParsedDocument;
  try {
    switch (type) {
      case 'pdf':
        document = await pdf!.parsePdf(bytes, filename, {
          ...(options.maxPages !== undefined ? { maxPages: options.maxPages } : {}),
          ...(maxTextChars !== undefined ? { maxTextChars } : {}),
          ocr: options.ocr,
          onOcrPage: options.onOcrPage,
          signal: options.signal,
        });
        break;
      case 'docx':
        document = await docx!.parseDocx(bytes, filename);
        break;
      case 'markdown':
        document = parseMarkdown(decode(), filename);
        break;
      case 'html':
        // Markup can outweigh the text many times over: only the extracted text is checked.
        document = parseHtml(decodeText(bytes, filename), filename);
        break;
      case 'text':
        document = parseText(decode(), filename);
        break;
    }
  } catch (cause) {
    if (cause instanceof IngestError || options.signal?.aborted) throw cause;
    throw new IngestError(
      'MALFORMED_FILE',
      `${baseName(filename)} could not be parsed as ${type}: ${cause instanceof Error ? cause.message : 'unknown error'}.`,
      { cause },
    );
  }

  const blocks = normalizeBlocks(document.blocks);
  if (maxTextChars !== undefined) {
    checkTextSize(
      blocks.reduce((total, block) => total + block.text.length, 0),
      maxTextChars,
      filename,
    );
  }
  if (blocks.length === 0) {
    throw new IngestError(
      'NO_TEXT',
      `${baseName(filename)} contains no text to index (after removing markup, navigation and scripts).`,
    );
  }
  const result: ParsedDocument = {
    title: plainLabel(document.title.replace(/\s+/g, ' ')) || plainLabel(baseName(filename)),
    mime: document.mime || MIME_TYPES[type],
    metadata: document.metadata,
    blocks,
  };
  if (document.pages !== undefined) result.pages = document.pages;
  return result;
}

function checkTextSize(characters: number, maxTextChars: number, filename: string): void {
  if (characters > maxTextChars) {
    throw quotaExceeded(
      'maxTextChars',
      maxTextChars,
      `${baseName(filename)} holds ${characters.toLocaleString('en')} characters of text`,
    );
  }
}

function formatBytes(size: number): string {
  if (size >= 1024 * 1024) return `${(size / (1024 * 1024)).toFixed(1)} MB`;
  if (size >= 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${size} bytes`;
}
