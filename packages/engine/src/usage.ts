/**
 * Usage figures for the admin portal (docs/api.md, "Admin routes", `GET /admin/usage`): per day of a
 * period, the questions answered with a certificate, how many were refused, how many got feedback
 * (and how many thumbs up and down), the answer latency; and the refused questions asked most often.
 *
 * Every figure counts questions: one per certificate issued, answered or refused — a question answered
 * from the answer cache gets a certificate of its own, issued again for its asker — and one per hit of
 * `answer_hits`, the questions the cache answered before it issued certificates again (the earlier
 * certificate's outcome, the hit's own time and latency; feedback stays with the certificate). A day is a calendar day in the time zone asked
 * for; the period ends today and has no gaps (a day without questions is a row of zeros). Latency is
 * `latency_ms`, unknown (null) for certificates issued before it was recorded; its percentiles are
 * over the questions that have it.
 */
import type { Queryable } from './db/database.js';
import { EngineError } from './errors.js';

/** The longest period, in days. */
export const MAX_USAGE_DAYS = 366;
/** Refused questions listed at most. */
export const MAX_TOP_REFUSED = 100;

export interface UsageOptions {
  workspaceId: string;
  /** A collection of the workspace; absent: all of them. */
  collection?: string;
  /** Days in the period, ending today (1 to {@link MAX_USAGE_DAYS}). */
  days: number;
  /** An IANA time zone name (default `UTC`): where a day starts. */
  timeZone?: string;
  /** Refused questions to list (default 10). */
  topRefused?: number;
}

export interface UsageLatency {
  /** Questions whose latency is known. */
  measured: number;
  p50_ms: number | null;
  p95_ms: number | null;
  mean_ms: number | null;
}

export interface UsageFigures {
  questions: number;
  answered: number;
  refused: number;
  /** refused / questions; null without questions. */
  refusal_rate: number | null;
  /** Certificates with at least one feedback (a cached answer's feedback is its certificate's). */
  with_feedback: number;
  /** with_feedback / questions; null without questions. */
  feedback_rate: number | null;
  /** Feedback given, thumbs up and thumbs down (one per submitter and certificate). */
  up: number;
  down: number;
  latency: UsageLatency;
}

export interface UsageDay extends UsageFigures {
  /** `YYYY-MM-DD` in the period's time zone. */
  date: string;
}

export interface RefusedQuestion {
  /**
   * The latest wording asked (the certificate's `query.text`); certificates issued in the same second
   * (`issued_at` has whole seconds) are told apart by when their rows were written.
   */
  question: string;
  /** Refusals of this question, told apart by case, spacing and end punctuation only. */
  count: number;
  last_asked_at: string;
}

export interface UsageReport {
  workspace_id: string;
  collection: string | null;
  period: { from: string; to: string; days: number; time_zone: string };
  totals: UsageFigures;
  days: UsageDay[];
  top_refused: RefusedQuestion[];
}

interface FigureRow {
  day: string | null;
  questions: number;
  answered: number;
  refused: number;
  with_feedback: number;
  up: number;
  down: number;
  measured: number;
  p50: number | null;
  p95: number | null;
  mean: number | null;
}

/**
 * The questions of the period, certificates and cache hits (`$1` workspace, `$2` collection or null, `$3` days, `$4` time zone),
 * as the CTEs `period` and `scoped`.
 */
const SCOPED = `
  period AS (
    SELECT (now() AT TIME ZONE $4)::date - ($3::int - 1) AS first_day, (now() AT TIME ZONE $4)::date AS last_day
  ),
  scoped AS (
    SELECT c.id, c.issued_at, c.created_at, (c.issued_at AT TIME ZONE $4)::date AS day,
           c.certificate->'answer'->>'outcome' AS outcome, c.latency_ms,
           c.certificate->'query'->>'text' AS question
      FROM certificates c
      JOIN collections k ON k.id = c.collection_id
      CROSS JOIN period p
     WHERE k.workspace_id = $1
       AND ($2::text IS NULL OR k.name = $2::text)
       AND c.issued_at >= (p.first_day::timestamp AT TIME ZONE $4)
       AND c.issued_at < ((p.last_day + 1)::timestamp AT TIME ZONE $4)
    UNION ALL
    -- Questions answered from the cache before it issued certificates again: no certificate of their
    -- own (id null, so feedback is not counted twice), the outcome and question of the one they were given.
    SELECT NULL, h.asked_at, h.asked_at, (h.asked_at AT TIME ZONE $4)::date,
           c.certificate->'answer'->>'outcome', h.latency_ms, c.certificate->'query'->>'text'
      FROM answer_hits h
      JOIN certificates c ON c.id = h.certificate_id
      JOIN collections k ON k.id = h.collection_id
      CROSS JOIN period p
     WHERE k.workspace_id = $1
       AND ($2::text IS NULL OR k.name = $2::text)
       AND h.asked_at >= (p.first_day::timestamp AT TIME ZONE $4)
       AND h.asked_at < ((p.last_day + 1)::timestamp AT TIME ZONE $4)
  )`;

/** The usage figures of a workspace (or one of its collections) over the last `days` days. */
export async function usageReport(db: Queryable, options: UsageOptions): Promise<UsageReport> {
  const days = options.days;
  if (!Number.isSafeInteger(days) || days < 1 || days > MAX_USAGE_DAYS)
    throw new EngineError('INVALID_INPUT', `The period must be 1 to ${MAX_USAGE_DAYS} days, not ${days}.`);
  const top = options.topRefused ?? 10;
  if (!Number.isSafeInteger(top) || top < 0 || top > MAX_TOP_REFUSED)
    throw new EngineError('INVALID_INPUT', `List 0 to ${MAX_TOP_REFUSED} refused questions, not ${top}.`);
  const timeZone = options.timeZone ?? 'UTC';
  const collection = options.collection ?? null;
  if (collection !== null) {
    const found = await db.query('SELECT 1 FROM collections WHERE workspace_id = $1 AND name = $2', [
      options.workspaceId,
      collection,
    ]);
    if (found.rows.length === 0)
      throw new EngineError(
        'NOT_FOUND',
        `No collection named ${JSON.stringify(collection)} in this workspace.`,
      );
  }
  const parameters = [options.workspaceId, collection, days, timeZone];
  try {
    const figures = await db.query<FigureRow>(
      `WITH ${SCOPED},
       feedback AS (
         SELECT f.certificate_id,
                count(*) FILTER (WHERE f.rating = 'up')::int AS up,
                count(*) FILTER (WHERE f.rating = 'down')::int AS down
           FROM answer_feedback f JOIN scoped s ON s.id = f.certificate_id
          GROUP BY f.certificate_id
       )
       SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
              count(s.day)::int AS questions,
              count(*) FILTER (WHERE s.outcome = 'answered')::int AS answered,
              count(*) FILTER (WHERE s.outcome = 'refused')::int AS refused,
              count(f.certificate_id)::int AS with_feedback,
              coalesce(sum(f.up), 0)::int AS up,
              coalesce(sum(f.down), 0)::int AS down,
              count(s.latency_ms)::int AS measured,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY s.latency_ms)::float8 AS p50,
              percentile_cont(0.95) WITHIN GROUP (ORDER BY s.latency_ms)::float8 AS p95,
              avg(s.latency_ms)::float8 AS mean
         FROM period p
        CROSS JOIN LATERAL (
          SELECT g::date AS day FROM generate_series(p.first_day, p.last_day, interval '1 day') AS g
        ) d
         LEFT JOIN scoped s ON s.day = d.day
         LEFT JOIN feedback f ON f.certificate_id = s.id
        GROUP BY GROUPING SETS ((d.day), ())
        ORDER BY d.day NULLS LAST`,
      parameters,
    );
    const refused =
      top === 0
        ? { rows: [] }
        : await db.query<{ question: string; count: number; last_asked_at: Date | string }>(
            `WITH ${SCOPED},
             refused AS (
               SELECT issued_at, created_at, question,
                      regexp_replace(regexp_replace(lower(question), '\\s+', ' ', 'g'),
                                     '^[[:space:][:punct:]]+|[[:space:][:punct:]]+$', '', 'g') AS normalized
                 FROM scoped
                WHERE outcome = 'refused' AND question IS NOT NULL
             )
             SELECT (array_agg(question ORDER BY issued_at DESC, created_at DESC))[1] AS question,
                    count(*)::int AS count,
                    max(issued_at) AS last_asked_at
               FROM refused
              WHERE normalized <> ''
              GROUP BY normalized
              ORDER BY count(*) DESC, max(issued_at) DESC
              LIMIT $5`,
            [...parameters, top],
          );
    const rows = figures.rows;
    const dayRows = rows.filter((row) => row.day !== null);
    const total = rows.find((row) => row.day === null);
    return {
      workspace_id: options.workspaceId,
      collection,
      period: { from: dayRows[0]!.day!, to: dayRows.at(-1)!.day!, days, time_zone: timeZone },
      totals: total ? figuresOf(total) : figuresOf(emptyRow()),
      days: dayRows.map((row) => ({ date: row.day!, ...figuresOf(row) })),
      top_refused: refused.rows.map((row) => ({
        question: row.question,
        count: row.count,
        last_asked_at: new Date(row.last_asked_at).toISOString(),
      })),
    };
  } catch (error) {
    // 22023: PostgreSQL's "time zone … not recognized".
    if ((error as { code?: unknown }).code === '22023')
      throw new EngineError(
        'INVALID_INPUT',
        `Unknown time zone ${JSON.stringify(timeZone.slice(0, 100))}; use an IANA name such as "Asia/Jakarta" or "UTC".`,
        { cause: error },
      );
    throw error;
  }
}

function emptyRow(): FigureRow {
  return {
    day: null,
    questions: 0,
    answered: 0,
    refused: 0,
    with_feedback: 0,
    up: 0,
    down: 0,
    measured: 0,
    p50: null,
    p95: null,
    mean: null,
  };
}

function figuresOf(row: FigureRow): UsageFigures {
  const rate = (part: number) => (row.questions === 0 ? null : part / row.questions);
  const round = (value: number | null) => (value === null ? null : Math.round(value));
  return {
    questions: row.questions,
    answered: row.answered,
    refused: row.refused,
    refusal_rate: rate(row.refused),
    with_feedback: row.with_feedback,
    feedback_rate: rate(row.with_feedback),
    up: row.up,
    down: row.down,
    latency: {
      measured: row.measured,
      p50_ms: round(row.p50),
      p95_ms: round(row.p95),
      mean_ms: round(row.mean),
    },
  };
}

/** One CSV field (RFC 4180), made inert for spreadsheets: a leading `=`, `+`, `-`, `@` is quoted away. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The days of a report as CSV (a header row, then one row per day and a `total` row), CRLF lines. */
export function usageDaysCsv(report: UsageReport): string {
  const header = [
    'date',
    'questions',
    'answered',
    'refused',
    'refusal_rate',
    'with_feedback',
    'feedback_rate',
    'thumbs_up',
    'thumbs_down',
    'latency_measured',
    'latency_p50_ms',
    'latency_p95_ms',
    'latency_mean_ms',
  ];
  const ratio = (value: number | null) => (value === null ? null : Number(value.toFixed(4)));
  const line = (date: string, figures: UsageFigures) =>
    [
      date,
      figures.questions,
      figures.answered,
      figures.refused,
      ratio(figures.refusal_rate),
      figures.with_feedback,
      ratio(figures.feedback_rate),
      figures.up,
      figures.down,
      figures.latency.measured,
      figures.latency.p50_ms,
      figures.latency.p95_ms,
      figures.latency.mean_ms,
    ]
      .map(csvField)
      .join(',');
  return [
    header.join(','),
    ...report.days.map((day) => line(day.date, day)),
    line('total', report.totals),
    '',
  ].join('\r\n');
}

/** The most frequent refused questions of a report as CSV, CRLF lines. */
export function refusedQuestionsCsv(report: UsageReport): string {
  return [
    'question,count,last_asked_at',
    ...report.top_refused.map((row) => [row.question, row.count, row.last_asked_at].map(csvField).join(',')),
    '',
  ].join('\r\n');
}
