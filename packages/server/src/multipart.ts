/**
 * `multipart/form-data` bodies (RFC 7578), read the way the WHATWG multipart/form-data parser reads
 * them (the one behind `Request.formData()`), but without copying: the boundaries are found with
 * `Buffer.indexOf` and every part is a view into the body. `Request.formData()` holds the event loop
 * for about 180 ms on a 50 MB upload (it copies the body twice, then once more for `arrayBuffer()`);
 * this takes a few milliseconds, which is what keeps the server answering while a large file
 * arrives (docs/security.md).
 */

/** A malformed body; the upload route answers it with `400 INVALID_INPUT`. */
export class MultipartError extends Error {
  override readonly name = 'MultipartError';
}

export interface MultipartPart {
  /** The `name` of its Content-Disposition, with `%0A`, `%0D` and `%22` decoded as browsers encode them. */
  name: string;
  /** Present when the part is a file (its `filename`, decoded like `name`; may be empty). */
  filename?: string;
  /** The part's Content-Type, lower-cased; empty when absent or not printable ASCII (as `File.type`). */
  contentType: string;
  /** The part's bytes: a view into the body, not a copy. */
  data: Uint8Array;
}

/** Most parts in one body: an upload has a file and six fields. */
export const MAX_MULTIPART_PARTS = 64;
/** Most bytes of one part's headers. */
const MAX_HEADER_BYTES = 16 * 1024;

const CR = 0x0d;
const LF = 0x0a;
const DASH = 0x2d;
const HEADERS_END = Buffer.from('\r\n\r\n');
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const utf8 = new TextDecoder();

/** The `boundary` parameter of a multipart Content-Type (quoted or not), or undefined. */
export function multipartBoundary(contentType: string): string | undefined {
  const match = /;\s*boundary\s*=\s*(?:"([^"\r\n]{1,200})"|([^\s;,"]{1,200}))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/** The parts of a multipart body, in order. Throws {@link MultipartError} on anything malformed. */
export function parseMultipart(
  body: Uint8Array,
  boundary: string,
  maxParts: number = MAX_MULTIPART_PARTS,
): MultipartPart[] {
  const input = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const dashBoundary = Buffer.from(`--${boundary}`, 'utf8');
  const delimiter = Buffer.from(`\r\n--${boundary}`, 'utf8');
  // Leading and trailing line breaks are tolerated, as the platform's parser does.
  let position = 0;
  while (input[position] === CR && input[position + 1] === LF) position += 2;
  let end = input.length;
  while (end >= 2 && input[end - 2] === CR && input[end - 1] === LF) end -= 2;

  if (!input.subarray(position, position + dashBoundary.length).equals(dashBoundary)) {
    throw new MultipartError('The body does not start with its boundary.');
  }
  position += dashBoundary.length;
  const parts: MultipartPart[] = [];
  for (;;) {
    // After a boundary: `--` closes the body, a line break opens the next part.
    if (input[position] === DASH && input[position + 1] === DASH) {
      if (position + 2 === end) return parts;
      throw new MultipartError('Bytes follow the closing boundary.');
    }
    if (input[position] !== CR || input[position + 1] !== LF) {
      throw new MultipartError('A boundary is not followed by a line break.');
    }
    if (parts.length === maxParts) throw new MultipartError(`More than ${maxParts} parts.`);
    // The headers end at the first empty line (right away when the part has none).
    const headersEnd = input.indexOf(HEADERS_END, position);
    if (headersEnd < 0 || headersEnd - position > MAX_HEADER_BYTES) {
      throw new MultipartError('A part has no end to its headers.');
    }
    const headers = utf8.decode(input.subarray(position + 2, headersEnd));
    const dataStart = headersEnd + HEADERS_END.length;
    const dataEnd = input.indexOf(delimiter, dataStart);
    if (dataEnd < 0 || dataEnd > end) throw new MultipartError('A part is not closed by the boundary.');
    parts.push({ ...readHeaders(headers), data: body.subarray(dataStart, dataEnd) });
    position = dataEnd + delimiter.length;
  }
}

function readHeaders(block: string): Omit<MultipartPart, 'data'> {
  let disposition: { name: string; filename?: string } | undefined;
  let contentType = '';
  for (const line of block === '' ? [] : block.split('\r\n')) {
    const colon = line.indexOf(':');
    const name = colon < 0 ? '' : line.slice(0, colon).trim();
    if (!TOKEN.test(name)) throw new MultipartError('A part header is malformed.');
    const value = line.slice(colon + 1).trim();
    switch (name.toLowerCase()) {
      case 'content-disposition':
        disposition = readDisposition(value);
        break;
      case 'content-type':
        contentType = /^[\x20-\x7e]*$/.test(value) ? value.toLowerCase() : '';
        break;
    }
  }
  if (disposition === undefined) throw new MultipartError('A part has no Content-Disposition.');
  return { ...disposition, contentType };
}

/** `form-data; name="…"` with an optional `; filename="…"` (or `filename*="…"`). */
function readDisposition(value: string): { name: string; filename?: string } {
  const match = /^form-data\s*;\s*name="([^"\r\n]*)"(?:\s*;\s*filename\*?="([^"\r\n]*)")?/i.exec(value);
  if (!match) throw new MultipartError('A part is not form data with a quoted name.');
  const filename = match[2];
  return {
    name: decodeName(match[1] ?? ''),
    ...(filename !== undefined ? { filename: decodeName(filename) } : {}),
  };
}

/** Browsers send `"`, CR and LF in names as `%22`, `%0D` and `%0A` (the HTML standard's encoding). */
function decodeName(raw: string): string {
  return raw.replace(/%0A/gi, '\n').replace(/%0D/gi, '\r').replace(/%22/g, '"');
}

/** A part's bytes as text (fields). */
export function partText(part: MultipartPart): string {
  return utf8.decode(part.data);
}
