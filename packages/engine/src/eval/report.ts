/**
 * Evaluation reports: Markdown tables, the targets of issue 6 (met / MISSED with the figure) and a
 * hand-written SVG bar chart of Recall@5 per set and configuration.
 */
import type { RetrievalMetrics } from './metrics.js';
import { type AnswersReport, RETRIEVAL_CONFIGS, type RetrievalConfig, type RetrievalReport } from './run.js';

const fixed = (value: number | null | undefined) =>
  value === null || value === undefined || Number.isNaN(value) ? '—' : value.toFixed(3);

const METRIC_COLUMNS: (keyof RetrievalMetrics)[] = [
  'recall@1',
  'recall@3',
  'recall@5',
  'recall@10',
  'full_recall@10',
  'precision@5',
  'mrr',
  'ndcg@10',
];

/** One row per configuration. */
export function retrievalTable(reports: readonly RetrievalReport[]): string {
  const lines = [
    `| set | configuration | n | ${METRIC_COLUMNS.join(' | ')} |`,
    `|---|---|---:|${METRIC_COLUMNS.map(() => '---:').join('|')}|`,
  ];
  for (const report of reports) {
    lines.push(
      `| ${report.set} | ${report.config} | ${report.metrics.questions} | ${METRIC_COLUMNS.map((column) => fixed(report.metrics[column])).join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

export function answersTable(reports: readonly AnswersReport[]): string {
  const lines = [
    '| set | answerable | unanswerable | citation precision | citation recall | must_mention hit rate | must_mention (any) | refusal accuracy | false-refusal rate |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { set, metrics: m } of reports) {
    lines.push(
      `| ${set} | ${m.answerable} | ${m.unanswerable} | ${fixed(m.citation_precision)} | ${fixed(m.citation_recall)} | ${fixed(m.must_mention_hit_rate)} | ${fixed(m.must_mention_any_rate)} | ${fixed(m.refusal_accuracy)} | ${fixed(m.false_refusal_rate)} |`,
    );
  }
  return lines.join('\n');
}

export interface TargetResult {
  target: string;
  met: boolean;
  figure: string;
}

const recall5 = (reports: readonly RetrievalReport[], set: string, config: RetrievalConfig) =>
  reports.find((report) => report.set === set && report.config === config)?.metrics['recall@5'];

/** The targets of issue 6 with the offline defaults, checked against a run. */
export function checkTargets(
  retrieval: readonly RetrievalReport[],
  answers: readonly AnswersReport[],
): TargetResult[] {
  const targets: TargetResult[] = [];
  const atLeast = (target: string, value: number | null | undefined, threshold: number, atMost = false) => {
    if (value === undefined || value === null) return;
    targets.push({
      target,
      met: atMost ? value <= threshold : value >= threshold,
      figure: value.toFixed(3),
    });
  };
  atLeast('lalin-dev Recall@5 ≥ 0.85', recall5(retrieval, 'lalin-dev', 'hybrid+rewrite'), 0.85);
  const spec = retrieval.find(
    (report) => report.set === 'lalin-spec-cases' && report.config === 'hybrid+rewrite',
  );
  if (spec) {
    const hits = spec.questions.filter((question) => question['hit@5']).length;
    targets.push({
      target: 'each of the 7 specification cases has an expected Pasal in the top 5',
      met: hits === spec.questions.length,
      figure: `${hits}/${spec.questions.length}`,
    });
  }
  atLeast('apbn-dev Recall@5 ≥ 0.85', recall5(retrieval, 'apbn-dev', 'hybrid+rewrite'), 0.85);
  const apbn = answers.find((report) => report.set === 'apbn-dev');
  atLeast('apbn-dev must_mention hit rate ≥ 0.8 (answerable)', apbn?.metrics.must_mention_hit_rate, 0.8);
  // Refusals pooled over Saksi's own sets, and SQuAD 2.0 on its own (its adversarial unanswerable
  // questions would otherwise drown the handful of the Indonesian sets).
  const refusalTargets = (label: string, reports: readonly AnswersReport[]) => {
    const unanswerable = reports.filter((report) => report.metrics.unanswerable > 0);
    const refused = unanswerable.reduce(
      (sum, report) => sum + (report.metrics.refusal_accuracy ?? 0) * report.metrics.unanswerable,
      0,
    );
    const totalUnanswerable = unanswerable.reduce((sum, report) => sum + report.metrics.unanswerable, 0);
    if (totalUnanswerable > 0)
      atLeast(`≥ 0.8 of unanswerable questions refused (${label})`, refused / totalUnanswerable, 0.8);
    const answerable = reports.filter((report) => report.metrics.answerable > 0);
    const falseRefused = answerable.reduce(
      (sum, report) => sum + (report.metrics.false_refusal_rate ?? 0) * report.metrics.answerable,
      0,
    );
    const totalAnswerable = answerable.reduce((sum, report) => sum + report.metrics.answerable, 0);
    if (totalAnswerable > 0)
      atLeast(`≤ 0.1 of answerable questions refused (${label})`, falseRefused / totalAnswerable, 0.1, true);
  };
  const isSquad = (report: AnswersReport) => report.set.startsWith('squad');
  refusalTargets(
    'Saksi sets pooled',
    answers.filter((report) => !isSquad(report)),
  );
  refusalTargets('squad2-dev', answers.filter(isSquad));
  atLeast('redux-dev file-level Recall@5 ≥ 0.85', recall5(retrieval, 'redux-dev', 'hybrid+rewrite'), 0.85);
  const selection = answers.find((report) => report.set === 'redux-selection-dev');
  atLeast(
    'selection answers contain a must_mention phrase ≥ 0.9',
    selection?.metrics.must_mention_any_rate,
    0.9,
  );
  for (const set of [...new Set(retrieval.map((report) => report.set))]) {
    const lexical = recall5(retrieval, set, 'lexical');
    const vector = recall5(retrieval, set, 'vector');
    if (lexical === undefined || vector === undefined) continue;
    const best = Math.max(lexical, vector);
    for (const config of ['hybrid', 'hybrid+rewrite'] as const) {
      const hybrid = recall5(retrieval, set, config);
      if (hybrid === undefined) continue;
      targets.push({
        target: `${set}: ${config} Recall@5 not below the better single arm`,
        met: hybrid >= best,
        figure: `${hybrid.toFixed(3)} vs ${best.toFixed(3)}`,
      });
    }
  }
  return targets;
}

export function targetsTable(targets: readonly TargetResult[]): string {
  return [
    '| target | result |',
    '|---|---|',
    ...targets.map((target) => `| ${target.target} | ${target.met ? 'met' : 'MISSED'} (${target.figure}) |`),
  ].join('\n');
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const COLORS: Record<RetrievalConfig, string> = {
  lexical: '#4e79a7',
  vector: '#f28e2b',
  hybrid: '#59a14f',
  'hybrid+rewrite': '#b07aa1',
};

/** A grouped bar chart of Recall@5: one group per set, one bar per configuration. */
export function recallChartSvg(reports: readonly RetrievalReport[]): string {
  const sets = [...new Set(reports.map((report) => report.set))];
  const bar = 22;
  const gap = 28;
  const groupWidth = RETRIEVAL_CONFIGS.length * bar + gap;
  const left = 48;
  const top = 40;
  const plot = 220;
  const width = Math.max(left + sets.length * groupWidth + 20, left + RETRIEVAL_CONFIGS.length * 120 + 20);
  const height = top + plot + 80;
  const y = (value: number) => top + plot - value * plot;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="chart-title chart-desc" font-family="system-ui, sans-serif" font-size="11">`,
    '<title id="chart-title">Recall@5 per evaluation set and retrieval configuration</title>',
    `<desc id="chart-desc">${escapeXml(
      sets
        .map(
          (set) =>
            `${set}: ${RETRIEVAL_CONFIGS.map((config) => {
              const value = recall5(reports, set, config);
              return `${config} ${value === undefined ? 'not run' : value.toFixed(2)}`;
            }).join(', ')}`,
        )
        .join('; '),
    )}.</desc>`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${left}" y="20" font-size="13" font-weight="bold">Recall@5 by configuration</text>`,
  ];
  for (const tick of [0, 0.25, 0.5, 0.75, 0.85, 1]) {
    const dashed = tick === 0.85 ? ' stroke-dasharray="4 3" stroke="#c00"' : ' stroke="#ddd"';
    parts.push(
      `<line x1="${left}" x2="${width - 10}" y1="${y(tick)}" y2="${y(tick)}"${dashed}/>`,
      `<text x="${left - 6}" y="${y(tick) + 4}" text-anchor="end">${tick.toFixed(2)}</text>`,
    );
  }
  for (const [index, set] of sets.entries()) {
    const x0 = left + index * groupWidth + gap / 2;
    for (const [position, config] of RETRIEVAL_CONFIGS.entries()) {
      const value = recall5(reports, set, config);
      if (value === undefined) continue;
      const x = x0 + position * bar;
      parts.push(
        `<rect x="${x}" y="${y(value)}" width="${bar - 3}" height="${Math.max(0, value * plot)}" fill="${COLORS[config]}"><title>${escapeXml(`${set}, ${config}: ${value.toFixed(3)}`)}</title></rect>`,
      );
    }
    parts.push(
      `<text x="${x0 + (RETRIEVAL_CONFIGS.length * bar) / 2}" y="${top + plot + 16}" text-anchor="middle">${escapeXml(set)}</text>`,
    );
  }
  for (const [position, config] of RETRIEVAL_CONFIGS.entries()) {
    const x = left + position * 120;
    parts.push(
      `<rect x="${x}" y="${top + plot + 36}" width="12" height="12" fill="${COLORS[config]}"/>`,
      `<text x="${x + 16}" y="${top + plot + 46}">${escapeXml(config)}</text>`,
    );
  }
  parts.push(`<text x="${left}" y="${top + plot + 70}" fill="#c00">dashed: the 0.85 target</text>`, '</svg>');
  return `${parts.join('\n')}\n`;
}

/** The Markdown report of one set: retrieval per configuration, answers, and its misses at 5. */
export function setMarkdown(
  set: string,
  retrieval: readonly RetrievalReport[],
  answers?: AnswersReport,
): string {
  const lines = [`# Evaluation: ${set}`, ''];
  if (retrieval.length > 0) {
    lines.push('## Retrieval', '', retrievalTable(retrieval), '');
    const heading = retrieval.filter((report) => report['heading_recall@5'] !== undefined);
    if (heading.length > 0)
      lines.push(
        `Recall@5 when the heading must match too: ${heading.map((report) => `${report.config} ${fixed(report['heading_recall@5'])}`).join(', ')}.`,
        '',
      );
    const main = retrieval.find((report) => report.config === 'hybrid+rewrite');
    const misses = main?.questions.filter((question) => !question['hit@5']) ?? [];
    if (main) {
      lines.push(`Questions without a relevant result in the top 5 (hybrid+rewrite): ${misses.length}.`, '');
      for (const miss of misses) lines.push(`- ${miss.id}: top 5 = ${miss.top.join('; ') || '(none)'}`);
      if (misses.length > 0) lines.push('');
    }
  }
  if (answers) {
    lines.push('## Answers (default configuration)', '', answersTable([answers]), '');
  }
  return `${lines.join('\n')}\n`;
}
