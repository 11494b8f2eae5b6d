import { describe, expect, it } from 'vitest';
import { BlockBuilder, cleanText, normalizeBlocks, parseText } from './text.js';

describe('cleanText', () => {
  it('normalizes to NFC and LF, drops control characters and trailing spaces, trims', () => {
    expect(cleanText('  cafe\u0301 \r\nnext\u0007 line  \r\n\n\n\nend\t')).toBe('café\nnext line\n\nend');
    expect(cleanText('\tindented\tcode', 'code')).toBe('indented\tcode');
    expect(cleanText('a\tb')).toBe('a b');
  });
});

describe('BlockBuilder', () => {
  it('gives a heading the path of its parents and other blocks the open headings', () => {
    const builder = new BlockBuilder();
    builder.heading(1, 'Guide');
    builder.add('paragraph', 'intro');
    builder.heading(2, 'Install');
    builder.add('code', 'npm i', { language: 'sh' });
    builder.heading(3, 'Linux');
    builder.heading(2, 'Use');
    builder.add('paragraph', 'text');
    builder.heading(1, 'Appendix');
    builder.add('paragraph', '   ');
    expect(builder.blocks.map((block) => [block.kind, block.text, block.section_path.join('/')])).toEqual([
      ['heading', 'Guide', ''],
      ['paragraph', 'intro', 'Guide'],
      ['heading', 'Install', 'Guide'],
      ['code', 'npm i', 'Guide/Install'],
      ['heading', 'Linux', 'Guide/Install'],
      ['heading', 'Use', 'Guide'],
      ['paragraph', 'text', 'Guide/Use'],
      ['heading', 'Appendix', ''],
    ]);
    expect(builder.blocks[3]?.language).toBe('sh');
    expect(builder.firstHeading(2)).toBe('Install');
  });

  it('clamps heading levels and ignores empty headings', () => {
    const builder = new BlockBuilder();
    builder.heading(9, 'Deep');
    builder.heading(0, 'Top');
    builder.heading(2, '  ');
    expect(builder.blocks.map((block) => block.level)).toEqual([6, 1]);
  });
});

describe('normalizeBlocks', () => {
  it('re-cleans text and drops blocks left empty', () => {
    const blocks = normalizeBlocks([
      { kind: 'paragraph', text: ' e\u0301\r\n', section_path: ['Cafe\u0301'] },
      { kind: 'paragraph', text: '\u0000 ', section_path: [] },
    ]);
    expect(blocks).toEqual([{ kind: 'paragraph', text: 'é', section_path: ['Café'] }]);
  });
});

describe('parseText', () => {
  it('splits paragraphs on blank lines and keeps line breaks inside them', () => {
    const document = parseText(
      '\ufeffFirst line\r\nsecond line\r\n\r\n  \r\nNext  \n\n\n',
      'notes/readme.txt',
    );
    expect(document.title).toBe('readme');
    expect(document.mime).toBe('text/plain');
    expect(document.blocks.map((block) => block.text)).toEqual(['First line\nsecond line', 'Next']);
    expect(
      document.blocks.every((block) => block.kind === 'paragraph' && block.section_path.length === 0),
    ).toBe(true);
  });
});
