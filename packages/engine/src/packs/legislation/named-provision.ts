/**
 * What a named provision says: a question that asks only that is answered with the provision's own
 * text (docs/engine.md, "Document-type packs").
 */
import { type ComposedClaim, lawQuote, sourceIndexOf, withoutAyatNumber } from '../../answer/compose.js';
import { completeSpan, isStatement } from '../../answer/extractive.js';
import { splitSentences } from '../../answer/sentences.js';
import { contentWords, stemWord } from '../../answer/stem.js';
import { namedPasal } from '../../retrieve/retrieve.js';
import type { ClaimInput } from '../pack.js';

/**
 * Words that ask what a provision says ("isinya apa", "bunyi", "mengatur apa", "what does … say"),
 * as typed and as stemmed (answer/stem.ts).
 */
const ASKS_WHAT_IT_SAYS = new Set([
  'isi',
  'isinya',
  'bunyi',
  'bunyinya',
  'atur',
  'ngatur',
  'mengatur',
  'diatur',
  'bahas',
  'membahas',
  'nyata',
  'menyatakan',
  'sebut',
  'menyebut',
  'jelas',
  'jelaskan',
  'tentang',
  'soal',
  'berisi',
  'ngomong',
  'ngomongin',
  'omong',
  'bilang',
  'katakan',
  'mengatakan',
  'maksud',
  'maksudnya',
  'say',
  'says',
  'state',
  'states',
  'contain',
  'contains',
  'cover',
  'covers',
  'mean',
  'means',
  'provide',
  'provides',
]);

/**
 * A question that only asks what one named Pasal (or one of its ayat) says — "pasal 287 isinya apa",
 * "apa bunyi Pasal 77", "Pasal 106 ayat 4 ngatur apa?", "what does Pasal 5 of PMK 79/PMK.07/2014 say"
 * — is answered with that provision's own text, from the body, never its elucidation: an
 * elucidation often says only "Cukup jelas", and a sanction that cites the Pasal is another
 * provision. Retrieval brings the named Pasal's chunks (its Pasal list, scoped to the regulation
 * the question names); nothing is quoted when it did not.
 */
export function namedProvisionClaims(input: ClaimInput): ComposedClaim[] {
  const question = input.plan.normalized;
  const named = namedPasal(question);
  if (named.length !== 1) return [];
  const ayat = /\bayat\s*\(?\s*(\d+[a-z]?)\s*\)?/iu.exec(question)?.[1];
  const candidates = input.sources.filter(
    (source) =>
      source.legal?.pasal === named[0] &&
      source.legal?.penjelasan !== true &&
      (ayat === undefined || source.legal?.ayat === ayat),
  );
  // The best-ranked document's provision, at its first ayat: several regulations have a Pasal 5.
  const document = candidates[0]?.document_id;
  const lead = candidates
    .filter((source) => source.document_id === document)
    .sort((a, b) => Number.parseInt(a.legal?.ayat ?? '0', 10) - Number.parseInt(b.legal?.ayat ?? '0', 10))[0];
  if (!lead?.citation.label) return [];
  // The question says nothing but the provision and that it wants its words.
  const { language } = input.collection;
  const reference = contentWords(`${lead.citation.label} ${lead.citation.document_title}`, language);
  const rest = contentWords(question, language).filter(
    (word) => !/\d/u.test(word) && !reference.includes(word) && !ASKS_WHAT_IT_SAYS.has(word),
  );
  const asked = question
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .some((word) => ASKS_WHAT_IT_SAYS.has(word) || ASKS_WHAT_IT_SAYS.has(stemWord(word, language)));
  if (!asked || rest.length > 0) return [];
  const first = splitSentences(lead.text).find((sentence) => isStatement(sentence.text));
  const span = first ? completeSpan(lead.text, withoutAyatNumber(first)) : undefined;
  if (!span) return [];
  const sourceIndex = sourceIndexOf(input.sources, lead);
  return [lawQuote('provision', input.plan.language, { sourceIndex, span, label: lead.citation.label }, 1)];
}
