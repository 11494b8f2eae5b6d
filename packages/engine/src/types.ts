/**
 * Shared engine types: what parsers produce, what the chunker produces, what retrieval returns.
 * One concept per file elsewhere; these are the nouns the files pass between each other.
 */

/** Legal structure of Indonesian regulations (UU, PP, Perpres, Permen, PMK): where a block sits. */
export interface LegalRef {
  bab?: string;
  bagian?: string;
  paragraf?: string;
  pasal?: string;
  ayat?: string;
  /** True for text from the Penjelasan (elucidation) rather than the body. */
  penjelasan?: boolean;
}

export type BlockKind = 'heading' | 'paragraph' | 'list' | 'table' | 'code';

/** One structural unit of a parsed document. `text` is plain text (NFC, LF). */
export interface Block {
  kind: BlockKind;
  text: string;
  /** Heading level 1–6 (headings only). */
  level?: number;
  /** Table as sanitized HTML (`<table><tr><th|td>…`), tables only; `text` holds a plain rendering. */
  html?: string;
  /** Code language (code blocks only). */
  language?: string;
  /** 1-based page number (PDF). */
  page?: number;
  /** Titles of the enclosing headings, outermost first. */
  section_path: string[];
  /** The page anchor of this heading, or of the heading this block sits under (Markdown). */
  anchor?: string;
  legal?: LegalRef;
  /** Read by OCR from a scanned page (PDF), with tesseract's confidence in its words, 0–1. */
  ocr_confidence?: number;
}

/** A parsed document, before chunking. */
export interface ParsedDocument {
  /** From frontmatter `title`, the first H1, PDF/DOCX metadata, `<title>`, or the file name. */
  title: string;
  /** The detected media type, e.g. `application/pdf`, `text/markdown`. */
  mime: string;
  /** Frontmatter or document properties (string/number/boolean values only). */
  metadata: Record<string, string | number | boolean>;
  blocks: Block[];
  /** Number of pages (PDF). */
  pages?: number;
}

export type ChunkKind = 'text' | 'table' | 'code';

/** A chunk as the chunker makes it; the ingest pipeline adds ids, hashes, proofs and vectors. */
export interface ChunkDraft {
  /** 0-based position in the document. */
  position: number;
  /** The chunk text exactly as stored and hashed (NFC, LF). */
  text: string;
  kind: ChunkKind;
  page?: number;
  section_path: string[];
  /** The page anchor of the innermost heading the chunk's text belongs to (Markdown). */
  anchor?: string;
  table_html?: string;
  legal?: LegalRef;
  /** Parent context: text just before and after this chunk (not hashed, not part of the chunk). */
  context_before: string;
  context_after: string;
  token_count: number;
  /**
   * Some of the chunk's text was read by OCR: the lowest confidence (0–1) of the OCR blocks it holds.
   * Absent for text from a text layer or a text format.
   */
  ocr_confidence?: number;
}
