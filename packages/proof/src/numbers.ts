/**
 * Numeric fidelity (DESIGN.md §9): every figure in a claim must occur in its evidence after
 * normalizing Indonesian and English number formats, e.g. `Rp1.761.642.817.235.000,00`,
 * `Rp1.761,6 triliun` and `1,761.6 trillion`.
 *
 * A figure is reduced to an exact decimal string (no floating point). Where a token is ambiguous
 * (`1.761` is 1761 in Indonesian and 1.761 in English) every reading is kept, and two figures match
 * when any of their readings are equal.
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
};

const FIGURE =
  /(\d(?:[\d.,]*\d)?)(?:\s*(ribu|rb|thousand|juta|jt|million|miliar|milyar|billion|bn|triliun|trilyun|trillion|tn)\b)?/gi;
const CITATION_MARKER = /\[\d{1,3}\]/g;

/** A figure found in text: the token as written and its possible exact values. */
export interface Figure {
  raw: string;
  values: string[];
}

/** Finds the figures in `text` (citation markers like `[1]` are ignored). */
export function extractFigures(text: string): Figure[] {
  const figures: Figure[] = [];
  const cleaned = text.replace(CITATION_MARKER, ' ');
  for (const match of cleaned.matchAll(FIGURE)) {
    const token = match[1]!;
    const scale = match[2] ? (SCALE_WORDS[match[2].toLowerCase()] ?? 0) : 0;
    const values = new Set<string>();
    for (const reading of readings(token)) values.add(shiftDecimal(reading, scale));
    if (values.size > 0) figures.push({ raw: match[0], values: [...values] });
  }
  return figures;
}

/** Figures of `claim` that match no figure in any of `sources` (empty when all are supported). */
export function unsupportedFigures(claim: string, sources: readonly string[]): Figure[] {
  const available = new Set<string>();
  for (const source of sources)
    for (const figure of extractFigures(source)) for (const v of figure.values) available.add(v);
  return extractFigures(claim).filter((figure) => !figure.values.some((value) => available.has(value)));
}

/** Possible plain decimal readings ("1761.6") of a digit token with `.`/`,` separators. */
function readings(token: string): string[] {
  const separators = token.replace(/\d/g, '');
  if (separators.length === 0) return [token];
  const out: string[] = [];
  // Indonesian: '.' groups thousands, ',' is the decimal mark.
  const indonesian = asDecimal(token, '.', ',');
  if (indonesian !== undefined) out.push(indonesian);
  // English: ',' groups thousands, '.' is the decimal mark.
  const english = asDecimal(token, ',', '.');
  if (english !== undefined) out.push(english);
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
