/**
 * OCR of scanned PDF pages (ocr.ts, pdf.ts; docs/engine.md, "OCR of scanned pages"), with the real
 * pdf.js, @napi-rs/canvas and tesseract.js: scans are made here from real statute text (UU 22/2009),
 * wrapped as image-only PDFs, read back, and compared with their source by character error rate.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { concatBytes, PdfWriter, repeatedDeflate } from '@saksi/test-support/hostile';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ingestCodeOfAsync } from '../../test/ingest-codes.js';
import { parseRegulation } from '../packs/registry.js';
import {
  characterErrorRate,
  imageOnlyPdf,
  layoutPages,
  linesText,
  scanLines,
} from './__fixtures__/scanned-pdf.js';
import { statuteContent } from './__fixtures__/uu-pages.js';
import { IngestError } from './errors.js';
import { DEFAULT_OCR_SETTINGS } from './limits.js';
import {
  isGarbledText,
  MAX_RENDER_PIXELS,
  type OcrOptions,
  ocrLanguageOf,
  PageReader,
  renderScale,
  traineddataFolder,
} from './ocr.js';
import { parseDocument } from './parse.js';
import { parsePdf } from './pdf.js';

const OCR: OcrOptions = { ...DEFAULT_OCR_SETTINGS, language: 'ind' };
const samples = path.resolve(import.meta.dirname, '../../../../../shared/data/files/pdf-samples');

describe('which pages need OCR', () => {
  it('calls a text layer garbled when it is mostly unreadable or not letters, not when it is prose or figures', () => {
    expect(isGarbledText('Pasal 1 Dalam Undang-Undang ini yang dimaksud dengan: 1. Lalu Lintas')).toBe(false);
    expect(isGarbledText('Rp2.463.024.911.395.000,00 | 1.234.567 | 89.000 | 12,5 %')).toBe(false);
    // A table of contents: dot leaders are one repeated symbol, not garbage.
    expect(isGarbledText('BAB I KETENTUAN UMUM ........................................ 3')).toBe(false);
    expect(isGarbledText('الفصل الأول أحكام عامة المادة الأولى')).toBe(false);
    // A font without a character map: replacement, private-use and control characters, symbol soup.
    expect(
      isGarbledText(
        '\ufffd\ufffd\ufffd \ufffd\ufffd Pasal \ufffd\ufffd\ufffd 1 \ufffd\ufffd\ufffd\ufffd ayat \ufffd\ufffd',
      ),
    ).toBe(true);
    expect(
      isGarbledText(
        '\ue001\ue002\ue003\ue004 \ue005\ue006\ue007\ue008 \ue009\ue00a\ue00b\ue00c\ue00d\ue00e\ue00f\ue010 Pasal 12',
      ),
    ).toBe(true);
    expect(isGarbledText('#$%& *+/<=> @[]^ {|}~ #$%& *+/<=> !?')).toBe(true);
    // Too little to judge.
    expect(isGarbledText('\ufffd\ufffd 3')).toBe(false);
  });

  it('reads a collection in its language, and renders within the pixel bound', () => {
    expect(ocrLanguageOf('id')).toBe('ind');
    expect(ocrLanguageOf('en')).toBe('eng');
    expect(renderScale(595, 842)).toBeCloseTo(300 / 72);
    const wall = renderScale(14_400, 14_400);
    expect(14_400 * 14_400 * wall * wall).toBeLessThanOrEqual(MAX_RENDER_PIXELS * 1.0001);
  });
});

describe('offline recognition data', () => {
  it('reads the language data from the npm packages inside node_modules', () => {
    for (const language of ['ind', 'eng'] as const) {
      const folder = realpathSync(traineddataFolder(language));
      expect(folder.split(path.sep)).toContain('node_modules');
      expect(folder).toContain(`${path.sep}@tesseract.js-data${path.sep}${language}${path.sep}`);
      expect(existsSync(path.join(folder, `${language}.traineddata.gz`))).toBe(true);
    }
  });

  it('recognizes a page with every network call blocked, worker threads included, and writes no cache file', () => {
    // A child process whose sockets and fetch throw, in every thread (a --require preload runs in workers too).
    const directory = mkdtempSync(path.join(tmpdir(), 'saksi-ocr-offline-'));
    try {
      const output = execFileSync(
        process.execPath,
        [
          '--conditions=source',
          '--import',
          import.meta.resolve('tsx'),
          '--require',
          path.join(import.meta.dirname, '__fixtures__', 'block-network.cjs'),
          path.join(import.meta.dirname, '__fixtures__', 'offline-ocr.ts'),
        ],
        { cwd: directory, encoding: 'utf8', timeout: 120_000 },
      );
      const result = JSON.parse(output.trim().split('\n').at(-1)!) as {
        guardInWorker: string;
        text: string;
        confidence: number;
      };
      // The guard holds in a worker thread, where tesseract.js runs…
      expect(result.guardInWorker).toBe('NETWORK BLOCKED');
      // …and the page was read all the same.
      expect(result.text).toMatch(/Lalu Lintas/);
      expect(result.confidence).toBeGreaterThan(0.7);
      // cacheMethod 'none': no traineddata written to the working directory.
      expect(readdirSync(directory)).toEqual([]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('scanned statute pages through parsePdf', () => {
  const pages = layoutPages(statuteContent(), 2);
  const source = pages.map(linesText).join('\n');
  const scanned = imageOnlyPdf(pages.map((lines) => scanLines(lines, { speckle: 0.0005, skewDegrees: 0.3 })));

  it('reads an image-only PDF into headings and paragraphs, with a character error rate under 10 %', async () => {
    const progress: [number, number][] = [];
    const started = performance.now();
    const document = await parsePdf(scanned, 'uu-22-2009-scan.pdf', {
      ocr: OCR,
      onOcrPage: (done, total) => progress.push([done, total]),
    });
    const seconds = (performance.now() - started) / 1000;
    const text = document.blocks.map((block) => block.text).join('\n');
    const rate = characterErrorRate(source, text);
    console.info(
      `OCR: ${pages.length} pages in ${seconds.toFixed(1)} s, character error rate ${(rate * 100).toFixed(2)} % over ${source.length} characters`,
    );
    expect(rate).toBeLessThanOrEqual(0.1);
    expect(document.pages).toBe(2);
    expect(progress).toEqual([
      [0, 2],
      [1, 2],
      [2, 2],
    ]);
    for (const block of document.blocks) {
      expect(block.ocr_confidence).toBeGreaterThan(0.5);
      expect(block.ocr_confidence).toBeLessThanOrEqual(1);
      expect([1, 2]).toContain(block.page);
    }
    // Headings by size, as a text layer's: the BAB and Pasal lines drawn larger come back as headings
    // (a BAB title and the Pasal right under it join, as pdf.ts joins a text layer's heading lines).
    const headings = document.blocks.filter((block) => block.kind === 'heading').map((block) => block.text);
    expect(headings).toEqual(expect.arrayContaining(['Pasal 2', 'Pasal 3', 'Pasal 5']));
    for (const heading of headings) expect(heading).toMatch(/^(?:UNDANG-UNDANG|BAB|Pasal)\b/);
    // The regulation parser finds the same Pasal in the recognized text as in the source.
    const pasal = (body: string) =>
      (parseRegulation(body, 'uu.md')?.blocks ?? [])
        .map((block) => block.legal?.pasal)
        .filter((value, index, all) => value !== undefined && all.indexOf(value) === index);
    expect(pasal(text)).toEqual(pasal(source));
    expect(pasal(text).length).toBeGreaterThanOrEqual(3);
  }, 180_000);

  it('reads a page whose text layer is garbled by OCR instead, and keeps a page whose text layer reads', async () => {
    const lines = pages[0]!.slice(0, 12);
    const reference = linesText(lines);
    const garbled = '#$%& *+/<=> @[]^ {|}~ #$%& *+/<=> !? #$%& *+/<=> @[]^';
    const document = await parsePdf(
      imageOnlyPdf([scanLines(lines)], { hiddenText: garbled }),
      'garbled.pdf',
      {
        ocr: OCR,
      },
    );
    const text = document.blocks.map((block) => block.text).join('\n');
    expect(characterErrorRate(reference, text)).toBeLessThanOrEqual(0.1);
    expect(text).not.toContain('#$%&');
    expect(document.blocks.every((block) => block.ocr_confidence !== undefined)).toBe(true);
    // The same scan under a text layer that reads: the text layer is kept, nothing is recognized.
    const typed = await parsePdf(
      imageOnlyPdf([scanLines(lines)], { hiddenText: 'Lalu Lintas dan Angkutan Jalan diselenggarakan' }),
      'searchable.pdf',
      { ocr: OCR },
    );
    expect(typed.blocks.map((block) => block.text)).toEqual([
      'Lalu Lintas dan Angkutan Jalan diselenggarakan',
    ]);
    expect(typed.blocks[0]?.ocr_confidence).toBeUndefined();
  }, 120_000);

  it('is NO_TEXT with OCR off, and names the setting', async () => {
    const error = await parsePdf(scanned, 'scan.pdf', { ocr: { ...OCR, mode: 'off' } }).catch(
      (cause) => cause,
    );
    expect(error).toBeInstanceOf(IngestError);
    expect((error as IngestError).code).toBe('NO_TEXT');
    expect((error as IngestError).message).toContain('SAKSI_OCR');
  });

  it('fails a document with more scanned pages than SAKSI_OCR_MAX_PAGES before reading any', async () => {
    const start = vi.spyOn(PageReader, 'start');
    try {
      const error = await parsePdf(scanned, 'scan.pdf', { ocr: { ...OCR, maxPages: 1 } }).catch(
        (cause) => cause,
      );
      expect((error as IngestError).code).toBe('QUOTA_EXCEEDED');
      expect((error as IngestError).limit).toEqual({ name: 'SAKSI_OCR_MAX_PAGES', value: 1 });
      expect(start).not.toHaveBeenCalled();
    } finally {
      start.mockRestore();
    }
  });

  it('stops a page past SAKSI_OCR_PAGE_SECONDS and terminates the worker', async () => {
    const terminate = vi.spyOn(PageReader.prototype, 'terminate');
    try {
      const error = await parsePdf(scanned, 'scan.pdf', { ocr: { ...OCR, pageSeconds: 0.05 } }).catch(
        (cause) => cause,
      );
      expect((error as IngestError).code).toBe('QUOTA_EXCEEDED');
      expect((error as IngestError).limit).toEqual({ name: 'SAKSI_OCR_PAGE_SECONDS', value: 0.05 });
      expect(terminate).toHaveBeenCalled();
    } finally {
      terminate.mockRestore();
    }
  }, 60_000);

  it('stops between pages when cancelled, with the reason, and terminates the worker', async () => {
    const terminate = vi.spyOn(PageReader.prototype, 'terminate');
    const controller = new AbortController();
    const reason = new Error('cancelled by the test');
    try {
      const error = await parsePdf(scanned, 'scan.pdf', {
        ocr: OCR,
        signal: controller.signal,
        onOcrPage: (done) => {
          if (done === 1) controller.abort(reason);
        },
      }).catch((cause) => cause);
      expect(error).toBe(reason);
      expect(terminate).toHaveBeenCalled();
    } finally {
      terminate.mockRestore();
    }
  }, 120_000);
});

describe('a 500-page scan', () => {
  it('fails with SAKSI_OCR_MAX_PAGES (300 by default) from its text layers, before any page is read', async () => {
    // 500 pages showing one shared scan: the text layers and operator lists are read, no page is rendered.
    const writer = new PdfWriter();
    const catalog = writer.reserve();
    const pagesObject = writer.reserve();
    const scan = scanLines(layoutPages([{ paragraph: 'Pasal 1 Lalu Lintas' }], 1)[0]!, { dpi: 72 });
    const image = writer.add(
      PdfWriter.stream(
        `/Type /XObject /Subtype /Image /Width ${scan.width} /Height ${scan.height} /ColorSpace /DeviceGray /BitsPerComponent 8`,
        scan.pixels,
      ),
    );
    const content = writer.add(
      PdfWriter.stream('', new TextEncoder().encode('q 595 0 0 842 0 0 cm /I Do Q')),
    );
    const kids = Array.from({ length: 500 }, () =>
      writer.add(
        `<< /Type /Page /Parent ${pagesObject} 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /I ${image} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
    writer.set(
      pagesObject,
      `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count 500 >>`,
    );
    writer.set(catalog, `<< /Type /Catalog /Pages ${pagesObject} 0 R >>`);
    const start = vi.spyOn(PageReader, 'start');
    try {
      const error = await parsePdf(writer.finish(`/Root ${catalog} 0 R`), 'scan-500.pdf', { ocr: OCR }).catch(
        (cause) => cause,
      );
      expect((error as IngestError).code).toBe('QUOTA_EXCEEDED');
      expect((error as IngestError).limit).toEqual({ name: 'SAKSI_OCR_MAX_PAGES', value: 300 });
      expect(start).not.toHaveBeenCalled();
    } finally {
      start.mockRestore();
    }
  }, 120_000);
});

describe('what is not a page of text', () => {
  it('is NO_TEXT for the shared image-only samples (photographs and tiny images) with OCR on', async () => {
    const images = [
      '007-imagemagick-images/imagemagick-images.pdf',
      '019-grayscale-image/grayscale-image.pdf',
      '023-cmyk-image/cmyk-image.pdf',
    ].filter((file) => existsSync(path.join(samples, file)));
    expect(images.length).toBeGreaterThan(0);
    for (const file of images) {
      const bytes = new Uint8Array(readFileSync(path.join(samples, file)));
      expect(await ingestCodeOfAsync(() => parsePdf(bytes, file, { ocr: OCR })), file).toBe('NO_TEXT');
    }
  }, 60_000);

  it('is UNSUPPORTED_TYPE for an image uploaded on its own, with what to do', async () => {
    const png = new Uint8Array([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
    ]);
    const error = await parseDocument(png, { filename: 'scan.png', ocr: OCR }).catch((cause) => cause);
    expect((error as IngestError).code).toBe('UNSUPPORTED_TYPE');
    expect((error as IngestError).message).toMatch(/OCR.*PDF/);
  });

  it('leaves out an image bomb (a 60,000 × 60,000 scan that would inflate to 3.6 GB) and answers NO_TEXT', async () => {
    const side = 60_000;
    const row = new Uint8Array(1 << 20).fill(0xff);
    const bomb = repeatedDeflate(row, 64);
    const writer = new PdfWriter();
    const catalog = writer.reserve();
    const pagesObject = writer.reserve();
    const image = writer.add(
      PdfWriter.stream(
        `/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
        concatBytes([new Uint8Array([0x78, 0x9c]), bomb.compressed, new Uint8Array(4)]),
      ),
    );
    const content = writer.add(
      PdfWriter.stream('', new TextEncoder().encode('q 595 0 0 842 0 0 cm /I Do Q')),
    );
    const page = writer.add(
      `<< /Type /Page /Parent ${pagesObject} 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /I ${image} 0 R >> >> /Contents ${content} 0 R >>`,
    );
    writer.set(pagesObject, `<< /Type /Pages /Kids [${page} 0 R] /Count 1 >>`);
    writer.set(catalog, `<< /Type /Catalog /Pages ${pagesObject} 0 R >>`);
    expect(
      await ingestCodeOfAsync(() =>
        parsePdf(writer.finish(`/Root ${catalog} 0 R`), 'bomb.pdf', { ocr: OCR }),
      ),
    ).toBe('NO_TEXT');
  }, 60_000);
});

let leftover: string[] = [];
beforeAll(() => {
  leftover = readdirSync(process.cwd()).filter((file) => file.endsWith('.traineddata'));
});
afterAll(() => {
  // No cache files next to the tests either.
  expect(readdirSync(process.cwd()).filter((file) => file.endsWith('.traineddata'))).toEqual(leftover);
});
