import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from './webhook-signature.js';

const SECRET = 'whsec_test_0123456789abcdef';
const BODY = JSON.stringify({ id: 'evt_1', type: 'document.ready', data: { document: { id: 'doc_1' } } });
const T = 1_750_000_000;
const NOW = T * 1000 + 30_000;

/** The signature as the server computes it, with node:crypto: HMAC-SHA256(secret, "<t>.<raw body>"). */
function sign(secret: string, t: number, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
}

describe('verifyWebhookSignature', () => {
  it('accepts the signature of the raw body within the tolerance', async () => {
    const header = `t=${T},v1=${sign(SECRET, T, BODY)}`;
    expect(await verifyWebhookSignature(SECRET, header, BODY, { now: NOW })).toBe(true);
    expect(
      await verifyWebhookSignature(SECRET, header, new TextEncoder().encode(BODY), { now: new Date(NOW) }),
    ).toBe(true);
  });

  it('matches a fixed vector', async () => {
    // HMAC-SHA256(key "whsec_test_0123456789abcdef", "1750000000.{}"), computed with node:crypto.
    const mac = '823cf88c9efd92b2273c22b8e29ab8b0a6e15b2c25d5883daf552e823aa42b69';
    expect(createHmac('sha256', SECRET).update('1750000000.{}').digest('hex')).toBe(mac);
    expect(await verifyWebhookSignature(SECRET, `t=1750000000,v1=${mac}`, '{}', { now: NOW })).toBe(true);
  });

  it('accepts any of several v1 signatures (secret rotation)', async () => {
    const header = `t=${T}, v1=${sign('whsec_old', T, BODY)}, v1=${sign(SECRET, T, BODY).toUpperCase()}`;
    expect(await verifyWebhookSignature(SECRET, header, BODY, { now: NOW })).toBe(true);
  });

  it('rejects a wrong secret, a changed body, a changed timestamp and a stale delivery', async () => {
    const mac = sign(SECRET, T, BODY);
    expect(await verifyWebhookSignature('whsec_other', `t=${T},v1=${mac}`, BODY, { now: NOW })).toBe(false);
    expect(await verifyWebhookSignature(SECRET, `t=${T},v1=${mac}`, `${BODY} `, { now: NOW })).toBe(false);
    expect(await verifyWebhookSignature(SECRET, `t=${T + 1},v1=${mac}`, BODY, { now: NOW })).toBe(false);
    expect(await verifyWebhookSignature(SECRET, `t=${T},v1=${mac}`, BODY, { now: NOW + 300_000 })).toBe(
      false,
    );
    expect(
      await verifyWebhookSignature(SECRET, `t=${T},v1=${mac}`, BODY, {
        now: NOW + 300_000,
        toleranceSeconds: 600,
      }),
    ).toBe(true);
  });

  it('returns false for malformed headers instead of throwing', async () => {
    const mac = sign(SECRET, T, BODY);
    for (const header of [
      null,
      undefined,
      '',
      `v1=${mac}`,
      `t=${T}`,
      `t=abc,v1=${mac}`,
      `t=${T},v1=${mac.slice(2)}`,
      `t=${T},v1=${'zz'.repeat(32)}`,
      `t=${T},v0=${mac}`,
      'garbage',
    ]) {
      expect(await verifyWebhookSignature(SECRET, header, BODY, { now: NOW }), String(header)).toBe(false);
    }
    expect(await verifyWebhookSignature('', `t=${T},v1=${mac}`, BODY, { now: NOW })).toBe(false);
  });
});
