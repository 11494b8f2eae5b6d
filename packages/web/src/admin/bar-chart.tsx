/**
 * A bar chart per day, drawn as SVG with no library: stacked series, a y axis with a few round ticks,
 * a few dates along the x axis. The chart is an image with a title and a description (what it shows,
 * its range and its largest value); each bar carries its figures as a tooltip, and the page's table
 * of figures per day holds the same numbers for screen readers and copying.
 */
import { useId } from 'react';

export interface BarSeries {
  label: string;
  /** A CSS class giving the bars their colour (`bar-accent`, `bar-fail`, …). */
  className: string;
  values: readonly (number | null)[];
}

export interface BarChartProps {
  title: string;
  description: string;
  /** `YYYY-MM-DD`, one per bar. */
  dates: readonly string[];
  series: readonly BarSeries[];
  /** How a value reads on the axis and in a tooltip. */
  format: (value: number) => string;
  /** How a date reads along the axis (short) and in a tooltip. */
  formatDate: (date: string, style: 'axis' | 'full') => string;
  /** The top of the axis at least (e.g. 1 for a rate). */
  minimumMax?: number;
  testId?: string;
}

const WIDTH = 420;
const HEIGHT = 190;
const LEFT = 60;
const RIGHT = 8;
const TOP = 10;
const BOTTOM = 24;

/** A round step for about `count` ticks up to `max`. */
function niceStep(max: number, count: number): number {
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const scaled = raw / power;
  const nice = scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 2.5 ? 2.5 : scaled <= 5 ? 5 : 10;
  return nice * power;
}

export function BarChart(props: BarChartProps) {
  const ids = useId();
  const { dates, series } = props;
  const totals = dates.map((_, index) => series.reduce((sum, item) => sum + (item.values[index] ?? 0), 0));
  const largest = Math.max(0, ...totals);
  const step = niceStep(Math.max(largest, props.minimumMax ?? 0, 1e-9) || 1, 4);
  const top = Math.max(step, Math.ceil(Math.max(largest, props.minimumMax ?? 0) / step) * step);
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = plotWidth / Math.max(1, dates.length);
  const barWidth = Math.max(1, slot * (dates.length > 40 ? 0.8 : 0.66));
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight;
  const ticks: number[] = [];
  for (let value = 0; value <= top + step / 2; value += step) ticks.push(value);
  // About five dates along the axis, always the last one.
  const every = Math.max(1, Math.ceil(dates.length / 5));
  const labelled = (index: number) => (dates.length - 1 - index) % every === 0;

  return (
    <figure className="chart" data-testid={props.testId}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${ids}-title ${ids}-desc`}
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={`${ids}-title`}>{props.title}</title>
        <desc id={`${ids}-desc`}>{props.description}</desc>
        <g className="chart-grid">
          {ticks.map((tick) => (
            <g key={tick}>
              <line x1={LEFT} x2={WIDTH - RIGHT} y1={y(tick)} y2={y(tick)} />
              <text x={LEFT - 6} y={y(tick)} dy="0.32em" textAnchor="end">
                {props.format(tick)}
              </text>
            </g>
          ))}
        </g>
        <g className="chart-bars">
          {dates.map((date, index) => {
            let base = 0;
            const x = LEFT + index * slot + (slot - barWidth) / 2;
            const tooltip = [
              props.formatDate(date, 'full'),
              ...series.map((item) => {
                const value = item.values[index];
                return `${item.label}: ${value === null || value === undefined ? '–' : props.format(value)}`;
              }),
            ].join('\n');
            return (
              <g key={date}>
                <title>{tooltip}</title>
                {/* A full-height target under the bars, so the tooltip shows on empty days too. */}
                <rect
                  className="chart-hit"
                  x={LEFT + index * slot}
                  width={slot}
                  y={TOP}
                  height={plotHeight}
                />
                {series.map((item) => {
                  const value = item.values[index] ?? 0;
                  if (value <= 0) return null;
                  const rect = (
                    <rect
                      key={item.label}
                      className={item.className}
                      x={x}
                      width={barWidth}
                      y={y(base + value)}
                      height={Math.max(0.5, y(base) - y(base + value))}
                    />
                  );
                  base += value;
                  return rect;
                })}
              </g>
            );
          })}
        </g>
        <line className="chart-axis" x1={LEFT} x2={WIDTH - RIGHT} y1={y(0)} y2={y(0)} />
        <g className="chart-dates">
          {dates.map((date, index) =>
            labelled(index) ? (
              <text key={date} x={LEFT + index * slot + slot / 2} y={HEIGHT - 6} textAnchor="middle">
                {props.formatDate(date, 'axis')}
              </text>
            ) : null,
          )}
        </g>
      </svg>
      <figcaption className="chart-caption">
        <span className="chart-title" aria-hidden="true">
          {props.title}
        </span>
        {series.length > 1 && (
          <ul className="chart-legend" aria-hidden="true">
            {series.map((item) => (
              <li key={item.label}>
                <span className={`chart-swatch ${item.className}`} />
                {item.label}
              </li>
            ))}
          </ul>
        )}
      </figcaption>
    </figure>
  );
}
