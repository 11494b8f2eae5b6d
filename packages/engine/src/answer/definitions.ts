/**
 * Definitions: a question that asks what something is ("what exactly is a reducer?", "apa yang
 * dimaksud dengan Jalan Tol?") is answered by a sentence that defines it — "A reducer is a function
 * that…", "Jalan Tol adalah Jalan umum yang…", "The word "thunk" is a programming term that means…" —
 * wherever in the collection that sentence is, not only among the retrieved chunks, which for a
 * one-word question are usually pages that merely use the word (docs/engine.md, "Answering").
 *
 * The database finds chunks with a defining phrase for the subject (a regular expression over the
 * READY chunks of the collection); this module picks the sentence in which the subject is what is
 * being defined, preferring the sentence that opens with it.
 */
import { chunkIdsMatching } from '../answer-storage.js';
import type { Collection } from '../collections.js';
import type { Queryable } from '../db/database.js';
import { loadChunks, type RetrievedChunk, toRetrievedChunk } from '../retrieve/retrieve.js';
import type { SourceSpan } from './compose.js';
import { completeSpan, isStatement } from './extractive.js';
import { splitSentences } from './sentences.js';

/** Chunks read for one subject: enough to find the defining one, bounded work per question. */
const MAX_CHUNKS = 40;
const VERBS = '(?:is|are|refers to|means|adalah|ialah|merupakan|yaitu)';
/** Words that, right after "is a", judge the subject rather than say what kind of thing it is. */
const EVALUATIVE =
  /^(?:powerful|great|useful|important|common|good|popular|key|nice|very|really|better|best|major|helpful|valuable|critical)$/iu;

export interface DefinitionCandidate {
  chunk: RetrievedChunk;
  span: SourceSpan;
  /** 1 when the sentence opens with the subject ("A reducer is…"), less when it defines it later. */
  strength: number;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The subject as a pattern: its words with any spacing, the last one optionally plural. */
function subjectPattern(subject: string): string | undefined {
  const words = subject
    .split(/\s+/u)
    .map((word) => word.replace(/[^\p{L}\p{N}.$_-]/gu, ''))
    .filter(Boolean);
  if (words.length === 0 || words.length > 4) return undefined;
  const last = words.length - 1;
  return words
    .map((word, index) => (index === last ? `${escapeRegExp(word)}(?:s|es)?` : escapeRegExp(word)))
    .join('\\s+');
}

/** How strongly `sentence` defines the subject, 0 when it does not. */
export function definitionStrength(sentence: string, subject: string): number {
  const pattern = subjectPattern(subject);
  if (!pattern) return 0;
  const quoted = `["“'‘\`]?${pattern}["”'’\`]?`;
  const opening = new RegExp(
    `^(?:\\d{1,3}\\.\\s*)?(?:(?:a|an|the|sebuah|suatu)\\s+)?${quoted}(?:\\s*\\([^)]{1,80}\\))?\\s*,?\\s+${VERBS}\\s`,
    'iu',
  );
  if (opening.test(sentence)) {
    // "A reducer is a function that…", "Jalan Tol adalah…" define; "Reducers are the most important
    // concept…" only says something about the subject.
    const what = new RegExp(
      `^(?:\\d{1,3}\\.\\s*)?(?:(?:a|an|the|sebuah|suatu)\\s+)?${quoted}(?:\\s*\\([^)]{1,80}\\))?\\s*,?\\s+(?:(?:is|are)\\s+(?:a|an|any|one|simply|just|basically|plain|functions?|objects?|values?)\\b|refers to|means|adalah|ialah|yaitu)(\\s+\\S+)?`,
      'iu',
    );
    const match = what.exec(sentence);
    if (!match) return 0.7;
    // "Selector functions are a powerful tool for…" praises the subject; "A selector function is any
    // function that accepts…" says what it is.
    return EVALUATIVE.test(match[1]?.trim() ?? '') ? 0.8 : 0.95;
  }
  const named = new RegExp(
    `(?:the\\s+(?:word|term|name)\\s+${quoted}\\s+(?:is|means|comes)|yang dimaksud dengan\\s+${quoted}\\s+adalah)`,
    'iu',
  );
  if (named.test(sentence)) return 1;
  const inner = new RegExp(
    `(?:^|[\\s(])(?:(?:a|an|the)\\s+)?${quoted}\\s+${VERBS}\\s+(?:a|an|the|simply|just|suatu|sebuah)\\s`,
    'iu',
  );
  return inner.test(sentence) ? 0.6 : 0;
}

/**
 * The sentences of the collection that define `subject`, strongest first, the fuller first among
 * equals, then chunks already retrieved (`preferred`). Empty when the subject is too long or nothing defines it.
 */
export async function findDefinitions(
  db: Queryable,
  collection: Pick<Collection, 'id'>,
  subject: string,
  preferred: readonly string[] = [],
): Promise<DefinitionCandidate[]> {
  const pattern = subjectPattern(subject);
  if (!pattern) return [];
  // PostgreSQL's regular expressions (ARE) take the same syntax for these pieces; \m marks a word start.
  const found = await chunkIdsMatching(
    db,
    collection.id,
    `\\m${pattern}["”'’\`]?(\\s*\\([^)]{1,80}\\))?\\s*,?\\s+${VERBS}\\M`,
    MAX_CHUNKS,
  );
  const rows = await loadChunks(db, found);
  const candidates: DefinitionCandidate[] = [];
  for (const row of rows.values()) {
    const chunk = toRetrievedChunk(row, { score: 0, rank: 0, ranks: {} });
    for (const sentence of splitSentences(chunk.text)) {
      // A question in the sentence ("What the heck is a "thunk"? …") is not its definition.
      if (!isStatement(sentence.text) || sentence.text.includes('?')) continue;
      const strength = definitionStrength(sentence.text, subject);
      if (strength === 0) continue;
      const span = completeSpan(chunk.text, sentence);
      if (span) candidates.push({ chunk, span, strength });
    }
  }
  return candidates.sort(definitionOrder(preferred));
}

/**
 * The order of definitions: strongest first; among equals the fuller (up to a paragraph) over a bare
 * one, wherever it is ("Redux is a pattern and library for managing and updating global application
 * state, …" over "Redux is a pattern for managing application state."); then the one retrieved first.
 */
export function definitionOrder(
  preferred: readonly string[],
): (a: DefinitionCandidate, b: DefinitionCandidate) => number {
  const rank = (candidate: DefinitionCandidate) => {
    const index = preferred.indexOf(candidate.chunk.chunk_id);
    return index < 0 ? preferred.length : index;
  };
  const fullness = (candidate: DefinitionCandidate) => Math.min(candidate.span.text.length, 400);
  return (a, b) => b.strength - a.strength || fullness(b) - fullness(a) || rank(a) - rank(b);
}
