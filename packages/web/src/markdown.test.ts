import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { parseMarkdown, renderMarkdown, safeHref, stripBidiControls } from './markdown.js';

const html = (source: string) => renderToStaticMarkup(renderMarkdown(source));

describe('renderMarkdown', () => {
  it('renders paragraphs, line breaks, bold, lists and citation markers', () => {
    expect(
      html('Menerobos **lampu merah** dilarang [1].\nDendanya ada [2]\n\n- satu\n- dua\n\n1. a\n2. b'),
    ).toBe(
      '<p>Menerobos <strong>lampu merah</strong> dilarang <sup class="cite" data-cite="1">[1]</sup>.<br/>' +
        'Dendanya ada <sup class="cite" data-cite="2">[2]</sup></p>' +
        '<ul><li>satu</li><li>dua</li></ul><ol><li>a</li><li>b</li></ol>',
    );
  });

  it('never turns HTML in the answer into markup', () => {
    const out = html('<script>alert(1)</script> <img src=x onerror=alert(1)> **<b>x</b>**');
    expect(out).not.toContain('<script');
    expect(out).not.toContain('<img');
    expect(out).not.toContain('<b>');
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('renders http(s) links safely and anything else as text', () => {
    expect(html('[UU](https://jdih.example/uu?a=1&b=2)')).toBe(
      '<p><a href="https://jdih.example/uu?a=1&amp;b=2" rel="noopener noreferrer nofollow" target="_blank">UU</a></p>',
    );
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<script>',
      '/relative',
      'vbscript:x',
    ]) {
      const out = html(`[klik](${href})`);
      expect(out).toBe('<p>klik</p>');
    }
  });

  it('never loads images: they become their alt text', () => {
    const out = html('![tracking pixel](https://evil.example/p.png) ![x](javascript:alert(1))');
    expect(out).not.toContain('<img');
    expect(out).not.toContain('evil.example');
    expect(out).toBe('<p>tracking pixel x</p>');
  });

  it('removes bidirectional override and isolate controls', () => {
    const spoof = 'Denda \u202Egnirts\u202C paling \u2066banyak\u2069 Rp500.000';
    expect(stripBidiControls(spoof)).toBe('Denda gnirts paling banyak Rp500.000');
    expect(html(spoof)).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
  });

  it('keeps an unmatched ** and non-numeric brackets as text', () => {
    expect(parseMarkdown('a ** b [x] [1234]')).toEqual([
      { kind: 'paragraph', children: [{ kind: 'text', text: 'a ** b [x] [1234]' }] },
    ]);
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
