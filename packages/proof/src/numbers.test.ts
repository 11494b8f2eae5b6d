import { describe, expect, it } from 'vitest';
import { extractFigures, unsupportedFigures } from './numbers.js';

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
