/** Collections on a real PGlite engine: a collection is made only in a workspace that exists. */
import { utf8Encode } from '@saksi/proof';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../test/engine-fixture.js';
import { DEFAULT_WORKSPACE, getCollection } from './collections.js';
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
      expect(await codeOf(test.engine.ensureCollection('notes', workspace))).toBe('NOT_FOUND');
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
      const collection = await test.engine.ensureCollection('notes', workspace);
      expect(collection).toMatchObject({ name: 'notes', workspace_id: workspace });
    }
  });
});
