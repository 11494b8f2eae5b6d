/**
 * `GET /api/v1/certificates/{id}?format=vc` (docs/api.md, "Certificates and verification") on a real
 * engine: the credential round-trips to the same certificate through `credentialToCertificate` of
 * `@saksi/proof`, its proof verifies with the issuer key the server publishes, the access rules are
 * those of the bundle, and a bad `format` is 400.
 */
import { createApiKey, DEFAULT_WORKSPACE } from '@saksi/engine';
import { type Bundle, fromBase64, parseJson, trustOptions, verifyBundle } from '@saksi/proof';
import { credentialToCertificate, publicKeyToDidKey, verifyDataIntegrity } from '@saksi/proof/vc';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifiableCredentialSchema } from './api-spec/response-schemas.js';
import { createApp } from './app.js';

let test: TestEngine;
let app: Hono;
let reader: string;
let publicBundle: Bundle;
let privateBundle: Bundle;

beforeAll(async () => {
  test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
  app = createApp(test.engine);
  const { engine } = test;
  await engine.ingest('helm', {
    bytes: new TextEncoder().encode(
      '# Helm\n\nSetiap pengendara sepeda motor wajib memakai helm yang memenuhi standar nasional Indonesia.\n',
    ),
    filename: 'helm.md',
  });
  await engine.collections.configure('helm', { public: true });
  await engine.ingest('catatan', {
    bytes: new TextEncoder().encode(
      '# Catatan\n\nRapat anggaran diadakan setiap hari Senin pukul sembilan.\n',
    ),
    filename: 'catatan.md',
  });
  publicBundle = (
    await engine.ask('helm', { question: 'Apakah pengendara sepeda motor wajib memakai helm?' })
  ).bundle;
  privateBundle = (await engine.ask('catatan', { question: 'Kapan rapat anggaran diadakan?' })).bundle;
  reader = (
    await createApiKey(engine.db, { workspaceId: DEFAULT_WORKSPACE, name: 'reader', scopes: ['read'] })
  ).key;
});

afterAll(async () => {
  await test?.close();
});

async function get(path: string, key?: string) {
  const response = await app.request(
    `/api/v1${path}`,
    key ? { headers: { authorization: `Bearer ${key}` } } : {},
  );
  const text = await response.text();
  expect(text).not.toMatch(/\n\s+at /);
  return { status: response.status, type: response.headers.get('content-type'), text };
}

describe('GET /api/v1/certificates/{id}?format=vc', () => {
  it('is a W3C credential that round-trips to the same certificate and verifies with the published issuer key', async () => {
    const id = publicBundle.certificate.certificate_id;
    const { status, type, text } = await get(`/certificates/${id}?format=vc`);
    expect(status).toBe(200);
    expect(type).toBe('application/vc');
    const credential = parseJson(text) as Record<string, unknown>;
    expect(verifiableCredentialSchema.safeParse(credential).error).toBeUndefined();
    expect(credential).toMatchObject({
      '@context': ['https://www.w3.org/ns/credentials/v2', 'https://saksi.dev/ns/certificate/v1'],
      id: `urn:uuid:${id}`,
      type: ['VerifiableCredential', 'SaksiAnswerCertificate'],
      validFrom: publicBundle.certificate.issued_at,
      proof: { type: 'DataIntegrityProof', cryptosuite: 'eddsa-jcs-2022', proofPurpose: 'assertionMethod' },
    });

    const imported = credentialToCertificate(credential);
    expect(imported.verified).toBe(true);
    expect(imported.certificate).toEqual(publicBundle.certificate);

    // The key the server publishes (what a verifier pins) is the one that signed the credential.
    const keys = await (await app.request('/.well-known/saksi-keys.json')).json();
    const pinned = fromBase64(keys.issuers[0].public_key);
    expect(imported.issuerPublicKey).toEqual(pinned);
    expect(credential['issuer']).toBe(publicKeyToDidKey(pinned));
    expect(verifyDataIntegrity(credential, { publicKey: pinned })).toEqual({ verified: true });

    // The certificate taken out of the credential is the one the bundle's signature and log entry cover.
    const bundle = { ...publicBundle, certificate: imported.certificate } as unknown as Bundle;
    expect(
      (await verifyBundle(bundle, { ...trustOptions(keys), vocabulary: SAKSI_VOCABULARY })).verdict,
    ).toBe('verified');

    // One changed character of the embedded certificate and the proof fails.
    const tampered = parseJson(text) as { credentialSubject: { certificate: { query: { text: string } } } };
    tampered.credentialSubject.certificate.query.text += '?';
    expect(credentialToCertificate(tampered).verified).toBe(false);
  });

  it('without format, or with format=vc, follows the bundle’s access rules', async () => {
    const id = privateBundle.certificate.certificate_id;
    expect((await get(`/certificates/${publicBundle.certificate.certificate_id}`)).status).toBe(200);
    const hidden = await get(`/certificates/${id}?format=vc`);
    expect(hidden.status).toBe(404);
    expect(JSON.parse(hidden.text).error.code).toBe('NOT_FOUND');
    expect((await get(`/certificates/${id}`)).status).toBe(404);
    const shown = await get(`/certificates/${id}?format=vc`, reader);
    expect(shown.status).toBe(200);
    expect(credentialToCertificate(parseJson(shown.text)).certificate).toEqual(privateBundle.certificate);
  });

  it('refuses any other format with 400 INVALID_INPUT', async () => {
    const id = publicBundle.certificate.certificate_id;
    for (const format of ['json', 'VC', '', 'vc%00', 'x'.repeat(500)]) {
      const { status, text } = await get(`/certificates/${id}?format=${format}`);
      expect(status, format).toBe(400);
      expect(JSON.parse(text).error.code).toBe('INVALID_INPUT');
    }
  });

  it('is 409 CONFLICT for a certificate issued under another issuer key', async () => {
    const id = privateBundle.certificate.certificate_id;
    await test.engine.db.query(
      `UPDATE certificates SET certificate = jsonb_set(certificate, '{issuer,key_id}', '"0000000000000000"') WHERE id = $1`,
      [id],
    );
    const { status, text } = await get(`/certificates/${id}?format=vc`, reader);
    expect(status).toBe(409);
    expect(JSON.parse(text).error.code).toBe('CONFLICT');
  });
});
