/**
 * Evidence spans for generated claims (docs/language-models.md, "What happens to a question"): the best
 * supporting window inside a cited chunk — one to three consecutive sentences — chosen by how many of the
 * claim's content words and figures it contains, then by brevity. The span is an exact slice of the chunk
 * text, so its offsets go into the certificate as they are.
 */
import { splitSentences } from './sentences.js';
import { contentWords, type Language } from './stem.js';

export interface Span {
  start: number;
  end: number;
  text: string;
}

/** Longest window considered, in sentences. */
const MAX_WINDOW = 3;
/** Digits runs in a text (figures, Pasal and ayat numbers), without separators. */
const figuresOf = (text: string) =>
  new Set((text.match(/\d+(?:[.,]\d+)*/g) ?? []).map((n) => n.replace(/\D/g, '')));

/** The window of `chunkText` that best supports `claim`; the whole chunk when it has no sentences. */
export function bestSupportingSpan(claim: string, chunkText: string, language: Language): Span {
  const sentences = splitSentences(chunkText);
  if (sentences.length === 0) return { start: 0, end: chunkText.length, text: chunkText };
  const claimWords = new Set(contentWords(claim, language));
  const claimFigures = figuresOf(claim);
  const wanted = claimWords.size + claimFigures.size;
  let best: Span & { score: number } = { ...sentences[0]!, score: -1 };
  for (let first = 0; first < sentences.length; first++) {
    for (let last = first; last < Math.min(sentences.length, first + MAX_WINDOW); last++) {
      const start = sentences[first]!.start;
      const end = sentences[last]!.end;
      const text = chunkText.slice(start, end);
      const words = new Set(contentWords(text, language));
      const figures = figuresOf(text);
      let found = 0;
      for (const word of claimWords) if (words.has(word)) found++;
      for (const figure of claimFigures) if (figures.has(figure)) found++;
      // Coverage first; a longer window must add coverage to win (ties go to the shorter, earlier one).
      const score = wanted === 0 ? 0 : found / wanted;
      if (
        score > best.score + 1e-9 ||
        (Math.abs(score - best.score) <= 1e-9 && end - start < best.end - best.start)
      ) {
        best = { start, end, text, score };
      }
    }
  }
  return { start: best.start, end: best.end, text: best.text };
}
