import { describe, expect, it } from 'vitest';
import { internalReferences, listItems, parseReferences, referencedItems } from './cross-references.js';

describe('parseReferences', () => {
  it('reads the provisions a criminal provision refers to', () => {
    expect(parseReferences('… sebagaimana dimaksud dalam Pasal 106 ayat (8) dipidana …')).toEqual([
      { pasal: '106', ayat: '8' },
    ]);
    expect(parseReferences('sebagaimana dimaksud dalam Pasal 48 ayat (2) dan ayat (3)')).toEqual([
      { pasal: '48', ayat: '2' },
      { pasal: '48', ayat: '3' },
    ]);
    expect(
      parseReferences('Pasal 300\n\nDipidana … Pasal 124 ayat (1) huruf c; … Pasal 124 ayat (1) huruf d'),
    ).toEqual([{ pasal: '300' }, { pasal: '124', ayat: '1' }]);
    expect(parseReferences('tidak ada rujukan')).toEqual([]);
  });
});

describe('items and internal references', () => {
  it('reads the items of a rule a sanction names, with the list introduction', () => {
    const sanction =
      'Setiap orang yang … tidak dapat menunjukkan Surat Izin Mengemudi yang sah sebagaimana dimaksud dalam Pasal 106 ayat (5) huruf b dipidana …';
    expect(referencedItems(sanction, { pasal: '106', ayat: '5' })).toEqual(['b']);
    expect(
      referencedItems('… Pasal 106 ayat (4) huruf a atau Pasal 106 ayat (4) huruf b …', {
        pasal: '106',
        ayat: '4',
      }),
    ).toEqual(['a', 'b']);
    expect(referencedItems(sanction, { pasal: '106', ayat: '4' })).toEqual([]);
    const rule =
      '(5) Pada saat diadakan pemeriksaan Kendaraan Bermotor di Jalan setiap orang wajib menunjukkan:\na. Surat Tanda Nomor Kendaraan Bermotor;\nb. Surat Izin Mengemudi;\nc. bukti lulus uji berkala; dan/atau';
    expect(listItems(rule, ['b'])).toEqual([
      '(5) Pada saat diadakan pemeriksaan Kendaraan Bermotor di Jalan setiap orang wajib menunjukkan:',
      'b. Surat Izin Mengemudi;',
    ]);
    expect(listItems(rule, ['z'])).toEqual([]);
  });

  it('finds the earlier ayat a provision builds on', () => {
    expect(
      internalReferences(
        '(5) Dalam hal perbuatan sebagaimana dimaksud pada ayat (4) mengakibatkan orang lain meninggal dunia',
      ),
    ).toEqual(['4']);
    expect(internalReferences('sebagaimana dimaksud dalam Pasal 106 ayat (4)')).toEqual([]);
  });
});
