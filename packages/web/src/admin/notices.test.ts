import { SaksiClient } from '@saksi/client';
import { describe, expect, it } from 'vitest';
import { AdminApiError, adminError } from './admin-api.js';
import { loginNotice } from './notices.js';

function reply(status: number, code: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: { code, message: `${code} happened` } }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** The admin error a sign-in answered with `response` becomes, read by the page's client. */
async function failed(response: Response): Promise<AdminApiError> {
  const client = new SaksiClient({ baseUrl: 'http://saksi.test', fetch: async () => response });
  return client.admin.login('admin@example.org', 'a password').then(
    () => expect.unreachable('the sign-in should fail'),
    (error: unknown) => adminError(error),
  );
}

describe('admin notices', () => {
  it('reads the code, status and Retry-After of an admin error reply', async () => {
    const limited = await failed(reply(429, 'RATE_LIMITED', { 'Retry-After': '120' }));
    expect(limited).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryAfter: 120 });
    // The HTTP-date form (RFC 9110 §10.2.3) counts until that date; an unreadable one is no wait.
    const later = new Date(Date.now() + 90_000).toUTCString();
    const dated = await failed(reply(429, 'RATE_LIMITED', { 'Retry-After': later }));
    expect(dated.retryAfter).toBeGreaterThanOrEqual(88);
    expect(dated.retryAfter).toBeLessThanOrEqual(90);
    const odd = await failed(reply(429, 'RATE_LIMITED', { 'Retry-After': 'soon' }));
    expect(odd.retryAfter).toBeUndefined();
    const broken = await failed(new Response('<html>', { status: 502 }));
    expect(broken).toMatchObject({ code: 'HTTP_502', status: 502 });
  });

  it('words sign-in failures: generic, rate limited with the wait, expired, server trouble', async () => {
    expect(loginNotice(await failed(reply(401, 'LOGIN_FAILED')))).toEqual({ key: 'admin.login.failed' });
    expect(loginNotice(await failed(reply(400, 'INVALID_INPUT')))).toEqual({ key: 'admin.login.failed' });
    expect(loginNotice(await failed(reply(429, 'RATE_LIMITED', { 'Retry-After': '60' })))).toEqual({
      key: 'admin.login.rateLimited',
      values: { seconds: 60 },
    });
    expect(loginNotice(new AdminApiError('RATE_LIMITED', 'slow down', 429))).toEqual({
      key: 'admin.login.rateLimitedLater',
    });
    expect(loginNotice(await failed(reply(401, 'SESSION_EXPIRED')))).toEqual({
      key: 'admin.login.expired',
    });
    expect(loginNotice(await failed(reply(500, 'INTERNAL')))).toEqual({ key: 'admin.login.serverError' });
    expect(loginNotice(new AdminApiError('NETWORK', 'down'))).toEqual({ key: 'admin.login.serverError' });
    expect(loginNotice(new TypeError('x'))).toEqual({ key: 'admin.login.serverError' });
  });
});
