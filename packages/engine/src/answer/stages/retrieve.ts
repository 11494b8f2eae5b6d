/**
 * Stage 2 of `ask`, retrieve (docs/engine.md, "Answering"): a slot the collection cannot satisfy is a
 * refusal before anything is searched (answerability.ts); otherwise the hybrid search of the
 * question's rewrite (retrieve/plan.ts) with the variants the turn adds, the page's own passages
 * first, and for a selection question the chunks holding the selection first.
 */
import type { Collection } from '../../collections.js';
import { retrieveForQuestion } from '../../retrieve/plan.js';
import type { QueryVariant, RetrievedChunk, RetrieveResult } from '../../retrieve/retrieve.js';
import { type Refusal, slotRefusal } from '../answerability.js';
import type { AskContext, AskInput } from '../ask-context.js';
import { NO_TIMINGS } from '../ask-context.js';
import { mergeGrounded, selectionChunks } from '../selection.js';
import type { Understood } from './understand.js';

/** The evidence found for the question. */
export interface Retrieved {
  /** Set when the question cannot be answered from this collection whatever is found. */
  refusal?: Refusal;
  retrieval: Pick<RetrieveResult, 'results' | 'parameters' | 'timings'>;
  /** The passages the answer is selected from: the results, in order. */
  sources: RetrievedChunk[];
  /** The chunks holding the selection and its neighbours (a selection question), first among the results. */
  grounded: RetrievedChunk[];
  /** The variants searched besides the rewrite: follow-ups and the selection. */
  variants: QueryVariant[];
  /** Offline, only the page's passages were searched: the collection is searched when they do not answer. */
  pageFirst: boolean;
}

export async function retrieveEvidence(
  context: AskContext,
  collection: Collection,
  input: AskInput,
  understood: Understood,
): Promise<Retrieved> {
  const { plan, selection, page } = understood;
  const refusal: Refusal | undefined = plan.empty
    ? { reason: 'INVALID_QUESTION' }
    : await slotRefusal(context.db, collection, plan, input.fiscal_year);
  const variants = [
    ...understood.followUps,
    ...(selection ? [{ text: selection.slice(0, 2_000), weight: 0.8, kind: 'selection' }] : []),
  ];
  const nothing: Retrieved = {
    ...(refusal ? { refusal } : {}),
    retrieval: {
      results: [],
      parameters: { top_k: input.top_k ?? 5, rrf_k: 60, weights: {}, rewrite_variants: [] },
      timings: NO_TIMINGS,
    },
    sources: [],
    grounded: [],
    variants,
    pageFirst: false,
  };
  if (refusal) return nothing;
  const search = (documentIds?: readonly string[]) =>
    searchQuestion(context, collection, input, understood, variants, documentIds);
  // The page's own passages are searched first. Offline, the collection is searched only when they
  // do not answer; a model is given both, the page's first.
  let retrieval: Pick<RetrieveResult, 'results' | 'parameters' | 'timings'>;
  const pageFirst = page.length > 0 && !context.answerModel;
  if (pageFirst) retrieval = await search(page);
  else if (page.length > 0) {
    const [onPage, everywhere] = [await search(page), await search()];
    retrieval = { ...everywhere, results: mergeGrounded(onPage.results, everywhere.results) };
  } else retrieval = await search();
  // Selection mode: the chunk containing the selection and its neighbours come first (selection.ts).
  const grounded = selection ? await selectionChunks(context.db, collection, selection) : [];
  retrieval.results = mergeGrounded(grounded, retrieval.results);
  return { retrieval, sources: [...retrieval.results], grounded, variants, pageFirst };
}

/** The whole collection searched, when the page's own passages did not answer. */
export async function retrieveEverywhere(
  context: AskContext,
  collection: Collection,
  input: AskInput,
  understood: Understood,
  retrieved: Retrieved,
): Promise<Retrieved> {
  const retrieval = await searchQuestion(context, collection, input, understood, retrieved.variants);
  return { ...retrieved, retrieval, sources: [...retrieval.results], pageFirst: false };
}

function searchQuestion(
  context: AskContext,
  collection: Collection,
  input: AskInput,
  understood: Understood,
  variants: QueryVariant[],
  documentIds?: readonly string[],
): Promise<RetrieveResult> {
  return retrieveForQuestion(
    context.reader ?? context.db,
    context.embedding,
    collection,
    understood.plan.normalized,
    {
      topK: input.top_k ?? 5,
      rewritten: understood.rewrite,
      extraVariants: variants,
      ...(context.expander ? { expander: context.expander } : {}),
      ...(input.document_type !== undefined ? { documentType: input.document_type } : {}),
      ...(input.fiscal_year !== undefined ? { fiscalYear: input.fiscal_year } : {}),
      ...(documentIds !== undefined ? { documentIds } : {}),
    },
  );
}
