/**
 * The claims of an answer before certification. Offline, every claim is a verbatim quote: exact
 * spans of the evidence followed by their citation markers, never a word of Saksi's own (the
 * certificate labels them `verbatim`, not with an entailment score; docs/engine.md, "Answering").
 */

import type { Composition } from '@saksi/proof';

/** A span of one source's text; offsets in UTF-16 code units, `text === source.slice(start, end)`. */
export interface SourceSpan {
  start: number;
  end: number;
  text: string;
}

/**
 * One piece of a composed claim (certificate v1.1, docs/certificate.md): a fixed word of the
 * template, the text of one of the claim's evidence spans, its citation label, a citation marker
 * "[n]", or the difference of two amount spans. Indices point into the claim's `evidence`. The
 * types are the proof package's, so what the composer writes is what a verifier recomputes.
 */
export type { Composition, CompositionPart } from '@saksi/proof';

/** One claim of an answer before certification. */
export interface ComposedClaim {
  /** As it appears in the answer, with its `[n]` marker. */
  text: string;
  /** What the verifiers read: the claim without its marker. */
  statement: string;
  evidence: { sourceIndex: number; span: SourceSpan }[];
  /** Present when the claim is composed from spans and template words rather than quoted. */
  composition?: Composition;
}

/** A verbatim quote: the span itself with its marker. */
export function verbatimQuote(sourceIndex: number, span: SourceSpan, marker: number): ComposedClaim {
  return { text: `${span.text} [${marker}]`, statement: span.text, evidence: [{ sourceIndex, span }] };
}
