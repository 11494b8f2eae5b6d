import { describe, expect, it } from 'vitest';
import type { Composition, CompositionPart } from './certificate.js';
import {
  type CompositionEvidence,
  formatRupiah,
  isVerbatimComposition,
  renderComposition,
  spelledRupiah,
  wholeRupiah,
} from './composition.js';
import { COMPOSITION_TEMPLATES } from './vocabulary.js';

/** APBN 2022 (UU 6/2021) and APBN 2023 (UU 28/2022), Pasal 4 ayat (1): the tax revenue each plans. */
const TAX_2022 = 'Rp1.510.001.200.000.000,00';
const TAX_2023 = 'Rp2.021.223.677.000.000,00';

const evidence: CompositionEvidence[] = [
  { span: { text: TAX_2022 }, citation: { label: 'Pasal 4 ayat (1) UU 6/2021' } },
  { span: { text: TAX_2023 }, citation: { label: 'Pasal 4 ayat (1) UU 28/2022' } },
];

const comparison = (language: 'id' | 'en', parts?: CompositionPart[]): Composition => ({
  template: 'budget.comparison',
  language,
  parts: parts ?? [
    { fixed: language === 'id' ? 'Menurut ' : 'According to ' },
    { cite: 0 },
    { fixed: ': ' },
    { span: 0 },
    { fixed: language === 'id' ? '; menurut ' : '; according to ' },
    { cite: 1 },
    { fixed: ': ' },
    { span: 1 },
    { fixed: language === 'id' ? '. Selisihnya ' : '. The difference is ' },
    { difference: [0, 1] },
    { fixed: '.' },
    { fixed: ' ' },
    { marker: 1 },
  ],
});

describe('renderComposition', () => {
  it('renders every part kind, the difference in the composition language', () => {
    expect(renderComposition(comparison('id'), evidence, COMPOSITION_TEMPLATES)).toEqual({
      ok: true,
      text: `Menurut Pasal 4 ayat (1) UU 6/2021: ${TAX_2022}; menurut Pasal 4 ayat (1) UU 28/2022: ${TAX_2023}. Selisihnya Rp511.222.477.000.000,00. [1]`,
    });
    const english = renderComposition(comparison('en'), evidence, COMPOSITION_TEMPLATES);
    expect(english.ok && english.text).toContain('. The difference is Rp511,222,477,000,000.00.');
  });

  it('writes b − a as an absolute amount', () => {
    const parts: CompositionPart[] = [{ difference: [1, 0] }];
    expect(renderComposition(comparison('id', parts), evidence, COMPOSITION_TEMPLATES)).toEqual({
      ok: true,
      text: 'Rp511.222.477.000.000,00',
    });
  });

  const failures: [string, Composition, CompositionEvidence[], string][] = [
    ['unknown template', { ...comparison('id'), template: 'law.everything' }, evidence, 'UNKNOWN_TEMPLATE'],
    [
      'inherited template name',
      { ...comparison('id'), template: 'constructor' },
      evidence,
      'UNKNOWN_TEMPLATE',
    ],
    ['unknown language', { ...comparison('id'), language: 'fr' as 'id' }, evidence, 'UNKNOWN_LANGUAGE'],
    [
      'fixed word of another language',
      comparison('en', [{ fixed: 'Menurut ' }, { span: 0 }, { span: 1 }]),
      evidence,
      'FIXED_NOT_ALLOWED',
    ],
    [
      'fixed word of another template',
      comparison('id', [{ fixed: 'Sanksi, ' }, { span: 0 }, { span: 1 }]),
      evidence,
      'FIXED_NOT_ALLOWED',
    ],
    [
      'fixed word with a qualifier',
      comparison('id', [{ fixed: 'Paling tidak ' }, { span: 0 }, { span: 1 }]),
      evidence,
      'FIXED_NOT_ALLOWED',
    ],
    ['span index out of range', comparison('id', [{ span: 0 }, { span: 2 }]), evidence, 'INDEX_OUT_OF_RANGE'],
    ['negative index', comparison('id', [{ span: -1 }]), evidence, 'INDEX_OUT_OF_RANGE'],
    ['fractional index', comparison('id', [{ span: 0.5 }]), evidence, 'INDEX_OUT_OF_RANGE'],
    [
      'cite without a label',
      comparison('id', [{ cite: 0 }, { span: 1 }]),
      [{ span: { text: TAX_2022 }, citation: {} }, evidence[1]!],
      'CITATION_LABEL_MISSING',
    ],
    [
      'cite with an empty label',
      comparison('id', [{ cite: 0 }, { span: 1 }]),
      [{ span: { text: TAX_2022 }, citation: { label: '' } }, evidence[1]!],
      'CITATION_LABEL_MISSING',
    ],
    ['marker 0', comparison('id', [{ span: 0 }, { span: 1 }, { marker: 0 }]), evidence, 'INVALID_PART'],
    [
      'unknown part kind',
      comparison('id', [{ span: 0 }, { span: 1 }, { quote: 'x' } as unknown as CompositionPart]),
      evidence,
      'INVALID_PART',
    ],
    [
      'two kinds in one part',
      comparison('id', [{ span: 0, fixed: ' ' } as unknown as CompositionPart, { span: 1 }]),
      evidence,
      'INVALID_PART',
    ],
    ['no parts', comparison('id', []), evidence, 'INVALID_PART'],
    [
      '65 parts',
      comparison(
        'id',
        Array.from({ length: 65 }, (_, i) => ({ span: i % 2 })),
      ),
      evidence,
      'INVALID_PART',
    ],
    ['unused evidence', comparison('id', [{ span: 0 }]), evidence, 'EVIDENCE_UNUSED'],
    [
      'difference of a sentence',
      comparison('id', [{ difference: [0, 1] }]),
      [{ span: { text: `direncanakan sebesar ${TAX_2022} dan ${TAX_2023}` }, citation: {} }, evidence[1]!],
      'NOT_AN_AMOUNT',
    ],
    [
      'difference of a rounded figure',
      comparison('id', [{ difference: [0, 1] }]),
      [{ span: { text: 'Rp1.510 triliun' }, citation: {} }, evidence[1]!],
      'NOT_AN_AMOUNT',
    ],
    [
      'difference of a percentage',
      comparison('id', [{ difference: [0, 1] }]),
      [{ span: { text: '20,59%' }, citation: {} }, evidence[1]!],
      'NOT_AN_AMOUNT',
    ],
    [
      'difference of dollars',
      comparison('id', [{ difference: [0, 1] }]),
      [{ span: { text: 'USD 1.500' }, citation: {} }, evidence[1]!],
      'NOT_AN_AMOUNT',
    ],
    [
      'difference with a fraction',
      comparison('id', [{ difference: [0, 1] }]),
      [{ span: { text: 'Rp1.500,50' }, citation: {} }, evidence[1]!],
      'NOT_AN_AMOUNT',
    ],
    [
      'difference of one index',
      comparison('id', [{ difference: [0] as unknown as [number, number] }, { span: 1 }]),
      evidence,
      'INVALID_PART',
    ],
  ];
  for (const [name, composition, items, code] of failures) {
    it(`refuses: ${name}`, () => {
      const rendered = renderComposition(composition, items, COMPOSITION_TEMPLATES);
      expect(rendered.ok).toBe(false);
      if (!rendered.ok) expect(rendered.problem).toBe(code);
    });
  }

  it('never throws on hostile values', () => {
    const hostile: unknown[] = [
      null,
      undefined,
      42,
      'x',
      { template: 'quote', language: 'id', parts: null },
      { template: 'quote', language: 'id', parts: [null, 1, 'x', [], {}] },
      { template: 'quote', language: 'id', parts: [{ difference: 'ab' }] },
      { template: 'quote', language: 'id', parts: [{ marker: 1e300 }] },
      { template: 'quote', language: 'id', parts: [{ fixed: 5 }] },
      { template: { toString: () => 'quote' }, language: 'id', parts: [{ span: 0 }] },
    ];
    for (const value of hostile) {
      const rendered = renderComposition(value as Composition, evidence, COMPOSITION_TEMPLATES);
      expect(rendered.ok).toBe(false);
    }
  });
});

describe('rupiah amounts of a difference', () => {
  it('reads exactly one whole rupiah amount', () => {
    expect(wholeRupiah(TAX_2023)).toBe(2_021_223_677_000_000n);
    expect(wholeRupiah('Rp 1.500')).toBe(1500n);
    expect(wholeRupiah('IDR 2,500,000.00')).toBe(2_500_000n);
    expect(wholeRupiah('Rp1.500 dan Rp2.000')).toBeUndefined();
    expect(wholeRupiah('1.500')).toBeUndefined();
    expect(wholeRupiah('')).toBeUndefined();
  });

  it('formats the absolute value, grouped, with two zero decimals', () => {
    expect(formatRupiah(511_222_477_000_000n, 'id')).toBe('Rp511.222.477.000.000,00');
    expect(formatRupiah(-511_222_477_000_000n, 'en')).toBe('Rp511,222,477,000,000.00');
    expect(formatRupiah(0n, 'id')).toBe('Rp0,00');
    expect(formatRupiah(999n, 'id')).toBe('Rp999,00');
    expect(formatRupiah(1000n, 'en')).toBe('Rp1,000.00');
  });
});

/** APBN 2023 (UU 28/2022): an OCR'd clause whose digits are misread and whose words are clean. */
const SUBJECT = 'Anggaran Pendapatan Negara Tahun Anggaran 2023 direncanakan';
const WORDS =
  'dua kuadriliun dua ratus tiga puluh tiga triliun seratus sembilan puluh enam miliar tujuh ratus satu juta enam ratus enam puluh ribu rupiah';
const figureEvidence: CompositionEvidence[] = [
  { span: { text: SUBJECT }, citation: { label: 'Pasal 3 UU 28/2022' } },
  { span: { text: WORDS }, citation: { label: 'Pasal 3 UU 28/2022' } },
];
const figureWords = (language: 'id' | 'en', parts?: CompositionPart[]): Composition => ({
  template: 'budget.figure-words',
  language,
  parts: parts ?? [
    { fixed: language === 'id' ? 'Menurut ' : 'According to ' },
    { cite: 0 },
    { fixed: ', ' },
    { span: 0 },
    { fixed: language === 'id' ? ' sebesar ' : ': ' },
    { spelled: 1 },
    { fixed: ' (' },
    { span: 1 },
    { fixed: ')' },
    { fixed: ' ' },
    { marker: 1 },
  ],
});

describe('a spelled part', () => {
  it('renders the amount the words spell, in the composition language', () => {
    expect(renderComposition(figureWords('id'), figureEvidence, COMPOSITION_TEMPLATES)).toEqual({
      ok: true,
      text: `Menurut Pasal 3 UU 28/2022, ${SUBJECT} sebesar Rp2.233.196.701.660.000,00 (${WORDS}) [1]`,
    });
    expect(renderComposition(figureWords('en'), figureEvidence, COMPOSITION_TEMPLATES)).toEqual({
      ok: true,
      text: `According to Pasal 3 UU 28/2022, ${SUBJECT}: Rp2,233,196,701,660,000.00 (${WORDS}) [1]`,
    });
  });

  it('uses its evidence: a claim of the spelled amount alone renders', () => {
    const parts: CompositionPart[] = [{ spelled: 0 }];
    expect(renderComposition(figureWords('id', parts), [figureEvidence[1]!], COMPOSITION_TEMPLATES)).toEqual({
      ok: true,
      text: 'Rp2.233.196.701.660.000,00',
    });
  });

  const words = (text: string): CompositionEvidence[] => [
    figureEvidence[0]!,
    { span: { text }, citation: {} },
  ];
  const failures: [string, Composition, CompositionEvidence[], string][] = [
    [
      'words with the digits beside them',
      figureWords('id'),
      words(`Rp2.233.196.701.660.000,00 (${WORDS})`),
      'NOT_AN_AMOUNT',
    ],
    ['OCR digits', figureWords('id'), words('Rp2.233. 196.7O 1.660.0O0,0O'), 'NOT_AN_AMOUNT'],
    ['a digit among the words', figureWords('id'), words('dua kuadriliun 2 triliun rupiah'), 'NOT_AN_AMOUNT'],
    ['an unreadable span', figureWords('id'), words('dua kuadriliun tiga kuadriliun'), 'NOT_AN_AMOUNT'],
    ['OCR-misread words', figureWords('id'), words('dua kuadriliun dga triliun rupiah'), 'NOT_AN_AMOUNT'],
    [
      'punctuation among the words',
      figureWords('id'),
      words('dua ratus · lima puluh rupiah'),
      'NOT_AN_AMOUNT',
    ],
    ['zero', figureWords('id'), words('nol rupiah'), 'NOT_AN_AMOUNT'],
    ['only "rupiah"', figureWords('id'), words('rupiah'), 'NOT_AN_AMOUNT'],
    ['an empty span', figureWords('id'), words(''), 'NOT_AN_AMOUNT'],
    [
      'an index out of range',
      figureWords('id', [{ span: 0 }, { spelled: 2 }, { span: 1 }]),
      figureEvidence,
      'INDEX_OUT_OF_RANGE',
    ],
    [
      'a negative index',
      figureWords('id', [{ span: 0 }, { spelled: -1 }, { span: 1 }]),
      figureEvidence,
      'INDEX_OUT_OF_RANGE',
    ],
    [
      'an index that is not a number',
      figureWords('id', [{ span: 0 }, { spelled: '1' } as unknown as CompositionPart, { span: 1 }]),
      figureEvidence,
      'INDEX_OUT_OF_RANGE',
    ],
    [
      'a fixed word of the other language',
      figureWords('en', [{ fixed: ' sebesar ' }, { spelled: 1 }, { span: 0 }]),
      figureEvidence,
      'FIXED_NOT_ALLOWED',
    ],
  ];
  for (const [name, composition, items, code] of failures) {
    it(`refuses: ${name}`, () => {
      const rendered = renderComposition(composition, items, COMPOSITION_TEMPLATES);
      expect(rendered.ok).toBe(false);
      if (!rendered.ok) expect(rendered.problem).toBe(code);
    });
  }

  it('reads only an amount in words, of more than zero', () => {
    expect(spelledRupiah(WORDS)).toBe(2_233_196_701_660_000n);
    expect(spelledRupiah('Dua Ribu Lima Ratus')).toBe(2_500n);
    expect(spelledRupiah('seribu\nlima ratus rupiah')).toBe(1_500n);
    expect(spelledRupiah('dua ribu, lima ratus')).toBeUndefined();
    // A scan's caret before a word is the one mark read as nothing.
    expect(spelledRupiah('tiga ^ratus ^dua puluh ^ribu ^rupiah')).toBe(320_000n);
    expect(spelledRupiah('(dua ribu rupiah)')).toBeUndefined();
    expect(spelledRupiah('2.500')).toBeUndefined();
    expect(spelledRupiah('nol')).toBeUndefined();
  });
});

describe('isVerbatimComposition', () => {
  it('is one span with markers and blank fixed words', () => {
    const quote = (parts: CompositionPart[]): Composition => ({ template: 'quote', language: 'id', parts });
    expect(isVerbatimComposition(quote([{ span: 0 }, { fixed: ' ' }, { marker: 1 }]))).toBe(true);
    expect(isVerbatimComposition(quote([{ span: 0 }, { fixed: ' ' }, { span: 1 }]))).toBe(false);
    expect(isVerbatimComposition(quote([{ fixed: 'Menurut ' }, { span: 0 }]))).toBe(false);
    expect(isVerbatimComposition(quote([{ cite: 0 }, { span: 0 }]))).toBe(false);
  });
});
