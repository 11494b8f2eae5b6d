/** Numbers, sizes, dates and long hex digests as the page's language writes them (Intl). */
import type { Lang } from './i18n.js';

const LOCALES: Record<Lang, string> = { id: 'id-ID', en: 'en-GB' };

export function locale(lang: Lang): string {
  return LOCALES[lang];
}

/** `12345` → "12.345" (id) or "12,345" (en). */
export function formatNumber(value: number, lang: Lang, digits?: number): string {
  return new Intl.NumberFormat(
    LOCALES[lang],
    digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits },
  ).format(value);
}

/** A file size in B, KB or MB (1 KB = 1024 B) with the language's decimal separator. */
export function formatBytes(size: number, lang: Lang): string {
  if (size < 1024) return `${formatNumber(size, lang)} B`;
  if (size < 1024 * 1024) return `${formatNumber(size / 1024, lang, 1)} KB`;
  return `${formatNumber(size / 1024 / 1024, lang, 1)} MB`;
}

/**
 * A timestamp (ISO 8601, or a database one such as `2025-01-02 03:04:05.678+00`) as a local date and
 * time in the language's format; an unparsable one as given.
 */
export function formatTimestamp(value: string, lang: Lang): string {
  const date = new Date(value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** The characters kept at each end of a shortened digest. */
export const HASH_HEAD = 10;
export const HASH_TAIL = 6;

/**
 * `0x1234567890…abcdef`: the first 10 and last 6 characters of a long digest or transaction hash,
 * enough to recognise and compare it; short values are returned whole.
 */
export function shortHash(value: string): string {
  return value.length > HASH_HEAD + HASH_TAIL + 1
    ? `${value.slice(0, HASH_HEAD)}…${value.slice(-HASH_TAIL)}`
    : value;
}
