/**
 * What `ask` takes and gives (ask.ts): the question with its options, the engine's parts it answers
 * with, the events it streams and the result. Every stage (stages/) reads these.
 */
import type { Anchor, Bundle } from '@saksi/proof';
import type { Database, Queryable } from '../db/database.js';
import type { EmbeddingModel } from '../embed/model.js';
import type { SigningKeys } from '../keys.js';
import type { AnswerModel } from '../llm/model.js';
import type { LogSequencer } from '../log/sequencer.js';
import type { TransparencyLog } from '../log/transparency-log.js';
import type { QueryExpander } from '../retrieve/expander.js';
import type { RetrievedChunk, RetrieveResult } from '../retrieve/retrieve.js';
import type { ConversationTurn, SessionPolicy } from '../sessions.js';
import type { ClaimJudge } from './check.js';
import type { ClaimDecomposer } from './decompose.js';
import type { QuestionPlan } from './understand.js';

export interface AskInput {
  question: string;
  mode?: 'full' | 'selection';
  selection?: string;
  session_id?: string;
  top_k?: number;
  document_type?: string;
  fiscal_year?: number;
  /**
   * The page the question is asked on (the docs widget's `page_url`): in a collection with a base URL,
   * the documents published there are searched first (retrieve/page-scope.ts).
   */
  page_url?: string;
  /**
   * The conversation so far as the client keeps it (a stateless client's `messages[]`), oldest first;
   * used instead of the session's stored turns. Only context for the model and for elliptical follow-ups:
   * an earlier answer is never evidence.
   */
  conversation?: ConversationTurn[];
}

export type AskEvent =
  | { type: 'session'; session_id: string }
  | { type: 'retrieval'; results: RetrievedChunk[]; timings: RetrieveResult['timings'] }
  | { type: 'delta'; text: string }
  | { type: 'bundle'; bundle: Bundle };

export interface AskResult {
  session_id: string;
  found: boolean;
  answer: string;
  bundle: Bundle;
  results: RetrievedChunk[];
  /** What the question was understood to ask: language, intent, slots. */
  plan: QuestionPlan;
  /**
   * The answer check of an answer with claims (answer-check.ts): its score against the release
   * threshold, and the features it was computed from. Absent for a refusal and a cached answer.
   */
  check?: {
    score: number;
    threshold: number;
    alpha: number;
    answers: boolean;
    features: Record<string, number>;
  };
  /**
   * Answered from the answer cache: `answer`, `results` and `bundle` are those of the earlier answer
   * to the same question on the same content, whose certificate proves what was answered then.
   */
  cached: boolean;
  timings: RetrieveResult['timings'] & { answer_ms: number; certify_ms: number };
}

export interface AskContext {
  db: Database;
  /** Where retrieval reads (a replica); default `db`. Writes and the log always go to `db`. */
  reader?: Queryable;
  embedding: EmbeddingModel;
  keys: SigningKeys;
  log: TransparencyLog;
  sequencer: LogSequencer;
  confidenceThreshold: number;
  /** The on-chain anchors of these documents, for those already anchored. */
  anchors?: (documentIds: readonly string[]) => Promise<Map<string, Anchor>>;
  /** Collection policy: claims whose evidence is not anchored are not rendered. */
  requireAnchor?: boolean;
  /** The configured language model (`SAKSI_LLM`); without it answers are extractive. */
  answerModel?: AnswerModel;
  /** A second verifier run on every claim with evidence (the LLM judge); its verdict is recorded. */
  judge?: ClaimJudge;
  /** Longest question accepted (characters; default 4,000). */
  maxQuestionChars?: number;
  /** Aborts a model call in flight (the client went away). */
  signal?: AbortSignal;
  /** The LLM layer of the query rewriter (`SAKSI_QUERY_EXPANSION=llm`). */
  expander?: QueryExpander;
  /** Optional LLM claim decomposition (`SAKSI_CLAIMS=llm`): each atom is verified, the claim is their conjunction. */
  decomposer?: ClaimDecomposer;
  /** Sessions' time-to-live, turns kept and turns shown to the model (default {@link DEFAULT_SESSION_POLICY}). */
  sessions?: SessionPolicy;
  /** Answer a question asked again on unchanged content from the answer cache (cache.ts). */
  answerCache?: boolean;
}

/** The timings of an answer that searched nothing (a refusal before searching, a cached answer). */
export const NO_TIMINGS: RetrieveResult['timings'] = {
  embed_ms: 0,
  lexical_ms: 0,
  vector_ms: 0,
  fuse_ms: 0,
  total_ms: 0,
};

/** Streams `text` as the deltas an offline answer is shown in, word by word. */
export function streamText(text: string, onEvent: (event: AskEvent) => void): void {
  for (const piece of text.match(/\S+\s*/g) ?? []) onEvent({ type: 'delta', text: piece });
}
