import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { matchRelevant } from './run.js';
import { loadBeirSet, loadEvalSet, loadSquadSet, parseRow } from './sets.js';

const EVAL = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/data/eval');

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

  it('loads the facqa-id BEIR set', async () => {
    const set = await loadBeirSet(path.join(EVAL, 'facqa-id/derived-beir-test'));
    expect(set.corpus?.size).toBe(275);
    expect(set.questions).toHaveLength(311);
    expect(set.questions[0]!.relevant[0]!.document).toBe('pc50dc8debb41');
  });

  it('rejects a row without a question and an unknown set name', async () => {
    expect(() => parseRow('legal', { id: 'x' }, 'x:1')).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    await expect(loadEvalSet('/tmp/unknown-set.jsonl')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('matching results against relevant items', () => {
  it('matches budget results by document file name and Pasal', () => {
    const relevant = [{ key: 'uu-2015-3#18', document: 'uu-2015-3', pasal: '18' }];
    expect(matchRelevant('budget', { filename: 'uu-2015-3.md', pasal: '18' }, relevant)).toBe('uu-2015-3#18');
    expect(matchRelevant('budget', { filename: 'uu-2016-18.md', pasal: '18' }, relevant)).toBeNull();
    expect(matchRelevant('budget', { filename: 'uu-2015-3.md', pasal: '17' }, relevant)).toBeNull();
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
