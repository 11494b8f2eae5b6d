import { describe, expect, it } from 'vitest';
import { amountsMatch, extractFigures, parseAmount, parseAmounts, unsupportedFigures } from './numbers.js';

describe('numeric fidelity', () => {
  it('reads Indonesian and English formats to the same exact value', () => {
    const values = (text: string) => extractFigures(text).flatMap((figure) => figure.values);
    expect(values('Rp1.761.642.817.235.000,00')).toContain('1761642817235000');
    expect(values('Rp1.761,6 triliun')).toContain('1761600000000000');
    expect(values('1,761.6 trillion')).toContain('1761600000000000');
    expect(values('Rp500.000,00 (lima ratus ribu rupiah)')).toContain('500000');
    expect(values('2,5 juta')).toContain('2500000');
  });

  it('accepts a claim whose figures are in the evidence, in another format', () => {
    const evidence = 'Anggaran Pendapatan Negara sebesar Rp1.761.642.817.235.000,00.';
    expect(unsupportedFigures('Pendapatan negara 1,761,642,817,235,000 rupiah [1].', [evidence])).toEqual([]);
  });

  it('flags a changed figure', () => {
    const evidence =
      'dipidana dengan pidana kurungan paling lama 2 (dua) bulan atau denda paling banyak Rp500.000,00';
    expect(unsupportedFigures('denda paling banyak Rp500.000,00', [evidence])).toEqual([]);
    const changed = unsupportedFigures('denda paling banyak Rp750.000,00', [evidence]);
    expect(changed.map((figure) => figure.raw)).toEqual(['750.000,00']);
    expect(unsupportedFigures('kurungan paling lama 3 bulan', [evidence]).length).toBe(1);
  });

  it('ignores citation markers', () => {
    expect(unsupportedFigures('Lihat sumber [2].', ['tanpa angka'])).toEqual([]);
  });
});

describe('parseAmount', () => {
  it.each([
    ['Rp1.761.642.817.235.000,00', '1761642817235000', 'currency', false, -2],
    ['Rp1.761,6 triliun', '1761600000000000', 'currency', true, 11],
    ['Rp 1.761,6 T', '1761600000000000', 'currency', true, 11],
    ['1,761.6 trillion', '1761600000000000', 'number', true, 11],
    ['IDR 1.76 quadrillion', '1760000000000000', 'currency', true, 13],
    ['Rp500.000,00', '500000', 'currency', false, -2],
    ['2,5 miliar', '2500000000', 'number', true, 8],
    ['250 juta', '250000000', 'number', true, 6],
    ['Rp222,5 triliun', '222500000000000', 'currency', true, 11],
    ['5,3%', '5.3', 'percent', false, -1],
    ['pertumbuhan 5,3 persen', '5.3', 'percent', false, -1],
  ] as const)('%s', (text, value, unit, approximate, precision) => {
    expect(parseAmount(text)).toMatchObject({ value, unit, approximate, precision });
  });

  it('returns undefined without a number and reads every amount in order', () => {
    expect(parseAmount('tanpa angka')).toBeUndefined();
    expect(parseAmounts('naik dari Rp10 triliun menjadi Rp12,5 triliun').map((a) => a.value)).toEqual([
      '10000000000000',
      '12500000000000',
    ]);
  });
});

describe('amountsMatch', () => {
  it('matches the same amount in any format', () => {
    expect(amountsMatch('Rp1.761.642.817.235.000,00', '1,761,642,817,235,000')).toBe(true);
    expect(amountsMatch('Rp1.761,6 triliun', '1,761.6 trillion')).toBe(true);
    expect(amountsMatch('Rp 1.761,6 T', 'Rp1.761,6 triliun')).toBe(true);
    expect(amountsMatch('250 juta', 'Rp250.000.000,00')).toBe(true);
  });

  it('matches a rounded figure within its stated precision only', () => {
    expect(amountsMatch('Rp222,5 triliun', 'Rp222.506.897.630.000,00')).toBe(true);
    expect(amountsMatch('Rp222.506.897.630.000,00', 'Rp222,5 triliun')).toBe(true);
    expect(amountsMatch('Rp1.761,6 triliun', 'Rp1.761.642.817.235.000,00')).toBe(true);
    expect(amountsMatch('Rp222,6 triliun', 'Rp222.506.897.630.000,00')).toBe(false);
    // Three significant digits are too coarse to count as the same figure.
    expect(amountsMatch('Rp223 triliun', 'Rp222.506.897.630.000,00')).toBe(false);
    // Exact figures are never widened.
    expect(amountsMatch('Rp222.500.000.000.000', 'Rp222.506.897.630.000,00')).toBe(false);
  });

  it('keeps percentages apart from amounts', () => {
    expect(amountsMatch('5,3%', '5.3 percent')).toBe(true);
    expect(amountsMatch('5,3%', '5,3')).toBe(false);
    expect(amountsMatch('5,3%', '5,4%')).toBe(false);
    expect(amountsMatch('tanpa angka', '5,4%')).toBe(false);
  });
});

describe('numeric fidelity with rounded figures', () => {
  const source =
    'Dana Alokasi Khusus sebesar Rp222.506.897.630.000,00 (dua ratus dua puluh dua triliun ...).';
  it('supports a claim that rounds the source figure within its precision', () => {
    expect(unsupportedFigures('DAK sebesar Rp222,5 triliun [1].', [source])).toEqual([]);
  });
  it('flags a figure outside the precision', () => {
    expect(unsupportedFigures('DAK sebesar Rp223 triliun [1].', [source]).map((f) => f.raw)).toEqual([
      '223 triliun',
    ]);
    expect(unsupportedFigures('DAK sebesar Rp222,4 triliun.', [source]).length).toBe(1);
  });
});
