import { describe, expect, it } from 'vitest';
import { weightedRrf } from './fusion.js';

describe('weighted RRF', () => {
  it('sums weight / (k + rank) over lists and sorts by score', () => {
    const fused = weightedRrf(
      [
        { ids: ['a', 'b', 'c'], weight: 1, label: 'lexical' },
        { ids: ['c', 'a'], weight: 2, label: 'vector' },
      ],
      60,
    );
    expect(fused.map((item) => item.id)).toEqual(['c', 'a', 'b']);
    expect(fused[0]!.score).toBeCloseTo(1 / 63 + 2 / 61, 12);
    expect(fused[1]!.ranks).toEqual({ lexical: 1, vector: 2 });
  });

  it('counts an item once per list and breaks ties by id', () => {
    const fused = weightedRrf([{ ids: ['x', 'x', 'y'], weight: 1, label: 'l' }], 60);
    expect(fused.find((item) => item.id === 'x')!.score).toBeCloseTo(1 / 61, 12);
    expect(
      weightedRrf([
        { ids: ['b'], weight: 1, label: 'l1' },
        { ids: ['a'], weight: 1, label: 'l2' },
      ]).map((i) => i.id),
    ).toEqual(['a', 'b']);
    expect(weightedRrf([])).toEqual([]);
  });
});
