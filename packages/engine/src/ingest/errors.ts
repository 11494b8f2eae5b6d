import { SaksiError } from '../errors.js';

/**
 * Every failure while reading an uploaded document is an {@link IngestError} with a string-literal
 * `code`. Tests assert the code, never the message text.
 */
export type IngestErrorCode =
  /** The bytes are not a format Saksi reads (or a binary file claims to be text). */
  | 'UNSUPPORTED_TYPE'
  /** Zero bytes, or only whitespace. */
  | 'EMPTY_FILE'
  /** The file claims a format but its structure is broken (truncated PDF, damaged ZIP, bad frontmatter). */
  | 'MALFORMED_FILE'
  /** The file is password-protected. */
  | 'ENCRYPTED_FILE'
  /** The file is larger than the configured limit (or would expand beyond it). */
  | 'FILE_TOO_LARGE'
  /** The file parsed but holds no extractable text (scanned PDF, empty Word document). */
  | 'NO_TEXT'
  /** The document passes an ingestion limit (chunks, text, pages, memory); `limit` names it. */
  | 'QUOTA_EXCEEDED';

/** The HTTP status of an ingestion failure answered synchronously (docs/api.md, "Errors"). */
function ingestStatus(code: IngestErrorCode): number {
  return code === 'FILE_TOO_LARGE' ? 413 : code === 'UNSUPPORTED_TYPE' ? 415 : 422;
}

/** A typed ingestion error: `code` is stable, `message` says what happened and what to do. */
export class IngestError extends SaksiError<IngestErrorCode> {
  override readonly name = 'IngestError';
  declare readonly details?: string;
  /** The limit a `QUOTA_EXCEEDED` passed: its setting and value. */
  declare readonly limit?: { name: string; value: number };

  constructor(
    code: IngestErrorCode,
    message: string,
    options: { cause?: unknown; details?: string; limit?: { name: string; value: number } } = {},
  ) {
    super(code, message, { cause: options.cause, status: ingestStatus(code) });
    if (options.details !== undefined) this.details = options.details;
    if (options.limit !== undefined) this.limit = options.limit;
  }
}

/** True when `error` is an {@link IngestError}, optionally with the given code. */
export function isIngestError(error: unknown, code?: IngestErrorCode): error is IngestError {
  return error instanceof IngestError && (code === undefined || error.code === code);
}
