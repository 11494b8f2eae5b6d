import { describe, expect, it } from 'vitest';
import {
  bootstrapRate,
  clustersOf,
  createRandom,
  formatEstimate,
  quantile,
  valueClusters,
} from './metrics.js';

describe('createRandom', () => {
  it('is deterministic per seed and differs between seeds', () => {
    const a = createRandom(7);
    const b = createRandom(7);
    const c = createRandom(8);
    const first = [a.next(), a.next(), a.int(10)];
    expect([b.next(), b.next(), b.int(10)]).toEqual(first);
    expect(c.next()).not.toBe(first[0]);
    for (let i = 0; i < 1000; i++) expect(a.int(3)).toBeLessThan(3);
  });
});

describe('bootstrapRate', () => {
  it('gives the pooled rate and a degenerate interval when every trial succeeds', () => {
    const estimate = bootstrapRate([
      { successes: 3, trials: 3 },
      { successes: 5, trials: 5 },
    ]);
    expect(estimate).toMatchObject({ rate: 1, successes: 8, trials: 8, clusters: 2, low: 1, high: 1 });
  });

  it('brackets the rate of mixed clusters and is reproducible with its seed', () => {
    const clusters = Array.from({ length: 40 }, (_, i) => ({ successes: i % 4 === 0 ? 0 : 2, trials: 2 }));
    const estimate = bootstrapRate(clusters, { seed: 3 });
    expect(estimate.rate).toBeCloseTo(0.75);
    expect(estimate.low!).toBeLessThan(0.75);
    expect(estimate.high!).toBeGreaterThan(0.75);
    expect(estimate.low!).toBeGreaterThan(0.5);
    expect(bootstrapRate(clusters, { seed: 3 })).toEqual(estimate);
  });

  it('has no rate without trials', () => {
    expect(bootstrapRate([{ successes: 0, trials: 0 }])).toMatchObject({ rate: null, low: null, high: null });
    expect(formatEstimate(bootstrapRate([]))).toBe('–');
  });
});

describe('helpers', () => {
  it('quantile interpolates between ranks', () => {
    expect(quantile([0, 10], 0.5)).toBe(5);
    expect(quantile([1, 2, 3, 4, 5], 0.25)).toBe(2);
  });

  it('clustersOf and valueClusters group by key', () => {
    const items = [
      { key: 'a', ok: true, value: 1 },
      { key: 'a', ok: false, value: 0.5 },
      { key: 'b', ok: true, value: null },
    ];
    expect(
      clustersOf(
        items,
        (item) => item.key,
        (item) => item.ok,
      ),
    ).toEqual([
      { successes: 1, trials: 2 },
      { successes: 1, trials: 1 },
    ]);
    expect(
      valueClusters(
        items,
        (item) => item.key,
        (item) => item.value,
      ),
    ).toEqual([{ successes: 1.5, trials: 2 }]);
    expect(formatEstimate({ rate: 0.5, successes: 1, trials: 2, clusters: 1, low: 0.25, high: 0.75 })).toBe(
      '50.0% [25.0, 75.0]',
    );
  });
});
