/**
 * Stage 1 of `ask`, understand (docs/engine.md, "Answering"): the question checked and read once —
 * its plan (language, intent, slots; understand.ts), its rewrite (retrieve/rewrite.ts), the variants
 * the conversation adds (follow-up.ts) and the documents of the page it is asked on. Every later
 * stage reads this; none reads the question again.
 */
import type { Collection } from '../../collections.js';
import { EngineError } from '../../errors.js';
import { pageDocuments } from '../../retrieve/page-scope.js';
import { rewriteOptionsOf } from '../../retrieve/plan.js';
import type { QueryVariant } from '../../retrieve/retrieve.js';
import { type RewriteResult, rewriteQueryDetailed } from '../../retrieve/rewrite.js';
import type { AskContext, AskInput } from '../ask-context.js';
import { followUpVariant, followUpVariants } from '../follow-up.js';
import { type QuestionPlan, understand } from '../understand.js';
import type { Turn } from './turn.js';

const MAX_QUESTION = 4_000;

/** The question as read: what retrieval searches and what the answer is checked against. */
export interface Understood {
  /** The question as asked, trimmed. */
  question: string;
  mode: 'full' | 'selection';
  /** The selected text a selection question is about. */
  selection?: string;
  plan: QuestionPlan;
  /** The question's rewrite, made once: retrieval searches it and the checks score with it. */
  rewrite: RewriteResult;
  /** The follow-up variants: this question read with the earlier ones of the conversation. */
  followUps: QueryVariant[];
  /** The documents published on the page the question is asked on (the docs widget's `page_url`). */
  page: string[];
}

/** The question and mode of `input`, or INVALID_INPUT before anything is written. */
export function checkQuestion(
  context: Pick<AskContext, 'maxQuestionChars'>,
  input: AskInput,
): Pick<Understood, 'question' | 'mode' | 'selection'> {
  const question = input.question?.trim() ?? '';
  if (question.length === 0) throw new EngineError('INVALID_INPUT', 'The question is empty.');
  const maxQuestion = context.maxQuestionChars ?? MAX_QUESTION;
  if (question.length > maxQuestion)
    throw new EngineError('INVALID_INPUT', `The question is longer than ${maxQuestion} characters.`);
  const mode = input.mode ?? 'full';
  if (mode === 'selection' && !input.selection?.trim()) {
    throw new EngineError('INVALID_INPUT', 'mode "selection" needs the selected text in "selection".');
  }
  return {
    question,
    mode,
    ...(mode === 'selection' && input.selection ? { selection: input.selection } : {}),
  };
}

export async function understandQuestion(
  context: AskContext,
  collection: Collection,
  input: AskInput,
  asked: Pick<Understood, 'question' | 'mode' | 'selection'>,
  turn: Turn,
): Promise<Understood> {
  const { db } = context;
  const plan = understand(asked.question, { collectionLanguage: collection.language });
  const followUps = input.conversation
    ? followUpVariant(plan.normalized, input.conversation.map((item) => item.question).reverse(), {
        language: collection.language,
        glossary: collection.glossary,
      })
    : await followUpVariants(db, turn.sessionId, plan.normalized, {
        language: collection.language,
        glossary: collection.glossary,
      });
  const page =
    asked.mode === 'full' && input.page_url
      ? await pageDocuments(context.reader ?? db, collection, input.page_url)
      : [];
  const rewrite = rewriteQueryDetailed(plan.normalized, rewriteOptionsOf(collection));
  return { ...asked, plan, rewrite, followUps, page };
}
