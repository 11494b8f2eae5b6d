/**
 * Checking a webhook delivery's `Saksi-Signature` header on the receiving side:
 * `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. Web Crypto only, so it runs in
 * Node 20, browsers and edge runtimes. Like every signature check here, it returns false and never
 * throws (STYLE.md "Errors").
 */

export interface VerifyWebhookOptions {
  /** Largest accepted distance between `t` and now, in seconds (replay window); default 300. */
  toleranceSeconds?: number;
  /** The current time (a Date or milliseconds since the epoch); default now. */
  now?: Date | number;
}

const DEFAULT_TOLERANCE_SECONDS = 300;
/** A timestamp is at most 12 digits (seconds until the year 33658); a MAC is 32 bytes of hex. */
const TIMESTAMP = /^\d{1,12}$/;
const HMAC_SHA256_HEX = /^[0-9a-f]{64}$/i;

/**
 * True when `header` carries a `v1` signature of `rawBody` under `secret` with a timestamp within the
 * tolerance. Pass the body exactly as received (before any JSON parsing): the MAC is over its bytes.
 *
 * @example
 * const ok = await verifyWebhookSignature(secret, request.headers.get('saksi-signature'), await request.text());
 */
export async function verifyWebhookSignature(
  secret: string,
  header: string | null | undefined,
  rawBody: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): Promise<boolean> {
  try {
    if (typeof header !== 'string' || header.length > 4096 || secret.length === 0) return false;
    let timestamp: string | undefined;
    const signatures: string[] = [];
    for (const part of header.split(',')) {
      const index = part.indexOf('=');
      if (index < 0) continue;
      const name = part.slice(0, index).trim();
      const value = part.slice(index + 1).trim();
      if (name === 't') timestamp = value;
      else if (name === 'v1' && HMAC_SHA256_HEX.test(value)) signatures.push(value.toLowerCase());
    }
    if (timestamp === undefined || !TIMESTAMP.test(timestamp) || signatures.length === 0) return false;
    const now = options.now === undefined ? Date.now() : Number(options.now);
    const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    if (Math.abs(now / 1000 - Number(timestamp)) > tolerance) return false;

    const encoder = new TextEncoder();
    const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
    const prefix = encoder.encode(`${timestamp}.`);
    const message = new Uint8Array(prefix.byteLength + body.byteLength);
    message.set(prefix, 0);
    message.set(body, prefix.byteLength);
    const key = await crypto.subtle.importKey(
      'raw',
      encoder.encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const expected = new Uint8Array(await crypto.subtle.sign('HMAC', key, message));
    let matched = false;
    for (const signature of signatures) {
      if (constantTimeEqual(expected, fromHex(signature))) matched = true;
    }
    return matched;
  } catch {
    return false;
  }
}

function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index++) {
    bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  }
  return bytes;
}

/** Compares without stopping at the first difference, so timing tells nothing about the MAC. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= a[index]! ^ b[index]!;
  return difference === 0;
}
