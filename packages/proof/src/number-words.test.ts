import { describe, expect, it } from 'vitest';
import { parseNumberWords } from './number-words.js';

const ONES = ['', 'satu', 'dua', 'tiga', 'empat', 'lima', 'enam', 'tujuh', 'delapan', 'sembilan'];
const SCALES = ['', 'ribu', 'juta', 'miliar', 'triliun', 'kuadriliun'];

/** A group below a thousand in words, as statutes write it ("seratus sebelas", "dua puluh satu"). */
function belowThousand(n: number): string[] {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const words = hundreds === 1 ? ['seratus'] : hundreds > 1 ? [ONES[hundreds]!, 'ratus'] : [];
  if (rest === 10) words.push('sepuluh');
  else if (rest === 11) words.push('sebelas');
  else if (rest > 11 && rest < 20) words.push(ONES[rest - 10]!, 'belas');
  else {
    if (rest >= 20) words.push(ONES[Math.floor(rest / 10)]!, 'puluh');
    if (rest % 10 > 0) words.push(ONES[rest % 10]!);
  }
  return words;
}

/**
 * `value` spelled out the way statutes do (the engine's `terbilang` writes the same), written here
 * independently so the reader is tested against a second implementation.
 */
function spell(value: bigint): string {
  if (value === 0n) return 'nol';
  const groups: number[] = [];
  for (let rest = value; rest > 0n; rest /= 1000n) groups.push(Number(rest % 1000n));
  const words: string[] = [];
  for (let index = groups.length - 1; index >= 0; index--) {
    const n = groups[index]!;
    if (n === 0) continue;
    if (index === 1 && n === 1) words.push('seribu');
    else words.push(...belowThousand(n), SCALES[index]!);
  }
  return words.filter((word) => word !== '').join(' ');
}

describe('parseNumberWords', () => {
  it.each([
    ['nol', 0n],
    ['satu', 1n],
    ['sembilan', 9n],
    ['sepuluh', 10n],
    ['sebelas', 11n],
    ['dua belas', 12n],
    ['sembilan belas', 19n],
    ['dua puluh', 20n],
    ['dua puluh satu', 21n],
    ['sembilan puluh sembilan', 99n],
    ['seratus', 100n],
    ['seratus satu', 101n],
    ['seratus sebelas', 111n],
    ['seratus sepuluh', 110n],
    ['dua ratus lima puluh', 250n],
    ['sembilan ratus sembilan puluh sembilan', 999n],
    ['seribu', 1_000n],
    ['seribu lima ratus', 1_500n],
    ['dua ribu', 2_000n],
    ['sebelas ribu', 11_000n],
    ['seratus ribu', 100_000n],
    ['satu juta', 1_000_000n],
    ['dua juta seribu', 2_001_000n],
    ['tujuh puluh triliun rupiah', 70_000_000_000_000n],
    ['tiga triliun', 3_000_000_000_000n],
    ['satu miliar', 1_000_000_000n],
    ['satu milyar', 1_000_000_000n],
    ['dua trilyun', 2_000_000_000_000n],
    // The words of real UU APBN figures.
    [
      'dua ratus dua puluh dua triliun lima ratus enam miliar delapan ratus sembilan puluh tujuh juta enam ratus tiga puluh juta',
      undefined,
    ],
    [
      'dua ratus dua puluh dua triliun lima ratus enam miliar delapan ratus sembilan puluh tujuh juta enam ratus tiga puluh ribu rupiah',
      222_506_897_630_000n,
    ],
    [
      'satu kuadriliun tujuh ratus enam puluh satu triliun enam ratus empat puluh dua miliar delapan ratus tujuh belas juta dua ratus tiga puluh lima ribu rupiah',
      1_761_642_817_235_000n,
    ],
    [
      'dua kuadriliun empat ratus enam puluh tiga triliun dua puluh empat miliar sembilan ratus sebelas juta tiga ratus sembilan puluh lima ribu rupiah',
      2_463_024_911_395_000n,
    ],
    [
      'dua kuadriliun dua ratus tiga puluh tiga triliun seratus sembilan puluh enam miliar tujuh ratus satu juta enam ratus enam puluh ribu rupiah',
      2_233_196_701_660_000n,
    ],
    // OCR debris between the words is ignored; OCR'd words are not numbers.
    ['empat ratus empat ^puluh empat triliun', 444_000_000_000_000n],
    ['tujuh ratus · sembilan puluh enam miliar', 796_000_000_000n],
    ['tqjuh puluh triliun', undefined],
    ['dua puluh dga triliun', undefined],
    ['em pat ratus', undefined],
    // Malformed: out of order, repeated, doubled digits, scales that do not decrease.
    ['puluh dua', undefined],
    ['dua dua', undefined],
    ['sepuluh dua', undefined],
    ['dua belas tiga', undefined],
    ['seratus dua ratus', undefined],
    ['dua puluh seratus', undefined],
    ['juta', undefined],
    ['dua juta tiga juta', undefined],
    ['dua kuadriliun tiga kuadriliun', undefined],
    ['dua ribu tiga juta', undefined],
    ['satu seribu', undefined],
    ['dua koma lima persen', undefined],
    ['', undefined],
    ['rupiah', undefined],
  ])('%s', (words, value) => {
    expect(parseNumberWords(words)).toBe(value);
  });

  it('reads back what a statute writes, for a spread of amounts', () => {
    // A fixed linear congruential sequence: the same amounts on every run.
    let seed = 20_231_031n;
    const next = () => {
      seed = (seed * 6_364_136_223_846_793_005n + 1_442_695_040_888_963_407n) % 2n ** 64n;
      return seed;
    };
    for (let index = 0; index < 2_000; index++) {
      // Up to 18 digits: kuadriliun (10^15) is the largest scale word.
      const digits = Number(next() % 18n) + 1;
      const value = next() % 10n ** BigInt(digits);
      expect(parseNumberWords(`${spell(value)} rupiah`)).toBe(value);
    }
  });
});
