/**
 * A tiny, safe Markdown reader for answers: it turns text into blocks of pure data (no HTML, no
 * DOM, no React), which the chat renders as React elements and the widget as DOM nodes — text
 * always goes in as text, so `<script>` or any other HTML shows as the characters it is.
 *
 * Supported: paragraphs, line breaks, `-`/`*`/`1.` lists, fenced code blocks (``` or ~~~; their lines
 * literal and kept), `**bold**`, code spans (their content is literal), backslash escapes, `[n]`
 * citation markers, and links. A link is made only when the
 * caller's link policy accepts its target (an absolute http(s) URL); every other link, and every
 * image, is shown as its text followed by its full address in parentheses: nothing loads and no text
 * hides a target. Bidirectional override and isolate controls are removed so text cannot be visually
 * reordered.
 *
 * The answer itself is not handed in raw: sources.ts `answerMarkdown` escapes every piece of document
 * text first, so only what the answer composer wrote is read as Markdown.
 */

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'bold'; children: Inline[] }
  | { kind: 'code'; text: string }
  | { kind: 'cite'; n: number }
  | { kind: 'link'; href: string; children: Inline[] }
  | { kind: 'break' };

export type Block =
  | { kind: 'paragraph'; children: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  /** A fenced code block: its lines exactly as written (nothing inside is syntax). */
  | { kind: 'code'; text: string; language?: string };

export interface MarkdownOptions {
  /**
   * Whether a link to `href` (an absolute http(s) URL, normalized by the URL parser) is made. Without
   * a policy no link is made: every link shows as text with its address.
   */
  allowLink?: (href: string) => boolean;
}

/** U+202A–U+202E (embeddings, overrides) and U+2066–U+2069 (isolates): text could be shown reversed. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
const LIST_ITEM = /^\s{0,3}(?:[-*+]|(\d{1,9})[.)])\s+(.*)$/;
/** CommonMark §4.5: an opening code fence — up to 3 spaces, 3+ backticks (info without one) or tildes. */
const FENCE = /^( {0,3})(`{3,}(?=[^`]*$)|~{3,})[ \t]*(\S*)/;
/** CommonMark §2.4: any ASCII punctuation character may be backslash-escaped. */
const ESCAPABLE = /[!-/:-@[-`{-~]/;

/** Removes the bidirectional formatting controls from `text`. */
export function stripBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}

/**
 * `text` as Markdown that reads back as exactly `text`: backslashes, backticks, `*`, `[`, `]` are
 * escaped everywhere, and what would start a heading, list or code fence at the start of a line (`#`,
 * `-`, `+`, `1.`, `1)`, `~`) too — unless `keepLists`, which leaves list markers at line starts alone
 * (for the text of a Markdown document, whose lists are lists). Line breaks stay line breaks.
 */
export function escapeMarkdown(text: string, options: { keepLists?: boolean } = {}): string {
  const keepLists = options.keepLists === true;
  return text
    .split('\n')
    .map((line) => {
      const list = keepLists ? /^[ \t]*(?:[-*+]|\d{1,9}[.)])(?=[ \t])/.exec(line) : null;
      const marker = list?.[0] ?? '';
      const rest = line
        .slice(marker.length)
        .replace(/[\\`*[\]]/g, '\\$&')
        .replace(/^([ \t]*)([-+#])/, list ? '$1$2' : '$1\\$2')
        // A line of ~~~ would open a code fence (a run of ``` is escaped above).
        .replace(/^([ \t]*)~/, '$1\\~')
        .replace(/^([ \t]*\d{1,9})([.)])/, list ? '$1$2' : '$1\\$2');
      return marker + rest;
    })
    .join('\n');
}

/** Parses answer Markdown into blocks (pure data, no HTML). */
export function parseMarkdown(source: string, options: MarkdownOptions = {}): Block[] {
  const lines = stripBidiControls(source).replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | undefined;
  const flushParagraph = () => {
    if (paragraph.length > 0) {
      const children: Inline[] = [];
      paragraph.forEach((line, index) => {
        if (index > 0) children.push({ kind: 'break' });
        children.push(...parseInline(line, options));
      });
      blocks.push({ kind: 'paragraph', children });
      paragraph = [];
    }
  };
  const flushList = () => {
    if (list) {
      blocks.push({
        kind: 'list',
        ordered: list.ordered,
        items: list.items.map((item) => parseInline(item, options)),
      });
      list = undefined;
    }
  };
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index] ?? '';
    const fence = FENCE.exec(raw);
    if (fence) {
      flushParagraph();
      flushList();
      const code = readFence(lines, index, fence);
      blocks.push(code.block);
      index = code.last;
      continue;
    }
    const line = raw.replace(/^\s{0,3}#{1,6}\s+/, '');
    if (line.trim() === '') {
      flushParagraph();
      flushList();
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      flushParagraph();
      const ordered = item[1] !== undefined;
      if (list && list.ordered !== ordered) flushList();
      list ??= { ordered, items: [] };
      list.items.push(item[2] ?? '');
      continue;
    }
    if (list && /^\s+\S/.test(raw)) {
      list.items[list.items.length - 1] += ` ${line.trim()}`;
      continue;
    }
    flushList();
    paragraph.push(line);
  }
  flushParagraph();
  flushList();
  return blocks;
}

/**
 * The fenced code block opened at `lines[start]`: up to the closing fence (the same character, at
 * least as long, up to 3 spaces before, nothing after) or the end of the text; the opening fence's
 * indentation is taken off each line (CommonMark §4.5). `last` is the index of its last line.
 */
function readFence(
  lines: readonly string[],
  start: number,
  fence: RegExpExecArray,
): { block: Block; last: number } {
  const indent = fence[1]?.length ?? 0;
  const marker = fence[2] ?? '```';
  const closing = new RegExp(`^ {0,3}${marker.charAt(0) === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
  const body: string[] = [];
  let index = start + 1;
  while (index < lines.length && !closing.test(lines[index] ?? '')) {
    const line = lines[index] ?? '';
    body.push(line.slice(Math.min(indent, /^ */.exec(line)?.[0].length ?? 0)));
    index++;
  }
  const language = fence[3] ?? '';
  return {
    block: { kind: 'code', text: body.join('\n'), ...(language !== '' ? { language } : {}) },
    last: Math.min(index, lines.length - 1),
  };
}

/**
 * Inline syntax: backslash escapes, code spans, `**bold**`, `[n]`, `[text](target)` (a link only
 * when the policy accepts it), `![alt](src)` (never an image). Inside code spans nothing is syntax.
 */
export function parseInline(text: string, options: MarkdownOptions = {}): Inline[] {
  return inlineNodes(text, options, false);
}

/** Longest link text and bold run looked for (characters), so hostile text stays near-linear. */
const MAX_LABEL = 300;
const MAX_BOLD = 2_000;
const CITE = /\[(\d{1,3})\]/y;
const LINK_TARGET = /\(((?:\\[!-/:-@[-`{-~]|[^()\s\\]|\((?:\\[!-/:-@[-`{-~]|[^()\s\\])*\))+)\)/y;

/** Inline nodes of `text`; inside a link's text (`inLink`) there are no markers and no nested links. */
function inlineNodes(text: string, options: MarkdownOptions, inLink: boolean): Inline[] {
  const out: Inline[] = [];
  let plain = '';
  const flush = () => {
    if (plain !== '') out.push({ kind: 'text', text: plain });
    plain = '';
  };
  let i = 0;
  /** The next `]` at or after `i` (-1: none): a `[` with none close enough is text, without a scan. */
  let nextClose = -2;
  while (i < text.length) {
    const character = text.charAt(i);
    if (character === '\\' && ESCAPABLE.test(text.charAt(i + 1))) {
      plain += text.charAt(i + 1);
      i += 2;
      continue;
    }
    if (character === '`') {
      const span = codeSpanAt(text, i);
      if (span.content !== undefined) {
        flush();
        out.push({ kind: 'code', text: span.content });
      } else plain += text.slice(i, span.end);
      i = span.end;
      continue;
    }
    if (text.startsWith('**', i)) {
      const close = findDelimiter(text, i + 2, '**', MAX_BOLD);
      if (close > i + 2) {
        flush();
        out.push({ kind: 'bold', children: inlineNodes(text.slice(i + 2, close), options, inLink) });
        i = close + 2;
        continue;
      }
    }
    if (!inLink && (character === '[' || (character === '!' && text.charAt(i + 1) === '['))) {
      const image = character === '!';
      CITE.lastIndex = i;
      const cite = image ? null : CITE.exec(text);
      if (cite) {
        flush();
        out.push({ kind: 'cite', n: Number(cite[1]) });
        i += cite[0].length;
        continue;
      }
      if (nextClose !== -1 && nextClose < i) nextClose = text.indexOf(']', i);
      const link =
        nextClose >= 0 && nextClose - i <= MAX_LABEL + 1 ? linkAt(text, image ? i + 1 : i) : undefined;
      if (link) {
        flush();
        const label = inlineNodes(link.label, options, true);
        const href = image ? undefined : safeHref(link.target);
        if (href !== undefined && options.allowLink?.(href) === true) {
          out.push({ kind: 'link', href, children: label });
        } else {
          // Not a link: the text and its full address, so no text hides where it points.
          out.push(...label);
          if (!sameAddress(link.label, link.target)) plain += ` (${link.target})`;
        }
        i = link.end;
        continue;
      }
    }
    plain += character;
    i++;
  }
  flush();
  return mergeText(out);
}

/** The link target when it is an absolute http(s) URL; otherwise undefined (shown as text). */
export function safeHref(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}

/** A link's text that already is its address (`[https://a.example/](https://a.example/)`). */
function sameAddress(label: string, target: string): boolean {
  const text = label.trim();
  if (text === target) return true;
  const href = safeHref(text);
  return href !== undefined && href === safeHref(target);
}

/**
 * CommonMark §6.1: a run of N backticks opens a code span that the next run of exactly N closes; the
 * content has line ends as spaces and one space stripped from each side when both are spaces. A run
 * without a partner is literal (`content` undefined, `end` after the run).
 */
function codeSpanAt(text: string, start: number, end = text.length): { content?: string; end: number } {
  let open = start;
  while (text.charAt(open) === '`') open++;
  const length = open - start;
  let at = open;
  while (at < end) {
    const next = text.indexOf('`', at);
    if (next < 0 || next >= end) break;
    let close = next;
    while (text.charAt(close) === '`') close++;
    if (close - next === length) {
      let content = text.slice(open, next).replace(/\n/g, ' ');
      if (/^ [\s\S]* $/.test(content) && content.trim() !== '') content = content.slice(1, -1);
      return { content, end: close };
    }
    at = close;
  }
  return { end: open };
}

/**
 * The index of the next `delimiter` at most `limit` characters after `from` that is neither escaped
 * nor inside a code span; -1 if none.
 */
function findDelimiter(text: string, from: number, delimiter: string, limit: number): number {
  const end = Math.min(text.length, from + limit);
  let i = from;
  while (i < end) {
    const character = text.charAt(i);
    if (character === '\\' && ESCAPABLE.test(text.charAt(i + 1))) i += 2;
    else if (character === '`') i = codeSpanAt(text, i, end).end;
    else if (text.startsWith(delimiter, i)) return i;
    else i++;
  }
  return -1;
}

/**
 * `[label](target)` at `start` (the `[`): the label up to the first unescaped `]` outside code
 * spans, then a target of non-space characters with balanced single-level parentheses and
 * backslash escapes resolved. Undefined when it is not one.
 */
function linkAt(text: string, start: number): { label: string; target: string; end: number } | undefined {
  const close = findDelimiter(text, start + 1, ']', MAX_LABEL);
  if (close < 0 || close === start + 1 || text.charAt(close + 1) !== '(') return undefined;
  LINK_TARGET.lastIndex = close + 1;
  const target = LINK_TARGET.exec(text);
  if (!target) return undefined;
  return {
    label: text.slice(start + 1, close),
    target: (target[1] ?? '').replace(/\\([!-/:-@[-`{-~])/g, '$1'),
    end: close + 1 + target[0].length,
  };
}

/** Adjacent text nodes joined into one. */
function mergeText(nodes: Inline[]): Inline[] {
  const merged: Inline[] = [];
  for (const node of nodes) {
    const last = merged[merged.length - 1];
    if (node.kind === 'text' && last?.kind === 'text') last.text += node.text;
    else if (node.kind !== 'text' || node.text !== '') merged.push(node);
  }
  return merged;
}
