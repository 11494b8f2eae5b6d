/**
 * Generates the widget demo page, public/demo/docs/index.html (served at /demo/docs/): two pages of
 * the Redux docs the demo `docs` collection is built from (corpora/docs-redux), rendered as static
 * HTML, with the widget embedded as any docs site would:
 *
 *   node --conditions=source --import tsx scripts/demo-page.ts
 *
 * The Markdown conversion is deliberately small (headings, paragraphs, lists, code blocks, inline
 * code, emphasis, links): enough for these pages. Everything is escaped; no inline script or style,
 * so the server's CSP (script-src 'self', style-src 'self') holds.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { docsPagePath, pageUrl } from '@saksi/engine';

const root = path.resolve(import.meta.dirname, '..');
const docs = path.join(root, 'corpora/docs-redux/docs');
const out = path.join(root, 'packages/web/public/demo/docs');

/** The pages shown, in order. */
export const DEMO_PAGES = ['introduction/CoreConcepts.md', 'api/Store.md'];
/** Where the Redux site publishes these pages (the demo `docs` collection's base URL). */
const SITE = 'https://redux.js.org/';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Inline Markdown → HTML (input is raw Markdown; output escaped). */
export function inline(source: string): string {
  const text = source.replace(/<\/?sup>/g, '').replace(/&nbsp;/g, ' ');
  const parts: string[] = [];
  const pattern = /`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)|\*\*([^*]+)\*\*|(?<![\w*])[_*]([^_*]+)[_*](?![\w*])/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    parts.push(escapeHtml(text.slice(last, match.index)));
    if (match[1] !== undefined) parts.push(`<code>${escapeHtml(match[1])}</code>`);
    else if (match[2] !== undefined) {
      const label = inline(match[2]);
      const href = match[3] ?? '';
      parts.push(
        /^https:\/\//.test(href) ? `<a href="${escapeHtml(href)}" rel="noopener">${label}</a>` : label,
      );
    } else if (match[4] !== undefined) parts.push(`<strong>${inline(match[4])}</strong>`);
    else if (match[5] !== undefined) parts.push(`<em>${inline(match[5])}</em>`);
    last = (match.index ?? 0) + match[0].length;
  }
  parts.push(escapeHtml(text.slice(last)));
  return parts.join('');
}

/** Markdown (Docusaurus flavour, front matter and admonition markers dropped) → HTML. */
export function markdownToHtml(markdown: string): { title: string; id: string; html: string } {
  let text = markdown.replace(/\r\n?/g, '\n');
  let title = '';
  let id = '';
  const front = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (front) {
    title = /^title:\s*(.+)$/m.exec(front[1] ?? '')?.[1]?.trim() ?? '';
    id = /^id:\s*(.+)$/m.exec(front[1] ?? '')?.[1]?.trim() ?? '';
    text = text.slice(front[0].length);
  }
  const lines = text.split('\n');
  const html: string[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | undefined;
  const flush = () => {
    if (paragraph.length > 0) html.push(`<p>${inline(paragraph.join(' '))}</p>`);
    paragraph = [];
    if (list) {
      const tag = list.ordered ? 'ol' : 'ul';
      html.push(`<${tag}>${list.items.map((item) => `<li>${inline(item)}</li>`).join('')}</${tag}>`);
      list = undefined;
    }
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = /^```(\w*)/.exec(line);
    if (fence) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !(lines[i] ?? '').startsWith('```'); i++) code.push(lines[i] ?? '');
      html.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^\s*(?:([-*])|\d+\.)\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const level = Math.min(6, (heading[1]?.length ?? 1) + 1);
      html.push(`<h${level}>${inline(heading[2] ?? '')}</h${level}>`);
    } else if (/^\s*$/.test(line) || /^:::/.test(line) || /^&nbsp;$/.test(line.trim())) flush();
    else if (/^---+$/.test(line.trim())) {
      flush();
      html.push('<hr>');
    } else if (item) {
      if (paragraph.length > 0) flush();
      const ordered = item[1] === undefined;
      if (list && list.ordered !== ordered) flush();
      list ??= { ordered, items: [] };
      list.items.push(item[2] ?? '');
    } else if (list && /^\s+\S/.test(line)) {
      const items = list.items;
      items[items.length - 1] = `${items[items.length - 1] ?? ''} ${line.trim()}`;
    } else {
      if (list) flush();
      paragraph.push(line.trim());
    }
  }
  flush();
  return { title, id, html: html.join('\n') };
}

function page(): string {
  const articles = DEMO_PAGES.map((file) => {
    const { title, id, html } = markdownToHtml(readFileSync(path.join(docs, file), 'utf8'));
    // The path links to the page on the Redux site, as the widget's citations do.
    const page = docsPagePath({ filename: file, id });
    const name = `docs/${escapeHtml(file)}`;
    const where =
      page === undefined
        ? name
        : `<a href="${escapeHtml(pageUrl(SITE, page))}" rel="noopener noreferrer" target="_blank">${name}</a>`;
    return `<article aria-label="${escapeHtml(title || file)}">\n<p class="path">${where}</p>\n${html}\n</article>`;
  });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Redux docs — Saksi widget demo</title>
<link rel="stylesheet" href="demo.css">
</head>
<body>
<header class="site"><p class="brand">Redux docs <span>(demo copy)</span></p>
<p class="note">A static page with the Saksi widget embedded: press “Ask”, or select a sentence and press “Ask about this”.
Text: the Redux documentation, MIT licence (corpora/docs-redux/SOURCE.txt).</p></header>
<main>
${articles.join('\n')}
</main>
<script src="/widget.js" data-collection="docs" data-lang="en" async></script>
</body>
</html>
`;
}

const CSS = `body { margin: 0; font: 17px/1.6 Georgia, "Times New Roman", serif; color: #1d2126; background: #fbfbf8; }
header.site { background: #764abc; color: #fff; padding: 14px 24px; }
header.site .brand { font: 700 22px/1.2 system-ui, sans-serif; margin: 0; }
header.site .brand span { font-weight: 400; font-size: 15px; }
header.site .note { margin: 6px 0 0; font: 14px/1.4 system-ui, sans-serif; }
main { max-width: 760px; margin: 0 auto; padding: 8px 20px 120px; }
article { border-bottom: 1px solid #d8d8d0; padding-bottom: 24px; }
.path { font: 13px system-ui, sans-serif; color: #5a5f66; margin-top: 28px; }
h2 { font-family: system-ui, sans-serif; font-size: 30px; margin: 8px 0 14px; }
h3, h4, h5 { font-family: system-ui, sans-serif; }
pre { background: #272b33; color: #f0f0f0; padding: 12px; white-space: pre-wrap; overflow-wrap: anywhere; border-radius: 6px; font-size: 14px; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.9em; }
p code, li code { background: #ecebf3; padding: 1px 4px; border-radius: 4px; }
a { color: #5b2e9e; }
`;

mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, 'index.html'), page());
writeFileSync(path.join(out, 'demo.css'), CSS);
console.log(`Wrote ${path.relative(root, path.join(out, 'index.html'))} and demo.css`);
