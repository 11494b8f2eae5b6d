/**
 * Extraction: the CPU-bound part of ingestion, from bytes to hashed chunks — parse (with the
 * structure a document pack reads, such as a regulation's), chunk, normalize (NFC, LF), hash every chunk and build the
 * document's Merkle tree with each chunk's inclusion proof (docs/engine.md, "Ingestion"). It touches
 * neither the database nor the embedding model, so it can run in a process of its own
 * (`extract-process.ts`) and keep the event loop free while a large document is read.
 *
 * Limits (`limits.ts`) are checked as early as each format allows; passing one throws
 * `QUOTA_EXCEEDED`, so nothing beyond the limit is built.
 */
import { hashLeaf, normalizeText, sha256, toHex, utf8Encode } from '@saksi/proof';
import { EngineError } from '../errors.js';
import { type PackId, structureDocument } from '../packs/registry.js';
import type { ChunkDraft, ParsedDocument } from '../types.js';
import { chunkDocument } from './chunk.js';
import { baseName } from './detect.js';
import { buildDocumentTree } from './document-tree.js';
import { quotaExceeded } from './limits.js';
import type { OcrOptions } from './ocr-options.js';
import { parseDocument } from './parse.js';
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
  /** The document packs that may structure the document (the collection's override); every pack when absent. */
  packs?: PackId[];
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
  // The document packs (packs/registry.ts): a regulation, found by its content whatever its format,
  // is read in its BAB / Bagian / Pasal / ayat / Penjelasan structure and named by its identity
  // (docs/engine.md, "Regulations"); a budget annex records the fiscal year its heading names.
  // The file's own name, not its folders: a regulation without a title line is named after it.
  parsed = structureDocument(
    { parsed, bytes: input.bytes, filename: baseName(input.filename) },
    options.packs,
  );
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
