import { describe, expect, it } from 'vitest';
import {
  foundAt,
  gateFailures,
  hitAt,
  mentions,
  ndcgAt,
  normalizeForMatch,
  precisionAt,
  reciprocalRank,
  retrievalMetrics,
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

describe('the CI gate', () => {
  const baseline = { 'lalin-dev': 0.9, 'apbn-dev': 0.8 };

  it('fails a drop of 0.03 and passes a drop of 0.01 or exactly 0.02', () => {
    expect(gateFailures(baseline, { 'lalin-dev': 0.87, 'apbn-dev': 0.8 })).toEqual([
      { set: 'lalin-dev', baseline: 0.9, current: 0.87 },
    ]);
    expect(gateFailures(baseline, { 'lalin-dev': 0.89, 'apbn-dev': 0.79 })).toEqual([]);
    expect(gateFailures(baseline, { 'lalin-dev': 0.88, 'apbn-dev': 0.95 })).toEqual([]);
  });

  it('fails a set the run did not measure', () => {
    expect(gateFailures(baseline, { 'lalin-dev': 0.9 }).map((failure) => failure.set)).toEqual(['apbn-dev']);
  });
});
