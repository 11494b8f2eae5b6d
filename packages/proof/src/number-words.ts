/**
 * Indonesian number words, as statutes spell amounts out after the digits: "Rp2.463.024.911.395.000,00
 * (dua kuadriliun empat ratus enam puluh tiga triliun dua puluh empat miliar … rupiah)". Reading the
 * words back gives a second, independent reading of the amount: the engine holds the digits against
 * it, so an OCR error in the digits ("Rp2O.979", "Rpl.963") or in the words shows up as a
 * disagreement, and a composed claim's `spelled` part (composition.ts, docs/certificate.md "Composed
 * claims") states the amount the words spell, which every verifier recomputes with this reader.
 *
 * Grammar: groups below a thousand (`[d ratus | seratus] [d puluh | d belas | sepuluh | sebelas] [d]`)
 * each followed by a scale word (ribu, juta, miliar/milyar, triliun/trilyun, kuadriliun), the scales
 * strictly decreasing; "seribu" is one thousand; "nol" stands alone. Anything else — an unknown word,
 * a word out of order, a scale repeated — is not a number.
 */

const DIGITS: Record<string, bigint> = {
  satu: 1n,
  dua: 2n,
  tiga: 3n,
  empat: 4n,
  lima: 5n,
  enam: 6n,
  tujuh: 7n,
  delapan: 8n,
  sembilan: 9n,
};

const SCALES: Record<string, bigint> = {
  ribu: 10n ** 3n,
  juta: 10n ** 6n,
  miliar: 10n ** 9n,
  milyar: 10n ** 9n,
  triliun: 10n ** 12n,
  trilyun: 10n ** 12n,
  kuadriliun: 10n ** 15n,
};

/** Where a group below a thousand has got to: nothing yet, hundreds, tens (or teens), units. */
type Place = 0 | 100 | 10 | 1;

/**
 * The integer `words` spell ("dua ratus dua puluh dua triliun lima ratus enam miliar", "seribu",
 * "sebelas juta"), or undefined when they are not a well-formed Indonesian number. Case, extra
 * spaces and tokens without letters (OCR debris such as "·" or "^") are ignored; a trailing
 * "rupiah" is allowed.
 *
 * @example
 * parseNumberWords('dua triliun seratus sembilan puluh miliar rupiah') // 2190000000000n
 */
export function parseNumberWords(words: string): bigint | undefined {
  const tokens = words
    .toLowerCase()
    .split(/[\s,]+/)
    .map((token) => token.replace(/[^\p{L}]/gu, ''))
    .filter((token) => token !== '');
  if (tokens.at(-1) === 'rupiah') tokens.pop();
  if (tokens.length === 0) return undefined;
  if (tokens.length === 1 && tokens[0] === 'nol') return 0n;

  let total = 0n;
  let group = 0n;
  let place: Place = 0;
  /** A digit word waiting for "ratus", "puluh", "belas", a scale or the end. */
  let pending: bigint | undefined;
  let lastScale: bigint | undefined;

  const closeUnits = (): boolean => {
    if (pending === undefined) return true;
    if (place !== 0 && place <= 1) return false;
    group += pending;
    pending = undefined;
    place = 1;
    return true;
  };
  const addToGroup = (value: bigint, at: Place): boolean => {
    if (place !== 0 && place <= at) return false;
    group += value;
    place = at;
    return true;
  };
  const closeScale = (scale: bigint): boolean => {
    if (!closeUnits() || group === 0n) return false;
    if (lastScale !== undefined && scale >= lastScale) return false;
    total += group * scale;
    lastScale = scale;
    group = 0n;
    place = 0;
    return true;
  };

  for (const token of tokens) {
    const digit = DIGITS[token];
    if (digit !== undefined) {
      if (pending !== undefined) return undefined;
      pending = digit;
      continue;
    }
    let ok: boolean;
    switch (token) {
      case 'ratus':
        ok = pending !== undefined && addToGroup(pending * 100n, 100);
        pending = undefined;
        break;
      case 'puluh':
        ok = pending !== undefined && addToGroup(pending * 10n, 10);
        pending = undefined;
        break;
      case 'belas':
        // Teens fill both the tens and the units of the group.
        ok = pending !== undefined && addToGroup(10n + pending, 10);
        if (ok) place = 1;
        pending = undefined;
        break;
      case 'seratus':
        ok = pending === undefined && addToGroup(100n, 100);
        break;
      case 'sepuluh':
        ok = pending === undefined && addToGroup(10n, 10);
        if (ok) place = 1;
        break;
      case 'sebelas':
        ok = pending === undefined && addToGroup(11n, 10);
        if (ok) place = 1;
        break;
      case 'seribu':
        ok = pending === undefined && group === 0n && place === 0 && addToGroup(1n, 1) && closeScale(1000n);
        break;
      default: {
        const scale = SCALES[token];
        ok = scale !== undefined && closeScale(scale);
      }
    }
    if (!ok) return undefined;
  }
  if (!closeUnits()) return undefined;
  return total + group;
}
