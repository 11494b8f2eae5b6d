/**
 * Collections on a real engine (PGlite, or PostgreSQL in the CI's second pass): a collection is made
 * only in a workspace that exists, once when many connections make it at once; its title, description
 * and example questions are checked per language.
 */
import { utf8Encode } from '@saksi/proof';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerRiskOf,
  type CollectionProfile,
  checkedProfile,
  collectionPresentation,
  DEFAULT_WORKSPACE,
  ensureCollection,
  getCollection,
  MAX_EXAMPLES,
  MAX_TITLE_LENGTH,
  PRESENTATION_LANGUAGES,
} from './collections.js';
import { demoCollections } from './demo.js';
import { isEngineError } from './errors.js';
import { createWorkspace } from './workspaces.js';

let test: TestEngine;

beforeAll(async () => {
  test = await openTestEngine();
});

afterAll(async () => {
  await test?.close();
});

async function workspaceIds(): Promise<string[]> {
  const result = await test.engine.db.query<{ id: string }>('SELECT id FROM workspaces ORDER BY id');
  return result.rows.map((row) => row.id);
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return isEngineError(error) ? error.code : String(error);
  }
}

describe('ensureCollection', () => {
  it('never creates a workspace: an unknown or disabled one is NOT_FOUND and nothing is written', async () => {
    const disabled = await createWorkspace(test.engine.db, { name: 'Closed' });
    await test.engine.db.query('UPDATE workspaces SET disabled_at = now() WHERE id = $1', [disabled.id]);
    const before = await workspaceIds();
    for (const workspace of ['wsp_defualt', disabled.id]) {
      expect(await codeOf(test.engine.collections.ensure('notes', { workspaceId: workspace }))).toBe(
        'NOT_FOUND',
      );
      expect(
        await codeOf(
          test.engine.ingest(
            'notes',
            { bytes: utf8Encode('# Notes\n\nA note.\n'), filename: 'notes.md' },
            { workspaceId: workspace },
          ),
        ),
      ).toBe('NOT_FOUND');
      expect(await getCollection(test.engine.db, 'notes', workspace)).toBeNull();
    }
    expect(await workspaceIds()).toEqual(before);
  });

  it('creates collections in the default workspace and in workspaces made on purpose', async () => {
    const made = await createWorkspace(test.engine.db, { name: 'Made' });
    for (const workspace of [DEFAULT_WORKSPACE, made.id]) {
      const collection = await test.engine.collections.ensure('notes', { workspaceId: workspace });
      expect(collection).toMatchObject({ name: 'notes', workspace_id: workspace });
    }
  });

  it('makes collections of new dimensions on many connections at once: each once, one vector index', async () => {
    // On PostgreSQL the pool runs these side by side, as servers taking uploads at once would.
    for (const dimensions of [37, 38, 39, 40, 41]) {
      const made = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          ensureCollection(test.engine.db, {
            name: `side-by-side-${dimensions}-${index % 3}`,
            language: 'id',
            embedding: { provider: 'test', model: `test-${dimensions}`, dimensions },
          }),
        ),
      );
      expect(new Set(made.map((collection) => collection.id)).size).toBe(3);
      const indexes = await test.engine.db.query<{ n: number }>(
        'SELECT count(*)::integer AS n FROM pg_indexes WHERE indexname = $1',
        [`chunks_embedding_hnsw_${dimensions}`],
      );
      expect(indexes.rows[0]!.n).toBe(1);
    }
  });
});

describe('collection presentation: title, description, example questions', () => {
  it('stores them per language, one line each, and shows them through collectionPresentation', async () => {
    await test.engine.collections.ensure('presented', { workspaceId: DEFAULT_WORKSPACE });
    const collection = await test.engine.collections.configure('presented', {
      title: { id: '  Catatan  rapat ', en: 'Meeting notes' },
      description: { en: 'What was decided,\n and when.' },
      examples: { id: ['Apa yang diputuskan?'], en: ['What was decided?', 'When?'] },
    });
    expect(collectionPresentation(collection)).toEqual({
      title: { id: 'Catatan rapat', en: 'Meeting notes' },
      description: { en: 'What was decided, and when.' },
      examples: { id: ['Apa yang diputuskan?'], en: ['What was decided?', 'When?'] },
    });
    // Null removes one; a collection without any shows empty objects (clients fall back to the name).
    const cleared = await test.engine.collections.configure('presented', { title: null, examples: null });
    expect(collectionPresentation(cleared)).toEqual({
      title: {},
      description: { en: 'What was decided, and when.' },
      examples: {},
    });
  });

  it('refuses unknown languages, empty or overlong text and too many examples: INVALID_INPUT, nothing written', async () => {
    await test.engine.collections.ensure('presented-bad', { workspaceId: DEFAULT_WORKSPACE });
    const bad: Record<string, unknown>[] = [
      { title: 'not per language' },
      { title: { fr: 'Notes' } },
      { title: { en: '   ' } },
      { title: { en: 'x'.repeat(MAX_TITLE_LENGTH + 1) } },
      { description: { id: 42 } },
      { description: ['a list'] },
      { examples: { en: 'one string' } },
      { examples: { en: Array.from({ length: MAX_EXAMPLES + 1 }, (_, n) => `Question ${n}?`) } },
      { examples: { id: [''] } },
    ];
    for (const profile of bad) {
      expect(
        await codeOf(test.engine.collections.configure('presented-bad', profile as CollectionProfile)),
        JSON.stringify(profile),
      ).toBe('INVALID_INPUT');
    }
    const stored = await getCollection(test.engine.db, 'presented-bad');
    expect(collectionPresentation(stored!)).toEqual({ title: {}, description: {}, examples: {} });
  });

  it("takes a collection's own answer risk α between 0.01 and 0.5, refuses anything else, and null restores the default", async () => {
    await test.engine.collections.ensure('risky', { workspaceId: DEFAULT_WORKSPACE });
    for (const answer_risk of [0, 0.001, 0.6, 1, -0.05, Number.NaN, '0.1', true])
      expect(
        await codeOf(
          test.engine.collections.configure('risky', { answer_risk } as unknown as CollectionProfile),
        ),
        String(answer_risk),
      ).toBe('INVALID_INPUT');
    expect(answerRiskOf((await getCollection(test.engine.db, 'risky'))!)).toBeUndefined();
    await test.engine.collections.configure('risky', { answer_risk: 0.1 });
    expect(answerRiskOf((await getCollection(test.engine.db, 'risky'))!)).toBe(0.1);
    await test.engine.collections.configure('risky', { answer_risk: null });
    expect(answerRiskOf((await getCollection(test.engine.db, 'risky'))!)).toBeUndefined();
  });

  it('gives every demo collection a title, a description and three example questions in both languages', () => {
    for (const demo of demoCollections('/corpora')) {
      const checked = checkedProfile({ ...demo.profile });
      const shown = collectionPresentation({ profile: checked });
      for (const language of PRESENTATION_LANGUAGES) {
        expect(shown.title[language], `${demo.name} title (${language})`).toBeTruthy();
        expect(shown.description[language], `${demo.name} description (${language})`).toBeTruthy();
        expect(shown.examples[language], `${demo.name} examples (${language})`).toHaveLength(3);
      }
      // Written for each language, not copied across.
      expect(shown.examples.id).not.toEqual(shown.examples.en);
      expect(shown.title.id).not.toBe(shown.title.en);
    }
  });
});
