/**
 * Numbers, times, sizes and hashes as the verification panel shows them, in the page's language:
 * `12,3 milidetik` / `12.3 ms`, `25 November 2026 pukul 10.59`, `0,74` / `0.74`, `50 MB`, and long
 * hashes shortened to their ends (`0xfecc0ea2…e780b877`) with the full value kept for copying.
 */
import type { Lang } from './i18n.js';

const LOCALES: Record<Lang, string> = { id: 'id-ID', en: 'en-GB' };

/** A duration in the page's words: `12.3 ms` / `12,3 milidetik`, `1.2 s` / `1,2 detik`. */
export function formatDuration(ms: number, lang: Lang): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  const seconds = ms >= 1000;
  const value = new Intl.NumberFormat(LOCALES[lang], { maximumFractionDigits: 1 }).format(
    seconds ? ms / 1000 : ms,
  );
  if (lang === 'id') return `${value} ${seconds ? 'detik' : 'milidetik'}`;
  return `${value} ${seconds ? 's' : 'ms'}`;
}

/** An RFC 3339 time as a date and time in the reader's time zone; the input itself when unreadable. */
export function formatDateTime(iso: string, lang: Lang, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(LOCALES[lang], {
    dateStyle: 'long',
    timeStyle: 'short',
    ...(timeZone !== undefined ? { timeZone } : {}),
  }).format(date);
}

/** A score in [0, 1] with two decimals: `0.74` / `0,74`. */
export function formatScore(value: number | undefined, lang: Lang): string {
  if (value === undefined || !Number.isFinite(value)) return '?';
  return new Intl.NumberFormat(LOCALES[lang], { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    value,
  );
}

/** A whole number with the locale's grouping: `1,234` / `1.234`. */
export function formatCount(value: number, lang: Lang): string {
  return new Intl.NumberFormat(LOCALES[lang]).format(value);
}

/** A size in bytes as kB or MB (decimal units, as file managers show them). */
export function formatBytes(bytes: number, lang: Lang): string {
  const [value, unit] =
    bytes >= 1_000_000
      ? [bytes / 1_000_000, 'megabyte']
      : bytes >= 1_000
        ? [bytes / 1_000, 'kilobyte']
        : [bytes, 'byte'];
  return new Intl.NumberFormat(LOCALES[lang], {
    style: 'unit',
    unit,
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(value);
}

/**
 * A long identifier shortened to its two ends, `0xfecc0ea2…e780b877`; values of 20 characters or
 * fewer are kept whole.
 */
export function shortHash(value: string, head = 10, tail = 8): string {
  if (value.length <= Math.max(20, head + tail + 1)) return value;
  return `${value.slice(0, head)}…${value.slice(-tail)}`;
}
