/**
 * One retrieval plan for a question, shared by `query` and `ask`: the layered rewrite (dictionaries,
 * patterns, per-collection weights), other spellings of any amount in the question, and fiscal years.
 * A question naming one year is first searched within that year's documents; a comparison of two or
 * more years searches each year and interleaves the results so every year's document appears. A year
 * filter that finds nothing (documents without fiscal-year metadata) falls back to the whole
 * collection. A question naming a regulation by its number is first searched within that
 * regulation's documents (named-regulation.ts), with the same fallback.
 */
import type { Collection } from '../collections.js';
import type { Queryable } from '../db/database.js';
import type { EmbeddingModel } from '../embed/model.js';
import { scopedDocuments } from '../packs/registry.js';
import { amountVariants, retrieveAcrossYears, yearComparison } from './amounts.js';
import { definingPattern } from './definitions.js';
import { expandQuery, type QueryExpander } from './expander.js';
import { type QueryVariant, type RetrieveOptions, type RetrieveResult, retrieve } from './retrieve.js';
import { type RewriteOptions, type RewriteResult, rewriteQuery, rewriteQueryDetailed } from './rewrite.js';

/** Weight of the list of candidates that define a word of a "what is …" question. */
const DEFINITION_WEIGHT = 3;
/** Weight of the heading arm for a "what is …" question to an English (documentation) collection. */
const DEFINITION_HEADING_WEIGHT = 2;

export interface PlanOptions extends RetrieveOptions {
  /** false: the question as written only (the evaluation's "no rewriting" configuration). */
  rewrite?: boolean;
  /** Variants the caller adds (follow-up, selection), searched in every year too. */
  extraVariants?: QueryVariant[];
  /** The LLM layer of the rewriter (a legal search query and key phrases); offline without it. */
  expander?: QueryExpander;
  /**
   * The question's rewrite when the caller has already made it (`ask` rewrites once, and scores the
   * answer with the same variants); made here otherwise.
   */
  rewritten?: RewriteResult;
}

/** How `collection` rewrites its questions: its language, profile and glossary. */
export function rewriteOptionsOf(collection: Collection): RewriteOptions {
  return { language: collection.language, profile: collection.profile, glossary: collection.glossary };
}

/**
 * `variants` without the fiscal year: searched within that year's documents, the year only favours the
 * passages that repeat it (headings, tables) over the one that answers.
 */
function withoutYear(variants: QueryVariant[], year: number): QueryVariant[] {
  const pattern = new RegExp(`(?:\\b(?:tahun anggaran|tahun|TA)\\s+)?(?<!\\d)${year}(?!\\d)`, 'giu');
  return variants.flatMap((variant) => {
    const text = variant.text.replace(pattern, ' ').replace(/\s+/g, ' ').trim();
    return text.length > 0 ? [{ ...variant, text }] : [];
  });
}

export async function retrieveForQuestion(
  db: Queryable,
  embedding: EmbeddingModel,
  collection: Collection,
  question: string,
  options: PlanOptions = {},
): Promise<RetrieveResult> {
  const { rewrite, extraVariants = [], expander, rewritten, ...retrieveOptions } = options;
  if (rewrite === false) {
    return retrieve(
      db,
      embedding,
      collection,
      [{ text: question, weight: 1, kind: 'original' }, ...extraVariants],
      retrieveOptions,
    );
  }
  const rewriteOptions = rewriteOptionsOf(collection);
  const detailed = expander
    ? await expandQuery(question, { ...rewriteOptions, expander, ...(rewritten ? { rewritten } : {}) })
    : (rewritten ?? rewriteQueryDetailed(question, rewriteOptions));
  // A figure question prefers passages that state one (not in a one-arm ablation, which stays pure).
  if (
    detailed.hints.kinds.includes('figure') &&
    retrieveOptions.preferFigures === undefined &&
    (retrieveOptions.arms ?? 'hybrid') === 'hybrid'
  )
    retrieveOptions.preferFigures = detailed.weights.legal;
  // A question asking for the penalty prefers passages that state one, likewise.
  if (
    detailed.hints.kinds.includes('sanction') &&
    retrieveOptions.preferPenalties === undefined &&
    (retrieveOptions.arms ?? 'hybrid') === 'hybrid'
  )
    retrieveOptions.preferPenalties = detailed.weights.legal;
  // A question about what something is: passages that define one of its words are preferred, and in
  // documentation (its headings name what each section explains) the heading arm weighs more.
  if (detailed.hints.kinds.includes('definition') && (retrieveOptions.arms ?? 'hybrid') === 'hybrid') {
    const pattern = definingPattern(question, collection.language);
    if (pattern && retrieveOptions.preferDefinitions === undefined)
      retrieveOptions.preferDefinitions = { pattern, weight: DEFINITION_WEIGHT };
    if (collection.language === 'en' && retrieveOptions.headingWeight === undefined)
      retrieveOptions.headingWeight = DEFINITION_HEADING_WEIGHT;
  }
  const variants = [...detailed.variants, ...amountVariants(question), ...extraVariants];
  if (retrieveOptions.documentIds === undefined) {
    // A regulation the question names by its number (the legislation pack): its documents first.
    const named = await scopedDocuments(db, collection, question);
    if (named) {
      const within = await retrieveForQuestion(db, embedding, collection, question, {
        ...options,
        documentIds: named,
      });
      if (within.results.length > 0) return within;
    }
  }
  if (retrieveOptions.fiscalYear === undefined) {
    const comparison = yearComparison(question);
    if (comparison) {
      const byYear = new Map(
        comparison.perYear.map((year) => [
          year.fiscalYear,
          withoutYear(
            [
              ...rewriteQuery(year.question, rewriteOptions),
              ...amountVariants(year.question),
              ...extraVariants,
            ],
            year.fiscalYear,
          ),
        ]),
      );
      const across = await retrieveAcrossYears(db, embedding, collection, byYear, retrieveOptions);
      if (across.results.length > 0) return across;
    } else if (detailed.hints.fiscal_year !== undefined) {
      const year = detailed.hints.fiscal_year;
      const within = await retrieve(db, embedding, collection, withoutYear(variants, year), {
        ...retrieveOptions,
        fiscalYear: year,
      });
      if (within.results.length > 0) return within;
    }
  }
  return retrieve(db, embedding, collection, variants, retrieveOptions);
}
