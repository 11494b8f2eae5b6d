import { describe, expect, it } from 'vitest';
import { retrievalMetrics } from './metrics.js';
import {
  answersTable,
  checkTargets,
  intentTable,
  recallChartSvg,
  retrievalTable,
  setMarkdown,
} from './report.js';
import {
  type AnswerRecord,
  type AnswersReport,
  answerMetrics,
  answerMetricsByIntent,
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

/** A record: answerable or not, refused or not, claims / supported, phrases found, and an intent. */
function record(
  id: string,
  options: {
    answerable?: boolean;
    refused?: boolean;
    claims?: number;
    supported?: number;
    phrases?: boolean[];
    intent?: string;
    f1?: number;
  } = {},
): AnswerRecord {
  const refused = options.refused ?? false;
  return {
    id,
    answerable: options.answerable ?? true,
    intent: options.intent ?? 'other',
    found: !refused,
    refused,
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
});
