import { describe, expect, it } from 'vitest';
import {
  type Block,
  escapeMarkdown,
  type Inline,
  type MarkdownOptions,
  parseMarkdown,
  safeHref,
  stripBidiControls,
} from './markdown.js';

/** The blocks written out as the chat renders them (text escaped), so a test reads like the page. */
const html = (source: string, options?: MarkdownOptions) => serialize(parseMarkdown(source, options));

function serialize(blocks: readonly Block[]): string {
  const text = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const inline = (nodes: readonly Inline[]): string => nodes.map(node).join('');
  const node = (item: Inline): string => {
    switch (item.kind) {
      case 'text':
        return text(item.text);
      case 'break':
        return '<br/>';
      case 'bold':
        return `<strong>${inline(item.children)}</strong>`;
      case 'code':
        return `<code>${text(item.text)}</code>`;
      case 'cite':
        return `<sup>[${item.n}]</sup>`;
    }
    return `<a href="${text(item.href)}">${inline(item.children)}</a>`;
  };
  return blocks
    .map((block) => {
      if (block.kind === 'paragraph') return `<p>${inline(block.children)}</p>`;
      if (block.kind === 'code') return `<pre><code>${text(block.text)}</code></pre>`;
      const tag = block.ordered ? 'ol' : 'ul';
      return `<${tag}>${block.items.map((item) => `<li>${inline(item)}</li>`).join('')}</${tag}>`;
    })
    .join('');
}

const EVIL = '[portal retribusi pasar resmi](https://evil.example/phish)';
/** Only links to this page are made. */
const cited = { allowLink: (href: string) => href.startsWith('https://redux.js.org/api/store') };

describe('parseMarkdown', () => {
  it('reads paragraphs, line breaks, bold, lists and citation markers', () => {
    expect(
      html('Menerobos **lampu merah** dilarang [1].\nDendanya ada [2]\n\n- satu\n- dua\n\n1. a\n2. b'),
    ).toBe(
      '<p>Menerobos <strong>lampu merah</strong> dilarang <sup>[1]</sup>.<br/>' +
        'Dendanya ada <sup>[2]</sup></p>' +
        '<ul><li>satu</li><li>dua</li></ul><ol><li>a</li><li>b</li></ol>',
    );
  });

  it('never turns HTML in the answer into markup', () => {
    const blocks = parseMarkdown('<script>alert(1)</script> <img src=x onerror=alert(1)> **<b>x</b>**');
    expect(blocks).toEqual([
      {
        kind: 'paragraph',
        children: [
          { kind: 'text', text: '<script>alert(1)</script> <img src=x onerror=alert(1)> ' },
          { kind: 'bold', children: [{ kind: 'text', text: '<b>x</b>' }] },
        ],
      },
    ]);
  });

  it('makes a link only where the policy allows it, and only to http(s)', () => {
    expect(html('[Store](https://redux.js.org/api/store#getstate)', cited)).toBe(
      '<p><a href="https://redux.js.org/api/store#getstate">Store</a></p>',
    );
    // No policy: no link at all.
    expect(html('[Store](https://redux.js.org/api/store)')).toBe(
      '<p>Store (https://redux.js.org/api/store)</p>',
    );
    const everything = { allowLink: () => true };
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,x',
      '/relative',
      'vbscript:x',
    ])
      expect(html(`[klik](${href})`, everything), href).toBe(`<p>klik (${href})</p>`);
  });

  it('shows any other link as its text and its full address, never text hiding a target', () => {
    const out = html(`Bayar di ${EVIL} sekarang.`, cited);
    expect(out).not.toContain('<a');
    expect(out).toBe('<p>Bayar di portal retribusi pasar resmi (https://evil.example/phish) sekarang.</p>');
    // A link whose text is its address is shown once.
    expect(html('[https://evil.example/](https://evil.example/)', cited)).toBe(
      '<p>https://evil.example/</p>',
    );
    // Text that looks like a cited address does not make another target acceptable.
    expect(html('[https://redux.js.org/api/store](https://evil.example/)', cited)).toBe(
      '<p>https://redux.js.org/api/store (https://evil.example/)</p>',
    );
  });

  it('never loads images: they become their text and address', () => {
    const out = html('![tracking pixel](https://evil.example/p.png) ![x](javascript:alert(1))', {
      allowLink: () => true,
    });
    expect(out).not.toContain('<img');
    expect(out).not.toContain('<a');
    expect(out).toBe('<p>tracking pixel (https://evil.example/p.png) x (javascript:alert(1))</p>');
  });

  it('keeps code spans literal: no link, marker or bold inside code', () => {
    expect(html(`Tulis \`${EVIL}\` dan \`\`[1] **x**\`\``, { allowLink: () => true })).toBe(
      `<p>Tulis <code>${EVIL}</code> dan <code>[1] **x**</code></p>`,
    );
    // A backtick without a partner is text.
    expect(html('a ` b [1]')).toBe('<p>a ` b <sup>[1]</sup></p>');
  });

  it('keeps the lines of a fenced code block, with nothing inside read as syntax', () => {
    const source = [
      'Buat store:',
      '```js',
      'const store = createStore(reducer)',
      '  // [1] **x** <b>',
      '',
      `  ${EVIL}`,
      '```',
      'Lalu [1].',
    ].join('\n');
    expect(parseMarkdown(source, { allowLink: () => true })).toEqual([
      { kind: 'paragraph', children: [{ kind: 'text', text: 'Buat store:' }] },
      {
        kind: 'code',
        language: 'js',
        text: `const store = createStore(reducer)\n  // [1] **x** <b>\n\n  ${EVIL}`,
      },
      {
        kind: 'paragraph',
        children: [
          { kind: 'text', text: 'Lalu ' },
          { kind: 'cite', n: 1 },
          { kind: 'text', text: '.' },
        ],
      },
    ]);
  });

  it('closes a fence only with the same character at least as long; an unclosed one runs to the end', () => {
    expect(parseMarkdown('~~~~\n```\n~~~\nstill code\n~~~~~\nafter')).toEqual([
      { kind: 'code', text: '```\n~~~\nstill code' },
      { kind: 'paragraph', children: [{ kind: 'text', text: 'after' }] },
    ]);
    expect(parseMarkdown('- item\n  ```\n  two\n    four')).toEqual([
      { kind: 'list', ordered: false, items: [[{ kind: 'text', text: 'item' }]] },
      { kind: 'code', text: 'two\n  four' },
    ]);
    // Backticks in the info string: not a fence, a code span.
    expect(html('``` a ` b')).toBe('<p>``` a ` b</p>');
  });

  it('reads backslash escapes as the character', () => {
    expect(html('\\[1\\] \\*\\*x\\*\\* \\[a\\](https://redux.js.org/api/store)', cited)).toBe(
      '<p>[1] **x** [a](https://redux.js.org/api/store)</p>',
    );
  });

  it('removes bidirectional override and isolate controls', () => {
    const spoof = 'Denda \u202Egnirts\u202C paling \u2066banyak\u2069 Rp500.000';
    expect(stripBidiControls(spoof)).toBe('Denda gnirts paling banyak Rp500.000');
    expect(html(spoof)).toBe('<p>Denda gnirts paling banyak Rp500.000</p>');
  });

  it('keeps an unmatched ** and non-numeric brackets as text', () => {
    expect(parseMarkdown('a ** b [x] [1234]')).toEqual([
      { kind: 'paragraph', children: [{ kind: 'text', text: 'a ** b [x] [1234]' }] },
    ]);
  });
});

describe('escapeMarkdown', () => {
  it('reads back as exactly the text: no marker, link, bold, code, heading or list', () => {
    const text = `# Judul\n- butir\n+ butir\n1. satu\n2) dua\n\`\`\`js\n~~~\n${EVIL} [1] **x** \`kode\` \\ akhir`;
    const blocks = parseMarkdown(escapeMarkdown(text), { allowLink: () => true });
    expect(blocks).toEqual([
      {
        kind: 'paragraph',
        children: text
          .split('\n')
          .flatMap((line, index) => [
            ...(index > 0 ? [{ kind: 'break' as const }] : []),
            { kind: 'text' as const, text: line },
          ]),
      },
    ]);
  });

  it('keeps the lists of a Markdown document as lists, and nothing else', () => {
    expect(html(escapeMarkdown(`- satu ${EVIL}\n- dua [1]\n* tiga`, { keepLists: true }), cited)).toBe(
      `<ul><li>satu ${EVIL}</li><li>dua [1]</li><li>tiga</li></ul>`,
    );
  });
});

describe('safeHref', () => {
  it('accepts only absolute http and https URLs', () => {
    expect(safeHref('https://example.com/a')).toBe('https://example.com/a');
    expect(safeHref('http://example.com')).toBe('http://example.com/');
    expect(safeHref(' javascript:alert(1)')).toBeUndefined();
    expect(safeHref('mailto:a@b.c')).toBeUndefined();
    expect(safeHref('example.com')).toBeUndefined();
  });
});
