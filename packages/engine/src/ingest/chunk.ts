/**
 * Structure-aware chunking (docs/engine.md, "Ingestion"): parsed blocks in, chunk drafts out.
 *
 * - A table is one chunk (kind `table`): `text` is the block's plain rendering, `table_html` its
 *   HTML. Only a table over four times the budget is split, between its rows, each piece opening with
 *   the table's header row (and its separator row) and keeping no HTML: a 10,000-row table is many
 *   chunks a passage can be quoted from, not one 400 kB chunk whose index entry alone holds the
 *   event loop for a third of a second on PGlite.
 * - A code block is one chunk (kind `code`); only a block over four times the budget is split, by
 *   lines.
 * - Legal text (blocks with `legal.pasal`): one Pasal/ayat per chunk. Consecutive blocks with the same
 *   key (Pasal + ayat + Penjelasan) are grouped; blocks with different keys never share a chunk, and a
 *   heading of one Pasal is never prepended to another Pasal's text. A legal unit over the budget is
 *   split between lines (its points), never inside a line unless that line alone is too long.
 * - Other prose: consecutive blocks of one section (same `section_path`, no heading in between) are
 *   packed up to the token budget. A heading is prepended to the content that follows it.
 * - Empty sections merge forward: a heading followed by another heading (a section with no text of its
 *   own) waits with it for the next text, so "## A" "## B" "text" is one chunk "A / B / text" that
 *   keeps the path and anchor of B, the heading whose section has the text. Headings right before a
 *   table or code block, and a tiny section there (at most {@link TINY_SECTION_TOKENS} tokens, such as
 *   "Example" or "Run it:"), open that block's chunk. Headings are a chunk of their own only at the end
 *   of the document, or when the waiting headings alone fill the token budget (a document of 20,000
 *   empty headings makes chunks of packed headings, not 20,000 chunks). Such a chunk takes the path and
 *   anchor of its first heading, or of the innermost heading when they nest (a parent and its first
 *   child). Legal text never merges: a legal heading (a BAB or Pasal) is not carried into another
 *   unit, nor into a table, so a legal document keeps one chunk per Pasal/ayat.
 * - A single block over the budget is split with {@link splitByTokens}; only the pieces of that block
 *   overlap, never neighbouring blocks.
 *
 * Chunk text is Unicode NFC with LF line ends, trimmed and never empty: exactly what is stored and
 * hashed (docs/certificate.md). Blocks in one chunk are separated by a blank line. Deterministic.
 */

import { normalizeText } from '@saksi/proof';
import type { Block, ChunkDraft, ChunkKind, LegalRef, ParsedDocument } from '../types.js';
import { countTokens, splitByTokens } from './tokens.js';

/** Options of {@link chunkDocument}. */
export interface ChunkOptions {
  /** Token budget per prose chunk (see `countTokens`). Default 350. */
  maxTokens?: number;
  /** Tokens shared by consecutive pieces of one over-long block. Default 40. */
  overlapTokens?: number;
  /** Characters of neighbouring chunk text kept as parent context on each side. Default 300. */
  contextChars?: number;
}

export const DEFAULT_MAX_TOKENS = 350;
export const DEFAULT_OVERLAP_TOKENS = 40;
export const DEFAULT_CONTEXT_CHARS = 300;
/** A section of at most this many tokens right before a table or code block joins that block's chunk. */
const TINY_SECTION_TOKENS = 24;
/** A code block is split (by lines) only when longer than this many budgets. */
const CODE_SPLIT_FACTOR = 4;
const BLOCK_SEPARATOR = '\n\n';

/** A chunk before positions and parent context are assigned. */
interface Piece {
  text: string;
  kind: ChunkKind;
  page: number | undefined;
  section_path: string[];
  /** The anchor of the innermost heading the piece's text belongs to. */
  anchor: string | undefined;
  table_html: string | undefined;
  legal: LegalRef | undefined;
  /** The lowest OCR confidence of the blocks in the piece; undefined when none was read by OCR. */
  ocr: number | undefined;
}

/** A prose block with any pending headings already prepended to its text. */
interface ProseUnit {
  text: string;
  tokens: number;
  /** The content block (for page, section path and legal reference). */
  block: Block;
  /** Page of the first block in the unit (a prepended heading's page when it has one). */
  page: number | undefined;
  /** The lowest OCR confidence of the unit's blocks (prepended headings included). */
  ocr: number | undefined;
}

/**
 * Splits a parsed document into chunk drafts (see the module comment for the rules).
 *
 * @example
 * const chunks = chunkDocument(parsed, { maxTokens: 350, overlapTokens: 40 });
 * chunks[0].position // 0
 * @throws RangeError when an option is not a valid integer (`maxTokens` ≥ 1, others ≥ 0)
 */
export function chunkDocument(document: ParsedDocument, options: ChunkOptions = {}): ChunkDraft[] {
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const overlapTokens = options.overlapTokens ?? DEFAULT_OVERLAP_TOKENS;
  const contextChars = options.contextChars ?? DEFAULT_CONTEXT_CHARS;
  if (!Number.isSafeInteger(maxTokens) || maxTokens < 1) {
    throw new RangeError(`maxTokens must be a positive integer, got ${maxTokens}`);
  }
  if (!Number.isSafeInteger(overlapTokens) || overlapTokens < 0) {
    throw new RangeError(`overlapTokens must be a non-negative integer, got ${overlapTokens}`);
  }
  if (!Number.isSafeInteger(contextChars) || contextChars < 0) {
    throw new RangeError(`contextChars must be a non-negative integer, got ${contextChars}`);
  }

  const pieces: Piece[] = [];
  const emit = (piece: Piece): void => {
    const text = piece.text.trim();
    if (text.length > 0) pieces.push({ ...piece, text });
  };

  // Prose packing state: the current group key and the units waiting to be packed.
  let groupKey: string | undefined;
  let group: ProseUnit[] = [];
  // Headings not yet attached to content, outermost first, and their tokens.
  let pendingHeadings: Block[] = [];
  let pendingTokens = 0;

  const flushGroup = (): void => {
    if (group.length > 0) packProse(group, maxTokens, overlapTokens, emit);
    group = [];
    groupKey = undefined;
  };
  const flushHeadings = (): void => {
    const owner = headingRunOwner(pendingHeadings);
    if (owner !== undefined) {
      emit({
        text: pendingHeadings.map((heading) => heading.text).join(BLOCK_SEPARATOR),
        kind: 'text',
        page: firstPage(pendingHeadings),
        section_path: [...owner.section_path],
        anchor: owner.anchor,
        table_html: undefined,
        legal: copyLegal(owner.legal),
        ocr: lowestOcr(pendingHeadings),
      });
    }
    pendingHeadings = [];
    pendingTokens = 0;
  };

  // What waits before a table or code block and joins it rather than becoming a chunk of its own: its
  // headings, or the whole of a tiny section (a lead-in such as "Example:"). Never legal text.
  const takeLead = (block: Block): { text: string; ocr: number | undefined } => {
    const parts: string[] = [];
    const read: (number | undefined)[] = [];
    const tokens = group.reduce((total, unit) => total + unit.tokens, 0);
    const legal = block.legal !== undefined;
    if (
      !legal &&
      group.length > 0 &&
      tokens <= TINY_SECTION_TOKENS &&
      group.every((unit) => !unit.block.legal)
    ) {
      parts.push(...group.map((unit) => unit.text));
      read.push(...group.map((unit) => unit.ocr));
      group = [];
      groupKey = undefined;
    }
    flushGroup();
    if (!legal && pendingHeadings.length > 0 && pendingHeadings.every((heading) => !heading.legal)) {
      parts.push(...pendingHeadings.map((heading) => heading.text));
      read.push(lowestOcr(pendingHeadings));
      pendingHeadings = [];
      pendingTokens = 0;
    }
    flushHeadings();
    return {
      text: parts.length > 0 ? parts.join(BLOCK_SEPARATOR) + BLOCK_SEPARATOR : '',
      ocr: lowest(read),
    };
  };

  for (const source of document.blocks) {
    const block = cleanBlock(source);
    if (block === undefined) continue;
    switch (block.kind) {
      case 'heading': {
        flushGroup();
        const parent = pendingHeadings.at(-1);
        const tokens = countTokens(block.text);
        // A pending heading of the same or a deeper level has an empty section: it merges forward with
        // this one, unless either is a legal heading (then it is emitted alone, as a legal unit). Without
        // levels on both (e.g. legal headings "BAB I", "Pasal 1") the headings stay together.
        const emptySection =
          parent?.level !== undefined && block.level !== undefined && parent.level >= block.level;
        if (emptySection && (parent.legal !== undefined || block.legal !== undefined)) {
          flushHeadings();
        } else if (pendingHeadings.some((pending) => legalConflict(pending, block))) {
          flushHeadings();
        } else if (pendingHeadings.length > 0 && pendingTokens + tokens > maxTokens) {
          flushHeadings();
        }
        pendingHeadings.push(block);
        pendingTokens += tokens;
        break;
      }
      case 'table': {
        let lead = takeLead(block);
        const pieces = splitTable(block.text, maxTokens);
        for (const text of pieces) {
          emit({
            text: lead.text + text,
            kind: 'table',
            page: block.page,
            section_path: [...block.section_path],
            anchor: block.anchor,
            table_html: pieces.length === 1 ? block.html : undefined,
            legal: copyLegal(block.legal),
            ocr: lowest([lead.ocr, block.ocr_confidence]),
          });
          lead = NO_LEAD;
        }
        break;
      }
      case 'code': {
        let lead = takeLead(block);
        for (const text of splitCode(block.text, maxTokens)) {
          emit({
            text: lead.text + text,
            kind: 'code',
            page: block.page,
            section_path: [...block.section_path],
            anchor: block.anchor,
            table_html: undefined,
            legal: copyLegal(block.legal),
            ocr: lowest([lead.ocr, block.ocr_confidence]),
          });
          lead = NO_LEAD;
        }
        break;
      }
      default: {
        // A "Pasal 5" heading never introduces Pasal 6 content.
        if (pendingHeadings.some((pending) => legalConflict(pending, block))) flushHeadings();
        const key = groupKeyOf(block);
        if (key !== groupKey) flushGroup();
        groupKey = key;
        const text = [...pendingHeadings.map((heading) => heading.text), block.text].join(BLOCK_SEPARATOR);
        group.push({
          text,
          tokens: countTokens(text),
          block,
          page: firstPage([...pendingHeadings, block]),
          ocr: lowestOcr([...pendingHeadings, block]),
        });
        pendingHeadings = [];
        pendingTokens = 0;
      }
    }
  }
  flushGroup();
  flushHeadings();

  return pieces.map((piece, position) => {
    const chunk: ChunkDraft = {
      position,
      text: piece.text,
      kind: piece.kind,
      section_path: piece.section_path,
      context_before: position > 0 ? tailAtWordBoundary(pieces[position - 1]!.text, contextChars) : '',
      context_after:
        position + 1 < pieces.length ? headAtWordBoundary(pieces[position + 1]!.text, contextChars) : '',
      token_count: countTokens(piece.text),
    };
    if (piece.page !== undefined) chunk.page = piece.page;
    if (piece.anchor !== undefined) chunk.anchor = piece.anchor;
    if (piece.table_html !== undefined) chunk.table_html = piece.table_html;
    if (piece.legal !== undefined) chunk.legal = piece.legal;
    if (piece.ocr !== undefined) chunk.ocr_confidence = piece.ocr;
    return chunk;
  });
}

/** Normalizes a block's text (NFC, LF, trimmed); `undefined` for a block with nothing to say. */
function cleanBlock(block: Block): Block | undefined {
  let text = normalizeText(block.text).trim();
  let html = block.html === undefined ? undefined : normalizeText(block.html);
  if (block.kind === 'table' && text.length === 0 && html !== undefined) text = plainTextOfHtml(html);
  if (text.length === 0) return undefined;
  if (html !== undefined && html.trim().length === 0) html = undefined;
  const cleaned: Block = { ...block, text };
  if (html === undefined) delete cleaned.html;
  else cleaned.html = html;
  return cleaned;
}

/** A rough plain rendering of table HTML, for tables whose parser gave no text. */
function plainTextOfHtml(html: string): string {
  return html
    .replace(/<\/(?:td|th)\s*>/gi, '\t')
    .replace(/<\/tr\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .trim();
}

/** Blocks share a chunk only when their keys are equal: the legal unit, or else the section. */
function groupKeyOf(block: Block): string {
  const legal = block.legal;
  if (legal?.pasal !== undefined) {
    return JSON.stringify(['legal', legal.pasal, legal.ayat ?? null, legal.penjelasan === true]);
  }
  return JSON.stringify(['section', ...block.section_path]);
}

/** Whether two blocks belong to different Pasal (or one to the body, one to the Penjelasan). */
function legalConflict(a: Block, b: Block): boolean {
  const left = a.legal;
  const right = b.legal;
  if (left?.pasal === undefined || right?.pasal === undefined) return false;
  return left.pasal !== right.pasal || (left.penjelasan === true) !== (right.penjelasan === true);
}

/**
 * The heading whose path and anchor a chunk of headings alone takes: the first, or — while each next
 * heading nests inside the previous one (deeper level, or levels unknown) — the innermost of that chain.
 */
function headingRunOwner(headings: Block[]): Block | undefined {
  let owner = headings[0];
  for (const heading of headings.slice(1)) {
    if (owner?.level !== undefined && heading.level !== undefined && heading.level <= owner.level) break;
    owner = heading;
  }
  return owner;
}

function firstPage(blocks: Block[]): number | undefined {
  for (const block of blocks) if (block.page !== undefined) return block.page;
  return undefined;
}

/** The lowest of the confidences given, or undefined when none is (no text read by OCR). */
function lowest(confidences: readonly (number | undefined)[]): number | undefined {
  let result: number | undefined;
  for (const confidence of confidences) {
    if (confidence !== undefined && (result === undefined || confidence < result)) result = confidence;
  }
  return result;
}

function lowestOcr(blocks: readonly Block[]): number | undefined {
  return lowest(blocks.map((block) => block.ocr_confidence));
}

const NO_LEAD = { text: '', ocr: undefined } as const;

function copyLegal(legal: LegalRef | undefined): LegalRef | undefined {
  return legal === undefined ? undefined : { ...legal };
}

/** Packs the units of one group into chunks of at most `maxTokens`; splits a unit over the budget. */
function packProse(
  units: ProseUnit[],
  maxTokens: number,
  overlapTokens: number,
  emit: (piece: Piece) => void,
): void {
  let current: ProseUnit[] = [];
  let currentTokens = 0;
  const flush = (): void => {
    const first = current[0];
    if (first !== undefined) {
      const ocr = lowest(current.map((unit) => unit.ocr));
      emit({ ...pieceOf(current.map((unit) => unit.text).join(BLOCK_SEPARATOR), first), ocr });
    }
    current = [];
    currentTokens = 0;
  };
  for (const unit of units) {
    if (unit.tokens > maxTokens) {
      flush();
      const parts =
        unit.block.legal?.pasal !== undefined
          ? splitAtLines(unit.text, maxTokens, overlapTokens)
          : splitByTokens(unit.text, maxTokens, overlapTokens).map((part) => part.text);
      for (const part of parts) emit(pieceOf(part, unit));
      continue;
    }
    if (current.length > 0 && currentTokens + unit.tokens > maxTokens) flush();
    current.push(unit);
    currentTokens += unit.tokens;
  }
  flush();
}

function pieceOf(text: string, unit: ProseUnit): Piece {
  return {
    text,
    kind: 'text',
    page: unit.page,
    section_path: [...unit.block.section_path],
    anchor: unit.block.anchor,
    table_html: undefined,
    legal: copyLegal(unit.block.legal),
    ocr: unit.ocr,
  };
}

/**
 * An over-long legal unit (a Pasal or ayat) as runs of whole lines — its ayat, lettered and numbered
 * points each start a line — of at most `maxTokens` each; a single longer line is split by tokens.
 */
function splitAtLines(text: string, maxTokens: number, overlapTokens: number): string[] {
  const result: string[] = [];
  let current: string[] = [];
  let currentTokens = 0;
  const flush = (): void => {
    const joined = current.join('\n').trim();
    if (joined.length > 0) result.push(joined);
    current = [];
    currentTokens = 0;
  };
  for (const line of text.split('\n')) {
    const tokens = countTokens(line);
    if (tokens > maxTokens) {
      flush();
      for (const part of splitByTokens(line, maxTokens, overlapTokens)) result.push(part.text);
      continue;
    }
    if (current.length > 0 && currentTokens + tokens > maxTokens) flush();
    current.push(line);
    currentTokens += tokens;
  }
  flush();
  return result;
}

/**
 * A code block as one piece, or — when longer than {@link CODE_SPLIT_FACTOR} budgets — as runs of
 * whole lines of at most `maxTokens` each (a single longer line is split by tokens, without overlap).
 */
/** A Markdown table's separator row ("|---|:--:|"). */
const TABLE_SEPARATOR = /^\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?$/;

/**
 * A table's text as is, or, over {@link CODE_SPLIT_FACTOR} budgets, in pieces of whole rows of at most
 * one budget each, every piece after the first opening with the header row (and its separator row).
 */
function splitTable(text: string, maxTokens: number): string[] {
  if (countTokens(text) <= CODE_SPLIT_FACTOR * maxTokens) return [text];
  const lines = text.split('\n');
  const headerLines = lines.length > 1 && TABLE_SEPARATOR.test(lines[1]!.trim()) ? 2 : 1;
  const header = lines.slice(0, headerLines);
  const headerTokens = countTokens(header.join('\n'));
  // A header as long as the budget leaves no room for rows: rows go without it.
  const repeat = headerTokens <= maxTokens / 2 ? header : [];
  const budget = maxTokens - (repeat.length > 0 ? headerTokens : 0);
  const rows = packLines(lines.slice(headerLines).join('\n'), budget);
  return rows.map((part, index) =>
    index === 0 ? [...header, part].join('\n') : [...repeat, part].join('\n'),
  );
}

function splitCode(text: string, maxTokens: number): string[] {
  if (countTokens(text) <= CODE_SPLIT_FACTOR * maxTokens) return [text];
  return packLines(text, maxTokens);
}

/** `text` in pieces of whole lines of at most `pieceTokens` each (a longer line split by tokens). */
function packLines(text: string, pieceTokens: number): string[] {
  const result: string[] = [];
  let current: string[] = [];
  let currentTokens = 0;
  const flush = (): void => {
    if (current.length > 0) result.push(current.join('\n'));
    current = [];
    currentTokens = 0;
  };
  for (const line of text.split('\n')) {
    const tokens = countTokens(line);
    if (tokens > pieceTokens) {
      flush();
      for (const part of splitByTokens(line, pieceTokens, 0)) result.push(part.text);
      continue;
    }
    if (current.length > 0 && currentTokens + tokens > pieceTokens) flush();
    current.push(line);
    currentTokens += tokens;
  }
  flush();
  return result.filter((part) => part.trim().length > 0);
}

const WHITESPACE_CHARACTER = /\s/u;

/** The last at most `limit` characters of `text`, starting at a word boundary. */
export function tailAtWordBoundary(text: string, limit: number): string {
  if (limit <= 0) return '';
  if (text.length <= limit) return text;
  let start = text.length - limit;
  if (!WHITESPACE_CHARACTER.test(text[start - 1] ?? ' ')) {
    // Cut inside a word: move forward to the next whitespace.
    let next = start;
    while (next < text.length && !WHITESPACE_CHARACTER.test(text[next]!)) next++;
    if (next < text.length) start = next;
  }
  if (isLowSurrogate(text.charCodeAt(start))) start++;
  return text.slice(start).trim();
}

/** The first at most `limit` characters of `text`, ending at a word boundary. */
export function headAtWordBoundary(text: string, limit: number): string {
  if (limit <= 0) return '';
  if (text.length <= limit) return text;
  let end = limit;
  if (!WHITESPACE_CHARACTER.test(text[end] ?? ' ')) {
    // Cut inside a word: move back to the previous whitespace.
    let previous = end;
    while (previous > 0 && !WHITESPACE_CHARACTER.test(text[previous - 1]!)) previous--;
    if (previous > 0) end = previous;
  }
  if (isLowSurrogate(text.charCodeAt(end))) end--;
  return text.slice(0, end).trim();
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
