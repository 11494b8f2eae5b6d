/**
 * Regulations read from a PDF's or Word document's blocks (docs/engine.md, "Regulations"): found by
 * their content whatever their first line says, parsed with their pages, tables and an amending
 * regulation's Roman Pasal, and named by their identity (regulation-identity.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { citationLabel } from '@saksi/proof';
import { describe, expect, it } from 'vitest';
import { extractDocument } from '../../ingest/extract.js';
import type { Block } from '../../types.js';
import { looksLikeRegulation, parseRegulationBlocks } from './legal-structure.js';
import { regulationIdentity } from './regulation-identity.js';

const paragraph = (page: number, text: string): Block => ({
  kind: 'paragraph',
  text,
  section_path: [],
  page,
});

/** An amending PMK as a PDF's layout gives it: a gazette header first, running headers, a table. */
const amendingPmk: Block[] = [
  { kind: 'heading', level: 1, text: 'BERITA NEGARA REPUBLIK INDONESIA', section_path: [], page: 1 },
  paragraph(1, 'No.128, 2014 KEMENKEU. Dana Bagi Hasil. Kehutanan.'),
  paragraph(
    1,
    'PERATURAN MENTERI KEUANGAN REPUBLIK INDONESIA\nNOMOR 16/PMK.07/2014\nTENTANG\nPERUBAHAN ATAS PERATURAN MENTERI KEUANGAN\nNOMOR 20/PMK.07/2013 TENTANG PERKIRAAN ALOKASI DANA BAGI\nHASIL KEHUTANAN TAHUN ANGGARAN 2013',
  ),
  paragraph(1, 'DENGAN RAHMAT TUHAN YANG MAHA ESA\nMENTERI KEUANGAN REPUBLIK INDONESIA,'),
  paragraph(1, 'Menimbang : a. bahwa perlu dilakukan perubahan perkiraan alokasi;'),
  paragraph(2, '2014, No.128 2'),
  paragraph(2, 'Mengingat : Peraturan Menteri Keuangan Nomor 20/PMK.07/2013;'),
  paragraph(
    2,
    'MEMUTUSKAN:\nMenetapkan : PERATURAN MENTERI KEUANGAN TENTANG PERUBAHAN ATAS PERATURAN MENTERI KEUANGAN.',
  ),
  paragraph(
    2,
    'Pasal I\nBeberapa ketentuan diubah sebagai berikut:\n1. Ketentuan Pasal 2 diubah sehingga berbunyi sebagai berikut:',
  ),
  paragraph(
    2,
    'Pasal 2\n(1) Perkiraan alokasi Tahun Anggaran 2013 adalah sebesar Rp1.258.156.181.722,00 dengan rincian:',
  ),
  paragraph(2, 'a. Iuran Izin Usaha Pemanfaatan Hutan (IIUPH) sebesar'),
  paragraph(3, '- 3 -'),
  paragraph(
    3,
    'Rp32.237.776.417,00 (tiga puluh dua miliar rupiah); dan\nb. Dana Reboisasi sebesar Rp559.960.013.146,00 yang dise-',
  ),
  paragraph(
    3,
    'rahkan kepada daerah penghasil sesuai peraturan perundang-\nundangan dan pertanggung-\njawaban masing-\nmasing.',
  ),
  {
    kind: 'table',
    text: 'NO. DAERAH ALOKASI\n1 Kab. Aceh Barat 12.700.234',
    html: '<table><tr><td>1</td><td>Kab. Aceh Barat</td><td>12.700.234</td></tr></table>',
    section_path: [],
    page: 3,
  },
  paragraph(3, '(2) Rincian tercantum dalam Lampiran.'),
  paragraph(3, '2. Ketentuan Pasal 3 dihapus.'),
  paragraph(3, 'Pasal II\nPeraturan Menteri ini mulai berlaku pada tanggal diundangkan.'),
  paragraph(
    4,
    'Agar setiap orang mengetahuinya, memerintahkan pengundangan Peraturan Menteri ini.\nDitetapkan di Jakarta',
  ),
];

describe('regulations from blocks with pages', () => {
  const document = parseRegulationBlocks(amendingPmk, 'BN-128.pdf')!;
  const find = (text: string) => document.blocks.find((block) => block.text.includes(text));

  it('is found by its content, after a gazette header, and named by its title block', () => {
    expect(document).not.toBeNull();
    expect(document.title).toBe(
      'PERATURAN MENTERI KEUANGAN REPUBLIK INDONESIA NOMOR 16/PMK.07/2014 TENTANG PERUBAHAN ATAS PERATURAN MENTERI KEUANGAN NOMOR 20/PMK.07/2013 TENTANG PERKIRAAN ALOKASI DANA BAGI HASIL KEHUTANAN TAHUN ANGGARAN 2013',
    );
    expect(document.metadata).toEqual({
      document_type: 'PMK',
      regulation_number: '16/PMK.07/2014',
      regulation_year: 2014,
      fiscal_year: 2013,
    });
    expect(citationLabel({ document_title: document.title, pasal: '2', ayat: '1' })).toBe(
      'Pasal 2 ayat (1) PMK 16/PMK.07/2014',
    );
  });

  it('keeps the Roman Pasal of the amending regulation and puts each numbered change under it', () => {
    const pasal = document.blocks.filter((block) => block.kind === 'heading').map((block) => block.text);
    expect(pasal).toEqual(['Pasal I', 'Pasal 2', 'Pasal II']);
    expect(find('1. Ketentuan Pasal 2 diubah')?.legal).toEqual({ pasal: 'I' });
    // The next change is the amending Pasal's text again, not the end of the quoted Pasal 2.
    expect(find('2. Ketentuan Pasal 3 dihapus')?.legal).toEqual({ pasal: 'I' });
    expect(find('(2) Rincian')?.legal).toEqual({ pasal: '2', ayat: '2' });
    expect(find('mulai berlaku')?.legal).toEqual({ pasal: 'II' });
  });

  it('keeps pages and joins a sentence across a page break without its page number or header', () => {
    const ayat = find('(1) Perkiraan alokasi')!;
    expect(ayat.page).toBe(2);
    expect(ayat.legal).toEqual({ pasal: '2', ayat: '1' });
    // One line per item again, as a text regulation has it: the item runs to its figure.
    expect(ayat.text.split('\n')).toContain(
      'a. Iuran Izin Usaha Pemanfaatan Hutan (IIUPH) sebesar Rp32.237.776.417,00 (tiga puluh dua miliar rupiah); dan',
    );
    // A word hyphenated at a line end is one word again; a compound keeps its hyphen.
    expect(ayat.text).toContain(
      'yang diserahkan kepada daerah penghasil sesuai peraturan perundang-undangan dan pertanggungjawaban masing-masing.',
    );
    expect(document.blocks.some((block) => /- 3 -|2014, No\.128 2/.test(block.text))).toBe(false);
    // The preamble is one block per part, each with its page.
    expect(find('DENGAN RAHMAT')?.text).toBe(
      'DENGAN RAHMAT TUHAN YANG MAHA ESA\nMENTERI KEUANGAN REPUBLIK INDONESIA,',
    );
    expect(find('Menimbang')?.page).toBe(1);
    expect(find('Mengingat')?.page).toBe(2);
    expect(find('Mengingat')?.section_path).toEqual(['Pembukaan']);
    expect(find('mulai berlaku')?.page).toBe(3);
    expect(find('Agar setiap orang')?.page).toBe(4);
  });

  it('keeps a table as a table under the ayat it sits in', () => {
    const table = document.blocks.find((block) => block.kind === 'table')!;
    expect(table).toMatchObject({ page: 3, legal: { pasal: '2', ayat: '1' }, section_path: ['Pasal 2'] });
    expect(table.html).toContain('Kab. Aceh Barat');
  });

  it('reads a Word document the same way: blocks without pages give blocks without pages', () => {
    const word = amendingPmk.map(({ page: _page, ...block }) => block);
    const parsed = parseRegulationBlocks(word, 'pmk-16.docx')!;
    expect(parsed.title).toBe(document.title);
    expect(parsed.blocks.filter((block) => block.kind === 'heading').map((block) => block.text)).toEqual([
      'Pasal I',
      'Pasal 2',
      'Pasal II',
    ]);
    expect(parsed.blocks.every((block) => block.page === undefined)).toBe(true);
  });

  it('leaves a document that only cites regulations alone', () => {
    const memo = [
      paragraph(
        1,
        'Nota Dinas\nSesuai Peraturan Menteri Keuangan Nomor 20/PMK.07/2013, Pasal 2 mengatur alokasi.',
      ),
      paragraph(1, 'Pasal 5\nLihat lampiran.'),
    ];
    expect(parseRegulationBlocks(memo, 'nota.pdf')).toBeNull();
    expect(
      looksLikeRegulation(
        'BERITA NEGARA\nPERATURAN PEMERINTAH REPUBLIK INDONESIA\nNOMOR 5 TAHUN 2020\nTENTANG X\nPasal 1\nIsi.',
      ),
    ).toBe(false);
    expect(
      looksLikeRegulation(
        'BERITA NEGARA\nPERATURAN PEMERINTAH REPUBLIK INDONESIA\nNOMOR 5 TAHUN 2020\nTENTANG X\nDENGAN RAHMAT TUHAN YANG MAHA ESA\nMenimbang : a. bahwa;\nPasal 1\nIsi.',
      ),
    ).toBe(true);
  });
});

describe('regulation identity', () => {
  it('reads kind, number, year and fiscal year from a title block anywhere near the top', () => {
    expect(
      regulationIdentity(
        'SALINAN\nUNDANG-UNDANG REPUBLIK INDONESIA\nNOMOR 22 TAHUN 2009\nTENTANG\nLALU LINTAS DAN ANGKUTAN JALAN\nDENGAN RAHMAT TUHAN YANG MAHA ESA',
      ),
    ).toEqual({
      title: 'UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 22 TAHUN 2009 TENTANG LALU LINTAS DAN ANGKUTAN JALAN',
      type: 'UU',
      number: '22',
      year: 2009,
    });
    // A scan's struck-through year ("20142013") reads as the year printed first.
    expect(
      regulationIdentity(
        'PERATURAN MENTERI KEUANGAN REPUBLIK INDONESIA\nNOMOR 16/PMK.07/20142013\nTENTANG\nALOKASI TAHUN ANGGARAN 2013',
      ),
    ).toMatchObject({
      title:
        'PERATURAN MENTERI KEUANGAN REPUBLIK INDONESIA NOMOR 16/PMK.07/2014 TENTANG ALOKASI TAHUN ANGGARAN 2013',
      number: '16/PMK.07/2014',
      year: 2014,
      fiscalYear: 2013,
    });
    expect(
      regulationIdentity(
        '# PERATURAN PEMERINTAH REPUBLIK INDONESIA NOMOR 55 TAHUN 2005 TENTANG DANA PERIMBANGAN',
      ),
    ).toMatchObject({ type: 'PP', number: '55', year: 2005 });
  });

  it('finds none in running text that names a regulation', () => {
    expect(
      regulationIdentity('Menimbang bahwa Peraturan Menteri Keuangan Nomor 19/PMK.07/2011 perlu diubah;'),
    ).toBeUndefined();
    expect(
      regulationIdentity(
        'PERATURAN MENTERI KEUANGAN TENTANG PERUBAHAN ATAS PERATURAN MENTERI KEUANGAN NOMOR 19/PMK.07/2011',
      ),
    ).toBeUndefined();
  });
});

describe('a real PMK PDF', () => {
  it('reads PMK 186/PMK.07/2011: its Pasal, pages and identity', async () => {
    const file = '2011_PMK_186.pdf';
    const bytes = new Uint8Array(
      readFileSync(
        path.resolve(import.meta.dirname, '../../../../../../shared/data/corpora/pmk-transfer-pdf', file),
      ),
    );
    const { summary, chunks } = await extractDocument(
      { bytes, filename: file },
      { maxBytes: 10_000_000, maxChunks: 1_000, maxTextChars: 1_000_000 },
    );
    expect(summary.metadata).toMatchObject({
      document_type: 'PMK',
      regulation_number: '186/PMK.07/2011',
      regulation_year: 2011,
      fiscal_year: 2011,
    });
    const labels = chunks.map((chunk) =>
      citationLabel({
        document_title: summary.title,
        ...(chunk.legal?.pasal ? { pasal: chunk.legal.pasal } : {}),
        ...(chunk.legal?.ayat ? { ayat: chunk.legal.ayat } : {}),
      }),
    );
    expect(labels).toContain('Pasal 1 ayat (4) PMK 186/PMK.07/2011');
    expect(labels).toContain('Pasal II PMK 186/PMK.07/2011');
    const iiuph = chunks.find((chunk) => chunk.text.includes('(IIUPH) sebesar Rp61.329.535.187,00'))!;
    expect(iiuph).toMatchObject({ page: 1, legal: { pasal: '1', ayat: '4' } });
    expect(chunks.every((chunk) => chunk.page !== undefined)).toBe(true);
  });
});
