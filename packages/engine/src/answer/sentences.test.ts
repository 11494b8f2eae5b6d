import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitSentences } from './sentences.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const LLAJ = path.resolve(repoRoot, '../shared/data/corpora/uu-22-2009-llaj/uu-22-2009-llaj.fulltext.md');

function texts(text: string): string[] {
  return splitSentences(text).map((sentence) => sentence.text);
}

function expectExactOffsets(text: string): void {
  for (const sentence of splitSentences(text)) {
    expect(text.slice(sentence.start, sentence.end)).toBe(sentence.text);
    expect(sentence.text).toBe(sentence.text.trim());
  }
}

describe('splitSentences', () => {
  it('splits plain Indonesian and English prose', () => {
    expect(texts('Anggaran naik. Belanja turun! Apakah cukup? Ya.')).toEqual([
      'Anggaran naik.',
      'Belanja turun!',
      'Apakah cukup?',
      'Ya.',
    ]);
    expect(texts('A reducer is a function. It returns the new state.')).toEqual([
      'A reducer is a function.',
      'It returns the new state.',
    ]);
  });

  it('does not split at abbreviations', () => {
    expect(texts('Surat Kep. No. 5 dikirim ke Yth. Bpk. Prof. Dr. Budi, dll. Surat itu sah.')).toEqual([
      'Surat Kep. No. 5 dikirim ke Yth. Bpk. Prof. Dr. Budi, dll. Surat itu sah.',
    ]);
    expect(texts('Berlaku tanggal 1 s.d. 31 Januari, a.n. Menteri, u.p. Direktur, hlm. 4. Selesai.')).toEqual(
      ['Berlaku tanggal 1 s.d. 31 Januari, a.n. Menteri, u.p. Direktur, hlm. 4.', 'Selesai.'],
    );
    expect(
      texts('Use a store, e.g. Redux, i.e. one store, etc. Mr. Smith agrees. J. R. R. Tolkien wrote.'),
    ).toEqual(['Use a store, e.g. Redux, i.e. one store, etc. Mr. Smith agrees.', 'J. R. R. Tolkien wrote.']);
    expect(texts('Harganya Rp. 5.000 saja. Murah.')).toEqual(['Harganya Rp. 5.000 saja.', 'Murah.']);
  });

  it('keeps Indonesian and English number formats whole', () => {
    const text =
      'Pendapatan negara Rp1.761.642.817.235.000,00 tahun ini. Naik 3.5 persen atau 1,761.6 trillion. Lalu 2,5% lagi.';
    expect(texts(text)).toEqual([
      'Pendapatan negara Rp1.761.642.817.235.000,00 tahun ini.',
      'Naik 3.5 persen atau 1,761.6 trillion.',
      'Lalu 2,5% lagi.',
    ]);
  });

  it('does not split at single letters, list numbers or ellipses', () => {
    expect(texts('Sebagaimana dimaksud pada huruf a. Dan seterusnya.')).toEqual([
      'Sebagaimana dimaksud pada huruf a. Dan seterusnya.',
    ]);
    expect(texts('Tunggu... Nanti dulu. Lalu… Selesai.')).toEqual([
      'Tunggu... Nanti dulu.',
      'Lalu… Selesai.',
    ]);
    expect(texts('1. Lalu Lintas adalah gerak Kendaraan.\n2. Angkutan adalah perpindahan orang.')).toEqual([
      '1. Lalu Lintas adalah gerak Kendaraan.',
      '2. Angkutan adalah perpindahan orang.',
    ]);
    expect(texts('Diatur dalam Pasal 5 ayat 3. Ketentuan lain menyusul.')).toEqual([
      'Diatur dalam Pasal 5 ayat 3.',
      'Ketentuan lain menyusul.',
    ]);
  });

  it('splits at list items and ayat on their own lines, and keeps (dua) whole', () => {
    const text =
      'Pasal 287\n(1) Setiap orang dipidana paling lama 2 (dua) bulan atau denda paling banyak Rp500.000,00 (lima ratus ribu rupiah).\n(2) Setiap orang lain dipidana paling lama 1 (satu) bulan.';
    expect(texts(text)).toEqual([
      'Pasal 287',
      '(1) Setiap orang dipidana paling lama 2 (dua) bulan atau denda paling banyak Rp500.000,00 (lima ratus ribu rupiah).',
      '(2) Setiap orang lain dipidana paling lama 1 (satu) bulan.',
    ]);
    expect(texts('Menimbang:\na. bahwa jalan penting;\nb. bahwa perlu diatur;')).toEqual([
      'Menimbang:',
      'a. bahwa jalan penting;',
      'b. bahwa perlu diatur;',
    ]);
  });

  it('treats a single newline as a soft wrap and a blank line as a paragraph break', () => {
    const text = 'This paragraph is\nwrapped over lines. Second sentence\n\nNew paragraph without a period';
    expect(texts(text)).toEqual([
      'This paragraph is\nwrapped over lines.',
      'Second sentence',
      'New paragraph without a period',
    ]);
  });

  it('handles Markdown: headings, bullets, quotes after periods, fenced code', () => {
    const text = [
      '## Reducers',
      '',
      'A **reducer** is a function. He said "Stop." Then he left.',
      '',
      '- They should only calculate state.',
      '- They must not mutate. Ever.',
      '',
      '```js',
      'const a = 1. toString(); // Not. Split.',
      '```',
      '(See the note. It matters.) Next one.',
    ].join('\n');
    expect(texts(text)).toEqual([
      '## Reducers',
      'A **reducer** is a function.',
      'He said "Stop."',
      'Then he left.',
      'They should only calculate state.',
      'They must not mutate.',
      'Ever.',
      '```js\nconst a = 1. toString(); // Not. Split.\n```',
      '(See the note. It matters.)',
      'Next one.',
    ]);
    expectExactOffsets(text);
  });

  it('returns nothing for empty or wordless text', () => {
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences('  \n\n __ \n---\n')).toEqual([]);
  });

  it('gives exact offsets on the UU 22/2009 text and keeps each ayat whole', () => {
    const text = readFileSync(LLAJ, 'utf8');
    const sentences = splitSentences(text);
    expectExactOffsets(text.slice(0, 50_000));
    const ayat2 = sentences.find((sentence) =>
      sentence.text.startsWith(
        '(2) Setiap orang yang mengemudikan Kendaraan Bermotor di Jalan yang melanggar aturan perintah atau larangan yang dinyatakan dengan Alat Pemberi Isyarat',
      ),
    );
    expect(ayat2?.text.endsWith('Rp500.000,00 (lima ratus ribu rupiah).')).toBe(true);
    expect(text.slice(ayat2!.start, ayat2!.end)).toBe(ayat2!.text);
  });

  it('stays linear on hostile input', () => {
    const hostile = `${'a.'.repeat(100_000)} ${'(x. Y. '.repeat(20_000)} ${'1.'.repeat(50_000)}`;
    const sentences = splitSentences(hostile);
    expect(sentences.length).toBeGreaterThan(0);
    for (const sentence of sentences) expect(hostile.slice(sentence.start, sentence.end)).toBe(sentence.text);
  });
});
