import { describe, expect, it } from 'vitest';
import { parseReferences } from './cross-references.js';

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
