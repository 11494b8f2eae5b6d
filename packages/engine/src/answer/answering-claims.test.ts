import { describe, expect, it } from 'vitest';
import { answeringClaims } from './answering-claims.js';
import type { CheckedClaim } from './check.js';
import { verbatimQuote } from './compose.js';
import type { QuestionTerms } from './relevance.js';

/** "helm sepeda motor denda": four lexemes of equal weight. */
const TERMS: QuestionTerms = {
  wordings: [
    {
      lexemes: ['helm', 'sepeda', 'motor', 'denda'].map((lexeme) => ({ lexeme, df: 3, idf: 1 })),
      total: 8,
    },
  ],
};

function claim(
  sourceIndex: number,
  score: number,
  lexemes: string[],
  options: { linked?: boolean; start?: number } = {},
): CheckedClaim {
  const start = options.start ?? 0;
  const quote = verbatimQuote(sourceIndex, { start, end: start + 5, text: 'kutip' }, sourceIndex + 1);
  return {
    claim: options.linked ? { ...quote, linked: true } : quote,
    verification: { label: 'entailed', confidence: 1, verifier: { id: 'verbatim', version: '1' } },
    support: { result: 'verbatim', method: 'verbatim' },
    relevance: { score, threshold: 0.3, method: 'lexical-v4' },
    lexemes: new Set(lexemes),
  };
}

describe('answeringClaims', () => {
  it('drops a second passage that only repeats words the first already covers', () => {
    const first = claim(0, 1, ['helm', 'sepeda', 'motor', 'denda']);
    const echo = claim(1, 0.5, ['helm', 'motor']);
    expect(answeringClaims([first, echo], TERMS)).toEqual([first]);
  });

  it('keeps a second passage that covers what the first leaves out, or answers as well', () => {
    const first = claim(0, 0.5, ['helm', 'sepeda']);
    const rest = claim(1, 0.5, ['motor', 'denda']);
    expect(answeringClaims([first, rest], TERMS)).toEqual([first, rest]);
    const peer = claim(1, 0.95, ['helm', 'sepeda']);
    expect(answeringClaims([claim(0, 1, ['helm', 'sepeda']), peer], TERMS)).toHaveLength(2);
  });

  it('keeps further sentences of a kept passage, and a linked claim exactly with the one it completes', () => {
    const first = claim(0, 1, ['helm', 'sepeda', 'motor', 'denda']);
    const sameSource = claim(0, 0.5, ['helm'], { start: 10 });
    const rule = claim(2, 0.1, [], { linked: true });
    expect(answeringClaims([first, sameSource, rule], TERMS)).toEqual([first, sameSource, rule]);
    const weak = claim(0, 0.1, ['helm']);
    expect(answeringClaims([weak, rule], TERMS)).toEqual([]);
  });
});
