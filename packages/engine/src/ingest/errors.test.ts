import { describe, expect, it } from 'vitest';
import { IngestError, isIngestError } from './errors.js';

describe('IngestError', () => {
  it('carries a code, a cause and optional details', () => {
    const cause = new Error('inner');
    const error = new IngestError('MALFORMED_FILE', 'broken', { cause, details: 'line 3' });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('IngestError');
    expect(error.code).toBe('MALFORMED_FILE');
    expect(error.cause).toBe(cause);
    expect(error.details).toBe('line 3');
    expect('details' in new IngestError('NO_TEXT', 'empty')).toBe(false);
  });

  it('isIngestError narrows by class and optionally by code', () => {
    const error = new IngestError('EMPTY_FILE', 'empty');
    expect(isIngestError(error)).toBe(true);
    expect(isIngestError(error, 'EMPTY_FILE')).toBe(true);
    expect(isIngestError(error, 'NO_TEXT')).toBe(false);
    expect(isIngestError(new Error('x'))).toBe(false);
    expect(isIngestError({ code: 'EMPTY_FILE' })).toBe(false);
  });
});
