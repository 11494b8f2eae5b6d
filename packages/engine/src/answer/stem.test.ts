import { describe, expect, it } from 'vitest';
import { contentWords, foldText, isStopword, stemWord, tokenize } from './stem.js';

function stems(words: string, language: 'id' | 'en'): string[] {
  return words.split(' ').map((word) => stemWord(word, language));
}

describe('Indonesian stemming', () => {
  it('brings related forms to one stem', () => {
    expect(stemWord('mengemudikan', 'id')).toBe('emudi');
    expect(stemWord('pengemudi', 'id')).toBe(stemWord('mengemudikan', 'id'));
    expect(stemWord('mengemudi', 'id')).toBe(stemWord('mengemudikan', 'id'));
    expect(stemWord('pengemudinya', 'id')).toBe(stemWord('mengemudikan', 'id'));
    expect(stems('pelanggaran melanggar', 'id')).toEqual(['langgar', 'langgar']);
    expect(stemWord('kendaraan', 'id')).toBe('kendara');
    expect(stemWord('berlalu', 'id')).toBe('lalu');
    expect(stems('peraturan mengatur diatur pengaturan aturan', 'id')).toEqual(Array(5).fill('atur'));
    expect(stems('ketentuan menentukan tertentu', 'id')).toEqual(Array(3).fill('tentu'));
    expect(stems('memberi pemberi memberikan diberikan', 'id')).toEqual(Array(4).fill('beri'));
    expect(stems('memenuhi pemenuhan', 'id')).toEqual(['penuh', 'penuh']);
    expect(stems('penyidik penyidikan', 'id')).toEqual(['sidik', 'sidik']);
    expect(stems('menggunakan penggunaan', 'id')).toEqual(['guna', 'guna']);
    expect(stems('pekerja bekerja', 'id')).toEqual(['kerja', 'kerja']);
    expect(stems('kewajiban mewajibkan', 'id')).toEqual(['wajib', 'wajib']);
    expect(stems('pejalan jalan perjalanan', 'id')).toEqual(['jalan', 'jalan', 'jalan']);
  });

  it('applies the nasal substitution rules', () => {
    expect(stemWord('menulis', 'id')).toBe('tulis');
    expect(stemWord('memakai', 'id')).toBe('pakai');
    expect(stemWord('menyusun', 'id')).toBe('susun');
    expect(stemWord('pembangunan', 'id')).toBe('bangun');
    expect(stemWord('pendapatan', 'id')).toBe('dapat');
    expect(stemWord('kecelakaan', 'id')).toBe('celaka');
    expect(stemWord('persyaratan', 'id')).toBe('syarat');
  });

  it('removes particles and possessives only where they are not part of the root', () => {
    expect(stemWord('berapakah', 'id')).toBe('berapa');
    expect(stemWord('apapun', 'id')).toBe('apa');
    expect(stemWord('mobilku', 'id')).toBe('mobil');
    expect(stemWord('lainnya', 'id')).toBe('lain');
    expect(stemWord('langkah', 'id')).toBe('langkah');
    expect(stemWord('masalah', 'id')).toBe('masalah');
    expect(stemWord('berlaku', 'id')).toBe('laku');
    expect(stemWord('menghimpun', 'id')).toBe('himpun');
  });

  it('never leaves fewer than four letters and leaves roots that only look prefixed', () => {
    for (const word of ['jalan', 'bulan', 'perlu', 'kemudi', 'pidana', 'denda', 'terang', 'bersih', 'diri']) {
      expect(stemWord(word, 'id')).toBe(word);
    }
    for (const word of ['mengemudikan', 'pelanggaran', 'ketertiban', 'keberangkatan', 'dipergunakan']) {
      expect(stemWord(word, 'id').length).toBeGreaterThanOrEqual(4);
    }
  });
});

describe('English stemming', () => {
  it('folds inflections', () => {
    expect(stems('reducers reducer', 'en')).toEqual(['reducer', 'reducer']);
    expect(stems('reduce reduced reducing', 'en')).toEqual(['reduc', 'reduc', 'reduc']);
    expect(stems('use used uses using', 'en')).toEqual(['use', 'use', 'use', 'use']);
    expect(stems('running stopped called', 'en')).toEqual(['run', 'stop', 'call']);
    expect(stems('libraries boxes matches', 'en')).toEqual(['library', 'box', 'match']);
    expect(stems('status process string thing need', 'en')).toEqual([
      'status',
      'process',
      'string',
      'thing',
      'need',
    ]);
  });
});

describe('contentWords', () => {
  it('drops stopwords and question words, keeps digits, stems the rest', () => {
    expect(contentWords('Berapa denda melanggar Alat Pemberi Isyarat Lalu Lintas?', 'id')).toEqual([
      'denda',
      'langgar',
      'alat',
      'beri',
      'isyarat',
      'lalu',
      'lintas',
    ]);
    expect(contentWords('Apa isi Pasal 287 ayat (2)?', 'id')).toEqual(['isi', 'pasal', '287', 'ayat', '2']);
    expect(contentWords('What does a reducer receive and return?', 'en')).toEqual([
      'reducer',
      'receiv',
      'return',
    ]);
  });

  it('treats negations as stopwords (entailment handles them separately)', () => {
    expect(contentWords('tidak dipidana', 'id')).toEqual(['pidana']);
    expect(contentWords("doesn't mutate, never", 'en')).toEqual(['mutat']);
    expect(isStopword('tidak', 'id')).toBe(true);
    expect(isStopword('not', 'en')).toBe(true);
  });

  it('folds case and diacritics', () => {
    expect(foldText('Café NAÏVE ﬁle')).toBe('cafe naive file');
    expect(tokenize('Rp500.000,00 Undang-Undang dan/atau')).toEqual([
      'rp',
      '500',
      '000',
      '00',
      'undang',
      'undang',
      'dan',
      'atau',
    ]);
  });
});
