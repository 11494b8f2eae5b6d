/**
 * `POST /api/v1/verify` off the event loop (verify-pool.ts, docs/api.md): the limits per bundle as
 * typed errors, a full queue as 503 with `Retry-After`, the caller's budget counted in work units, and
 * a verification on a thread giving exactly the inline result.
 */
import { BUNDLE_LIMITS, type BundleLimit, measureBundle, trustOptions } from '@saksi/proof';
import { bearer, testApiKey } from '@saksi/test-support/api-key';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { buildGoldenFixture } from '@saksi/test-support/golden';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { UnavailableError } from './errors.js';
import { inlineVerifier, VerifyPool } from './verify-pool.js';
import { type VerificationContext, verificationWork } from './verify-request.js';

const golden = buildGoldenFixture({ version: 'v1.1' });
const goldenText = JSON.stringify(golden.bundle);
const encode = (value: unknown) =>
  new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));
/** The golden bundle's work units: what one verification of it costs a caller. */
const goldenUnits = verificationWork(measureBundle(golden.bundle), encode(goldenText).byteLength);

// biome-ignore lint/suspicious/noExplicitAny: hostile bundles are edited freely
type Loose = any;

/** The golden bundle with its first claim copied `claims` times, each with `evidence` copies of its first span. */
function copied(claims: number, evidence = 1): Loose {
  const bundle: Loose = structuredClone(golden.bundle);
  const claim = bundle.certificate.claims[0];
  bundle.certificate.claims = Array.from({ length: claims }, (_, i) => ({
    ...structuredClone(claim),
    claim_id: `c${i}`,
    evidence: Array.from({ length: evidence }, () => structuredClone(claim.evidence[0])),
  }));
  return bundle;
}

/**
 * Bundles over limits per bundle, small ones (bundle-limits.test.ts in @saksi/proof passes every
 * limit; here the route's answer to them).
 */
function overLimits(): [BundleLimit, Loose][] {
  const chunks: Loose = structuredClone(golden.bundle);
  chunks.chunks = Array.from({ length: BUNDLE_LIMITS.chunks + 1 }, () => chunks.chunks[0]);
  const proof: Loose = structuredClone(golden.bundle);
  proof.log.inclusion_proof = Array(BUNDLE_LIMITS.proofLength + 1).fill('00'.repeat(32));
  const cosigned: Loose = structuredClone(golden.bundle);
  cosigned.log.cosignatures = Array(BUNDLE_LIMITS.cosignatures + 1).fill(cosigned.log.cosignatures[0]);
  return [
    ['claims', copied(BUNDLE_LIMITS.claims + 1)],
    ['evidencePerClaim', { bundle: copied(1, BUNDLE_LIMITS.evidencePerClaim + 1) }],
    ['chunks', chunks],
    ['proofLength', { bundle: proof, question: 'Berapa denda?' }],
    ['cosignatures', cosigned],
  ];
}

/** The golden keys as the server's options: what a thread is given, no I/O callbacks. */
function goldenContext(charge: (units: number) => Promise<void> = async () => {}): VerificationContext {
  return { trust: trustOptions(golden.keys), callbacks: {}, charge };
}

async function post(app: Hono, body: unknown, headers: Record<string, string> = {}) {
  const response = await app.request('/api/v1/verify', {
    method: 'POST',
    body: JSON.stringify(body),
    headers,
  });
  const json = (await response.json()) as Loose;
  return { status: response.status, json, retryAfter: response.headers.get('retry-after') };
}

describe('a verification thread', () => {
  const pool = new VerifyPool({ workers: 1, queue: 1 });
  afterAll(() => pool.close());

  it('gives the inline result: the golden bundle verifies, a tampered one fails the same way', async () => {
    const inline = inlineVerifier();
    const onThread = await pool.verify(encode(goldenText), goldenContext());
    expect(JSON.parse(onThread).verdict).toBe('verified');
    expect(onThread).toBe(await inline.verify(encode(goldenText), goldenContext()));
    const tampered = goldenText.replace('Rp500.000,00', 'Rp5.000.000,00');
    const failed = await pool.verify(encode(tampered), goldenContext());
    expect(JSON.parse(failed).verdict).toBe('failed');
    expect(JSON.parse(failed).codes).toContain('SIGNATURE_INVALID');
    expect(failed).toBe(await inline.verify(encode(tampered), goldenContext()));
    // The wrapped form, with the question presented, and a body that is not JSON.
    const wrapped = { bundle: golden.bundle, question: 'Berapa denda tidak pakai helm?' };
    expect(await pool.verify(encode(wrapped), goldenContext())).toBe(
      await inline.verify(encode(wrapped), goldenContext()),
    );
    await expect(pool.verify(encode('{"certificate":'), goldenContext())).rejects.toMatchObject({
      code: 'INVALID_JSON',
      status: 400,
    });
  });

  it('charges the work units of the bundle before verifying it', async () => {
    const charged: number[] = [];
    await pool.verify(
      encode(goldenText),
      goldenContext(async (units) => void charged.push(units)),
    );
    expect(charged).toEqual([goldenUnits]);
  });

  it('refuses at once with 503 and a wait when every thread is busy and the queue is full', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The first verification holds the thread in its charge; the second waits in the queue of one.
    const first = pool.verify(
      encode(goldenText),
      goldenContext(() => held),
    );
    const second = pool.verify(encode(goldenText), goldenContext());
    await expect(pool.verify(encode(goldenText), goldenContext())).rejects.toBeInstanceOf(UnavailableError);
    expect(() => pool.reserve()).toThrow(UnavailableError);
    release();
    expect(JSON.parse(await first).verdict).toBe('verified');
    expect(JSON.parse(await second).verdict).toBe('verified');
    expect(pool.load).toEqual({ running: 0, waiting: 0, reserved: 0 });
    // A place reserved for a body being read counts as a verification; given back, it is free again.
    const places = [pool.reserve(), pool.reserve()];
    expect(() => pool.reserve()).toThrow(UnavailableError);
    for (const place of places) place.release();
    expect(pool.load.reserved).toBe(0);
  });
});

describe('POST /api/v1/verify', () => {
  let test: TestEngine;
  /** A key's header: its verification work is its own budget, apart from the anonymous address's. */
  let auth: Record<string, string>;
  beforeAll(async () => {
    // A budget of three golden bundles (and a unit), far below the anonymous limit of 300 requests.
    test = await openTestEngine({
      env: { SAKSI_ANCHOR: 'none', SAKSI_VERIFY_WORK_LIMIT: String(3 * goldenUnits + 1) },
    });
    auth = bearer(await testApiKey(test.engine));
  });
  afterAll(() => test?.close());

  it('answers a bundle over a limit per bundle with 413 BODY_TOO_LARGE naming the limit and its value', async () => {
    const app = createApp(test.engine, { verifier: inlineVerifier() });
    for (const [limit, body] of overLimits()) {
      const response = await post(app, body, auth);
      expect(response.status, limit).toBe(413);
      expect(response.json.error.code).toBe('BODY_TOO_LARGE');
      expect(response.json.error.message).toContain(`the limit "${limit}" is ${BUNDLE_LIMITS[limit]}`);
    }
    // Nothing else changed: a bundle within the limits is verified (against this server's keys: not
    // its issuer), and the server still answers.
    const ordinary = await post(app, golden.bundle, auth);
    expect(ordinary.status).toBe(200);
    expect(ordinary.json.codes).toEqual(['UNKNOWN_ISSUER', 'CHECKPOINT_SIGNATURE_INVALID']);
    expect((await app.request('/api/v1/health')).status).toBe(200);
  });

  it('runs on the verification threads by default, with the same answer as inline', async () => {
    const app = createApp(test.engine);
    const body = { bundle: golden.bundle, question: 'Berapa denda?' };
    const onThread = await post(app, body, auth);
    const inline = await post(createApp(test.engine, { verifier: inlineVerifier() }), body, auth);
    expect(onThread.status).toBe(200);
    expect(onThread.json).toEqual(inline.json);
    expect(onThread.json.codes).toEqual(['UNKNOWN_ISSUER', 'QUERY_MISMATCH', 'CHECKPOINT_SIGNATURE_INVALID']);
  });

  it('answers 503 with Retry-After when the threads are busy and the queue is full', async () => {
    const pool = new VerifyPool({ workers: 1, queue: 0 });
    // The one thread is busy from the moment its verification starts, whatever it is doing.
    const held = pool.verify(
      encode(goldenText),
      goldenContext(() => new Promise<void>(() => {})),
    );
    const busy = await post(createApp(test.engine, { verifier: pool }), golden.bundle, auth);
    expect(busy.status).toBe(503);
    expect(busy.json.error.code).toBe('UNAVAILABLE');
    expect(Number(busy.retryAfter)).toBeGreaterThanOrEqual(1);
    // Closing the pool ends the verification that held it.
    const ended = expect(held).rejects.toBeInstanceOf(UnavailableError);
    await pool.close();
    await ended;
  });

  it('counts an address’s budget in work units: 429 after three golden bundles, not after 300 requests', async () => {
    const app = createApp(test.engine, { verifier: inlineVerifier() });
    for (let i = 0; i < 3; i++) expect((await post(app, golden.bundle)).status).toBe(200);
    const refused = await post(app, golden.bundle);
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe('RATE_LIMITED');
    expect(refused.json.error.message).toContain(`budget of ${3 * goldenUnits + 1} work units a minute`);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    // Other public routes are not charged work: the address's request limit is far from spent; a
    // key has its own budget (a new key: on PostgreSQL the budgets are shared by every app, so the
    // tests above spent some of theirs).
    expect((await app.request('/api/v1/health')).status).toBe(200);
    expect((await post(app, golden.bundle, bearer(await testApiKey(test.engine)))).status).toBe(200);
  });
});
