/**
 * The server's error codes against the wire union of `@saksi/client` (docs/architecture.md, "Errors"):
 * the type-level check fails `npm run typecheck` when a code the server can emit is missing from
 * `ApiErrorCode`; the test maps one error of every code through {@link toErrorResponse}, as a request would.
 */
import { API_ERROR_CODES, type ApiErrorCode, isApiErrorCode } from '@saksi/client';
import {
  EngineError,
  type EngineErrorCode,
  IngestError,
  type IngestErrorCode,
  LlmError,
  type LlmErrorCode,
  RateLimitedError,
} from '@saksi/engine';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  RateLimitError,
  type ServerErrorCode,
  toErrorResponse,
  UnavailableError,
} from './errors.js';

/** Every code a response, an SSE `error` event or a job's `error` can carry; `UNAVAILABLE` is fetch-handler.ts's 503. */
type EmittedCode = ServerErrorCode | EngineErrorCode | IngestErrorCode | LlmErrorCode | 'UNAVAILABLE';
type Missing = Exclude<EmittedCode, ApiErrorCode>;
const everyCodeIsOnTheWire: [Missing] extends [never] ? true : Missing = true;

// Records keyed by each union: adding a code to the engine or the server without listing it here fails typecheck.
const SERVER: Record<ServerErrorCode, number> = {
  INVALID_INPUT: 400,
  INVALID_JSON: 400,
  NOT_FOUND: 404,
  WORKSPACE_NOT_FOUND: 404,
  FILE_TOO_LARGE: 413,
  BODY_TOO_LARGE: 413,
  EMPTY_FILE: 422,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};
const ENGINE: Record<EngineErrorCode, true> = {
  NOT_FOUND: true,
  FILE_NOT_FOUND: true,
  INVALID_INPUT: true,
  INVALID_BASE_URL: true,
  INVALID_GLOSSARY: true,
  CONFLICT: true,
  CONFIG_INVALID: true,
  DATABASE_ERROR: true,
  INGEST_FAILED: true,
  LOG_ERROR: true,
  KEYS_INVALID: true,
  COSIGNATURE_INVALID: true,
  WITNESS_UNKNOWN: true,
  LOGIN_FAILED: true,
  UNAUTHENTICATED: true,
  SESSION_EXPIRED: true,
  CSRF_INVALID: true,
  RATE_LIMITED: true,
  FORBIDDEN: true,
  QUOTA_EXCEEDED: true,
  WEBHOOK_URL_FORBIDDEN: true,
};
const INGEST: Record<IngestErrorCode, true> = {
  UNSUPPORTED_TYPE: true,
  EMPTY_FILE: true,
  MALFORMED_FILE: true,
  ENCRYPTED_FILE: true,
  FILE_TOO_LARGE: true,
  NO_TEXT: true,
  QUOTA_EXCEEDED: true,
};
const LLM: Record<LlmErrorCode, true> = {
  LLM_RATE_LIMITED: true,
  LLM_UNAVAILABLE: true,
  LLM_TIMEOUT: true,
  LLM_BAD_RESPONSE: true,
  LLM_AUTH: true,
  LLM_ABORTED: true,
};

function keys<Code extends string>(record: Record<Code, unknown>): Code[] {
  return Object.keys(record) as Code[];
}

describe('wire error codes', () => {
  it('lists each code once', () => {
    expect(everyCodeIsOnTheWire).toBe(true);
    expect(new Set(API_ERROR_CODES).size).toBe(API_ERROR_CODES.length);
  });

  it('covers every code toErrorResponse can send', () => {
    const errors: unknown[] = [
      ...keys(SERVER).map((code) => new ApiError(code, SERVER[code], 'x')),
      ...keys(ENGINE).flatMap((code) => [
        new EngineError(code, 'x'),
        new EngineError(code, 'x', { status: 413 }),
        new EngineError(code, 'x', { status: 400 }),
      ]),
      ...keys(INGEST).flatMap((code) => [
        new IngestError(code, 'x'),
        new EngineError('INGEST_FAILED', 'x', { cause: new IngestError(code, 'x'), status: 422 }),
      ]),
      ...keys(LLM).map((code) => new LlmError(code)),
      new RateLimitError('x', 3),
      new RateLimitedError(3),
      new UnavailableError('x', 2),
      new Error('x'),
      'not an error',
    ];
    for (const error of errors) {
      const code = toErrorResponse(error).body.error.code;
      expect(isApiErrorCode(code), code).toBe(true);
    }
  });
});
