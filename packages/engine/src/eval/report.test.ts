import { describe, expect, it } from 'vitest';
import { type CalibrationRow, calibrationReport, releaseRowOf, riskCoverageCurve } from './calibration.js';
import { retrievalMetrics } from './metrics.js';
import {
  answersTable,
  calibrationMarkdown,
  checkTargets,
  crossCorpusComparison,
  crossCorpusTable,
  intentTable,
  recallChartSvg,
  retrievalTable,
  riskCoverageSvg,
  setMarkdown,
} from './report.js';
import {
  type AnswerRecord,
  type AnswersReport,
  answerMetrics,
  answerMetricsByIntent,
  type EvalAnswerOutcome,
  type RetrievalConfig,
  type RetrievalReport,
} from './run.js';
import type { EvalQuestion } from './sets.js';

function report(set: string, config: RetrievalConfig, hits: boolean[]): RetrievalReport {
  return {
    set,
    collection: 'c',
    config,
    metrics: retrievalMetrics(hits.map((hit) => ({ ranking: [hit ? 'a' : null], relevantCount: 1 }))),
    questions: hits.map((hit, index) => ({
      id: `q${index}`,
      first_relevant: hit ? 1 : null,
      'hit@5': hit,
      top: [],
    })),
    ms: 1,
  };
}

/**
 * A record: answerable or not, its outcome (or refused or not), claims / supported, phrases found, an
 * intent and a check score.
 */
function record(
  id: string,
  options: {
    answerable?: boolean;
    refused?: boolean;
    outcome?: EvalAnswerOutcome;
    claims?: number;
    supported?: number;
    phrases?: boolean[];
    intent?: string;
    f1?: number;
    score?: number;
    factIfReleased?: boolean;
  } = {},
): AnswerRecord {
  const outcome = options.outcome ?? (options.refused ? 'refused' : 'answered');
  const refused = outcome !== 'answered';
  return {
    id,
    answerable: options.answerable ?? true,
    intent: options.intent ?? 'other',
    found: !refused,
    outcome,
    refused,
    check_score: options.score ?? 0,
    ...(options.factIfReleased !== undefined ? { fact_if_released: options.factIfReleased } : {}),
    claims: options.claims ?? 0,
    rendered: options.claims ?? 0,
    supported: options.supported ?? 0,
    cited: [],
    must_mention: (options.phrases ?? []).map((found, index) => ({ phrase: `p${index}`, found })),
    ...(options.f1 !== undefined ? { scores: { exact_match: 0, f1: options.f1, rouge_l: options.f1 } } : {}),
    answer: '',
  };
}

function answers(set: string, records: AnswerRecord[]): AnswersReport {
  const questions: EvalQuestion[] = records.map((r) => ({
    id: r.id,
    question: r.id,
    answerable: r.answerable,
    relevant: r.answerable ? [{ key: 'x' }] : [],
    must_mention: r.must_mention.map((phrase) => phrase.phrase),
  }));
  return {
    set,
    collection: 'c',
    metrics: answerMetrics(questions, records),
    by_intent: answerMetricsByIntent(questions, records),
    questions: records,
    ms: 1,
  };
}

describe('evaluation reports', () => {
  const reports = [
    report('lalin-dev', 'lexical', [true, false, false, false]),
    report('lalin-dev', 'hybrid+rewrite', [true, true, true, true]),
    report('lalin-dev2', 'hybrid+rewrite', [true, true, true, false, false, true]),
    report('apbn-dev', 'hybrid+rewrite', [true, true]),
  ];

  it('checks the answer-quality targets per domain, pooled by question, with each set shown', () => {
    const targets = checkTargets(reports, [
      answers('lalin-dev', [
        record('a', { phrases: [true, true], claims: 2, supported: 2, intent: 'sanction' }),
        record('b', { answerable: false, refused: true }),
      ]),
      answers('lalin-dev2', [
        record('c', { phrases: [false, true], claims: 2, supported: 1 }),
        record('d', { refused: true, phrases: [false] }),
        record('e', { answerable: false }),
      ]),
      answers('redux-dev', [record('f', { phrases: [true], claims: 1, supported: 1 })]),
    ]);
    const find = (start: string) => targets.find((target) => target.target.startsWith(start));
    // 4 + 4 of 10 questions pooled: 0.8, not the mean of 1.0 and 0.667.
    expect(find('law Recall@5')).toEqual({
      target: 'law Recall@5 ≥ 0.90 (lalin-dev + lalin-dev2)',
      met: false,
      figure: '0.800: lalin-dev 1.000, lalin-dev2 0.667',
    });
    expect(find('budget Recall@5')).toEqual(expect.objectContaining({ met: true, figure: '1.000' }));
    // No docs retrieval report: no docs Recall@5 target; the docs answers still count.
    expect(find('docs Recall@5')).toBeUndefined();
    expect(find('law must_mention')).toEqual(
      expect.objectContaining({ met: false, figure: '0.600: lalin-dev 1.000, lalin-dev2 0.333' }),
    );
    expect(find('docs must_mention hit rate ≥ 0.60')).toEqual(expect.objectContaining({ met: true }));
    expect(find('unanswerable questions refused ≥ 0.85')).toEqual(
      expect.objectContaining({ met: false, figure: '0.500' }),
    );
    expect(find('answerable questions refused ≤ 0.10')).toEqual(
      expect.objectContaining({ met: false, figure: '0.250: law 0.333, docs 0.000' }),
    );
    // (2 + 1 + 1) supported of (2 + 2 + 1) claims.
    expect(find('citation precision ≥ 0.80')).toEqual(
      expect.objectContaining({ met: true, figure: '0.800: law 0.750, docs 1.000' }),
    );
  });

  it('writes the answer and per-intent tables with EM, F1 and ROUGE-L', () => {
    const report = answers('squad2-dev', [
      record('a', { intent: 'definition', f1: 0.5, phrases: [true] }),
      record('b', { intent: 'definition', f1: 1, phrases: [true] }),
      record('c', { intent: 'figure', f1: 0, refused: true, phrases: [false] }),
      record('d', { answerable: false, intent: 'figure', refused: true }),
    ]);
    expect(report.metrics.f1).toBe(0.5);
    expect(report.by_intent.map((group) => [group.intent, group.questions])).toEqual([
      ['definition', 2],
      ['figure', 2],
    ]);
    expect(report.by_intent[1]!.metrics).toMatchObject({ refusal_accuracy: 1, false_refusal_rate: 1, f1: 0 });
    expect(answersTable([report])).toContain('| EM | F1 | ROUGE-L |');
    const intents = intentTable(report).split('\n');
    expect(intents).toHaveLength(4);
    expect(intents[2]).toMatch(/^\| definition \| 2 \| 2 \| 0 \| .* \| 0\.750 \| 0\.750 \|$/);
    const markdown = setMarkdown('squad2-dev', [], report);
    expect(markdown).toContain('### Per intent');
    expect(markdown).toContain('EM, F1 and ROUGE-L compare the answer text');
  });

  it('writes a table row per configuration and an accessible SVG', () => {
    expect(retrievalTable(reports).split('\n')).toHaveLength(6);
    const svg = recallChartSvg(reports);
    expect(svg).toMatch(/^<svg [^>]*role="img" aria-labelledby="chart-title chart-desc"/);
    expect(svg).toContain('<title id="chart-title">');
    expect(svg).toContain('lalin-dev: lexical 0.25, vector not run, hybrid not run, hybrid+rewrite 1.00');
    expect(svg).toContain('dashed: the 0.90 target');
    expect(svg.match(/<rect x=[^>]*fill="#/g)?.length).toBeGreaterThanOrEqual(4);
  });

  it('measures false assurance over all questions, coverage over answerable ones, and the related share', () => {
    const report = answers('lalin-dev', [
      // Answered with a phrase found: covered.
      record('a', { phrases: [false, true], claims: 1, supported: 1 }),
      // Answered without any phrase found: false assurance.
      record('b', { phrases: [false], claims: 1, supported: 1 }),
      // No phrases: a supported claim is the expected fact; none is false assurance.
      record('c', { claims: 1, supported: 1 }),
      record('d', { claims: 1, supported: 0 }),
      // Unanswerable and answered: false assurance, even with a supported claim.
      record('e', { answerable: false, claims: 1, supported: 1 }),
      // Related and refused: neither false assurance nor coverage.
      record('f', { outcome: 'related', phrases: [true] }),
      record('g', { answerable: false, outcome: 'refused' }),
    ]);
    expect(report.metrics.false_assurance).toBeCloseTo(3 / 7, 4);
    expect(report.metrics.coverage).toBeCloseTo(2 / 5, 4);
    expect(report.metrics.related_rate).toBeCloseTo(1 / 7, 4);
    // A related answer is not answered: it is a false refusal and finds no phrase.
    expect(report.metrics.false_refusal_rate).toBeCloseTo(1 / 5, 4);
    const table = answersTable([report]);
    expect(table).toContain('| false assurance | coverage | related |');
    expect(table.split('\n')[2]).toMatch(/^\| lalin-dev \| 5 \| 2 \| 0\.429 \| 0\.400 \| 0\.143 \|/);
    const markdown = setMarkdown('lalin-dev', [], report);
    expect(markdown).toContain('Answered with false assurance: 3.');
    expect(markdown).toMatch(/^- e \(unanswerable; check score 0\.000\)/m);
    expect(markdown).toMatch(/^- b \(no expected fact;/m);
  });

  it('draws the risk–coverage curve: one line per set, the α line, a title, nothing external', () => {
    const rows = [
      record('a', { score: 0.9, phrases: [true] }),
      record('b', { score: 0.6, phrases: [false] }),
      record('c', { score: 0.4, outcome: 'related', factIfReleased: true }),
      record('d', { answerable: false, score: 0.3 }),
      record('e', { outcome: 'refused', score: 0.95 }),
    ].map(releaseRowOf);
    const curve = riskCoverageCurve(rows);
    expect(curve.map((point) => [point.threshold, point.coverage, point.false_assurance])).toEqual([
      [Number.POSITIVE_INFINITY, 0, 0],
      [0.9, 0.25, 0],
      [0.6, 0.25, 0.2],
      [0.4, 0.5, 0.2],
      [0.3, 0.5, 0.4],
    ]);
    const svg = riskCoverageSvg(
      [
        { name: 'lalin-dev', points: curve },
        { name: 'apbn-dev', points: curve.slice(0, 3) },
      ],
      { alpha: 0.05 },
    );
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" [^>]*role="img"/);
    expect(svg).toContain('<title id="risk-title">');
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg).toContain('α = 0.05');
    expect(svg).toContain('stroke-dasharray="6 4"');
    expect(svg).toContain('coverage: answerable questions answered with an expected fact');
    expect(svg).toContain('false assurance: answered and wrong / all questions');
    // Self-contained: no link, image, style sheet or script.
    expect(svg.replace('xmlns="http://www.w3.org/2000/svg"', '')).not.toMatch(
      /href|http|<script|<style|@import/,
    );
  });

  it('writes the calibration report in Markdown: folds against α and the weights by feature', () => {
    const rows: CalibrationRow[] = [];
    for (const group of ['lalu-lintas', 'apbn'])
      for (let index = 0; index < 30; index++)
        rows.push({
          set: `${group}-dev`,
          id: `${group}-${index}`,
          group,
          features: { overlap: index / 30, support: index % 2 },
          answerable: true,
          outcome: 'answered',
          loss: index < 6 ? 1 : 0,
        });
    const markdown = calibrationMarkdown(
      calibrationReport({ rows, alpha: 0.1, skipped: { 'without features': 2 } }),
    );
    expect(markdown).toContain('# Calibration of the answer check');
    expect(markdown).toContain('left out: 2 without features');
    expect(markdown).toMatch(
      /^\| lalu-lintas \| 30 \| 30 \| [0-9.]+ \| \d+ \| \d+ \| [0-9.]+ \| 0\.1 \| (yes|NO) \| [0-9.]+ \|$/m,
    );
    expect(markdown).toMatch(/^\| apbn \| 30 \|/m);
    expect(markdown).toMatch(/^\| overlap \| -?\d+\.\d{6} \|$/m);
    expect(markdown).toMatch(/^\| support \| -?\d+\.\d{6} \|$/m);
    expect(markdown).toMatch(/^\| \(bias\) \|/m);
  });
});

describe('the dev and cross-corpus comparison', () => {
  it('pools the dev sets of the cross set’s kind, and calls a gap above 0.10 the wrong way overfitting', () => {
    const retrieval = [
      report('redux-dev', 'hybrid+rewrite', [true, true]),
      report('redux-dev2', 'hybrid+rewrite', [true, false]),
      report('redux-dev', 'lexical', [false, false]),
      report('other-docs', 'hybrid+rewrite', [true, false, false, false]),
    ];
    const answered = [
      answers('redux-dev', [record('a', { phrases: [true, true] }), record('b', { phrases: [true, false] })]),
      answers('redux-dev2', [record('c', { answerable: false, refused: true })]),
      answers('other-docs', [
        record('d', { phrases: [true, false, false, false], claims: 2, supported: 1 }),
        record('e', { refused: true, phrases: [false] }),
        record('f', { answerable: false }),
      ]),
    ];
    const rows = crossCorpusComparison(retrieval, answered, [{ name: 'other-docs', kind: 'docs' }]);
    const row = (metric: string) => rows.find((entry) => entry.metric === metric);
    // Recall@5: dev 3 of 4 (hybrid+rewrite only), cross 1 of 4.
    expect(row('Recall@5')).toMatchObject({ dev: 0.75, cross: 0.25, gap: 0.5, overfitting: true });
    expect(row('must_mention hit rate')).toMatchObject({ dev: 0.75, cross: 0.2, overfitting: true });
    expect(row('must_mention hit rate')?.target).toEqual({ text: '≥ 0.50', met: false });
    // Lower is better: more answerable questions refused on the cross set is a positive gap.
    expect(row('answerable refused')).toMatchObject({ dev: 0, cross: 0.5, gap: 0.5, overfitting: true });
    // One unanswerable question each side: refused on dev, answered on the cross set.
    expect(row('unanswerable refused')).toMatchObject({ dev: 1, cross: 0, gap: 1 });
    expect(row('false assurance')?.cross).toBeCloseTo(1 / 3);
    const table = crossCorpusTable(rows);
    expect(table).toContain(
      '| other-docs | Recall@5 | 0.750 | 0.250 | +0.500 overfitting | ≥ 0.90: MISSED |',
    );
    // A set within the gap is not overfitting; a regulation set is compared with the law and budget sets.
    const within = crossCorpusComparison(
      [report('lalin-dev', 'hybrid+rewrite', [true, true]), report('regs', 'hybrid+rewrite', [true, true])],
      [],
      [{ name: 'regs', kind: 'legal' }],
    );
    expect(within.find((entry) => entry.metric === 'Recall@5')).toMatchObject({ gap: 0, overfitting: false });
  });
});
