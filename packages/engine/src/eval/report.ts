/**
 * Evaluation reports: Markdown tables (retrieval, answers, answers per intent), the answer-quality
 * targets (met / MISSED with the figure; docs/evaluation.md), hand-written SVG charts of Recall@5 per
 * set and configuration and of the risk–coverage curve of the answer check, and the calibration
 * report in Markdown.
 */
import type { CalibrationReport, RiskCoveragePoint } from './calibration.js';
import type { RetrievalMetrics } from './metrics.js';
import {
  type AnswerMetrics,
  type AnswerRecord,
  type AnswersReport,
  holdsExpectedFact,
  isFalseAssurance,
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
  ['false assurance', (m) => m.false_assurance],
  ['coverage', (m) => m.coverage],
  ['related', (m) => m.related_rate],
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

/**
 * One row per set: counts, false assurance, coverage and the related share, citations,
 * `must_mention`, refusals and EM / F1 / ROUGE-L.
 */
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
  { name: 'law', sets: ['lalin-dev', 'lalin-dev2'], mustMention: 0.8, coverage: 0.6 },
  { name: 'budget', sets: ['apbn-dev', 'apbn-dev2'], mustMention: 0.8, coverage: 0.6 },
  { name: 'docs', sets: ['redux-dev', 'redux-dev2'], mustMention: 0.6, coverage: 0.5 },
] as const;

/** The answer-quality thresholds besides each domain's `must_mention` hit rate. */
export const TARGET_THRESHOLDS = {
  'recall@5': 0.9,
  unanswerable_refused: 0.85,
  answerable_refused_max: 0.1,
  citation_precision: 0.8,
  /** At most this share of a domain's questions answered without an expected fact (or unanswerable). */
  false_assurance_max: 0.05,
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
    check(
      `${domain.name} false assurance ≤ ${TARGET_THRESHOLDS.false_assurance_max.toFixed(2)} ${named}`,
      share(records.filter(isFalseAssurance).length, records.length),
      TARGET_THRESHOLDS.false_assurance_max,
      partsOf(setPools, (pool) => share(pool.filter(isFalseAssurance).length, pool.length)),
      true,
    );
    const answerableCoverage = (pool: readonly AnswerRecord[]) =>
      share(pool.filter(holdsExpectedFact).length, pool.filter((record) => record.answerable).length);
    check(
      `${domain.name} coverage ≥ ${domain.coverage.toFixed(2)} ${named}`,
      answerableCoverage(records),
      domain.coverage,
      partsOf(setPools, answerableCoverage),
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

/** The dev sets a cross-corpus set of each kind is compared with, pooled by question. */
export const CROSS_DEV_POOLS: Record<'legal' | 'budget' | 'docs', readonly string[]> = {
  legal: ['lalin-dev', 'lalin-dev2', 'apbn-dev', 'apbn-dev2'],
  budget: ['apbn-dev', 'apbn-dev2'],
  docs: ['redux-dev', 'redux-dev2'],
};

/** A dev figure above its cross-corpus figure by more than this (the wrong way) is overfitting. */
export const OVERFITTING_GAP = 0.1;

/** One metric of one cross-corpus set beside the same metric of its dev pool. */
export interface CrossComparison {
  set: string;
  metric: string;
  dev: number | undefined;
  cross: number | undefined;
  /** How much worse the cross-corpus figure is (positive: worse), when both exist. */
  gap: number | undefined;
  overfitting: boolean;
  /** The target the cross-corpus figure is held to, and whether it meets it. */
  target?: { text: string; met: boolean };
}

interface CrossMetric {
  name: string;
  lowerIsBetter: boolean;
  value: (questions: readonly { 'hit@5': boolean }[], records: readonly AnswerRecord[]) => number | undefined;
  target?: (kind: 'legal' | 'budget' | 'docs') => { threshold: number; atMost: boolean };
}

const CROSS_METRICS: readonly CrossMetric[] = [
  {
    name: 'Recall@5',
    lowerIsBetter: false,
    value: (questions) => share(questions.filter((question) => question['hit@5']).length, questions.length),
    target: () => ({ threshold: TARGET_THRESHOLDS['recall@5'], atMost: false }),
  },
  {
    name: 'must_mention hit rate',
    lowerIsBetter: false,
    value: (_, records) => mustMentionRate(records),
    target: (kind) => ({ threshold: kind === 'docs' ? 0.5 : 0.7, atMost: false }),
  },
  {
    name: 'answerable refused',
    lowerIsBetter: true,
    value: (_, records) => refusedRate(records, true),
    target: () => ({ threshold: TARGET_THRESHOLDS.answerable_refused_max, atMost: true }),
  },
  {
    name: 'unanswerable refused',
    lowerIsBetter: false,
    value: (_, records) => refusedRate(records, false),
    target: () => ({ threshold: TARGET_THRESHOLDS.unanswerable_refused, atMost: false }),
  },
  { name: 'citation precision', lowerIsBetter: false, value: (_, records) => citationPrecision(records) },
  {
    name: 'false assurance',
    lowerIsBetter: true,
    value: (_, records) => share(records.filter(isFalseAssurance).length, records.length),
    target: () => ({ threshold: TARGET_THRESHOLDS.false_assurance_max, atMost: true }),
  },
];

/**
 * Each cross-corpus set's figures beside its dev pool's ({@link CROSS_DEV_POOLS}): Recall@5 of the
 * default configuration and the answer metrics, the gap (positive when the cross-corpus figure is
 * worse) and whether it is above {@link OVERFITTING_GAP}.
 */
export function crossCorpusComparison(
  retrieval: readonly RetrievalReport[],
  answers: readonly AnswersReport[],
  crossSets: readonly { name: string; kind: string }[],
): CrossComparison[] {
  const pooled = (sets: readonly string[]) => ({
    questions: retrieval
      .filter((report) => sets.includes(report.set) && report.config === 'hybrid+rewrite')
      .flatMap((report) => report.questions),
    records: answers.filter((report) => sets.includes(report.set)).flatMap((report) => report.questions),
  });
  const rows: CrossComparison[] = [];
  for (const crossSet of crossSets) {
    const kind = crossSet.kind === 'docs' || crossSet.kind === 'budget' ? crossSet.kind : 'legal';
    const dev = pooled(CROSS_DEV_POOLS[kind]);
    const cross = pooled([crossSet.name]);
    for (const metric of CROSS_METRICS) {
      const devValue = metric.value(dev.questions, dev.records);
      const crossValue = metric.value(cross.questions, cross.records);
      const gap =
        devValue === undefined || crossValue === undefined
          ? undefined
          : metric.lowerIsBetter
            ? crossValue - devValue
            : devValue - crossValue;
      const target = metric.target?.(kind);
      rows.push({
        set: crossSet.name,
        metric: metric.name,
        dev: devValue,
        cross: crossValue,
        gap,
        overfitting: gap !== undefined && gap > OVERFITTING_GAP + 1e-9,
        ...(target && crossValue !== undefined
          ? {
              target: {
                text: `${target.atMost ? '≤' : '≥'} ${target.threshold.toFixed(2)}`,
                met: target.atMost
                  ? crossValue <= target.threshold + 1e-9
                  : crossValue >= target.threshold - 1e-9,
              },
            }
          : {}),
      });
    }
  }
  return rows;
}

/** The comparison as a Markdown table: dev, cross-corpus, the gap, overfitting, the target. */
export function crossCorpusTable(rows: readonly CrossComparison[]): string {
  return [
    '| cross-corpus set | metric | dev | cross-corpus | gap | target (cross-corpus) |',
    '|---|---|---:|---:|---:|---|',
    ...rows.map(
      (row) =>
        `| ${row.set} | ${row.metric} | ${fixed(row.dev)} | ${fixed(row.cross)} | ${
          row.gap === undefined
            ? '—'
            : `${row.gap >= 0 ? '+' : ''}${row.gap.toFixed(3)}${row.overfitting ? ' overfitting' : ''}`
        } | ${row.target ? `${row.target.text}: ${row.target.met ? 'met' : 'MISSED'}` : '—'} |`,
    ),
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
    lines.push(
      '## Answers (default configuration)',
      '',
      answersTable([answers]),
      '',
      'False assurance: questions answered while unanswerable or without an expected fact (a `must_mention` phrase, or for a question without phrases a supported claim), over all questions; lower is better. Coverage: answerable questions answered with an expected fact, over answerable questions. Related: questions shown related passages instead of an answer (counted as not answered by the other columns).',
      '',
    );
    const falseAssurance = answers.questions.filter(isFalseAssurance);
    if (falseAssurance.length > 0) {
      lines.push(`Answered with false assurance: ${falseAssurance.length}.`, '');
      for (const record of falseAssurance)
        lines.push(
          `- ${record.id} (${record.answerable ? 'no expected fact' : 'unanswerable'}; check score ${record.check_score.toFixed(3)}): cited ${record.cited.join('; ') || '(nothing)'}`,
        );
      lines.push('');
    }
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

/** One line of {@link riskCoverageSvg}: a set's risk–coverage points. */
export interface RiskCoverageSeries {
  name: string;
  points: readonly Pick<RiskCoveragePoint, 'coverage' | 'false_assurance'>[];
}

/** Options of {@link riskCoverageSvg}. */
export interface RiskCoverageSvgOptions {
  /** The false assurance allowed: drawn as a dashed line. */
  alpha?: number;
  /** The chart's title (default: the risk–coverage of the answer check). */
  title?: string;
}

/** Distinct colours, then the same colours dashed for a second round of series. */
const SERIES_COLORS = [
  '#4e79a7',
  '#f28e2b',
  '#59a14f',
  '#e15759',
  '#b07aa1',
  '#76b7b2',
  '#edc948',
  '#9c755f',
  '#ff9da7',
  '#bab0ac',
];

/** The smallest of 0.05, 0.1, 0.2, 0.25, 0.5, 1 that is at least `value`. */
const niceCeiling = (value: number) => [0.05, 0.1, 0.2, 0.25, 0.5, 1].find((step) => value <= step) ?? 1;

/**
 * The risk–coverage curve of the answer check as an SVG line chart, one line per set: coverage
 * (answerable questions released with an expected fact / answerable questions) on x, false assurance
 * (questions released and wrong / all questions) on y, as the release threshold on the check score
 * falls from releasing nothing. The allowed false assurance α, when given, is a dashed line.
 * Self-contained: no external fonts, styles or scripts.
 */
export function riskCoverageSvg(
  series: readonly RiskCoverageSeries[],
  options: RiskCoverageSvgOptions = {},
): string {
  const title = options.title ?? 'Risk–coverage of the answer check: false assurance against coverage';
  const left = 64;
  const top = 48;
  const plotWidth = 440;
  const plotHeight = 300;
  const legendWidth = 210;
  const width = left + plotWidth + 24 + legendWidth;
  const legendHeight = 40 + series.length * 20;
  const height = Math.max(top + plotHeight + 64, top + legendHeight);
  const highest = Math.max(
    options.alpha ?? 0,
    ...series.flatMap((line) => line.points.map((point) => point.false_assurance)),
  );
  const yMax = niceCeiling(highest * 1.05);
  const x = (coverage: number) => (left + Math.min(Math.max(coverage, 0), 1) * plotWidth).toFixed(1);
  const y = (risk: number) =>
    (top + plotHeight - (Math.min(Math.max(risk, 0), yMax) / yMax) * plotHeight).toFixed(1);
  const end = (line: RiskCoverageSeries) => line.points.at(-1);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="risk-title risk-desc" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="13">`,
    `<title id="risk-title">${escapeXml(title)}</title>`,
    `<desc id="risk-desc">${escapeXml(
      `Each line lowers the release threshold on the answer check's score from releasing nothing. ${series
        .map((line) => {
          const last = end(line);
          return `${line.name}: releasing every answer gives coverage ${last ? last.coverage.toFixed(2) : '—'} at false assurance ${last ? last.false_assurance.toFixed(3) : '—'}`;
        })
        .join('; ')}.${options.alpha === undefined ? '' : ` Dashed: α = ${options.alpha}.`}`,
    )}</desc>`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${left}" y="24" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  for (let index = 0; index <= 5; index++) {
    const risk = (yMax * index) / 5;
    parts.push(
      `<line x1="${left}" x2="${left + plotWidth}" y1="${y(risk)}" y2="${y(risk)}" stroke="#e5e5e5"/>`,
      `<text x="${left - 8}" y="${(Number(y(risk)) + 4).toFixed(1)}" text-anchor="end" fill="#333">${risk.toFixed(yMax < 0.1 ? 3 : 2)}</text>`,
    );
    const coverage = index / 5;
    parts.push(
      `<line x1="${x(coverage)}" x2="${x(coverage)}" y1="${top}" y2="${top + plotHeight}" stroke="#e5e5e5"/>`,
      `<text x="${x(coverage)}" y="${top + plotHeight + 18}" text-anchor="middle" fill="#333">${coverage.toFixed(1)}</text>`,
    );
  }
  parts.push(
    `<rect x="${left}" y="${top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#888"/>`,
    `<text x="${left + plotWidth / 2}" y="${top + plotHeight + 42}" text-anchor="middle">coverage: answerable questions answered with an expected fact</text>`,
    `<text transform="translate(18 ${top + plotHeight / 2}) rotate(-90)" text-anchor="middle">false assurance: answered and wrong / all questions</text>`,
  );
  if (options.alpha !== undefined && options.alpha <= yMax)
    parts.push(
      `<line x1="${left}" x2="${left + plotWidth}" y1="${y(options.alpha)}" y2="${y(options.alpha)}" stroke="#c00" stroke-width="1.5" stroke-dasharray="6 4"/>`,
      `<text x="${left + plotWidth - 4}" y="${(Number(y(options.alpha)) - 5).toFixed(1)}" text-anchor="end" fill="#c00">α = ${escapeXml(String(options.alpha))}</text>`,
    );
  for (const [index, line] of series.entries()) {
    const color = SERIES_COLORS[index % SERIES_COLORS.length] ?? '#333';
    const dashed = index >= SERIES_COLORS.length ? ' stroke-dasharray="3 3"' : '';
    const points = line.points.map((point) => `${x(point.coverage)},${y(point.false_assurance)}`).join(' ');
    const last = end(line);
    parts.push(
      `<polyline points="${points}" fill="none" stroke="${color}" stroke-width="2"${dashed} stroke-linejoin="round"><title>${escapeXml(line.name)}</title></polyline>`,
    );
    if (last)
      parts.push(
        `<circle cx="${x(last.coverage)}" cy="${y(last.false_assurance)}" r="3.5" fill="${color}"><title>${escapeXml(`${line.name}: everything released, coverage ${last.coverage.toFixed(3)}, false assurance ${last.false_assurance.toFixed(3)}`)}</title></circle>`,
      );
    const legendY = top + 12 + index * 20;
    const legendX = left + plotWidth + 24;
    parts.push(
      `<line x1="${legendX}" x2="${legendX + 22}" y1="${legendY}" y2="${legendY}" stroke="${color}" stroke-width="3"${dashed}/>`,
      `<text x="${legendX + 28}" y="${legendY + 4}">${escapeXml(line.name)}</text>`,
    );
  }
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

/** "0.123", or "∞ (release nothing)" for no threshold. */
const thresholdText = (threshold: number | null) =>
  threshold === null ? '∞ (release nothing)' : threshold.toFixed(4);

/**
 * The calibration report in Markdown: the rule, the leave-one-collection-out folds (λ, the false
 * assurance achieved against α, coverage) and the final model's weights by feature name.
 */
export function calibrationMarkdown(report: CalibrationReport): string {
  const skipped = Object.entries(report.skipped).filter(([, count]) => count > 0);
  const lines = [
    '# Calibration of the answer check',
    '',
    `Written by \`saksi eval calibrate\` (method \`${report.method}\`, version ${report.version}) from ${report.rows.length} questions of ${report.groups.join(', ')}${skipped.length > 0 ? `; left out: ${skipped.map(([reason, count]) => `${count} ${reason}`).join(', ')}` : ''}. How it works: docs/evaluation.md, "Calibrating the answer check".`,
    '',
    `- Model: ${report.model} (L2 ${report.l2}).`,
    `- Threshold: ${report.rule}; α = ${report.alpha}.`,
    "- Loss: 1 when the question is unanswerable or the answer holds no expected fact (a `must_mention` phrase, or a supported claim for a question without phrases) and it is released. A question refused before the check, or whose answer fails the check's hard conditions (a constraint unmet, no value of the asked type, evidence below the lexical relevance minimum), is never released: it counts in n with loss 0 and is not fitted on.",
    '',
    '## Leave-one-collection-out folds',
    '',
  ];
  if (report.folds.length === 0)
    lines.push('Cross-validation needs questions of two collections or more; these reports have one.', '');
  else {
    lines.push(
      "Each fold fits the model and chooses λ on the other collections, then releases the held-out collection's answers whose score is at least λ. False assurance is over all its questions, coverage over its answerable ones.",
      '',
      '| collection | n | answerable | λ | released | released wrong | false assurance | α | within α | coverage |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---|---:|',
    );
    for (const fold of report.folds)
      lines.push(
        `| ${fold.group} | ${fold.n} | ${fold.answerable} | ${thresholdText(fold.threshold)} | ${fold.released} | ${fold.released_wrong} | ${fold.false_assurance.toFixed(3)} | ${fold.alpha} | ${fold.false_assurance <= fold.alpha + 1e-9 ? 'yes' : 'NO'} | ${fold.coverage.toFixed(3)} |`,
      );
    lines.push('');
  }
  const { final } = report;
  lines.push(
    '## Final model',
    '',
    `Fitted on all ${final.n} questions, λ chosen on all of them: λ = ${thresholdText(final.threshold)}. On these questions (in sample) it releases ${final.released}, ${final.released_wrong} of them wrong: false assurance ${final.false_assurance.toFixed(3)} (conformal bound ${final.conformal_bound.toFixed(3)} ${final.conformal_bound <= report.alpha + 1e-9 ? '≤' : '>, too few questions for'} α = ${report.alpha}), coverage ${final.coverage.toFixed(3)}.`,
    '',
    '| feature | weight |',
    '|---|---:|',
    ...report.features.map((name, index) => `| ${name} | ${(final.weights[index] ?? 0).toFixed(6)} |`),
    `| (bias) | ${final.bias.toFixed(6)} |`,
    '',
    '## Per collection',
    '',
    "The engine releases a calibrated collection's answers at the λ chosen on that collection's own questions under the final model (later questions asked of it are exchangeable with these; another collection's are not), and a collection it was not calibrated on at the pooled λ above. In sample:",
    '',
    '| collection | n | answerable | λ | released | released wrong | false assurance | α | coverage |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.collections.map(
      (row) =>
        `| ${row.group} | ${row.n} | ${row.answerable} | ${thresholdText(row.threshold)} | ${row.released} | ${row.released_wrong} | ${row.false_assurance.toFixed(3)} | ${row.alpha} | ${row.coverage.toFixed(3)} |`,
    ),
    '',
  );
  if (report.within_collection.length > 0)
    lines.push(
      '## Held out, calibrated on itself',
      '',
      "The engine's way with a calibrated collection, held out: the model is fitted on the other collections only, λ is chosen on a random half of the collection's questions and the other half is released at it; the mean over the halvings (a fixed seed). False assurance is over the test half's questions, coverage over its answerable ones.",
      '',
      '| collection | n | halvings | mean λ | halvings releasing nothing | false assurance | α | within α | coverage |',
      '|---|---:|---:|---:|---:|---:|---:|---|---:|',
      ...report.within_collection.map(
        (row) =>
          `| ${row.group} | ${row.n} | ${row.splits} | ${row.threshold === null ? '—' : row.threshold.toFixed(4)} | ${row.release_nothing} | ${row.false_assurance.toFixed(3)} | ${row.alpha} | ${row.false_assurance <= row.alpha + 1e-9 ? 'yes' : 'NO'} | ${row.coverage.toFixed(3)} |`,
      ),
      '',
    );
  return `${lines.join('\n')}\n`;
}
