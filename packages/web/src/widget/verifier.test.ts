/**
 * The widget's verifier on real bundles (the proof package's golden fixtures and its reference
 * issuer, signed with the golden keys): what the badge says for an authentic answer, a refusal, a
 * tampered figure, a replayed question, a changed server key and missing keys. The server is a fetch
 * that serves the keys document, as `/.well-known/saksi-keys.json` does.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type Bundle, parseTrustedKeys, type TrustedKeys, toBase64 } from '@saksi/proof';
import { createNoteSigner, issueBundle, MemoryLog } from '@saksi/proof/issue';
import {
  GOLDEN_DOCUMENTS,
  GOLDEN_ISSUER,
  GOLDEN_ORIGIN,
  GOLDEN_QUESTION,
  testSecretKey,
} from '@saksi/test-support/golden';
import { describe, expect, it } from 'vitest';
import { type PinStorage, pinStorageKey } from './pinning.js';
import { CHECK_WORDS } from './strings.js';
import { KEYS_PATH, verifyAnswer } from './verifier.js';

const fixtures = path.resolve(import.meta.dirname, '../../../proof/__fixtures__');
const golden = JSON.parse(readFileSync(path.join(fixtures, 'golden-v1.1-bundle.json'), 'utf8')) as Bundle;
const keysText = readFileSync(path.join(fixtures, 'golden-keys.json'), 'utf8');
const keys = parseTrustedKeys(keysText);
const SERVER = 'https://saksi.example';

function memoryStorage(): PinStorage {
  const map = new Map<string, string>();
  return { getItem: (key) => map.get(key) ?? null, setItem: (key, value) => void map.set(key, value) };
}

/** A server that publishes `published` (undefined: its keys path fails). */
function server(published: TrustedKeys | undefined): typeof fetch {
  return (async (url: string | URL | Request) => {
    expect(String(url)).toBe(`${SERVER}${KEYS_PATH}`);
    if (published === undefined) return new Response('{"error":{}}', { status: 503 });
    return new Response(JSON.stringify(published), { headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
}

const verify = (
  bundle: unknown,
  options: {
    storage?: PinStorage;
    published?: TrustedKeys | undefined;
    question?: string;
    trustPublished?: boolean;
  } = {},
) =>
  verifyAnswer({
    server: SERVER,
    bundle,
    question: options.question ?? GOLDEN_QUESTION,
    lang: 'en',
    storage: options.storage ?? memoryStorage(),
    fetch: server('published' in options ? options.published : keys),
    ...(options.trustPublished ? { trustPublished: true } : {}),
  });

/** The golden bundle with its fine changed from Rp500.000,00 to Rp50.000,00 in the answer and claims. */
function tamperedFigure(): Bundle {
  const bundle = structuredClone(golden);
  const change = (text: string) => text.replaceAll('Rp500.000,00', 'Rp50.000,00');
  bundle.certificate.answer.text = change(bundle.certificate.answer.text);
  for (const claim of bundle.certificate.claims) claim.text = change(claim.text);
  return bundle;
}

const otherKeys: TrustedKeys = {
  ...keys,
  issuers: [{ name: 'saksi-golden', public_key: toBase64(new Uint8Array(32).fill(9)) }],
};

describe('verifyAnswer', () => {
  it('an authentic answer: authentic, every claim supported, relevant; the keys pinned on first use', async () => {
    const storage = memoryStorage();
    const first = await verify(golden, { storage });
    expect(first).toMatchObject({
      state: 'verified',
      authentic: true,
      supported: 2,
      claims: 2,
      relevance: 'relevant',
      pin: 'first-use',
      problems: [],
    });
    expect(first.fingerprint).toMatch(/^[0-9a-f]{4}( [0-9a-f]{4}){3}$/);
    expect(storage.getItem(pinStorageKey(SERVER))).not.toBeNull();
    expect((await verify(golden, { storage })).pin).toBe('pinned');
  });

  it('a changed figure fails, with what failed in plain words', async () => {
    const result = await verify(tamperedFigure());
    expect(result).toMatchObject({ state: 'failed', authentic: false, supported: 0, relevance: 'unknown' });
    expect(result.problems).toContain(CHECK_WORDS.en.signature);
    expect(result.problems).toContain(CHECK_WORDS.en.claim_offsets);
  });

  it('a bundle presented for another question fails', async () => {
    const result = await verify(golden, { question: 'Berapa denda parkir?' });
    expect(result.state).toBe('failed');
    expect(result.problems).toEqual([CHECK_WORDS.en.query_replay]);
  });

  it('a refusal is authentic and not answered, never verified', async () => {
    const question = 'Berapa denda parkir di bandara?';
    const refusal = issueBundle({
      documents: GOLDEN_DOCUMENTS,
      question,
      answer: 'Dokumen tidak memuat bukti yang cukup untuk pertanyaan ini.',
      claims: [],
      retrieved: ['uu22-p287-a3'],
      outcome: 'refused',
      refusal: { reason: 'NOT_COVERED' },
      issuerName: GOLDEN_ISSUER,
      issuerSecretKey: testSecretKey('issuer'),
      log: new MemoryLog(GOLDEN_ORIGIN),
      logSigner: createNoteSigner(GOLDEN_ORIGIN, testSecretKey('log')),
      issued_at: '2026-11-21T10:00:00Z',
    });
    // The golden keys ask for two witness cosignatures; this log has none.
    const result = await verify(refusal, { question, published: { ...keys, required_cosignatures: 0 } });
    expect(result).toMatchObject({ state: 'refused', authentic: true, claims: 0 });
  });

  it('a changed server key is a warning and nothing is checked, until the reader trusts the new key', async () => {
    const storage = memoryStorage();
    await verify(golden, { storage });
    const changed = await verify(golden, { storage, published: otherKeys });
    expect(changed).toMatchObject({ state: 'key-changed', authentic: null, pin: 'changed' });
    expect(changed.published).toBeDefined();
    expect(changed.published).not.toBe(changed.fingerprint);
    // Trusting the new key pins it; this answer was signed with the old one, so it now fails.
    const trusted = await verify(golden, { storage, published: otherKeys, trustPublished: true });
    expect(trusted).toMatchObject({ state: 'failed', pin: 'pinned' });
    expect(trusted.problems).toContain(CHECK_WORDS.en.issuer);
  });

  it('without published keys it checks with the pinned ones, and with no pin it cannot check', async () => {
    const storage = memoryStorage();
    expect(await verify(golden, { storage, published: undefined })).toMatchObject({
      state: 'unavailable',
      authentic: null,
    });
    await verify(golden, { storage });
    expect(await verify(golden, { storage, published: undefined })).toMatchObject({
      state: 'verified',
      pin: 'pinned',
    });
  });

  it('never throws on hostile input: it is a failed check', async () => {
    for (const hostile of [null, 'x', { certificate: 1 }, { ...golden, signature: 42 }])
      expect((await verify(hostile)).state).toBe('failed');
  });
});
