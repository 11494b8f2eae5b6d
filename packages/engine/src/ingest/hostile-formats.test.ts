import { inflateRawSync } from 'node:zlib';
import {
  ascii,
  deflated,
  docxArchive,
  repeatedDeflate,
  textPdf,
  wordDocumentXml,
  wordParagraph,
  zipArchive,
} from '@saksi/test-support/hostile';
import { describe, expect, it } from 'vitest';
import { listZipEntries } from './detect.js';
import { parseDocx } from './docx.js';
import { parsePdf } from './pdf.js';

const text = (blocks: { text: string }[]) => blocks.map((block) => block.text).join('\n');

describe('the PDF writer', () => {
  it('writes PDFs that pdf.js opens, with their pages and text, compressed or not', async () => {
    for (const compress of [false, true]) {
      const bytes = textPdf(
        [['Halaman satu', 'Kalimat (dengan kurung) dan \\ garis miring.'], ['Halaman dua'], ['Halaman tiga']],
        { compress },
      );
      const parsed = await parsePdf(bytes, 'writer.pdf');
      expect(parsed.pages).toBe(3);
      expect(text(parsed.blocks)).toContain('Kalimat (dengan kurung) dan \\ garis miring.');
      expect(text(parsed.blocks)).toContain('Halaman tiga');
    }
  });
});

describe('repeated deflate', () => {
  it('inflates to head, the unit repeated, then tail, with the CRC-32 of all of it', () => {
    const unit = ascii('<w:p>kata</w:p>'.repeat(100));
    const head = ascii('<head>');
    const tail = ascii('</tail>');
    const data = repeatedDeflate(unit, 50, { head, tail });
    const inflated = inflateRawSync(data.compressed);
    expect(inflated.length).toBe(data.size);
    expect(data.size).toBe(head.length + unit.length * 50 + tail.length);
    expect(inflated.subarray(0, head.length)).toEqual(Buffer.from(head));
    expect(inflated.subarray(inflated.length - tail.length)).toEqual(Buffer.from(tail));
    expect(data.crc).toBe(deflated(new Uint8Array(inflated)).crc);
    // 1 GB of XML in a few MB: the point of a bomb.
    const bomb = repeatedDeflate(ascii('<w:p>kata</w:p>'.repeat(65_536)), 1_024);
    expect(bomb.size).toBe(1_024 * 65_536 * 15);
    expect(bomb.compressed.length).toBeLessThan(bomb.size / 200);
  });
});

describe('the ZIP and Word writers', () => {
  it('write archives the ZIP reader lists, with sizes that may lie', () => {
    const bytes = zipArchive([
      { name: 'a.txt', data: ascii('satu') },
      { name: 'b.txt', data: ascii('dua'), method: 0 },
      { name: 'c.txt', data: ascii('tiga'), declaredSize: 10 },
    ]);
    const entries = listZipEntries(bytes)!;
    expect(entries.map((entry) => [entry.name, entry.method, entry.uncompressedSize])).toEqual([
      ['a.txt', 8, 4],
      ['b.txt', 0, 3],
      ['c.txt', 8, 10],
    ]);
  });

  it('write Word documents mammoth reads, headings included', async () => {
    const bytes = docxArchive({
      document: wordDocumentXml(wordParagraph('Judul', 'Heading1') + wordParagraph('Isi <dengan> & tanda.')),
    });
    const parsed = await parseDocx(bytes, 'writer.docx');
    expect(parsed.blocks.map((block) => [block.kind, block.text])).toEqual([
      ['heading', 'Judul'],
      ['paragraph', 'Isi <dengan> & tanda.'],
    ]);
  });
});
