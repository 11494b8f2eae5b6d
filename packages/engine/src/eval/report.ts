/**
 * Evaluation reports: Markdown tables (retrieval, answers, answers per intent), the answer-quality
 * targets (met / MISSED with the figure; docs/evaluation.md) and a hand-written SVG bar chart of
 * Recall@5 per set and configuration.
 */
import type { RetrievalMetrics } from './metrics.js';
import {
  type AnswerMetrics,
  type AnswerRecord,
  type AnswersReport,
  RETRIEVAL_CONFIGS,
  type RetrievalConfig,
  type RetrievalReport,
} from './run.js';

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

const ANSWER_COLUMNS: [header: string, value: (metrics: AnswerMetrics) => number | null][] = [
  ['citation precision', (m) => m.citation_precision],
  ['citation recall', (m) => m.citation_recall],
  ['must_mention hit rate', (m) => m.must_mention_hit_rate],
  ['must_mention (any)', (m) => m.must_mention_any_rate],
  ['refusal accuracy', (m) => m.refusal_accuracy],
  ['false-refusal rate', (m) => m.false_refusal_rate],
  ['EM', (m) => m.exact_match],
  ['F1', (m) => m.f1],
  ['ROUGE-L', (m) => m.rouge_l],
];

/** One row per set: counts, citations, `must_mention`, refusals and EM / F1 / ROUGE-L. */
export function answersTable(reports: readonly AnswersReport[]): string {
  const lines = [
    `| set | answerable | unanswerable | ${ANSWER_COLUMNS.map(([header]) => header).join(' | ')} |`,
    `|---|---:|---:|${ANSWER_COLUMNS.map(() => '---:').join('|')}|`,
  ];
  for (const { set, metrics } of reports)
    lines.push(
      `| ${set} | ${metrics.answerable} | ${metrics.unanswerable} | ${ANSWER_COLUMNS.map(([, value]) => fixed(value(metrics))).join(' | ')} |`,
    );
  return lines.join('\n');
}

/** The answers of one set per question intent, with the columns of {@link answersTable}. */
export function intentTable(report: AnswersReport): string {
  const lines = [
    `| intent | questions | answerable | unanswerable | ${ANSWER_COLUMNS.map(([header]) => header).join(' | ')} |`,
    `|---|---:|---:|---:|${ANSWER_COLUMNS.map(() => '---:').join('|')}|`,
  ];
  for (const { intent, questions, metrics } of report.by_intent)
    lines.push(
      `| ${intent} | ${questions} | ${metrics.answerable} | ${metrics.unanswerable} | ${ANSWER_COLUMNS.map(([, value]) => fixed(value(metrics))).join(' | ')} |`,
    );
  return lines.join('\n');
}

export interface TargetResult {
  target: string;
  met: boolean;
  figure: string;
}

const recall5 = (reports: readonly RetrievalReport[], set: string, config: RetrievalConfig) =>
  reports.find((report) => report.set === set && report.config === config)?.metrics['recall@5'];

/** The domains of the answer-quality targets: each pools its dev and dev2 sets by question. */
export const TARGET_DOMAINS = [
  { name: 'law', sets: ['lalin-dev', 'lalin-dev2'], mustMention: 0.8 },
  { name: 'budget', sets: ['apbn-dev', 'apbn-dev2'], mustMention: 0.8 },
  { name: 'docs', sets: ['redux-dev', 'redux-dev2'], mustMention: 0.6 },
] as const;

/** The answer-quality thresholds besides each domain's `must_mention` hit rate. */
export const TARGET_THRESHOLDS = {
  'recall@5': 0.9,
  unanswerable_refused: 0.85,
  answerable_refused_max: 0.1,
  citation_precision: 0.8,
} as const;

interface Pool {
  label: string;
  records: readonly AnswerRecord[];
}

/** `part / whole`, or undefined when there is nothing to count. */
const share = (part: number, whole: number) => (whole === 0 ? undefined : part / whole);

const mustMentionRate = (records: readonly AnswerRecord[]) => {
  const phrases = records.filter((record) => record.answerable).flatMap((record) => record.must_mention);
  return share(phrases.filter((phrase) => phrase.found).length, phrases.length);
};

const refusedRate = (records: readonly AnswerRecord[], answerable: boolean) => {
  const asked = records.filter((record) => record.answerable === answerable);
  return share(asked.filter((record) => record.refused).length, asked.length);
};

const citationPrecision = (records: readonly AnswerRecord[]) => {
  const answered = records.filter((record) => record.answerable && !record.refused);
  return share(
    answered.reduce((sum, record) => sum + record.supported, 0),
    answered.reduce((sum, record) => sum + record.claims, 0),
  );
};

/**
 * The answer-quality targets, checked against a run with the offline defaults: per domain (law,
 * budget, docs), Recall@5 and the `must_mention` hit rate over its dev and dev2 sets pooled by
 * question; over the six sets pooled, the refusals of unanswerable and of answerable questions and
 * citation precision. Each figure is followed by its parts (per set, or per domain).
 */
export function checkTargets(
  retrieval: readonly RetrievalReport[],
  answers: readonly AnswersReport[],
): TargetResult[] {
  const targets: TargetResult[] = [];
  const check = (
    target: string,
    value: number | undefined,
    threshold: number,
    parts: string[],
    atMost = false,
  ) => {
    if (value === undefined) return;
    targets.push({
      target,
      // A small epsilon so a figure exactly on the threshold (in floating point) meets it.
      met: atMost ? value <= threshold + 1e-9 : value >= threshold - 1e-9,
      figure: `${value.toFixed(3)}${parts.length > 1 ? `: ${parts.join(', ')}` : ''}`,
    });
  };
  const partsOf = (pools: readonly Pool[], rate: (records: readonly AnswerRecord[]) => number | undefined) =>
    pools.flatMap((pool) => {
      const value = rate(pool.records);
      return value === undefined ? [] : [`${pool.label} ${value.toFixed(3)}`];
    });
  const domains: Pool[] = [];
  for (const domain of TARGET_DOMAINS) {
    const sets: readonly string[] = domain.sets;
    const named = `(${domain.sets.join(' + ')})`;
    const ranked = retrieval.filter(
      (report) => sets.includes(report.set) && report.config === 'hybrid+rewrite',
    );
    const questions = ranked.flatMap((report) => report.questions);
    check(
      `${domain.name} Recall@5 ≥ ${TARGET_THRESHOLDS['recall@5'].toFixed(2)} ${named}`,
      share(questions.filter((question) => question['hit@5']).length, questions.length),
      TARGET_THRESHOLDS['recall@5'],
      ranked.map((report) => `${report.set} ${report.metrics['recall@5'].toFixed(3)}`),
    );
    const setPools: Pool[] = answers
      .filter((report) => sets.includes(report.set))
      .map((report) => ({ label: report.set, records: report.questions }));
    const records = setPools.flatMap((pool) => pool.records);
    check(
      `${domain.name} must_mention hit rate ≥ ${domain.mustMention.toFixed(2)} ${named}`,
      mustMentionRate(records),
      domain.mustMention,
      partsOf(setPools, mustMentionRate),
    );
    if (records.length > 0) domains.push({ label: domain.name, records });
  }
  const all = domains.flatMap((pool) => pool.records);
  const pooled = '(law, budget and docs sets pooled)';
  check(
    `unanswerable questions refused ≥ ${TARGET_THRESHOLDS.unanswerable_refused.toFixed(2)} ${pooled}`,
    refusedRate(all, false),
    TARGET_THRESHOLDS.unanswerable_refused,
    partsOf(domains, (records) => refusedRate(records, false)),
  );
  check(
    `answerable questions refused ≤ ${TARGET_THRESHOLDS.answerable_refused_max.toFixed(2)} ${pooled}`,
    refusedRate(all, true),
    TARGET_THRESHOLDS.answerable_refused_max,
    partsOf(domains, (records) => refusedRate(records, true)),
    true,
  );
  check(
    `citation precision ≥ ${TARGET_THRESHOLDS.citation_precision.toFixed(2)} ${pooled}`,
    citationPrecision(all),
    TARGET_THRESHOLDS.citation_precision,
    partsOf(domains, citationPrecision),
  );
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
  for (const tick of [0, 0.25, 0.5, 0.75, TARGET_THRESHOLDS['recall@5'], 1]) {
    const dashed =
      tick === TARGET_THRESHOLDS['recall@5'] ? ' stroke-dasharray="4 3" stroke="#c00"' : ' stroke="#ddd"';
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
  parts.push(
    `<text x="${left}" y="${top + plot + 70}" fill="#c00">dashed: the ${TARGET_THRESHOLDS['recall@5'].toFixed(2)} target</text>`,
    '</svg>',
  );
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
    if (answers.metrics.exact_match !== null)
      lines.push(
        'EM, F1 and ROUGE-L compare the answer text (citation markers removed) with the gold answers of the answerable questions, the best gold answer per question; a refusal scores 0.',
        '',
      );
    if (answers.by_intent.length > 0)
      lines.push(
        '### Per intent',
        '',
        'The intent is what the engine understood the question to ask (its question plan).',
        '',
        intentTable(answers),
        '',
      );
  }
  return `${lines.join('\n')}\n`;
}
