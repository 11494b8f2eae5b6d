import { describe, expect, it } from 'vitest';
import {
  chatBody,
  cleanSelection,
  MAX_SELECTION,
  paragraphs,
  readOptions,
  sourcesOf,
  summarize,
  verifyUrl,
  WidgetError,
} from './core.js';
import { STRINGS } from './strings.js';

const script = (src: string, dataset: Record<string, string> = {}) => ({ src, dataset });

function configCode(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof WidgetError) return error.code;
    throw error;
  }
  return '';
}

describe('widget options', () => {
  it('takes the server origin from the script src and the collection from data-collection', () => {
    const options = readOptions(
      script('https://saksi.example:8443/widget.js?v=1', { collection: ' docs ' }),
      '',
      'en-US',
    );
    expect(options).toEqual({
      server: 'https://saksi.example:8443',
      collection: 'docs',
      lang: 'en',
      position: 'bottom-right',
    });
  });

  it('language: data-lang, then <html lang>, then the browser, then English', () => {
    const src = 'http://127.0.0.1:3000/widget.js';
    expect(readOptions(script(src, { collection: 'x', lang: 'id' }), 'en', 'en').lang).toBe('id');
    expect(readOptions(script(src, { collection: 'x' }), 'id-ID', 'en').lang).toBe('id');
    expect(readOptions(script(src, { collection: 'x' }), '', 'id').lang).toBe('id');
    expect(readOptions(script(src, { collection: 'x', lang: 'fr' }), 'de', 'fr').lang).toBe('en');
    expect(readOptions(script(src, { collection: 'x', position: 'bottom-left' }), '', '').position).toBe(
      'bottom-left',
    );
  });

  it('refuses a missing collection or a non-http src with WIDGET_CONFIG', () => {
    expect(configCode(() => readOptions(script('https://a.example/widget.js'), '', ''))).toBe(
      'WIDGET_CONFIG',
    );
    expect(configCode(() => readOptions(script('javascript:alert(1)', { collection: 'x' }), '', ''))).toBe(
      'WIDGET_CONFIG',
    );
    expect(configCode(() => readOptions(script('', { collection: 'x' }), '', ''))).toBe('WIDGET_CONFIG');
  });
});

describe('widget requests', () => {
  it('full mode sends the question only; selection mode adds the selection and the page', () => {
    expect(chatBody({ collection: 'docs' }, '  What is a store? ', {})).toEqual({
      collection: 'docs',
      question: 'What is a store?',
    });
    expect(
      chatBody({ collection: 'docs' }, 'Why?', {
        selection: ' A store\n holds  the state. ',
        pageUrl: 'https://docs.example/x',
        sessionId: 'ses_1',
      }),
    ).toEqual({
      collection: 'docs',
      question: 'Why?',
      session_id: 'ses_1',
      mode: 'selection',
      selection: 'A store holds the state.',
      page_url: 'https://docs.example/x',
    });
    expect(chatBody({ collection: 'docs' }, 'Why?', { selection: '   ' }).mode).toBeUndefined();
  });

  it('cuts the selection at 2,000 characters without splitting a surrogate pair', () => {
    const long = `${'a'.repeat(MAX_SELECTION - 1)}😀tail`;
    const cleaned = cleanSelection(long);
    expect(Array.from(cleaned)).toHaveLength(MAX_SELECTION);
    expect(cleaned.endsWith('😀')).toBe(true);
  });
});

describe('widget rendering data', () => {
  it('splits the answer into paragraphs and removes bidi controls', () => {
    expect(paragraphs('One\nline.\n\n\nTwo \u202Eevil\u202C.\r\n\r\n')).toEqual(['One\nline.', 'Two evil.']);
  });

  it('reads the sources of a retrieval event, skipping malformed ones', () => {
    expect(
      sourcesOf({
        results: [
          {
            chunk_id: 'c1',
            snippet: 'The store',
            citation: { document_title: 'Store', section_path: ['Store', 'dispatch(action)'] },
          },
          { chunk_id: 'c2', citation: { document_title: 'UU 22/2009', pasal: '291' } },
          { snippet: 'no id' },
          'junk',
        ],
      }),
    ).toEqual([
      { chunkId: 'c1', title: 'Store › dispatch(action)', snippet: 'The store' },
      { chunkId: 'c2', title: 'UU 22/2009 › Pasal 291', snippet: '' },
    ]);
    expect(sourcesOf({})).toEqual([]);
  });

  it('links a source to its page only when the citation URL is absolute http(s)', () => {
    const withUrl = (url: unknown) =>
      sourcesOf({ results: [{ chunk_id: 'c1', snippet: '', citation: { document_title: 'Store', url } }] })[0]
        ?.url;
    expect(withUrl('https://redux.js.org/api/store#getstate')).toBe(
      'https://redux.js.org/api/store#getstate',
    );
    expect(withUrl('http://127.0.0.1:8080/single#single')).toBe('http://127.0.0.1:8080/single#single');
    for (const hostile of [
      'javascript:alert(1)',
      ' javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,<b>x</b>',
      'ftp://example.org/x',
      '/relative/page',
      '//evil.example/x',
      'not a url',
      42,
      undefined,
    ])
      expect(withUrl(hostile), String(hostile)).toBeUndefined();
  });

  it('summarizes the render decisions: verified / blocked / total', () => {
    const bundle = {
      certificate: {
        claims: [
          { render: { rendered: true } },
          { render: { rendered: false } },
          { render: { rendered: true } },
        ],
      },
    };
    expect(summarize(bundle)).toEqual({ verified: 2, blocked: 1, total: 3 });
    expect(summarize(null)).toEqual({ verified: 0, blocked: 0, total: 0 });
    expect(STRINGS.en.summary(2, 1, 3)).toMatch(/^2\D+\/ 1\D+\/ 3\D+$/);
    expect(STRINGS.id.summary(2, 1, 3)).toMatch(/^2\D+\/ 1\D+\/ 3\D+$/);
  });

  it('links only certificate ids the server could have issued', () => {
    expect(verifyUrl('https://s.example', 'cert_AbC-1')).toBe('https://s.example/verify/cert_AbC-1');
    expect(verifyUrl('https://s.example', '../admin')).toBeUndefined();
    expect(verifyUrl('https://s.example', 42)).toBeUndefined();
  });

  it('has every string in both languages', () => {
    expect(Object.keys(STRINGS.id).sort()).toEqual(Object.keys(STRINGS.en).sort());
  });
});
