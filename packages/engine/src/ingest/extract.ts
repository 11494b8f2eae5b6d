/**
 * Extraction: the CPU-bound part of ingestion, from bytes to hashed chunks — parse (with the
 * regulation structure of legal texts), chunk, normalize (NFC, LF), hash every chunk and build the
 * document's Merkle tree with each chunk's inclusion proof (docs/engine.md, "Ingestion"). It touches
 * neither the database nor the embedding model, so it can run in a process of its own
 * (`extract-process.ts`) and keep the event loop free while a large document is read.
 *
 * Limits (`limits.ts`) are checked as early as each format allows; passing one throws
 * `QUOTA_EXCEEDED`, so nothing beyond the limit is built.
 */
import { hashLeaf, normalizeText, plainLabel, sha256, toHex, utf8Encode } from '@saksi/proof';
import { EngineError } from '../errors.js';
import type { ChunkDraft, ParsedDocument } from '../types.js';
import { chunkDocument } from './chunk.js';
import { baseName } from './detect.js';
import { buildDocumentTree } from './document-tree.js';
import { parseRegulation, parseRegulationBlocks } from './legal-structure.js';
import { quotaExceeded } from './limits.js';
import type { OcrOptions } from './ocr-options.js';
import { parseDocument } from './parse.js';
import { leadingFiscalYear } from './regulation-identity.js';
import { storableDocument } from './storable.js';

export interface ExtractInput {
  bytes: Uint8Array;
  filename: string;
  mime?: string;
}

export interface ExtractOptions {
  maxBytes: number;
  maxPages?: number;
  maxChunks: number;
  maxTextChars: number;
  /** OCR of PDF pages without a usable text layer; none when absent. */
  ocr?: OcrOptions;
}

/** What the document says about itself: everything parsed but its blocks. */
export type DocumentSummary = Omit<ParsedDocument, 'blocks'>;

/** A chunk with its SHA-256 (hex, of the UTF-8 text) and its inclusion proof in the document tree. */
export interface ExtractedChunk extends ChunkDraft {
  sha256: string;
  proof: string[];
}

export interface ExtractedDocument {
  summary: DocumentSummary;
  chunks: ExtractedChunk[];
  /** The document's Merkle root over its chunk hashes. */
  root: Uint8Array;
}

/** Hears when extraction moves from parsing to chunking. */
export type ExtractStageListener = (stage: 'chunking') => void;

/** What else a caller may follow or stop: OCR's progress through the pages, and cancellation. */
export interface ExtractControl {
  /** Hears each page OCR is about to read (`done` of `total` read so far). */
  onOcrPage?: (done: number, total: number) => void;
  /** Stops extraction between pages (and between stages) with its reason. */
  signal?: AbortSignal;
}

/**
 * Parses, chunks and hashes one file. Throws `IngestError` (every parser failure, and
 * `QUOTA_EXCEEDED` past a limit) or `EngineError` `INGEST_FAILED` when no chunk is left to index.
 */
export async function extractDocument(
  input: ExtractInput,
  options: ExtractOptions,
  onStage: ExtractStageListener = () => undefined,
  control: ExtractControl = {},
): Promise<ExtractedDocument> {
  let parsed = await parseDocument(input.bytes, {
    filename: input.filename,
    ...(input.mime ? { mime: input.mime } : {}),
    maxBytes: options.maxBytes,
    ...(options.maxPages !== undefined ? { maxPages: options.maxPages } : {}),
    maxTextChars: options.maxTextChars,
    ocr: options.ocr,
    onOcrPage: control.onOcrPage,
    signal: control.signal,
  });
  control.signal?.throwIfAborted();
  if (options.maxPages !== undefined && parsed.pages !== undefined && parsed.pages > options.maxPages) {
    throw quotaExceeded(
      'maxPages',
      options.maxPages,
      `${baseName(input.filename)} has ${parsed.pages} pages`,
    );
  }
  // Regulations, found by their content whatever their format: BAB / Bagian / Pasal / ayat /
  // Penjelasan structure, and the regulation's identity as title and metadata (docs/engine.md,
  // "Regulations"). Text and Markdown are read from their bytes; a PDF or Word document from its
  // blocks, which keep their pages and tables.
  // The file's own name, not its folders: a regulation without a title line is named after it.
  const regulation =
    parsed.mime === 'text/markdown' || parsed.mime === 'text/plain'
      ? parseRegulation(new TextDecoder().decode(input.bytes), baseName(input.filename))
      : parsed.mime !== 'text/html'
        ? parseRegulationBlocks(parsed.blocks, baseName(input.filename))
        : null;
  if (regulation)
    parsed = {
      ...regulation,
      // A PDF or Word regulation without a title block keeps the title its parser found.
      title:
        regulation.title === baseName(input.filename) &&
        parsed.mime !== 'text/markdown' &&
        parsed.mime !== 'text/plain'
          ? parsed.title
          : plainLabel(regulation.title) || parsed.title,
      mime: parsed.mime,
      metadata: { ...parsed.metadata, ...regulation.metadata },
      ...(parsed.pages !== undefined ? { pages: parsed.pages } : {}),
    };
  // A budget document that is no regulation (an annex, an allocation table) records the fiscal year
  // its heading names, so retrieval keeps documents of different years apart.
  if (!regulation && parsed.metadata['fiscal_year'] === undefined && parsed.mime !== 'text/html') {
    const leading = parsed.blocks
      .slice(0, 8)
      .map((block) => block.text)
      .join('\n');
    const fiscalYear = leadingFiscalYear(parsed.title, leading);
    if (fiscalYear !== undefined)
      parsed = { ...parsed, metadata: { ...parsed.metadata, fiscal_year: fiscalYear } };
  }
  // The one boundary for parsed text: no NUL (or other C0 control) reaches the database.
  parsed = storableDocument(parsed);
  onStage('chunking');
  const drafts = chunkDocument(parsed);
  if (drafts.length > options.maxChunks) {
    throw quotaExceeded(
      'maxChunks',
      options.maxChunks,
      `${baseName(input.filename)} makes ${drafts.length.toLocaleString('en')} chunks`,
    );
  }
  for (const draft of drafts) draft.text = normalizeText(draft.text);
  if (drafts.length === 0) throw new EngineError('INGEST_FAILED', 'The document has no text to index.');
  const digests = drafts.map((draft) => sha256(utf8Encode(draft.text)));
  const tree = buildDocumentTree(digests.map((digest) => hashLeaf(digest)));
  const chunks = drafts.map(
    (draft, index): ExtractedChunk => ({
      ...draft,
      sha256: toHex(digests[index]!),
      proof: tree.proof(index).map(toHex),
    }),
  );
  const { blocks: _blocks, ...summary } = parsed;
  return { summary, chunks, root: tree.root };
}
