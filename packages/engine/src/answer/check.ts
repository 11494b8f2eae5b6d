/**
 * The check stage: for each claim, whether it is supported by its spans and whether its evidence is
 * relevant to the question — two results certified apart from authenticity (docs/certificate.md,
 * "Three results").
 *
 * - A verbatim quote is supported by construction: its verifier is `verbatim`, not an entailment
 *   score (a verifier checks the span's hash and offsets in its chunk).
 * - A composed claim (spans and fixed template words) is supported by construction too: its verifier
 *   is `composition`, and a verifier recomputes its text from the evidence.
 * - Anything a model wrote goes through the lexical entailment verifier and, when configured, the
 *   LLM judge (and the claim decomposer).
 * - Relevance is `lexical-v4` (relevance.ts) over the evidence spans and the citation's headings.
 */
import type { ClaimInput } from '@saksi/proof/issue';
import type { Collection } from '../collections.js';
import type { Queryable } from '../db/database.js';
import { lexemesOf } from '../retrieve/lexemes.js';
import type { ComposedClaim } from './compose.js';
import { type ClaimDecomposer, conjunction } from './decompose.js';
import { checkEntailment, VERIFIER_ID, VERIFIER_VERSION } from './entailment.js';
import { type QuestionTerms, type RelevanceResult, relevanceOf } from './relevance.js';
import type { Language } from './stem.js';
import type { QuestionPlan } from './understand.js';

export type ClaimVerification = ClaimInput['verification'];

/** A verifier besides the lexical one: judges a claim against its evidence spans. */
export interface ClaimJudge {
  judge(claim: string, evidence: string[], lexical: ClaimVerification): Promise<ClaimVerification>;
}

export interface Support {
  result: 'verbatim' | 'composed' | 'entailed' | 'not_supported' | 'contradicted';
  method: string;
  score?: number;
}

export interface CheckedClaim {
  claim: ComposedClaim;
  verification: ClaimVerification;
  support: Support;
  relevance: RelevanceResult;
  /** The lexemes of the claim's own evidence (spans and headings), for comparing claims. */
  lexemes: ReadonlySet<string>;
}

export const VERBATIM_VERIFIER = { id: 'verbatim', version: '1' } as const;
/** A claim composed from spans and template words: a verifier recomputes it (docs/certificate.md). */
export const COMPOSITION_VERIFIER = { id: 'composition', version: '1' } as const;

export interface CheckContext {
  judge?: ClaimJudge;
  decomposer?: ClaimDecomposer;
  /**
   * The chat's earlier turns (a session's or a client's `messages[]`) and the current question: never
   * evidence. A claim whose unsupported words, codes or figures are in them is not supported
   * (`HISTORY_ONLY`, entailment.ts), whatever a judge says.
   */
  history?: { text: string; question: string };
}

/** Where a claim's evidence comes from: its text and the headings of its citation. */
export interface CheckSource {
  text: string;
  citation: { label?: string; section_path?: string[]; document_title: string };
}

async function verifyStatement(
  context: CheckContext,
  statement: string,
  spans: string[],
  language: Language,
  headings: string,
): Promise<ClaimVerification> {
  // One span a line: words joining two spans are no edit of either (entailment.ts).
  const entailment = checkEntailment(statement, spans.join('\n'), language, {
    context: headings,
    ...(context.history ? { history: context.history.text, question: context.history.question } : {}),
  });
  const lexical: ClaimVerification = {
    label: entailment.label,
    confidence: Math.round(entailment.confidence * 1000) / 1000,
    verifier: { id: VERIFIER_ID, version: VERIFIER_VERSION },
  };
  if (!context.judge) return lexical;
  const judged = await context.judge.judge(statement, spans, lexical);
  // What only the chat's history says is not evidence, whatever the judge concluded.
  return entailment.reasons.includes('HISTORY_ONLY') && judged.label === 'entailed'
    ? { ...judged, label: 'not_supported' }
    : judged;
}

/**
 * The lexical verifier (always), then the judge when one is configured; no evidence is not
 * supported. With a decomposer, each atomic statement is verified and the claim gets their conjunction.
 * `headings` are the headings of the claim's citations (labels, section paths, document titles): a
 * code such as "Pasal 287 ayat (2)" may align to them.
 */
export async function verifyGenerated(
  context: CheckContext,
  statement: string,
  spans: string[],
  language: Language,
  headings = '',
): Promise<ClaimVerification> {
  if (spans.length === 0)
    return {
      label: 'not_supported',
      confidence: 0,
      verifier: { id: VERIFIER_ID, version: VERIFIER_VERSION },
    };
  if (context.decomposer) {
    const atoms = await context.decomposer.decompose(statement, language);
    const verdicts: ClaimVerification[] = [];
    for (const atom of atoms) verdicts.push(await verifyStatement(context, atom, spans, language, headings));
    return conjunction(verdicts, context.decomposer);
  }
  return verifyStatement(context, statement, spans, language, headings);
}

/**
 * The text whose kind of statement is read against the intent (a penalty, an amount): the evidence
 * spans, and a composed claim's statement, which may state an amount its words only spell (the
 * `spelled` part, recomputed from the evidence by every verifier).
 */
function kindText(claim: ComposedClaim): string {
  const spans = claim.evidence.map((item) => item.span.text);
  return (claim.composition ? [...spans, claim.statement] : spans).join('\n');
}

/** Whether the claim's text is exactly its one evidence span (a quote). */
export function isVerbatim(claim: ComposedClaim): boolean {
  return claim.evidence.length === 1 && claim.statement === claim.evidence[0]!.span.text;
}

/**
 * Checks every claim: support (verbatim or verified) and relevance to the question, and the
 * relevance of the answer as a whole (all its evidence together: a sanction and the rule it punishes
 * answer a question neither answers alone).
 */
export async function checkClaims(
  db: Queryable,
  collection: Pick<Collection, 'text_search_config'>,
  context: CheckContext,
  plan: Pick<QuestionPlan, 'intent' | 'requirement'>,
  terms: QuestionTerms,
  claims: readonly ComposedClaim[],
  sources: readonly CheckSource[],
  language: Language,
): Promise<{ claims: CheckedClaim[]; answer: RelevanceResult }> {
  const evidenceTexts = claims.map((claim) =>
    claim.evidence
      .map(({ sourceIndex, span }) => {
        const citation = sources[sourceIndex]!.citation;
        return [span.text, ...(citation.section_path ?? []), citation.label ?? ''].join('\n');
      })
      .join('\n'),
  );
  // Linked claims (a sanction and its rule) are read together: each group's evidence as one text.
  const groups: number[][] = [];
  claims.forEach((claim, index) => {
    if (claim.linked && groups.length > 0) groups[groups.length - 1]!.push(index);
    else groups.push([index]);
  });
  const groupTexts = groups.map((group) => group.map((index) => evidenceTexts[index]!).join('\n'));
  const lexemes = await lexemesOf(db, collection, [
    ...evidenceTexts,
    evidenceTexts.join('\n'),
    ...groupTexts,
  ]);
  const groupOf = new Map<number, number>();
  groups.forEach((group, groupIndex) => {
    for (const index of group) groupOf.set(index, groupIndex);
  });
  const answer = relevanceOf(
    plan,
    terms,
    new Set(lexemes[claims.length] ?? []),
    claims.map(kindText).join('\n'),
  );
  const checked: CheckedClaim[] = [];
  for (const [index, claim] of claims.entries()) {
    const spans = claim.evidence.map((item) => item.span.text);
    const ownLexemes = new Set(lexemes[index] ?? []);
    const own = relevanceOf(plan, terms, ownLexemes, kindText(claim));
    const groupIndex = groupOf.get(index)!;
    const group = groups[groupIndex]!;
    const relevance =
      group.length > 1
        ? relevanceOf(
            plan,
            terms,
            new Set(lexemes[claims.length + 1 + groupIndex] ?? []),
            group.map((member) => kindText(claims[member]!)).join('\n'),
          )
        : own;
    if (isVerbatim(claim)) {
      checked.push({
        claim,
        verification: { label: 'entailed', confidence: 1, verifier: { ...VERBATIM_VERIFIER } },
        support: { result: 'verbatim', method: 'verbatim' },
        relevance,
        lexemes: ownLexemes,
      });
      continue;
    }
    if (claim.composition) {
      checked.push({
        claim,
        verification: { label: 'entailed', confidence: 1, verifier: { ...COMPOSITION_VERIFIER } },
        support: { result: 'composed', method: 'composition' },
        relevance,
        lexemes: ownLexemes,
      });
      continue;
    }
    const headings = claim.evidence
      .flatMap(({ sourceIndex }) => {
        const citation = sources[sourceIndex]!.citation;
        return [citation.label ?? '', ...(citation.section_path ?? []), citation.document_title];
      })
      .join('\n');
    const verification = await verifyGenerated(context, claim.statement, spans, language, headings);
    checked.push({
      claim,
      verification,
      support: {
        result: verification.label,
        method: verification.verifier.id,
        score: verification.confidence,
      },
      relevance,
      lexemes: ownLexemes,
    });
  }
  return { claims: checked, answer };
}
