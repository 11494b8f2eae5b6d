import { describe, expect, it } from 'vitest';
import {
  answerCheckModelSource,
  type CalibrationRow,
  type ConformalExample,
  calibrationReport,
  calibrationRowsFromReports,
  calibrationSha256,
  conformalThreshold,
  crossValidateByGroup,
  fitLogistic,
  type GroupedRow,
  riskCoverageAt,
  scoreOf,
  sigmoid,
  splitWithinGroups,
} from './calibration.js';

/** A separable toy set: wrong answers have a low first feature, right ones a high one. */
const SEPARABLE = [
  { x: [0.1, 1], y: 0 },
  { x: [0.2, 0], y: 0 },
  { x: [0.3, 1], y: 0 },
  { x: [0.7, 0], y: 1 },
  { x: [0.8, 1], y: 1 },
  { x: [0.9, 0], y: 1 },
] as const;

describe('logistic fit', () => {
  it('scores right answers above wrong ones on a separable set, deterministically', () => {
    const rows = SEPARABLE.map((row) => ({ x: [...row.x], y: row.y }));
    const model = fitLogistic(rows);
    expect(model.weights).toHaveLength(2);
    expect(model.weights.every(Number.isFinite) && Number.isFinite(model.bias)).toBe(true);
    const scores = rows.map((row) => scoreOf(model, row.x));
    const lowestRight = Math.min(...scores.slice(3));
    const highestWrong = Math.max(...scores.slice(0, 3));
    expect(lowestRight).toBeGreaterThan(highestWrong);
    expect(model.weights[0]).toBeGreaterThan(0);
    expect(fitLogistic(rows)).toEqual(model);
    // A stronger penalty keeps the weights smaller.
    expect(Math.abs(fitLogistic(rows, { l2: 1 }).weights[0]!)).toBeLessThan(Math.abs(model.weights[0]!));
  });

  it('recovers the log-odds of a noisy feature without penalty', () => {
    // x = 0: right 1 time in 4 (log-odds −ln 3); x = 1: right 3 times in 4 (+ln 3).
    const rows = [
      ...[1, 0, 0, 0].map((y) => ({ x: [0], y: y as 0 | 1 })),
      ...[1, 1, 1, 0].map((y) => ({ x: [1], y: y as 0 | 1 })),
    ];
    const model = fitLogistic(rows, { l2: 0 });
    expect(model.bias).toBeCloseTo(-Math.log(3), 4);
    expect(model.weights[0]).toBeCloseTo(2 * Math.log(3), 4);
    expect(scoreOf(model, [1])).toBeCloseTo(0.75, 4);
  });

  it('converges when every row has the same label, and rejects bad input', () => {
    const model = fitLogistic([
      { x: [1], y: 1 },
      { x: [2], y: 1 },
    ]);
    expect(scoreOf(model, [1])).toBeGreaterThan(0.9);
    expect(() => fitLogistic([])).toThrow(/no rows/);
    expect(() =>
      fitLogistic([
        { x: [1], y: 1 },
        { x: [1, 2], y: 0 },
      ]),
    ).toThrow(/same number of features/);
    expect(sigmoid(1000)).toBe(1);
    expect(sigmoid(-1000)).toBe(0);
    expect(sigmoid(0)).toBe(0.5);
  });
});

describe('conformal threshold', () => {
  it('n = 19, α = 0.1: exactly one wrong answer may be released', () => {
    // Scores 0.01 … 0.19; the wrong ones are at 0.05, 0.10 and 0.15.
    const calibration = Array.from({ length: 19 }, (_, index) => ({
      score: (index + 1) / 100,
      loss: ((index + 1) % 5 === 0 ? 1 : 0) as 0 | 1,
    }));
    const chosen = conformalThreshold(calibration, 0.1);
    // (1 + 1) / 20 = 0.1 ≤ α with one wrong release; λ = 0.11 is the smallest score that leaves
    // only 0.15 above it.
    expect(chosen).toEqual({ threshold: 0.11, releasedWrong: 1, n: 19 });
    // α = 0.09: (1 + 1) / 20 > α, so no wrong release: λ above 0.15.
    expect(conformalThreshold(calibration, 0.09)).toEqual({ threshold: 0.16, releasedWrong: 0, n: 19 });
    // Every wrong answer allowed: λ is the lowest score.
    expect(conformalThreshold(calibration, 0.2).threshold).toBe(0.01);
  });

  it('releases nothing (+Infinity) when even that misses α, or when the top score is wrong', () => {
    const few = [
      { score: 0.9, loss: 0 },
      { score: 0.8, loss: 0 },
    ] as const;
    // 1 / 3 > 0.1: too few examples to promise α = 0.1.
    expect(conformalThreshold(few, 0.1)).toEqual({
      threshold: Number.POSITIVE_INFINITY,
      releasedWrong: 0,
      n: 2,
    });
    const topWrong: ConformalExample[] = [
      { score: 0.99, loss: 1 },
      ...Array.from({ length: 30 }, (_, index) => ({ score: index / 100, loss: 0 as const })),
    ];
    expect(conformalThreshold(topWrong, 0.05).threshold).toBe(Number.POSITIVE_INFINITY);
    // Ties: a λ releases every example of its score.
    const tied = [
      ...Array.from({ length: 18 }, () => ({ score: 0.5, loss: 0 as const })),
      { score: 0.5, loss: 1 as const },
      { score: 0.5, loss: 1 as const },
    ];
    expect(conformalThreshold(tied, 0.1).threshold).toBe(Number.POSITIVE_INFINITY);
    expect(() => conformalThreshold(few, 0)).toThrow(/between 0 and 1/);
    expect(() => conformalThreshold(few, 1)).toThrow(/between 0 and 1/);
  });

  it('a model fitted on a separable set gets a threshold that releases exactly the right rows', () => {
    const rows = [...SEPARABLE, ...SEPARABLE, ...SEPARABLE].map((row) => ({ x: [...row.x], y: row.y }));
    const model = fitLogistic(rows);
    const examples = rows.map((row) => ({ score: scoreOf(model, row.x), loss: (1 - row.y) as 0 | 1 }));
    // n = 18: (0 + 1) / 19 ≤ 0.1, but one wrong release would make 2 / 19 > 0.1.
    const { threshold, releasedWrong } = conformalThreshold(examples, 0.1);
    expect(releasedWrong).toBe(0);
    const released = rows.filter((_, index) => (examples[index]?.score ?? 0) >= threshold);
    expect(released).toHaveLength(9);
    expect(released.every((row) => row.y === 1)).toBe(true);
  });
});

describe('risk and coverage at a threshold', () => {
  it('counts released-and-wrong over all questions and released-with-fact over answerable ones', () => {
    const rows = [
      { score: 0.9, loss: 0, answerable: true, releasable: true },
      { score: 0.8, loss: 1, answerable: true, releasable: true },
      { score: 0.7, loss: 1, answerable: false, releasable: true },
      // A refusal is never released, whatever its score.
      { score: 0.95, loss: 1, answerable: true, releasable: false },
    ] as const;
    expect(riskCoverageAt(rows, 0.75)).toEqual({
      threshold: 0.75,
      released: 2,
      released_wrong: 1,
      released_with_fact: 1,
      false_assurance: 0.25,
      coverage: 1 / 3,
    });
    expect(riskCoverageAt(rows, Number.POSITIVE_INFINITY).released).toBe(0);
  });
});

/** `n` rows of a group whose first feature separates right (high) from wrong (low) answers. */
function groupRows(group: string, n: number, wrongEvery: number): GroupedRow[] {
  return Array.from({ length: n }, (_, index) => {
    const wrong = index % wrongEvery === 0;
    return {
      group,
      x: [wrong ? 0.1 + (index % 3) / 20 : 0.7 + (index % 3) / 20],
      loss: wrong ? 1 : 0,
      answerable: true,
      releasable: true,
    };
  });
}

describe('cross-validation by group', () => {
  it('returns one fold per group, each measured on the held-out group', () => {
    const rows = [
      ...groupRows('lalu-lintas', 40, 4),
      ...groupRows('apbn', 30, 3),
      ...groupRows('docs', 20, 5),
    ];
    rows.push({ group: 'docs', x: [0.9], loss: 1, answerable: false, releasable: false });
    // α = 0.02 over 51 to 70 training questions: (0 + 1) / (n + 1) ≤ α; one wrong release would not be.
    const { folds, scores } = crossValidateByGroup(rows, { alpha: 0.02 });
    expect(folds.map((fold) => fold.group)).toEqual(['lalu-lintas', 'apbn', 'docs']);
    expect(folds.map((fold) => fold.n)).toEqual([40, 30, 21]);
    expect(folds.map((fold) => fold.trained_on)).toEqual([51, 61, 70]);
    expect(scores).toHaveLength(rows.length);
    for (const fold of folds) {
      expect(fold.alpha).toBe(0.02);
      expect(Number.isFinite(fold.threshold)).toBe(true);
      // Separable in every group: the right answers are released, no wrong one.
      expect(fold.released_wrong).toBe(0);
      expect(fold.false_assurance).toBe(0);
      const right = rows.filter((row) => row.group === fold.group && row.releasable && row.loss === 0).length;
      expect(fold.released).toBe(right);
      expect(fold.coverage).toBe(right / fold.answerable);
    }
    // docs: 16 right answers; the unreleasable row is not released.
    expect(folds[2]!.released).toBe(16);
    expect(folds[2]!.answerable).toBe(20);
    expect(() => crossValidateByGroup(groupRows('apbn', 10, 2), { alpha: 0.1 })).toThrow(/two groups/);
  });
});

/** Calibration rows of three collections, the first feature separating right from wrong. */
function calibrationRows(): CalibrationRow[] {
  return (
    [
      ['lalu-lintas', 'lalin-dev'],
      ['apbn', 'apbn-dev'],
      ['docs', 'redux-dev'],
    ] as const
  ).flatMap(([group, set]) =>
    groupRows(group, 30, 3).map((row, index) => ({
      set,
      id: `${set}-${index}`,
      group,
      features: { relevance: row.x[0] ?? 0, constant: 1 },
      answerable: true,
      outcome: 'answered' as const,
      loss: row.loss,
    })),
  );
}

describe('the calibration report', () => {
  it('holds the rows with out-of-fold scores, a fold per collection and the final model with its λ', () => {
    // α = 0.02 over 90 questions (60 in each fold's training): no wrong release is allowed.
    const report = calibrationReport({
      rows: calibrationRows(),
      alpha: 0.02,
      skipped: { 'without features': 4 },
    });
    expect(report).toMatchObject({ method: 'answer-check', version: '1', alpha: 0.02 });
    expect(report.features).toEqual(['constant', 'relevance']);
    expect(report.groups).toEqual(['lalu-lintas', 'apbn', 'docs']);
    expect(report.folds).toHaveLength(3);
    expect(report.rows).toHaveLength(90);
    expect(report.rows.every((row) => typeof row.out_of_fold_score === 'number')).toBe(true);
    expect(report.final.weights).toHaveLength(2);
    expect(report.final.threshold).not.toBeNull();
    expect(report.final).toMatchObject({
      n: 90,
      released: 60,
      released_wrong: 0,
      false_assurance: 0,
      coverage: 60 / 90,
    });
    expect(report.final.conformal_bound).toBeLessThanOrEqual(0.02);
    expect(report.folds.every((fold) => fold.false_assurance === 0 && fold.released === 20)).toBe(true);
    // JSON-serializable: the same object back.
    const json = `${JSON.stringify(report, null, 2)}\n`;
    expect(JSON.parse(json)).toEqual(report);
    expect(calibrationSha256(json)).toMatch(/^[0-9a-f]{64}$/);
    expect(calibrationSha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('has no folds with one collection, and rejects no rows, a bad α and missing features', () => {
    const one = calibrationRows().filter((row) => row.group === 'apbn');
    expect(calibrationReport({ rows: one, alpha: 0.1 }).folds).toEqual([]);
    expect(() => calibrationReport({ rows: [], alpha: 0.1 })).toThrow(/No usable rows/);
    expect(() => calibrationReport({ rows: one, alpha: 1.5 })).toThrow(/between 0 and 1/);
    const [first, ...rest] = one;
    expect(() =>
      calibrationReport({ rows: [{ ...first!, features: { relevance: 0.5 } }, ...rest], alpha: 0.1 }),
    ).toThrow(/lacks some of the features/);
  });

  it('generates the model module: features, weights, bias, threshold, α and the SHA-256', () => {
    const report = calibrationReport({ rows: calibrationRows(), alpha: 0.05 });
    const source = answerCheckModelSource(report, 'f'.repeat(64));
    expect(source).toContain('export const ANSWER_CHECK_MODEL = {');
    expect(source).toContain("  method: 'answer-check',");
    expect(source).toContain("  features: ['constant', 'relevance'],");
    expect(source).toContain(`  weights: [${report.final.weights.join(', ')}],`);
    expect(source).toContain(`  threshold: ${report.final.threshold},`);
    expect(source).toContain('  alpha: 0.05,');
    expect(source).toContain(`  calibration_sha256: '${'f'.repeat(64)}',`);
    expect(source.trimEnd().endsWith('} as const;')).toBe(true);
    // The points λ was chosen on: one (final score, loss, collection) per question, λ among them.
    const points = [...source.matchAll(/^ {4}\[([0-9.e-]+), ([01]), '[a-z-]+'\],$/gm)];
    expect(points).toHaveLength(90);
    expect(points.map((point) => Number(point[1]))).toContain(report.final.threshold);
    expect(source).toContain('  ] as readonly (readonly [number, 0 | 1, string])[],');
    expect(report.rows.map((row) => row.score)).toEqual(points.map((point) => Number(point[1])));
    // Release nothing: +Infinity as source; long lists one entry (or a line of numbers) per line.
    const wide = {
      ...report,
      features: Array.from({ length: 12 }, (_, index) => `feature_number_${index}`),
      final: {
        ...report.final,
        weights: Array.from({ length: 12 }, (_, index) => -0.123456 * index),
        threshold: null,
      },
    };
    const long = answerCheckModelSource(wide, 'a'.repeat(64));
    expect(long).toContain('  threshold: Number.POSITIVE_INFINITY,');
    expect(long).toContain("  features: [\n    'feature_number_0',\n    'feature_number_1',");
    expect(long.split('\n').every((line) => line.length <= 110)).toBe(true);
  });
});

describe('calibration rows from evaluation reports', () => {
  it('groups by collection, derives the loss, and counts questions without features', () => {
    const question = (id: string, fields: Record<string, unknown>) => ({
      id,
      answerable: true,
      must_mention: [],
      supported: 0,
      features: { relevance: 0.5 },
      ...fields,
    });
    const { rows, withoutFeatures, incompleteFeatures } = calibrationRowsFromReports([
      {
        set: 'lalin-dev',
        collection: 'lalu-lintas',
        answers: {
          questions: [
            question('a', { outcome: 'answered', must_mention: [{ phrase: 'x', found: true }] }),
            question('b', { outcome: 'answered', must_mention: [{ phrase: 'x', found: false }] }),
            question('c', { outcome: 'related', fact_if_released: true }),
            question('d', { outcome: 'answered', answerable: false, supported: 2 }),
            question('e', { outcome: 'refused', features: undefined }),
            question('f', { outcome: 'answered', features: { other: 1 } }),
          ],
        },
      },
      {
        set: 'apbn-dev',
        collection: 'apbn',
        answers: { questions: [question('g', { refused: false, supported: 1 })] },
      },
      { set: 'redux-dev', collection: 'docs', answers: null },
      'not a report',
    ]);
    expect(rows.map((row) => [row.id, row.group, row.outcome, row.loss])).toEqual([
      ['a', 'lalu-lintas', 'answered', 0],
      ['b', 'lalu-lintas', 'answered', 1],
      ['c', 'lalu-lintas', 'related', 0],
      ['d', 'lalu-lintas', 'answered', 1],
      // A refusal has no features but counts in n: never released, its loss never counts.
      ['e', 'lalu-lintas', 'refused', 1],
      ['g', 'apbn', 'answered', 0],
    ]);
    expect(withoutFeatures).toBe(0);
    expect(incompleteFeatures).toBe(1);
  });
});

describe('hard fails and per-collection thresholds', () => {
  it('never releases a hard fail, leaves it out of the weights, and chooses λ per collection', () => {
    const rows = ['lalu-lintas', 'apbn'].flatMap((group) =>
      Array.from({ length: 40 }, (_, index) => ({
        set: `${group}-dev`,
        id: `${group}-${index}`,
        group,
        // Right answers score high; a hard fail is wrong whatever its score would be.
        features: { relevance: index % 4 === 0 ? 0.2 : 0.9, hard_fail: index % 10 === 1 ? 1 : 0 },
        answerable: true,
        outcome: 'answered' as const,
        loss: (index % 4 === 0 || index % 10 === 1 ? 1 : 0) as 0 | 1,
      })),
    );
    const report = calibrationReport({ rows, alpha: 0.1 });
    expect(report.features).toEqual(['relevance']);
    const hardFails = report.rows.filter((row) => row.features['hard_fail'] === 1);
    expect(hardFails.length).toBe(8);
    expect(hardFails.every((row) => !row.releasable)).toBe(true);
    expect(report.collections.map((row) => row.group)).toEqual(['lalu-lintas', 'apbn']);
    for (const row of report.collections) {
      expect(row.n).toBe(40);
      expect(row.false_assurance).toBeLessThanOrEqual(0.1);
      expect(row.released).toBeGreaterThan(0);
    }
  });
});

describe('split-conformal within a held-out collection', () => {
  it('fits on the other collections and releases each half at the λ of the other half, reproducibly', () => {
    const rows = ['a', 'b', 'c'].flatMap((group) =>
      Array.from({ length: 60 }, (_, index) => {
        const wrong = index % 5 === 0;
        return {
          group,
          x: [wrong ? 0.1 + (index % 7) / 100 : 0.8 + (index % 7) / 100],
          loss: (wrong ? 1 : 0) as 0 | 1,
          answerable: true,
          releasable: true,
        };
      }),
    );
    const folds = splitWithinGroups(rows, { alpha: 0.05, splits: 8 });
    expect(folds.map((fold) => fold.group)).toEqual(['a', 'b', 'c']);
    for (const fold of folds) {
      expect(fold).toMatchObject({ n: 60, splits: 8, release_nothing: 0 });
      // Separable, and α too small to allow a wrong release among 30: the right answers are released.
      expect(fold.false_assurance).toBe(0);
      // A fifth of the answerable questions have a wrong answer: coverage tops out near 0.8.
      expect(fold.coverage).toBeGreaterThan(0.75);
    }
    expect(splitWithinGroups(rows, { alpha: 0.05, splits: 8 })).toEqual(folds);
    expect(
      splitWithinGroups(
        rows.filter((row) => row.group === 'a'),
        { alpha: 0.1 },
      ),
    ).toEqual([]);
  });
});
