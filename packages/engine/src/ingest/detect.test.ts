import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestCodeOf } from '../../test/ingest-codes.js';
import { decodeText, detectType, listZipEntries, titleFromFilename } from './detect.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const docxSamples = path.resolve(repoRoot, '../shared/data/files/docx-samples');
const pdfSamples = path.resolve(repoRoot, '../shared/data/files/pdf-samples');

const bytes = (text: string) => new TextEncoder().encode(text);

/** A ZIP archive with stored (uncompressed) entries; CRCs are zero (detection never reads them). */
function storedZip(entries: Record<string, string>): Uint8Array {
  const encoder = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const nameBytes = encoder.encode(name);
    const data = encoder.encode(content);
    const local = new Uint8Array(30 + nameBytes.length + data.length);
    const localView = new DataView(local.buffer);
    localView.setUint32(0, 0x04034b50, true);
    localView.setUint32(18, data.length, true);
    localView.setUint32(22, data.length, true);
    localView.setUint16(26, nameBytes.length, true);
    local.set(nameBytes, 30);
    local.set(data, 30 + nameBytes.length);
    const central = new Uint8Array(46 + nameBytes.length);
    const centralView = new DataView(central.buffer);
    centralView.setUint32(0, 0x02014b50, true);
    centralView.setUint32(20, data.length, true);
    centralView.setUint32(24, data.length, true);
    centralView.setUint16(28, nameBytes.length, true);
    centralView.setUint32(42, offset, true);
    central.set(nameBytes, 46);
    locals.push(local);
    centrals.push(central);
    offset += local.length;
  }
  const centralSize = centrals.reduce((total, part) => total + part.length, 0);
  const end = new Uint8Array(22);
  const endView = new DataView(end.buffer);
  endView.setUint32(0, 0x06054b50, true);
  endView.setUint16(8, centrals.length, true);
  endView.setUint16(10, centrals.length, true);
  endView.setUint32(12, centralSize, true);
  endView.setUint32(16, offset, true);
  const parts = [...locals, ...centrals, end];
  const result = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let position = 0;
  for (const part of parts) {
    result.set(part, position);
    position += part.length;
  }
  return result;
}

describe('detectType: magic bytes first', () => {
  it('recognizes PDFs by %PDF- whatever the name, also after leading junk', () => {
    const pdf = readFileSync(path.join(pdfSamples, '001-trivial/minimal-document.pdf'));
    expect(detectType(pdf, 'upload.bin')).toBe('pdf');
    expect(detectType(pdf, 'notes.md', 'text/markdown')).toBe('pdf');
    expect(detectType(new Uint8Array([...bytes('garbage\n'), ...pdf]), 'x.pdf')).toBe('pdf');
  });

  it('recognizes DOCX by word/document.xml in the ZIP central directory', () => {
    const docx = readFileSync(path.join(docxSamples, 'mammoth/tables.docx'));
    expect(detectType(docx, 'tables.docx')).toBe('docx');
    expect(detectType(docx, 'download')).toBe('docx');
    expect(
      detectType(storedZip({ '[Content_Types].xml': '<x/>', 'word/document.xml': '<w/>' }), 'a.zip'),
    ).toBe('docx');
  });

  it('rejects ZIP archives that are not Word documents', () => {
    expect(ingestCodeOf(() => detectType(storedZip({ 'hello.txt': 'hi' }), 'hello.zip'))).toBe(
      'UNSUPPORTED_TYPE',
    );
    expect(ingestCodeOf(() => detectType(storedZip({ 'xl/workbook.xml': '<x/>' }), 'budget.docx'))).toBe(
      'UNSUPPORTED_TYPE',
    );
    expect(ingestCodeOf(() => detectType(storedZip({ 'ppt/presentation.xml': '<x/>' }), 'deck.pptx'))).toBe(
      'UNSUPPORTED_TYPE',
    );
  });

  it('calls a damaged ZIP named .docx malformed, and unsupported otherwise', () => {
    const docx = readFileSync(path.join(docxSamples, 'mammoth/tables.docx'));
    const truncated = docx.subarray(0, Math.floor(docx.length / 2));
    expect(ingestCodeOf(() => detectType(truncated, 'tables.docx'))).toBe('MALFORMED_FILE');
    expect(ingestCodeOf(() => detectType(truncated, 'tables.zip'))).toBe('UNSUPPORTED_TYPE');
  });

  it('rejects known binary formats whatever their name', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    expect(ingestCodeOf(() => detectType(png, 'readme.md'))).toBe('UNSUPPORTED_TYPE');
    const doc = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0]);
    expect(ingestCodeOf(() => detectType(doc, 'report.doc'))).toBe('UNSUPPORTED_TYPE');
  });

  it('reports a password-protected Office file as encrypted', () => {
    const marker = Array.from('EncryptedPackage').flatMap((character) => [character.charCodeAt(0), 0]);
    const encrypted = new Uint8Array([
      0xd0,
      0xcf,
      0x11,
      0xe0,
      0xa1,
      0xb1,
      0x1a,
      0xe1,
      ...new Array(500).fill(0),
      ...marker,
    ]);
    expect(ingestCodeOf(() => detectType(encrypted, 'secret.docx'))).toBe('ENCRYPTED_FILE');
  });
});

describe('detectType: names that lie', () => {
  it('a .pdf (or application/pdf) that is not a PDF is malformed', () => {
    expect(ingestCodeOf(() => detectType(bytes('hello world'), 'report.pdf'))).toBe('MALFORMED_FILE');
    expect(ingestCodeOf(() => detectType(bytes('hello world'), 'upload', 'application/pdf'))).toBe(
      'MALFORMED_FILE',
    );
    const random = new Uint8Array(4096).map((_, index) => (index * 7919 + 13) % 251);
    expect(ingestCodeOf(() => detectType(random, 'random.pdf'))).toBe('MALFORMED_FILE');
  });

  it('a .docx that is not a ZIP archive is malformed', () => {
    expect(ingestCodeOf(() => detectType(bytes('plain text'), 'letter.docx'))).toBe('MALFORMED_FILE');
  });

  it('binary content offered as text, Markdown or HTML is unsupported', () => {
    expect(ingestCodeOf(() => detectType(new Uint8Array([0x61, 0x00, 0x62]), 'notes.md'))).toBe(
      'UNSUPPORTED_TYPE',
    );
    expect(ingestCodeOf(() => detectType(new Uint8Array([0x61, 0xc3, 0x28, 0x62]), 'page.html'))).toBe(
      'UNSUPPORTED_TYPE',
    );
    expect(ingestCodeOf(() => detectType(new Uint8Array([0xff, 0xfe, 0x61, 0x00]), 'notes.txt'))).toBe(
      'UNSUPPORTED_TYPE',
    );
    const controls = new Uint8Array(200).map((_, index) => (index % 2 === 0 ? 0x01 : 0x41));
    expect(ingestCodeOf(() => detectType(controls, 'data.txt'))).toBe('UNSUPPORTED_TYPE');
  });

  it('empty or whitespace-only files are empty, whatever their name', () => {
    expect(ingestCodeOf(() => detectType(new Uint8Array(), 'a.md'))).toBe('EMPTY_FILE');
    expect(ingestCodeOf(() => detectType(bytes(' \n\t\r\n '), 'a.md'))).toBe('EMPTY_FILE');
    expect(ingestCodeOf(() => detectType(bytes('   '), 'a.pdf'))).toBe('EMPTY_FILE');
    expect(ingestCodeOf(() => detectType(bytes('\ufeff \u00a0\n'), 'a.txt'))).toBe('EMPTY_FILE');
  });
});

describe('detectType: extension, declared type, then sniffing', () => {
  it('maps extensions', () => {
    expect(detectType(bytes('# T'), 'a.md')).toBe('markdown');
    expect(detectType(bytes('# T'), 'a.MDX')).toBe('markdown');
    expect(detectType(bytes('# T'), 'dir/a.markdown')).toBe('markdown');
    expect(detectType(bytes('<p>x</p>'), 'a.html')).toBe('html');
    expect(detectType(bytes('<p>x</p>'), 'a.htm')).toBe('html');
    expect(detectType(bytes('# not a heading'), 'a.txt')).toBe('text');
  });

  it('uses the declared media type when the name says nothing', () => {
    expect(detectType(bytes('plain words'), 'upload', 'text/markdown; charset=utf-8')).toBe('markdown');
    expect(detectType(bytes('plain words'), 'upload', 'text/html')).toBe('html');
    expect(detectType(bytes('<html><body>x</body></html>'), 'upload.txt', 'text/html')).toBe('text');
  });

  it('sniffs the content last', () => {
    expect(detectType(bytes('<!DOCTYPE html><html><body><p>x</p></body></html>'), 'page')).toBe('html');
    expect(detectType(bytes('---\ntitle: x\n---\nbody\n'), 'upload')).toBe('markdown');
    expect(detectType(bytes('Intro\n\n## Section\n\ntext'), 'upload')).toBe('markdown');
    expect(detectType(bytes('Just some words.\nAnd more.'), 'upload')).toBe('text');
  });
});

describe('decodeText', () => {
  it('strips the BOM, turns CRLF and CR into LF and normalizes to NFC', () => {
    expect(decodeText(bytes('\ufeffcafe\u0301\r\nline\rend'))).toBe('café\nline\nend');
  });

  it('rejects invalid UTF-8', () => {
    expect(ingestCodeOf(() => decodeText(new Uint8Array([0xe2, 0x82])))).toBe('UNSUPPORTED_TYPE');
  });
});

describe('listZipEntries', () => {
  it('lists the central directory of a real .docx and refuses garbage', () => {
    const docx = readFileSync(path.join(docxSamples, 'python-docx/test.docx'));
    const names = listZipEntries(docx)?.map((entry) => entry.name) ?? [];
    expect(names).toContain('word/document.xml');
    expect(listZipEntries(bytes('PK\u0003\u0004 not really a zip'))).toBeUndefined();
    expect(listZipEntries(new Uint8Array(10))).toBeUndefined();
  });
});

describe('titleFromFilename', () => {
  it('uses the base name without its extension', () => {
    expect(titleFromFilename('docs/intro/Getting Started.md')).toBe('Getting Started');
    expect(titleFromFilename('C:\\files\\report.final.pdf')).toBe('report.final');
    expect(titleFromFilename('.env')).toBe('.env');
  });
});
