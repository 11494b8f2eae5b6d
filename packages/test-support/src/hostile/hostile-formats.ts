/**
 * Minimal writers for the hostile corpus (docs/security.md): PDF files object by object (ISO 32000-1
 * §7.5: header, body, cross-reference table, trailer), ZIP archives entry by entry (PKWARE APPNOTE
 * §4.3) with sizes that may lie, and the smallest Word document mammoth reads. They write exactly the
 * bytes they are told to, so a test can build a broken, oversized or misleading file on purpose.
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';

const encoder = new TextEncoder();

export const ascii = (text: string): Uint8Array => encoder.encode(text);

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// PDF

/** A PDF string literal (ISO 32000-1 §7.3.4.2): backslash, parentheses and non-ASCII escaped. */
export function pdfString(text: string): string {
  let out = '(';
  for (const character of text) {
    const code = character.codePointAt(0)!;
    if (character === '\\' || character === '(' || character === ')') out += `\\${character}`;
    else if (code >= 0x20 && code < 0x7f) out += character;
    else if (code < 0x100) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += '?';
  }
  return `${out})`;
}

/** A PDF assembled object by object; `finish` writes the cross-reference table and trailer. */
export class PdfWriter {
  private readonly bodies: (Uint8Array | undefined)[] = [];

  /** Reserves the next object number (1-based) to fill in later with {@link set}. */
  reserve(): number {
    this.bodies.push(undefined);
    return this.bodies.length;
  }

  /** Adds an object and returns its number. */
  add(body: string | Uint8Array): number {
    const number = this.reserve();
    this.set(number, body);
    return number;
  }

  set(number: number, body: string | Uint8Array): void {
    this.bodies[number - 1] = typeof body === 'string' ? ascii(body) : body;
  }

  /** A stream object's body: `dictionary` (without `<<`/`>>` or /Length) and the raw data. */
  static stream(dictionary: string, data: Uint8Array): Uint8Array {
    return concatBytes([
      ascii(`<< ${dictionary} /Length ${data.length} >>\nstream\n`),
      data,
      ascii('\nendstream'),
    ]);
  }

  /** The whole file; `trailer` holds the trailer entries besides /Size (e.g. `/Root 1 0 R`). */
  finish(trailer: string, version = '1.7'): Uint8Array {
    // §7.5.2: a comment of four bytes above 127 after the header marks the file as binary.
    const parts: Uint8Array[] = [
      concatBytes([ascii(`%PDF-${version}\n%`), new Uint8Array([0xe2, 0xe3, 0xcf, 0xd3, 0x0a])]),
    ];
    let offset = parts[0]!.length;
    const offsets: number[] = [];
    for (const [index, body] of this.bodies.entries()) {
      if (body === undefined) throw new Error(`PDF object ${index + 1} was reserved but never set`);
      const head = ascii(`${index + 1} 0 obj\n`);
      const tail = ascii('\nendobj\n');
      offsets.push(offset);
      parts.push(head, body, tail);
      offset += head.length + body.length + tail.length;
    }
    // §7.5.4: one 20-byte line per object, object 0 heads the free list.
    const xref = [`xref\n0 ${this.bodies.length + 1}\n0000000000 65535 f \n`];
    for (const position of offsets) xref.push(`${String(position).padStart(10, '0')} 00000 n \n`);
    parts.push(
      ascii(xref.join('')),
      ascii(`trailer\n<< /Size ${this.bodies.length + 1} ${trailer} >>\nstartxref\n${offset}\n%%EOF\n`),
    );
    return concatBytes(parts);
  }
}

export interface TextPdfOptions {
  /** Flate-compress the content streams. */
  compress?: boolean;
  /** Extra catalog entries, e.g. an /OpenAction. */
  catalog?: string;
  /** Extra trailer entries (e.g. an /Encrypt reference); receives the writer to add the objects they name. */
  trailer?: (writer: PdfWriter) => string;
  /** The content stream of a page (default: its lines as text in Helvetica). */
  content?: (lines: readonly string[], pageIndex: number) => Uint8Array;
}

/** A PDF with one page per entry of `pages`, each page its lines of text. */
export function textPdf(pages: readonly (readonly string[])[], options: TextPdfOptions = {}): Uint8Array {
  const writer = new PdfWriter();
  const catalog = writer.reserve();
  const pageTree = writer.reserve();
  const font = writer.add(
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  );
  const kids: number[] = [];
  for (const [index, lines] of pages.entries()) {
    const raw = options.content?.(lines, index) ?? pageContent(lines);
    const data = options.compress ? deflateZlib(raw) : raw;
    const contents = writer.add(PdfWriter.stream(options.compress ? '/Filter /FlateDecode' : '', data));
    kids.push(
      writer.add(
        `<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${contents} 0 R >>`,
      ),
    );
  }
  writer.set(
    pageTree,
    `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count ${kids.length} >>`,
  );
  writer.set(catalog, `<< /Type /Catalog /Pages ${pageTree} 0 R ${options.catalog ?? ''} >>`);
  const extra = options.trailer?.(writer) ?? '';
  return writer.finish(`/Root ${catalog} 0 R ${extra}`);
}

/** A page content stream drawing `lines` top-down in 11-point Helvetica. */
export function pageContent(lines: readonly string[]): Uint8Array {
  const operators = ['BT', '/F1 11 Tf', '14 TL', '56 790 Td'];
  for (const line of lines) operators.push(`${pdfString(line)} Tj T*`);
  operators.push('ET');
  return ascii(operators.join('\n'));
}

function deflateZlib(data: Uint8Array): Uint8Array {
  // FlateDecode is zlib (RFC 1950) around deflate.
  const raw = deflateRawSync(data);
  const adler = adler32(data);
  return concatBytes([
    new Uint8Array([0x78, 0x9c]),
    raw,
    new Uint8Array([adler >>> 24, (adler >>> 16) & 0xff, (adler >>> 8) & 0xff, adler & 0xff]),
  ]);
}

function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

// ---------------------------------------------------------------------------------------------
// Deflate of repeated data, for bombs

/** Raw deflate data with the size and CRC-32 of what it inflates to. */
export interface DeflatedData {
  compressed: Uint8Array;
  size: number;
  crc: number;
}

export function deflated(data: Uint8Array): DeflatedData {
  return { compressed: deflateRawSync(data, { level: 9 }), size: data.length, crc: crc32(data) };
}

/** A stored (uncompressed) deflate block (RFC 1951 §3.2.4), at most 65,535 bytes. */
function storedBlock(bytes: Uint8Array, final: boolean): Uint8Array {
  if (bytes.length > 0xffff) throw new Error('a stored deflate block holds at most 65,535 bytes');
  const block = new Uint8Array(5 + bytes.length);
  block[0] = final ? 1 : 0; // BFINAL, BTYPE=00, then padding to the byte boundary
  block[1] = bytes.length & 0xff;
  block[2] = bytes.length >>> 8;
  block[3] = ~bytes.length & 0xff;
  block[4] = (~bytes.length >>> 8) & 0xff;
  block.set(bytes, 5);
  return block;
}

/**
 * `head`, then `unit` repeated `times` times, then `tail`, deflated without ever holding the whole:
 * the unit is compressed once with a sync flush (RFC 1951: non-final blocks ending on a byte
 * boundary) and repeated; head and tail are stored blocks. 1 GB of repetitive XML becomes ~1 MB.
 */
export function repeatedDeflate(
  unit: Uint8Array,
  times: number,
  frame: { head?: Uint8Array; tail?: Uint8Array } = {},
): DeflatedData {
  const head = frame.head ?? new Uint8Array();
  const tail = frame.tail ?? new Uint8Array();
  const block = deflateRawSync(unit, { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const first = storedBlock(head, false);
  const last = storedBlock(tail, true);
  const compressed = new Uint8Array(first.length + block.length * times + last.length);
  compressed.set(first, 0);
  for (let index = 0; index < times; index++) compressed.set(block, first.length + index * block.length);
  compressed.set(last, first.length + block.length * times);
  let crc = crc32(head);
  for (let index = 0; index < times; index++) crc = crc32(unit, crc);
  crc = crc32(tail, crc);
  return { compressed, size: head.length + unit.length * times + tail.length, crc };
}

// ---------------------------------------------------------------------------------------------
// ZIP

export interface ZipInput {
  name: string;
  /** Stored as is (method 0), or deflated (method 8, the default). */
  data?: Uint8Array;
  /** Already deflated data (method 8). */
  deflated?: DeflatedData;
  method?: 0 | 8;
  /** The uncompressed size written in the headers, when it should lie. */
  declaredSize?: number;
}

/** A ZIP archive (APPNOTE §4.3.6: local headers and data, central directory, end record). */
export function zipArchive(inputs: readonly ZipInput[]): Uint8Array {
  const locals: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const input of inputs) {
    const name = encoder.encode(input.name);
    const method = input.deflated ? 8 : (input.method ?? 8);
    const content: DeflatedData = input.deflated
      ? input.deflated
      : method === 8
        ? deflated(input.data ?? new Uint8Array())
        : {
            compressed: input.data ?? new Uint8Array(),
            size: input.data?.length ?? 0,
            crc: crc32(input.data ?? new Uint8Array()),
          };
    const size = input.declaredSize ?? content.size;
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(6, 0x0800, true); // bit 11: UTF-8 names
    local.setUint16(8, method, true);
    local.setUint32(14, content.crc >>> 0, true);
    local.setUint32(18, content.compressed.length, true);
    local.setUint32(22, size >>> 0, true);
    local.setUint16(26, name.length, true);
    const record = new DataView(new ArrayBuffer(46));
    record.setUint32(0, 0x02014b50, true);
    record.setUint16(4, 20, true);
    record.setUint16(6, 20, true);
    record.setUint16(8, 0x0800, true);
    record.setUint16(10, method, true);
    record.setUint32(16, content.crc >>> 0, true);
    record.setUint32(20, content.compressed.length, true);
    record.setUint32(24, size >>> 0, true);
    record.setUint16(28, name.length, true);
    record.setUint32(42, offset, true);
    locals.push(new Uint8Array(local.buffer), name, content.compressed);
    central.push(new Uint8Array(record.buffer), name);
    offset += 30 + name.length + content.compressed.length;
  }
  const directory = concatBytes(central);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  // 16-bit counts: above 65,535 entries they wrap, as in a lying archive (no ZIP64 record is written).
  end.setUint16(8, inputs.length & 0xffff, true);
  end.setUint16(10, inputs.length & 0xffff, true);
  end.setUint32(12, directory.length, true);
  end.setUint32(16, offset, true);
  return concatBytes([...locals, directory, new Uint8Array(end.buffer)]);
}

// ---------------------------------------------------------------------------------------------
// DOCX (ECMA-376 Part 1: the package parts mammoth needs)

export const WORD_NAMESPACE = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`;

const PACKAGE_RELATIONSHIPS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;

const DOCUMENT_RELATIONSHIPS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`;

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="${WORD_NAMESPACE}"><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style></w:styles>`;

const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** One Word paragraph (optionally in a heading style) holding `text`. */
export function wordParagraph(text: string, style?: 'Heading1' | 'Heading2'): string {
  const properties = style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : '';
  return `<w:p>${properties}<w:r><w:t xml:space="preserve">${xmlText(text)}</w:t></w:r></w:p>`;
}

/** `word/document.xml` around `body` (paragraph XML), with an optional DOCTYPE before the root. */
export function wordDocumentXml(body: string, doctype = ''): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${doctype}<w:document xmlns:w="${WORD_NAMESPACE}"><w:body>${body}</w:body></w:document>`;
}

export interface DocxParts {
  /** `word/document.xml`, as text or already deflated (a bomb). */
  document: string | DeflatedData;
  /** Override or add parts (name → XML text); `null` leaves a standard part out. */
  parts?: Record<string, string | Uint8Array | null>;
  /** The size declared for `word/document.xml`, when it should lie. */
  declaredSize?: number;
}

/** A .docx package: content types, relationships, styles (Heading1/2) and the document part. */
export function docxArchive(options: DocxParts): Uint8Array {
  const standard: Record<string, string | Uint8Array | null> = {
    '[Content_Types].xml': CONTENT_TYPES,
    '_rels/.rels': PACKAGE_RELATIONSHIPS,
    'word/_rels/document.xml.rels': DOCUMENT_RELATIONSHIPS,
    'word/styles.xml': STYLES,
    ...options.parts,
  };
  const inputs: ZipInput[] = [];
  for (const [name, part] of Object.entries(standard)) {
    if (part === null) continue;
    inputs.push({ name, data: typeof part === 'string' ? ascii(part) : part });
  }
  const document =
    typeof options.document === 'string' ? deflated(ascii(options.document)) : options.document;
  inputs.push({
    name: 'word/document.xml',
    deflated: document,
    ...(options.declaredSize !== undefined ? { declaredSize: options.declaredSize } : {}),
  });
  return zipArchive(inputs);
}
