import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  chatBody,
  citedSources,
  claimMarkers,
  cleanSelection,
  MAX_SELECTION,
  paragraphs,
  readOptions,
  sourcesOf,
  verifyUrl,
  WidgetError,
} from './core.js';
import { CHECK_WORDS, STRINGS } from './strings.js';

/** A real v1.1 bundle: a quote and a composed claim, both citing Pasal 287 ayat (2) with "[1]". */
const golden = JSON.parse(
  readFileSync(
    path.resolve(import.meta.dirname, '../../../proof/__fixtures__/golden-v1.1-bundle.json'),
    'utf8',
  ),
) as unknown;

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

  it('links only certificate ids the server could have issued', () => {
    expect(verifyUrl('https://s.example', 'cert_AbC-1')).toBe('https://s.example/verify/cert_AbC-1');
    expect(verifyUrl('https://s.example', '../admin')).toBeUndefined();
    expect(verifyUrl('https://s.example', 42)).toBeUndefined();
  });

  it('has every string in both languages, and different words in each', () => {
    expect(Object.keys(STRINGS.id).sort()).toEqual(Object.keys(STRINGS.en).sort());
    expect(Object.keys(CHECK_WORDS.id).sort()).toEqual(Object.keys(CHECK_WORDS.en).sort());
    for (const [key, value] of Object.entries(STRINGS.id)) {
      const english = STRINGS.en[key as keyof typeof STRINGS.en];
      const sample = (text: unknown) => (typeof text === 'function' ? String(text(2, 3)) : String(text));
      expect(sample(value).trim(), key).not.toBe('');
      // "Saksi" is a name; everything else reads differently in Indonesian.
      if (key !== 'saksi') expect(sample(value), key).not.toBe(sample(english));
    }
    for (const [id, words] of Object.entries(CHECK_WORDS.id))
      expect(words, id).not.toBe(CHECK_WORDS.en[id as keyof typeof CHECK_WORDS.en]);
  });
});

describe('cited sources and markers', () => {
  it('lists the cited chunk once, with its quotes, page and the marker pointing at it', () => {
    const { sources, targets } = citedSources(golden);
    expect(sources).toHaveLength(1);
    expect(sources[0]).toMatchObject({
      chunkId: 'uu22-p287-a2',
      title: 'Pasal 287 ayat (2) UU 22/2009',
      markers: [1],
    });
    expect(sources[0]?.snippet).toContain('Rp500.000,00');
    expect(sources[0]?.url).toBeUndefined();
    expect([...targets]).toEqual([[1, 0]]);
  });

  it('takes the markers of a claim from its composition, else from the markers ending its text', () => {
    expect(
      claimMarkers({ text: 'A sentence [1][2]', composition: { parts: [{ marker: 3 }, { fixed: 'x' }] } }),
    ).toEqual([3]);
    expect(claimMarkers({ text: 'A quote with [7] inside. [1] [2]' })).toEqual([1, 2]);
    expect(claimMarkers({ text: 'No marker' })).toEqual([]);
    expect(claimMarkers({ text: 42 })).toEqual([]);
  });

  it('points each marker of a claim at its chunks in order; the first claim to use a number decides', () => {
    const evidence = (chunk: string, text: string, url?: string) => ({
      chunk_id: chunk,
      span: { text },
      citation: { document_title: chunk.toUpperCase(), ...(url !== undefined ? { url } : {}) },
    });
    const bundle = {
      certificate: {
        claims: [
          { text: 'Second. [2]', answer_start: 20, evidence: [evidence('b', 'Second.')] },
          {
            text: 'First. [1][3]',
            answer_start: 0,
            evidence: [evidence('a', 'First.', 'https://docs.example/a#one'), evidence('c', 'Third.')],
          },
          { text: 'Again. [2]', answer_start: 40, evidence: [evidence('a', 'Again.')] },
          { text: 'Hostile [9]', answer_start: 60, evidence: 'not a list' },
          null,
        ],
      },
    };
    const { sources, targets } = citedSources(bundle);
    expect(sources.map((source) => [source.chunkId, source.markers, source.snippet])).toEqual([
      ['a', [1], 'First. … Again.'],
      ['c', [3], 'Third.'],
      ['b', [2], 'Second.'],
    ]);
    expect(sources[0]?.url).toBe('https://docs.example/a#one');
    expect(Object.fromEntries(targets)).toEqual({ 1: 0, 3: 1, 2: 2 });
    expect(citedSources(null)).toEqual({ sources: [], targets: new Map() });
    expect(citedSources({ certificate: { claims: 'x' } }).sources).toEqual([]);
  });

  it('never links a cited source to anything but an http(s) page', () => {
    const bundle = {
      certificate: {
        claims: [
          {
            text: 'x [1]',
            answer_start: 0,
            evidence: [
              {
                chunk_id: 'a',
                span: { text: 'x' },
                citation: { document_title: 'A', url: 'javascript:alert(1)' },
              },
            ],
          },
        ],
      },
    };
    expect(citedSources(bundle).sources[0]?.url).toBeUndefined();
  });
});
