/**
 * What kind of document is this? Magic bytes decide first, then the file name's extension, then the
 * declared media type, then a look at the text itself. Text is decoded strictly as UTF-8.
 *
 * Decisions:
 * - A file *named* `.pdf` (or declared `application/pdf`) whose bytes do not start with `%PDF-` is
 *   `MALFORMED_FILE`: the user meant a PDF and should re-export it. The same holds for `.docx` files
 *   that are not ZIP archives, and for damaged ZIP archives named `.docx`.
 * - A ZIP archive without `word/document.xml` (xlsx, pptx, odt, epub, plain zip) is `UNSUPPORTED_TYPE`.
 * - Known binary formats (images, legacy `.doc`, archives, executables) are `UNSUPPORTED_TYPE`
 *   whatever their name; so is anything with NUL bytes or invalid UTF-8 offered as text.
 */
import { plainLabel } from '@saksi/proof';
import { IngestError } from './errors.js';

export type SupportedType = 'markdown' | 'html' | 'docx' | 'pdf' | 'text';

/** The media type recorded on a parsed document of each type. */
export const MIME_TYPES: Readonly<Record<SupportedType, string>> = {
  markdown: 'text/markdown',
  html: 'text/html',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pdf: 'application/pdf',
  text: 'text/plain',
};

const EXTENSIONS: Readonly<Record<string, SupportedType>> = {
  md: 'markdown',
  mdx: 'markdown',
  markdown: 'markdown',
  mdown: 'markdown',
  mkd: 'markdown',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  txt: 'text',
  text: 'text',
  pdf: 'pdf',
  docx: 'docx',
};

const DECLARED_MIME: Readonly<Record<string, SupportedType>> = {
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/mdx': 'markdown',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/plain': 'text',
  'application/pdf': 'pdf',
  [MIME_TYPES.docx]: 'docx',
};

/** The lower-case extension of a file name without the dot (`''` when there is none). */
export function extensionOf(filename: string): string {
  const base = baseName(filename);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** The last path segment of a file name (both `/` and `\` separate). */
export function baseName(filename: string): string {
  const parts = filename.split(/[\\/]/);
  return parts[parts.length - 1] ?? filename;
}

/** A readable title from a file name: the base name without its extension. */
export function titleFromFilename(filename: string): string {
  const base = baseName(filename).trim();
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  return plainLabel(stem) || 'Untitled document';
}

/**
 * Decides the document type of `bytes`. Throws {@link IngestError}:
 * `EMPTY_FILE` (0 bytes or whitespace only), `UNSUPPORTED_TYPE` (binary or unknown format),
 * `MALFORMED_FILE` (named `.pdf`/`.docx` but the bytes are not).
 */
export function detectType(bytes: Uint8Array, filename: string, declaredMime?: string): SupportedType {
  if (bytes.length === 0) {
    throw new IngestError('EMPTY_FILE', `${baseName(filename)} is empty (0 bytes); upload the file again.`);
  }
  const extension = extensionOf(filename);
  const mime = declaredMime?.split(';')[0]?.trim().toLowerCase() ?? '';
  const claimed = EXTENSIONS[extension] ?? DECLARED_MIME[mime];

  if (hasPdfMagic(bytes)) return 'pdf';
  if (hasZipMagic(bytes)) return detectZip(bytes, filename, claimed);

  if (isEncryptedOoxml(bytes)) {
    throw new IngestError(
      'ENCRYPTED_FILE',
      `${baseName(filename)} is a password-protected Office document; remove the password and upload it again.`,
    );
  }
  const binary = knownBinaryFormat(bytes);
  if (binary !== undefined) {
    // A scanned page is read by OCR only inside a PDF (pdf.ts), where its page size is known.
    const hint = binary.endsWith(' image') ? ' (a scan is read by OCR when it is a page of a PDF)' : '';
    throw new IngestError(
      'UNSUPPORTED_TYPE',
      `${baseName(filename)} is ${binary}, which Saksi cannot read${hint}; upload PDF, DOCX, Markdown, HTML or plain text.`,
    );
  }
  if (isAsciiWhitespace(bytes)) {
    throw new IngestError('EMPTY_FILE', `${baseName(filename)} contains only whitespace.`);
  }
  if (claimed === 'pdf') {
    throw new IngestError(
      'MALFORMED_FILE',
      `${baseName(filename)} is named or declared as a PDF but does not start with "%PDF-"; re-export it as PDF.`,
    );
  }
  if (claimed === 'docx') {
    throw new IngestError(
      'MALFORMED_FILE',
      `${baseName(filename)} is named or declared as a Word document but is not a ZIP archive; re-save it as .docx.`,
    );
  }

  const text = decodeText(bytes, filename);
  const byName = EXTENSIONS[extension];
  if (byName !== undefined) return byName;
  const byMime = DECLARED_MIME[mime];
  if (byMime !== undefined) return byMime;
  return sniffText(text);
}

/**
 * Decodes text strictly: UTF-8 only (a BOM is removed), no NUL bytes, few control characters;
 * then CRLF/CR → LF and Unicode NFC. Throws `UNSUPPORTED_TYPE` for binary or non-UTF-8 content and
 * `EMPTY_FILE` when nothing but whitespace remains.
 */
export function decodeText(bytes: Uint8Array, filename = 'the file'): string {
  const name = baseName(filename);
  if (bytes.length === 0) throw new IngestError('EMPTY_FILE', `${name} is empty (0 bytes).`);
  if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe)) {
    throw new IngestError(
      'UNSUPPORTED_TYPE',
      `${name} is UTF-16 encoded text; save it as UTF-8 and upload it again.`,
    );
  }
  if (bytes.indexOf(0) !== -1) {
    throw new IngestError('UNSUPPORTED_TYPE', `${name} contains NUL bytes: it is binary, not text.`);
  }
  let raw: string;
  try {
    raw = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (cause) {
    throw new IngestError(
      'UNSUPPORTED_TYPE',
      `${name} is not valid UTF-8 text; convert it to UTF-8 or upload a PDF/DOCX instead.`,
      { cause },
    );
  }
  const controls = raw.match(/[\u0001-\u0008\u000e-\u001a\u001c-\u001f\u007f]/g)?.length ?? 0;
  if (controls > 16 && controls > raw.length / 100) {
    throw new IngestError(
      'UNSUPPORTED_TYPE',
      `${name} is full of control characters: it is binary, not text.`,
    );
  }
  const text = raw.replace(/\r\n?/g, '\n').normalize('NFC');
  if (/^\s*$/u.test(text)) {
    throw new IngestError('EMPTY_FILE', `${name} contains only whitespace.`);
  }
  return text;
}

function isAsciiWhitespace(bytes: Uint8Array): boolean {
  for (const byte of bytes) {
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) return false;
  }
  return true;
}

function sniffText(text: string): SupportedType {
  const head = text.slice(0, 8192).trimStart();
  const lower = head.toLowerCase();
  if (lower.startsWith('<!doctype html') || lower.startsWith('<html') || /<(head|body)[\s>]/.test(lower)) {
    return 'html';
  }
  if (
    /^---\n[\s\S]*?\n---\n/.test(head) ||
    /^#{1,6}[ \t]+\S/m.test(head) ||
    /^(```|~~~)/m.test(head) ||
    /\[[^[\]\n]{1,200}\]\([^)\s]{1,500}\)/.test(head)
  ) {
    return 'markdown';
  }
  return 'text';
}

function hasPdfMagic(bytes: Uint8Array): boolean {
  // ISO 32000-1 §7.5.2: the header is "%PDF-"; readers accept it within the first 1024 bytes.
  const limit = Math.min(bytes.length - 5, 1024);
  for (let i = 0; i <= limit; i++) {
    if (
      bytes[i] === 0x25 &&
      bytes[i + 1] === 0x50 &&
      bytes[i + 2] === 0x44 &&
      bytes[i + 3] === 0x46 &&
      bytes[i + 4] === 0x2d
    ) {
      return true;
    }
  }
  return false;
}

function hasZipMagic(bytes: Uint8Array): boolean {
  // PKWARE APPNOTE §4.3.7 local file header "PK\x03\x04", or §4.3.16 end record of an empty archive.
  return (
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    ((bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06))
  );
}

function detectZip(bytes: Uint8Array, filename: string, claimed: SupportedType | undefined): SupportedType {
  const name = baseName(filename);
  const entries = listZipEntries(bytes);
  if (entries === undefined) {
    if (claimed === 'docx') {
      throw new IngestError(
        'MALFORMED_FILE',
        `${name} looks like a Word document but its ZIP structure is damaged or truncated; re-save it as .docx.`,
      );
    }
    throw new IngestError('UNSUPPORTED_TYPE', `${name} is a damaged ZIP archive, not a supported document.`);
  }
  const names = new Set(entries.map((entry) => entry.name));
  if (names.has('word/document.xml')) return 'docx';
  const kind = names.has('xl/workbook.xml')
    ? 'an Excel workbook (.xlsx)'
    : names.has('ppt/presentation.xml')
      ? 'a PowerPoint presentation (.pptx)'
      : names.has('mimetype')
        ? 'an OpenDocument or EPUB archive'
        : 'a ZIP archive';
  throw new IngestError(
    'UNSUPPORTED_TYPE',
    `${name} is ${kind}, not a Word document; upload PDF, DOCX, Markdown, HTML or plain text.`,
  );
}

/**
 * MS-OFFCRYPTO §2.3.4: a password-protected .docx is an OLE2 compound file holding an
 * "EncryptedPackage" stream (its directory entry name is UTF-16LE).
 */
function isEncryptedOoxml(bytes: Uint8Array): boolean {
  const ole2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1].every((byte, index) => bytes[index] === byte);
  if (!ole2) return false;
  const needle = Array.from('EncryptedPackage').flatMap((character) => [character.charCodeAt(0), 0]);
  const limit = Math.min(bytes.length, 16 * 1024 * 1024) - needle.length;
  outer: for (let index = 0; index <= limit; index++) {
    for (let offset = 0; offset < needle.length; offset++) {
      if (bytes[index + offset] !== needle[offset]) continue outer;
    }
    return true;
  }
  return false;
}

function knownBinaryFormat(bytes: Uint8Array): string | undefined {
  const startsWith = (...signature: number[]) => signature.every((byte, index) => bytes[index] === byte);
  if (startsWith(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)) {
    return 'a legacy Office file (.doc/.xls/.ppt); save it as .docx or PDF';
  }
  if (startsWith(0x89, 0x50, 0x4e, 0x47)) return 'a PNG image';
  if (startsWith(0xff, 0xd8, 0xff)) return 'a JPEG image';
  if (startsWith(0x47, 0x49, 0x46, 0x38)) return 'a GIF image';
  if (startsWith(0x49, 0x49, 0x2a, 0x00) || startsWith(0x4d, 0x4d, 0x00, 0x2a)) return 'a TIFF image';
  if (startsWith(0x52, 0x49, 0x46, 0x46)) return 'a RIFF media file';
  if (startsWith(0x1f, 0x8b)) return 'a gzip archive';
  if (startsWith(0x52, 0x61, 0x72, 0x21)) return 'a RAR archive';
  if (startsWith(0x37, 0x7a, 0xbc, 0xaf)) return 'a 7-Zip archive';
  if (startsWith(0x7f, 0x45, 0x4c, 0x46)) return 'an ELF executable';
  if (startsWith(0x4d, 0x5a)) return 'a Windows executable';
  if (startsWith(0x7b, 0x5c, 0x72, 0x74, 0x66)) return 'an RTF document; save it as .docx or PDF';
  return undefined;
}

/** One entry of a ZIP central directory (PKWARE APPNOTE §4.3.12). */
export interface ZipEntry {
  name: string;
  /** 0 = stored, 8 = deflate. */
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const MAX_ZIP_ENTRIES = 100_000;

/**
 * Reads the central directory of a ZIP archive without inflating anything. Returns `undefined` when
 * the end-of-central-directory record or the directory itself is missing or inconsistent.
 */
export function listZipEntries(bytes: Uint8Array): ZipEntry[] | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (offset: number) => view.getUint16(offset, true);
  const u32 = (offset: number) => view.getUint32(offset, true);
  // APPNOTE §4.3.16: the end record is 22 bytes plus a comment of at most 65535 bytes.
  let end = -1;
  for (let i = bytes.length - 22; i >= 0 && i >= bytes.length - 22 - 0xffff; i--) {
    if (u32(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) return undefined;
  let count = u16(end + 10);
  let size = u32(end + 12);
  let offset = u32(end + 16);
  if (offset === 0xffffffff || size === 0xffffffff || count === 0xffff) {
    // APPNOTE §4.3.14–4.3.15: ZIP64 end record, found through its locator just before the end record.
    const locator = end - 20;
    if (locator < 0 || u32(locator) !== 0x07064b50) return undefined;
    const zip64End = Number(view.getBigUint64(locator + 8, true));
    if (zip64End + 56 > bytes.length || u32(zip64End) !== 0x06064b50) return undefined;
    count = Number(view.getBigUint64(zip64End + 32, true));
    size = Number(view.getBigUint64(zip64End + 40, true));
    offset = Number(view.getBigUint64(zip64End + 48, true));
  }
  if (count > MAX_ZIP_ENTRIES || offset + size > bytes.length) return undefined;
  const decoder = new TextDecoder('utf-8');
  const entries: ZipEntry[] = [];
  let position = offset;
  for (let index = 0; index < count; index++) {
    if (position + 46 > bytes.length || u32(position) !== 0x02014b50) return undefined;
    const nameLength = u16(position + 28);
    const extraLength = u16(position + 30);
    const commentLength = u16(position + 32);
    if (position + 46 + nameLength > bytes.length) return undefined;
    entries.push({
      name: decoder.decode(bytes.subarray(position + 46, position + 46 + nameLength)),
      method: u16(position + 10),
      compressedSize: u32(position + 20),
      uncompressedSize: u32(position + 24),
      localHeaderOffset: u32(position + 42),
    });
    position += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
