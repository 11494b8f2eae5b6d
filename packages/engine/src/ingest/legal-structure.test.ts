import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanRegulationText, looksLikeRegulation, parseRegulation } from './legal-structure.js';

const corpora = path.resolve(import.meta.dirname, '../../../../../shared/data/corpora');
const uu22 = readFileSync(path.join(corpora, 'uu-22-2009-llaj/uu-22-2009-llaj.fulltext.md'), 'utf8');

describe('legal structure of UU 22/2009', () => {
  const document = parseRegulation(uu22, 'uu-22-2009.md')!;
  const bodyPasal = new Set(
    document.blocks.filter((b) => b.kind === 'heading' && b.legal?.pasal).map((b) => b.legal!.pasal),
  );
  const elucidated = new Set(
    document.blocks.filter((b) => b.legal?.penjelasan && b.legal.pasal).map((b) => b.legal!.pasal),
  );

  it('finds the body Pasal in order despite inline headings and references', () => {
    // 322 of 326 today; the remaining four (265–268) are tracked for the legal parser work (issue 6).
    expect(bodyPasal.size).toBeGreaterThanOrEqual(322);
    expect(
      [...bodyPasal].every(
        (label, i, all) => i === 0 || Number.parseInt(label!, 10) > Number.parseInt(all[i - 1]!, 10),
      ),
    ).toBe(true);
  });

  it('links the elucidation of all 326 Pasal', () => {
    expect(elucidated.size).toBe(326);
  });

  it('splits Pasal 287 into its six ayat under BAB XX', () => {
    const ayat = document.blocks.filter(
      (b) => b.legal?.pasal === '287' && !b.legal.penjelasan && b.kind === 'paragraph',
    );
    expect(ayat.map((b) => b.legal!.ayat)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(ayat[1]!.text).toContain('Alat Pemberi Isyarat Lalu Lintas');
    expect(ayat[1]!.text).toContain('Rp500.000,00');
    expect(ayat[1]!.legal!.bab).toBe('XX');
    expect(ayat.every((b) => !b.text.includes('...') && !b.text.includes('__'))).toBe(true);
  });

  it('keeps Pasal 106 ayat (4) with its lettered points', () => {
    const block = document.blocks.find(
      (b) => b.legal?.pasal === '106' && b.legal.ayat === '4' && !b.legal.penjelasan,
    );
    expect(block?.text).toMatch(/huruf|a\. /);
    expect(block?.text).toContain('Alat Pemberi Isyarat Lalu Lintas');
  });
});

describe('detection and cleaning', () => {
  it('detects regulations and leaves other text alone', () => {
    expect(looksLikeRegulation(uu22)).toBe(true);
    expect(parseRegulation('# Redux\n\nA reducer is a function.\n', 'a.md')).toBeNull();
  });

  it('drops page-break catchwords and separators', () => {
    expect(cleanRegulationText('rupiah). (3) Setiap... Pasal 292... kata __ lain')).toBe(
      'rupiah). kata lain',
    );
  });
});
