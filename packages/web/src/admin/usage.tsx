/**
 * The usage page of the admin portal (`/admin/usage`; docs/api.md, "Admin routes"): for a period of 7,
 * 30 or 90 days and a workspace's collection (or all of them), the questions per day, the refusal
 * rate, the feedback rate with its thumbs up and down, the median answer time, and the refused
 * questions asked most often; each chart has its figures in the table below it, and both tables
 * download as CSV.
 */
import { useEffect, useId, useState } from 'react';
import { errorText } from '../error-text.js';
import { formatNumber, formatTimestamp, locale } from '../format.js';
import type { Lang } from '../i18n.js';
import { useT } from '../lang-context.js';
import { AdminApiError, type AdminWorkspace, listWorkspaces } from './admin-api.js';
import { AdminTable } from './admin-table.js';
import { BarChart } from './bar-chart.js';
import { Field } from './fields.js';
import {
  fetchUsage,
  USAGE_PERIODS,
  type UsagePeriod,
  type UsageQuery,
  type UsageReport,
  usageCsvUrl,
} from './usage-api.js';
import './usage.css';

function asAdminError(error: unknown): AdminApiError {
  return error instanceof AdminApiError ? error : new AdminApiError('NETWORK', String(error));
}

function percent(value: number | null, lang: Lang): string {
  if (value === null) return '–';
  return new Intl.NumberFormat(locale(lang), { style: 'percent', maximumFractionDigits: 1 }).format(value);
}

/** Milliseconds as people read them: "850 ms", "1.2 s". */
function duration(ms: number | null, lang: Lang): string {
  if (ms === null) return '–';
  if (ms < 1000) return `${formatNumber(Math.round(ms), lang)} ms`;
  return `${new Intl.NumberFormat(locale(lang), { maximumFractionDigits: 1 }).format(ms / 1000)} s`;
}

function formatDay(date: string, lang: Lang, style: 'axis' | 'full'): string {
  // Noon UTC of the day: the same calendar day in every time zone the browser may format in.
  const day = new Date(`${date}T12:00:00Z`);
  return new Intl.DateTimeFormat(locale(lang), {
    timeZone: 'UTC',
    ...(style === 'axis' ? { day: 'numeric', month: 'short' } : { dateStyle: 'medium' }),
  }).format(day);
}

export function UsageSection(props: { onUnauthorized: (error: AdminApiError) => void }) {
  const { t, lang } = useT();
  const ids = useId();
  const { onUnauthorized } = props;
  const [query, setQuery] = useState<UsageQuery>({ days: 30, workspace: 'wsp_default', collection: '' });
  const [report, setReport] = useState<UsageReport | undefined>();
  const [loadError, setLoadError] = useState<AdminApiError | undefined>();
  const [loading, setLoading] = useState(true);
  const [workspaces, setWorkspaces] = useState<AdminWorkspace[]>([]);

  useEffect(() => {
    let cancelled = false;
    listWorkspaces().then(
      (items) => {
        if (!cancelled) setWorkspaces(items);
      },
      () => {},
    );
    return () => {
      cancelled = true;
    };
  }, []);

  useEffect(() => {
    let cancelled = false;
    setLoading(true);
    fetchUsage(query).then(
      (value) => {
        if (cancelled) return;
        setLoadError(undefined);
        setReport(value);
        setLoading(false);
      },
      (error: unknown) => {
        if (cancelled) return;
        const failure = asAdminError(error);
        setLoading(false);
        if (failure.status === 401) onUnauthorized(failure);
        else setLoadError(failure);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [query, onUnauthorized]);

  const totals = report?.totals;
  const dates = report?.days.map((day) => day.date) ?? [];
  const day = (date: string, style: 'axis' | 'full') => formatDay(date, lang, style);
  const range = report
    ? t('admin.usage.range', {
        from: day(report.period.from, 'full'),
        to: day(report.period.to, 'full'),
        zone: report.period.time_zone,
      })
    : '';
  const describe = (what: string, largest: string) =>
    t('admin.usage.chart.describe', { what, range, largest });

  return (
    <section className="admin-card usage" aria-labelledby={`${ids}-title`} data-testid="usage-section">
      <div className="usage-head">
        <div>
          <h2 id={`${ids}-title`}>{t('admin.usage.title')}</h2>
          <p className="muted">{t('admin.usage.intro')}</p>
        </div>
        <form className="usage-filters" onSubmit={(event) => event.preventDefault()}>
          <Field id={`${ids}-period`} label={t('admin.usage.period')}>
            <select
              id={`${ids}-period`}
              data-testid="usage-period"
              value={query.days}
              onChange={(event) => setQuery({ ...query, days: Number(event.target.value) as UsagePeriod })}
            >
              {USAGE_PERIODS.map((days) => (
                <option key={days} value={days}>
                  {t('admin.usage.days', { days })}
                </option>
              ))}
            </select>
          </Field>
          {workspaces.length > 1 && (
            <Field id={`${ids}-workspace`} label={t('admin.usage.workspace')}>
              <select
                id={`${ids}-workspace`}
                data-testid="usage-workspace"
                value={query.workspace}
                onChange={(event) => setQuery({ ...query, workspace: event.target.value, collection: '' })}
              >
                {workspaces.map((workspace) => (
                  <option key={workspace.id} value={workspace.id}>
                    {workspace.name}
                  </option>
                ))}
              </select>
            </Field>
          )}
          <Field id={`${ids}-collection`} label={t('admin.usage.collection')}>
            <select
              id={`${ids}-collection`}
              data-testid="usage-collection"
              value={query.collection}
              onChange={(event) => setQuery({ ...query, collection: event.target.value })}
            >
              <option value="">{t('admin.usage.allCollections')}</option>
              {(report?.collections ?? []).map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </Field>
        </form>
      </div>

      {loadError && (
        <p className="error" role="alert">
          {t('admin.usage.failed', { code: loadError.code, message: errorText(loadError, lang, t) })}
        </p>
      )}
      {loading && !report && <p className="muted">{t('admin.usage.loading')}</p>}

      {report && totals && (
        <div className="usage-body" aria-busy={loading} data-testid="usage-report">
          <p className="muted usage-range">{range}</p>
          <dl className="usage-cards">
            <div className="usage-card" data-testid="usage-card-questions">
              <dt>{t('admin.usage.questions')}</dt>
              <dd className="usage-figure">{formatNumber(totals.questions, lang)}</dd>
              <dd className="muted">
                {t('admin.usage.answeredOf', { answered: formatNumber(totals.answered, lang) })}
              </dd>
            </div>
            <div className="usage-card" data-testid="usage-card-refusals">
              <dt>{t('admin.usage.refusalRate')}</dt>
              <dd className="usage-figure">{percent(totals.refusal_rate, lang)}</dd>
              <dd className="muted">
                {t('admin.usage.refusedOf', {
                  refused: formatNumber(totals.refused, lang),
                  questions: formatNumber(totals.questions, lang),
                })}
              </dd>
            </div>
            <div className="usage-card" data-testid="usage-card-feedback">
              <dt>{t('admin.usage.feedbackRate')}</dt>
              <dd className="usage-figure">{percent(totals.feedback_rate, lang)}</dd>
              <dd className="muted">
                {t('admin.usage.feedbackSplit', {
                  up: formatNumber(totals.up, lang),
                  down: formatNumber(totals.down, lang),
                })}
              </dd>
            </div>
            <div className="usage-card" data-testid="usage-card-latency">
              <dt>{t('admin.usage.latency')}</dt>
              <dd className="usage-figure">
                {totals.latency.measured === 0
                  ? t('admin.usage.noLatency')
                  : duration(totals.latency.p50_ms, lang)}
              </dd>
              <dd className="muted">
                {totals.latency.measured === 0
                  ? t('admin.usage.noLatencyDetail')
                  : t('admin.usage.latencyDetail', {
                      p95: duration(totals.latency.p95_ms, lang),
                      measured: formatNumber(totals.latency.measured, lang),
                    })}
              </dd>
            </div>
          </dl>

          <div className="usage-charts">
            <BarChart
              testId="chart-questions"
              title={t('admin.usage.chart.questions')}
              description={describe(
                t('admin.usage.chart.questionsWhat'),
                formatNumber(Math.max(0, ...report.days.map((item) => item.questions)), lang),
              )}
              dates={dates}
              series={[
                {
                  label: t('admin.usage.answered'),
                  className: 'bar-accent',
                  values: report.days.map((item) => item.answered),
                },
                {
                  label: t('admin.usage.refused'),
                  className: 'bar-fail',
                  values: report.days.map((item) => item.refused),
                },
              ]}
              format={(value) => formatNumber(value, lang)}
              formatDate={day}
              minimumMax={4}
            />
            <BarChart
              testId="chart-refusals"
              title={t('admin.usage.chart.refusals')}
              description={describe(
                t('admin.usage.chart.refusalsWhat'),
                percent(Math.max(0, ...report.days.map((item) => item.refusal_rate ?? 0)), lang),
              )}
              dates={dates}
              series={[
                {
                  label: t('admin.usage.refusalRate'),
                  className: 'bar-fail',
                  values: report.days.map((item) => item.refusal_rate),
                },
              ]}
              format={(value) => percent(value, lang)}
              formatDate={day}
              minimumMax={1}
            />
            <BarChart
              testId="chart-feedback"
              title={t('admin.usage.chart.feedback')}
              description={describe(
                t('admin.usage.chart.feedbackWhat'),
                formatNumber(Math.max(0, ...report.days.map((item) => item.up + item.down)), lang),
              )}
              dates={dates}
              series={[
                {
                  label: t('admin.usage.up'),
                  className: 'bar-pass',
                  values: report.days.map((item) => item.up),
                },
                {
                  label: t('admin.usage.down'),
                  className: 'bar-fail-light',
                  values: report.days.map((item) => item.down),
                },
              ]}
              format={(value) => formatNumber(value, lang)}
              formatDate={day}
              minimumMax={4}
            />
            <BarChart
              testId="chart-latency"
              title={t('admin.usage.chart.latency')}
              description={describe(
                t('admin.usage.chart.latencyWhat'),
                duration(Math.max(0, ...report.days.map((item) => item.latency.p50_ms ?? 0)), lang),
              )}
              dates={dates}
              series={[
                {
                  label: t('admin.usage.latency'),
                  className: 'bar-focus',
                  values: report.days.map((item) => item.latency.p50_ms),
                },
              ]}
              format={(value) => duration(value, lang)}
              formatDate={day}
              minimumMax={1000}
            />
          </div>

          <h3>{t('admin.usage.topRefused')}</h3>
          <p className="muted">{t('admin.usage.topRefusedIntro')}</p>
          {report.top_refused.length === 0 ? (
            <p className="muted" data-testid="usage-refused-none">
              {t('admin.usage.topRefusedNone')}
            </p>
          ) : (
            <AdminTable
              ids={`${ids}-refused`}
              testId="usage-refused"
              caption="admin.usage.topRefused"
              columns={[
                'admin.usage.column.question',
                'admin.usage.column.count',
                'admin.usage.column.lastAsked',
              ]}
              loadError={undefined}
              failedMessage="admin.usage.failed"
              loading={false}
              loadingMessage="admin.usage.loading"
            >
              {report.top_refused.map((row) => (
                <tr key={row.question} data-testid="usage-refused-row">
                  <td data-label={t('admin.usage.column.question')} className="break">
                    {row.question}
                  </td>
                  <td className="number" data-label={t('admin.usage.column.count')}>
                    {formatNumber(row.count, lang)}
                  </td>
                  <td data-label={t('admin.usage.column.lastAsked')}>
                    {formatTimestamp(row.last_asked_at, lang)}
                  </td>
                </tr>
              ))}
            </AdminTable>
          )}

          <details className="usage-table" data-testid="usage-days">
            <summary>{t('admin.usage.table')}</summary>
            <AdminTable
              ids={`${ids}-days`}
              testId="usage-days-table"
              caption="admin.usage.table"
              columns={[
                'admin.usage.column.date',
                'admin.usage.questions',
                'admin.usage.refused',
                'admin.usage.refusalRate',
                'admin.usage.up',
                'admin.usage.down',
                'admin.usage.column.latency',
              ]}
              loadError={undefined}
              failedMessage="admin.usage.failed"
              loading={false}
              loadingMessage="admin.usage.loading"
            >
              {[...report.days].reverse().map((row) => (
                <tr key={row.date}>
                  <td data-label={t('admin.usage.column.date')}>{day(row.date, 'full')}</td>
                  <td className="number" data-label={t('admin.usage.questions')}>
                    {formatNumber(row.questions, lang)}
                  </td>
                  <td className="number" data-label={t('admin.usage.refused')}>
                    {formatNumber(row.refused, lang)}
                  </td>
                  <td className="number" data-label={t('admin.usage.refusalRate')}>
                    {percent(row.refusal_rate, lang)}
                  </td>
                  <td className="number" data-label={t('admin.usage.up')}>
                    {formatNumber(row.up, lang)}
                  </td>
                  <td className="number" data-label={t('admin.usage.down')}>
                    {formatNumber(row.down, lang)}
                  </td>
                  <td className="number" data-label={t('admin.usage.column.latency')}>
                    {duration(row.latency.p50_ms, lang)}
                  </td>
                </tr>
              ))}
            </AdminTable>
          </details>

          <p className="usage-exports">
            <a
              className="button secondary"
              href={usageCsvUrl(query, 'days')}
              download
              data-testid="usage-csv"
            >
              {t('admin.usage.export')}
            </a>
            <a
              className="button secondary"
              href={usageCsvUrl(query, 'refused')}
              download
              data-testid="usage-csv-refused"
            >
              {t('admin.usage.exportRefused')}
            </a>
          </p>
        </div>
      )}
    </section>
  );
}
