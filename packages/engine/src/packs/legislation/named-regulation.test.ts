import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retrieveForQuestion } from '../../retrieve/plan.js';
import { namedPasal } from '../../retrieve/retrieve.js';
import { type DocumentIdentity, isNamed, namedRegulations } from './named-regulation.js';

describe('the Pasal a question names', () => {
  it('reads Arabic and Roman numbers, with a letter, upper case', () => {
    expect(namedPasal('apa isi pasal 287 ayat (5) dan Pasal 5a?')).toEqual(['287', '5A']);
    expect(namedPasal('Apa yang diubah dalam Pasal I PMK 16/PMK.07/2014?')).toEqual(['I']);
    expect(namedPasal('dendanya berapa kalau ngelanggar?')).toEqual([]);
  });
});

describe('regulations a question names by number', () => {
  it.each([
    ['Berapa DAU menurut PMK 186/PMK.07/2011?', [{ number: '186', year: 2011, kind: 'pmk' }]],
    ['apa isi pasal 5 uu no. 22 tahun 2009', [{ number: '22', year: 2009, kind: 'uu' }]],
    ['Dendanya menurut UU 22/2009 berapa?', [{ number: '22', year: 2009, kind: 'uu' }]],
    ['PP nomor 55 tahun 2012 mengatur apa', [{ number: '55', year: 2012, kind: 'pp' }]],
    ['Menurut Undang-Undang Nomor 17 Tahun 2003', [{ number: '17', year: 2003, kind: 'uu' }]],
    ['Peraturan Nomor 77 Tahun 2016 itu tentang apa', [{ number: '77', year: 2016 }]],
    [
      'Apa beda Perpres 12 dan PMK 79/PMK.07/2014?',
      [
        { number: '79', year: 2014, kind: 'pmk' },
        { number: '12', kind: 'perpres' },
      ],
    ],
  ])('%s', (question, expected) => {
    expect(namedRegulations(question)).toEqual(expected);
  });

  it('reads no regulation in amounts, years or Pasal numbers alone', () => {
    for (const question of [
      'Berapa belanja negara tahun 2020?',
      'Pasal 287 ayat (2) dendanya Rp500.000',
      'Apa syarat umur 17 tahun untuk SIM?',
      'what does version 2/2024 change',
    ])
      expect(namedRegulations(question), question).toEqual([]);
  });

  it('matches a document by its own number, year and kind', () => {
    const pmk: DocumentIdentity = { id: 'a', number: '186/PMK.07/2011', year: 2011, kind: 'PMK' };
    const uu: DocumentIdentity = { id: 'b', number: '22', year: 2009, kind: 'UU' };
    expect(isNamed(pmk, { number: '186', year: 2011, kind: 'pmk' })).toBe(true);
    expect(isNamed(pmk, { number: '186' })).toBe(true);
    expect(isNamed(pmk, { number: '186', year: 2012 })).toBe(false);
    expect(isNamed(pmk, { number: '18', year: 2011 })).toBe(false);
    expect(isNamed(pmk, { number: '186', kind: 'pp' })).toBe(false);
    expect(isNamed(uu, { number: '22', year: 2009, kind: 'uu' })).toBe(true);
    expect(isNamed(uu, { number: '22', kind: 'perpres' })).toBe(false);
    // An agency's own code in its numbering names its kind, whatever the kind is recorded as.
    expect(
      isNamed({ id: 'c', number: '77/POJK.01/2016', year: 2016, kind: null }, { number: '77', kind: 'pojk' }),
    ).toBe(true);
  });
});

/** A small regulation as the UU 12/2011 conventions draft it; two of them differ in number and tariff. */
function regulation(number: string, tariff: string): string {
  return [
    'PERATURAN MENTERI KEUANGAN REPUBLIK INDONESIA',
    `NOMOR ${number}`,
    'TENTANG',
    'TARIF LAYANAN PENGUJIAN',
    'DENGAN RAHMAT TUHAN YANG MAHA ESA',
    'MENTERI KEUANGAN REPUBLIK INDONESIA,',
    'Menimbang : bahwa tarif layanan pengujian perlu ditetapkan;',
    'Mengingat : Undang-Undang Nomor 17 Tahun 2003 tentang Keuangan Negara;',
    'MEMUTUSKAN:',
    'Menetapkan : PERATURAN MENTERI KEUANGAN TENTANG TARIF LAYANAN PENGUJIAN.',
    'Pasal 1',
    `Tarif layanan pengujian ditetapkan sebesar ${tariff} untuk setiap pengujian.`,
    'Pasal 2',
    'Tarif sebagaimana dimaksud dalam Pasal 1 dibayar sebelum pengujian dilaksanakan.',
    'Pasal 3',
    'Peraturan Menteri ini mulai berlaku pada tanggal diundangkan.',
  ].join('\n');
}

describe('a question naming a regulation of a collection of several', () => {
  let test: TestEngine;
  beforeAll(async () => {
    test = await openTestEngine();
    for (const [file, number, tariff] of [
      ['tarif-2015.txt', '10/PMK.07/2015', 'Rp10.000,00 (sepuluh ribu rupiah)'],
      ['tarif-2016.txt', '20/PMK.07/2016', 'Rp20.000,00 (dua puluh ribu rupiah)'],
    ] as const)
      await test.engine.ingest(
        'tarif',
        { bytes: new TextEncoder().encode(regulation(number, tariff)), filename: file },
        { language: 'id' },
      );
  }, 120_000);
  afterAll(async () => {
    await test?.close();
  });

  const top = async (question: string) => {
    const collection = await test.engine.collections.get('tarif');
    const result = await retrieveForQuestion(test.engine.db, test.engine.embedding, collection, question, {
      topK: 3,
    });
    return result.results[0];
  };

  it('finds the Pasal the question names, in the regulation it names', async () => {
    const first = await top('Pasal 2 PMK 10/PMK.07/2015 isinya apa?');
    expect(first?.document.filename).toBe('tarif-2015.txt');
    expect(first?.citation.pasal).toBe('2');
    expect(first?.ranks['lexical:pasal']).toBe(1);
    expect((await top('pasal 3 ngatur apa sih'))?.citation.pasal).toBe('3');
  });

  const files = async (question: string) => {
    const collection = await test.engine.collections.get('tarif');
    const result = await retrieveForQuestion(test.engine.db, test.engine.embedding, collection, question, {
      topK: 4,
    });
    return new Set(result.results.map((chunk) => chunk.document.filename));
  };

  it('is searched within that regulation, and within all of them when it names none or one not there', async () => {
    expect(await files('Berapa tarif layanan pengujian menurut PMK 20/PMK.07/2016?')).toEqual(
      new Set(['tarif-2016.txt']),
    );
    expect(await files('Tarif layanan pengujian dalam PMK nomor 10 tahun 2015 berapa?')).toEqual(
      new Set(['tarif-2015.txt']),
    );
    expect(await files('Berapa tarif layanan pengujian?')).toEqual(
      new Set(['tarif-2015.txt', 'tarif-2016.txt']),
    );
    expect(await files('Berapa tarif layanan pengujian menurut PMK 30/PMK.07/2017?')).toEqual(
      new Set(['tarif-2015.txt', 'tarif-2016.txt']),
    );
  });
});
