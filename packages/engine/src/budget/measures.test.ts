import { describe, expect, it } from 'vitest';
import { measuresIn } from './measures.js';

describe('measuresIn', () => {
  it.each([
    ['berapa pendapatan negara tahun 2020', ['pendapatan_negara']],
    ['Penerimaan Negara Bukan Pajak 2019', ['penerimaan_negara_bukan_pajak']],
    ['defisit anggaran dan dana desa', ['defisit', 'dana_desa']],
    ['how much is the village fund', ['dana_desa']],
    ['state revenue and state spending in 2018', ['pendapatan_negara', 'belanja_negara']],
    ['gaji presiden', []],
  ])('%s', (text, measures) => expect(measuresIn(text).sort()).toEqual([...measures].sort()));
});
