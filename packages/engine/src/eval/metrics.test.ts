import { describe, expect, it } from 'vitest';
import {
  answerTextScores,
  exactMatch,
  foundAt,
  gateFailures,
  hitAt,
  lcsLength,
  type MetricDirection,
  mentions,
  ndcgAt,
  normalizeAnswer,
  normalizeForMatch,
  precisionAt,
  reciprocalRank,
  retrievalMetrics,
  rougeL,
  tokenF1,
} from './metrics.js';

describe('retrieval metrics on hand-made rankings', () => {
  // Relevant items a and b; the first relevant result is at rank 3, a second chunk of `a` at 4, `b` at 6.
  const ranking = [null, null, 'a', 'a', null, 'b', null, null, null, null];

  it('Recall@k is 1 once a relevant item is in the top k', () => {
    expect([1, 3, 5, 10].map((k) => hitAt(ranking, k))).toEqual([0, 1, 1, 1]);
  });

  it('full recall counts distinct items, precision counts results', () => {
    expect(foundAt(ranking, 5)).toBe(1);
    expect(foundAt(ranking, 10)).toBe(2);
    expect(precisionAt(ranking, 5)).toBeCloseTo(2 / 5);
  });

  it('MRR is 1 / rank of the first relevant result, 0 when none', () => {
    expect(reciprocalRank(ranking)).toBeCloseTo(1 / 3);
    expect(reciprocalRank([null, null])).toBe(0);
  });

  it('nDCG@10 gains once per item and divides by the ideal', () => {
    const dcg = 1 / Math.log2(4) + 1 / Math.log2(7);
    const ideal = 1 + 1 / Math.log2(3);
    expect(ndcgAt(ranking, 2, 10)).toBeCloseTo(dcg / ideal, 10);
    expect(ndcgAt(['a', 'b'], 2, 10)).toBeCloseTo(1, 10);
    expect(ndcgAt([], 0, 10)).toBe(0);
  });

  it('averages over questions with relevant items and pools full recall', () => {
    const metrics = retrievalMetrics([
      { ranking, relevantCount: 2 },
      { ranking: ['x', null], relevantCount: 3 },
      { ranking: [null], relevantCount: 0 },
    ]);
    expect(metrics.questions).toBe(2);
    expect(metrics['recall@1']).toBe(0.5);
    expect(metrics['recall@3']).toBe(1);
    expect(metrics.mrr).toBeCloseTo((1 / 3 + 1) / 2, 4);
    expect(metrics['full_recall@10']).toBeCloseTo(3 / 5, 4);
    expect(metrics['precision@5']).toBeCloseTo((2 / 5 + 1 / 5) / 2, 4);
  });
});

describe('must_mention matching', () => {
  it('normalizes Indonesian figures', () => {
    expect(normalizeForMatch('Rp12.000.000,00')).toBe('12000000');
    expect(normalizeForMatch('denda Rp 1.500.000')).toBe('denda 1500000');
    expect(normalizeForMatch('20,59%')).toBe('20.59%');
    expect(mentions('paling banyak Rp500.000,00 (lima ratus ribu rupiah)', 'Rp500.000')).toBe(true);
    expect(mentions('paling banyak Rp50.000,00', 'Rp500.000,00')).toBe(false);
    expect(mentions('anything', '')).toBe(false);
  });

  it('matches a figure-only phrase by amount, within rounding, and a worded phrase as text', () => {
    expect(mentions('defisit sekitar Rp222,5 triliun', 'Rp222.506.897.630.000,00')).toBe(true);
    expect(mentions('defisit sekitar Rp223,5 triliun', 'Rp222.506.897.630.000,00')).toBe(false);
    expect(mentions('sebesar 20,59% dari belanja', '20,59%')).toBe(true);
    expect(mentions('sebesar 20,59 dari belanja', '20,59%')).toBe(false);
    expect(mentions('kurungan paling lama 2 bulan', '6 bulan')).toBe(false);
  });
});

describe('answer text metrics', () => {
  it('normalizes English as the SQuAD script: case, ASCII punctuation, articles, whitespace', () => {
    expect(normalizeAnswer('The  Duchy of Normandy!', 'en')).toBe('duchy of normandy');
    expect(normalizeAnswer("an apple, a pear & the rest's", 'en')).toBe('apple pear rests');
    expect(normalizeAnswer('Theatre', 'en')).toBe('theatre');
  });

  it('normalizes Indonesian figures like must_mention, and punctuation except a decimal point', () => {
    expect(normalizeAnswer('Denda Rp500.000,00.', 'id')).toBe('denda 500000');
    expect(normalizeAnswer('49,07 detik', 'id')).toBe('49.07 detik');
    expect(normalizeAnswer('(sekitar Rp1.761,6 triliun)', 'id')).toBe('sekitar 1761.6 triliun');
    // Indonesian has no articles: "a" stays a word.
    expect(normalizeAnswer('Pasal 1 huruf a', 'id')).toBe('pasal 1 huruf a');
  });

  it('exact match compares normalized text', () => {
    expect(exactMatch('the France.', 'France', 'en')).toBe(1);
    expect(exactMatch('in France', 'France', 'en')).toBe(0);
    expect(exactMatch('Rp 500.000', 'Rp500.000,00', 'id')).toBe(1);
  });

  it('token F1 counts the overlap of the two bags of tokens', () => {
    // prediction: "richard i of normandy" (4 tokens), gold: "richard i" (2): overlap 2.
    expect(tokenF1('Richard I of Normandy', 'Richard I', 'en')).toBeCloseTo((2 * 0.5 * 1) / 1.5, 10);
    // A repeated token counts as often as the gold has it.
    expect(tokenF1('paris paris', 'paris', 'en')).toBeCloseTo((2 * 0.5 * 1) / 1.5, 10);
    expect(tokenF1('London', 'Paris', 'en')).toBe(0);
    expect(tokenF1('', 'Paris', 'en')).toBe(0);
    expect(tokenF1('the', 'a', 'en')).toBe(1);
  });

  it('ROUGE-L is the F-measure of the longest common subsequence', () => {
    expect(lcsLength(['a', 'b', 'c', 'd'], ['a', 'c', 'd', 'b'])).toBe(3);
    expect(lcsLength([], ['a'])).toBe(0);
    // prediction tokens: police killed the gunman (the removed → 3), gold: police kill the gunman → 3;
    // LCS "police gunman" = 2: precision 2/3, recall 2/3.
    expect(rougeL('police killed the gunman', 'police kill the gunman', 'en')).toBeCloseTo(2 / 3, 10);
    // Order matters for ROUGE-L but not for F1.
    expect(rougeL('seine river', 'river seine', 'en')).toBeCloseTo(0.5, 10);
    expect(tokenF1('seine river', 'river seine', 'en')).toBe(1);
  });

  it('keeps the best score over the gold answers, and none without gold answers', () => {
    const scores = answerTextScores(
      'Denda paling banyak Rp500.000,00',
      ['Rp1.000.000', 'Rp500.000,00'],
      'id',
    );
    expect(scores?.exact_match).toBe(0);
    expect(scores?.f1).toBeCloseTo((2 * 0.25 * 1) / 1.25, 4);
    expect(scores?.rouge_l).toBeCloseTo(0.4, 4);
    expect(answerTextScores('France', ['in France', 'France'], 'en')).toEqual({
      exact_match: 1,
      f1: 1,
      rouge_l: 1,
    });
    expect(answerTextScores('France', [], 'en')).toBeNull();
  });
});

describe('the CI gate', () => {
  const baseline = { 'lalin-dev': 0.9, 'apbn-dev': 0.8 };

  it('fails a drop of 0.03 and passes a drop of 0.01 or exactly 0.02', () => {
    expect(gateFailures(baseline, { 'lalin-dev': 0.87, 'apbn-dev': 0.8 })).toEqual([
      { set: 'lalin-dev', baseline: 0.9, current: 0.87, direction: 'higher' },
    ]);
    expect(gateFailures(baseline, { 'lalin-dev': 0.89, 'apbn-dev': 0.79 })).toEqual([]);
    expect(gateFailures(baseline, { 'lalin-dev': 0.88, 'apbn-dev': 0.95 })).toEqual([]);
  });

  it('fails a set the run did not measure', () => {
    expect(gateFailures(baseline, { 'lalin-dev': 0.9 }).map((failure) => failure.set)).toEqual(['apbn-dev']);
  });

  it('fails a lower-is-better figure that rises more than the tolerance, not one that falls', () => {
    const lower = (key: string): MetricDirection => (key.endsWith(' false_assurance') ? 'lower' : 'higher');
    const floors = { 'lalin-dev': 0.9, 'lalin-dev false_assurance': 0.1 };
    // Rising by 0.03: worse. Rising by exactly 0.02 or falling by any amount: not a failure.
    expect(
      gateFailures(floors, { 'lalin-dev': 0.9, 'lalin-dev false_assurance': 0.13 }, 0.02, lower),
    ).toEqual([{ set: 'lalin-dev false_assurance', baseline: 0.1, current: 0.13, direction: 'lower' }]);
    expect(
      gateFailures(floors, { 'lalin-dev': 0.9, 'lalin-dev false_assurance': 0.12 }, 0.02, lower),
    ).toEqual([]);
    expect(gateFailures(floors, { 'lalin-dev': 0.9, 'lalin-dev false_assurance': 0 }, 0.02, lower)).toEqual(
      [],
    );
    // The same fall read as higher-is-better would fail.
    expect(gateFailures(floors, { 'lalin-dev': 0.9, 'lalin-dev false_assurance': 0 }, 0.02)).toHaveLength(1);
    // A figure the baseline lacks is not checked.
    expect(
      gateFailures({ 'lalin-dev': 0.9 }, { 'lalin-dev': 0.9, 'lalin-dev false_assurance': 1 }, 0.02, lower),
    ).toEqual([]);
  });
});
