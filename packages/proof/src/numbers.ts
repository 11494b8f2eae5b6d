/**
 * Numeric fidelity (docs/certificate.md, "Render policy", rule 6): every figure in a claim must occur in its
 * evidence after normalizing Indonesian and English number formats, e.g. `Rp1.761.642.817.235.000,00`,
 * `Rp1.761,6 triliun`, `Rp 1.761,6 T` and `1,761.6 trillion`.
 *
 * A figure is reduced to an exact decimal string (no floating point; comparisons use bigint). Where
 * a token is ambiguous (`1.761` is 1761 in Indonesian and 1.761 in English) every reading is kept,
 * and two figures match when any of their readings are equal.
 *
 * Rounded figures: a figure written with a scale word (`Rp222,5 triliun`) may stand for a longer
 * exact figure in the source (`Rp222.506.897.630.000,00`). It matches when the source figure lies
 * within half a unit of its last stated digit AND it states at least {@link MIN_APPROXIMATE_DIGITS}
 * significant digits — so `Rp222,5 triliun` matches but `Rp223 triliun` (three digits) does not:
 * a coarse rounding hides too much to count as evidence.
 */

const SCALE_WORDS: Record<string, number> = {
  ribu: 3,
  rb: 3,
  thousand: 3,
  juta: 6,
  jt: 6,
  million: 6,
  miliar: 9,
  milyar: 9,
  billion: 9,
  bn: 9,
  triliun: 12,
  trilyun: 12,
  trillion: 12,
  tn: 12,
  kuadriliun: 15,
  quadrillion: 15,
};
/** One-letter scales, only after a currency sign (`Rp 1.761,6 T`, `Rp2,5 M`). */
const CURRENCY_LETTER_SCALES: Record<string, number> = { T: 12, M: 9, Jt: 6 };
/** Scale words that are English: they imply English separators for the digits before them. */
const ENGLISH_SCALES = new Set(['thousand', 'million', 'billion', 'bn', 'trillion', 'tn', 'quadrillion']);

/** Fewest significant digits a rounded figure must state to match a longer exact figure. */
export const MIN_APPROXIMATE_DIGITS = 4;

const FIGURE =
  /(\d(?:[\d.,]*\d)?)(?:\s*(ribu|rb|thousand|juta|jt|million|miliar|milyar|billion|bn|triliun|trilyun|trillion|tn|kuadriliun|quadrillion)\b)?/gi;
const CITATION_MARKER = /\[\d{1,3}\]/g;
const CURRENCY_BEFORE = /(?:\b(?:Rp|IDR|USD)\.?|US\$|\$)\s*$/i;
const LETTER_SCALE_AFTER = /^\s*(T|M|Jt)(?![\p{L}\d])/u;
const PERCENT_AFTER = /^\s*(?:%|persen\b|percent\b|per cent\b)/i;

/** A figure found in text: the token as written and its possible exact values. */
export interface Figure {
  raw: string;
  values: string[];
}

/** What an amount measures: rupiah (or another currency) when a currency sign is given. */
export type AmountUnit = 'currency' | 'percent' | 'number';

/** One amount read from text. */
export interface Amount {
  /** The text as written (without the currency sign). */
  raw: string;
  /** Exact plain decimal value in base units ("222500000000000", "5.3"). */
  value: string;
  unit: AmountUnit;
  /** True when given with a scale word (triliun, miliar, juta, ribu, T…): it may be rounded. */
  approximate: boolean;
  /** Power of ten of the last stated digit (11 for `222,5 triliun`, -2 for `500.000,00`). */
  precision: number;
}

/** Finds the figures in `text` (citation markers like `[1]` are ignored). */
export function extractFigures(text: string): Figure[] {
  return scan(text).map((found) => ({ raw: found.raw, values: found.readings.map((r) => r.value) }));
}

/**
 * Reads the first amount in `text` (`Rp1.761,6 triliun`, `1,761.6 trillion`, `5,3%`, `250 juta`).
 * An ambiguous token is read the Indonesian way unless an English scale word follows it.
 */
export function parseAmount(text: string): Amount | undefined {
  return parseAmounts(text)[0];
}

/** Every amount in `text`, in order (one reading each, as {@link parseAmount}). */
export function parseAmounts(text: string): Amount[] {
  const amounts: Amount[] = [];
  for (const found of scan(text)) {
    const reading = found.readings[0];
    if (reading === undefined) continue;
    amounts.push({
      raw: found.raw,
      value: reading.value,
      unit: found.unit,
      approximate: found.scaled,
      precision: reading.precision,
    });
  }
  return amounts;
}

/**
 * True when `a` and `b` are the same amount: equal exact values, or one is a rounded figure
 * (`approximate`, with at least {@link MIN_APPROXIMATE_DIGITS} significant digits) and the other
 * lies within half a unit of its last digit. Percentages only match percentages. Strings are read
 * with {@link parseAmount}.
 */
export function amountsMatch(a: Amount | string, b: Amount | string): boolean {
  const left = typeof a === 'string' ? parseAmount(a) : a;
  const right = typeof b === 'string' ? parseAmount(b) : b;
  if (left === undefined || right === undefined) return false;
  if ((left.unit === 'percent') !== (right.unit === 'percent')) return false;
  if (compareDecimal(left.value, right.value) === 0) return true;
  return (
    (left.approximate && withinRounding(left.value, left.precision, right.value)) ||
    (right.approximate && withinRounding(right.value, right.precision, left.value))
  );
}

/** Figures of `claim` that match no figure in any of `sources` (empty when all are supported). */
export function unsupportedFigures(claim: string, sources: readonly string[]): Figure[] {
  const available = new Set<string>();
  for (const source of sources)
    for (const found of scan(source)) for (const reading of found.readings) available.add(reading.value);
  const unsupported: Figure[] = [];
  for (const found of scan(claim)) {
    const readings = found.readings;
    if (readings.some((reading) => available.has(reading.value))) continue;
    if (
      found.scaled &&
      readings.some((reading) =>
        [...available].some((value) => withinRounding(reading.value, reading.precision, value)),
      )
    )
      continue;
    unsupported.push({ raw: found.raw, values: readings.map((reading) => reading.value) });
  }
  return unsupported;
}

// ---------------------------------------------------------------------------------------------

interface Reading {
  value: string;
  precision: number;
}

interface Found {
  raw: string;
  readings: Reading[];
  unit: AmountUnit;
  /** Given with a scale word. */
  scaled: boolean;
}

function scan(text: string): Found[] {
  const out: Found[] = [];
  const cleaned = text.replace(CITATION_MARKER, ' ');
  for (const match of cleaned.matchAll(FIGURE)) {
    const token = match[1]!;
    const start = match.index;
    const end = start + match[0].length;
    const currency = CURRENCY_BEFORE.test(cleaned.slice(Math.max(0, start - 8), start));
    let raw = match[0];
    let scale = 0;
    let english = false;
    if (match[2]) {
      const word = match[2].toLowerCase();
      scale = SCALE_WORDS[word] ?? 0;
      english = ENGLISH_SCALES.has(word);
    } else if (currency) {
      const letter = LETTER_SCALE_AFTER.exec(cleaned.slice(end, end + 4));
      if (letter?.[1] !== undefined) {
        scale = CURRENCY_LETTER_SCALES[letter[1]] ?? 0;
        raw = cleaned.slice(start, end + letter[0].length);
      }
    }
    const percent = !currency && scale === 0 && PERCENT_AFTER.test(cleaned.slice(end, end + 10));
    const readings: Reading[] = [];
    const seen = new Set<string>();
    const ordered = english ? tokenReadings(token).reverse() : tokenReadings(token);
    for (const reading of ordered) {
      const value = shiftDecimal(reading, scale);
      if (seen.has(value)) continue;
      seen.add(value);
      const fraction = reading.split('.')[1] ?? '';
      readings.push({ value, precision: scale - fraction.length });
    }
    if (readings.length > 0)
      out.push({
        raw,
        readings,
        unit: currency ? 'currency' : percent ? 'percent' : 'number',
        scaled: scale > 0,
      });
  }
  return out;
}

/** Possible plain decimal readings ("1761.6") of a digit token with `.`/`,` separators, Indonesian first. */
function tokenReadings(token: string): string[] {
  const separators = token.replace(/\d/g, '');
  if (separators.length === 0) return [token];
  const out: string[] = [];
  // Indonesian: '.' groups thousands, ',' is the decimal mark.
  const indonesian = asDecimal(token, '.', ',');
  if (indonesian !== undefined) out.push(indonesian);
  // English: ',' groups thousands, '.' is the decimal mark.
  const english = asDecimal(token, ',', '.');
  if (english !== undefined && english !== indonesian) out.push(english);
  return out;
}

function asDecimal(token: string, group: string, decimal: string): string | undefined {
  const parts = token.split(decimal);
  if (parts.length > 2) return undefined;
  const [integerPart, fraction] = parts as [string, string | undefined];
  if (fraction !== undefined && !/^\d+$/.test(fraction)) return undefined;
  const groups = integerPart.split(group);
  if (groups.length > 1) {
    if (!/^\d{1,3}$/.test(groups[0]!) || groups.slice(1).some((g) => !/^\d{3}$/.test(g))) return undefined;
  } else if (!/^\d+$/.test(integerPart)) return undefined;
  return groups.join('') + (fraction === undefined ? '' : '.' + fraction);
}

/** Multiplies a plain decimal string by 10^scale and normalizes it (no leading/trailing zeros). */
function shiftDecimal(decimal: string, scale: number): string {
  const [integerPart = '', fraction = ''] = decimal.split('.');
  let digits = integerPart + fraction;
  let point = integerPart.length + scale;
  if (point > digits.length) digits = digits.padEnd(point, '0');
  let whole = digits.slice(0, point).replace(/^0+/, '');
  let rest = digits.slice(point).replace(/0+$/, '');
  if (whole === '') whole = '0';
  if (point < 0) {
    rest = '0'.repeat(-point) + rest;
    point = 0;
  }
  return rest ? `${whole}.${rest}` : whole;
}

/** A normalized decimal string as an integer times 10^-decimals. */
function toScaled(value: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = value.split('.');
  return BigInt(whole + fraction.padEnd(decimals, '0').slice(0, decimals));
}

function decimalsOf(value: string): number {
  return (value.split('.')[1] ?? '').length;
}

function compareDecimal(left: string, right: string): number {
  const decimals = Math.max(decimalsOf(left), decimalsOf(right));
  const a = toScaled(left, decimals);
  const b = toScaled(right, decimals);
  return a === b ? 0 : a < b ? -1 : 1;
}

/**
 * True when `exact` lies within half a unit of 10^precision of the rounded figure `rounded`, and
 * `rounded` states at least MIN_APPROXIMATE_DIGITS significant digits.
 */
function withinRounding(rounded: string, precision: number, exact: string): boolean {
  const decimals = Math.max(decimalsOf(rounded), decimalsOf(exact), Math.max(0, -precision) + 1);
  const unitDigits = precision + decimals; // 10^precision expressed in units of 10^-decimals
  if (unitDigits < 1) return false;
  const mantissa = toScaled(rounded, decimals) / 10n ** BigInt(unitDigits);
  if (mantissa.toString().length < MIN_APPROXIMATE_DIGITS) return false;
  const difference = toScaled(rounded, decimals) - toScaled(exact, decimals);
  const absolute = difference < 0n ? -difference : difference;
  return 2n * absolute <= 10n ** BigInt(unitDigits);
}
