/**
 * Questions as the engine answers them (docs/architecture.md, "Data flows"): retrieval alone, an
 * answer with its certificate, a stored certificate's bundle or credential, and the verification of
 * a bundle against this server's own keys.
 */

import {
  type Bundle,
  type BundleVerification,
  fromBase64,
  trustOptions,
  type VerifyBundleOptions,
  verifyBundle,
} from '@saksi/proof';
import { certificateToCredential, type VerifiableCredential } from '@saksi/proof/vc';
import { SAKSI_VOCABULARY } from '@saksi/proof/vocabulary';
import type { Anchoring } from '../anchor/anchoring.js';
import type { Collections, InWorkspace } from '../collection-service.js';
import type { Collection } from '../collections.js';
import type { SaksiConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { EmbeddingModel } from '../embed/model.js';
import { EngineError } from '../errors.js';
import { asForeground } from '../ingest/priority.js';
import type { SigningKeys } from '../keys.js';
import { createLlmExpander } from '../llm/expander.js';
import type { AnswerModel } from '../llm/model.js';
import type { LogSequencer } from '../log/sequencer.js';
import type { TransparencyLog } from '../log/transparency-log.js';
import type { QueryExpander } from '../retrieve/expander.js';
import { retrieveForQuestion } from '../retrieve/plan.js';
import type { RetrievalArms, RetrieveResult } from '../retrieve/retrieve.js';
import { type AskEvent, type AskInput, type AskResult, ask, type ClaimJudge, loadBundle } from './ask.js';
import { createLlmDecomposer } from './decompose.js';
import { combineVerdicts, createLlmJudge, type LlmJudge } from './judge.js';

export interface QueryInput {
  question: string;
  top_k?: number;
  document_type?: string;
  fiscal_year?: number;
  /** Which retrieval arms run (default `hybrid`); the evaluation compares them. */
  arms?: RetrievalArms;
  /** Add the dictionary rewrites to the question (default true); false searches the question alone. */
  rewrite?: boolean;
}

export interface AskOptions extends InWorkspace {
  /** Receives retrieval results, text deltas and the final bundle as they come. */
  onEvent?: (event: AskEvent) => void;
  /** Answer afresh, neither served from nor stored in the answer cache (a calibration measures answering). */
  fresh?: boolean;
}

export interface AnswersParts {
  db: Database;
  config: SaksiConfig;
  embedding: EmbeddingModel;
  keys: SigningKeys;
  log: TransparencyLog;
  sequencer: LogSequencer;
  /** The configured language model, or null (extractive answers). */
  answerModel: AnswerModel | null;
  collections: Collections;
  anchoring: Anchoring;
}

export class Answers {
  private queryExpander: QueryExpander | undefined;

  constructor(private readonly parts: AnswersParts) {}

  /** Retrieval only: ranked chunks with citations, parent context and timings. */
  async query(collectionName: string, input: QueryInput, options: InWorkspace = {}): Promise<RetrieveResult> {
    const question = input.question?.trim() ?? '';
    if (!question) throw new EngineError('INVALID_INPUT', 'The question is empty.');
    const collection = await this.parts.collections.get(collectionName, options);
    const expander = this.expander();
    // Foreground work: ingestion in this process gives way to it (ingest/priority.ts).
    return asForeground(() =>
      retrieveForQuestion(this.parts.db.reader, this.parts.embedding, collection, question.slice(0, 4_000), {
        topK: input.top_k ?? 5,
        ...(expander ? { expander } : {}),
        ...(input.rewrite !== undefined ? { rewrite: input.rewrite } : {}),
        ...(input.arms !== undefined ? { arms: input.arms } : {}),
        ...(input.document_type !== undefined ? { documentType: input.document_type } : {}),
        ...(input.fiscal_year !== undefined ? { fiscalYear: input.fiscal_year } : {}),
      }),
    );
  }

  /**
   * Answers with a certificate recorded in the log. Given the collection's row (read by the caller for
   * its access check), the collection is not read again.
   */
  async ask(
    collectionOrName: string | Collection,
    input: AskInput,
    options: AskOptions = {},
  ): Promise<AskResult> {
    const collection =
      typeof collectionOrName === 'string'
        ? await this.parts.collections.get(collectionOrName, options)
        : collectionOrName;
    return asForeground(() => this.answer(collection, input, options.onEvent, options.fresh === true));
  }

  private answer(
    collection: Collection,
    input: AskInput,
    onEvent: ((event: AskEvent) => void) | undefined,
    fresh = false,
  ): Promise<AskResult> {
    const { db, config, answerModel, anchoring } = this.parts;
    const expander = this.expander();
    return ask(
      {
        db,
        // A turn of an existing session reads its own earlier turns' writes: everything from the
        // primary. A new chat may search a replica that trails by at most its lag bound.
        ...(input.session_id === undefined ? { reader: db.reader } : {}),
        embedding: this.parts.embedding,
        keys: this.parts.keys,
        log: this.parts.log,
        sequencer: this.parts.sequencer,
        confidenceThreshold: config.confidenceThreshold ?? 0.5,
        anchors: (documentIds) => anchoring.anchors(documentIds),
        requireAnchor: collection.profile['require_anchor'] === true,
        sessions: config.sessions,
        answerCache: config.answerCache.enabled && !fresh,
        ...(config.maxQuestionChars ? { maxQuestionChars: config.maxQuestionChars } : {}),
        ...(answerModel ? { answerModel } : {}),
        ...(expander ? { expander } : {}),
        ...(answerModel && config.claims === 'llm' ? { decomposer: createLlmDecomposer(answerModel) } : {}),
        ...(answerModel && config.verifier === 'llm-judge'
          ? { judge: judgeWith(createLlmJudge(answerModel, { language: collection.language })) }
          : {}),
      },
      collection,
      input,
      onEvent,
    );
  }

  /** The LLM query expander when `SAKSI_QUERY_EXPANSION=llm` (and a model is configured). */
  private expander(): QueryExpander | undefined {
    const { config, answerModel } = this.parts;
    if (config.queryExpansion !== 'llm' || !answerModel) return undefined;
    this.queryExpander ??= createLlmExpander(answerModel);
    return this.queryExpander;
  }

  /** A stored certificate with its proofs, as verifiers take it; NOT_FOUND for an unknown id. */
  async bundle(certificateId: string): Promise<Bundle> {
    const bundle = await loadBundle(this.parts.db, this.parts.log, certificateId);
    if (!bundle) throw new EngineError('NOT_FOUND', `No certificate ${certificateId}.`);
    return bundle;
  }

  /**
   * A certificate as a W3C Verifiable Credential (VC Data Model 2.0 with an `eddsa-jcs-2022` Data
   * Integrity proof; `certificateToCredential` of `@saksi/proof/vc`, docs/certificate.md), signed with
   * this server's issuer key. A certificate issued under another issuer key cannot be re-signed as
   * that issuer: `CONFLICT` (its bundle still verifies with the key it names).
   */
  async credential(certificateId: string): Promise<VerifiableCredential> {
    const { keys } = this.parts;
    const { certificate } = await this.bundle(certificateId);
    if (certificate.issuer.key_id !== keys.issuer.key_id) {
      throw new EngineError(
        'CONFLICT',
        `Certificate ${certificateId} was issued under key ${certificate.issuer.key_id}; this server signs with ${keys.issuer.key_id} and cannot make its credential. Fetch the bundle instead.`,
      );
    }
    return certificateToCredential(certificate as unknown as Record<string, unknown>, {
      secretKey: keys.issuerSecretKey,
      publicKey: fromBase64(keys.issuer.public_key),
    });
  }

  /** Verifies a bundle against this server's own keys (the same `verifyBundle` the CLI and browser run). */
  verify(bundle: unknown, options: Partial<VerifyBundleOptions> = {}): Promise<BundleVerification> {
    return verifyBundle(bundle, this.verificationOptions(options));
  }

  /**
   * The options {@link verify} passes to `verifyBundle`: this server's trusted keys, its log's
   * consistency proofs and its chain's anchor lookup, then `options`. The server's verification
   * threads take the data from it and call the two functions back on the server's thread.
   */
  verificationOptions(options: Partial<VerifyBundleOptions> = {}): VerifyBundleOptions {
    const { db, keys, log, anchoring } = this.parts;
    const anchorLookup = anchoring.lookup();
    return {
      ...trustOptions(keys.trusted),
      fetchConsistencyProof: async (first, second) => (await log.consistencyProof(db, first, second)).proof,
      ...(anchorLookup ? { anchorLookup } : {}),
      ...options,
      vocabulary: options.vocabulary ?? SAKSI_VOCABULARY,
    };
  }
}

/** The LLM judge as a second verifier: its verdict, combined with the lexical one, is recorded. */
function judgeWith(judge: LlmJudge): ClaimJudge {
  return {
    async judge(claim, evidence, lexical) {
      const verdict = combineVerdicts(lexical, await judge.judge(claim, evidence));
      return { label: verdict.label, confidence: verdict.confidence, verifier: verdict.verifier };
    },
  };
}
