import { describe, expect, it } from 'vitest';
import { measureOfSubject, measuresIn } from './measures.js';

describe('measuresIn', () => {
  it.each([
    ['berapa pendapatan negara tahun 2020', ['pendapatan_negara']],
    ['Penerimaan Negara Bukan Pajak 2019', ['penerimaan_negara_bukan_pajak']],
    ['defisit anggaran dan dana desa', ['defisit', 'dana_desa']],
    ['how much is the village fund', ['dana_desa']],
    ['state revenue and state spending in 2018', ['pendapatan_negara', 'belanja_negara']],
    ['gaji presiden', []],
    ['Pendapatan cukai tahun 2018 dan 2019', ['cukai']],
    ['DAU (Dana Alokasi Umum) 2023 dianggarkan berapa?', ['dana_alokasi_umum']],
    ['anggaran transfer ke daerah dan dana desa 2017', ['transfer_ke_daerah_dan_dana_desa']],
    ['transfer ke daerah 2019', ['transfer_ke_daerah']],
    ['berapa PPh 2023', ['pajak_penghasilan']],
    ['pajak penghasilan dan pajak pertambahan nilai', ['pajak_penghasilan', 'pajak_pertambahan_nilai']],
    ['brp utang pemerintah 2022', ['pembiayaan_utang']],
    ['pembiayaan anggaran 2023', ['pembiayaan']],
  ])('%s', (text, measures) => expect(measuresIn(text).sort()).toEqual([...measures].sort()));
});

describe('measureOfSubject', () => {
  it.each([
    ['Anggaran Pendapatan Negara', 'pendapatan_negara'],
    ['Anggaran Belanja Negara', 'belanja_negara'],
    ['total anggaran Belanja Negara', 'belanja_negara'],
    ['Penerimaan Perpajakan', 'penerimaan_perpajakan'],
    ['PNBP', 'penerimaan_negara_bukan_pajak'],
    ['Penerimaan Hibah', 'hibah'],
    ['Program Pengelolaan Subsidi', 'subsidi'],
    ['Anggaran Pendidikan', 'anggaran_pendidikan'],
    ['defisit anggaran', 'defisit'],
    ['anggaran defisit', 'defisit'],
    ['Pembiayaan Anggaran', 'pembiayaan'],
    ['Anggaran Transfer ke Daerah dan Dana Desa', 'transfer_ke_daerah_dan_dana_desa'],
    ['Transfer ke Daerah', 'transfer_ke_daerah'],
    ['Dana Desa', 'dana_desa'],
    [
      'Pendapatan pajak pertambahan nilai barang dan jasa dan pajak penjualan atas barang mewah',
      'pajak_pertambahan_nilai',
    ],
    ['DAU', 'dana_alokasi_umum'],
    // Not the measure itself: a part, a kind, an item of it.
    ['DAK fisik', undefined],
    ['DAU tambahan', undefined],
    ['program pengelolaan hibah negara', undefined],
    ['Anggaran Belanja Pemerintah Pusat termasuk program pengelolaan hibah negara', undefined],
    ['bidang jalan', undefined],
    ['', undefined],
  ])('%s', (subject, measure) => expect(measureOfSubject(subject)).toBe(measure));
});
