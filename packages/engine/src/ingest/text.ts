/**
 * Plain text documents, and the small helpers every parser shares: text cleaning (NFC, LF, no
 * control characters, trimmed) and a {@link BlockBuilder} that keeps section paths by heading level.
 */
import { plainLabel } from '@saksi/proof';
import type { Block, BlockKind, ParsedDocument } from '../types.js';
import { MIME_TYPES, titleFromFilename } from './detect.js';
import type { HeadingSlugger } from './heading-anchors.js';

/** Optional fields a parser may attach to a block. */
export interface BlockExtras {
  html?: string;
  language?: string;
  page?: number;
  /** A heading's explicit anchor (`{#custom-id}`), used instead of its slug. */
  id?: string;
  /** The block was read by OCR with this confidence (0–1). */
  ocrConfidence?: number;
}

/**
 * Cleans block text: CRLF/CR → LF, Unicode NFC, control characters removed (tabs kept in code,
 * turned into spaces elsewhere), trailing spaces on each line removed, at most one blank line in a
 * row, and the whole trimmed.
 */
export function cleanText(text: string, kind: BlockKind = 'paragraph'): string {
  let result = text.replace(/\r\n?/g, '\n').normalize('NFC');
  result = result.replace(/[\u0000-\u0008\u000b-\u001f\u007f\ufeff]/g, (character) =>
    character === '\u000b' || character === '\u000c' ? '\n' : '',
  );
  if (kind !== 'code') result = result.replace(/\t/g, ' ');
  // Line by line (a regex anchored only at the end would be quadratic on long runs of spaces).
  result = result
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
  return result.trim();
}

/**
 * Collects blocks in document order and gives each one the titles of its enclosing headings.
 * A heading's own block carries the path of its parents. With a slugger (Markdown), every heading
 * gets its page anchor and every other block the anchor of the heading it sits under.
 */
export class BlockBuilder {
  readonly blocks: Block[] = [];
  readonly #stack: { level: number; title: string; anchor: string | undefined }[] = [];
  readonly #slugger: HeadingSlugger | undefined;

  constructor(options: { slugger?: HeadingSlugger } = {}) {
    this.#slugger = options.slugger;
  }

  /** Adds a heading of `level` (clamped to 1–6); empty headings are ignored. */
  heading(level: number, text: string, extras: BlockExtras = {}): void {
    // A heading is a name too: it becomes the section path citations show.
    const title = plainLabel(
      cleanText(text, 'heading')
        .split('\n')
        .map((part) => part.trim())
        .filter((part) => part !== '')
        .join(' '),
    );
    if (title === '') return;
    const clamped = Math.min(6, Math.max(1, Math.round(level)));
    while (this.#stack.length > 0 && (this.#stack[this.#stack.length - 1]?.level ?? 0) >= clamped) {
      this.#stack.pop();
    }
    const anchor = extras.id ?? this.#slugger?.slug(title);
    const block: Block = { kind: 'heading', text: title, level: clamped, section_path: this.path() };
    if (anchor !== undefined && anchor !== '') block.anchor = anchor;
    this.blocks.push(withExtras(block, extras));
    this.#stack.push({ level: clamped, title, anchor: block.anchor });
  }

  /** Adds a non-heading block under the current headings; blocks with no text are dropped. */
  add(kind: Exclude<BlockKind, 'heading'>, text: string, extras: BlockExtras = {}): void {
    const cleaned = cleanText(text, kind);
    if (cleaned === '') return;
    const block: Block = { kind, text: cleaned, section_path: this.path() };
    const anchor = this.#stack[this.#stack.length - 1]?.anchor;
    if (anchor !== undefined) block.anchor = anchor;
    this.blocks.push(withExtras(block, extras));
  }

  /** The text of the first heading of `level`, if any. */
  firstHeading(level = 1): string | undefined {
    return this.blocks.find((block) => block.kind === 'heading' && block.level === level)?.text;
  }

  /** Titles of the open headings, outermost first. */
  path(): string[] {
    return this.#stack.map((entry) => entry.title);
  }
}

function withExtras(block: Block, extras: BlockExtras): Block {
  if (extras.html !== undefined) block.html = extras.html;
  if (extras.language !== undefined && extras.language !== '') block.language = extras.language;
  if (extras.page !== undefined) block.page = extras.page;
  if (extras.ocrConfidence !== undefined) block.ocr_confidence = extras.ocrConfidence;
  return block;
}

/** A character that shows: neither white space nor an invisible format character (category Cf). */
const VISIBLE = /[^\s\p{Cf}]/u;

/**
 * Re-cleans every block of a parsed document (NFC, LF, trimmed) and drops blocks with nothing
 * visible left, so whatever a parser produced, the stored text follows the hashing rules
 * (docs/certificate.md).
 */
export function normalizeBlocks(blocks: readonly Block[]): Block[] {
  const result: Block[] = [];
  for (const block of blocks) {
    const text = cleanText(block.text, block.kind);
    // Nothing visible: only spaces and format characters (zero-width, joiners, tags).
    if (!VISIBLE.test(text)) continue;
    const copy: Block = { ...block, text, section_path: block.section_path.map((title) => cleanText(title)) };
    if (copy.html !== undefined) copy.html = copy.html.normalize('NFC');
    result.push(copy);
  }
  return result;
}

/** Parses plain text: paragraphs are separated by blank lines; line breaks inside are kept. */
export function parseText(text: string, filename: string): ParsedDocument {
  const builder = new BlockBuilder();
  const normalized = text
    .replace(/^\ufeff/, '')
    .replace(/\r\n?/g, '\n')
    .normalize('NFC');
  for (const paragraph of normalized.split(/\n[ \t\u00a0]*\n/)) builder.add('paragraph', paragraph);
  return { title: titleFromFilename(filename), mime: MIME_TYPES.text, metadata: {}, blocks: builder.blocks };
}
