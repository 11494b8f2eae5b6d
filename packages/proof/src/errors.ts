/**
 * Every failure in `@saksi/proof` is a {@link ProofError} with a string-literal `code`.
 * Tests assert the code, never the message text.
 */
export type ProofErrorCode =
  // input decoding
  | 'INVALID_HEX'
  | 'INVALID_BASE64'
  | 'INVALID_BASE58'
  | 'INVALID_LENGTH'
  | 'INPUT_TOO_LARGE'
  // RFC 8785 / JSON
  | 'JSON_PARSE_ERROR'
  | 'JSON_DUPLICATE_KEY'
  | 'JSON_TOO_DEEP'
  | 'JCS_UNSUPPORTED_VALUE'
  | 'JCS_LONE_SURROGATE'
  // RFC 6962
  | 'MERKLE_INDEX_OUT_OF_RANGE'
  | 'MERKLE_PROOF_TOO_LONG'
  | 'MERKLE_INVALID_ARGUMENT'
  | 'MERKLE_PROOF_INVALID'
  // C2SP signed notes, checkpoints, cosignatures
  | 'NOTE_MALFORMED'
  | 'NOTE_KEY_MALFORMED'
  | 'CHECKPOINT_MALFORMED'
  | 'COSIGNATURE_TIMESTAMP_INVALID'
  // Certificates and bundles
  | 'CERTIFICATE_INVALID'
  | 'BUNDLE_INVALID'
  | 'BUNDLE_LIMIT_EXCEEDED'
  | 'CREDENTIAL_INVALID'
  | 'KEY_INVALID';

/** A typed error: `code` is stable, `message` says what happened and what to do. */
export class ProofError extends Error {
  override readonly name = 'ProofError';
  readonly code: ProofErrorCode;
  readonly details: string | undefined;

  constructor(code: ProofErrorCode, message: string, options: { cause?: unknown; details?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details;
  }
}

/** True when `error` is a {@link ProofError}, optionally with the given code. */
export function isProofError(error: unknown, code?: ProofErrorCode): error is ProofError {
  return error instanceof ProofError && (code === undefined || error.code === code);
}
