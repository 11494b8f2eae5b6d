/**
 * Defining sentences: where a passage says what a thing is. "Parkir adalah keadaan Kendaraan berhenti
 * …" (a statute's definitions, its elucidation's "Yang dimaksud dengan … adalah"), "A reducer is a
 * function that …", "Redux is a pattern and library …". A question about what something is prefers
 * the candidates that define one of its words (retrieve.ts, `preferDefinitions`).
 */
import { isQueryStopword } from '../language/stopwords.js';

/** The verbs that open a definition after the defined term, per language. */
const DEFINING = {
  id: '(?:adalah|ialah|merupakan|yaitu|yakni)',
  en: '(?:is|are|refers to|means)',
} as const;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A pattern that matches a sentence defining one of the content words of `question` (stopwords of
 * both languages and words shorter than three letters left out), in `language`; undefined when the
 * question has no such word. The term may be plural, quoted or in backticks: `"selector function" is`.
 */
export function definingPattern(question: string, language: 'id' | 'en'): RegExp | undefined {
  const words = [
    ...new Set(
      (
        question
          .normalize('NFKC')
          .toLowerCase()
          .match(/\p{L}[\p{L}\p{N}]*/gu) ?? []
      ).filter((word) => word.length >= 3 && !isQueryStopword(word, 'id') && !isQueryStopword(word, 'en')),
    ),
  ];
  if (words.length === 0) return undefined;
  const terms = words.map((word) => `${escapeRegExp(word.replace(/s$/u, ''))}(?:s|es)?`).join('|');
  // The defined term opens a sentence, a list item ("15. Parkir adalah"), or follows "yang dimaksud
  // dengan"; an article and quotes may stand around it.
  const opening = `(?:^|[.!?:;]\\s+|\\n\\s*|\\d+\\.\\s+|dimaksud dengan\\s+)`;
  return new RegExp(
    `${opening}(?:(?:an?|the)\\s+)?["'“‘\`]?(?:[\\p{L}\\p{N}-]+\\s+)?(?:${terms})["'”’\`]?\\s+${DEFINING[language]}(?![\\p{L}\\p{N}])`,
    'imu',
  );
}
