/**
 * Selection grounding (the widget's "Ask about this"; `mode: "selection"` of `POST /api/v1/chat`,
 * docs/api.md, "Chat"): in that mode the answer is grounded in the text the reader selected. The chunk whose
 * text contains the selection — compared as lower-case letters and digits only, so Markdown marks,
 * punctuation and line breaks of the rendered page do not matter — and its neighbours (position ±1 in the
 * same document) come first in the sources, before the normal retrieval results. When the whole selection is
 * not found, its sentences are tried, longest first.
 */
import { chunksWithLexemesOf, neighbourChunks } from '../answer-storage.js';
import type { Collection } from '../collections.js';
import type { Queryable } from '../db/database.js';
import { loadChunks, type RetrievedChunk, toRetrievedChunk } from '../retrieve/retrieve.js';
import { isStatement } from './extractive.js';
import { splitSentences } from './sentences.js';

/** Longest selection considered (characters), as the API accepts. */
export const MAX_SELECTION = 2_000;
/** Candidate chunks (by full-text match) checked for containment per probe. */
const CANDIDATES = 200;
/** A probe shorter than this (letters and digits, spaces included) is too weak to locate a chunk. */
const MIN_PROBE = 12;

/** Lower-case letters and digits separated by single spaces: what "contains the selection" compares. */
export function matchKey(text: string): string {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.join(' ') ?? ''
  );
}

/** The texts to look for: the whole selection, then its sentences, longest first (no duplicates). */
export function selectionProbes(selection: string): string[] {
  const text = selection.slice(0, MAX_SELECTION);
  const probes = [matchKey(text)];
  const sentences = splitSentences(text)
    .map((sentence) => matchKey(sentence.text))
    .sort((a, b) => b.length - a.length);
  for (const sentence of sentences) if (!probes.includes(sentence)) probes.push(sentence);
  return probes.filter((probe) => probe.length >= MIN_PROBE);
}

/**
 * The chunk of `collection` (READY documents) containing `selection` and its neighbours, in
 * document order with the containing chunk first; empty when no chunk contains it.
 */
export async function selectionChunks(
  db: Queryable,
  collection: Collection,
  selection: string,
): Promise<RetrievedChunk[]> {
  for (const probe of selectionProbes(selection)) {
    // Every lexeme of the probe occurs in a chunk that contains it: the GIN index narrows the search.
    const candidates = await chunksWithLexemesOf(db, collection, probe, CANDIDATES);
    const hit = candidates.find((row) => matchKey(row.text).includes(probe));
    if (!hit) continue;
    const neighbours = await neighbourChunks(db, hit.document_id, hit.position);
    const ids = [hit.id, ...neighbours.map((row) => row.id).filter((id) => id !== hit.id)];
    const rows = await loadChunks(db, ids);
    return ids.flatMap((id) => {
      const row = rows.get(id);
      return row ? [toRetrievedChunk(row, { score: 0, rank: 0, ranks: { selection: 1 } })] : [];
    });
  }
  return [];
}

/**
 * `grounded` first, then `retrieved` without the chunks already there; ranks renumbered from 1.
 * A grounded chunk that retrieval also found keeps its retrieval score.
 */
export function mergeGrounded(grounded: RetrievedChunk[], retrieved: RetrievedChunk[]): RetrievedChunk[] {
  if (grounded.length === 0) return retrieved;
  const byId = new Map(retrieved.map((result) => [result.chunk_id, result]));
  const ids = new Set(grounded.map((chunk) => chunk.chunk_id));
  return [
    ...grounded.map((chunk) => ({ ...chunk, score: byId.get(chunk.chunk_id)?.score ?? chunk.score })),
    ...retrieved.filter((result) => !ids.has(result.chunk_id)),
  ].map((result, index) => ({ ...result, rank: index + 1 }));
}

/** A sentence of a source, by its index in the sources and its offsets in that source's text. */
export interface SourceSentence {
  sourceIndex: number;
  start: number;
  end: number;
  text: string;
}

/**
 * The statements that follow `selection` in its document: after the last sentence of the containing
 * chunk (`sources[0]`, as {@link selectionChunks} puts it first) that lies inside the selection, then
 * the sentences of the next chunk. At most `count`.
 */
export function continuationAfter(
  sources: readonly Pick<RetrievedChunk, 'text' | 'position' | 'document_id'>[],
  selection: string,
  count: number,
): SourceSentence[] {
  const hit = sources[0];
  if (!hit || count < 1) return [];
  const selected = matchKey(selection);
  const sentences = splitSentences(hit.text);
  let last = -1;
  sentences.forEach((sentence, index) => {
    const key = matchKey(sentence.text);
    if (key.length > 0 && selected.includes(key)) last = index;
  });
  if (last < 0) return [];
  const out: SourceSentence[] = [];
  const take = (sourceIndex: number, list: { text: string; start: number; end: number }[]) => {
    for (const sentence of list) {
      if (out.length >= count) return;
      if (isStatement(sentence.text)) out.push({ sourceIndex, ...sentence });
    }
  };
  take(0, sentences.slice(last + 1));
  const nextIndex = sources.findIndex(
    (source) => source.document_id === hit.document_id && source.position === hit.position + 1,
  );
  if (nextIndex > 0) take(nextIndex, splitSentences(sources[nextIndex]!.text));
  return out;
}
