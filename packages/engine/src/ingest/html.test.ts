import { describe, expect, it } from 'vitest';
import type { Block } from '../types.js';
import { decodeEntities, escapeHtml, extractHtml, parseHtml } from './html.js';

const summary = (blocks: Block[]) =>
  blocks.map((block) => `${block.kind}${block.level ?? ''}: ${block.text}`);
const everything = (blocks: Block[]) =>
  blocks.map((block) => `${block.text}\n${block.html ?? ''}`).join('\n');

describe('main content', () => {
  const page = `<!DOCTYPE html>
<html lang="id"><head><title> Budget &amp; Law </title>
<meta name="description" content="A test page">
<style>p { color: red }</style><script>document.write("<p>evil</p>")</script></head>
<body>
<header><h1>Site name</h1><nav><ul><li>Home</li></ul></nav></header>
<aside>Related links</aside>
<main>
  <h1>Annual Budget</h1>
  <p>Intro <b>bold</b> and <a href="/x">link</a>.</p>
  <h2>Revenue</h2>
  <p>Line one<br>line two</p>
  <ul><li>Tax<ul><li>Income</li><li>VAT</li></ul></li><li>Non-tax</li></ul>
  <ol start="3"><li>third</li><li>fourth</li></ol>
  <pre><code class="language-js">const a = 1 &lt; 2;
  indented()</code></pre>
  <form><input value="secret"><button>Send</button></form>
  <noscript>Enable JS</noscript>
  <h3>Details</h3>
  <p hidden>hidden text</p>
  <div aria-hidden="true">decor</div>
  <p>After &eacute;l&egrave;ve &#8364;5 &#x1F600;&nbsp;end</p>
</main>
<footer>Copyright</footer>
</body></html>`;

  it('keeps only main content, with headings, paragraphs, lists and code', () => {
    const document = parseHtml(page, 'page.html');
    expect(document.title).toBe('Budget & Law');
    expect(document.mime).toBe('text/html');
    expect(document.metadata).toEqual({ lang: 'id', description: 'A test page' });
    expect(summary(document.blocks)).toEqual([
      'heading1: Annual Budget',
      'paragraph: Intro bold and link.',
      'heading2: Revenue',
      'paragraph: Line one\nline two',
      'list: - Tax\n  - Income\n  - VAT\n- Non-tax',
      'list: 3. third\n4. fourth',
      'code: const a = 1 < 2;\n  indented()',
      'heading3: Details',
      'paragraph: After élève €5 😀 end',
    ]);
    const code = document.blocks.find((block) => block.kind === 'code');
    expect(code?.language).toBe('js');
    expect(document.blocks.find((block) => block.text === 'Details')?.section_path).toEqual([
      'Annual Budget',
      'Revenue',
    ]);
    expect(everything(document.blocks)).not.toMatch(
      /evil|Site name|Home|Related|Copyright|secret|Send|Enable JS|hidden text|decor|color/,
    );
  });

  it('falls back to <article>, then to the body; keeps an article header', () => {
    const article = parseHtml(
      '<body><nav>menu</nav><article><header><h1>Post</h1></header><p>Body</p></article><p>outside</p></body>',
      'post.html',
    );
    expect(summary(article.blocks)).toEqual(['heading1: Post', 'paragraph: Body']);
    expect(article.title).toBe('Post');
    const body = parseHtml(
      '<header>Top</header><h2>Only</h2><p>text</p><footer>bottom</footer>',
      'dir/plain-page.html',
    );
    expect(summary(body.blocks)).toEqual(['heading2: Only', 'paragraph: text']);
    expect(body.title).toBe('plain-page');
  });

  it('reads the whole body when <main> holds no text', () => {
    const document = parseHtml('<main></main><p>Real text</p><script>var m = "<main>";</script>', 'a.html');
    expect(summary(document.blocks)).toEqual(['paragraph: Real text']);
  });
});

describe('tables', () => {
  it('keeps tables as sanitized HTML (structure, colspan/rowspan, escaped text) plus text', () => {
    const document = parseHtml(
      `<h2>Allocations</h2>
      <table class="x" onclick="alert(1)" style="color:red">
        <caption>Table 1</caption>
        <thead><tr><th scope="col">Region</th><th colspan="2">Amount &amp; note</th></tr></thead>
        <tbody>
          <tr><td rowspan="2" onmouseover="x()">Aceh</td><td>1.930.152.204</td><td>a &lt; b<script>alert("x")</script></td>
          <tr><td>580.525.044<td><b>bold</b> <a href="javascript:alert(1)">link</a>
          <tr><td colspan="abc">bad span</td><td colspan="99999">huge</td></tr>
        </tbody>
      </table>`,
      'a.html',
    );
    const table = document.blocks.find((block) => block.kind === 'table');
    expect(table?.html).toBe(
      '<table><thead><tr><th>Region</th><th colspan="2">Amount &amp; note</th></tr></thead><tbody>' +
        '<tr><td rowspan="2">Aceh</td><td>1.930.152.204</td><td>a &lt; b</td></tr>' +
        '<tr><td>580.525.044</td><td>bold link</td></tr>' +
        '<tr><td>bad span</td><td colspan="1000">huge</td></tr></tbody></table>',
    );
    expect(table?.text).toBe(
      'Region | Amount & note\nAceh | 1.930.152.204 | a < b\n580.525.044 | bold link\nbad span | huge',
    );
    expect(table?.section_path).toEqual(['Allocations']);
    expect(summary(document.blocks)).toContain('paragraph: Table 1');
  });

  it('flattens nested tables into their cell and drops tables without text', () => {
    const document = parseHtml(
      '<table><tr><td>outer<table><tr><td>inner</td></tr></table>after</td><td>b</td></tr></table>' +
        '<table><tr><td> </td></tr></table><p>end</p>',
      'a.html',
    );
    expect(summary(document.blocks)).toEqual(['table: outer inner after | b', 'paragraph: end']);
  });
});

describe('hostile HTML', () => {
  it('never lets script content through, whatever it contains', () => {
    const document = parseHtml(
      '<p>before</p><script>var s = "</p><h1>evil</h1>"; if (a < b) {}</script><p>after</p>' +
        '<script/>alert("self-closing")</script><p>x</p>' +
        '<SCRIPT type="text/javascript">alert("upper")</SCRIPT >' +
        '<style>body{}</style><p>tail</p>',
      'a.html',
    );
    expect(summary(document.blocks)).toEqual([
      'paragraph: before',
      'paragraph: after',
      'paragraph: x',
      'paragraph: tail',
    ]);
    expect(everything(document.blocks)).not.toMatch(/evil|alert|body\{\}/);
  });

  it('drops everything after an unterminated script or comment', () => {
    expect(summary(parseHtml('<p>ok</p><script>never closed <p>lost</p>', 'a.html').blocks)).toEqual([
      'paragraph: ok',
    ]);
    expect(summary(parseHtml('<p>ok</p><!-- never closed <p>lost</p>', 'a.html').blocks)).toEqual([
      'paragraph: ok',
    ]);
  });

  it('survives unclosed tags, stray end tags and broken attributes', () => {
    const document = parseHtml(
      '<div><p>one<p>two<ul><li>a<li>b</ul></span></div></div></td><h2>Head<p>para</b><p title="unterminated>last',
      'a.html',
    );
    expect(summary(document.blocks)).toEqual([
      'paragraph: one',
      'paragraph: two',
      'list: - a\n- b',
      // As in browsers, <p> inside <h2> stays in the heading; the tag cut off at the end is dropped.
      'heading2: Head para',
    ]);
    expect(summary(parseHtml('a < b > c && d', 'a.html').blocks)).toEqual(['paragraph: a < b > c && d']);
  });

  it('handles 5 MB of nested elements in bounded time', () => {
    const depth = 1_000_000;
    const nested = `${'<div>'.repeat(depth)}deep text${'</div>'.repeat(depth / 2)}`;
    expect(nested.length).toBeGreaterThan(5_000_000);
    expect(summary(parseHtml(nested, 'deep.html').blocks)).toEqual(['paragraph: deep text']);
    const items = `<ul>${'<li>item'.repeat(200_000)}</ul>`;
    expect(parseHtml(items, 'items.html').blocks[0]?.text.split('\n')).toHaveLength(200_000);
    const cells = `<table>${'<tr><td>c<td>d'.repeat(100_000)}`;
    expect(parseHtml(cells, 'cells.html').blocks[0]?.kind).toBe('table');
    const spans = `${'<span>'.repeat(300_000)}${'</b>'.repeat(300_000)}<p>end</p>`;
    expect(summary(parseHtml(spans, 'spans.html').blocks)).toEqual(['paragraph: end']);
  });

  it('returns no blocks for a page that is all chrome', () => {
    expect(extractHtml('<nav>menu</nav><script>x()</script><footer>f</footer>').blocks).toEqual([]);
  });
});

describe('entities and escaping', () => {
  it('decodes named, decimal, hexadecimal and Windows-1252 references', () => {
    expect(
      decodeEntities(
        '&lt;&amp;&gt; &quot;&apos; &copy; &Alpha;&omega; &#233;&#xE9; &#150; &#0; &#xD800; &unknown; &amp',
      ),
    ).toBe('<&> "\' © Αω éé – \ufffd \ufffd &unknown; &amp');
  });

  it('escapes text for HTML', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
