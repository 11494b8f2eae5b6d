import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCrossSets } from './cross.js';

describe('cross-corpus manifests', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'saksi-cross-'));
    await mkdir(path.join(directory, 'corpora', 'regs'), { recursive: true });
    await writeFile(
      path.join(directory, 'regs.jsonl'),
      `${JSON.stringify({ id: 'r1', question: 'Berapa tarifnya?', documents: ['pmk-1', 'pmk-2'], relevant_pasal: ['I', 3], must_mention: ['5%'] })}\n`,
    );
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  const manifest = (entries: unknown) =>
    writeFile(path.join(directory, 'sets.json'), JSON.stringify(entries));

  it('loads each set with its kind, collection, language and corpus folder', async () => {
    await manifest([
      { name: 'regs', kind: 'legal', collection: 'regs', corpus: 'corpora/regs', language: 'id' },
    ]);
    const [cross, ...rest] = await loadCrossSets(directory);
    expect(rest).toEqual([]);
    expect(cross?.corpus).toBe(path.join(directory, 'corpora', 'regs'));
    expect(cross?.set).toMatchObject({ name: 'regs', kind: 'legal', collection: 'regs', language: 'id' });
    // A Pasal counts in the regulations the row names: one item per document and Pasal.
    expect(cross?.set.questions[0]?.relevant.map((item) => item.key)).toEqual([
      'pmk-1#I',
      'pmk-1#3',
      'pmk-2#I',
      'pmk-2#3',
    ]);
  });

  it('is empty without a manifest, and names the bad entry of a bad one', async () => {
    expect(await loadCrossSets(path.join(directory, 'corpora'))).toEqual([]);
    const bad = [
      [{ name: 'regs', kind: 'novel', collection: 'regs', corpus: 'corpora/regs', language: 'id' }, '"kind"'],
      [
        { name: 'regs', kind: 'legal', collection: 'regs', corpus: '../elsewhere', language: 'id' },
        '"corpus"',
      ],
      [
        { name: 'regs', kind: 'legal', collection: 'Regs!', corpus: 'corpora/regs', language: 'id' },
        '"collection"',
      ],
      [
        { name: 'regs', kind: 'legal', collection: 'regs', corpus: 'corpora/regs', language: 'fr' },
        '"language"',
      ],
    ] as const;
    for (const [entry, named] of bad) {
      await manifest([entry]);
      await expect(loadCrossSets(directory)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      await expect(loadCrossSets(directory)).rejects.toThrow(named);
    }
  });
});
