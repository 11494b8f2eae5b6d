/**
 * Typo tolerance against the collection's own vocabulary (typos.ts), on a real database (PGlite, and
 * PostgreSQL with SAKSI_TEST_DATABASE_URL): a misspelt word is searched as the collection's word one
 * edit away, and a word the collection knows, or another collection's word, is never a correction.
 */
import { utf8Encode } from '@saksi/proof';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneEditAway, typoVariant } from './typos.js';

const statute = [
  '# Peraturan tentang Jalan',
  '',
  ...Array.from({ length: 6 }, (_, index) => [
    `## Pasal ${index + 1}`,
    '',
    `Penyelenggara jalan wajib memperbaiki jalan berlubang di ruas ${index + 1} dalam waktu yang patut.`,
    '',
  ]).flat(),
].join('\n');

describe('oneEditAway', () => {
  it('lists the deletions, swaps, changes and insertions of one letter, not the word itself', () => {
    const near = oneEditAway('libtas');
    expect(near).toContain('lintas'); // a letter changed
    expect(near).toContain('libas'); // one left out
    expect(near).toContain('lbitas'); // two swapped
    expect(near).toContain('libntas'); // one added
    expect(near).not.toContain('libtas');
    expect(near).not.toContain('lalu');
  });
});

describe('typoVariant', () => {
  let test: TestEngine;
  beforeAll(async () => {
    test = await openTestEngine();
    await test.engine.ingest(
      'jalan',
      { bytes: utf8Encode(statute), filename: 'jalan.md' },
      { language: 'id' },
    );
    await test.engine.ingest(
      'lain',
      {
        bytes: utf8Encode('# Catatan\n\nRapat koordinasi diadakan setiap hari Senin di ruang rapat.'),
        filename: 'rapat.md',
      },
      { language: 'id' },
    );
  });
  afterAll(async () => {
    await test?.close();
  });

  it("writes a misspelt word as the collection's own word one edit away, as its index holds it", async () => {
    const collection = await test.engine.collections.get('jalan');
    const variant = await typoVariant(
      test.engine.db,
      collection,
      'Jalan berlubagn siapa yang memperbaiki?',
      0.5,
    );
    // "berlubagn" is read as "lubagn" after its prefix, one swap from the index's "lubang".
    expect(variant).toEqual({
      text: 'Jalan lubang siapa yang memperbaiki?',
      weight: 0.5,
      kind: 'spelling',
    });
  });

  it("leaves a question the collection's words spell alone, and never corrects towards another collection", async () => {
    const jalan = await test.engine.collections.get('jalan');
    expect(
      await typoVariant(test.engine.db, jalan, 'Jalan berlubang siapa yang memperbaiki?', 0.5),
    ).toBeUndefined();
    const lain = await test.engine.collections.get('lain');
    expect(
      await typoVariant(test.engine.db, lain, 'Jalan berlubagn siapa yang memperbaiki?', 0.5),
    ).toBeUndefined();
  });
});
