/**
 * The claims of an answer before certification. Offline, every claim is a verbatim quote: exact
 * spans of the evidence followed by their citation markers, never a word of Saksi's own (the
 * certificate labels them `verbatim`, not with an entailment score; docs/engine.md, "Answering").
 */

/** A span of one source's text; offsets in UTF-16 code units, `text === source.slice(start, end)`. */
export interface SourceSpan {
  start: number;
  end: number;
  text: string;
}

/** One claim of an answer before certification. */
export interface ComposedClaim {
  /** As it appears in the answer, with its `[n]` marker. */
  text: string;
  /** What the verifiers read: the claim without its marker. */
  statement: string;
  evidence: { sourceIndex: number; span: SourceSpan }[];
}

/** A verbatim quote: the span itself with its marker. */
export function verbatimQuote(sourceIndex: number, span: SourceSpan, marker: number): ComposedClaim {
  return { text: `${span.text} [${marker}]`, statement: span.text, evidence: [{ sourceIndex, span }] };
}
