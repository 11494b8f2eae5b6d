import { describe, expect, it } from 'vitest';
import { fiscalYearsAsked, formatYears, refusalText } from './answerability.js';

describe('answerability', () => {
  it('writes runs of three or more years as ranges', () => {
    expect(formatYears([2023, 2015, 2017, 2018, 2019, 2020, 2022])).toEqual([
      '2015',
      '2017–2020',
      '2022',
      '2023',
    ]);
    expect(formatYears([2019, 2020])).toEqual(['2019', '2020']);
    expect(formatYears([])).toEqual([]);
  });

  it('does not take the year that names a law for a fiscal year', () => {
    expect(fiscalYearsAsked('defisit APBN tahun 2021 berapa?', [2021])).toEqual([2021]);
    expect(fiscalYearsAsked('apa isi UU 17/2003 tentang keuangan negara', [2003])).toEqual([]);
    expect(fiscalYearsAsked('UU Nomor 17 Tahun 2003 mengatur apa', [2003])).toEqual([]);
  });

  it('refuses in the question language and names related passages, not as the answer', () => {
    const plan = {
      language: 'en' as const,
      normalized: 'deficit in 2021',
      slots: { years: [2021], measures: [], concepts: [] },
    };
    expect(
      refusalText(
        { reason: 'SLOT_UNAVAILABLE', available: ['2015', '2017–2020'], missing: [2021] },
        plan,
        [],
      ),
    ).toBe('No document for 2021 is in this collection; available: 2015, 2017–2020.');
    const related = [{ citation: { label: 'Pasal 300 UU 22/2009', document_title: 'UU 22/2009' } }];
    const id = { ...plan, language: 'id' as const };
    expect(refusalText({ reason: 'NOT_COVERED' }, id, related)).toBe(
      'Tidak ditemukan di dokumen. Bagian yang paling dekat (bukan jawaban): Pasal 300 UU 22/2009.',
    );
    expect(refusalText({ reason: 'NOT_COVERED' }, plan, [])).toBe('Not found in the documents.');
  });
});
