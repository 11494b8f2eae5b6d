import { describe, expect, it } from 'vitest';
import { retrievalMetrics } from './metrics.js';
import { checkTargets, recallChartSvg, retrievalTable } from './report.js';
import type { RetrievalConfig, RetrievalReport } from './run.js';

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

describe('evaluation reports', () => {
  const reports = [
    report('lalin-dev', 'lexical', [true, false, false, false]),
    report('lalin-dev', 'vector', [true, true, false, false]),
    report('lalin-dev', 'hybrid', [true, false, false, false]),
    report('lalin-dev', 'hybrid+rewrite', [true, true, true, true]),
  ];

  it('checks the targets, naming misses with the figure', () => {
    const targets = checkTargets(reports, []);
    expect(targets.find((t) => t.target.startsWith('lalin-dev Recall@5'))).toEqual({
      target: 'lalin-dev Recall@5 ≥ 0.85',
      met: true,
      figure: '1.000',
    });
    expect(
      targets.find((t) => t.target === 'lalin-dev: hybrid Recall@5 not below the better single arm'),
    ).toEqual(expect.objectContaining({ met: false, figure: '0.250 vs 0.500' }));
  });

  it('writes a table row per configuration and an accessible SVG', () => {
    expect(retrievalTable(reports).split('\n')).toHaveLength(6);
    const svg = recallChartSvg(reports);
    expect(svg).toMatch(/^<svg [^>]*role="img" aria-labelledby="chart-title chart-desc"/);
    expect(svg).toContain('<title id="chart-title">');
    expect(svg).toContain('lalin-dev: lexical 0.25, vector 0.50, hybrid 0.25, hybrid+rewrite 1.00');
    expect(svg.match(/<rect x=[^>]*fill="#/g)?.length).toBeGreaterThanOrEqual(4);
  });
});
