import { describe, expect, it } from 'vitest';
import { acceptedCitationLabels, citationLabel, regulationShortName } from './citation-label.js';

const UU22 = 'UU No. 22 Tahun 2009 tentang Lalu Lintas dan Angkutan Jalan';

describe('regulationShortName', () => {
  it('reads the kind, number and year of a title', () => {
    expect(regulationShortName(UU22)).toBe('UU 22/2009');
    expect(regulationShortName('UU No. 3 Tahun 2015 tentang Perubahan APBN TA 2015')).toBe('UU 3/2015');
    expect(regulationShortName('UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 15 TAHUN 2OI7 TENTANG APBN')).toBe(
      'UU 15/2017',
    );
    expect(regulationShortName('PERATURAN PEMERINTAH REPUBLIK INDONESIA NOMOR 55 TAHUN 2012')).toBe(
      'PP 55/2012',
    );
    // A ministry's numbering is kept as printed.
    expect(regulationShortName('Peraturan Menteri Keuangan Nomor 201/PMK.07/2020 tentang DAK')).toBe(
      'PMK 201/PMK.07/2020',
    );
    expect(
      regulationShortName(
        'PERATURAN MENTERI KEUANGAN REPUBLIK INDONESIA NOMOR 16/PMK.07/2014 TENTANG PERUBAHAN KEDUA ATAS PERATURAN MENTERI KEUANGAN NOMOR 20/PMK.07/2013',
      ),
    ).toBe('PMK 16/PMK.07/2014');
    expect(regulationShortName('PMK 16/2014')).toBe('PMK 16/2014');
    expect(regulationShortName('Peraturan Menteri Perhubungan Nomor 12 Tahun 2019')).toBe('Permen 12/2019');
    expect(regulationShortName('UU 22/2009')).toBe('UU 22/2009');
    // A scan's stray spaces in the number and the year.
    expect(
      regulationShortName('UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 1 8 TAHUN 20 1 6 TENTANG ANGGARAN'),
    ).toBe('UU 18/2016');
  });

  it('reads an elucidation published on its own, and a title that is a file name', () => {
    expect(regulationShortName('Penjelasan UU No. 22 Tahun 2009')).toBe('UU 22/2009');
    expect(regulationShortName('PENJELASAN ATAS UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 12 TAHUN 2018')).toBe(
      'UU 12/2018',
    );
    expect(regulationShortName('uu-2015-3')).toBe('UU 3/2015');
    expect(regulationShortName('uu-22-2009-llaj.fulltext')).toBe('UU 22/2009');
  });

  it('names nothing else', () => {
    expect(regulationShortName('Redux: Writing Reducers')).toBeUndefined();
    expect(regulationShortName('Anggaran tahun 2019')).toBeUndefined();
    expect(regulationShortName('')).toBeUndefined();
    expect(regulationShortName(42 as unknown as string)).toBeUndefined();
  });
});

describe('citationLabel', () => {
  it('reads "Pasal 287 ayat (2) UU 22/2009" from the Pasal, ayat and title', () => {
    expect(citationLabel({ document_title: UU22, pasal: '287', ayat: '2' })).toBe(
      'Pasal 287 ayat (2) UU 22/2009',
    );
    expect(citationLabel({ document_title: UU22, pasal: '23B' })).toBe('Pasal 23B UU 22/2009');
    expect(citationLabel({ document_title: 'Catatan rapat', pasal: '5' })).toBe('Pasal 5');
  });

  it('leads an elucidation with "Penjelasan"; the general one is "Penjelasan Umum"', () => {
    const sections = ['Penjelasan', 'Pasal demi Pasal', 'Pasal 287'];
    expect(citationLabel({ document_title: UU22, pasal: '287', section_path: sections })).toBe(
      'Penjelasan Pasal 287 UU 22/2009',
    );
    expect(
      citationLabel({ document_title: 'UU No. 12 Tahun 2018', section_path: ['Penjelasan', 'Umum'] }),
    ).toBe('Penjelasan Umum UU 12/2018');
    expect(citationLabel({ document_title: 'x', section_path: ['Penjelasan', 'I. UMUM'] })).toBe(
      'Penjelasan Umum',
    );
  });

  it('gives no label to a citation without a Pasal outside the general elucidation', () => {
    expect(citationLabel({ document_title: UU22 })).toBeUndefined();
    expect(citationLabel({ document_title: 'Redux', section_path: ['Guides', 'Reducers'] })).toBeUndefined();
    expect(
      citationLabel({ document_title: UU22, section_path: ['Penjelasan', 'Pasal demi Pasal'] }),
    ).toBeUndefined();
    expect(citationLabel({ document_title: UU22, section_path: ['BAB I', 'Umum'] })).toBeUndefined();
  });
});

describe('acceptedCitationLabels', () => {
  it('accepts the label of certificates made before a ministry numbering was kept, after the current one', () => {
    const title =
      'PERATURAN MENTERI KEUANGAN REPUBLIK INDONESIA NOMOR 186/PMK.07/2011 TENTANG PERKIRAAN ALOKASI';
    expect(acceptedCitationLabels({ document_title: title, pasal: '2', ayat: '2' })).toEqual([
      'Pasal 2 ayat (2) PMK 186/PMK.07/2011',
      'Pasal 2 ayat (2) PMK 186/2011',
    ]);
    expect(acceptedCitationLabels({ document_title: UU22, pasal: '287' })).toEqual(['Pasal 287 UU 22/2009']);
    expect(acceptedCitationLabels({ document_title: title, section_path: ['Pembukaan'] })).toEqual([]);
  });
});
