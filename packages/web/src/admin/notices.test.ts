import { describe, expect, it } from 'vitest';
import { AdminApiError, adminError } from './admin-api.js';
import { loginNotice } from './notices.js';

function reply(status: number, code: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: { code, message: `${code} happened` } }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

describe('admin notices', () => {
  it('reads the code, status and Retry-After of an admin error reply', async () => {
    const limited = await adminError(reply(429, 'RATE_LIMITED', { 'Retry-After': '120' }));
    expect(limited).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryAfter: 120 });
    const odd = await adminError(
      reply(429, 'RATE_LIMITED', { 'Retry-After': 'Wed, 21 Oct 2026 07:28:00 GMT' }),
    );
    expect(odd.retryAfter).toBeUndefined();
    const broken = await adminError(new Response('<html>', { status: 502 }));
    expect(broken).toMatchObject({ code: 'HTTP_502', status: 502 });
  });

  it('words sign-in failures: generic, rate limited with the wait, expired, server trouble', async () => {
    expect(loginNotice(await adminError(reply(401, 'LOGIN_FAILED')))).toEqual({ key: 'admin.login.failed' });
    expect(loginNotice(await adminError(reply(400, 'INVALID_INPUT')))).toEqual({ key: 'admin.login.failed' });
    expect(loginNotice(await adminError(reply(429, 'RATE_LIMITED', { 'Retry-After': '60' })))).toEqual({
      key: 'admin.login.rateLimited',
      values: { seconds: 60 },
    });
    expect(loginNotice(new AdminApiError('RATE_LIMITED', 'slow down', 429))).toEqual({
      key: 'admin.login.rateLimitedLater',
    });
    expect(loginNotice(await adminError(reply(401, 'SESSION_EXPIRED')))).toEqual({
      key: 'admin.login.expired',
    });
    expect(loginNotice(await adminError(reply(500, 'INTERNAL')))).toEqual({ key: 'admin.login.serverError' });
    expect(loginNotice(new AdminApiError('NETWORK', 'down'))).toEqual({ key: 'admin.login.serverError' });
    expect(loginNotice(new TypeError('x'))).toEqual({ key: 'admin.login.serverError' });
  });
});
