import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../../ingest/chunk.js';
import {
  cleanRegulationText,
  legalCitationLabel,
  looksLikeRegulation,
  parseRegulation,
  regulationOutline,
  regulationShortName,
} from './legal-structure.js';

const corpora = path.resolve(import.meta.dirname, '../../../../../../shared/data/corpora');
const committed = path.resolve(import.meta.dirname, '../../../../../corpora');
const uu22 = readFileSync(path.join(corpora, 'uu-22-2009-llaj/uu-22-2009-llaj.fulltext.md'), 'utf8');

describe('legal structure of UU 22/2009', () => {
  const document = parseRegulation(uu22, 'uu-22-2009.md')!;
  const outline = regulationOutline(document);
  const pasal = (label: string) => outline.pasal.find((p) => p.label === label)!;

  it('recovers all 326 body Pasal, numbered 1..326 in order', () => {
    expect(outline.pasal.map((p) => p.label)).toEqual(Array.from({ length: 326 }, (_, i) => String(i + 1)));
    const headings = document.blocks.filter((b) => b.kind === 'heading' && b.level === 4);
    expect(headings).toHaveLength(326);
  });

  it('links the elucidation of all 326 Pasal back to them, and keeps the Penjelasan Umum', () => {
    expect(outline.pasal.every((p) => p.elucidation !== undefined)).toBe(true);
    expect(pasal('265').elucidation).toContain('insidental');
    expect(pasal('287').elucidation).toMatch(/^Cukup jelas/);
    expect(outline.penjelasanUmum).toMatch(/UMUM/);
    expect(outline.penjelasanUmum!.length).toBeGreaterThan(2_000);
  });

  it('finds the 22 BAB with their Bagian and Paragraf', () => {
    expect(outline.bab.map((b) => b.number)).toEqual([
      'I',
      'II',
      'III',
      'IV',
      'V',
      'VI',
      'VII',
      'VIII',
      'IX',
      'X',
      'XI',
      'XII',
      'XIII',
      'XIV',
      'XV',
      'XVI',
      'XVII',
      'XVIII',
      'XIX',
      'XX',
      'XXI',
      'XXII',
    ]);
    expect(outline.bab[19]!.title).toBe('KETENTUAN PIDANA');
    expect(pasal('106')).toMatchObject({ bab: 'IX', bagian: 'Keempat', paragraf: '1' });
    expect(pasal('267')).toMatchObject({ bab: 'XIX', bagian: 'Kedua', paragraf: '2' });
    expect(pasal('78').section_path.join(' > ')).toContain('Paragraf 2 Pendidikan dan Pelatihan Pengemudi');
  });

  it('spot-checks Pasal: first words, ayat and points', () => {
    const cases: [string, string, number][] = [
      ['1', 'Dalam Undang-Undang ini yang dimaksud dengan:', 0],
      ['77', '(1) Setiap orang yang mengemudikan Kendaraan Bermotor di Jalan wajib memiliki', 5],
      ['106', '(1) Setiap orang yang mengemudikan Kendaraan Bermotor di Jalan wajib mengemudikan', 9],
      ['264', 'Pemeriksaan Kendaraan Bermotor di Jalan dilakukan oleh:', 0],
      ['265', '(1) Pemeriksaan Kendaraan Bermotor di Jalan sebagaimana dimaksud dalam Pasal 264', 3],
      ['266', '(1) Pemeriksaan Kendaraan Bermotor di Jalan sebagaimana dimaksud dalam Pasal 265', 4],
      ['267', '(1) Setiap pelanggaran di bidang Lalu Lintas dan Angkutan Jalan', 5],
      ['268', '(1) Dalam hal putusan pengadilan menetapkan pidana denda lebih kecil', 2],
      ['287', '(1) Setiap orang yang mengemudikan Kendaraan Bermotor di Jalan yang melanggar', 6],
      ['291', '(1) Setiap orang yang mengemudikan Sepeda Motor tidak mengenakan helm', 2],
      ['326', 'Undang-Undang ini mulai berlaku pada tanggal diundangkan.', 0],
    ];
    for (const [label, start, ayat] of cases) {
      expect(pasal(label).text.startsWith(start), `Pasal ${label}`).toBe(true);
      expect(pasal(label).ayat.map((a) => a.number)).toEqual(
        Array.from({ length: ayat }, (_, i) => String(i + 1)),
      );
    }
    // Pasal 1: the 40 numbered definitions, in order, though several sat inside one line.
    expect(pasal('1').points.map((p) => p.label)).toEqual(
      Array.from({ length: 40 }, (_, i) => String(i + 1)),
    );
    expect(pasal('1').points[24]!.text).toMatch(/^25\. Penumpang adalah/);
    // Pasal 265 ayat (1): points a–e, "e." recovered from inside the line of "d.".
    expect(pasal('265').ayat[0]!.points.map((p) => `${p.kind}:${p.label}`)).toEqual([
      'huruf:a',
      'huruf:b',
      'huruf:c',
      'huruf:d',
      'huruf:e',
    ]);
    expect(pasal('106').ayat[3]!.points.map((p) => p.label)).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
      'g',
      'h',
    ]);
    // The closing formula and signatures are not part of Pasal 326.
    expect(pasal('326').text).not.toContain('Agar setiap orang mengetahuinya');
  });

  it('keeps Pasal 287 ayat (2) whole under BAB XX, without catchwords or separators', () => {
    const ayat = document.blocks.filter(
      (b) => b.legal?.pasal === '287' && !b.legal.penjelasan && b.kind === 'paragraph',
    );
    expect(ayat.map((b) => b.legal!.ayat)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(ayat[1]!.text).toContain('Alat Pemberi Isyarat Lalu Lintas');
    expect(ayat[1]!.text).toContain('Rp500.000,00');
    expect(ayat[1]!.legal!.bab).toBe('XX');
    const body = outline.pasal.map((p) => p.text).join('\n');
    expect(body).not.toMatch(/\.\.\.(\s|$)/);
    expect(body).not.toContain('__');
  });

  it('chunks one Pasal (or ayat) per chunk, never across two Pasal, long ones between lines', () => {
    const chunks = chunkDocument(document);
    const body = chunks.filter((c) => c.legal?.pasal !== undefined && !c.legal.penjelasan);
    expect(new Set(body.map((c) => c.legal!.pasal)).size).toBe(326);
    const elucidation = chunks.filter((c) => c.legal?.penjelasan && c.legal.pasal !== undefined);
    expect(new Set(elucidation.map((c) => c.legal!.pasal)).size).toBe(326);
    for (const chunk of body) {
      const headings = [...chunk.text.matchAll(/^Pasal (\d+)$/gm)].map((m) => m[1]);
      expect(headings.every((h) => h === chunk.legal!.pasal)).toBe(true);
      expect(chunk.section_path.at(-1)).toBe(`Pasal ${chunk.legal!.pasal}`);
      expect(chunk.legal!.bab).toBeDefined();
    }
    // Pasal 1 (40 definitions, no ayat) is over the budget: split between definitions.
    const pasal1 = body.filter((c) => c.legal!.pasal === '1');
    expect(pasal1.length).toBeGreaterThan(1);
    for (const piece of pasal1.slice(1)) expect(piece.text).toMatch(/^\d{1,2}\. [A-Z]/);
    expect(chunks.find((c) => c.legal?.pasal === '287' && c.legal.ayat === '2')!.text).toMatch(
      /^\(2\) Setiap orang/,
    );
  });
});

describe('UU APBN texts', () => {
  const expected: Record<string, number> = {
    'uu-2003-17.md': 39,
    'uu-2016-18.md': 44,
    'uu-2019-20.md': 48,
    'uu-2021-6.md': 49,
    'uu-2022-28.md': 55,
  };

  for (const directory of [path.join(corpora, 'apbn-uu'), path.join(committed, 'apbn-uu')]) {
    it(`parses every Pasal of the laws with clean OCR in order (${path.basename(path.dirname(directory))})`, () => {
      for (const [file, count] of Object.entries(expected)) {
        const outline = regulationOutline(
          parseRegulation(readFileSync(path.join(directory, file), 'utf8'), file)!,
        );
        expect(
          outline.pasal.map((p) => p.label),
          file,
        ).toEqual(Array.from({ length: count }, (_, i) => String(i + 1)));
      }
    });
  }

  it('reads an amending law (APBN-P 2015): Pasal I with the changed and inserted Pasal, then Pasal II', () => {
    const outline = regulationOutline(
      parseRegulation(readFileSync(path.join(committed, 'apbn-uu/uu-2015-3.md'), 'utf8'), 'uu-2015-3.md')!,
    );
    expect(outline.pasal.map((p) => p.label)).toEqual([
      'I',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
      '11',
      '12',
      '13',
      '17',
      '18',
      '23A',
      '23B',
      '31A',
      '32',
      'II',
    ]);
    const pasal18 = outline.pasal.find((p) => p.label === '18')!;
    expect(pasal18.text).toContain('Rp222.506.897.630.000,00');
    expect(outline.pasal.find((p) => p.label === '17')!.text).toContain('20,59%');
  });

  it('recovers OCR-garbled headings ("Pasal 2T", "Pasa1 4", "Pasal 1 0") and the budget figures', () => {
    const read = (file: string) =>
      regulationOutline(parseRegulation(readFileSync(path.join(committed, 'apbn-uu', file), 'utf8'), file)!);
    const uu2018 = read('uu-2018-12.md').pasal.map((p) => p.label);
    expect(uu2018).toHaveLength(47);
    expect(uu2018).toContain('27');
    const uu2017 = read('uu-2017-15.md');
    // Pasal 17 of UU 15/2017 has no heading left in the OCR text; the others are found in order.
    expect(uu2017.pasal).toHaveLength(45);
    for (const label of ['5', '20', '21', '42'])
      expect(uu2017.pasal.some((p) => p.label === label)).toBe(true);
    const uu2016 = read('uu-2016-18.md');
    expect(uu2016.pasal.find((p) => p.label === '4')!.text).toMatch(/^\(1\) Penerimaan Perpajakan/);
  });

  it('parses every file of the corpus', () => {
    for (const file of readdirSync(path.join(committed, 'apbn-uu')).filter((f) => f.endsWith('.md'))) {
      const document = parseRegulation(readFileSync(path.join(committed, 'apbn-uu', file), 'utf8'), file);
      expect(document, file).not.toBeNull();
      expect(regulationOutline(document!).pasal.length, file).toBeGreaterThan(15);
    }
  });
});

describe('detection and cleaning', () => {
  it('detects regulations and leaves other text alone', () => {
    expect(looksLikeRegulation(uu22)).toBe(true);
    expect(parseRegulation('# Redux\n\nA reducer is a function.\n', 'a.md')).toBeNull();
  });

  it('drops page-break catchwords and separators, and repairs OCR Pasal numbers', () => {
    expect(cleanRegulationText('rupiah). (3) Setiap... Pasal 292... kata __ lain')).toBe(
      'rupiah). kata lain',
    );
    expect(cleanRegulationText('Jalan. __ __ 25. Penumpang... lanjut')).toBe('Jalan. lanjut');
    expect(cleanRegulationText('Pasa1 4 (1) x. Pasal · 1 1 (1) y. Pasal l0 z. Pasal 23 B (1) w')).toBe(
      'Pasal 4 (1) x. Pasal 11 (1) y. Pasal 10 z. Pasal 23B (1) w',
    );
    expect(cleanRegulationText('menurut Pasal I dan ayat (l)')).toBe('menurut Pasal I dan ayat (1)');
  });

  it('reads a small Peraturan Pemerintah with inline headings and references', () => {
    const text = [
      'PERATURAN PEMERINTAH REPUBLIK INDONESIA NOMOR 5 TAHUN 2020 TENTANG CONTOH',
      'BAB I KETENTUAN UMUM',
      'Pasal 1',
      'Dalam Peraturan Pemerintah ini yang dimaksud dengan: 1. Kendaraan adalah alat. 2. Jalan adalah ruang.',
      'Pasal 2 (1) Setiap orang wajib tertib. (2) Ketentuan sebagaimana dimaksud dalam Pasal 3 ayat (1) berlaku.',
      'Pasal 3',
      '(1) Pengemudi wajib: a. membawa SIM; b. membawa STNK; dan c. memakai helm.',
      'BAB II KETENTUAN PENUTUP Pasal 4 Peraturan ini berlaku sejak diundangkan, sebagaimana dalam Pasal 5 Undang-Undang Nomor 1.',
      'Pasal 5',
      'Cukup.',
    ].join('\n');
    const outline = regulationOutline(parseRegulation(text, 'pp-5-2020.md')!);
    expect(outline.pasal.map((p) => p.label)).toEqual(['1', '2', '3', '4', '5']);
    expect(outline.pasal[0]!.points.map((p) => p.label)).toEqual(['1', '2']);
    expect(outline.pasal[1]!.ayat.map((a) => a.number)).toEqual(['1', '2']);
    expect(outline.pasal[2]!.ayat[0]!.points.map((p) => p.label)).toEqual(['a', 'b', 'c']);
    expect(outline.pasal[3]).toMatchObject({ bab: 'II' });
    expect(outline.pasal[3]!.text).toContain('Pasal 5 Undang-Undang Nomor 1');
  });
});

describe('citation labels', () => {
  it('derives short regulation names from titles and file names', () => {
    expect(regulationShortName('UU No. 22 Tahun 2009 tentang Lalu Lintas dan Angkutan Jalan')).toBe(
      'UU 22/2009',
    );
    expect(regulationShortName('UU No. 3 Tahun 2015 tentang Perubahan APBN TA 2015')).toBe('UU 3/2015');
    expect(regulationShortName('UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 15 TAHUN 2OI7 TENTANG APBN')).toBe(
      'UU 15/2017',
    );
    expect(regulationShortName('PERATURAN PEMERINTAH REPUBLIK INDONESIA NOMOR 55 TAHUN 2012')).toBe(
      'PP 55/2012',
    );
    expect(regulationShortName('Peraturan Presiden Nomor 98 Tahun 2021 tentang Nilai Ekonomi Karbon')).toBe(
      'Perpres 98/2021',
    );
    expect(regulationShortName('Peraturan Menteri Keuangan Nomor 201/PMK.07/2020 tentang DAK')).toBe(
      'PMK 201/PMK.07/2020',
    );
    expect(regulationShortName('Peraturan Kepolisian Negara Republik Indonesia Nomor 7 Tahun 2021')).toBe(
      'Perpol 7/2021',
    );
    expect(regulationShortName('Peraturan Menteri Perhubungan Nomor 12 Tahun 2019')).toBe('Permen 12/2019');
    expect(regulationShortName('UU 22/2009')).toBe('UU 22/2009');
    expect(regulationShortName('Anggaran', 'uu-2016-18.md')).toBe('UU 18/2016');
    expect(regulationShortName('', 'uu-22-2009-llaj.fulltext.md')).toBe('UU 22/2009');
    expect(regulationShortName('Redux: Writing Reducers', 'reducers.md')).toBeUndefined();
  });

  it('reads like "Pasal 287 ayat (2) UU 22/2009" and "Penjelasan Pasal 287 UU 22/2009"', () => {
    expect(legalCitationLabel({ pasal: '287', ayat: '2' }, 'UU 22/2009')).toBe(
      'Pasal 287 ayat (2) UU 22/2009',
    );
    expect(legalCitationLabel({ pasal: '287', penjelasan: true }, 'UU 22/2009')).toBe(
      'Penjelasan Pasal 287 UU 22/2009',
    );
    expect(legalCitationLabel({ pasal: '23B' }, undefined)).toBe('Pasal 23B');
    expect(legalCitationLabel({ penjelasan: true }, 'UU 22/2009')).toBeUndefined();
    expect(legalCitationLabel(null, 'UU 22/2009')).toBeUndefined();
  });

  it('names the general elucidation "Penjelasan Umum UU 12/2018", and nothing else without a Pasal', () => {
    expect(legalCitationLabel({ penjelasan: true }, 'UU 12/2018', ['Penjelasan', 'Umum'])).toBe(
      'Penjelasan Umum UU 12/2018',
    );
    expect(legalCitationLabel({ penjelasan: true }, undefined, ['Penjelasan', 'I. UMUM'])).toBe(
      'Penjelasan Umum',
    );
    expect(legalCitationLabel({ penjelasan: true }, 'UU 12/2018', ['Penjelasan', 'Pasal Demi Pasal'])).toBe(
      undefined,
    );
    expect(legalCitationLabel({}, 'UU 12/2018', ['Umum'])).toBeUndefined();
  });
});
