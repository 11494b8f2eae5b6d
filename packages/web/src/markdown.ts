/**
 * A tiny, safe Markdown renderer for answers. It builds React elements only — text always goes in
 * as text, so `<script>` or any other HTML in an answer shows as the characters it is. Supported:
 * paragraphs, line breaks, `**bold**`, `-`/`*`/`1.` lists, `[n]` citation markers, and links whose
 * address is http(s) (anything else, and every image, stays plain text: nothing loads).
 * Bidirectional override and isolate controls are removed so text cannot be visually reordered.
 */
import { createElement, Fragment, type ReactNode } from 'react';

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'bold'; children: Inline[] }
  | { kind: 'cite'; n: number }
  | { kind: 'link'; href: string; children: Inline[] }
  | { kind: 'break' };

export type Block =
  | { kind: 'paragraph'; children: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] };

/** U+202A–U+202E (embeddings, overrides) and U+2066–U+2069 (isolates): text could be shown reversed. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
const LIST_ITEM = /^\s{0,3}(?:[-*+]|(\d{1,9})[.)])\s+(.*)$/;

/** Removes the bidirectional formatting controls from `text`. */
export function stripBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}

/** Parses answer Markdown into blocks (pure data, no HTML). */
export function parseMarkdown(source: string): Block[] {
  const lines = stripBidiControls(source).replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | undefined;
  const flushParagraph = () => {
    if (paragraph.length > 0) {
      const children: Inline[] = [];
      paragraph.forEach((line, index) => {
        if (index > 0) children.push({ kind: 'break' });
        children.push(...parseInline(line));
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
        items: list.items.map((item) => parseInline(item)),
      });
      list = undefined;
    }
  };
  for (const raw of lines) {
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

/** Inline syntax: `**bold**`, `[n]`, `[text](http…)`, `![alt](…)` (kept as text). */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let plain = '';
  const flush = () => {
    if (plain !== '') out.push({ kind: 'text', text: plain });
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    if (rest.startsWith('**')) {
      const close = text.indexOf('**', i + 2);
      if (close > i + 2) {
        flush();
        out.push({ kind: 'bold', children: parseInline(text.slice(i + 2, close)) });
        i = close + 2;
        continue;
      }
    }
    const cite = /^\[(\d{1,3})\]/.exec(rest);
    if (cite) {
      flush();
      out.push({ kind: 'cite', n: Number(cite[1]) });
      i += cite[0].length;
      continue;
    }
    const image = /^!\[([^\]]*)\]\(((?:[^()\s]|\([^()\s]*\))*)\)/.exec(rest);
    if (image) {
      plain += image[1] ?? '';
      i += image[0].length;
      continue;
    }
    const link = /^\[([^\]]+)\]\(((?:[^()\s]|\([^()\s]*\))+)\)/.exec(rest);
    if (link) {
      const href = safeHref(link[2] ?? '');
      if (href !== undefined) {
        flush();
        out.push({ kind: 'link', href, children: parseInline(link[1] ?? '') });
      } else {
        plain += link[1] ?? '';
      }
      i += link[0].length;
      continue;
    }
    plain += text.charAt(i);
    i++;
  }
  flush();
  return out;
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

function renderInline(nodes: Inline[], keyPrefix: string): ReactNode[] {
  return nodes.map((node, index) => {
    const key = `${keyPrefix}.${index}`;
    switch (node.kind) {
      case 'text':
        return createElement(Fragment, { key }, node.text);
      case 'break':
        return createElement('br', { key });
      case 'bold':
        return createElement('strong', { key }, ...renderInline(node.children, key));
      case 'cite':
        return createElement('sup', { key, className: 'cite', 'data-cite': node.n }, `[${node.n}]`);
      case 'link':
        return createElement(
          'a',
          { key, href: node.href, rel: 'noopener noreferrer nofollow', target: '_blank' },
          ...renderInline(node.children, key),
        );
      default:
        return null;
    }
  });
}

/** React elements for an answer's Markdown. */
export function renderMarkdown(source: string): ReactNode {
  return createElement(
    Fragment,
    null,
    ...parseMarkdown(source).map((block, index) => {
      const key = `b${index}`;
      if (block.kind === 'paragraph')
        return createElement('p', { key }, ...renderInline(block.children, key));
      return createElement(
        block.ordered ? 'ol' : 'ul',
        { key },
        ...block.items.map((item, n) =>
          createElement('li', { key: `${key}.${n}` }, ...renderInline(item, `${key}.${n}`)),
        ),
      );
    }),
  );
}
