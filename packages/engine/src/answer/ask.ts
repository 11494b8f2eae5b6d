/**
 * Asking, as named stages (docs/engine.md, "Answering"):
 *
 *   understand → retrieve → select → compose → check → certify → persist
 *
 * - understand.ts: the question's language, intent and slots, once; every later stage reads the plan.
 * - answerability.ts: a slot the collection cannot satisfy (a fiscal year it lacks) is a refusal
 *   that says what is available, before anything is searched.
 * - retrieve/plan.ts: the layered rewrite and hybrid search.
 * - select.ts + compose.ts (offline) or generate-llm.ts (a language model): the claims, each with
 *   its evidence spans.
 * - check.ts: support (verbatim, or verified) and relevance per claim; evidence that does not cover
 *   the question's distinctive content is not an answer, and the answer becomes a refusal that offers
 *   the closest passages as related.
 * - certify.ts: the v1.1 certificate under the proof package's render policy, signed.
 * - persist.ts: the log append in the same transaction as the certificate row; the bundle is
 *   returned only after that transaction commits.
 */
import type { Anchor, Bundle } from '@saksi/proof';
import { unreadableFigure } from '../budget/answer.js';
import { misreadAssumption } from '../budget/assumptions.js';
import { answerRiskOf, type Collection } from '../collections.js';
import type { Database, Queryable } from '../db/database.js';
import type { EmbeddingModel } from '../embed/model.js';
import { EngineError } from '../errors.js';
import type { SigningKeys } from '../keys.js';
import {
  dependentAyat,
  elucidationChunk,
  provisionChunk,
  rulesFor,
  sanctionsFor,
} from '../law/cross-references.js';
import type { AnswerModel } from '../llm/model.js';
import type { LogSequencer } from '../log/sequencer.js';
import type { TransparencyLog } from '../log/transparency-log.js';
import type { QueryExpander } from '../retrieve/expander.js';
import { pageDocuments } from '../retrieve/page-scope.js';
import { retrieveForQuestion } from '../retrieve/plan.js';
import type { QueryVariant, RetrievedChunk, RetrieveResult } from '../retrieve/retrieve.js';
import { rewriteQuery } from '../retrieve/rewrite.js';
import {
  boundedConversation,
  type ConversationTurn,
  conversationOf,
  DEFAULT_SESSION_POLICY,
  type SessionPolicy,
} from '../sessions.js';
import { type AnswerCheck, checkAnswer } from './answer-check.js';
import { type Refusal, refusalText, slotRefusal } from './answerability.js';
import {
  type AnswerShape,
  answerCacheKey,
  type CachedAnswer,
  cachedAnswer,
  contentVersion,
  recordCacheHit,
  storeCachedAnswer,
} from './cache.js';
import { certifyAnswer, reissueCertificate } from './certify.js';
import { type CheckedClaim, type ClaimJudge, checkClaims } from './check.js';
import type { ComposedClaim } from './compose.js';
import type { ClaimDecomposer } from './decompose.js';
import { followUpVariant, followUpVariants } from './follow-up.js';
import { generateWithModel, promptProfileOf } from './generate-llm.js';
import { ensureSession, persistAnswer } from './persist.js';
import { breadth, type QuestionTerms, questionTerms } from './relevance.js';
import { selectClaims } from './select.js';
import { continuationAfter, mergeGrounded, selectionChunks } from './selection.js';
import { bestSupportingSpan } from './spans.js';
import { type QuestionPlan, understand } from './understand.js';

export type { ClaimJudge, ClaimVerification } from './check.js';
export { loadBundle } from './persist.js';

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

/** Version of the `llm` generator: the prompt, parsing and span selection together. */
export const LLM_GENERATOR_VERSION = '1';
/** Version of the offline generator: selection and the composition templates together. */
export const EXTRACTIVE_GENERATOR_VERSION = '2';

const MAX_QUESTION = 4_000;
/** A claim of a relevant answer is kept when its own relevance reaches this share of the threshold. */
const CLAIM_FLOOR = 0.6;
/**
 * A claim quoting another passage than the kept ones must either answer about as well as the best
 * kept claim (this share of its relevance) or cover question words they leave out (this much breadth).
 */
const NEAR_BEST = 0.9;
const MIN_GAIN = 0.1;
/** Rewrite kinds that restate the question (not the phrase lists or follow-ups). */
const ANSWER_WORDINGS = new Set(['legal', 'translated']);
const NO_TIMINGS: RetrieveResult['timings'] = {
  embed_ms: 0,
  lexical_ms: 0,
  vector_ms: 0,
  fuse_ms: 0,
  total_ms: 0,
};

export async function ask(
  context: AskContext,
  collection: Collection,
  input: AskInput,
  onEvent: (event: AskEvent) => void = () => {},
): Promise<AskResult> {
  const started = performance.now();
  const question = input.question?.trim() ?? '';
  if (question.length === 0) throw new EngineError('INVALID_INPUT', 'The question is empty.');
  const maxQuestion = context.maxQuestionChars ?? MAX_QUESTION;
  if (question.length > maxQuestion)
    throw new EngineError('INVALID_INPUT', `The question is longer than ${maxQuestion} characters.`);
  const mode = input.mode ?? 'full';
  if (mode === 'selection' && !input.selection?.trim()) {
    throw new EngineError('INVALID_INPUT', 'mode "selection" needs the selected text in "selection".');
  }
  const { db } = context;
  const sessions = context.sessions ?? DEFAULT_SESSION_POLICY;
  const sessionId = await ensureSession(db, collection, input.session_id, sessions);
  onEvent({ type: 'session', session_id: sessionId });
  // The conversation the model sees: the client's own, or this session's newest stored turns.
  const conversation = input.conversation
    ? boundedConversation(input.conversation, sessions.promptTurns)
    : context.answerModel && input.session_id !== undefined
      ? await conversationOf(db, sessionId, sessions.promptTurns)
      : [];

  // understand
  const plan = understand(question, { collectionLanguage: collection.language });
  const extraVariants: QueryVariant[] = input.conversation
    ? followUpVariant(plan.normalized, input.conversation.map((turn) => turn.question).reverse(), {
        language: collection.language,
      })
    : await followUpVariants(db, sessionId, plan.normalized, { language: collection.language });

  // The documents of the page the question is asked on (the docs widget's page_url).
  const page =
    mode === 'full' && input.page_url
      ? await pageDocuments(context.reader ?? db, collection, input.page_url)
      : [];

  // An answer that depends on nothing but the question and the content may come from the cache.
  const cacheable =
    context.answerCache === true &&
    mode === 'full' &&
    extraVariants.length === 0 &&
    conversation.length === 0;
  const cacheKey = cacheable ? answerCacheKey(collection, question, answerShape(context, input, page)) : '';
  let version = 0;
  if (cacheable) {
    const hit = await cachedAnswer(db, collection.id, cacheKey);
    if (hit)
      return answerFromCache(
        context,
        collection,
        { sessionId, question, plan, cacheKey, hit, started },
        onEvent,
      );
    // Read before answering: an answer made while the content changed is not stored.
    version = await contentVersion(db, collection.id);
  }

  let refusal: Refusal | undefined = plan.empty
    ? { reason: 'INVALID_QUESTION' }
    : await slotRefusal(db, collection, plan, input.fiscal_year);

  // retrieve
  if (mode === 'selection' && input.selection)
    extraVariants.push({ text: input.selection.slice(0, 2_000), weight: 0.8, kind: 'selection' });
  let retrieval: Pick<RetrieveResult, 'results' | 'parameters' | 'timings'> = {
    results: [],
    parameters: { top_k: input.top_k ?? 5, rrf_k: 60, weights: {}, rewrite_variants: [] },
    timings: NO_TIMINGS,
  };
  let grounded: RetrievedChunk[] = [];
  const search = (documentIds?: readonly string[]) =>
    retrieveForQuestion(context.reader ?? db, context.embedding, collection, plan.normalized, {
      topK: input.top_k ?? 5,
      extraVariants,
      ...(context.expander ? { expander: context.expander } : {}),
      ...(input.document_type !== undefined ? { documentType: input.document_type } : {}),
      ...(input.fiscal_year !== undefined ? { fiscalYear: input.fiscal_year } : {}),
      ...(documentIds !== undefined ? { documentIds } : {}),
    });
  // The page's own passages are searched first. Offline, the collection is searched only when they
  // do not answer; a model is given both, the page's first.
  let pageFirst = false;
  if (!refusal) {
    if (page.length > 0 && !context.answerModel) {
      retrieval = await search(page);
      pageFirst = true;
    } else if (page.length > 0) {
      const [onPage, everywhere] = [await search(page), await search()];
      retrieval = { ...everywhere, results: mergeGrounded(onPage.results, everywhere.results) };
    } else retrieval = await search();
    // Selection mode: the chunk containing the selection and its neighbours come first (selection.ts).
    grounded =
      mode === 'selection' && input.selection ? await selectionChunks(db, collection, input.selection) : [];
    retrieval.results = mergeGrounded(grounded, retrieval.results);
  }

  // select + compose (offline) or generate (model)
  const answerStart = performance.now();
  const variants: QueryVariant[] = [
    ...rewriteQuery(plan.normalized, {
      language: collection.language,
      profile: collection.profile,
      glossary: collection.glossary,
    }),
    ...extraVariants,
  ];
  const scoringVariants = variants
    .filter((variant) => variant.kind !== 'original')
    .filter((variant) => variant.kind !== 'selection' || grounded.length > 0)
    .map((variant) => variant.text);
  // The question's wordings whose distinctive words the evidence must cover: as asked, in the
  // statute's terms, in the collection's language, and the selected passage a question is about.
  const terms = await questionTerms(
    db,
    collection,
    [
      plan.normalized,
      // What a definition question asks to define is a wording of it on its own.
      ...(plan.slots.subject ? [plan.slots.subject] : []),
      ...variants
        .filter(
          (variant) =>
            ANSWER_WORDINGS.has(variant.kind) || (variant.kind === 'selection' && grounded.length > 0),
        )
        .map((variant) => variant.text),
    ],
    plan,
  );
  /** Selects or generates the claims from `sources` and checks them; `refusal` stands when given. */
  const attempt = async (sources: RetrievedChunk[], refusal: Refusal | undefined) => {
    let claims: ComposedClaim[] = [];
    let generator: { kind: 'extractive' | 'llm'; model: string; version: string } = {
      kind: 'extractive',
      model: 'saksi-extractive',
      version: EXTRACTIVE_GENERATOR_VERSION,
    };
    let usage: Awaited<ReturnType<typeof generateWithModel>>['usage'] | undefined;
    if (!refusal && sources.length > 0) {
      if (context.answerModel) {
        const model = context.answerModel;
        const llm = await generateWithModel(model, {
          question,
          sources: sources.map((result) => ({
            chunk_id: result.chunk_id,
            document_id: result.document_id,
            text: result.text,
            score: result.score,
            citation: result.citation,
            ...(result.citation.label ? { label: result.citation.label } : {}),
          })),
          profile: promptProfileOf(collection.profile, collection.language),
          language: collection.language,
          conversation,
          onDelta: (text) => onEvent({ type: 'delta', text }),
          ...(context.signal ? { signal: context.signal } : {}),
        });
        generator = {
          kind: 'llm',
          model: `${model.provider}:${model.modelId}`,
          version: LLM_GENERATOR_VERSION,
        };
        usage = llm.usage;
        if (llm.found)
          claims = llm.claims.map((claim) => ({
            text: claim.text,
            statement: claim.sentence,
            evidence: claim.sources.map((sourceIndex) => ({
              sourceIndex,
              span: bestSupportingSpan(claim.sentence, sources[sourceIndex]!.text, collection.language),
            })),
          }));
      } else {
        // A question about a selection is usually answered by what follows it (the explanation, the example).
        const continuation =
          grounded.length > 0 && input.selection ? continuationAfter(sources, input.selection, 2) : [];
        claims = await selectClaims({
          db,
          collection,
          plan,
          terms,
          sources,
          variants: scoringVariants,
          continuation,
          links: {
            sanctionsFor: (ref) => sanctionsFor(db, collection, ref),
            rulesFor: (sanction) => rulesFor(db, collection, sanction),
            provision: (ref) => provisionChunk(db, collection, ref),
            elucidation: (ref) => elucidationChunk(db, collection, ref),
            dependents: (ref) => dependentAyat(db, collection, ref),
          },
        });
      }
    }
    if (!refusal && claims.length === 0)
      refusal = { reason: sources.length > 0 ? 'NOT_COVERED' : 'NO_EVIDENCE' };

    // check: support and relevance; evidence that does not answer the question is not an answer
    const check = await checkClaims(
      db,
      collection,
      {
        ...(context.judge ? { judge: context.judge } : {}),
        ...(context.decomposer ? { decomposer: context.decomposer } : {}),
        // The conversation reached the model as context: a claim that only it supports is not supported.
        ...(conversation.length > 0
          ? {
              history: {
                text: conversation.map((turn) => `${turn.question}\n${turn.answer}`).join('\n'),
                question,
              },
            }
          : {}),
      },
      plan,
      terms,
      claims,
      sources,
      collection.language,
    );
    let checked: CheckedClaim[] = check.claims;
    // Offline, a quote whose evidence does not answer the question is dropped; a model's claims stay in
    // the certificate, each under the render policy (blocked claims are shown as blocked).
    if (!refusal && context.answerModel === undefined) {
      checked = answeringClaims(checked, terms);
      if (checked.length === 0) refusal = { reason: 'NOT_COVERED' };
    }
    // The answer check: released as answering the question, or shown as related passages.
    const answerCheck = refusal
      ? undefined
      : checkAnswer({
          question,
          collection: collection.name,
          ...(mode === 'selection' && input.selection ? { context: input.selection } : {}),
          language: plan.language,
          claims: checked.map((item) => item.claim),
          sources,
          relevance: check.answer.score,
          relevanceThreshold: check.answer.threshold,
          ...(answerRiskOf(collection) !== undefined ? { alpha: answerRiskOf(collection)! } : {}),
        });
    return { refusal, check, checked, generator, usage, answerCheck };
  };
  let sources: RetrievedChunk[] = [...retrieval.results];
  // A model streams its answer: the sources are shown before it.
  if (context.answerModel)
    onEvent({ type: 'retrieval', results: retrieval.results, timings: retrieval.timings });
  let outcome = await attempt(sources, refusal);
  if (pageFirst && (outcome.refusal !== undefined || outcome.answerCheck?.answers !== true)) {
    retrieval = await search();
    sources = [...retrieval.results];
    outcome = await attempt(sources, refusal);
  }
  if (!context.answerModel)
    onEvent({ type: 'retrieval', results: retrieval.results, timings: retrieval.timings });
  const { generator, usage, answerCheck } = outcome;
  let checked = outcome.checked;
  refusal = outcome.refusal;
  // Claims that do not answer the question are shown as related passages, never as the answer.
  const related = refusal === undefined && answerCheck?.answers !== true;
  // A figure or assumption the statute states but OCR misread is named, not quoted (budget/answer.ts,
  // budget/assumptions.ts).
  if (refusal?.reason === 'NOT_COVERED' || refusal?.reason === 'NO_EVIDENCE') {
    const unreadable =
      (await misreadAssumption(db, collection, plan)) ?? (await unreadableFigure(db, collection, plan));
    if (unreadable) refusal = { ...refusal, unreadable };
  }
  if (refusal) checked = [];
  const quoted = checked
    .map((item) => item.claim.text)
    // Composed claims and multi-line quotes read as paragraphs; short quotes as one.
    .join(checked.some((c) => c.claim.composition || c.claim.text.includes('\n')) ? '\n\n' : ' ');
  const answer = refusal
    ? refusalText(refusal, plan, sources)
    : related
      ? relatedText(plan, answerCheck, quoted)
      : quoted;
  if (refusal || context.answerModel === undefined)
    for (const piece of answer.match(/\S+\s*/g) ?? []) onEvent({ type: 'delta', text: piece });
  const answerMs = performance.now() - answerStart;

  // certify
  const certifyStart = performance.now();
  const anchors = context.anchors
    ? await context.anchors([...new Set(sources.map((result) => result.document_id))])
    : new Map<string, Anchor>();
  const { certificate, signature, chunks } = certifyAnswer({
    keys: context.keys,
    collection,
    question,
    mode,
    ...(mode === 'selection' && input.selection ? { selection: input.selection } : {}),
    sessionId,
    retrieval,
    sources,
    answer,
    generator,
    claims: checked,
    // The certificate records the threshold each kept claim was held to (a share of relevance.ts's).
    claimThresholdShare: CLAIM_FLOOR,
    outcome: refusal ? 'refused' : related ? 'related' : 'answered',
    ...(refusal ? { refusal: refusal.reason } : { answerRelevance: outcome.check.answer }),
    ...(answerCheck && !refusal ? { answerCheck } : {}),
    anchors,
    confidenceThreshold: context.confidenceThreshold,
    requireAnchor: context.requireAnchor ?? false,
  });

  // persist
  const bundle = await persistAnswer(context.log, context.sequencer, {
    certificate,
    signature,
    chunks,
    collection,
    sessionId,
    question,
    answer,
    generatorModel: generator.model,
    ...(usage ? { usage } : {}),
    maxTurns: sessions.maxTurns,
    latencyMs: Math.round(performance.now() - started),
  });
  onEvent({ type: 'bundle', bundle });
  if (cacheable)
    await storeCachedAnswer(db, {
      collectionId: collection.id,
      key: cacheKey,
      version,
      question,
      answer,
      found: refusal === undefined && !related,
      bundle,
      results: sources,
    });
  return {
    session_id: sessionId,
    found: refusal === undefined && !related,
    answer,
    bundle,
    results: sources,
    plan,
    ...(answerCheck && !refusal ? { check: checkSummary(answerCheck) } : {}),
    cached: false,
    timings: {
      ...retrieval.timings,
      answer_ms: Math.round(answerMs * 100) / 100,
      certify_ms: Math.round((performance.now() - certifyStart) * 100) / 100,
    },
  };
}

function checkSummary(check: AnswerCheck): NonNullable<AskResult['check']> {
  const { score, threshold, alpha, answers, features } = check;
  return { score, threshold, alpha, answers, features };
}

const RELATED_LEAD: Record<'id' | 'en', { first: string; heading: string }> = {
  id: {
    first: 'Dokumen tidak menjawab pertanyaan ini secara pasti.',
    heading: 'Bagian yang terkait (bukan jawaban yang dikonfirmasi):',
  },
  en: {
    first: 'The documents do not confirm an answer to this question.',
    heading: 'Related passages (not a confirmed answer):',
  },
};
/** Why the check did not confirm the answer, when its deterministic part says so. */
/** How a reader names a constraint the passages do not meet ("2013", "UU 17/2003", "version 6", "Pasal 300"). */
const CONSTRAINT_NAMES: Record<'id' | 'en', Record<string, (value: string) => string>> = {
  id: {
    year: (value) => value,
    regulation: (value) => `nomor ${value}`,
    version: (value) => `versi ${value}`,
    section: (value) => `Pasal ${value}`,
  },
  en: {
    year: (value) => value,
    regulation: (value) => `number ${value}`,
    version: (value) => `version ${value}`,
    section: (value) => `section ${value}`,
  },
};
/** The kind of value a question asks for, as the reason names it. */
const ASKED_NAMES: Record<'id' | 'en', Record<string, string>> = {
  id: {
    amount: 'angka atau jumlah',
    duration: 'lama waktu',
    age: 'usia',
    date: 'tanggal atau waktu',
    sanction: 'sanksi',
    definition: 'pengertian',
  },
  en: {
    amount: 'an amount',
    duration: 'a length of time',
    age: 'an age',
    date: 'a date or time',
    sanction: 'a penalty',
    definition: 'a definition',
  },
};
/** Why the check did not confirm the answer, when its deterministic part says so. */
const RELATED_WHY: Record<
  'id' | 'en',
  { unmet: (what: string) => string; value: (kind: string) => string; misread: string }
> = {
  id: {
    unmet: (what) => `Bagian ini tidak menyebut ${what}.`,
    value: (kind) => `Bagian ini tidak menyatakan ${kind} yang ditanyakan.`,
    misread: 'Angka di bagian ini terbaca keliru oleh OCR (hasil pindaian); periksa dokumen aslinya.',
  },
  en: {
    unmet: (what) => `These passages do not mention ${what}.`,
    value: (kind) => `These passages do not state ${kind}, which the question asks for.`,
    misread: 'A figure in these passages was misread by OCR (a scanned page); check the original document.',
  },
};

/** The text of a related answer: what it is not, why when known, then the quotes. */
function relatedText(
  plan: Pick<QuestionPlan, 'language'>,
  check: AnswerCheck | undefined,
  quoted: string,
): string {
  const language = plan.language === 'en' ? 'en' : 'id';
  const why = RELATED_WHY[language];
  const unmet = (check?.reading.unmet ?? []).map((constraint) => {
    const [kind = '', value = ''] = constraint.split(/:(.*)/su);
    return CONSTRAINT_NAMES[language][kind]?.(value) ?? value;
  });
  const asked = check ? ASKED_NAMES[language][check.reading.asked] : undefined;
  const reason = check?.misread
    ? why.misread
    : unmet.length > 0
      ? why.unmet(unmet.join(language === 'id' ? ' dan ' : ' and '))
      : check && !check.reading.value_stated && asked
        ? why.value(asked)
        : '';
  const lead = RELATED_LEAD[language];
  return `${lead.first}${reason ? ` ${reason}` : ''} ${lead.heading}\n\n${quoted}`;
}

/** What besides the question shapes this answer: the key of the answer cache holds all of it. */
function answerShape(context: AskContext, input: AskInput, page: readonly string[]): AnswerShape {
  const model = context.answerModel;
  return {
    top_k: input.top_k ?? 5,
    page: [...page].sort(),
    document_type: input.document_type ?? null,
    fiscal_year: input.fiscal_year ?? null,
    generator: model
      ? `llm:${model.provider}:${model.modelId}:${LLM_GENERATOR_VERSION}`
      : `extractive:${EXTRACTIVE_GENERATOR_VERSION}`,
    verifiers: [
      ...(context.judge ? ['llm-judge'] : []),
      ...(context.decomposer ? ['llm-decomposition'] : []),
      ...(context.expander ? ['llm-expansion'] : []),
    ],
    confidence_threshold: context.confidenceThreshold,
    require_anchor: context.requireAnchor ?? false,
  };
}

/**
 * A question answered from the cache: the earlier answer and results, in a certificate issued again
 * for this asker (its own id, time and session reference; `reissueCertificate`), appended to the log
 * with the turn in the asker's session. The earlier certificate names the session it was asked in, so
 * it is never handed to another asker.
 */
async function answerFromCache(
  context: AskContext,
  collection: Collection,
  turn: {
    sessionId: string;
    question: string;
    plan: QuestionPlan;
    cacheKey: string;
    hit: CachedAnswer;
    started: number;
  },
  onEvent: (event: AskEvent) => void,
): Promise<AskResult> {
  const { hit, sessionId } = turn;
  const sessions = context.sessions ?? DEFAULT_SESSION_POLICY;
  onEvent({ type: 'retrieval', results: hit.results, timings: NO_TIMINGS });
  for (const piece of hit.answer.match(/\S+\s*/g) ?? []) onEvent({ type: 'delta', text: piece });
  // The bundle, as for a fresh answer, only once its log entry is durable.
  const certifyStart = performance.now();
  const { certificate, signature } = reissueCertificate(hit.bundle.certificate, {
    keys: context.keys,
    sessionId,
  });
  const bundle = await persistAnswer(context.log, context.sequencer, {
    certificate,
    signature,
    chunks: hit.bundle.chunks,
    collection,
    sessionId,
    question: turn.question,
    answer: hit.answer,
    generatorModel: certificate.answer.generator.model,
    maxTurns: sessions.maxTurns,
    latencyMs: Math.round(performance.now() - turn.started),
  });
  await recordCacheHit(context.db, { collectionId: collection.id, key: turn.cacheKey });
  onEvent({ type: 'bundle', bundle });
  return {
    session_id: sessionId,
    found: hit.found,
    answer: hit.answer,
    bundle,
    results: hit.results,
    plan: turn.plan,
    cached: true,
    timings: {
      ...NO_TIMINGS,
      total_ms: Math.round((performance.now() - turn.started) * 100) / 100,
      answer_ms: 0,
      certify_ms: Math.round((performance.now() - certifyStart) * 100) / 100,
    },
  };
}

/**
 * The offline claims that answer the question: each relevant enough on its own, and one quoting
 * another passage than those kept before it only when it answers about as well as the best of them or
 * covers words of the question they leave out (a second provision that merely shares the question's
 * words is noise beside the one that answers it). A linked claim (the rule of a sanction) stays
 * exactly when the claim it completes stays; further sentences of a kept passage stay with it.
 */
export function answeringClaims(checked: readonly CheckedClaim[], terms: QuestionTerms): CheckedClaim[] {
  const kept: CheckedClaim[] = [];
  const keptSources = new Set<number>();
  const covered = new Set<string>();
  let best = 0;
  let keptPrevious = false;
  for (const claim of checked) {
    if (claim.claim.linked) {
      if (!keptPrevious) continue;
    } else {
      const { score, threshold } = claim.relevance;
      keptPrevious = score >= threshold * CLAIM_FLOOR;
      const sources = claim.claim.evidence.map((item) => item.sourceIndex);
      if (keptPrevious && kept.length > 0 && !sources.some((index) => keptSources.has(index))) {
        const gain = breadth(terms, new Set([...covered, ...claim.lexemes])) - breadth(terms, covered);
        keptPrevious = score >= best * NEAR_BEST || gain >= MIN_GAIN;
      }
      if (!keptPrevious) continue;
      best = Math.max(best, score);
    }
    kept.push(claim);
    for (const item of claim.claim.evidence) keptSources.add(item.sourceIndex);
    for (const lexeme of claim.lexemes) covered.add(lexeme);
  }
  return kept;
}
