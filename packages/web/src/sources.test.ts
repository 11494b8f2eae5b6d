import { describe, expect, it } from 'vitest';
import { citationHref, explorerTxUrl, formatCitation, highlightSegments } from './sources.js';

describe('formatCitation', () => {
  it('names the Pasal and ayat, or the section path and page', () => {
    expect(formatCitation({ document_title: 'UU 22/2009', pasal: '287', ayat: '2' })).toBe(
      'UU 22/2009, Pasal 287 ayat (2)',
    );
    expect(
      formatCitation({ document_title: 'Redux', section_path: ['Core', 'Reducers'], page: 3 }, 'halaman'),
    ).toBe('Redux, Core › Reducers, halaman 3');
  });
});

describe('citationHref', () => {
  it('links only to absolute http(s) URLs', () => {
    expect(citationHref({ url: 'https://redux.js.org/api/store#getstate' })).toBe(
      'https://redux.js.org/api/store#getstate',
    );
    expect(citationHref({})).toBeUndefined();
    for (const url of [
      'javascript:alert(1)',
      'vbscript:x',
      'data:text/html,x',
      'ftp://x.org/',
      '/x',
      '//x.org/',
    ])
      expect(citationHref({ url }), url).toBeUndefined();
  });
});

describe('highlightSegments', () => {
  it('marks code-point ranges (not UTF-16 units) and merges overlaps', () => {
    const text = '😀 Setiap orang 😀 wajib';
    const segments = highlightSegments(text, [
      { start: 2, end: 8 },
      { start: 7, end: 14 },
      { start: 17, end: 22 },
    ]);
    expect(segments).toEqual([
      { text: '😀 ', marked: false },
      { text: 'Setiap orang', marked: true },
      { text: ' 😀 ', marked: false },
      { text: 'wajib', marked: true },
    ]);
  });

  it('clips ranges to the text and cuts long context with an ellipsis', () => {
    const text = 'a'.repeat(50) + 'SPAN' + 'b'.repeat(50);
    const segments = highlightSegments(
      text,
      [
        { start: 50, end: 54 },
        { start: 500, end: 600 },
      ],
      10,
    );
    expect(segments).toEqual([
      { text: '…', marked: false },
      { text: 'a'.repeat(10), marked: false },
      { text: 'SPAN', marked: true },
      { text: 'b'.repeat(10), marked: false },
      { text: '…', marked: false },
    ]);
  });
});

describe('explorerTxUrl', () => {
  const tx = `0x${'ab'.repeat(32)}`;
  it('links Base and Base Sepolia transactions to their explorer, nothing else', () => {
    expect(explorerTxUrl(8453, tx)).toBe(`https://basescan.org/tx/${tx}`);
    expect(explorerTxUrl(84532, tx)).toBe(`https://sepolia.basescan.org/tx/${tx}`);
    expect(explorerTxUrl(31337, tx)).toBeUndefined();
    // A hostile hash never becomes part of a link.
    expect(explorerTxUrl(8453, `${tx}/../x`)).toBeUndefined();
    expect(explorerTxUrl(8453, 'javascript:alert(1)')).toBeUndefined();
  });
});
