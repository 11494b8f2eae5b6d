/**
 * Typo tolerance against the collection's own vocabulary (docs/engine.md, "Retrieval"): a word of the
 * question that no chunk of the collection contains ("berlubagn", "libtas", "reducrs") and that is one
 * edit (a letter left out, added, changed, or two swapped) from a word the collection does contain is
 * searched as that word too, in one more query variant. The collection's keyword index is the
 * dictionary, so a ministry's terms are corrected towards its own documents and never towards another
 * collection's; a word the collection knows is never touched, nor one shorter than
 * {@link MIN_TYPO_LENGTH} letters, where one edit reaches too many words.
 */
import type { Collection } from '../collections.js';
import type { Queryable } from '../db/database.js';
import { keywordDocumentFrequencies } from './keyword-index.js';
import { lexemesOf } from './lexemes.js';
import type { QueryVariant } from './retrieve.js';

/** Words shorter than this are not corrected. */
export const MIN_TYPO_LENGTH = 6;
/** The variant's weight against the question as asked: it restates the question, less surely. */
export const TYPO_WEIGHT = 0.5;
/** At most this many words of a question are corrected. */
const MAX_CORRECTIONS = 3;
/** A correction must occur in at least this many chunks of the collection. */
const MIN_CORRECTION_CHUNKS = 3;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** The strings one edit away from `word` (Damerau: deletion, transposition, substitution, insertion). */
export function oneEditAway(word: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    if (tail.length > 0) out.add(head + tail.slice(1));
    if (tail.length > 1) out.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const letter of LETTERS) {
      if (tail.length > 0 && letter !== tail[0]) out.add(head + letter + tail.slice(1));
      out.add(head + letter + tail);
    }
  }
  out.delete(word);
  return [...out];
}

/**
 * The question with its misspelt words written as the collection's nearest words, as a query variant
 * of `weight`; undefined when no word needs it. Two queries: the question's lexemes and the document
 * frequencies of them and of their one-edit neighbours.
 */
export async function typoVariant(
  db: Queryable,
  collection: Pick<Collection, 'id' | 'text_search_config'>,
  question: string,
  weight: number,
): Promise<QueryVariant | undefined> {
  const words = [
    ...new Set(
      (question.toLowerCase().match(/\p{L}+/gu) ?? []).filter((word) => word.length >= MIN_TYPO_LENGTH),
    ),
  ].filter((word) => /^[a-z]+$/.test(word));
  if (words.length === 0) return undefined;
  const lexemes = await lexemesOf(db, collection, words);
  const asked = new Map<string, string>();
  words.forEach((word, index) => {
    const lexeme = lexemes[index]?.[0];
    if (lexeme && lexemes[index]!.length === 1 && /^[a-z]+$/.test(lexeme)) asked.set(word, lexeme);
  });
  if (asked.size === 0) return undefined;
  const known = await keywordDocumentFrequencies(db, collection.id, [...new Set(asked.values())]);
  const unknown = [...asked].filter(([, lexeme]) => (known.get(lexeme) ?? 0) === 0).slice(0, MAX_CORRECTIONS);
  if (unknown.length === 0) return undefined;
  const neighbours = new Map(unknown.map(([word, lexeme]) => [word, oneEditAway(lexeme)]));
  const frequencies = await keywordDocumentFrequencies(db, collection.id, [
    ...new Set([...neighbours.values()].flat()),
  ]);
  let text = question;
  let corrected = false;
  for (const [word, candidates] of neighbours) {
    let best: string | undefined;
    let bestChunks = MIN_CORRECTION_CHUNKS - 1;
    for (const candidate of candidates) {
      const chunks = frequencies.get(candidate) ?? 0;
      if (chunks > bestChunks || (chunks === bestChunks && best !== undefined && candidate < best)) {
        best = candidate;
        bestChunks = chunks;
      }
    }
    if (best === undefined) continue;
    text = text.replace(new RegExp(`(?<![\\p{L}\\p{N}])${word}(?![\\p{L}\\p{N}])`, 'giu'), best);
    corrected = true;
  }
  return corrected ? { text, weight, kind: 'spelling' } : undefined;
}
