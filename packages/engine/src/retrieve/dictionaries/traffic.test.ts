import { describe, expect, it } from 'vitest';
import { corpusText, demoGlossary, normalizeForPhrases } from './corpus-text.js';

const law = corpusText('uu-22-2009-llaj');

/** The dictionary of the demo glossary (corpora/uu-22-2009-llaj/glossary.json). */
const TRAFFIC_DICTIONARY = demoGlossary('traffic').dictionary;

describe('traffic dictionary (UU 22/2009)', () => {
  it('has at least 40 entries and covers the everyday terms listed here', () => {
    expect(TRAFFIC_DICTIONARY.length).toBeGreaterThanOrEqual(40);
    const terms = new Set(TRAFFIC_DICTIONARY.flatMap((entry) => entry.terms));
    const listed = [
      'lampu merah',
      'nerobos',
      'sim',
      'stnk',
      'helm',
      'sabuk pengaman',
      'parkir',
      'trotoar',
      'bahu jalan',
      'menyalip',
      'zigzag',
      'ngebut',
      'knalpot',
      'plat nomor',
      'balap liar',
      'mabuk',
      'hp',
      'tilang',
      'ojek',
      'angkot',
      'anak di bawah umur',
      'motor',
      'mobil',
      'truk',
      'kecelakaan',
      'tabrak lari',
      'spion',
      'lawan arah',
      'putar balik',
      'jalur busway',
      'klakson',
      'surat-surat',
      'razia',
      'nyeberang',
      'zebra cross',
      'ambulans',
      'strobo',
      'angkutan online',
    ];
    expect(listed.filter((term) => !terms.has(term))).toEqual([]);
  });

  it('expands only into phrases that occur in the statute', () => {
    const missing = TRAFFIC_DICTIONARY.flatMap((entry) =>
      (typeof entry.expansion === 'string' ? [entry.expansion] : entry.expansion).filter(
        (phrase) => !law.includes(normalizeForPhrases(phrase)),
      ),
    );
    expect(missing).toEqual([]);
  });

  it('has lower-case, unique terms so matching is predictable', () => {
    const all = TRAFFIC_DICTIONARY.flatMap((entry) => entry.terms);
    expect(all.filter((term) => term !== term.toLowerCase())).toEqual([]);
    expect(all.filter((term, index) => all.indexOf(term) !== index)).toEqual([]);
  });
});
