import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { hostileBytes, hostileCorpus } from '@saksi/test-support/hostile';
import { describe, expect, it } from 'vitest';
import { ingestCodeOfAsync } from '../../test/ingest-codes.js';
import { MAX_DOCX_XML_BYTES, parseDocx } from './docx.js';
import { parseDocument } from './parse.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const samples = path.resolve(repoRoot, '../shared/data/files/docx-samples');

const read = (name: string) => new Uint8Array(readFileSync(path.join(samples, name)));

/** Documents in the sample set without any text: images only, empty, or empty tables. */
const WITHOUT_TEXT = new Set([
  'mammoth/empty.docx',
  'mammoth/external-picture.docx',
  'mammoth/tiny-picture.docx',
  'mammoth/tiny-picture-target-base-relative.docx',
  'python-docx/having-images.docx',
  'python-docx/tbl-having-tables.docx',
]);

describe('parseDocx on the sample documents', () => {
  const files = ['mammoth', 'python-docx'].flatMap((folder) =>
    readdirSync(path.join(samples, folder))
      .filter((name) => name.endsWith('.docx'))
      .map((name) => `${folder}/${name}`),
  );

  it('reads every sample, or reports NO_TEXT for those without text', async () => {
    expect(files).toHaveLength(26);
    for (const file of files) {
      if (WITHOUT_TEXT.has(file)) {
        expect(await ingestCodeOfAsync(() => parseDocx(read(file), file)), file).toBe('NO_TEXT');
        continue;
      }
      const document = await parseDocx(read(file), file);
      expect(document.mime, file).toBe(
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      );
      expect(document.blocks.length, file).toBeGreaterThan(0);
      expect(document.title.length, file).toBeGreaterThan(0);
    }
  });

  it('keeps tables as HTML with their cells', async () => {
    const document = await parseDocx(read('mammoth/tables.docx'), 'tables.docx');
    expect(document.blocks.map((block) => block.kind)).toEqual(['paragraph', 'table', 'paragraph']);
    const table = document.blocks[1];
    expect(table?.html).toBe(
      '<table><tbody><tr><td>Top left</td><td>Top right</td></tr><tr><td>Bottom left</td><td>Bottom right</td></tr></tbody></table>',
    );
    expect(table?.text).toBe('Top left | Top right\nBottom left | Bottom right');
    const merged = await parseDocx(read('python-docx/tbl-cell-access.docx'), 'tbl-cell-access.docx');
    const html = merged.blocks.map((block) => block.html ?? '').join('');
    expect(html).toContain('<td colspan="2">4</td>');
    expect(html).toContain('<td rowspan="2">5</td>');
  });

  it('maps Word heading styles to headings and takes the title from the first one', async () => {
    const document = await parseDocx(
      read('python-docx/par-known-paragraphs.docx'),
      'par-known-paragraphs.docx',
    );
    expect(document.title).toBe('Heading Paragraph');
    expect(document.blocks.map((block) => [block.kind, block.level, block.text, block.section_path])).toEqual(
      [
        ['heading', 1, 'Heading Paragraph', []],
        ['paragraph', undefined, 'Normal paragraph', ['Heading Paragraph']],
      ],
    );
    expect((await parseDocx(read('mammoth/single-paragraph.docx'), 'dir/single-paragraph.docx')).title).toBe(
      'single-paragraph',
    );
  });

  it('reads lists, footnotes (without back-links) and strict OOXML', async () => {
    const list = await parseDocx(read('mammoth/simple-list.docx'), 'simple-list.docx');
    expect(list.blocks).toEqual([{ kind: 'list', text: '- Apple\n- Banana', section_path: [] }]);
    const footnotes = await parseDocx(read('mammoth/footnotes.docx'), 'footnotes.docx');
    expect(footnotes.blocks.map((block) => block.text)).toEqual([
      'Ouch[1].[2]',
      '1. A tachyon walks into a bar.\n2. Fin.',
    ]);
    const strict = await parseDocx(read('mammoth/strict-format.docx'), 'strict-format.docx');
    expect(strict.blocks.map((block) => block.text)).toEqual(['Test']);
  });
});

describe('parseDocx on broken input', () => {
  it('reports truncated archives, random bytes and non-Word ZIPs as MALFORMED_FILE', async () => {
    const docx = read('mammoth/tables.docx');
    expect(await ingestCodeOfAsync(() => parseDocx(docx.subarray(0, 2000), 'cut.docx'))).toBe(
      'MALFORMED_FILE',
    );
    const random = new Uint8Array(5000).map((_, index) => (index * 2654435761) % 256);
    expect(await ingestCodeOfAsync(() => parseDocx(random, 'random.docx'))).toBe('MALFORMED_FILE');
    const odt = readFileSync(path.join(samples, 'python-docx/test.docx'));
    const renamed = new Uint8Array(odt);
    // Rename word/document.xml in the central directory: still a ZIP, no longer a Word document.
    const text = Buffer.from(renamed).toString('latin1');
    for (
      let index = text.indexOf('word/document.xml');
      index >= 0;
      index = text.indexOf('word/document.xml', index + 1)
    ) {
      renamed[index] = 'x'.charCodeAt(0);
    }
    expect(await ingestCodeOfAsync(() => parseDocx(renamed, 'renamed.docx'))).toBe('MALFORMED_FILE');
  });

  it('is reached through parseDocument by magic bytes, whatever the name', async () => {
    const document = await parseDocument(read('mammoth/tables.docx'), { filename: 'download.bin' });
    expect(document.blocks.some((block) => block.kind === 'table')).toBe(true);
    expect(
      await ingestCodeOfAsync(() => parseDocument(read('mammoth/empty.docx'), { filename: 'empty.docx' })),
    ).toBe('NO_TEXT');
  });

  it('refuses more document XML than it may parse before inflating any of it', async () => {
    const corpus = hostileCorpus();
    const bomb = (id: string) => hostileBytes(corpus.find((hostile) => hostile.id === id)!);
    // 400 MB of XML, under the archive's limit: refused up front, not after the parser ran out of memory.
    expect(MAX_DOCX_XML_BYTES).toBeLessThan(400 * 1024 * 1024);
    expect(await ingestCodeOfAsync(() => parseDocx(bomb('docx-bomb-400mb'), 'bomb.docx'))).toBe(
      'FILE_TOO_LARGE',
    );
  });
});
