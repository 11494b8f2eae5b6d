import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { ingestCodeOfAsync } from '../../test/ingest-codes.js';
import type { ParsedDocument } from '../types.js';
import { DEFAULT_OCR_SETTINGS } from './limits.js';
import type { OcrOptions } from './ocr.js';
import { parseDocument } from './parse.js';
import { layoutRuns, type PositionedText, parsePdf } from './pdf.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const samples = path.resolve(repoRoot, '../shared/data/files/pdf-samples');
const transfers = path.resolve(repoRoot, '../shared/data/corpora/pmk-transfer-pdf');

interface SampleFact {
  path: string;
  pages: number;
  encrypted: boolean;
}

const facts = (JSON.parse(readFileSync(path.join(samples, 'files.json'), 'utf8')) as { data: SampleFact[] })
  .data;

/** OCR as ingestion runs it (ocr.ts): every sample is read with it on. */
const OCR: OcrOptions = { ...DEFAULT_OCR_SETTINGS, language: 'eng' };

/**
 * Samples with no text layer at all (images only): files.json says nothing about text, pdf.js finds
 * none, and OCR finds no text either — they are photographs and 16-pixel test images.
 */
const IMAGE_ONLY = new Set([
  '007-imagemagick-images/imagemagick-ASCII85Decode.pdf',
  '007-imagemagick-images/imagemagick-images.pdf',
  '007-imagemagick-images/imagemagick-CCITTFaxDecode.pdf',
  '007-imagemagick-images/imagemagick-lzw.pdf',
  '019-grayscale-image/grayscale-image.pdf',
  '023-cmyk-image/cmyk-image.pdf',
]);

const read = (file: string) => new Uint8Array(readFileSync(file));
const allText = (document: ParsedDocument) => document.blocks.map((block) => block.text).join('\n');

// pdf.js must not write to stdout or the console while parsing.
const spies: MockInstance[] = [];
beforeAll(() => {
  spies.push(
    vi.spyOn(console, 'log'),
    vi.spyOn(console, 'warn'),
    vi.spyOn(console, 'error'),
    vi.spyOn(console, 'info'),
    vi.spyOn(process.stdout, 'write'),
  );
});
afterAll(() => {
  for (const spy of spies) spy.mockRestore();
});

describe('pdf-samples (files.json)', () => {
  const parsed = new Map<string, ParsedDocument>();

  it('parses every sample present with OCR on: encrypted → ENCRYPTED_FILE, image-only → NO_TEXT (OCR reads no text in the pictures), else the stated page count and no OCR', async () => {
    let checked = 0;
    for (const fact of facts) {
      const file = path.join(samples, fact.path);
      if (!existsSync(file)) continue; // 009 GeoTopo.pdf, 017 and 018 are not in the snapshot (see SOURCE.txt)
      checked++;
      if (fact.encrypted) {
        expect(await ingestCodeOfAsync(() => parsePdf(read(file), fact.path, { ocr: OCR })), fact.path).toBe(
          'ENCRYPTED_FILE',
        );
        continue;
      }
      if (IMAGE_ONLY.has(fact.path)) {
        expect(await ingestCodeOfAsync(() => parsePdf(read(file), fact.path, { ocr: OCR })), fact.path).toBe(
          'NO_TEXT',
        );
        continue;
      }
      const document = await parsePdf(read(file), fact.path, { ocr: OCR });
      parsed.set(fact.path, document);
      // A text layer is read as it is: no page of a text sample goes to OCR.
      expect(
        document.blocks.filter((block) => block.ocr_confidence !== undefined).map((block) => block.page),
        fact.path,
      ).toEqual([]);
      expect(document.pages, fact.path).toBe(fact.pages);
      expect(document.mime).toBe('application/pdf');
      expect(document.blocks.length, fact.path).toBeGreaterThan(0);
      for (const block of document.blocks) {
        expect(block.page, fact.path).toBeGreaterThanOrEqual(1);
        expect(block.page, fact.path).toBeLessThanOrEqual(fact.pages);
        expect(block.text, fact.path).toBe(block.text.trim());
        expect(block.text, fact.path).not.toBe('');
      }
    }
    expect(checked).toBe(29);
    expect(parsed.size).toBe(22);
  }, 120_000);

  it('extracts the text the samples show', () => {
    expect(allText(parsed.get('001-trivial/minimal-document.pdf')!)).toMatch(
      /^Lorem ipsum dolor sit amet, consetetur sadipscing elitr/,
    );
    const google = parsed.get('011-google-doc-document/google-doc-document.pdf')!;
    expect(google.title).toBe('PDF Example Document');
    expect(allText(google)).toContain('Beautiful is better than ugly.');
    expect(parsed.get('021-pdfa/crazyones-pdfa.pdf')!.title).toBe('The Crazy Ones');
    expect(allText(parsed.get('015-arabic/habibi.pdf')!)).toContain('habibi');
    const fourPages = parsed.get('004-pdflatex-4-pages/pdflatex-4-pages.pdf')!;
    expect(new Set(fourPages.blocks.map((block) => block.page))).toEqual(new Set([1, 2, 3, 4]));
    const book = parsed.get('009-pdflatex-geotopo/GeoTopo-komprimiert.pdf')!;
    expect(book.title).toBe('Geometrie und Topologie');
  });

  it('finds headings by font size and keeps section paths', () => {
    const outline = parsed.get('006-pdflatex-outline/pdflatex-outline.pdf')!;
    const headings = outline.blocks.filter((block) => block.kind === 'heading').map((block) => block.text);
    expect(headings).toEqual([
      'Contents',
      '1 Foo',
      '2 Bar',
      '3 Baz',
      '4 Foo',
      '5 Bar',
      '6 Baz',
      '7 Foo',
      '8 Bar',
      '9 Baz',
    ]);
    const body = outline.blocks.find((block) => block.kind === 'paragraph' && block.page === 2);
    expect(body?.section_path).toEqual(['1 Foo']);
  });

  it('reads two-column pages column by column and finds the table on page 3', () => {
    const document = parsed.get('026-latex-multicolumn/multicolumn.pdf')!;
    expect(document.title).toBe('Two-Column Document with Lorem Ipsum');
    const texts = document.blocks.map((block) => block.text);
    expect(texts).toContain('This is a sample document with two columns filled\nwith Lorem Ipsum text.');
    // The left column's first paragraph continues down the left column, not across the gutter.
    const first = texts.find((text) => text.startsWith('Lorem ipsum dolor sit amet, consectetuer adip-'));
    expect(first?.split('\n')[1]).toBe('iscing elit. Ut purus elit, vestibulum ut, placerat');
    const table = document.blocks.find((block) => block.kind === 'table');
    expect(table?.page).toBe(3);
    expect(table?.html).toContain('<td>Austria</td><td>8.9</td>');
  });
});

describe('tables in a real budget allocation PDF', () => {
  it('emits the DAU 2017 allocation table with rows and cells', async () => {
    const file = path.join(transfers, 'RINCIAN-ALOKASI-DAU-MURNI-TA-2017-UPLOAD.pdf');
    const document = await parsePdf(read(file), path.basename(file));
    expect(document.pages).toBe(13);
    const tables = document.blocks.filter((block) => block.kind === 'table');
    expect(tables.length).toBeGreaterThanOrEqual(13);
    const first = tables[0]!;
    expect(first.page).toBe(1);
    expect(first.html?.match(/<tr>/g)?.length).toBeGreaterThanOrEqual(5);
    expect(first.html).toMatch(
      /^<table><thead><tr><th>NO\.<\/th><th>NAMA DAERAH<\/th><th>ALOKASI 2017<\/th><\/tr><\/thead><tbody>/,
    );
    expect(first.html).toContain('<tr><td>1</td><td>Kab. Aceh Barat</td><td>580.525.044</td></tr>');
    expect(first.text).toContain('I | Provinsi Aceh | 1.930.152.204');
    // Page furniture ("- 1 / 13 -") is not text.
    expect(allText(document)).not.toMatch(/- 1 \/ 13 -/);
  });
});

describe('broken PDFs', () => {
  const google = path.join(samples, '011-google-doc-document/google-doc-document.pdf');

  it('reports truncated and corrupt files as MALFORMED_FILE', async () => {
    const bytes = read(google);
    expect(
      await ingestCodeOfAsync(() => parsePdf(bytes.subarray(0, Math.floor(bytes.length / 2)), 'half.pdf')),
    ).toBe('MALFORMED_FILE');
    expect(await ingestCodeOfAsync(() => parsePdf(bytes.subarray(0, 300), 'head.pdf'))).toBe(
      'MALFORMED_FILE',
    );
    const garbage = new TextEncoder().encode(`%PDF-1.7\n${'x'.repeat(5000)}\n%%EOF\n`);
    expect(await ingestCodeOfAsync(() => parsePdf(garbage, 'garbage.pdf'))).toBe('MALFORMED_FILE');
  });

  it('reports random bytes named .pdf as MALFORMED_FILE, through parsePdf and parseDocument', async () => {
    const random = new Uint8Array(8192).map((_, index) => (index * 2654435761 + 17) % 256);
    expect(await ingestCodeOfAsync(() => parsePdf(random, 'random.pdf'))).toBe('MALFORMED_FILE');
    expect(await ingestCodeOfAsync(() => parseDocument(random, { filename: 'random.pdf' }))).toBe(
      'MALFORMED_FILE',
    );
  });

  it('wrote nothing to the console or stdout', () => {
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });
});

describe('layoutRuns', () => {
  const run = (text: string, x: number, y: number, size = 10): PositionedText => ({
    text,
    x,
    y,
    size,
    width: text.length * size * 0.5,
  });

  it('turns text aligned in ≥ 3 columns over ≥ 3 rows into a table', () => {
    const rows = [
      ['Region', 'Code', 'Amount'],
      ['Aceh', '11', '1.930.152'],
      ['Bali', '51', '580.525'],
      ['Papua', '94', '12.000'],
    ];
    const runs = rows.flatMap((cells, index) =>
      cells.map((cell, column) => run(cell, 50 + column * 120, 700 - index * 14)),
    );
    const elements = layoutRuns([run('Allocation by region', 50, 740), ...runs]);
    expect(elements.map((element) => element.kind)).toEqual(['line', 'table']);
    const table = elements[1];
    expect(table?.kind === 'table' && table.html).toBe(
      '<table><thead><tr><th>Region</th><th>Code</th><th>Amount</th></tr></thead><tbody>' +
        '<tr><td>Aceh</td><td>11</td><td>1.930.152</td></tr><tr><td>Bali</td><td>51</td><td>580.525</td></tr>' +
        '<tr><td>Papua</td><td>94</td><td>12.000</td></tr></tbody></table>',
    );
  });

  it('leaves prose and two-column key/value lines alone', () => {
    const prose = [0, 1, 2, 3, 4].map((index) =>
      run('A line of ordinary prose text that runs along.', 50, 700 - index * 12),
    );
    const pairs = [0, 1, 2, 3].flatMap((index) => [
      run('Key', 50, 600 - index * 12),
      run('Value', 300, 600 - index * 12),
    ]);
    expect(layoutRuns([...prose, ...pairs]).every((element) => element.kind === 'line')).toBe(true);
  });
});
