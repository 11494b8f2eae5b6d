import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { matchRelevant, sameFile } from './run.js';
import { knownSetKind, loadBeirSet, loadEvalSet, loadSquadSet, parseRow, sampleAnswerable } from './sets.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const EVAL = path.resolve(HERE, '../../../../../shared/data/eval');
const REDUX = path.resolve(HERE, '../../../../corpora/docs-redux');

describe('evaluation sets from ../shared/data/eval', () => {
  it('loads the traffic-law sets with Pasal-level relevance', async () => {
    const spec = await loadEvalSet(path.join(EVAL, 'lalin-spec-cases.jsonl'));
    expect(spec.collection).toBe('lalu-lintas');
    expect(spec.questions).toHaveLength(7);
    expect(spec.questions[0]!.relevant.map((item) => item.pasal)).toEqual(['106', '287']);
    const dev = await loadEvalSet(path.join(EVAL, 'lalin-dev.jsonl'));
    expect(dev.questions).toHaveLength(22);
    expect(dev.questions.some((question) => !question.answerable)).toBe(true);
  });

  it('loads the budget set with document + Pasal relevance', async () => {
    const set = await loadEvalSet(path.join(EVAL, 'apbn-dev.jsonl'));
    expect(set.kind).toBe('budget');
    expect(set.questions).toHaveLength(15);
    const first = set.questions.find((question) => question.id === 'apbn-002')!;
    expect(first.relevant).toEqual([{ key: 'uu-2015-3#18', document: 'uu-2015-3', pasal: '18' }]);
    expect(first.must_mention).toEqual(['Rp222.506.897.630.000,00']);
  });

  it('loads the docs sets with file (+ heading) relevance and the selection set', async () => {
    const docs = await loadEvalSet(path.join(EVAL, 'redux-dev.jsonl'));
    expect(docs.collection).toBe('docs');
    expect(docs.questions).toHaveLength(17);
    expect(docs.questions.filter((question) => !question.answerable)).toHaveLength(2);
    expect(docs.questions[0]!.relevant[0]).toMatchObject({ heading: 'Reducers' });
    const selection = await loadEvalSet(path.join(EVAL, 'redux-selection-dev.jsonl'));
    expect(selection.kind).toBe('selection');
    expect(selection.questions).toHaveLength(5);
    expect(selection.questions.every((question) => question.selection)).toBe(true);
  });

  it('loads the facqa-id BEIR set with its gold answer spans', async () => {
    const set = await loadBeirSet(path.join(EVAL, 'facqa-id/derived-beir-test'));
    expect(set.corpus?.size).toBe(275);
    expect(set.questions).toHaveLength(311);
    expect(set.questions[0]!.relevant[0]!.document).toBe('pc50dc8debb41');
    expect(set.answers).toBe(true);
    expect(set.questions[0]!.gold_answers).toEqual(['Christian Hadinata']);
    expect(set.questions[0]!.must_mention).toEqual(['Christian Hadinata']);
    expect(set.questions.every((question) => question.answerable && question.gold_answers?.length)).toBe(
      true,
    );
    // Every gold span is text of its passage.
    const passage = (id: string) => set.corpus?.get(id) ?? '';
    const inPassage = set.questions.filter((question) =>
      question.gold_answers?.some((answer) => passage(question.relevant[0]!.document!).includes(answer)),
    );
    expect(inPassage.length / set.questions.length).toBeGreaterThan(0.95);
    const sample = sampleAnswerable(set, 150);
    expect(sample.questions.length).toBeGreaterThanOrEqual(150);
    expect(sample.questions.length).toBeLessThan(160);
    expect(sample.corpus).toBe(set.corpus);
  });

  it('loads the dev2 sets: every row parses, with the same relevance as their dev siblings', async () => {
    const expected = {
      'lalin-dev2': [56, 6],
      'apbn-dev2': [35, 4],
      'redux-dev2': [34, 4],
      'redux-selection-dev2': [10, 0],
    };
    for (const [name, [rows, unanswerable]] of Object.entries(expected)) {
      const set = await loadEvalSet(path.join(EVAL, `${name}.jsonl`));
      expect(set.questions, name).toHaveLength(rows!);
      expect(
        set.questions.filter((question) => !question.answerable),
        name,
      ).toHaveLength(unanswerable!);
      // An answerable question always has something to find; an unanswerable one nothing.
      for (const question of set.questions)
        expect(question.relevant.length > 0, `${name} ${question.id}`).toBe(question.answerable);
    }
    const budget = await loadEvalSet(path.join(EVAL, 'apbn-dev2.jsonl'));
    // A comparison across two documents: each document with its Pasal.
    expect(budget.questions.find((question) => question.id === 'apbn-036')!.relevant).toEqual([
      { key: 'uu-2016-18#9', document: 'uu-2016-18', pasal: '9' },
      { key: 'uu-2022-28#14', document: 'uu-2022-28', pasal: '14' },
    ]);
    // A row whose answer is in the elucidation (relevant_section, no Pasal): the document counts.
    expect(budget.questions.find((question) => question.id === 'apbn-005')!.relevant).toEqual([
      { key: 'uu-2015-3', document: 'uu-2015-3' },
    ]);
    expect(budget.questions.find((question) => question.id === 'apbn-005')!.gold_answers?.[0]).toMatch(
      /USD60/,
    );
    expect(budget.questions.filter((question) => !question.answerable).every((q) => !q.gold_answers)).toBe(
      true,
    );
    // Every file a docs set names exists in the demo corpus.
    for (const name of ['redux-dev', 'redux-dev2', 'redux-selection-dev', 'redux-selection-dev2']) {
      const set = await loadEvalSet(path.join(EVAL, `${name}.jsonl`));
      expect(set.language).toBe('en');
      for (const item of set.questions.flatMap((question) => question.relevant))
        expect(existsSync(path.join(REDUX, item.file!)), `${name}: ${item.file}`).toBe(true);
    }
  });

  it('rejects a row without a question and an unknown set name', async () => {
    expect(() => parseRow('legal', { id: 'x' }, 'x:1')).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    await expect(loadEvalSet('/tmp/unknown-set.jsonl')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/give its kind \(legal, budget, docs, selection\)/),
    });
    expect(knownSetKind('my-questions')).toBeNull();
    expect(knownSetKind('redux-selection-dev')).toEqual({ kind: 'selection', collection: 'docs' });
  });

  it('loads a set of any name with an explicit kind and collection', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'saksi-sets-'));
    try {
      const file = path.join(directory, 'pertanyaan-saya.jsonl');
      await writeFile(
        file,
        `${JSON.stringify({ id: 'p1', question: 'Berapa denda?', relevant_pasal: [287], must_mention: ['Rp500.000'] })}\n`,
      );
      const set = await loadEvalSet(file, { kind: 'legal', collection: 'uu-saya' });
      expect(set).toMatchObject({
        name: 'pertanyaan-saya',
        kind: 'legal',
        collection: 'uu-saya',
        language: 'id',
      });
      expect(set.questions[0]!.relevant).toEqual([{ key: 'pasal:287', pasal: '287' }]);
      // Without a collection: the set's name.
      expect((await loadEvalSet(file, { kind: 'docs' })).collection).toBe('pertanyaan-saya');
      // A named set keeps its default collection but takes the kind it is given.
      const named = path.join(directory, 'lalin-extra.jsonl');
      await writeFile(
        named,
        `${JSON.stringify({ id: 'd1', question: 'What is a store?', relevant_files: ['a.md'] })}\n`,
      );
      expect(await loadEvalSet(named, { kind: 'docs' })).toMatchObject({
        kind: 'docs',
        collection: 'lalu-lintas',
      });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe('matching results against relevant items', () => {
  it('matches budget results by document file name and Pasal', () => {
    const relevant = [{ key: 'uu-2015-3#18', document: 'uu-2015-3', pasal: '18' }];
    expect(matchRelevant('budget', { filename: 'uu-2015-3.md', pasal: '18' }, relevant)).toBe('uu-2015-3#18');
    expect(matchRelevant('budget', { filename: 'uu-2016-18.md', pasal: '18' }, relevant)).toBeNull();
    expect(matchRelevant('budget', { filename: 'uu-2015-3.md', pasal: '17' }, relevant)).toBeNull();
  });

  it("matches a stored path to a set's file when one is a path-suffix of the other at a /", () => {
    for (const stored of [
      'docs/api/Store.md',
      'api/Store.md',
      'Store.md',
      '/home/me/redux/docs/api/Store.md',
      './docs/api/Store.md',
      'docs\\api\\Store.md',
    ])
      expect(sameFile(stored, 'docs/api/Store.md'), stored).toBe(true);
    expect(sameFile('docs/api/MyStore.md', 'docs/api/Store.md')).toBe(false);
    expect(sameFile('docs/api/Store.md', 'Store.md')).toBe(true);
    expect(sameFile('other/Store.md', 'docs/api/Store.md')).toBe(false);
    expect(sameFile('docs/api/Store.mdx', 'docs/api/Store.md')).toBe(false);
    expect(sameFile('', 'docs/api/Store.md')).toBe(false);
    const relevant = [{ key: 'docs/api/Store.md', file: 'docs/api/Store.md' }];
    expect(matchRelevant('docs', { filename: 'api/Store.md' }, relevant)).toBe('docs/api/Store.md');
    expect(matchRelevant('selection', { filename: '/srv/redux/docs/api/Store.md' }, relevant)).toBe(
      'docs/api/Store.md',
    );
    // Budget documents match by file name stem, wherever they were stored.
    expect(
      matchRelevant('budget', { filename: 'apbn/uu-2015-3.md', pasal: '18' }, [
        { key: 'uu-2015-3#18', document: 'uu-2015-3', pasal: '18' },
      ]),
    ).toBe('uu-2015-3#18');
  });

  it('matches docs by file, and by heading when asked', () => {
    const relevant = [{ key: 'docs/a.md', file: 'docs/a.md', heading: 'Reducers' }];
    const located = { filename: 'docs/a.md', section_path: ['Concepts', '`Reducers`'] };
    expect(matchRelevant('docs', located, relevant, true)).toBe('docs/a.md');
    expect(matchRelevant('docs', { filename: 'docs/a.md', section_path: ['Store'] }, relevant)).toBe(
      'docs/a.md',
    );
    expect(
      matchRelevant('docs', { filename: 'docs/a.md', section_path: ['Store'] }, relevant, true),
    ).toBeNull();
  });
});

describe('SQuAD 2.0', () => {
  it('reads the dev half: every paragraph a passage, gold answers as must_mention, impossible ones unanswerable', async () => {
    const set = await loadSquadSet(path.join(EVAL, 'squad2-dev/dev-v2.0.json'));
    expect(set.corpus?.size).toBe(646);
    expect(set.questions).toHaveLength(6078);
    expect(set.questions.filter((question) => !question.answerable)).toHaveLength(3168);
    const first = set.questions[0]!;
    expect(first.question).toBe('In what country is Normandy located?');
    expect(first.relevant).toEqual([{ key: 'Normans-0', document: 'Normans-0' }]);
    expect(first.must_mention).toEqual(['France']);
    expect(set.corpus?.get('Normans-0')).toMatch(/^The Normans/);
    expect(
      set.questions.filter((question) => !question.answerable).every((q) => q.relevant.length === 0),
    ).toBe(true);
    expect(set.language).toBe('en');
  });

  it('samples every k-th question and rejects a file that is not SQuAD', async () => {
    const sample = await loadSquadSet(path.join(EVAL, 'squad2-dev/dev-v2.0.json'), 600);
    expect(sample.questions.length).toBeGreaterThanOrEqual(600);
    expect(sample.questions.length).toBeLessThan(700);
    expect(sample.corpus?.size).toBe(646);
    await expect(loadSquadSet(path.join(EVAL, 'lalin-dev.jsonl'))).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});
