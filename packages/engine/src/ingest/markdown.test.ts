import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestCodeOf } from '../../test/ingest-codes.js';
import type { Block } from '../types.js';
import { MAX_FRONTMATTER_CHARS, parseMarkdown, stripInline } from './markdown.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const reduxCorpus = path.resolve(repoRoot, '../shared/data/corpora/docs-redux');
const reduxDocs = path.join(reduxCorpus, 'docs');
const gazeboDocs = path.resolve(repoRoot, '../shared/data/corpora/docs-gazebo-ros2/jetty');

function markdownFiles(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.mdx?$/.test(name))
    .map((name) => path.join(directory, name))
    .sort();
}

const JSX_OR_MDX_LEFTOVER =
  /<\/?(?:DetailedExplanation|FundamentalsWarning|LiteYouTubeEmbed|iframe|Tabs|TabItem)\b|^import .* from ['"]|^:::|\{\/\*/m;

const summary = (blocks: Block[]) =>
  blocks.map((block) => `${block.kind}${block.level ?? ''}: ${block.text}`);

describe('frontmatter and title', () => {
  it('keeps scalar frontmatter values and takes the title from it', () => {
    const document = parseMarkdown(
      '---\ntitle: Writing Tests\nsidebar_position: 3\ndraft: false\ntags: [a, b]\nnested: {x: 1}\n---\n\n# Heading One\n\nBody.\n',
      'docs/writing-tests.mdx',
    );
    expect(document.title).toBe('Writing Tests');
    expect(document.mime).toBe('text/markdown');
    expect(document.metadata).toEqual({ title: 'Writing Tests', sidebar_position: 3, draft: false });
    expect(summary(document.blocks)).toEqual(['heading1: Heading One', 'paragraph: Body.']);
  });

  it('falls back to the first H1, then to the file name', () => {
    expect(parseMarkdown('Intro\n\n## Two\n\n# The Title\n', 'a.md').title).toBe('The Title');
    expect(parseMarkdown('Just text.\n', 'dir/some-file.md').title).toBe('some-file');
  });

  it('rejects malformed frontmatter', () => {
    expect(ingestCodeOf(() => parseMarkdown('---\ntitle: [unclosed\n---\nbody\n', 'a.md'))).toBe(
      'MALFORMED_FILE',
    );
    expect(ingestCodeOf(() => parseMarkdown('---\ntitle: a\ntitle: b\n---\nbody\n', 'a.md'))).toBe(
      'MALFORMED_FILE',
    );
    expect(ingestCodeOf(() => parseMarkdown('---\n- just\n- a list\n---\nbody\n', 'a.md'))).toBe(
      'MALFORMED_FILE',
    );
  });

  it('refuses frontmatter over its limit with QUOTA_EXCEEDED, reading one at the limit', () => {
    const keys = (count: number) => Array.from({ length: count }, (_, i) => `k${i}: "nilai ${i}"`).join('\n');
    const over = `---\ntitle: besar\n${keys(6_000)}\n---\n\nIsi.\n`;
    expect(over.length).toBeGreaterThan(MAX_FRONTMATTER_CHARS);
    expect(ingestCodeOf(() => parseMarkdown(over, 'besar.md'))).toBe('QUOTA_EXCEEDED');
    const under = `---\ntitle: kecil\n${keys(3_000)}\n---\n\nIsi.\n`;
    expect(under.length).toBeLessThan(MAX_FRONTMATTER_CHARS);
    expect(parseMarkdown(under, 'kecil.md').metadata['k2999']).toBe('nilai 2999');
  });

  it('treats an unterminated leading --- as a thematic break, not frontmatter', () => {
    const document = parseMarkdown('---\nNo frontmatter here.\n', 'a.md');
    expect(summary(document.blocks)).toEqual(['paragraph: No frontmatter here.']);
  });
});

describe('headings and section paths', () => {
  it('reads ATX and setext headings and keeps parent paths', () => {
    const document = parseMarkdown(
      [
        'Guide',
        '=====',
        '',
        'Intro text.',
        '',
        '## Install ##',
        '',
        '### Linux {#linux-anchor}',
        'apt text',
        '',
        'Usage',
        '-----',
        '',
        '#NotAHeading',
        '',
        '####### seven hashes is text',
      ].join('\n'),
      'guide.md',
    );
    expect(document.blocks.map((block) => [block.kind, block.level, block.text, block.section_path])).toEqual(
      [
        ['heading', 1, 'Guide', []],
        ['paragraph', undefined, 'Intro text.', ['Guide']],
        ['heading', 2, 'Install', ['Guide']],
        ['heading', 3, 'Linux', ['Guide', 'Install']],
        ['paragraph', undefined, 'apt text', ['Guide', 'Install', 'Linux']],
        ['heading', 2, 'Usage', ['Guide']],
        ['paragraph', undefined, '#NotAHeading', ['Guide', 'Usage']],
        ['paragraph', undefined, '####### seven hashes is text', ['Guide', 'Usage']],
      ],
    );
    expect(document.title).toBe('Guide');
  });
});

describe('code blocks', () => {
  it('reads ``` and ~~~ fences with their language and never finds headings inside', () => {
    const document = parseMarkdown(
      [
        '# Title',
        '',
        '```python title="example.py"',
        '# a comment, not a heading',
        'print("hi")',
        '```',
        '',
        '~~~',
        '## also code',
        '~~~',
        '',
        '````md',
        '```js',
        'nested()',
        '```',
        '````',
        '',
        '  ```sh',
        '  npm install',
        '  ```',
      ].join('\n'),
      'a.md',
    );
    expect(document.blocks.filter((block) => block.kind === 'heading')).toHaveLength(1);
    const code = document.blocks.filter((block) => block.kind === 'code');
    expect(code.map((block) => [block.language, block.text])).toEqual([
      ['python', '# a comment, not a heading\nprint("hi")'],
      [undefined, '## also code'],
      ['md', '```js\nnested()\n```'],
      ['sh', 'npm install'],
    ]);
    expect(code.every((block) => block.section_path.join() === 'Title')).toBe(true);
  });

  it('runs an unclosed fence to the end of the document', () => {
    const document = parseMarkdown('Text\n\n```\n# still code\n\nmore', 'a.md');
    expect(summary(document.blocks)).toEqual(['paragraph: Text', 'code: # still code\n\nmore']);
  });
});

describe('lists, quotes and paragraphs', () => {
  it('makes one list block of consecutive items, with nesting and continuations', () => {
    const document = parseMarkdown(
      [
        'Before:',
        '- one',
        '- two',
        '  continued',
        '  - nested *item*',
        '* three',
        '',
        '1. first',
        '2) second',
        '',
        'After.',
      ].join('\n'),
      'a.md',
    );
    expect(summary(document.blocks)).toEqual([
      'paragraph: Before:',
      'list: - one\n- two continued\n  - nested item\n- three\n1. first\n2) second',
      'paragraph: After.',
    ]);
  });

  it('keeps line breaks inside paragraphs, strips quote markers and drops thematic breaks', () => {
    const document = parseMarkdown('line one\nline two\n\n> quoted\n> text\n\n***\n\nlast', 'a.md');
    expect(summary(document.blocks)).toEqual([
      'paragraph: line one\nline two',
      'paragraph: quoted\ntext',
      'paragraph: last',
    ]);
  });
});

describe('tables', () => {
  it('turns GFM pipe tables into escaped HTML and pipe-separated text', () => {
    const document = parseMarkdown(
      [
        '## Data',
        '',
        '| Name | Value |',
        '| :--- | ---: |',
        '| a < b & c | `x \\| y` |',
        '| **bold** | [link](http://x) |',
        'short',
        '',
        'after',
      ].join('\n'),
      'a.md',
    );
    const table = document.blocks.find((block) => block.kind === 'table');
    expect(table?.html).toBe(
      '<table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody>' +
        '<tr><td>a &lt; b &amp; c</td><td>x | y</td></tr><tr><td>bold</td><td>link</td></tr></tbody></table>',
    );
    expect(table?.text).toBe('Name | Value\na < b & c | x | y\nbold | link');
    expect(table?.section_path).toEqual(['Data']);
    expect(summary(document.blocks).slice(-2)).toEqual(['paragraph: short', 'paragraph: after']);
  });
});

describe('inline markup', () => {
  it('keeps link, image and code text and drops markup', () => {
    expect(stripInline('See [the **docs**](https://x.dev/a_(b) "T") and ![alt text](i.png){w=5}.')).toBe(
      'See the docs and alt text.',
    );
    // A target far past the bounded patterns' reach (a 3 MB data: image) still goes, linearly.
    const image = `![peta jalan](data:image/png;base64,${'iVBORw0KGgo+/'.repeat(250_000)})`;
    expect(stripInline(`Lihat ${image} dan [pasal](${'x'.repeat(5_000)}).`)).toBe(
      'Lihat peta jalan dan pasal.',
    );
    expect(stripInline('Use `a_b*c*` with _care_ and ~~not~~ snake_case_name &amp; \\*stars\\*')).toBe(
      'Use a_b*c* with care and not snake_case_name & *stars*',
    );
    expect(stripInline('press <kbd>Ctrl</kbd> + <https://example.com>')).toBe(
      'press Ctrl + https://example.com',
    );
  });

  it('drops HTML comments, also across lines', () => {
    const document = parseMarkdown('A <!-- hidden --> visible\n\n<!--\n# not a heading\n-->\nB\n', 'a.md');
    expect(summary(document.blocks)).toEqual(['paragraph: A  visible', 'paragraph: B']);
  });
});

describe('MDX and Docusaurus', () => {
  it('drops import/export statements and JSX-only lines but keeps the text inside', () => {
    const source = [
      '---',
      'title: Tabs',
      '---',
      "import Tabs from '@theme/Tabs';",
      'import {',
      '  TabItem,',
      "} from '@theme/TabItem'",
      'export const meta = {',
      "  a: { b: 'c' },",
      '}',
      '',
      '<FundamentalsWarning />',
      '',
      '<Tabs groupId="lang" values={[{ label: "JS", value: "js" }]}>',
      '<TabItem',
      '  value="js"',
      '  label="JavaScript">',
      '',
      'Text inside the tab.',
      '',
      '</TabItem>',
      '</Tabs>',
      '',
      '<DetailedExplanation title="Detailed Explanation: Why?">',
      '',
      'Explained.',
      '',
      '</DetailedExplanation>',
      '',
      '{/* a JSX comment */}',
      '',
      ':::tip What You Will Learn',
      '',
      '- item',
      '',
      ':::',
      '',
      '<div class="x"><b>Inline</b> text</div>',
    ].join('\n');
    const document = parseMarkdown(source, 'tabs.mdx');
    expect(summary(document.blocks)).toEqual([
      'paragraph: Text inside the tab.',
      'paragraph: Detailed Explanation: Why?',
      'paragraph: Explained.',
      'paragraph: What You Will Learn',
      'list: - item',
      'paragraph: Inline text',
    ]);
  });

  it('reads MyST directive fences as Markdown and drops target lines', () => {
    const document = parseMarkdown(
      '{#top}\n\n# T\n\n```{note}\nA *note*.\n```\n\n(label)=\n## Two\n',
      'a.md',
    );
    expect(summary(document.blocks)).toEqual(['heading1: T', 'paragraph: A note.', 'heading2: Two']);
  });
});

describe('hostile Markdown', () => {
  it('stays linear on inputs that make naive regexes backtrack (several MB)', { timeout: 20_000 }, () => {
    const inputs = [
      '['.repeat(1_000_000),
      '**a '.repeat(300_000),
      '``a`'.repeat(100_000),
      `# a${' '.repeat(1_000_000)}b`,
      `|\n${' '.repeat(1_000_000)}x`,
      `a${' '.repeat(2_000_000)}b`,
      `import a${' '.repeat(5_000)}x\n`.repeat(200),
      `- - -${' '.repeat(9_000)}x\n`.repeat(200),
      '<Tabs\n'.repeat(50_000),
      '<a title="'.repeat(100_000),
      `[a](${'('.repeat(500_000)}`,
    ];
    for (const input of inputs) {
      const document = parseMarkdown(input, 'hostile.md');
      expect(document.blocks.length).toBeGreaterThan(0);
    }
  });

  it('lets an unterminated comment hide the rest, as a browser would', () => {
    expect(summary(parseMarkdown('kept\n\n<!-- open\n# hidden\n\nhidden too', 'a.md').blocks)).toEqual([
      'paragraph: kept',
    ]);
  });
});

describe('real documentation corpora', () => {
  it('parses all 87 Markdown/MDX files of the Redux corpus (86 pages + LICENSE.md), each with a title and blocks', () => {
    const files = markdownFiles(reduxCorpus);
    expect(files).toHaveLength(87);
    for (const file of files) {
      const document = parseMarkdown(readFileSync(file, 'utf8'), file);
      expect(document.title.length, file).toBeGreaterThan(0);
      expect(document.blocks.length, file).toBeGreaterThan(0);
      for (const block of document.blocks) {
        expect(block.text, file).toBe(block.text.trim());
        expect(block.text.length, file).toBeGreaterThan(0);
        if (block.kind !== 'code') expect(block.text, file).not.toMatch(JSX_OR_MDX_LEFTOVER);
      }
    }
  });

  it('reads the headings, paragraphs and code of the Redux concepts tutorial', () => {
    const file = path.join(reduxDocs, 'tutorials/fundamentals/part-2-concepts-data-flow.md');
    const document = parseMarkdown(readFileSync(file, 'utf8'), file);
    expect(document.title).toBe('Redux Fundamentals, Part 2: Concepts and Data Flow');
    const headings = document.blocks.filter((block) => block.kind === 'heading');
    expect(headings.slice(0, 4).map((block) => [block.level, block.text])).toEqual([
      [2, 'Introduction'],
      [2, 'Background Concepts'],
      [3, 'State Management'],
      [3, 'Immutability'],
    ]);
    const reducers = headings.find((block) => block.text === 'Reducers');
    expect(reducers?.section_path).toEqual(['Redux Terminology']);
    const definition = document.blocks.find((block) => block.text.startsWith('A reducer is a function'));
    expect(definition?.text).toContain('receives the current state and an action object');
    expect(definition?.section_path).toEqual(['Redux Terminology', 'Reducers']);
    const code = document.blocks.find(
      (block) => block.kind === 'code' && block.text.includes('function counterReducer'),
    );
    expect(code?.language).toBe('js');
    expect(code?.text).toContain('// Check to see if the reducer cares about this action');
    expect(code?.section_path).toEqual(['Redux Terminology', 'Reducers']);
  });

  it('parses the Gazebo docs (no frontmatter) with titles from their H1', () => {
    const files = markdownFiles(gazeboDocs);
    expect(files).toHaveLength(30);
    for (const file of files) {
      const document = parseMarkdown(readFileSync(file, 'utf8'), file);
      expect(document.metadata).toEqual({});
      expect(document.blocks.length, file).toBeGreaterThan(0);
      expect(document.title, file).toBe(
        document.blocks.find((block) => block.kind === 'heading' && block.level === 1)?.text,
      );
    }
    const bridge = parseMarkdown(
      readFileSync(path.join(gazeboDocs, 'ros2_integration.md'), 'utf8'),
      'ros2_integration.md',
    );
    expect(bridge.title).toBe('Use ROS 2 to interact with Gazebo');
    const command = bridge.blocks.find(
      (block) => block.kind === 'code' && block.text.startsWith('ros2 run ros_gz_bridge'),
    );
    expect(command?.section_path).toEqual([
      'Use ROS 2 to interact with Gazebo',
      'Launching the bridge manually',
    ]);
    const comparison = parseMarkdown(
      readFileSync(path.join(gazeboDocs, 'comparison.md'), 'utf8'),
      'comparison.md',
    );
    const sensors = comparison.blocks.find((block) => block.kind === 'table');
    expect(sensors?.html).toContain('<th>Sensor</th>');
    expect(sensors?.text).toContain('Air pressure | ✕ | ✓');
  });
});
