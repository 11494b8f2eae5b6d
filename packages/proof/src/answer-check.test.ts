/**
 * The deterministic part of the answer check (docs/certificate.md, "The answer check"): the asked
 * type and constraints read from a question with Saksi's asked rules, and read against claims.
 */
import { describe, expect, it } from 'vitest';
import {
  askedTypeOf,
  claimCheckTexts,
  constraintsOf,
  OTHER_ASKED_TYPE,
  readAnswerCheck,
  statesAskedValue,
} from './answer-check.js';
import type { Claim } from './certificate.js';
import { ASKED_RULES } from './vocabulary.js';

/** A claim with one evidence span, as much of it as the check reads. */
function claim(
  text: string,
  span: string,
  citation: Claim['evidence'][number]['citation'] = { document_title: 'UU No. 22 Tahun 2009' },
): Pick<Claim, 'text' | 'evidence'> {
  return {
    text,
    evidence: [{ span: { text: span }, citation } as Claim['evidence'][number]],
  };
}

describe('the asked type', () => {
  it('is the first rule that matches, in Indonesian and English', () => {
    const asked = (question: string) => askedTypeOf(question, ASKED_RULES);
    expect(asked('Kalau nerobos lampu merah kena denda berapa?')).toBe('amount');
    expect(asked('Berapa lama masa berlaku SIM?')).toBe('duration');
    expect(asked('Berapa umur minimal untuk SIM A?')).toBe('age');
    expect(asked('Kapan UU 17/2003 berlaku?')).toBe('date');
    expect(asked('Siapa yang menerbitkan SIM?')).toBe('who');
    expect(asked('Apa itu APBN?')).toBe('definition');
    expect(asked('Bagaimana cara membuat SIM?')).toBe('steps');
    expect(asked('How much is the fine?')).toBe('amount');
    expect(asked('Nomor 17 Tahun 2003 pasal 3')).toBe(OTHER_ASKED_TYPE);
  });

  it('is `other` without rules, and a type without a value pattern is always stated', () => {
    expect(askedTypeOf('Berapa denda?', [])).toBe(OTHER_ASKED_TYPE);
    expect(statesAskedValue('who', ASKED_RULES, ['anything'])).toBe(true);
    expect(statesAskedValue('amount', ASKED_RULES, ['denda paling banyak Rp500.000,00'])).toBe(true);
    expect(statesAskedValue('amount', ASKED_RULES, ['melanggar larangan'])).toBe(false);
  });
});

describe('the constraints of a question', () => {
  it('are its years, numbered regulations, versions and sections, sorted', () => {
    expect(constraintsOf('What is the fine in 2019 under UU 22/2009 Pasal 287?')).toEqual([
      'regulation:22/2009',
      'section:287',
      'year:2019',
    ]);
    expect(constraintsOf('Berapa belanja negara APBN 2019 menurut UU 12/2018?')).toEqual([
      'regulation:12/2018',
      'year:2019',
    ]);
    expect(constraintsOf('Nomor 17 Tahun 2003 pasal 3')).toEqual(['regulation:17/2003', 'section:3']);
    expect(constraintsOf('Does v5 support it?')).toEqual(['version:5']);
    // A year written with a letter O, as OCR writes it; a figure is not a year.
    expect(constraintsOf('How much is tax revenue in APBN 2O22?')).toEqual(['year:2022']);
    expect(constraintsOf('Denda Rp2.019 atau 2019,5?')).toEqual([]);
  });

  it('read a ministerial or agency number by its own number, not the digits of its code', () => {
    expect(constraintsOf('pasal 2 PMK 79/PMK.07/2014 isinya apa')).toEqual([
      'regulation:79/2014',
      'section:2',
    ]);
    expect(constraintsOf('POJK 6/POJK.07/2022 mengatur apa?')).toEqual(['regulation:6/2022']);
    expect(constraintsOf('Permen 22/PERMEN-KP/2015')).toEqual(['regulation:22/2015']);
    // Another PMK of the same year does not meet it: "16/PMK.07/2014" offers 16/2014, not 7/2014.
    const other = claim('Dana dialokasikan', 'Dana dialokasikan', { document_title: 'PMK 16/PMK.07/2014' });
    expect(readAnswerCheck('Apa isi PMK 79/PMK.07/2014?', [other], ASKED_RULES).unmet).toEqual([
      'regulation:79/2014',
    ]);
  });
});

describe('reading a question against claims', () => {
  it('names the constraints no evidence meets, from spans, citations and the claim text', () => {
    const fine = claim('Dendanya Rp500.000,00', 'denda Rp500.000,00');
    expect(readAnswerCheck('Berapa denda tahun 2013?', [fine], ASKED_RULES)).toEqual({
      asked: 'amount',
      constraints: ['year:2013'],
      unmet: ['year:2013'],
      value_stated: true,
    });
    // The document title "UU No. 22 Tahun 2009" offers the year 2009 and the regulation 22/2009.
    expect(readAnswerCheck('Berapa denda tahun 2009 menurut UU 22/2009?', [fine], ASKED_RULES).unmet).toEqual(
      [],
    );
    expect(claimCheckTexts(fine)).toContain('UU No. 22 Tahun 2009');
  });

  it('states a value of the asked type only in claim texts and spans', () => {
    const rule = claim('melanggar larangan [1]', 'melanggar larangan', {
      document_title: 'UU No. 22 Tahun 2009',
      label: 'denda Rp500.000,00',
    });
    expect(readAnswerCheck('Berapa dendanya?', [rule], ASKED_RULES).value_stated).toBe(false);
    const term = claim('paling lama 2 (dua) bulan', 'paling lama 2 (dua) bulan');
    expect(readAnswerCheck('Berapa lama pidana kurungan?', [term], ASKED_RULES).value_stated).toBe(true);
    // No claims state nothing, even for a type without a value pattern.
    expect(readAnswerCheck('Siapa yang menerbitkan SIM?', [], ASKED_RULES).value_stated).toBe(false);
  });
});
