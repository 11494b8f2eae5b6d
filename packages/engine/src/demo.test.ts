/**
 * The demo collections' profiles and glossaries on a real PGlite engine: a data directory loaded before
 * they had them catches up; a collection's glossary is stored with its hash, checked, and removable.
 */

import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionPresentation, DEFAULT_WORKSPACE } from './collections.js';
import { configureDemoCollections, demoCollections } from './demo.js';
import { glossarySha256 } from './retrieve/collection-glossary.js';
import { CORPORA, demoGlossary } from './retrieve/dictionaries/corpus-text.js';

let test: TestEngine;

beforeAll(async () => {
  test = await openTestEngine();
});

afterAll(async () => {
  await test?.close();
});

describe('configureDemoCollections', () => {
  it('gives the demo collections that exist their title, description and examples, and creates none', async () => {
    // As an older version left it: the collection exists with a bare profile.
    await test.engine.collections.ensure('lalu-lintas', { workspaceId: DEFAULT_WORKSPACE, language: 'id' });
    await configureDemoCollections(test.engine, CORPORA);
    const law = await test.engine.collections.get('lalu-lintas');
    const expected = demoCollections(CORPORA).find((demo) => demo.name === 'lalu-lintas')?.profile;
    expect(collectionPresentation(law)).toEqual({
      title: expected?.title,
      description: expected?.description,
      examples: expected?.examples,
    });
    expect(law.profile).toMatchObject({ public: true, domain: 'legal' });
    expect((await test.engine.collections.list()).map((collection) => collection.name)).toEqual([
      'lalu-lintas',
    ]);
  });

  it('stores the collection’s glossary with its SHA-256, refuses a bad one, and removes it', async () => {
    const law = await test.engine.collections.get('lalu-lintas');
    expect(law.glossary).toEqual(demoGlossary('traffic'));
    expect(law.glossary_sha256).toBe(glossarySha256(demoGlossary('traffic')));
    // The list carries the hash, not the glossary.
    const [listed] = await test.engine.collections.list();
    expect(listed?.glossary_sha256).toBe(law.glossary_sha256);
    expect(listed?.glossary).toBeUndefined();

    await expect(
      test.engine.collections.setGlossary('lalu-lintas', {
        format: 'saksi-glossary',
        version: 1,
        dictionary: [{ terms: ['sim'], expansion: '' }],
      }),
    ).rejects.toMatchObject({ code: 'INVALID_GLOSSARY', status: 400, message: /dictionary\[0\]\.expansion/ });
    expect((await test.engine.collections.get('lalu-lintas')).glossary_sha256).toBe(law.glossary_sha256);

    const removed = await test.engine.collections.setGlossary('lalu-lintas', null);
    expect(removed.glossary).toBeNull();
    expect(removed.glossary_sha256).toBeNull();
    await expect(test.engine.collections.setGlossary('nothing-here', null)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
