/**
 * Reading a request's text without the engine: the strict JSON of a body, the strings every schema
 * accepts (schemas.ts) and a schema's problems as one message. The verification threads
 * (verify-worker.ts) read a verify request with these; body.ts turns their {@link RequestProblem}
 * into the server's `ApiError`.
 */
import { parseJson } from '@saksi/proof';
import { type ZodError, z } from 'zod';

/** Deepest JSON nesting a request body may have; real bodies (bundles included) stay under 10. */
export const MAX_JSON_DEPTH = 64;

/** A request the server refuses, with its wire code and status (docs/api.md, "Errors"). */
export class RequestProblem extends Error {
  override readonly name = 'RequestProblem';
  readonly code: 'INVALID_JSON' | 'INVALID_INPUT' | 'BODY_TOO_LARGE';
  readonly status: 400 | 413;

  constructor(code: RequestProblem['code'], message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = code === 'BODY_TOO_LARGE' ? 413 : 400;
  }
}

/** Parses a JSON body: UTF-8, no duplicate keys, no lone surrogates, nested at most 64 deep. */
export function parseJsonBytes(bytes: Uint8Array, limit: number): unknown {
  if (bytes.byteLength === 0)
    throw new RequestProblem('INVALID_JSON', 'The request body is empty; send a JSON object.');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (cause) {
    throw new RequestProblem('INVALID_JSON', 'The request body is not valid UTF-8; send UTF-8 JSON.', {
      cause,
    });
  }
  try {
    return parseJson(text, { maxDepth: MAX_JSON_DEPTH, maxLength: limit });
  } catch (cause) {
    const detail = cause instanceof Error ? ` (${cause.message})` : '';
    throw new RequestProblem('INVALID_JSON', `The request body is not valid JSON${detail}.`, { cause });
  }
}

/** A string of at most `max` characters that PostgreSQL and RFC 8785 can both hold. */
export function text(max: number) {
  return z
    .string()
    .max(max)
    .refine((value) => !value.includes('\u0000'), 'must not contain NUL characters')
    .refine((value) => !LONE_SURROGATE.test(value), 'must be well-formed Unicode (no lone surrogates)');
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first three problems of a failed schema, each naming its field: `Invalid <what>: a: …; b: ….` */
export function describeIssues(error: ZodError, what: string): string {
  const issues = error.issues.slice(0, 3).map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : what;
    return `${field}: ${issue.message}`;
  });
  return `Invalid ${what}: ${issues.join('; ')}.`;
}
