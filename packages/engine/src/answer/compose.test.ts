import { describe, expect, it } from 'vitest';
import { verbatimQuote } from './compose.js';

describe('verbatimQuote', () => {
  it('is the span itself followed by its marker', () => {
    const span = { start: 4, end: 20, text: 'Setiap orang wajib.' };
    const claim = verbatimQuote(2, span, 3);
    expect(claim.text).toBe('Setiap orang wajib. [3]');
    expect(claim.statement).toBe(span.text);
    expect(claim.evidence).toEqual([{ sourceIndex: 2, span }]);
  });
});
