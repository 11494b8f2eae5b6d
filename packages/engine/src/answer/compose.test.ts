import { describe, expect, it } from 'vitest';
import { lawQuote, verbatimQuote } from './compose.js';

describe('verbatimQuote', () => {
  it('is the span itself followed by its marker', () => {
    const span = { start: 4, end: 20, text: 'Setiap orang wajib.' };
    const claim = verbatimQuote(2, span, 3);
    expect(claim.text).toBe('Setiap orang wajib. [3]');
    expect(claim.statement).toBe(span.text);
    expect(claim.evidence).toEqual([{ sourceIndex: 2, span }]);
  });
});

describe('lawQuote', () => {
  const span = { start: 4, end: 30, text: 'Setiap orang yang … dipidana.' };
  it('leads the span with its provision, and records how to recompute it', () => {
    const claim = lawQuote(
      'penalty',
      'id',
      { sourceIndex: 1, span, label: 'Pasal 291 ayat (1) UU 22/2009' },
      1,
    );
    expect(claim.text).toBe('Menurut Pasal 291 ayat (1) UU 22/2009: Setiap orang yang … dipidana. [1]');
    expect(claim.statement).toBe('Menurut Pasal 291 ayat (1) UU 22/2009: Setiap orang yang … dipidana.');
    expect(claim.composition).toEqual({
      template: 'law.sanction',
      language: 'id',
      parts: [
        { fixed: 'Menurut ' },
        { cite: 0 },
        { fixed: ': ' },
        { span: 0 },
        { fixed: ' ' },
        { marker: 1 },
      ],
    });
    expect(claim.evidence).toEqual([{ sourceIndex: 1, span }]);
  });

  it('uses the template words of the question language, and stays verbatim without a label', () => {
    const english = lawQuote(
      'rule',
      'en',
      { sourceIndex: 0, span, label: 'Pasal 106 ayat (8) UU 22/2009' },
      2,
    );
    expect(english.text).toBe(
      'The rule broken, Pasal 106 ayat (8) UU 22/2009: Setiap orang yang … dipidana. [2]',
    );
    const bare = lawQuote('provision', 'id', { sourceIndex: 0, span }, 1);
    expect(bare.composition).toBeUndefined();
    expect(bare.text).toBe('Setiap orang yang … dipidana. [1]');
  });
});
