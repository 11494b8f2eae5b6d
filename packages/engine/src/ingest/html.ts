/**
 * HTML → blocks, with a small streaming tag tokenizer (no DOM). Time and memory are linear in the
 * input: raw-text elements (`<script>`, `<style>`, …) end at their end tag whatever their content,
 * unclosed elements are closed at the end, and implied end tags (`<li>`, `<td>`, `<tr>`, `<p>`) are
 * looked for only near the top of the open-element stack.
 *
 * Only main content is kept: `<script>`, `<style>`, `<noscript>`, `<template>`, `<nav>`, `<footer>`,
 * `<aside>`, `<form>`, `<svg>`, `<iframe>`, `<button>`, comments and `hidden` elements are dropped;
 * `<header>` is dropped outside `<main>`/`<article>` (inside them it usually holds the article's
 * title, so it is kept). When the page has a `<main>` (or `role="main"`), only its content is read;
 * otherwise `<article>` elements if any; otherwise the whole body.
 */
import type { Block, ParsedDocument } from '../types.js';
import { MIME_TYPES, titleFromFilename } from './detect.js';
import { BlockBuilder } from './text.js';

/** Parses an HTML page into blocks; the title comes from `<title>`, else the first `<h1>`, else the file name. */
export function parseHtml(text: string, filename: string): ParsedDocument {
  const extracted = extractHtml(text);
  const title = extracted.title ?? extracted.firstHeading ?? titleFromFilename(filename);
  return { title, mime: MIME_TYPES.html, metadata: extracted.metadata, blocks: extracted.blocks };
}

/** What {@link extractHtml} finds in a page. */
export interface ExtractedHtml {
  blocks: Block[];
  /** Text of `<title>`, if present and not empty. */
  title?: string;
  /** Text of the first `<h1>` among the kept content. */
  firstHeading?: string;
  /** `lang` of `<html>`, `<meta name="description">`, and similar page facts. */
  metadata: Record<string, string>;
}

type ContentMode = 'main' | 'article' | 'body';

/**
 * Extracts blocks from HTML (shared by the HTML and DOCX parsers). Prefers `<main>`, then
 * `<article>`, then the whole body; falls back to the next mode when one yields no blocks.
 */
export function extractHtml(html: string): ExtractedHtml {
  const source = html.replace(/^\ufeff/, '').replace(/\r\n?/g, '\n');
  const modes: ContentMode[] = [];
  if (/<main[\s>]|\srole\s*=\s*["']?main\b/i.test(source)) modes.push('main');
  if (/<article[\s>]/i.test(source)) modes.push('article');
  modes.push('body');
  let result: ExtractedHtml | undefined;
  for (const mode of modes) {
    result = new HtmlExtractor(source, mode).run();
    if (result.blocks.length > 0) return result;
  }
  return result ?? { blocks: [], metadata: {} };
}

// ---------------------------------------------------------------------------------------------
// Tokenizer

interface StartTag {
  type: 'start';
  name: string;
  attributes: ReadonlyMap<string, string>;
  selfClosing: boolean;
}
type Token = { type: 'text'; text: string } | StartTag | { type: 'end'; name: string };

/** Elements whose content is raw text up to their end tag (WHATWG HTML §13.1.2). */
const RAW_TEXT = new Set([
  'script',
  'style',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'noscript',
  'plaintext',
]);
const ESCAPABLE_RAW_TEXT = new Set(['title', 'textarea']);
const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

const NO_ATTRIBUTES: ReadonlyMap<string, string> = new Map();

/** Whitespace, "/" or ">" end a tag name (WHATWG HTML §13.2.5.8). */
function isTagNameEnd(code: number): boolean {
  return (
    code === 0x20 ||
    code === 0x09 ||
    code === 0x0a ||
    code === 0x0c ||
    code === 0x0d ||
    code === 0x2f ||
    code === 0x3e
  );
}

function isAsciiLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

class Tokenizer {
  #position = 0;
  #pending: Token[] = [];
  readonly #source: string;
  readonly #endPatterns = new Map<string, RegExp>();

  constructor(source: string) {
    this.#source = source;
  }

  next(): Token | undefined {
    const queued = this.#pending.shift();
    if (queued !== undefined) return queued;
    const source = this.#source;
    while (this.#position < source.length) {
      const start = this.#position;
      const open = source.indexOf('<', start);
      if (open < 0) {
        this.#position = source.length;
        return { type: 'text', text: decodeEntities(source.slice(start)) };
      }
      if (open > start) {
        this.#position = open;
        return { type: 'text', text: decodeEntities(source.slice(start, open)) };
      }
      const following = source[open + 1] ?? '';
      if (source.startsWith('<!--', open)) {
        const close = source.indexOf('-->', open + 4);
        this.#position = close < 0 ? source.length : close + 3;
        continue;
      }
      if (following === '!' || following === '?') {
        const close = source.indexOf('>', open + 2);
        this.#position = close < 0 ? source.length : close + 1;
        continue;
      }
      if (following === '/') {
        const name = /^[A-Za-z][^\s/>]*/.exec(source.slice(open + 2, open + 130))?.[0];
        if (name === undefined) {
          if (source[open + 2] === '>') {
            this.#position = open + 3;
            continue;
          }
          const close = source.indexOf('>', open + 2);
          this.#position = close < 0 ? source.length : close + 1;
          continue;
        }
        const close = source.indexOf('>', open + 2 + name.length);
        this.#position = close < 0 ? source.length : close + 1;
        return { type: 'end', name: name.toLowerCase() };
      }
      if (isAsciiLetter(source.charCodeAt(open + 1))) {
        const tag = this.#readStartTag(open);
        if (tag === undefined) {
          this.#position = source.length;
          return undefined;
        }
        // The self-closing flag does not end a raw-text element (`<script/>` still runs to `</script>`).
        if (RAW_TEXT.has(tag.name) || ESCAPABLE_RAW_TEXT.has(tag.name)) this.#readRawText(tag.name);
        return tag;
      }
      this.#position = open + 1;
      return { type: 'text', text: '<' };
    }
    return undefined;
  }

  #readStartTag(open: number): StartTag | undefined {
    const source = this.#source;
    let position = open + 1;
    while (position < source.length && !isTagNameEnd(source.charCodeAt(position))) position++;
    const rawName = source.slice(open + 1, Math.min(position, open + 129));
    let attributes: Map<string, string> | undefined;
    let selfClosing = false;
    for (;;) {
      while (position < source.length && /[\s/]/.test(source[position] ?? '')) {
        if (source[position] === '/' && source[position + 1] === '>') selfClosing = true;
        position++;
      }
      if (position >= source.length) return undefined;
      if (source[position] === '>') {
        this.#position = position + 1;
        return {
          type: 'start',
          name: rawName.toLowerCase(),
          attributes: attributes ?? NO_ATTRIBUTES,
          selfClosing,
        };
      }
      let nameEnd = position;
      while (nameEnd < source.length && !/[\s/>=]/.test(source[nameEnd] ?? '')) nameEnd++;
      if (nameEnd === position) nameEnd++; // a stray "=": consume it as a one-character name
      const name = source.slice(position, nameEnd).toLowerCase();
      position = nameEnd;
      while (position < source.length && /\s/.test(source[position] ?? '')) position++;
      let value = '';
      if (source[position] === '=') {
        position++;
        while (position < source.length && /\s/.test(source[position] ?? '')) position++;
        const quote = source[position];
        if (quote === '"' || quote === "'") {
          const close = source.indexOf(quote, position + 1);
          if (close < 0) return undefined;
          value = source.slice(position + 1, close);
          position = close + 1;
        } else {
          let end = position;
          while (end < source.length && !/[\s>]/.test(source[end] ?? '')) end++;
          value = source.slice(position, end);
          position = end;
        }
      }
      attributes ??= new Map<string, string>();
      if (!attributes.has(name) && attributes.size < 64) attributes.set(name, decodeEntities(value));
    }
  }

  #readRawText(name: string): void {
    let pattern = this.#endPatterns.get(name);
    if (pattern === undefined) {
      pattern = new RegExp(`</${name}[\\s/>]`, 'gi');
      this.#endPatterns.set(name, pattern);
    }
    pattern.lastIndex = this.#position;
    const match = name === 'plaintext' ? null : pattern.exec(this.#source);
    const end = match === null ? this.#source.length : match.index;
    const raw = this.#source.slice(this.#position, end);
    const text = ESCAPABLE_RAW_TEXT.has(name) ? decodeEntities(raw) : raw;
    if (text !== '') this.#pending.push({ type: 'text', text });
    if (match === null) {
      this.#position = this.#source.length;
    } else {
      const close = this.#source.indexOf('>', end);
      this.#position = close < 0 ? this.#source.length : close + 1;
    }
    this.#pending.push({ type: 'end', name });
  }
}

// ---------------------------------------------------------------------------------------------
// Extraction

const DROPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'nav',
  'footer',
  'aside',
  'form',
  'svg',
  'math',
  'iframe',
  'object',
  'embed',
  'canvas',
  'select',
  'button',
  'dialog',
  'head',
  'noembed',
  'noframes',
  'xmp',
  'plaintext',
  'textarea',
]);

const BLOCK_ELEMENTS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'html',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);

const HEADINGS: Readonly<Record<string, number>> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };

/** How far down the open-element stack implied end tags are searched (bounds hostile nesting). */
const IMPLIED_END_SEARCH = 64;
const MAX_SPAN = 1000;
const MAX_HEADING_LENGTH = 300;

interface OpenElement {
  name: string;
  dropped: boolean;
  root: boolean;
}

interface TableCell {
  header: boolean;
  text: string;
  colspan: number;
  rowspan: number;
}

interface TableRow {
  section: 'thead' | 'tbody';
  cells: TableCell[];
}

interface TableState {
  rows: TableRow[];
  section: 'thead' | 'tbody';
  row: TableRow | undefined;
  cell: TableCell | undefined;
  caption: string | undefined;
  inCaption: boolean;
}

interface ListItem {
  depth: number;
  marker: string;
  text: string;
}

class HtmlExtractor {
  readonly #tokens: Tokenizer;
  readonly #mode: ContentMode;
  readonly #builder = new BlockBuilder();
  readonly #stack: OpenElement[] = [];
  readonly #openCount = new Map<string, number>();
  #droppedDepth = 0;
  #rootDepth = 0;
  #title: string | undefined;
  #inTitle = false;
  readonly #metadata: Record<string, string> = {};

  #paragraph = '';
  #heading: { level: number; text: string } | undefined;
  #pre: { text: string; language: string; depth: number } | undefined;
  #table: TableState | undefined;
  #tableDepth = 0;
  #lists: { ordered: boolean; counter: number }[] = [];
  #items: ListItem[] = [];
  #item: ListItem | undefined;

  constructor(source: string, mode: ContentMode) {
    this.#tokens = new Tokenizer(source);
    this.#mode = mode;
  }

  run(): ExtractedHtml {
    for (let token = this.#tokens.next(); token !== undefined; token = this.#tokens.next()) {
      if (token.type === 'text') this.#text(token.text);
      else if (token.type === 'start') this.#start(token);
      else this.#end(token.name);
    }
    while (this.#stack.length > 0) this.#pop();
    this.#flushParagraph();
    this.#flushList();
    const result: ExtractedHtml = { blocks: this.#builder.blocks, metadata: this.#metadata };
    const title = this.#title?.trim();
    if (title !== undefined && title !== '') result.title = title;
    const firstHeading = this.#builder.firstHeading(1);
    if (firstHeading !== undefined) result.firstHeading = firstHeading;
    return result;
  }

  get #collecting(): boolean {
    return this.#droppedDepth === 0 && (this.#mode === 'body' || this.#rootDepth > 0);
  }

  // -- tokens ---------------------------------------------------------------------------------

  #start(tag: StartTag): void {
    const { name, attributes } = tag;
    if (name === 'html') {
      const lang = attributes.get('lang');
      if (lang !== undefined && lang.trim() !== '') this.#metadata['lang'] = lang.trim();
    }
    if (name === 'meta') this.#meta(attributes);
    if (name === 'title' && this.#title === undefined) {
      this.#inTitle = true;
      this.#title = '';
    }

    this.#impliedEnds(name);
    if (name === 'br') {
      this.#lineBreak();
      return;
    }
    if (VOID_ELEMENTS.has(name)) {
      if (name === 'hr' || name === 'img') this.#boundary();
      return;
    }

    const dropped =
      DROPPED.has(name) ||
      (name === 'header' && this.#rootDepth === 0) ||
      attributes.has('hidden') ||
      attributes.get('aria-hidden') === 'true';
    const root =
      (this.#mode === 'main' && (name === 'main' || attributes.get('role') === 'main')) ||
      (this.#mode === 'article' && name === 'article');
    const element: OpenElement = { name, dropped, root };
    this.#stack.push(element);
    this.#openCount.set(name, (this.#openCount.get(name) ?? 0) + 1);
    if (dropped) this.#droppedDepth++;
    if (root) this.#rootDepth++;
    if (tag.selfClosing && dropped && !RAW_TEXT.has(name) && !ESCAPABLE_RAW_TEXT.has(name)) {
      // `<svg/>`, `<nav/>`: an empty dropped element must not swallow the rest of the page.
      this.#pop();
      return;
    }
    if (!this.#collecting) return;
    this.#open(name, attributes);
  }

  #end(name: string): void {
    if (name === 'br') {
      this.#lineBreak();
      return;
    }
    if (name === 'title') this.#inTitle = false;
    if ((this.#openCount.get(name) ?? 0) === 0) {
      if (name === 'p') this.#boundary();
      return;
    }
    for (;;) {
      const element = this.#pop();
      if (element === undefined || element.name === name) return;
    }
  }

  #text(text: string): void {
    if (this.#inTitle) {
      this.#title = collapseWhitespace(`${this.#title ?? ''}${text}`).trimStart();
      return;
    }
    if (!this.#collecting) return;
    if (this.#pre !== undefined && this.#table === undefined) {
      this.#pre.text += this.#pre.text === '' ? text.replace(/^\n/, '') : text;
      return;
    }
    const collapsed = collapseWhitespace(text);
    if (this.#table !== undefined) {
      if (this.#table.inCaption) this.#table.caption = appendInline(this.#table.caption ?? '', collapsed);
      else if (this.#table.cell !== undefined)
        this.#table.cell.text = appendInline(this.#table.cell.text, collapsed);
      else if (collapsed.trim() !== '') this.#paragraph = appendInline(this.#paragraph, collapsed);
      return;
    }
    if (this.#lists.length > 0) {
      this.#ensureItem();
      if (this.#item !== undefined) this.#item.text = appendInline(this.#item.text, collapsed);
      return;
    }
    if (this.#heading !== undefined) {
      this.#heading.text = appendInline(this.#heading.text, collapsed);
      return;
    }
    this.#paragraph = appendInline(this.#paragraph, collapsed);
  }

  // -- structure ------------------------------------------------------------------------------

  #open(name: string, attributes: ReadonlyMap<string, string>): void {
    if (this.#pre !== undefined && this.#table === undefined) {
      if (name === 'code' && this.#pre.language === '') this.#pre.language = languageOf(attributes);
      return;
    }
    if (name === 'table') {
      this.#tableDepth++;
      if (this.#tableDepth === 1) {
        this.#flushParagraph();
        this.#flushList(true);
        this.#flushHeading();
        this.#table = {
          rows: [],
          section: 'tbody',
          row: undefined,
          cell: undefined,
          caption: undefined,
          inCaption: false,
        };
      } else {
        this.#cellSeparator();
      }
      return;
    }
    const table = this.#table;
    if (table !== undefined) {
      if (this.#tableDepth > 1) {
        if (name === 'tr' || name === 'td' || name === 'th' || BLOCK_ELEMENTS.has(name))
          this.#cellSeparator();
        return;
      }
      if (name === 'thead') table.section = 'thead';
      else if (name === 'tbody' || name === 'tfoot') table.section = 'tbody';
      else if (name === 'caption') table.inCaption = true;
      else if (name === 'tr') {
        table.row = { section: table.section, cells: [] };
        table.rows.push(table.row);
      } else if (name === 'td' || name === 'th') {
        if (table.row === undefined) {
          table.row = { section: table.section, cells: [] };
          table.rows.push(table.row);
        }
        table.cell = {
          header: name === 'th',
          text: '',
          colspan: spanOf(attributes.get('colspan')),
          rowspan: spanOf(attributes.get('rowspan')),
        };
        table.row.cells.push(table.cell);
      } else if (BLOCK_ELEMENTS.has(name)) {
        this.#cellSeparator();
      }
      return;
    }
    if (name === 'pre') {
      this.#flushParagraph();
      this.#flushHeading();
      this.#flushList(true);
      this.#pre = { text: '', language: languageOf(attributes), depth: this.#stack.length };
      return;
    }
    if (name === 'ul' || name === 'ol') {
      this.#flushParagraph();
      this.#flushHeading();
      if (this.#item !== undefined) this.#finishItem();
      const start = Number.parseInt(attributes.get('start') ?? '1', 10);
      this.#lists.push({ ordered: name === 'ol', counter: Number.isSafeInteger(start) ? start - 1 : 0 });
      return;
    }
    if (name === 'li' && this.#lists.length > 0) {
      if (this.#item !== undefined) this.#finishItem();
      const list = this.#lists[this.#lists.length - 1];
      if (list !== undefined) list.counter++;
      this.#item = {
        depth: this.#lists.length - 1,
        marker: list?.ordered === true ? `${list.counter}.` : '-',
        text: '',
      };
      return;
    }
    const level = HEADINGS[name];
    if (level !== undefined && this.#lists.length === 0) {
      this.#flushParagraph();
      this.#flushHeading();
      this.#heading = { level, text: '' };
      return;
    }
    if (BLOCK_ELEMENTS.has(name)) this.#boundary();
  }

  #pop(): OpenElement | undefined {
    const element = this.#stack.pop();
    if (element === undefined) return undefined;
    const count = (this.#openCount.get(element.name) ?? 1) - 1;
    if (count === 0) this.#openCount.delete(element.name);
    else this.#openCount.set(element.name, count);
    const wasCollecting = this.#collecting;
    if (element.dropped) this.#droppedDepth--;
    if (element.root) this.#rootDepth--;
    if (wasCollecting) this.#close(element.name);
    return element;
  }

  #close(name: string): void {
    if (this.#pre !== undefined && this.#table === undefined) {
      if (name === 'pre' && this.#stack.length < this.#pre.depth) {
        this.#builder.add('code', this.#pre.text.replace(/\n+$/, ''), { language: this.#pre.language });
        this.#pre = undefined;
      }
      return;
    }
    const table = this.#table;
    if (table !== undefined) {
      if (name === 'table') {
        this.#tableDepth--;
        if (this.#tableDepth === 0) this.#finishTable(table);
        else this.#cellSeparator();
        return;
      }
      if (this.#tableDepth > 1) return;
      if (name === 'td' || name === 'th') table.cell = undefined;
      else if (name === 'tr') {
        table.row = undefined;
        table.cell = undefined;
      } else if (name === 'caption') table.inCaption = false;
      else if (name === 'thead' || name === 'tbody' || name === 'tfoot') table.section = 'tbody';
      else if (BLOCK_ELEMENTS.has(name)) this.#cellSeparator();
      return;
    }
    if (name === 'li' && this.#lists.length > 0) {
      if (this.#item !== undefined) this.#finishItem();
      return;
    }
    if (name === 'ul' || name === 'ol') {
      if (this.#lists.length === 0) return;
      if (this.#item !== undefined) this.#finishItem();
      this.#lists.pop();
      if (this.#lists.length === 0) this.#flushList();
      return;
    }
    if (HEADINGS[name] !== undefined) {
      this.#flushHeading();
      return;
    }
    if (BLOCK_ELEMENTS.has(name)) this.#boundary();
  }

  /** Implied end tags (WHATWG HTML §13.2.6.4.7), searched only near the top of the stack. */
  #impliedEnds(name: string): void {
    if (name === 'li') this.#closeNear('li', ['ul', 'ol', 'table']);
    else if (name === 'td' || name === 'th') this.#closeNear(['td', 'th'], ['tr', 'table']);
    else if (name === 'tr') this.#closeNear('tr', ['table', 'thead', 'tbody', 'tfoot']);
    else if (name === 'thead' || name === 'tbody' || name === 'tfoot') {
      this.#closeNear(['thead', 'tbody', 'tfoot'], ['table']);
    } else if (name === 'dd' || name === 'dt') this.#closeNear(['dd', 'dt'], ['dl']);
    else if (name === 'option') this.#closeNear('option', ['select']);
    if (HEADINGS[name] !== undefined) {
      const top = this.#stack[this.#stack.length - 1];
      if (top !== undefined && HEADINGS[top.name] !== undefined) this.#pop();
    }
    if (BLOCK_ELEMENTS.has(name) || VOID_ELEMENTS.has(name)) {
      if (name !== 'br' && name !== 'img') this.#closeNear('p', ['td', 'th', 'li', 'table', 'div', 'button']);
    }
  }

  #closeNear(names: string | string[], barriers: string[]): void {
    const targets = typeof names === 'string' ? [names] : names;
    if (!targets.some((target) => (this.#openCount.get(target) ?? 0) > 0)) return;
    const limit = Math.max(0, this.#stack.length - IMPLIED_END_SEARCH);
    for (let index = this.#stack.length - 1; index >= limit; index--) {
      const element = this.#stack[index];
      if (element === undefined) return;
      if (targets.includes(element.name)) {
        while (this.#stack.length > index) this.#pop();
        return;
      }
      if (barriers.includes(element.name)) return;
    }
  }

  // -- buffers --------------------------------------------------------------------------------

  #lineBreak(): void {
    if (!this.#collecting) return;
    if (this.#pre !== undefined && this.#table === undefined) this.#pre.text += '\n';
    else if (this.#table !== undefined) this.#cellSeparator();
    else if (this.#lists.length > 0) {
      if (this.#item !== undefined) this.#item.text = appendInline(this.#item.text, ' ');
    } else if (this.#heading !== undefined) this.#heading.text = appendInline(this.#heading.text, ' ');
    else this.#paragraph = this.#paragraph.replace(/ +$/, '') + '\n';
  }

  #boundary(): void {
    if (this.#table !== undefined) {
      this.#cellSeparator();
      return;
    }
    if (this.#lists.length > 0) {
      if (this.#item !== undefined) this.#item.text = appendInline(this.#item.text, ' ');
      return;
    }
    const heading = this.#heading;
    if (heading !== undefined) {
      // Block content inside a heading stays in the heading, unless the "heading" is clearly a
      // runaway (an unclosed <hN>), which is kept as a paragraph instead.
      if (heading.text.length > MAX_HEADING_LENGTH) {
        this.#heading = undefined;
        this.#builder.add('paragraph', heading.text);
      } else {
        heading.text = appendInline(heading.text, ' ');
      }
      return;
    }
    this.#flushParagraph();
  }

  #cellSeparator(): void {
    const cell = this.#table?.cell;
    if (cell !== undefined) cell.text = appendInline(cell.text, ' ');
  }

  #flushParagraph(): void {
    if (this.#paragraph.trim() !== '')
      this.#builder.add('paragraph', this.#paragraph.replace(/^ +| +$/gm, ''));
    this.#paragraph = '';
  }

  #flushHeading(): void {
    const heading = this.#heading;
    if (heading === undefined) return;
    this.#heading = undefined;
    this.#builder.heading(heading.level, heading.text);
  }

  #ensureItem(): void {
    if (this.#item === undefined) {
      this.#item = { depth: Math.max(0, this.#lists.length - 1), marker: '-', text: '' };
    }
  }

  #finishItem(): void {
    const item = this.#item;
    this.#item = undefined;
    if (item === undefined || item.text.trim() === '') return;
    this.#items.push({ ...item, text: item.text.trim() });
  }

  /** Emits the list items gathered so far; `keepOpen` lets the list continue after a nested block. */
  #flushList(keepOpen = false): void {
    if (this.#item !== undefined) {
      const current = this.#item;
      this.#finishItem();
      if (keepOpen) this.#item = { ...current, text: '' };
    }
    if (this.#items.length > 0) {
      this.#builder.add(
        'list',
        this.#items
          .map((item) => `${'  '.repeat(Math.min(item.depth, 8))}${item.marker} ${item.text}`)
          .join('\n'),
      );
    }
    this.#items = [];
    if (!keepOpen) {
      this.#lists = [];
      this.#item = undefined;
    }
  }

  #finishTable(table: TableState): void {
    this.#table = undefined;
    const fostered = this.#paragraph;
    this.#paragraph = '';
    if (fostered.trim() !== '') this.#builder.add('paragraph', fostered);
    if (table.caption !== undefined) this.#builder.add('paragraph', table.caption);
    const rendered = renderTable(table.rows);
    if (rendered !== undefined) this.#builder.add('table', rendered.text, { html: rendered.html });
  }

  #meta(attributes: ReadonlyMap<string, string>): void {
    const key = (attributes.get('name') ?? attributes.get('property') ?? '').toLowerCase();
    const content = attributes.get('content')?.trim();
    if (content === undefined || content === '') return;
    if (key === 'description' || key === 'og:description') this.#metadata['description'] ??= content;
    else if (key === 'author') this.#metadata['author'] ??= content;
    else if (key === 'keywords') this.#metadata['keywords'] ??= content;
  }
}

function renderTable(rows: TableRow[]): { html: string; text: string } | undefined {
  const kept = rows
    .map((row) => ({
      ...row,
      cells: row.cells.map((cell) => ({ ...cell, text: cell.text.replace(/\s+/g, ' ').trim() })),
    }))
    .filter((row) => row.cells.length > 0);
  if (!kept.some((row) => row.cells.some((cell) => cell.text !== ''))) return undefined;
  const renderRow = (row: TableRow) =>
    '<tr>' +
    row.cells
      .map((cell) => {
        const tag = cell.header ? 'th' : 'td';
        const spans =
          (cell.colspan > 1 ? ` colspan="${cell.colspan}"` : '') +
          (cell.rowspan > 1 ? ` rowspan="${cell.rowspan}"` : '');
        return `<${tag}${spans}>${escapeHtml(cell.text)}</${tag}>`;
      })
      .join('') +
    '</tr>';
  const head = kept.filter((row) => row.section === 'thead');
  const body = kept.filter((row) => row.section === 'tbody');
  const html =
    '<table>' +
    (head.length > 0 ? `<thead>${head.map(renderRow).join('')}</thead>` : '') +
    (body.length > 0 ? `<tbody>${body.map(renderRow).join('')}</tbody>` : '') +
    '</table>';
  const text = [...head, ...body]
    .filter((row) => row.cells.some((cell) => cell.text !== ''))
    .map((row) =>
      row.cells
        .map((cell) => cell.text)
        .filter((text) => text !== '')
        .join(' | '),
    )
    .join('\n');
  return { html, text };
}

function spanOf(value: string | undefined): number {
  const parsed = Number.parseInt(value ?? '1', 10);
  return Number.isSafeInteger(parsed) && parsed >= 1 ? Math.min(parsed, MAX_SPAN) : 1;
}

function languageOf(attributes: ReadonlyMap<string, string>): string {
  const match = /(?:^|\s)(?:language|lang|highlight-source)-([\w+#.-]+)/.exec(attributes.get('class') ?? '');
  return match?.[1] ?? attributes.get('data-language') ?? '';
}

function collapseWhitespace(text: string): string {
  return text.replace(/[ \t\n\f\r\u00a0]+/g, ' ');
}

function appendInline(buffer: string, text: string): string {
  if (text === '') return buffer;
  if (text.startsWith(' ') && (buffer === '' || buffer.endsWith(' ') || buffer.endsWith('\n'))) {
    return buffer + text.slice(1);
  }
  return buffer + text;
}

// ---------------------------------------------------------------------------------------------
// Entities and escaping

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

const LATIN1 =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute ' +
  'micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig ' +
  'Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash ' +
  'Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc ' +
  'euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml ' +
  'yacute thorn yuml';
const GREEK_UPPER =
  'Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho _ Sigma Tau Upsilon Phi Chi Psi Omega';
const GREEK_LOWER =
  'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf sigma tau upsilon phi chi psi omega';
const OTHER_ENTITIES: Readonly<Record<string, number>> = {
  quot: 34,
  amp: 38,
  apos: 39,
  lt: 60,
  gt: 62,
  OElig: 338,
  oelig: 339,
  Scaron: 352,
  scaron: 353,
  Yuml: 376,
  fnof: 402,
  circ: 710,
  tilde: 732,
  ensp: 8194,
  emsp: 8195,
  thinsp: 8201,
  zwnj: 8204,
  zwj: 8205,
  lrm: 8206,
  rlm: 8207,
  ndash: 8211,
  mdash: 8212,
  lsquo: 8216,
  rsquo: 8217,
  sbquo: 8218,
  ldquo: 8220,
  rdquo: 8221,
  bdquo: 8222,
  dagger: 8224,
  Dagger: 8225,
  bull: 8226,
  hellip: 8230,
  permil: 8240,
  prime: 8242,
  Prime: 8243,
  lsaquo: 8249,
  rsaquo: 8250,
  oline: 8254,
  frasl: 8260,
  euro: 8364,
  trade: 8482,
  larr: 8592,
  uarr: 8593,
  rarr: 8594,
  darr: 8595,
  harr: 8596,
  lArr: 8656,
  uArr: 8657,
  rArr: 8658,
  dArr: 8659,
  hArr: 8660,
  forall: 8704,
  part: 8706,
  exist: 8707,
  empty: 8709,
  nabla: 8711,
  isin: 8712,
  notin: 8713,
  ni: 8715,
  prod: 8719,
  sum: 8721,
  minus: 8722,
  lowast: 8727,
  radic: 8730,
  prop: 8733,
  infin: 8734,
  ang: 8736,
  and: 8743,
  or: 8744,
  cap: 8745,
  cup: 8746,
  int: 8747,
  there4: 8756,
  sim: 8764,
  cong: 8773,
  asymp: 8776,
  ne: 8800,
  equiv: 8801,
  le: 8804,
  ge: 8805,
  sub: 8834,
  sup: 8835,
  nsub: 8836,
  sube: 8838,
  supe: 8839,
  oplus: 8853,
  otimes: 8855,
  perp: 8869,
  sdot: 8901,
  loz: 9674,
  spades: 9824,
  clubs: 9827,
  hearts: 9829,
  diams: 9830,
  check: 10003,
  nbsp: 160,
};

const NAMED_ENTITIES: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  const add = (names: string, first: number) => {
    names.split(' ').forEach((name, index) => {
      if (name !== '_') map.set(name, String.fromCodePoint(first + index));
    });
  };
  add(LATIN1, 0xa0);
  add(GREEK_UPPER, 913);
  add(GREEK_LOWER, 945);
  for (const [name, code] of Object.entries(OTHER_ENTITIES)) map.set(name, String.fromCodePoint(code));
  return map;
})();

/** WHATWG HTML §13.2.5.80: numeric references 0x80–0x9F are read as Windows-1252. */
const WINDOWS_1252: Readonly<Record<number, number>> = {
  128: 0x20ac,
  130: 0x201a,
  131: 0x0192,
  132: 0x201e,
  133: 0x2026,
  134: 0x2020,
  135: 0x2021,
  136: 0x02c6,
  137: 0x2030,
  138: 0x0160,
  139: 0x2039,
  140: 0x0152,
  142: 0x017d,
  145: 0x2018,
  146: 0x2019,
  147: 0x201c,
  148: 0x201d,
  149: 0x2022,
  150: 0x2013,
  151: 0x2014,
  152: 0x02dc,
  153: 0x2122,
  154: 0x0161,
  155: 0x203a,
  156: 0x0153,
  158: 0x017e,
  159: 0x0178,
};

/** Decodes HTML character references (numeric, and the HTML 4 named set); unknown names stay as written. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(
    /&(?:#(\d{1,8});?|#[xX]([0-9a-fA-F]{1,7});?|([A-Za-z][A-Za-z0-9]{1,31});)/g,
    (match, decimal, hex, name) => {
      if (name !== undefined) return NAMED_ENTITIES.get(name) ?? match;
      let code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex, 16);
      code = WINDOWS_1252[code] ?? code;
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
      return String.fromCodePoint(code);
    },
  );
}
