/**
 * Follow-up questions (docs/engine.md, "Retrieval"): a short or elliptical question in a
 * chat session ("kalau motor?", "what about appeals?") is retrieved together with the session's
 * previous question, as one more query variant. The certificate still records the user's own text,
 * and not these variants: their text is an earlier question of the session (certify.ts).
 */
import { recentQuestions } from '../answer-storage.js';
import type { Database } from '../db/database.js';
import type { CollectionGlossary } from '../retrieve/collection-glossary.js';
import type { QueryVariant } from '../retrieve/retrieve.js';
import { rewriteQuery } from '../retrieve/rewrite.js';

/** Questions of at most this many words count as elliptical. */
export const FOLLOW_UP_MAX_WORDS = 6;

/** Openers that mark a question as continuing the previous one (matched as whole words). */
export const FOLLOW_UP_OPENERS: readonly string[] = [
  'kalau',
  'kalo',
  'bagaimana dengan',
  'bagaimana kalau',
  'gimana dengan',
  'terus',
  'trus',
  'lalu',
  'what about',
  'how about',
  'and',
];

/**
 * The combined variants count twice the rewrite's usual weights (original 1.0 → 2.0, legal 2.0 → 4.0):
 * an elliptical question alone ("kalau motor?") is underspecified, so the combined question must
 * outweigh it, or the fused ranking stays on the standalone reading (measured on UU 22/2009).
 */
export const FOLLOW_UP_WEIGHT_FACTOR = 2;

/** Previous user questions taken into account, newest first (an elliptical one pulls in the one before). */
const MAX_PREVIOUS = 2;
const MAX_COMBINED = 2_000;

function words(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** True when `question` is short or opens like a continuation ("kalau …", "what about …"). */
export function isElliptical(question: string): boolean {
  const list = words(question);
  if (list.length === 0) return false;
  if (list.length <= FOLLOW_UP_MAX_WORDS) return true;
  const head = list.slice(0, 3).join(' ');
  return FOLLOW_UP_OPENERS.some((opener) => {
    if (!(head === opener || head.startsWith(`${opener} `))) return false;
    // "lalu lintas" (traffic) is a topic, not "then".
    return !(opener === 'lalu' && list[1] === 'lintas');
  });
}

/** The collection's language and its glossary (none: the combined question is not rewritten). */
export interface FollowUpOptions {
  language: 'id' | 'en';
  glossary?: CollectionGlossary | null | undefined;
}

/**
 * The combined variants for `question` given the session's previous user questions (newest first):
 * the previous and new question together (`follow-up`) and, when the collection's glossary applies, its
 * legal-language form (`follow-up-legal`), weighted by `FOLLOW_UP_WEIGHT_FACTOR`. Empty when the question
 * stands on its own or there is no history.
 */
export function followUpVariant(
  question: string,
  previous: readonly string[],
  options: FollowUpOptions,
): QueryVariant[] {
  if (!isElliptical(question) || previous.length === 0) return [];
  const context: string[] = [];
  for (const earlier of previous.slice(0, MAX_PREVIOUS)) {
    context.unshift(earlier);
    if (!isElliptical(earlier)) break;
  }
  const text = [...context, question].join(' ').slice(-MAX_COMBINED);
  return rewriteQuery(text, { language: options.language, glossary: options.glossary })
    .filter((variant) => variant.kind === 'original' || variant.kind === 'legal')
    .map((variant) => ({
      text: variant.text,
      weight: variant.weight * FOLLOW_UP_WEIGHT_FACTOR,
      kind: variant.kind === 'original' ? 'follow-up' : 'follow-up-legal',
    }));
}

/** The follow-up variants for `question` in session `sessionId` (empty for a new session). */
export async function followUpVariants(
  db: Database,
  sessionId: string,
  question: string,
  options: FollowUpOptions,
): Promise<QueryVariant[]> {
  if (!isElliptical(question)) return [];
  return followUpVariant(question, await recentQuestions(db, sessionId, MAX_PREVIOUS), options);
}
