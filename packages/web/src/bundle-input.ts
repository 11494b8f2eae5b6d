/**
 * Reading a bundle a reader pastes or uploads on the verify page: hostile input, checked before it is
 * parsed. The size is checked before a file is read, and the text is parsed by the proof package's
 * iterative `parseJson` with a depth limit (no recursion a deep value could exhaust, duplicate names
 * refused), so a 50 MB file or a value nested a million levels deep gives a typed error at once
 * instead of a frozen page.
 */
import { isProofError, parseJson } from '@saksi/proof';

/** The largest bundle the page reads: the server's own `/verify` limit (a bundle carries its chunks). */
export const BUNDLE_MAX_BYTES = 16 * 1024 * 1024;
/**
 * The deepest nesting a bundle needs is about ten levels (an anchor's batch proof path); 32 leaves
 * room for any future field while refusing pathological input.
 */
export const BUNDLE_MAX_DEPTH = 32;
/** Texts longer than this are not put into the text box: a file that large is verified from memory. */
export const BUNDLE_SHOWN_MAX_CHARS = 256 * 1024;

export type BundleInputCode = 'EMPTY' | 'TOO_LARGE' | 'TOO_DEEP' | 'NOT_JSON' | 'DUPLICATE_NAME';

/** Why a pasted or uploaded bundle could not be read; `code` picks the message a reader sees. */
export class BundleInputError extends Error {
  override readonly name = 'BundleInputError';
  constructor(
    readonly code: BundleInputCode,
    message: string,
    /** For `TOO_LARGE`: the size found and the limit, in bytes. */
    readonly size?: { found: number; limit: number },
  ) {
    super(message);
  }
}

/** Refuses a file larger than {@link BUNDLE_MAX_BYTES} before any of it is read. */
export function checkBundleSize(bytes: number): void {
  if (bytes > BUNDLE_MAX_BYTES) {
    throw new BundleInputError(
      'TOO_LARGE',
      `The bundle is ${bytes} bytes; the limit is ${BUNDLE_MAX_BYTES}.`,
      {
        found: bytes,
        limit: BUNDLE_MAX_BYTES,
      },
    );
  }
}

/**
 * The pasted or uploaded text as a JSON value. Throws {@link BundleInputError}: `EMPTY`, `TOO_LARGE`
 * (over {@link BUNDLE_MAX_BYTES} as UTF-16 code units, checked before parsing), `TOO_DEEP` (nested
 * deeper than {@link BUNDLE_MAX_DEPTH}), `DUPLICATE_NAME` (a member name twice in one object, which
 * JSON.parse would silently collapse) or `NOT_JSON`.
 */
export function readBundleText(text: string): unknown {
  if (text.trim() === '') throw new BundleInputError('EMPTY', 'There is nothing to verify.');
  // Each UTF-16 code unit is at least one byte of UTF-8: a longer text is surely too large.
  checkBundleSize(text.length);
  try {
    return parseJson(text, { maxDepth: BUNDLE_MAX_DEPTH, maxLength: BUNDLE_MAX_BYTES });
  } catch (error) {
    if (isProofError(error, 'JSON_TOO_DEEP'))
      throw new BundleInputError('TOO_DEEP', `The JSON is nested deeper than ${BUNDLE_MAX_DEPTH} levels.`);
    if (isProofError(error, 'JSON_DUPLICATE_KEY'))
      throw new BundleInputError('DUPLICATE_NAME', 'The JSON repeats a member name in one object.');
    throw new BundleInputError('NOT_JSON', 'The text is not JSON.');
  }
}
