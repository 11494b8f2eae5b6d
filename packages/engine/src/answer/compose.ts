/**
 * The claims of an answer before certification. Offline, a claim is a verbatim quote (an exact span
 * and its citation marker) or a composed claim: exact spans joined by the fixed words of a template
 * of the proof package's registry ("Menurut <Pasal>: <span> [1]"), which any verifier recomputes
 * from the evidence (docs/certificate.md, "Composed claims"). Never a word of Saksi's own beyond
 * those templates.
 */

import { type Composition, type CompositionPart, renderComposition } from '@saksi/proof';
import { COMPOSITION_TEMPLATES } from '@saksi/proof/vocabulary';
import type { RetrievedChunk } from '../retrieve/retrieve.js';

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
  /**
   * The claim completes the one before it (the rule a sanction punishes, the sanction of a rule):
   * the two are relevant, kept or dropped together.
   */
  linked?: boolean;
}

/** A verbatim quote: the span itself with its marker. */
/** Index of `chunk` among the sources, appending it when it is not there (a chunk a path brought in). */
export function sourceIndexOf(sources: RetrievedChunk[], chunk: RetrievedChunk): number {
  const index = sources.findIndex((source) => source.chunk_id === chunk.chunk_id);
  if (index >= 0) return index;
  sources.push(chunk);
  return sources.length - 1;
}

export function verbatimQuote(sourceIndex: number, span: SourceSpan, marker: number): ComposedClaim {
  return { text: `${span.text} [${marker}]`, statement: span.text, evidence: [{ sourceIndex, span }] };
}

/** Where a composed claim's evidence comes from: a source's span and its citation label. */
export interface ComposedEvidence {
  sourceIndex: number;
  span: SourceSpan;
  /** The source's citation label ("Pasal 291 ayat (1) UU 22/2009"), for `cite` parts. */
  label?: string;
}

/**
 * A composed claim: the text is the parts rendered by the proof package's `renderComposition` (fixed
 * words as written, a span's text, a citation's label, "[n]" for a marker, recomputed amounts),
 * exactly as a verifier recomputes it from the evidence; the statement the verifiers read leaves the
 * markers out, with the space before each. Parts that do not render (a fixed word the template does
 * not have, a `spelled` span that is no amount in words) are a bug of the composer: it throws.
 */
export function composeClaim(
  template: string,
  language: 'id' | 'en',
  evidence: readonly ComposedEvidence[],
  parts: readonly CompositionPart[],
): ComposedClaim {
  const read = evidence.map((item) => ({
    span: item.span,
    citation: item.label ? { label: item.label } : {},
  }));
  const rendered = renderComposition({ template, language, parts: [...parts] }, read, COMPOSITION_TEMPLATES);
  const statementParts = parts.filter((part, index) => {
    if ('marker' in part) return false;
    const next = parts[index + 1];
    return !('fixed' in part && part.fixed.trim() === '' && next !== undefined && 'marker' in next);
  });
  const statement = renderComposition(
    { template, language, parts: statementParts },
    read,
    COMPOSITION_TEMPLATES,
  );
  if (!rendered.ok || !statement.ok)
    throw new Error(`Composition ${template} does not render: ${rendered.ok ? '' : rendered.message}`);
  return {
    text: rendered.text,
    statement: statement.text.trim(),
    evidence: evidence.map(({ sourceIndex, span }) => ({ sourceIndex, span })),
    composition: { template, language, parts: [...parts] },
  };
}

/** The lead words of a statute quote, per role and language (the `law.*` templates of the registry). */
const LAW_LEADS = {
  provision: { id: 'Menurut ', en: 'Under ' },
  penalty: { id: 'Menurut ', en: 'Under ' },
  rule: { id: 'Aturan yang dilanggar, ', en: 'The rule broken, ' },
  sanction: { id: 'Sanksi, ', en: 'The penalty, ' },
} as const;

export type LawRole = keyof typeof LAW_LEADS;

/** The lead of a provision's quote ("Menurut "). */
export const LAW_LEADS_PROVISION = LAW_LEADS.provision;

/** The lead of the sanction of a rule the answer quotes ("Sanksi, "). */
export const LAW_LEADS_SANCTION = LAW_LEADS.sanction;

/** The lead of the rule a sanction punishes ("Aturan yang dilanggar, "). */
export const LAW_RULE_LEAD = LAW_LEADS.rule;

/** The sentence of a statute chunk without its leading ayat number ("(2) Setiap orang …"). */
export function withoutAyatNumber(span: SourceSpan): SourceSpan {
  const lead = /^\(\d+[a-z]?\)\s*/.exec(span.text)?.[0].length ?? 0;
  return lead === 0 ? span : { start: span.start + lead, end: span.end, text: span.text.slice(lead) };
}

/**
 * A statute quote led by its provision: "Menurut Pasal 291 ayat (1) UU 22/2009: Setiap orang … [1]"
 * (the span exactly as written). Without a citation label the quote stays verbatim.
 */
export function lawQuote(
  role: LawRole,
  language: 'id' | 'en',
  evidence: ComposedEvidence,
  marker: number,
): ComposedClaim {
  if (!evidence.label) return verbatimQuote(evidence.sourceIndex, evidence.span, marker);
  const template = role === 'provision' ? 'law.provision' : 'law.sanction';
  return composeClaim(
    template,
    language,
    [evidence],
    [
      { fixed: LAW_LEADS[role][language] },
      { cite: 0 },
      { fixed: ': ' },
      { span: 0 },
      { fixed: ' ' },
      { marker },
    ],
  );
}
