import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { normalizeText, parseAmounts } from '@saksi/proof';
import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../../ingest/chunk.js';
import { parseRegulation } from '../registry.js';
import {
  type BudgetFigure,
  digitsConfirmWords,
  fiscalYearOfTitle,
  readBudgetFigures,
  readYear,
} from './figures.js';
import { parseNumberWords } from './number-words.js';

const corpus = path.resolve(import.meta.dirname, '../../../../../../shared/data/corpora/apbn-uu');

/** The first line of a corpus file that contains `needle` (the statutes' own sentences, OCR and all). */
function line(file: string, needle: string): string {
  const found = readFileSync(path.join(corpus, file), 'utf8')
    .split('\n')
    .find((text) => text.includes(needle));
  if (found === undefined) throw new Error(`${needle} is not in ${file}`);
  return normalizeText(found);
}

/** The text of the chunk of a corpus file that contains `needle`, chunked as ingestion chunks it. */
function chunkWith(file: string, needle: string): string {
  const regulation = parseRegulation(readFileSync(path.join(corpus, file), 'utf8'), file)!;
  const found = chunkDocument({ ...regulation, mime: 'text/markdown' })
    .map((chunk) => normalizeText(chunk.text))
    .find((text) => text.includes(needle));
  if (found === undefined) throw new Error(`${needle} is in no chunk of ${file}`);
  return found;
}

/** The figure of `text` whose amount is written as `amount` (from "Rp"). */
function figureAt(figures: BudgetFigure[], amount: string): BudgetFigure {
  const found = figures.find((figure) => figure.amount_span.text === amount);
  if (!found)
    throw new Error(`no figure ${amount} among ${figures.map((f) => f.amount_span.text).join(' | ')}`);
  return found;
}

describe('readBudgetFigures on the statutes', () => {
  it('reads Pendapatan Negara 2015: measure, year, exact amount, the clause and the amount span', () => {
    const text = line('uu-2015-3.md', 'Anggaran Pendapatan Negara Tahun Anggaran 2015 diperkirakan');
    const [figure] = readBudgetFigures(text, { fiscalYear: 2015 });
    expect(figure).toMatchObject({
      measure: 'pendapatan_negara',
      fiscal_year: 2015,
      amount: '1761642817235000',
      words_checked: true,
      garbled: false,
      primary: true,
      label: 'Anggaran Pendapatan Negara',
    });
    expect(figure!.span.text).toMatch(
      /^Anggaran Pendapatan Negara Tahun Anggaran 2015 diperkirakan sebesar Rp/,
    );
    expect(figure!.span.text).toMatch(/ribu rupiah\)$/);
    expect(figure!.amount_span.text).toBe('Rp1.761.642.817.235.000,00');
    expect(text.slice(figure!.span.start, figure!.span.end)).toBe(figure!.span.text);
    expect(text.slice(figure!.amount_span.start, figure!.amount_span.end)).toBe(figure!.amount_span.text);
  });

  it('reads Pendapatan Negara 2017 with stray spaces in the digits when the words confirm them', () => {
    const text = line('uu-2016-18.md', 'Anggaran Pendapatan Negara Tahun Anggaran 20 1 7 direncanakan');
    const figure = figureAt(readBudgetFigures(text, { fiscalYear: 2017 }), 'Rp 1 . 750.283.380. 1 76.000,00');
    expect(figure).toMatchObject({
      measure: 'pendapatan_negara',
      fiscal_year: 2017,
      amount: '1750283380176000',
      words_checked: true,
      garbled: false,
    });
  });

  it.each([
    // O for 0, l for 1, letters the OCR made of digits, words that spell another number.
    ['uu-2017-15.md', 'Anggaran Pendapatan Negara Tahun Anggaran ^2Ol8', 'pendapatan_negara', 2018],
    ['uu-2019-20.md', 'Anggaran Pendapatan Negara Tahun Anggaran 2O2O', 'pendapatan_negara', 2020],
    ['uu-2022-28.md', 'Anggaran Belanja Negara Tahun Anggaran 2023 direncanakan', 'belanja_negara', 2023],
    ['uu-2018-12.md', 'terdapat defisit anggaran sebesar Rp296.00O', 'defisit', 2019],
    ['uu-2018-12.md', 'huruf b direncanakan sebesar Rp7O.OOO', 'dana_desa', 2019],
    [
      'uu-2017-15.md',
      'Transfer ke Daerah sebagaimana dimaksud ^pada ^ayat ^(1) huruf a',
      'transfer_ke_daerah',
      2018,
    ],
  ])('%s: a misread figure (%s) is flagged garbled', (file, needle, measure, year) => {
    const figures = readBudgetFigures(line(file, needle), { fiscalYear: year });
    const figure = figures.find((candidate) => candidate.measure === measure);
    expect(figure).toBeDefined();
    expect(figure!.garbled).toBe(true);
    expect(figure!.fiscal_year).toBe(year);
  });

  it('flags a figure whose words spell another number than its digits', () => {
    // UU 18/2016: "Rp2.080.45 1 . 168.747.000,00 (… seratus enam puluh delapan juta tujuh ratus empat puluh lima ribu rupiah)".
    const text = line('uu-2016-18.md', 'total anggaran Belanja Negara sebesar');
    const figure = readBudgetFigures(text, { fiscalYear: 2017 }).find((f) => f.measure === 'belanja_negara')!;
    expect(figure.garbled).toBe(true);
    expect(figure.words_checked).toBe(false);
    expect(figure.amount).toBe('2080451168745000');
  });

  it('takes Belanja Negara 2023 from the education article when its own article is misread', () => {
    const text = line('uu-2022-28.md', 'dari total anggaran Belanja Negara sebesar');
    const figure = readBudgetFigures(text, { fiscalYear: 2023 }).find((f) => f.measure === 'belanja_negara')!;
    expect(figure).toMatchObject({
      amount: '3061176344456000',
      garbled: false,
      words_checked: true,
      primary: false,
    });
    expect(figure.span.text).toMatch(
      /^total anggaran Belanja Negara sebesar Rp3\.061\.176\.344\.456\.000,00 \(tiga/,
    );
  });

  it.each([
    ['uu-2015-3.md', 2015, 'terdapat anggaran defisit sebesar', '222506897630000'],
    ['uu-2016-18.md', 2017, 'terdapat defisit anggaran sebesar', '330167788571000'],
    ['uu-2021-6.md', 2022, 'terdapat defisit anggaran sebesar', '868019050028000'],
    ['uu-2022-28.md', 2023, 'terdapat defisit anggaran sebesar', '598151433061000'],
  ])('%s: the deficit clause keeps its year (%s)', (file, year, needle, amount) => {
    const figures = readBudgetFigures(line(file, needle), { fiscalYear: null });
    const deficit = figures.find((figure) => figure.measure === 'defisit')!;
    expect(deficit).toMatchObject({ fiscal_year: year, amount, garbled: false, primary: true });
    expect(deficit.span.text).toMatch(
      /^dalam Tahun Anggaran 20 ?1? ?\d+ terdapat (?:anggaran defisit|defisit anggaran) sebesar Rp/,
    );
  });

  it('reads the financing of 2023: Pembiayaan Anggaran, a listed debt figure, a negative investment figure', () => {
    const text = chunkWith('uu-2022-28.md', 'terdapat defisit anggaran sebesar');
    const figures = readBudgetFigures(text, { fiscalYear: 2023 });
    const financing = figures.find((figure) => figure.measure === 'pembiayaan')!;
    expect(financing).toMatchObject({
      amount: '598151433061000',
      primary: true,
      label: 'Pembiayaan Anggaran',
    });
    const debt = figures.find((figure) => figure.measure === 'pembiayaan_utang')!;
    expect(debt).toMatchObject({ amount: '696317641062000', primary: false, words_checked: true });
    const investment = figures.find((figure) => figure.label === 'pembiayaan investasi')!;
    expect(investment).toMatchObject({ measure: null, amount: '-175955303621000' });
  });

  it('tells the measures of one article apart: TKDD, Transfer ke Daerah, Dana Desa', () => {
    const read = (needle: string) =>
      readBudgetFigures(line('uu-2015-3.md', needle), { fiscalYear: 2015 })[0]!;
    expect(read('(1) Anggaran Transfer ke Daerah dan Dana Desa sebagaimana')).toMatchObject({
      measure: 'transfer_ke_daerah_dan_dana_desa',
      amount: '664600741175000',
    });
    expect(read('(2) Transfer ke Daerah sebagaimana')).toMatchObject({
      measure: 'transfer_ke_daerah',
      amount: '643834541175000',
    });
    expect(read('(3) Dana Desa sebagaimana')).toMatchObject({
      measure: 'dana_desa',
      amount: '20766200000000',
    });
  });

  it('does not credit a figure included in a measure to the measure itself', () => {
    const text = line('uu-2015-3.md', 'termasuk program pengelolaan hibah negara sebesar');
    const [figure] = readBudgetFigures(text, { fiscalYear: 2015 });
    expect(figure!.measure).toBeNull();
    expect(figure!.amount).toBe('4621727025000');
  });

  it('prefers the article over its list items: DAK and the "a. DAK" item', () => {
    const article = readBudgetFigures(line('uu-2015-3.md', '(6) DAK sebagaimana'), { fiscalYear: 2015 })[0]!;
    expect(article).toMatchObject({
      measure: 'dana_alokasi_khusus',
      amount: '58820675000000',
      primary: true,
    });
    const item = readBudgetFigures(line('uu-2015-3.md', 'a. DAK sebesar'), { fiscalYear: 2015 })[0]!;
    expect(item).toMatchObject({ measure: 'dana_alokasi_khusus', primary: false });
  });

  it('never makes a primary statement of the Penjelasan', () => {
    const text = line('uu-2015-3.md', 'Anggaran Pendapatan Negara Tahun Anggaran 2015 diperkirakan');
    expect(readBudgetFigures(text, { fiscalYear: 2015, legal: { penjelasan: true } })[0]!.primary).toBe(
      false,
    );
  });
});

describe('readBudgetFigures on OCR confusions', () => {
  it.each([
    ['Rp6.0s0.000.000,00', 'enam miliar lima puluh juta rupiah'],
    ['Rp7O.OOO.000.000.000,00', 'tujuh puluh triliun rupiah'],
    ['Rpl.420.000.000.000,00', 'satu triliun empat ratus dua puluh miliar rupiah'],
    [
      'RpS.382.682.475.000,00',
      'delapan triliun tiga ratus delapan puluh dua miliar enam ratus delapan puluh dua juta empat ratus tujuh puluh lima ribu rupiah',
    ],
    [
      'Rp70 1.6 ^1 3.465. 130.000,00',
      'tujuh ratus satu triliun enam ratus tiga belas miliar empat ratus enam puluh lima juta seratus tiga puluh ribu rupiah',
    ],
    [
      'Rp2.22O.656.966.577.OOO,00',
      'dua kuadriliun dua ratus dua puluh triliun enam ratus lima puluh enam miliar sembilan ratus enam puluh enam juta lima ratus tujuh puluh tujuh ribu rupiah',
    ],
    ['Rp1.000.000.000.000', 'dua triliun rupiah'],
    ['Rp1.000.0000.000', 'satu miliar rupiah'],
  ])('%s (%s) is garbled', (amount, words) => {
    const [figure] = readBudgetFigures(`Dana Desa direncanakan sebesar ${amount} (${words}).`, {
      fiscalYear: 2020,
    });
    expect(figure).toBeDefined();
    expect(figure!.measure).toBe('dana_desa');
    expect(figure!.garbled).toBe(true);
  });

  it('reads a clean figure without words, unchecked', () => {
    const [figure] = readBudgetFigures('Dana Desa direncanakan sebesar Rp70.000.000.000.000,00.', {
      fiscalYear: 2020,
    });
    expect(figure).toMatchObject({ amount: '70000000000000', words_checked: false, garbled: false });
    expect(figure!.amount_span.text).toBe('Rp70.000.000.000.000,00');
  });

  it('reads the year of a clause through OCR and the fiscal year of a title', () => {
    expect(readYear('2O2O')).toBe(2020);
    expect(readYear('20 1 7')).toBe(2017);
    expect(readYear('2Ol8')).toBe(2018);
    expect(readYear('2O2L')).toBe(2021);
    expect(readYear('abcd')).toBeUndefined();
    expect(
      fiscalYearOfTitle(
        'UNDANG-UNDANG … TENTANG ANGGARAN PENDAPATAN DAN BELANJA NEGARA TAHUN ANGGARAN 20 1 7',
      ),
    ).toBe(2017);
    expect(fiscalYearOfTitle('UU No. 28 Tahun 2022 tentang APBN TA 2023')).toBe(2023);
    expect(fiscalYearOfTitle('UU No. 22 Tahun 2009 tentang Lalu Lintas dan Angkutan Jalan')).toBeUndefined();
  });
});

describe('readBudgetFigures over the whole corpus, chunked as ingestion chunks it', () => {
  const files = readdirSync(corpus).filter((file) => /^uu-20\d\d-\d+\.md$/.test(file));
  const all: { file: string; text: string; figure: BudgetFigure }[] = [];
  for (const file of files) {
    const source = readFileSync(path.join(corpus, file), 'utf8');
    const regulation = parseRegulation(source, file)!;
    const fiscalYear = fiscalYearOfTitle(regulation.title) ?? null;
    for (const chunk of chunkDocument({ ...regulation, mime: 'text/markdown' })) {
      const text = normalizeText(chunk.text);
      for (const figure of readBudgetFigures(text, { fiscalYear, legal: chunk.legal ?? null }))
        all.push({ file, text, figure });
    }
  }

  it('finds figures in every UU APBN, and the key measures of most years clean', () => {
    expect(new Set(all.map((item) => item.file)).size).toBe(files.length - 1); // UU 17/2003 states none
    const clean = (measure: string) =>
      new Set(
        all
          .filter((item) => item.figure.measure === measure && !item.figure.garbled)
          .map((item) => item.file),
      );
    expect(clean('defisit').size).toBeGreaterThanOrEqual(4);
    expect(clean('penerimaan_perpajakan').size).toBeGreaterThanOrEqual(4);
    expect(clean('belanja_negara').size).toBeGreaterThanOrEqual(4);
  });

  it('keeps its invariants: exact spans, the amount inside its clause, digits and words in agreement', () => {
    for (const { text, figure } of all) {
      expect(text.slice(figure.span.start, figure.span.end)).toBe(figure.span.text);
      expect(text.slice(figure.amount_span.start, figure.amount_span.end)).toBe(figure.amount_span.text);
      expect(figure.amount_span.text.startsWith('Rp')).toBe(true);
      expect(figure.span.start).toBeLessThanOrEqual(figure.amount_span.start);
      expect(figure.amount_span.end).toBeLessThanOrEqual(figure.span.end);
      if (figure.garbled) continue;
      expect(figure.amount).toMatch(/^-?\d+(?:\.\d+)?$/);
      // A clean amount written without stray spaces reads the same with the proof package's parser.
      if (!/\s/.test(figure.amount_span.text.slice(2))) {
        const [parsed, ...rest] = parseAmounts(figure.amount_span.text);
        expect(rest).toEqual([]);
        expect(parsed!.value).toBe(figure.amount!.replace(/^-/, ''));
      } else expect(figure.words_checked).toBe(true);
      if (figure.words_checked) {
        const words = text.slice(figure.amount_span.end, figure.span.end).replace(/^[^(]*\(|\)$/g, '');
        expect(parseNumberWords(words)).toBe(BigInt(figure.amount!.replace(/^-/, '')));
      }
    }
  });

  it('flags every amount written with a letter or symbol in its digits', () => {
    for (const { figure } of all)
      if (/[^\d.,\s]/.test(figure.amount_span.text.slice(2).trim())) expect(figure.garbled).toBe(true);
  });
});

describe('digitsConfirmWords', () => {
  it('accepts digits split by spaces or with a few letters OCR put in place of digits', () => {
    expect(digitsConfirmWords('Rp2.233. 196.7O 1.660.0O0,0O', 2_233_196_701_660_000n)).toBe(true);
    expect(digitsConfirmWords('Rp2. 165. 1 1 1.815.814.000,00', 2_165_111_815_814_000n)).toBe(true);
    expect(digitsConfirmWords('Rp3.06 l. l 76.344.456.000,00', 3_061_176_344_456_000n)).toBe(true);
    expect(digitsConfirmWords('Rp598.151.433.061.000,00', 598_151_433_061_000n)).toBe(true);
  });

  it('refuses digits that say another number, a misplaced separator, or mostly letters', () => {
    expect(digitsConfirmWords('Rp2.233.196.701.660.001,00', 2_233_196_701_660_000n)).toBe(false);
    expect(digitsConfirmWords('Rp2.233.196.701.660,00', 2_233_196_701_660_000n)).toBe(false);
    expect(digitsConfirmWords('Rp22.33.196.701.660.000,00', 2_233_196_701_660_000n)).toBe(false);
    expect(digitsConfirmWords('Rp7O.OOO.OOO', 70_000_000n)).toBe(false);
    expect(digitsConfirmWords('Rp1.000', 0n)).toBe(false);
  });
});
