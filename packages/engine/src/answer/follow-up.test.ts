import { readFileSync } from 'node:fs';
import path from 'node:path';
import { trustOptions, verifyBundle } from '@saksi/proof';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoGlossary } from '../retrieve/dictionaries/corpus-text.js';
import { followUpVariant, isElliptical } from './follow-up.js';

const shared = path.resolve(import.meta.dirname, '../../../../../shared/data');
const uu22 = new Uint8Array(
  readFileSync(path.join(shared, 'corpora/uu-22-2009-llaj/uu-22-2009-llaj.fulltext.md')),
);

describe('isElliptical and followUpVariant', () => {
  it('recognises short questions and continuation openers, not standalone questions', () => {
    expect(isElliptical('kalau motor?')).toBe(true);
    expect(isElliptical('What about the appeal deadline for tax decisions made last year?')).toBe(true);
    expect(isElliptical('Bagaimana dengan pengendara sepeda motor yang tidak membawa surat izin?')).toBe(
      true,
    );
    expect(isElliptical('Berapa denda maksimal untuk pengemudi yang menerobos lampu merah di jalan?')).toBe(
      false,
    );
    // "lalu lintas" is a topic, not "then".
    expect(isElliptical('Lalu lintas jalan diatur oleh siapa menurut undang-undang ini?')).toBe(false);
    expect(isElliptical('   ')).toBe(false);
  });

  it('combines with the previous question only when there is one and the new one is elliptical', () => {
    const glossary = demoGlossary('traffic');
    expect(followUpVariant('kalau motor?', [], { language: 'id', glossary })).toEqual([]);
    const standalone = 'Berapa denda maksimal untuk pengemudi yang menerobos lampu merah di jalan?';
    expect(followUpVariant(standalone, ['Apa itu SIM?'], { language: 'id', glossary })).toEqual([]);
    const variants = followUpVariant('kalau motor?', ['Berapa denda menerobos lampu merah?'], {
      language: 'id',
      glossary,
    });
    expect(variants.map((variant) => variant.kind)).toEqual(['follow-up', 'follow-up-legal']);
    expect(variants[0]!.text).toBe('Berapa denda menerobos lampu merah? kalau motor?');
    expect(variants[1]!.text).toContain('Alat Pemberi Isyarat Lalu Lintas');
    // Without a glossary the combined question is searched as asked: no other collection's words.
    expect(
      followUpVariant('kalau motor?', ['Berapa denda menerobos lampu merah?'], { language: 'id' }).map(
        (variant) => variant.kind,
      ),
    ).toEqual(['follow-up']);
    // A chain of elliptical questions reaches back to the last standalone one.
    const chained = followUpVariant('terus mobil?', ['kalau motor?', 'Berapa denda menerobos lampu merah?'], {
      language: 'en',
    });
    expect(chained).toEqual([
      { text: 'Berapa denda menerobos lampu merah? kalau motor? terus mobil?', weight: 2, kind: 'follow-up' },
    ]);
  });
});

describe('follow-up questions in a session', () => {
  let test: TestEngine;
  beforeAll(async () => {
    test = await openTestEngine();
    await test.engine.ingest(
      'lalu-lintas',
      { bytes: uu22, filename: 'uu-22-2009.md', title: 'UU 22/2009' },
      { language: 'id' },
    );
    await test.engine.collections.setGlossary('lalu-lintas', demoGlossary('traffic'));
  });
  afterAll(async () => {
    await test?.close();
  });

  const isPasal287 = (result: { citation: { pasal?: string; ayat?: string } }) =>
    result.citation.pasal === '287' && result.citation.ayat === '2';

  it('"kalau motor?" after a red-light question finds Pasal 287 only through the combined variant', async () => {
    const first = await test.engine.ask('lalu-lintas', { question: 'Berapa denda menerobos lampu merah?' });
    expect(first.results.some(isPasal287)).toBe(true);

    const alone = await test.engine.ask('lalu-lintas', { question: 'kalau motor?' });
    expect(alone.results.some(isPasal287)).toBe(false);

    const followUp = await test.engine.ask('lalu-lintas', {
      question: 'kalau motor?',
      session_id: first.session_id,
    });
    expect(followUp.session_id).toBe(first.session_id);
    expect(followUp.results.some(isPasal287)).toBe(true);
    // The certificate records the user's own words, and verifies with them as the presented question.
    expect(followUp.bundle.certificate.query.text).toBe('kalau motor?');
    const verification = await verifyBundle(followUp.bundle, {
      ...trustOptions(test.engine.trustedKeys()),
      presentedQuestion: 'kalau motor?',
      vocabulary: SAKSI_VOCABULARY,
    });
    expect(verification.verdict).toBe('verified');
  });
});
