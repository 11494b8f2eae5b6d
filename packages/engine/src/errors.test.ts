import { describe, expect, it } from 'vitest';
import { AnchorError } from './anchor/provider.js';
import { RateLimitedError } from './auth.js';
import { EngineError, isEngineError, isSaksiError, SaksiError } from './errors.js';
import { IngestError } from './ingest/errors.js';
import { JobLeaseLostError } from './jobs/queue.js';
import { LlmError } from './llm/errors.js';

describe('SaksiError', () => {
  it('is the base of every layer’s error, with its code, status and ES2022 cause', () => {
    const cause = new Error('disk full');
    const errors = [
      new EngineError('DATABASE_ERROR', 'The database failed.', { cause }),
      new IngestError('NO_TEXT', 'No text.', { cause }),
      new LlmError('LLM_TIMEOUT', { cause }),
      new AnchorError('RPC_ERROR', 'The RPC failed.', { cause }),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(SaksiError);
      expect(error).toBeInstanceOf(Error);
      expect(isSaksiError(error)).toBe(true);
      expect(error.cause).toBe(cause);
    }
    expect(errors.map((error) => [error.name, error.code, error.status])).toEqual([
      ['EngineError', 'DATABASE_ERROR', 500],
      ['IngestError', 'NO_TEXT', 422],
      ['LlmError', 'LLM_TIMEOUT', 504],
      ['AnchorError', 'RPC_ERROR', 500],
    ]);
  });

  it('leaves `cause` absent when none is given, and keeps subclass names and codes', () => {
    const error = new EngineError('NOT_FOUND', 'No such thing.');
    expect('cause' in error).toBe(false);
    expect(error.status).toBe(404);
    expect(new EngineError('INGEST_FAILED', 'Too big.', { status: 413 }).status).toBe(413);
    const limited = new RateLimitedError(30);
    expect(limited).toBeInstanceOf(EngineError);
    expect(isEngineError(limited, 'RATE_LIMITED')).toBe(true);
    expect([limited.name, limited.status]).toEqual(['EngineError', 429]);
    const lost = new JobLeaseLostError('job_1');
    expect([lost.name, lost.code, lost.status, lost.jobId]).toEqual([
      'JobLeaseLostError',
      'JOB_LEASE_LOST',
      500,
      'job_1',
    ]);
  });

  it('maps ingestion codes to the statuses of docs/api.md', () => {
    expect(new IngestError('FILE_TOO_LARGE', 'x').status).toBe(413);
    expect(new IngestError('UNSUPPORTED_TYPE', 'x').status).toBe(415);
    expect(new IngestError('EMPTY_FILE', 'x').status).toBe(422);
    expect(new IngestError('QUOTA_EXCEEDED', 'x').status).toBe(422);
  });

  it('does not claim foreign errors', () => {
    expect(isSaksiError(new Error('x'))).toBe(false);
    expect(isSaksiError({ name: 'EngineError', code: 'NOT_FOUND', status: 404, message: 'x' })).toBe(false);
  });
});
