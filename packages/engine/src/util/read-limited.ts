/**
 * The one reader of a byte stream up to a limit: request bodies, uploads and the responses of
 * servers we do not control are hostile (docs/security.md), so sizes are checked before anything
 * is buffered — first the declared `Content-Length`, then a running count while the stream is read,
 * which cancels the stream as soon as the limit would be passed.
 */

/**
 * Bytes read, or copied, between two turns of the event loop. A body that has already arrived is
 * read in microtasks only, so without these turns a 50 MB upload held the loop for about 200 ms
 * (docs/security.md). Bodies read at the same time take their steps in the same turn — eight 16 MiB
 * bundles sent to `POST /verify` at once held it for 500–600 ms with steps of 4 MiB — so a step is
 * small.
 */
const STEP_BYTES = 256 * 1024;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export interface ReadLimitedOptions {
  /**
   * The declared length, as the raw `Content-Length` header (`null` when absent). A length above
   * `maxBytes` fails before any byte is read; one that is not a plain decimal number is ignored, and
   * the count while reading still holds.
   */
  declaredLength?: string | null | undefined;
}

/** A `Content-Length` value as a number, or `undefined` unless it is a plain decimal number. */
export function parseDeclaredLength(header: string | null | undefined): number | undefined {
  if (header === null || header === undefined) return undefined;
  const trimmed = header.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
}

/**
 * Reads `stream` whole, failing with the error `onTooLarge` returns once it holds more than
 * `maxBytes` bytes (the stream is then cancelled). A `null` stream reads as no bytes. Errors of the
 * stream itself propagate unchanged, for the caller to turn into its own error type.
 *
 * @example
 * const bytes = await readLimited(response.body, 1024, () => new Error('too large'), {
 *   declaredLength: response.headers.get('content-length'),
 * });
 */
export async function readLimited(
  stream: ReadableStream<Uint8Array> | null | undefined,
  maxBytes: number,
  onTooLarge: () => Error,
  options: ReadLimitedOptions = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = parseDeclaredLength(options.declaredLength);
  if (declared !== undefined && declared > maxBytes) {
    await stream?.cancel().catch(() => undefined);
    throw onTooLarge();
  }
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  // With a declared length the body is copied into place as it arrives, so no step copies it whole.
  let bytes = new Uint8Array(declared ?? 0);
  const parts: Uint8Array[] = [];
  let size = 0;
  let sinceTurn = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw onTooLarge();
    }
    if (parts.length === 0 && size + value.byteLength <= bytes.length) bytes.set(value, size);
    else parts.push(value);
    size += value.byteLength;
    sinceTurn += value.byteLength;
    if (sinceTurn >= STEP_BYTES) {
      sinceTurn = 0;
      await yieldToEventLoop();
    }
  }
  if (parts.length === 0) return size === bytes.length ? bytes : bytes.slice(0, size);
  // No length declared (or a wrong one): the parts are joined, a step at a time.
  const placed = size - parts.reduce((sum, part) => sum + part.byteLength, 0);
  const joined = new Uint8Array(size);
  joined.set(bytes.subarray(0, placed));
  let offset = placed;
  bytes = joined;
  sinceTurn = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
    sinceTurn += part.byteLength;
    if (sinceTurn >= STEP_BYTES) {
      sinceTurn = 0;
      await yieldToEventLoop();
    }
  }
  return bytes;
}
