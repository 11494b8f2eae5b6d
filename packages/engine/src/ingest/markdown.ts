/**
 * Markdown (CommonMark + GFM tables, Docusaurus MDX, MyST directives) → blocks.
 *
 * A line-oriented reader, not a full CommonMark implementation: it knows YAML frontmatter, ATX and
 * setext headings, fenced code (``` and ~~~; `#` inside code is never a heading), lists (consecutive
 * items are one block), GFM pipe tables (kept as HTML), block quotes, paragraphs (line breaks kept),
 * HTML comments (dropped), MDX `import`/`export` statements and JSX-only lines (dropped, text kept),
 * Docusaurus admonitions (`:::tip Title` → the title is kept) and MyST directive fences
 * (```` ```{note} ```` → their content is read as Markdown). Indented code blocks are read as text.
 * Inline markup is stripped from block text: link and image text kept (URLs dropped), emphasis
 * markers and code-span backticks removed, entities decoded.
 */
import { parse as parseYaml } from 'yaml';
import type { ParsedDocument } from '../types.js';
import { MIME_TYPES, titleFromFilename } from './detect.js';
import { IngestError } from './errors.js';
import { explicitHeadingId, HeadingSlugger } from './heading-anchors.js';
import { decodeEntities, escapeHtml } from './html.js';
import { BlockBuilder } from './text.js';

/** Parses a Markdown or MDX document. Malformed YAML frontmatter → `MALFORMED_FILE`. */
export function parseMarkdown(text: string, filename: string): ParsedDocument {
  const source = text
    .replace(/^\ufeff/, '')
    .replace(/\r\n?/g, '\n')
    .replace(/\u0000/g, '')
    .normalize('NFC');
  const { metadata, body } = splitFrontmatter(source, filename);
  const builder = new BlockBuilder({ slugger: new HeadingSlugger() });
  readBlocks(body.split('\n'), builder);
  const frontmatterTitle = metadata['title'];
  const title =
    (frontmatterTitle !== undefined && String(frontmatterTitle).trim() !== ''
      ? String(frontmatterTitle).trim()
      : undefined) ??
    builder.firstHeading(1) ??
    titleFromFilename(filename);
  return { title, mime: MIME_TYPES.markdown, metadata, blocks: builder.blocks };
}

// ---------------------------------------------------------------------------------------------
// Frontmatter

/**
 * The most YAML frontmatter read, in characters: a title, a slug and a few properties take a few
 * hundred; 2 MB of keys took the parser 40 s and their 2 MB metadata row a quarter of a second of
 * the server's thread to store (docs/security.md).
 */
export const MAX_FRONTMATTER_CHARS = 64 * 1024;

function splitFrontmatter(
  source: string,
  filename: string,
): { metadata: Record<string, string | number | boolean>; body: string } {
  const opening = /^---[ \t]*\n/.exec(source);
  if (opening === null) return { metadata: {}, body: source };
  const closing = /^(?:---|\.\.\.)[ \t]*$/m.exec(source.slice(opening[0].length));
  if (closing === null) return { metadata: {}, body: source };
  const yamlText = source.slice(opening[0].length, opening[0].length + closing.index);
  const body = source.slice(opening[0].length + closing.index + closing[0].length);
  if (yamlText.length > MAX_FRONTMATTER_CHARS)
    throw new IngestError(
      'QUOTA_EXCEEDED',
      `The YAML frontmatter of ${filename} has ${yamlText.length.toLocaleString('en')} characters; at most ${MAX_FRONTMATTER_CHARS.toLocaleString('en')} are read. Keep the frontmatter to the document's properties and move data into its body.`,
      { limit: { name: 'frontmatter characters', value: MAX_FRONTMATTER_CHARS } },
    );
  let value: unknown;
  try {
    value = parseYaml(yamlText, { maxAliasCount: 50, uniqueKeys: true, prettyErrors: false });
  } catch (cause) {
    throw new IngestError(
      'MALFORMED_FILE',
      `The YAML frontmatter of ${filename} cannot be parsed; fix the block between the "---" lines.`,
      { cause, details: cause instanceof Error ? cause.message : String(cause) },
    );
  }
  if (value === null || value === undefined) return { metadata: {}, body };
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new IngestError(
      'MALFORMED_FILE',
      `The YAML frontmatter of ${filename} is not a mapping of keys to values; use "key: value" lines.`,
    );
  }
  const metadata: Record<string, string | number | boolean> = {};
  for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
    if (typeof entry === 'string') metadata[key] = entry.normalize('NFC');
    else if (typeof entry === 'boolean') metadata[key] = entry;
    else if (typeof entry === 'number' && Number.isFinite(entry)) metadata[key] = entry;
  }
  return { metadata, body };
}

// ---------------------------------------------------------------------------------------------
// Block structure

const FENCE_OPEN = /^([ \t]*)(`{3,}|~{3,})[ \t]*(.*)$/;
const ATX_OPENING = /^ {0,3}(#{1,6})(?=[ \t]|$)/;
const SETEXT_H1 = /^ {0,3}=+[ \t]*$/;
const SETEXT_H2 = /^ {0,3}-+[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const LIST_ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*)|[ \t]*$)/;
const BLOCKQUOTE = /^ {0,3}>[ \t]?/;
/** A GFM delimiter row, tested on the trimmed line. */
const TABLE_DELIMITER = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?$/;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:[ \t]*\S+/;
const ADMONITION = /^ {0,3}:{3,}[ \t]*([A-Za-z][\w-]*)?[ \t]*(.*)$/;
const MULTILINE_LIMIT = 200;
/** Longest JSX/HTML tag (with its attributes) read, and how many lines it may span. */
const MAX_TAG_LENGTH = 4000;
const TAG_WINDOW_LINES = 20;
/** Lines longer than this are read as plain paragraph text (no block syntax, bounded regex work). */
const MAX_STRUCTURED_LINE = 10_000;

interface ListState {
  items: { prefix: string; text: string }[];
  baseIndent: number;
  afterBlank: boolean;
}

function readBlocks(lines: string[], builder: BlockBuilder): void {
  let paragraph: string[] = [];
  let list: ListState | undefined;
  const directives: { character: string; length: number }[] = [];

  const flushParagraph = () => {
    if (paragraph.length > 0) builder.add('paragraph', stripInline(paragraph.join('\n')));
    paragraph = [];
  };
  const flushList = () => {
    if (list !== undefined) {
      builder.add(
        'list',
        list.items.map((item) => item.prefix + stripInline(item.text).replace(/\n/g, ' ')).join('\n'),
      );
    }
    list = undefined;
  };
  const flush = () => {
    flushParagraph();
    flushList();
  };

  let index = 0;
  while (index < lines.length) {
    let line = lines[index] ?? '';

    // Fenced code, or a MyST directive fence whose content is Markdown.
    const fence = FENCE_OPEN.exec(line);
    if (fence !== null && isFenceOpening(fence)) {
      const indent = fence[1] ?? '';
      const marker = fence[2] ?? '```';
      const info = (fence[3] ?? '').trim();
      const top = directives[directives.length - 1];
      if (top !== undefined && info === '' && marker[0] === top.character && marker.length >= top.length) {
        flush();
        directives.pop();
        index++;
        continue;
      }
      flush();
      if (info.startsWith('{')) {
        directives.push({ character: marker[0] ?? '`', length: marker.length });
        index++;
        continue;
      }
      const code: string[] = [];
      index++;
      while (index < lines.length) {
        const current = lines[index] ?? '';
        const close = /^[ \t]*(`{3,}|~{3,})[ \t]*$/.exec(current);
        if (close !== null && close[1]?.[0] === marker[0] && (close[1]?.length ?? 0) >= marker.length) {
          index++;
          break;
        }
        code.push(removeIndent(current, indent.length));
        index++;
      }
      builder.add('code', code.join('\n'), { language: info.split(/[\s{]/)[0] ?? '' });
      continue;
    }

    // HTML comments (possibly spanning lines) vanish without ending a paragraph.
    if (line.includes('<!--')) {
      const removed = removeComments(lines, index);
      index = removed.nextIndex;
      if (removed.line.trim() === '') continue;
      line = removed.line;
      lines[index - 1] = line;
      index--;
    }

    if (line.trim() === '') {
      flushParagraph();
      if (list !== undefined) list.afterBlank = true;
      index++;
      continue;
    }

    // Very long lines are text: no block syntax is looked for in them (bounded work on hostile input).
    if (line.length > MAX_STRUCTURED_LINE) {
      flushList();
      paragraph.push(line.trim());
      index++;
      continue;
    }

    // MDX: top-level import/export statements.
    if (paragraph.length === 0 && list === undefined) {
      const statementEnd = mdxStatementEnd(lines, index);
      if (statementEnd !== undefined) {
        index = statementEnd;
        continue;
      }
    }

    // JSX / HTML tag lines: tags are dropped, any text between them is kept.
    const tagLine = readTagLine(lines, index);
    if (tagLine !== undefined) {
      index = tagLine.nextIndex;
      for (const title of tagLine.titles) {
        flush();
        builder.add('paragraph', stripInline(title));
      }
      if (tagLine.text.trim() === '') {
        if (tagLine.blockBoundary) flushParagraph();
        continue;
      }
      line = tagLine.text;
      lines[index - 1] = line;
      index--;
    }
    // JSX comments, MyST/Pandoc attribute lines ("{#id}") and MyST targets ("(label)=").
    if (/^[ \t]*(?:\{\/\*[\s\S]*\*\/\}|\{[#.][^{}]*\}|\([\w.:-]+\)=)[ \t]*$/.test(line)) {
      index++;
      continue;
    }

    const heading = atxHeading(line);
    if (heading !== undefined) {
      flush();
      addHeading(builder, heading.level, heading.text);
      index++;
      continue;
    }

    if (paragraph.length > 0 && list === undefined && (SETEXT_H1.test(line) || SETEXT_H2.test(line))) {
      const level = SETEXT_H1.test(line) ? 1 : 2;
      addHeading(builder, level, paragraph.join(' '));
      paragraph = [];
      index++;
      continue;
    }

    if (THEMATIC_BREAK.test(line)) {
      flush();
      index++;
      continue;
    }

    const next = lines[index + 1];
    if (line.includes('|') && next?.includes('|') && TABLE_DELIMITER.test(next.trim())) {
      const header = splitTableRow(line);
      if (header.length === splitTableRow(next).length) {
        flush();
        const rows: string[][] = [];
        index += 2;
        while (index < lines.length) {
          const row = lines[index] ?? '';
          if (row.trim() === '' || !row.includes('|')) break;
          rows.push(normalizeRow(splitTableRow(row), header.length));
          index++;
        }
        addTable(builder, header, rows);
        continue;
      }
    }

    const admonition = ADMONITION.exec(line);
    if (admonition !== null) {
      flush();
      const admonitionTitle = (admonition[2] ?? '').trim();
      if (admonitionTitle !== '' && !admonitionTitle.startsWith('{'))
        builder.add('paragraph', stripInline(admonitionTitle));
      index++;
      continue;
    }

    if (REFERENCE_DEFINITION.test(line) && paragraph.length === 0) {
      index++;
      continue;
    }

    const item = LIST_ITEM.exec(line);
    if (item !== null && !(paragraph.length > 0 && !canInterruptParagraph(item))) {
      flushParagraph();
      const indent = indentWidth(item[1] ?? '');
      if (list === undefined) list = { items: [], baseIndent: indent, afterBlank: false };
      const depth = Math.max(0, Math.min(8, Math.floor((indent - list.baseIndent) / 2)));
      const marker = /\d/.test(item[2] ?? '') ? (item[2] ?? '1.') : '-';
      list.items.push({ prefix: `${'  '.repeat(depth)}${marker} `, text: item[3] ?? '' });
      list.afterBlank = false;
      index++;
      continue;
    }

    const quote = BLOCKQUOTE.exec(line);
    const content = quote === null ? line : line.replace(/^(?: {0,3}>[ \t]?)+/, '');

    if (list !== undefined) {
      const indented = indentWidth(/^[ \t]*/.exec(line)?.[0] ?? '') > list.baseIndent;
      if (indented || (!list.afterBlank && quote === null)) {
        const last = list.items[list.items.length - 1];
        if (last !== undefined) last.text = `${last.text}\n${content.trim()}`;
        list.afterBlank = false;
        index++;
        continue;
      }
      flushList();
    }

    if (quote !== null && paragraph.length > 0 && BLOCKQUOTE.exec(lines[index - 1] ?? '') === null) {
      flushParagraph();
    }
    paragraph.push(content.trim());
    index++;
  }
  flush();
}

function isFenceOpening(fence: RegExpExecArray): boolean {
  // CommonMark §4.5: the info string of a backtick fence may not contain backticks.
  return !(fence[2]?.startsWith('`') === true && (fence[3] ?? '').includes('`'));
}

function canInterruptParagraph(item: RegExpExecArray): boolean {
  // CommonMark §5.2: an ordered list can interrupt a paragraph only when it starts at 1, and an
  // empty item never can.
  if ((item[3] ?? '').trim() === '') return false;
  const marker = item[2] ?? '';
  return !/^\d/.test(marker) || /^1[.)]$/.test(marker);
}

function indentWidth(whitespace: string): number {
  let width = 0;
  for (const character of whitespace) width += character === '\t' ? 4 - (width % 4) : 1;
  return width;
}

function removeIndent(line: string, width: number): string {
  let index = 0;
  while (index < width && (line[index] === ' ' || line[index] === '\t')) index++;
  return line.slice(index);
}

/** CommonMark §4.2 ATX heading: 1–6 "#", then a space or the end; an optional closing "#" run is removed. */
function atxHeading(line: string): { level: number; text: string } | undefined {
  const opening = ATX_OPENING.exec(line);
  if (opening === null) return undefined;
  let text = line.slice(opening[0].length).trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  if (end === 0) text = '';
  else if (end < text.length && (text[end - 1] === ' ' || text[end - 1] === '\t'))
    text = text.slice(0, end).trimEnd();
  return { level: opening[1]?.length ?? 1, text };
}

/** A heading with its anchor: an explicit `{#custom-id}` (Docusaurus), else the slug of its text. */
function addHeading(builder: BlockBuilder, level: number, raw: string): void {
  const explicit = explicitHeadingId(raw);
  const text = stripInline(explicit.id === undefined ? stripHeadingId(raw) : explicit.text);
  builder.heading(level, text, explicit.id === undefined ? {} : { id: explicit.id });
}

/** Removes a trailing `{#custom-id}` (Docusaurus, Pandoc). */
function stripHeadingId(text: string): string {
  const trimmed = text.trimEnd();
  if (!trimmed.endsWith('}')) return text;
  const open = trimmed.lastIndexOf('{#');
  if (open < 0 || trimmed.indexOf('}', open) !== trimmed.length - 1) return text;
  return trimmed.slice(0, open).trimEnd();
}

function removeComments(lines: string[], start: number): { line: string; nextIndex: number } {
  // Kept text is collected piece by piece so many comments on one long line stay linear.
  let source = lines[start] ?? '';
  let index = start + 1;
  let kept = '';
  let cursor = 0;
  for (;;) {
    const open = source.indexOf('<!--', cursor);
    if (open < 0) break;
    kept += source.slice(cursor, open);
    let close = source.indexOf('-->', open + 4);
    while (close < 0 && index < lines.length && index - start < MULTILINE_LIMIT * 10) {
      const searchFrom = Math.max(open + 4, source.length - 2);
      source += '\n' + (lines[index] ?? '');
      index++;
      close = source.indexOf('-->', searchFrom);
    }
    if (close < 0) {
      // An unterminated comment hides the rest of the document (as in a browser).
      return { line: kept.replace(/\n/g, ' '), nextIndex: lines.length };
    }
    cursor = close + 3;
  }
  kept += source.slice(cursor);
  return { line: kept.replace(/\n/g, ' '), nextIndex: index };
}

// ---------------------------------------------------------------------------------------------
// MDX statements and JSX / HTML tag lines

const IMPORT_BARE = /^import\s+(['"])[^'"\n]+\1;?\s*$/;
const IMPORT_FROM = /\sfrom\s+(['"])[^'"\n]+\1;?\s*$/;
const IMPORT_BINDINGS = /^[\w$*{}\s,]*$/;
const IMPORT_MULTI_START = /^import\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?\{[^}]*$/;
const IMPORT_MULTI_END = /\}\s*from\s+(['"])[^'"\n]+\1;?[ \t]*$/;
const EXPORT_START =
  /^export\s+(?:default\b|const\b|let\b|var\b|function\b|async\b|class\b|type\b|interface\b|\{|\*)/;

/** If `lines[index]` starts an MDX import/export statement, the index just after it. */
function mdxStatementEnd(lines: string[], index: number): number | undefined {
  const line = lines[index] ?? '';
  if (IMPORT_BARE.test(line)) return index + 1;
  if (line.startsWith('import')) {
    const from = IMPORT_FROM.exec(line);
    if (from !== null && /^import\s/.test(line) && IMPORT_BINDINGS.test(line.slice(7, from.index)))
      return index + 1;
  }
  if (IMPORT_MULTI_START.test(line)) {
    for (let end = index + 1; end < lines.length && end - index < MULTILINE_LIMIT; end++) {
      if (IMPORT_MULTI_END.test(lines[end] ?? '')) return end + 1;
    }
    return undefined;
  }
  if (!EXPORT_START.test(line)) return undefined;
  let depth = 0;
  for (let end = index; end < lines.length && end - index < MULTILINE_LIMIT; end++) {
    depth += bracketBalance(lines[end] ?? '');
    if (depth <= 0) return end + 1;
  }
  return undefined;
}

function bracketBalance(line: string): number {
  let depth = 0;
  let quote = '';
  for (let index = 0; index < line.length; index++) {
    const character = line[index];
    if (quote !== '') {
      if (character === '\\') index++;
      else if (character === quote) quote = '';
    } else if (character === '"' || character === "'" || character === '`') quote = character;
    else if (character === '{' || character === '(' || character === '[') depth++;
    else if (character === '}' || character === ')' || character === ']') depth--;
  }
  return depth;
}

const BLOCK_HTML_TAGS = new Set([
  'div',
  'p',
  'section',
  'article',
  'details',
  'summary',
  'table',
  'tr',
  'td',
  'th',
  'ul',
  'ol',
  'li',
  'br',
  'hr',
  'pre',
  'blockquote',
  'figure',
  'figcaption',
  'iframe',
  'img',
  'center',
]);

interface TagLine {
  text: string;
  titles: string[];
  nextIndex: number;
  /** True when a block-level tag was seen (so the surrounding paragraph ends). */
  blockBoundary: boolean;
}

/**
 * Reads a line that starts with a JSX or HTML tag. Tags (possibly spanning lines) are removed; the
 * `title` attributes of JSX components are returned so their text is not lost; `<script>` and
 * `<style>` elements are dropped whole. `undefined` when the line does not start with a tag.
 */
function readTagLine(lines: string[], index: number): TagLine | undefined {
  const first = lines[index] ?? '';
  const trimmed = first.trimStart();
  if (!/^<(?:[A-Za-z]|\/[A-Za-z]|>|\/>)/.test(trimmed) || /^<[A-Za-z][\w+.-]*:/.test(trimmed)) {
    return undefined;
  }
  // A tag may continue on the next lines; look at a bounded window, scanned once.
  let source = trimmed;
  for (
    let next = index + 1;
    next < lines.length && next - index < TAG_WINDOW_LINES && source.length < MAX_TAG_LENGTH;
    next++
  ) {
    source += '\n' + (lines[next] ?? '');
  }
  const titles: string[] = [];
  let text = '';
  let blockBoundary = false;
  let position = 0;
  let lineBreaks = 0;
  let skipToLine: number | undefined;
  while (position < source.length) {
    const character = source[position];
    if (character === '\n') break;
    if (character !== '<') {
      text += character;
      position++;
      continue;
    }
    const tag = scanTag(source, position);
    if (tag === 'incomplete' || tag === undefined) {
      if (position === 0) return undefined;
      text += character;
      position++;
      continue;
    }
    for (let offset = position; offset < tag.end; offset++) if (source[offset] === '\n') lineBreaks++;
    if (/^[A-Z]/.test(tag.name) && tag.title !== undefined) titles.push(tag.title);
    if (BLOCK_HTML_TAGS.has(tag.name.toLowerCase()) || /^[A-Z]/.test(tag.name)) blockBoundary = true;
    position = tag.end;
    const lower = tag.name.toLowerCase();
    if (!tag.closing && !tag.selfClosing && (lower === 'script' || lower === 'style')) {
      // Drop the element up to the line holding its end tag (or everything, if it never ends).
      const endTag = new RegExp(`</${lower}\\s*>`, 'i');
      const rest = source.slice(position).split('\n')[0] ?? '';
      if (endTag.test(rest)) {
        position += (endTag.exec(rest)?.index ?? 0) + (endTag.exec(rest)?.[0].length ?? 0);
        continue;
      }
      const startLine = index + lineBreaks + 1;
      let end = startLine;
      while (end < lines.length && !endTag.test(lines[end] ?? '')) end++;
      skipToLine = Math.min(lines.length, end + 1);
      break;
    }
  }
  const leading = first.slice(0, first.length - trimmed.length);
  return {
    text: leading + decodeEntities(text),
    titles,
    nextIndex: skipToLine ?? index + 1 + lineBreaks,
    blockBoundary,
  };
}

interface ScannedTag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  title?: string;
  end: number;
}

/** Scans one JSX/HTML tag at `start` (`source[start] === '<'`), with quoted and `{…}` attributes. */
function scanTag(source: string, start: number): ScannedTag | 'incomplete' | undefined {
  let position = start + 1;
  const closing = source[position] === '/';
  if (closing) position++;
  const nameMatch = /^[A-Za-z][\w.:-]*/.exec(source.slice(position, position + 100));
  const name = nameMatch?.[0] ?? '';
  if (name === '' && source[position] !== '>') return undefined;
  position += name.length;
  let title: string | undefined;
  for (;;) {
    while (position < source.length && /\s/.test(source[position] ?? '')) position++;
    if (position - start > MAX_TAG_LENGTH) return undefined;
    if (position >= source.length) return 'incomplete';
    const character = source[position];
    if (character === '>') {
      return withTitle({ name, closing, selfClosing: false, end: position + 1 }, title);
    }
    if (character === '/' && source[position + 1] === '>') {
      return withTitle({ name, closing, selfClosing: true, end: position + 2 }, title);
    }
    if (character === '/' && source[position + 1] === undefined) return 'incomplete';
    if (closing) return undefined;
    if (character === '{') {
      const end = scanBraces(source, position);
      if (end < 0) return 'incomplete';
      position = end;
      continue;
    }
    const attribute = /^[^\s=>/"'{}]+/.exec(source.slice(position, position + 200));
    if (attribute === null) return undefined;
    position += attribute[0].length;
    while (position < source.length && /[ \t]/.test(source[position] ?? '')) position++;
    if (source[position] !== '=') continue;
    position++;
    while (position < source.length && /\s/.test(source[position] ?? '')) position++;
    const quote = source[position];
    if (quote === '"' || quote === "'") {
      const end = source.indexOf(quote, position + 1);
      if (end < 0) return 'incomplete';
      if (attribute[0] === 'title') title = source.slice(position + 1, end);
      position = end + 1;
    } else if (quote === '{') {
      const end = scanBraces(source, position);
      if (end < 0) return 'incomplete';
      if (attribute[0] === 'title') {
        const literal = /^\{\s*(["'`])([^"'`]*)\1\s*\}$/.exec(source.slice(position, end));
        if (literal !== null) title = literal[2];
      }
      position = end;
    } else {
      const value = /^[^\s>]+/.exec(source.slice(position, position + 2000));
      if (value === null) return 'incomplete';
      position += value[0].length;
    }
  }
}

function withTitle(tag: ScannedTag, title: string | undefined): ScannedTag {
  if (title !== undefined && title.trim() !== '') tag.title = decodeEntities(title.trim());
  return tag;
}

/** End index (exclusive) of a balanced `{…}` starting at `start`, or -1 when unterminated. */
function scanBraces(source: string, start: number): number {
  let depth = 0;
  let quote = '';
  for (let index = start; index < source.length; index++) {
    const character = source[index];
    if (quote !== '') {
      if (character === '\\') index++;
      else if (character === quote) quote = '';
      continue;
    }
    if (character === '"' || character === "'" || character === '`') quote = character;
    else if (character === '{') depth++;
    else if (character === '}') {
      depth--;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------
// Tables

function splitTableRow(line: string): string[] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  const cells: string[] = [];
  let current = '';
  let codeTicks = 0;
  for (let index = 0; index < row.length; index++) {
    const character = row[index];
    if (character === '\\' && row[index + 1] === '|') {
      current += '|';
      index++;
    } else if (character === '`') {
      let run = 0;
      while (row[index + run] === '`') run++;
      if (codeTicks === 0) codeTicks = run;
      else if (codeTicks === run) codeTicks = 0;
      current += row.slice(index, index + run);
      index += run - 1;
    } else if (character === '|' && codeTicks === 0) {
      cells.push(current);
      current = '';
    } else {
      current += character;
    }
  }
  cells.push(current);
  return cells.map((cell) => cell.trim());
}

function normalizeRow(cells: string[], width: number): string[] {
  const row = cells.slice(0, width);
  while (row.length < width) row.push('');
  return row;
}

function addTable(builder: BlockBuilder, header: string[], rows: string[][]): void {
  const head = header.map(stripInline);
  const body = rows.map((row) => row.map(stripInline));
  const cellsHtml = (cells: string[], tag: 'th' | 'td') =>
    `<tr>${cells.map((cell) => `<${tag}>${escapeHtml(cell)}</${tag}>`).join('')}</tr>`;
  const html =
    '<table><thead>' +
    cellsHtml(head, 'th') +
    '</thead>' +
    (body.length > 0 ? `<tbody>${body.map((row) => cellsHtml(row, 'td')).join('')}</tbody>` : '') +
    '</table>';
  const text = [head, ...body]
    .map((row) => row.filter((cell) => cell !== '').join(' | '))
    .filter((row) => row !== '')
    .join('\n');
  builder.add('table', text, { html });
}

// ---------------------------------------------------------------------------------------------
// Inline markup

/**
 * Strips inline Markdown from one line or cell: link/image text kept (URLs dropped), emphasis and
 * strikethrough markers and code-span backticks removed, inline HTML tags removed, backslash
 * escapes and entities decoded. Text inside code spans is kept verbatim.
 */
export function stripInline(text: string): string {
  // Code spans and backslash escapes are set aside first so no other rule touches them.
  const spans: string[] = [];
  const setAside = (content: string) => {
    spans.push(content);
    return `\u0000${spans.length - 1}\u0000`;
  };
  let result = replaceCodeSpans(text, (content) =>
    setAside(/^ [\s\S]* $/.test(content) && content.trim() !== '' ? content.slice(1, -1) : content),
  ).replace(/\\([!-/:-@[-`{-~])/g, (_match, character: string) => setAside(character));
  // Every pattern below is bounded and stops at its own delimiter, so hostile text stays linear.
  const linkTarget = String.raw`\(\s{0,20}(?:[^()\s]|\([^()\n]{0,500}\)){0,2000}(?:\s{1,20}(?:"[^"\n]{0,500}"|'[^'\n]{0,500}'))?\s{0,20}\)`;
  result = result
    // A plain target (no space, no parenthesis, no title) of any length, e.g. a 5 MB `data:` image:
    // linear, as the run stops at the next parenthesis; the bounded patterns below take the rest.
    .replace(
      /(!?)\[([^[\]]{0,1000})\]\(\s{0,20}[^()\s]+\s{0,20}\)(\{[^{}\n]{0,200}\})?/g,
      (_match, image: string, label: string, attributes: string | undefined) =>
        image ? label : label + (attributes ?? ''),
    )
    .replace(
      new RegExp(String.raw`!\[([^\[\]]{0,1000})\]` + linkTarget + String.raw`(?:\{[^{}\n]{0,200}\})?`, 'g'),
      '$1',
    )
    .replace(new RegExp(String.raw`\[([^\[\]]{0,1000})\]` + linkTarget, 'g'), '$1')
    .replace(/\[([^[\]\n]{1,1000})\]\[[^[\]\n]{0,200}\]/g, '$1')
    .replace(/<((?:https?|ftp|mailto):[^<>\s]{1,2000})>/gi, '$1')
    .replace(
      /<\/?[A-Za-z][\w.:-]{0,100}(?:\s(?:[^<>"'{}]|"[^"\n<>]{0,1000}"|'[^'\n<>]{0,1000}'|\{[^{}\n]{0,1000}\}){0,2000})?\/?>/g,
      '',
    )
    .replace(/\*\*(?=[^\s*])([^*]{0,1000}?[^\s*])\*\*/g, '$1')
    .replace(/__(?=[^\s_])([^_]{0,1000}?[^\s_])__/g, '$1')
    .replace(/~~(?=[^\s~])([^~]{0,1000}?[^\s~])~~/g, '$1')
    .replace(/(^|[^\w*])\*(?=[^\s*])([^*]{0,1000}?[^\s*])\*(?![\w*])/g, '$1$2')
    .replace(/(^|[^\w*])\*([^\s*])\*(?![\w*])/g, '$1$2')
    .replace(/\*\*(?=[^\s*])([^*]{0,1000}?[^\s*])\*\*/g, '$1')
    .replace(
      /(^|[^\w])_(?=[^\s_])([^_]{0,1000}?[^\s_])?_(?!\w)/g,
      (match, before: string, inner: string | undefined) => (inner === undefined ? match : before + inner),
    );
  result = decodeEntities(result);
  return result.replace(/\u0000(\d+)\u0000/g, (_match, index: string) => spans[Number(index)] ?? '');
}

/**
 * CommonMark §6.1 code spans, in linear time: a run of N backticks opens a span that the next run
 * of exactly N backticks closes; runs without a partner are literal text.
 */
function replaceCodeSpans(text: string, replace: (content: string) => string): string {
  if (!text.includes('`')) return text;
  const runs: { start: number; length: number }[] = [];
  for (let index = 0; index < text.length; index++) {
    if (text[index] !== '`') continue;
    let end = index;
    while (text[end] === '`') end++;
    runs.push({ start: index, length: end - index });
    index = end - 1;
  }
  const byLength = new Map<number, number[]>();
  runs.forEach((run, runIndex) => {
    const list = byLength.get(run.length) ?? [];
    list.push(runIndex);
    byLength.set(run.length, list);
  });
  const cursor = new Map<number, number>();
  let result = '';
  let copied = 0;
  let runIndex = 0;
  while (runIndex < runs.length) {
    const run = runs[runIndex];
    if (run === undefined) break;
    const list = byLength.get(run.length) ?? [];
    let position = cursor.get(run.length) ?? 0;
    while (position < list.length && (list[position] ?? 0) <= runIndex) position++;
    cursor.set(run.length, position);
    const closing = list[position];
    if (closing === undefined) {
      runIndex++;
      continue;
    }
    const close = runs[closing];
    if (close === undefined) break;
    result +=
      text.slice(copied, run.start) +
      replace(text.slice(run.start + run.length, close.start).replace(/\n/g, ' '));
    copied = close.start + close.length;
    runIndex = closing + 1;
  }
  return result + text.slice(copied);
}
