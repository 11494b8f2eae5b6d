/** The demo collections' profiles on a real PGlite engine: a data directory loaded before they had them catches up. */

import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionPresentation, DEFAULT_WORKSPACE } from './collections.js';
import { configureDemoCollections, demoCollections } from './demo.js';

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
    await configureDemoCollections(test.engine, '/corpora');
    const law = await test.engine.collections.get('lalu-lintas');
    const expected = demoCollections('/corpora').find((demo) => demo.name === 'lalu-lintas')?.profile;
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
});
