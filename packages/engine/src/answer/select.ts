/**
 * The select stage of the offline answer: which exact spans answer the question, composed into
 * claims (compose.ts). In order of preference:
 *
 * 1. A sanction question on a statute: the criminal provision whose penalty and rule best cover the
 *    question, found among the retrieved chunks or through the cross-references of the retrieved
 *    rules ("sebagaimana dimaksud dalam Pasal 106 ayat (8)"), quoted with the rule it punishes.
 * 2. Otherwise the best sentences of the retrieved chunks (extractive.ts), the kind of statement the
 *    intent asks for first, lists and code blocks quoted whole.
 *
 * Chunks the first path brings in are appended to the sources, so the certificate lists every
 * chunk it cites among its retrieval results.
 */
import type { Collection } from '../collections.js';
import type { Queryable } from '../db/database.js';
import { lexemesOf } from '../retrieve/lexemes.js';
import type { RetrievedChunk } from '../retrieve/retrieve.js';
import { type ComposedClaim, type SourceSpan, verbatimQuote } from './compose.js';
import { completeSpan, extractiveAnswer } from './extractive.js';
import { answersIntent, coverage, type QuestionTerms } from './relevance.js';
import { splitSentences } from './sentences.js';
import type { QuestionPlan } from './understand.js';

/** The statute's cross-references, read from the stored chunks (law/cross-references.ts). */
export interface StatuteLinks {
  /** Criminal provisions that refer to this Pasal (and ayat). */
  sanctionsFor(ref: { pasal: string; ayat?: string }): Promise<RetrievedChunk[]>;
  /** The provisions a criminal provision refers to. */
  rulesFor(sanction: { text: string; pasal?: string }): Promise<RetrievedChunk[]>;
}

export interface SelectInput {
  db: Queryable;
  collection: Collection;
  plan: QuestionPlan;
  /** The question's weighted lexemes, for choosing among candidate provisions. */
  terms: QuestionTerms;
  /** Ranked retrieval results; chunks brought in by a path are appended. */
  sources: RetrievedChunk[];
  /** The rewrites of the question the sentences are also scored against. */
  variants: string[];
  /** Selection mode: sentences following the selected passage. */
  continuation?: { sourceIndex: number; start: number; end: number; text: string }[];
  links?: StatuteLinks;
}

const PENALTY = /\b(?:dipidana|denda paling banyak|sanksi administratif)\b/iu;
/** Sanction candidates considered (retrieved and cross-referenced). */
const MAX_SANCTIONS = 12;

/** Index of `chunk` among the sources, appending it when it is not there. */
function sourceIndexOf(sources: RetrievedChunk[], chunk: RetrievedChunk): number {
  const index = sources.findIndex((source) => source.chunk_id === chunk.chunk_id);
  if (index >= 0) return index;
  sources.push(chunk);
  return sources.length - 1;
}

/** The sentence of a provision that states its penalty, or the provision's first statement. */
function penaltySpan(text: string): SourceSpan | undefined {
  const sentences = splitSentences(text);
  const found = sentences.find((sentence) => PENALTY.test(sentence.text));
  if (!found) return undefined;
  // "(2) Setiap orang …": the ayat number is the citation's, not the statement's; a penalty that
  // introduces a list is quoted with its items.
  const lead = /^\(\d+[a-z]?\)\s*/.exec(found.text)?.[0].length ?? 0;
  return completeSpan(text, { start: found.start + lead, end: found.end, text: found.text.slice(lead) });
}

async function sanctionClaims(input: SelectInput): Promise<ComposedClaim[]> {
  const { sources, links, plan } = input;
  if (!links) return [];
  const candidates: RetrievedChunk[] = [];
  const seen = new Set<string>();
  const add = (chunk: RetrievedChunk) => {
    if (seen.has(chunk.chunk_id) || candidates.length >= MAX_SANCTIONS) return;
    seen.add(chunk.chunk_id);
    candidates.push(chunk);
  };
  for (const source of sources) if (PENALTY.test(source.text) && penaltySpan(source.text)) add(source);
  for (const source of sources) {
    if (PENALTY.test(source.text) || !source.citation.pasal) continue;
    const ref = {
      pasal: source.citation.pasal,
      ...(source.citation.ayat ? { ayat: source.citation.ayat } : {}),
    };
    for (const chunk of (await links.sanctionsFor(ref)).slice(0, 3)) if (penaltySpan(chunk.text)) add(chunk);
  }
  if (candidates.length === 0) return [];
  // Each candidate with the rules it punishes: coverage is read over both.
  const rules = await Promise.all(
    candidates.map((candidate) =>
      links.rulesFor({
        text: candidate.text,
        ...(candidate.citation.pasal ? { pasal: candidate.citation.pasal } : {}),
      }),
    ),
  );
  const texts = candidates.map((candidate, index) =>
    [candidate.text, ...rules[index]!.slice(0, 2).map((rule) => rule.text)].join('\n'),
  );
  const lexemes = await lexemesOf(input.db, input.collection, texts);
  let best = -1;
  let bestScore = 0;
  candidates.forEach((_, index) => {
    const score = coverage(input.terms, new Set(lexemes[index]));
    if (score > bestScore + 1e-9) {
      best = index;
      bestScore = score;
    }
  });
  if (best < 0) return [];
  const sanction = candidates[best]!;
  const sanctionIndex = sourceIndexOf(sources, sanction);
  const claims = [verbatimQuote(sanctionIndex, penaltySpan(sanction.text)!, 1)];
  const rule = rules[best]![0];
  if (rule) {
    const ruleIndex = sourceIndexOf(sources, rule);
    const statement = extractiveAnswer(plan.normalized, [rule], {
      language: input.collection.language,
      variants: input.variants,
      maxSentences: 1,
    }).claims[0];
    const sentence = statement?.span ?? splitSentences(rule.text).find((item) => item.text.length > 20);
    if (sentence) {
      const lead = /^\(\d+[a-z]?\)\s*/.exec(sentence.text)?.[0].length ?? 0;
      const span = { start: sentence.start + lead, end: sentence.end, text: sentence.text.slice(lead) };
      claims.push(verbatimQuote(ruleIndex, span, 2));
    }
  }
  return claims;
}

/** The offline claims for the question: composed from exact spans, or none when nothing answers. */
export async function selectClaims(input: SelectInput): Promise<ComposedClaim[]> {
  const { plan, sources } = input;
  if (plan.intent === 'sanction') {
    const claims = await sanctionClaims(input);
    if (claims.length > 0) return claims;
  }
  const extractive = extractiveAnswer(plan.normalized, sources, {
    language: input.collection.language,
    variants: input.variants,
    answersIntent: (text) => answersIntent(plan, text),
    ...(input.continuation && input.continuation.length > 0 ? { continuation: input.continuation } : {}),
  });
  if (!extractive.found) return [];
  return extractive.claims.map((claim, index) =>
    verbatimQuote(claim.source_index, claim.span, Number(/\[(\d+)\]$/.exec(claim.text)?.[1] ?? index + 1)),
  );
}
