/**
 * How-to answers outside a statute: a "how do I …" question is answered by the steps, and in
 * documentation the step is often the sentence that introduces a code block ("You can expose an
 * injectStore function from the interceptor file instead:") with the block itself, which the chunker
 * stores as the next chunk of the section. After the sentences that answer, the rest of their
 * paragraph's introduction and the code it introduces are quoted too (docs/engine.md, "Answering").
 */

import { type ComposedClaim, type SourceSpan, sourceIndexOf, verbatimQuote } from '../../answer/compose.js';
import { completeSpan, isStatement } from '../../answer/extractive.js';
import { splitSentences } from '../../answer/sentences.js';
import { codeChunkIdAt } from '../../answer-storage.js';
import type { Queryable } from '../../db/database.js';
import { loadChunks, type RetrievedChunk, toRetrievedChunk } from '../../retrieve/retrieve.js';

/** At most this many sentences between the last one quoted and the introduction of the code. */
const MAX_LEAD_SENTENCES = 2;
/** A code chunk longer than this is not quoted whole in an answer. */
const MAX_CODE_CHARS = 2_000;

/**
 * The quotes that complete a how-to answer from `source` after its quoted spans: the next sentences up
 * to one that ends with ":" (at most {@link MAX_LEAD_SENTENCES}, within the section's text), and the
 * code it introduces — in the chunk, or the next chunk of the same section when that is code (added
 * to `sources`). None when no code follows.
 */
export async function howToFollowing(
  db: Queryable,
  sources: RetrievedChunk[],
  sourceIndex: number,
  quoted: readonly SourceSpan[],
  markers: { source: number; next: number },
): Promise<ComposedClaim[]> {
  const source = sources[sourceIndex];
  if (!source || source.citation.pasal || quoted.length === 0) return [];
  const end = Math.max(...quoted.map((span) => span.end));
  const last = quoted.find((span) => span.end === end)!;
  const lead: SourceSpan[] = [];
  if (!/:\s*$/.test(last.text)) {
    for (const sentence of splitSentences(source.text)) {
      if (sentence.start < end) continue;
      if (lead.length >= MAX_LEAD_SENTENCES || !isStatement(sentence.text)) return [];
      lead.push(sentence);
      if (/:\s*$/.test(sentence.text)) break;
    }
    if (lead.length === 0 || !/:\s*$/.test(lead[lead.length - 1]!.text)) return [];
  }
  const introduction = lead[lead.length - 1] ?? last;
  // The code inside the chunk: the introduction is quoted with its block (completeSpan); a quoted
  // sentence ending with ":" already holds its block.
  const within = completeSpan(source.text, introduction);
  if (within && within.end > introduction.end) {
    if (lead.length === 0) return [];
    return [
      ...lead.slice(0, -1).map((sentence) => verbatimQuote(sourceIndex, sentence, markers.source)),
      verbatimQuote(sourceIndex, within, markers.source),
    ];
  }
  // The code as the next chunk of the section, right after the introduction.
  if (source.text.slice(introduction.end).trim() !== '') return [];
  const code = await nextCodeChunk(db, source);
  if (!code) return [];
  const claims = lead.map((sentence) => verbatimQuote(sourceIndex, sentence, markers.source));
  const codeIndex = sourceIndexOf(sources, code);
  const text = code.text.trim();
  const start = code.text.indexOf(text);
  claims.push(verbatimQuote(codeIndex, { start, end: start + text.length, text }, markers.next));
  return claims;
}

/** The chunk after `chunk` in its document when it is code of the same section, short enough to quote. */
async function nextCodeChunk(db: Queryable, chunk: RetrievedChunk): Promise<RetrievedChunk | undefined> {
  const id = await codeChunkIdAt(db, chunk.document_id, chunk.position + 1, MAX_CODE_CHARS);
  if (!id) return undefined;
  const row = (await loadChunks(db, [id])).get(id);
  if (!row) return undefined;
  const next = toRetrievedChunk(row, { score: 0, rank: 0, ranks: {} });
  const sameSection =
    (next.citation.section_path ?? []).join('\u0000') === (chunk.citation.section_path ?? []).join('\u0000');
  return sameSection ? next : undefined;
}
