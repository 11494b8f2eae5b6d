import { SaksiApiError } from '@saksi/client';
import { describe, expect, it } from 'vitest';
import { toApiError } from './api.js';

describe('the page’s error codes', () => {
  it('keeps a server code, and turns the client’s own into the page’s', () => {
    expect(toApiError(new SaksiApiError('QUOTA_EXCEEDED', 413, 'Too big.'))).toMatchObject({
      code: 'QUOTA_EXCEEDED',
      status: 413,
      message: 'Too big.',
    });
    expect(toApiError(new SaksiApiError('TIMEOUT', 0, 'x')).code).toBe('NETWORK');
    expect(toApiError(new SaksiApiError('ABORTED', 0, 'x')).code).toBe('NETWORK');
    expect(toApiError(new SaksiApiError('BAD_RESPONSE', 502, 'x')).code).toBe('HTTP_502');
    expect(toApiError(new SaksiApiError('BAD_RESPONSE', 200, 'x')).code).toBe('MALFORMED');
    expect(toApiError(new SaksiApiError('STREAM_ENDED', 0, 'x')).code).toBe('STREAM_ENDED');
    expect(toApiError(new TypeError('Failed to fetch')).code).toBe('NETWORK');
  });

  it('names a code the page does not know UNKNOWN_CODE, keeping the server’s code in the message', () => {
    // A newer server than the page (one loaded before the upgrade) may send a code added since.
    expect(toApiError(new SaksiApiError('PAYMENT_REQUIRED', 402, 'Pay first.'))).toMatchObject({
      code: 'UNKNOWN_CODE',
      status: 402,
      message: 'PAYMENT_REQUIRED: Pay first.',
    });
  });
});
