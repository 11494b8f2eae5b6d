/**
 * Word (.docx) → blocks: mammoth converts the document to HTML (Word heading styles → h1…h6 by its
 * default style map, plus Title → h1 and Subtitle → h2; lists; tables with colspan/rowspan;
 * footnotes and endnotes as a list at the end), and the HTML block extraction of `html.ts` does the
 * rest. Images are not embedded and external files are never read.
 *
 * Decisions: a document without text (empty, images only) is `NO_TEXT`; a damaged ZIP, a ZIP
 * without `word/document.xml`, or a document mammoth cannot read is `MALFORMED_FILE`. Strict OOXML
 * (ISO/IEC 29500 Strict) documents are read by mammoth 1.13 (the sample `strict-format.docx` works).
 * The title is the first heading, else the core-properties title, else the file name.
 */
import { inflateRawSync } from 'node:zlib';
import mammoth from 'mammoth';
import type { ParsedDocument } from '../types.js';
import { baseName, listZipEntries, MIME_TYPES, titleFromFilename, type ZipEntry } from './detect.js';
import { IngestError } from './errors.js';
import { decodeEntities, extractHtml } from './html.js';

/** Largest total uncompressed size of a .docx archive accepted (guards against ZIP bombs). */
export const MAX_DOCX_EXPANDED_BYTES = 512 * 1024 * 1024;
/**
 * Largest total uncompressed size of the archive's XML parts (`.xml`, `.rels`), which mammoth inflates
 * and parses whole. Images are never inflated, so they count only towards the archive's total. A
 * parsed XML tree takes several times its text in memory: 64 MB of XML stays inside the extraction
 * process's memory bound (docs/engine.md, "Bounds on one document"), and is far beyond any real
 * document (a 1,000-page report holds a few MB of XML).
 */
export const MAX_DOCX_XML_BYTES = 64 * 1024 * 1024;
const MAX_CORE_PROPERTIES_BYTES = 1024 * 1024;

const STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => h2:fresh"];

/** Parses a Word document. Throws `MALFORMED_FILE`, `FILE_TOO_LARGE` (archive or XML too large) or `NO_TEXT`. */
export async function parseDocx(bytes: Uint8Array, filename: string): Promise<ParsedDocument> {
  const name = baseName(filename);
  const entries = listZipEntries(bytes);
  if (entries === undefined) {
    throw new IngestError(
      'MALFORMED_FILE',
      `${name} is not a readable Word document: its ZIP structure is damaged or truncated. Re-save it as .docx.`,
    );
  }
  if (!entries.some((entry) => entry.name === 'word/document.xml')) {
    throw new IngestError(
      'MALFORMED_FILE',
      `${name} is a ZIP archive without word/document.xml, so it is not a Word document.`,
    );
  }
  const expanded = entries.reduce((total, entry) => total + entry.uncompressedSize, 0);
  if (expanded > MAX_DOCX_EXPANDED_BYTES) {
    throw new IngestError(
      'FILE_TOO_LARGE',
      `${name} would expand to ${Math.round(expanded / 1048576)} MB, more than the ${MAX_DOCX_EXPANDED_BYTES / 1048576} MB allowed.`,
    );
  }

  const xml = entries
    .filter((entry) => /\.(?:xml|rels)$/i.test(entry.name))
    .reduce((total, entry) => total + entry.uncompressedSize, 0);
  if (xml > MAX_DOCX_XML_BYTES) {
    throw new IngestError(
      'FILE_TOO_LARGE',
      `${name} holds ${Math.round(xml / 1048576)} MB of document XML, more than the ${MAX_DOCX_XML_BYTES / 1048576} MB allowed.`,
    );
  }

  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      {
        styleMap: STYLE_MAP,
        externalFileAccess: false,
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
      },
    );
    html = result.value;
  } catch (cause) {
    throw new IngestError(
      'MALFORMED_FILE',
      `${name} could not be read as a Word document (${cause instanceof Error ? cause.message : 'unknown error'}). ` +
        'Open it in Word or LibreOffice and save it again as .docx.',
      { cause },
    );
  }
  // mammoth's footnote/endnote back-links ("↑") are navigation, not text.
  html = html.replace(/<a href="#(?:footnote|endnote)-ref-[^"]*">\u2191<\/a>/g, '');

  const extracted = extractHtml(html);
  if (extracted.blocks.length === 0) {
    throw new IngestError('NO_TEXT', `${name} contains no text (it is empty or holds only images).`);
  }
  const core = readCoreProperties(bytes, entries);
  const firstHeading = extracted.blocks.find((block) => block.kind === 'heading')?.text;
  const coreTitle = core['title'];
  const title =
    firstHeading ??
    (typeof coreTitle === 'string' && coreTitle !== '' ? coreTitle : titleFromFilename(filename));
  return { title, mime: MIME_TYPES.docx, metadata: core, blocks: extracted.blocks };
}

/** Reads `docProps/core.xml` (OPC core properties); empty when absent or unreadable. */
function readCoreProperties(bytes: Uint8Array, entries: ZipEntry[]): Record<string, string> {
  const entry = entries.find((candidate) => candidate.name === 'docProps/core.xml');
  if (entry === undefined || entry.uncompressedSize > MAX_CORE_PROPERTIES_BYTES) return {};
  const xml = readEntry(bytes, entry);
  if (xml === undefined) return {};
  const properties: Record<string, string> = {};
  const fields: [string, string][] = [
    ['title', 'dc:title'],
    ['subject', 'dc:subject'],
    ['author', 'dc:creator'],
    ['keywords', 'cp:keywords'],
    ['description', 'dc:description'],
    ['created', 'dcterms:created'],
    ['modified', 'dcterms:modified'],
  ];
  for (const [key, element] of fields) {
    const match = new RegExp(`<${element}(?:\\s[^>]*)?>([^<]*)</${element}>`).exec(xml);
    const value = decodeEntities(match?.[1] ?? '')
      .replace(/\s+/g, ' ')
      .trim();
    if (value !== '') properties[key] = value.normalize('NFC');
  }
  return properties;
}

function readEntry(bytes: Uint8Array, entry: ZipEntry): string | undefined {
  try {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const offset = entry.localHeaderOffset;
    // APPNOTE §4.3.7: local file header, 30 bytes + name + extra field, then the data.
    if (offset + 30 > bytes.length || view.getUint32(offset, true) !== 0x04034b50) return undefined;
    const start = offset + 30 + view.getUint16(offset + 26, true) + view.getUint16(offset + 28, true);
    const data = bytes.subarray(start, start + entry.compressedSize);
    if (data.length !== entry.compressedSize) return undefined;
    const raw =
      entry.method === 0
        ? data
        : entry.method === 8
          ? inflateRawSync(data, { maxOutputLength: MAX_CORE_PROPERTIES_BYTES })
          : undefined;
    return raw === undefined ? undefined : new TextDecoder('utf-8').decode(raw);
  } catch {
    return undefined;
  }
}
