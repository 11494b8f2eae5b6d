import { describe, expect, it } from 'vitest';
import { isEngineError } from '../errors.js';
import { citationUrl, docsPagePath, pageUrl, parseBaseFolder, parseBaseUrl } from './page-url.js';

describe('docsPagePath (Docusaurus rules)', () => {
  it.each<[string, { slug?: unknown; id?: unknown; baseFolder?: string }, string | undefined]>([
    // The stored path, extension dropped; case kept.
    ['intro.md', {}, 'intro'],
    ['usage/CodeSplitting.md', {}, 'usage/CodeSplitting'],
    ['guide/setup.mdx', {}, 'guide/setup'],
    ['guide/setup.markdown', {}, 'guide/setup'],
    // `id` replaces the file name, in the file's folder.
    ['api/Store.md', { id: 'store' }, 'api/store'],
    ['introduction/GettingStarted.md', { id: 'getting-started' }, 'introduction/getting-started'],
    ['api/Store.md', { id: '' }, 'api/Store'],
    ['api/Store.md', { id: 'a/b' }, 'api/Store'],
    ['api/Store.md', { id: 7 }, 'api/Store'],
    // `slug`: absolute from the docs root, or relative to the file's folder (it wins over `id`).
    ['tutorials/tutorials-index.md', { id: 'tutorials-index', slug: 'index' }, 'tutorials/index'],
    ['guide/intro.md', { slug: '/welcome' }, 'welcome'],
    ['guide/intro.md', { slug: '/', id: 'intro' }, ''],
    ['guide/deep/intro.md', { slug: '../overview' }, 'guide/overview'],
    ['guide/intro.md', { slug: '../../../../escape' }, 'escape'],
    ['guide/intro.md', { slug: 'start/' }, 'guide/start/'],
    ['guide/intro.md', { slug: '  ' }, 'guide/intro'],
    // A folder's index page: index, README or the folder's own name.
    ['usage/index.md', { id: 'index' }, 'usage/'],
    ['introduction/README.md', {}, 'introduction/'],
    ['style-guide/style-guide.md', { id: 'style-guide' }, 'style-guide/'],
    ['index.md', {}, ''],
    ['usage/index.md', { slug: 'all' }, 'usage/all'],
    // Number prefixes go; dates and versions stay.
    ['01-basics/02-install.md', {}, 'basics/install'],
    ['guides/2021-01-25-release.md', {}, 'guides/2021-01-25-release'],
    ['guides/1.2-notes.md', {}, 'guides/1.2-notes'],
    // Not pages: partials, other types, escapes.
    ['components/_Warning.mdx', {}, undefined],
    ['_partials/note.md', {}, undefined],
    ['manual.pdf', {}, undefined],
    ['page.html', {}, undefined],
    ['../outside.md', {}, undefined],
    ['', {}, undefined],
    // Windows separators read as folders.
    ['guide\\setup.md', {}, 'guide/setup'],
    // A base folder: paths under it, relative to it; others have no page.
    ['docs/api/Store.md', { id: 'store', baseFolder: 'docs' }, 'api/store'],
    ['docs/index.md', { baseFolder: 'docs' }, ''],
    ['website/blog/post.md', { baseFolder: 'docs' }, undefined],
    ['docs', { baseFolder: 'docs' }, undefined],
    ['docs/x/y.md', { baseFolder: 'docs/x' }, 'y'],
  ])('%j %j → %j', (filename, options, expected) => {
    expect(docsPagePath({ filename, ...options })).toBe(expected);
  });
});

describe('parseBaseUrl', () => {
  it.each([
    ['https://redux.js.org', 'https://redux.js.org/'],
    ['https://redux.js.org/', 'https://redux.js.org/'],
    ['  HTTPS://Docs.Example.com/guide  ', 'https://docs.example.com/guide/'],
    ['http://127.0.0.1:8080/docs/', 'http://127.0.0.1:8080/docs/'],
  ])('accepts %j as %j', (input, stored) => {
    expect(parseBaseUrl(input)).toBe(stored);
  });

  it.each([
    ['javascript:alert(1)'],
    ['JavaScript://%0aalert(1)'],
    ['java\tscript:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['ftp://example.org/docs/'],
    ['file:///etc/passwd'],
    ['//example.org/docs'],
    ['/docs/'],
    ['docs.example.com'],
    ['not a url at all'],
    ['https://'],
    ['https://exa mple.com/'],
    ['https://example.com/\ndocs'],
    ['https://user:secret@example.com/'],
    ['https://example.com/?q=1'],
    ['https://example.com/#top'],
    [`https://example.com/${'a'.repeat(2_100)}`],
    [''],
    [42],
    [null],
  ])('refuses %j with INVALID_BASE_URL', (input) => {
    let caught: unknown;
    try {
      parseBaseUrl(input);
    } catch (error) {
      caught = error;
    }
    expect(isEngineError(caught, 'INVALID_BASE_URL')).toBe(true);
  });
});

describe('parseBaseFolder', () => {
  it('normalizes folders and refuses escapes', () => {
    expect(parseBaseFolder('docs')).toBe('docs');
    expect(parseBaseFolder('/website/docs/')).toBe('website/docs');
    expect(parseBaseFolder('')).toBe('');
    for (const bad of ['../docs', 'docs/../..', './docs', 5]) {
      let caught: unknown;
      try {
        parseBaseFolder(bad);
      } catch (error) {
        caught = error;
      }
      expect(isEngineError(caught, 'INVALID_BASE_URL'), String(bad)).toBe(true);
    }
  });
});

describe('citationUrl', () => {
  const redux = { baseUrl: 'https://redux.js.org/', baseFolder: 'docs' };

  it('joins the page path and the anchor to the base URL', () => {
    expect(
      citationUrl({
        ...redux,
        filename: 'docs/tutorials/essentials/part-1-overview-concepts.md',
        id: 'part-1-overview-concepts',
        anchor: 'what-is-redux',
      }),
    ).toBe('https://redux.js.org/tutorials/essentials/part-1-overview-concepts#what-is-redux');
    expect(citationUrl({ ...redux, filename: 'docs/usage/index.md', id: 'index', anchor: null })).toBe(
      'https://redux.js.org/usage/',
    );
  });

  it('percent-encodes path segments and anchors', () => {
    expect(
      citationUrl({
        baseUrl: 'https://example.com/docs/',
        filename: 'Guía rápida/paso #1?.md',
        anchor: 'café',
      }),
    ).toBe('https://example.com/docs/Gu%C3%ADa%20r%C3%A1pida/paso%20%231%3F#caf%C3%A9');
  });

  it('is absent without a base URL, for a non-page, or with a stored base URL that is not http(s)', () => {
    expect(citationUrl({ baseUrl: undefined, filename: 'intro.md', anchor: 'x' })).toBeUndefined();
    expect(citationUrl({ baseUrl: null, filename: 'intro.md' })).toBeUndefined();
    expect(citationUrl({ baseUrl: 'https://example.com/', filename: 'manual.pdf' })).toBeUndefined();
    expect(citationUrl({ baseUrl: 'javascript:alert(1)//', filename: 'intro.md' })).toBeUndefined();
    expect(
      citationUrl({ baseUrl: 'https://example.com/', baseFolder: '../x', filename: 'intro.md' }),
    ).toBeUndefined();
  });

  it('never leaves the base URL, whatever the slug says', () => {
    for (const slug of ['//evil.example/x', '/../../x', 'javascript:alert(1)', 'https://evil.example/']) {
      const url = citationUrl({ baseUrl: 'https://docs.example.com/v2/', filename: 'a/b.md', slug });
      expect(url?.startsWith('https://docs.example.com/v2/')).toBe(true);
      expect(new URL(url!).host).toBe('docs.example.com');
    }
    expect(pageUrl('https://docs.example.com/', 'a/b')).toBe('https://docs.example.com/a/b');
  });
});
