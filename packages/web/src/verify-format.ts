/**
 * What the verification panel writes beyond format.ts: durations in the page's words (`12,3
 * milidetik` / `12.3 ms`) and scores with two decimals (`0,74` / `0.74`).
 */
import { formatNumber } from './format.js';
import type { Lang } from './i18n.js';

/** A duration in the page's words: `12.3 ms` / `12,3 milidetik`, `1.2 s` / `1,2 detik`. */
export function formatDuration(ms: number, lang: Lang): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  const seconds = ms >= 1000;
  const value = Math.round((seconds ? ms / 1000 : ms) * 10) / 10;
  const text = formatNumber(value, lang, Number.isInteger(value) ? 0 : 1);
  if (lang === 'id') return `${text} ${seconds ? 'detik' : 'milidetik'}`;
  return `${text} ${seconds ? 's' : 'ms'}`;
}

/** A score in [0, 1] with two decimals: `0.74` / `0,74`; `?` when there is none. */
export function formatScore(value: number | undefined, lang: Lang): string {
  if (value === undefined || !Number.isFinite(value)) return '?';
  return formatNumber(value, lang, 2);
}
