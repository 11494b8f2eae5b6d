import { describe, expect, it } from 'vitest';
import { explicitHeadingId, HeadingSlugger, slugify } from './heading-anchors.js';
import { parseMarkdown } from './markdown.js';

describe('slugify (GitHub / Docusaurus heading slugs)', () => {
  it.each([
    ['Reducers', 'reducers'],
    ['Getting Started with Redux', 'getting-started-with-redux'],
    ["What's Included", 'whats-included'],
    ['What is Redux Toolkit?', 'what-is-redux-toolkit'],
    ['`createStore(reducer, [preloadedState], [enhancer])`', 'createstorereducer-preloadedstate-enhancer'],
    ['getState()', 'getstate'],
    ['Step 1: Install', 'step-1-install'],
    ['A  B', 'a--b'],
    ['snake_case and kebab-case', 'snake_case-and-kebab-case'],
    ['Rp 2.233 triliun (100%)', 'rp-2233-triliun-100'],
    ['Café déjà vu', 'café-déjà-vu'],
    ['Ketentuan Umum — Pasal 1', 'ketentuan-umum--pasal-1'],
    ['Emoji 🎉 party', 'emoji--party'],
    ['日本語の見出し', '日本語の見出し'],
    ['x² + y²', 'x--y'],
  ])('%j → %j', (text, slug) => {
    expect(slugify(text)).toBe(slug);
  });

  it('gives repeated headings -1, -2 in page order, as github-slugger does', () => {
    const slugger = new HeadingSlugger();
    expect(['Example', 'Example', 'Example', 'Example-1', 'Other'].map((text) => slugger.slug(text))).toEqual(
      ['example', 'example-1', 'example-2', 'example-1-1', 'other'],
    );
  });

  it('reads an explicit {#custom-id} at the end of a heading', () => {
    expect(explicitHeadingId('Installing Redux {#install}')).toEqual({
      text: 'Installing Redux',
      id: 'install',
    });
    expect(explicitHeadingId('Plain heading')).toEqual({ text: 'Plain heading' });
    expect(explicitHeadingId('Not {#an id} here')).toEqual({ text: 'Not {#an id} here' });
  });
});

describe('Markdown heading anchors', () => {
  const markdown = [
    '---',
    'title: Store',
    '---',
    '',
    '# Store',
    '',
    'A store holds the state tree.',
    '',
    '## Example',
    '',
    'First example.',
    '',
    '### Details {#first-details}',
    '',
    'Details of the first.',
    '',
    '## Example',
    '',
    'Second example.',
    '',
    'Setext Heading',
    '--------------',
    '',
    'Under the setext heading.',
    '',
    '## `getState()`',
    '',
    '```js',
    '# not a heading',
    '```',
  ].join('\n');

  it('gives each heading its slug (duplicates -1, custom ids kept) and each block the anchor it sits under', () => {
    const blocks = parseMarkdown(markdown, 'api/Store.md').blocks.map((block) => [
      block.kind,
      block.text.split('\n')[0],
      block.anchor,
    ]);
    expect(blocks).toEqual([
      ['heading', 'Store', 'store'],
      ['paragraph', 'A store holds the state tree.', 'store'],
      ['heading', 'Example', 'example'],
      ['paragraph', 'First example.', 'example'],
      ['heading', 'Details', 'first-details'],
      ['paragraph', 'Details of the first.', 'first-details'],
      ['heading', 'Example', 'example-1'],
      ['paragraph', 'Second example.', 'example-1'],
      ['heading', 'Setext Heading', 'setext-heading'],
      ['paragraph', 'Under the setext heading.', 'setext-heading'],
      ['heading', 'getState()', 'getstate'],
      ['code', '# not a heading', 'getstate'],
    ]);
  });

  it('leaves text before the first heading without an anchor', () => {
    const [first] = parseMarkdown('Intro text.\n\n# Title\n', 'intro.md').blocks;
    expect(first?.anchor).toBeUndefined();
  });
});
