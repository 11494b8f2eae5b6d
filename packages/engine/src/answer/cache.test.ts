/**
 * The answer cache (docs/engine.md, "The answer cache") on a real engine: a question asked again on
 * unchanged content gets the earlier answer in a certificate issued again for the new asker, which
 * verifies and names the new asker's session, never the first asker's; any change to the collection's
 * documents, another setting or glossary, a follow-up or a selection question is answered afresh; certificates
 * carry a keyed reference to the session, never its id.
 */
import { matchSessionReference, trustOptions, utf8Encode, verifyBundle } from '@saksi/proof';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneAnswerCache } from '../answer-storage.js';
import { demoGlossary } from '../retrieve/dictionaries/corpus-text.js';
import { getChatSession } from '../sessions.js';
import { answerCacheKey } from './cache.js';

const LAW = `# UU Contoh

Pasal 106

(8) Setiap orang yang mengemudikan Sepeda Motor dan Penumpang Sepeda Motor wajib menggunakan helm yang memenuhi standar nasional Indonesia.

Pasal 291

(1) Setiap orang yang mengemudikan Sepeda Motor tidak menggunakan helm standar nasional Indonesia dipidana dengan pidana kurungan paling lama 1 (satu) bulan atau denda paling banyak Rp250.000,00 (dua ratus lima puluh ribu rupiah).
`;

const MORE = `# Peraturan Lain

Pasal 77

(1) Setiap orang yang mengemudikan Kendaraan Bermotor di Jalan wajib memiliki Surat Izin Mengemudi sesuai dengan jenis Kendaraan Bermotor yang dikemudikan.
`;

const QUESTION = 'Berapa denda tidak memakai helm saat naik motor?';

let test: TestEngine;

beforeAll(async () => {
  test = await openTestEngine({ env: { SAKSI_ANCHOR: 'none' } });
  await test.engine.ingest('hukum', { bytes: utf8Encode(LAW), filename: 'uu-contoh.md' });
  // A collection the answer check was not calibrated on is released at the strictest λ; these tests
  // need a released answer, so the collection accepts the highest risk (docs/engine.md).
  await test.engine.collections.configure('hukum', { answer_risk: 0.5 });
}, 120_000);

afterAll(async () => {
  await test?.close();
});

async function entries(): Promise<number> {
  return (await test.engine.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM answer_cache'))
    .rows[0]!.n;
}

describe('the answer cache', () => {
  it('answers a question asked again with the earlier answer, in a certificate of the new asker that verifies', async () => {
    const first = await test.engine.ask('hukum', { question: QUESTION });
    expect(first.cached).toBe(false);
    expect(first.found).toBe(true);
    expect(first.answer).toContain('Rp250.000,00');
    // Another asker, the same question (white space at its ends is not part of it).
    const again = await test.engine.ask('hukum', { question: `  ${QUESTION}\n` });
    expect(again.cached).toBe(true);
    expect(again.session_id).not.toBe(first.session_id);
    expect(again.answer).toBe(first.answer);
    expect(again.results.map((result) => result.chunk_id)).toEqual(
      first.results.map((result) => result.chunk_id),
    );
    // The earlier answer, its question, retrieval and claims as they were, in a certificate of its own.
    const earlier = first.bundle.certificate;
    const reissued = again.bundle.certificate;
    expect(reissued.certificate_id).not.toBe(earlier.certificate_id);
    expect([reissued.query.text, reissued.retrieval, reissued.answer, reissued.claims]).toEqual([
      earlier.query.text,
      earlier.retrieval,
      earlier.answer,
      earlier.claims,
    ]);
    expect(again.bundle.chunks).toEqual(first.bundle.chunks);
    expect(again.bundle.log.leaf_index).toBeGreaterThan(first.bundle.log.leaf_index);
    const verification = await verifyBundle(again.bundle, {
      ...trustOptions(test.engine.trustedKeys()),
      presentedQuestion: `  ${QUESTION}\n`,
      vocabulary: SAKSI_VOCABULARY,
    });
    expect(verification.verdict).toBe('verified');
    // Each certificate names the session it was asked in, never the first asker's, and never by its id.
    expect(reissued.query.session_id).toBeDefined();
    expect(reissued.query.session_id).not.toBe(earlier.query.session_id);
    expect(matchSessionReference(reissued, again.session_id)).toEqual({ status: 'belongs', form: 'keyed' });
    expect(matchSessionReference(reissued, first.session_id)).toEqual({ status: 'other', form: 'keyed' });
    expect(matchSessionReference(earlier, first.session_id)).toEqual({ status: 'belongs', form: 'keyed' });
    expect(JSON.stringify(again.bundle)).not.toContain(first.session_id.slice(4));
    expect(JSON.stringify(first.bundle)).not.toContain(first.session_id.slice(4));
    // The turn is in the new asker's session, pointing at the new asker's certificate.
    const session = await getChatSession(test.engine.db, again.session_id);
    expect(session.messages.map((message) => message.certificate_id)).toEqual([
      null,
      reissued.certificate_id,
    ]);
    const hits = await test.engine.db.query<{ hits: number }>('SELECT hits FROM answer_cache');
    expect(hits.rows.map((row) => row.hits)).toEqual([1]);
  });

  it('answers afresh for another setting, a follow-up in a session, or a selection question', async () => {
    const otherTopK = await test.engine.ask('hukum', { question: QUESTION, top_k: 3 });
    expect(otherTopK.cached).toBe(false);
    const opener = await test.engine.ask('hukum', { question: 'Naik motor wajib pakai helm?' });
    const followUp = await test.engine.ask('hukum', {
      question: 'Dendanya berapa?',
      session_id: opener.session_id,
    });
    const followUpAgain = await test.engine.ask('hukum', {
      question: 'Dendanya berapa?',
      session_id: opener.session_id,
    });
    expect([followUp.cached, followUpAgain.cached]).toEqual([false, false]);
    const selection = {
      question: 'Apa artinya?',
      mode: 'selection' as const,
      selection: 'helm yang memenuhi standar nasional Indonesia',
    };
    await test.engine.ask('hukum', selection);
    expect((await test.engine.ask('hukum', selection)).cached).toBe(false);
  });

  it('answers afresh under another glossary, whose hash the certificate records', async () => {
    const withGlossary = await test.engine.collections.setGlossary('hukum', demoGlossary('traffic'));
    const rewritten = await test.engine.ask('hukum', { question: QUESTION });
    expect(rewritten.cached).toBe(false);
    expect(rewritten.bundle.certificate.retrieval.parameters.glossary_sha256).toBe(
      withGlossary.glossary_sha256,
    );
    const verification = await verifyBundle(rewritten.bundle, {
      ...trustOptions(test.engine.trustedKeys()),
      presentedQuestion: QUESTION,
      vocabulary: SAKSI_VOCABULARY,
    });
    expect(verification.verdict).toBe('verified');
    expect((await test.engine.ask('hukum', { question: QUESTION })).cached).toBe(true);
    // Without the glossary again: the earlier answers' key, no glossary in the certificate.
    await test.engine.collections.setGlossary('hukum', null);
    const plain = await test.engine.ask('hukum', { question: QUESTION });
    expect(plain.cached).toBe(true);
    expect(plain.bundle.certificate.retrieval.parameters.glossary_sha256).toBeUndefined();
  });

  it('answers afresh under another calibration, keyed by its SHA-256; a fresh ask neither reads nor fills it', async () => {
    const collection = await test.engine.collections.get('hukum');
    const shape = { generator: 'extractive:x' } as unknown as Parameters<typeof answerCacheKey>[2];
    const calibrated = (sha256: string, points: number) => ({
      ...collection,
      profile: {
        ...collection.profile,
        answer_calibration: { version: 1, sha256, points: Array(points).fill({}) },
      },
    });
    const key = (of: typeof collection) => answerCacheKey(of, QUESTION, shape);
    expect(key(calibrated('a'.repeat(64), 30))).toBe(key(calibrated('a'.repeat(64), 40)));
    expect(key(calibrated('a'.repeat(64), 30))).not.toBe(key(calibrated('b'.repeat(64), 30)));
    expect(key(calibrated('a'.repeat(64), 30))).not.toBe(key(collection));
    const question = 'Apakah fresh dijawab ulang?';
    expect((await test.engine.ask('hukum', { question }, { fresh: true })).cached).toBe(false);
    expect((await test.engine.ask('hukum', { question }, { fresh: true })).cached).toBe(false);
    expect((await test.engine.ask('hukum', { question })).cached).toBe(false);
    expect((await test.engine.ask('hukum', { question })).cached).toBe(true);
  });

  it('answers afresh once a document is added or deleted, and prunes what is stale', async () => {
    const before = await test.engine.ask('hukum', { question: QUESTION });
    expect(before.cached).toBe(true);
    const added = await test.engine.ingest('hukum', { bytes: utf8Encode(MORE), filename: 'lain.md' });
    const afterAdding = await test.engine.ask('hukum', { question: QUESTION });
    expect(afterAdding.cached).toBe(false);
    expect(afterAdding.bundle.certificate.certificate_id).not.toBe(before.bundle.certificate.certificate_id);
    expect((await test.engine.ask('hukum', { question: QUESTION })).cached).toBe(true);
    await test.engine.documents.delete(added.document.id);
    expect((await test.engine.ask('hukum', { question: QUESTION })).cached).toBe(false);
    // Entries of an older content version go; so do those beyond the most kept per collection.
    await test.engine.ingest('hukum', { bytes: utf8Encode(MORE), filename: 'lain.md' });
    const kept = await entries();
    expect(kept).toBeGreaterThan(1);
    expect(await pruneAnswerCache(test.engine.db, 10)).toBe(kept);
    expect(await entries()).toBe(0);
    await test.engine.ask('hukum', { question: QUESTION });
    await test.engine.ask('hukum', { question: 'Naik motor wajib pakai helm?' });
    expect(await pruneAnswerCache(test.engine.db, 1)).toBe(1);
    expect(await entries()).toBe(1);
  });

  it('is off with SAKSI_ANSWER_CACHE=off', async () => {
    const off = await openTestEngine({ env: { SAKSI_ANCHOR: 'none', SAKSI_ANSWER_CACHE: 'off' } });
    try {
      await off.engine.ingest('hukum', { bytes: utf8Encode(LAW), filename: 'uu-contoh.md' });
      await off.engine.ask('hukum', { question: QUESTION });
      expect((await off.engine.ask('hukum', { question: QUESTION })).cached).toBe(false);
    } finally {
      await off.close();
    }
  }, 60_000);
});
