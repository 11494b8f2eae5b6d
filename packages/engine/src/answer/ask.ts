/**
 * Asking (DESIGN.md §4 "Ask"): retrieve → extractive answer → claims with evidence spans → lexical
 * entailment and numeric fidelity per claim → fail-closed render decisions → certificate → Ed25519
 * signature → log append in the same transaction as the certificate row → bundle. The bundle is
 * returned only after that transaction commits.
 */
import {
  type Anchor,
  type Bundle,
  buildCertificate,
  type ClaimInput,
  codePointLength,
  decideRender,
  logLeafInput,
  signCertificate,
} from '@saksi/proof';
import type { Collection } from '../collections.js';
import type { Database } from '../db/database.js';
import type { EmbeddingModel } from '../embed/model.js';
import { EngineError } from '../errors.js';
import { newId } from '../ids.js';
import type { SigningKeys } from '../keys.js';
import type { AnswerModel, LlmUsage } from '../llm/model.js';
import type { LogSequencer } from '../log/sequencer.js';
import type { TransparencyLog } from '../log/transparency-log.js';
import { bestCheckpointFor } from '../log/witness.js';
import type { QueryExpander } from '../retrieve/expander.js';
import { retrieveForQuestion } from '../retrieve/plan.js';
import type { QueryVariant, RetrievedChunk, RetrieveResult } from '../retrieve/retrieve.js';
import { rewriteQuery } from '../retrieve/rewrite.js';
import { type ClaimDecomposer, conjunction } from './decompose.js';
import { checkEntailment, VERIFIER_ID, VERIFIER_VERSION } from './entailment.js';
import { type AnswerSource, extractiveAnswer } from './extractive.js';
import { followUpVariants } from './follow-up.js';
import { generateWithModel, promptProfileOf } from './generate-llm.js';
import { continuationAfter, mergeGrounded, selectionChunks } from './selection.js';
import { bestSupportingSpan } from './spans.js';

export interface AskInput {
  question: string;
  mode?: 'full' | 'selection';
  selection?: string;
  session_id?: string;
  top_k?: number;
  document_type?: string;
  fiscal_year?: number;
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
  timings: RetrieveResult['timings'] & { answer_ms: number; certify_ms: number };
}

export interface AskContext {
  db: Database;
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
}

/** A verifier besides the lexical one: judges a claim against its evidence spans. */
export interface ClaimJudge {
  judge(claim: string, evidence: string[], lexical: ClaimVerification): Promise<ClaimVerification>;
}

export type ClaimVerification = ClaimInput['verification'];

/** Version of the `llm` generator: the prompt, parsing and span selection together. */
export const LLM_GENERATOR_VERSION = '1';

const MAX_QUESTION = 4_000;

/** An answer before certification: its text, generator and claims with their evidence spans. */
interface Generated {
  found: boolean;
  text: string;
  generator: { kind: 'extractive' | 'llm'; model: string; version: string };
  usage?: LlmUsage;
  claims: {
    /** As it appears in the answer (with its `[n]` markers). */
    text: string;
    /** What the verifiers read. */
    statement: string;
    evidence: { sourceIndex: number; span: { start: number; end: number; text: string } }[];
  }[];
}

/**
 * The lexical verifier (always), then the judge when one is configured; no evidence is not supported.
 * With a decomposer, each atomic statement of the claim is verified so and the claim gets their
 * conjunction.
 */
async function verifyClaim(
  context: AskContext,
  statement: string,
  spans: string[],
  language: Collection['language'],
): Promise<ClaimVerification> {
  if (spans.length === 0) {
    return {
      label: 'not_supported',
      confidence: 0,
      verifier: { id: VERIFIER_ID, version: VERIFIER_VERSION },
    };
  }
  if (context.decomposer) {
    const atoms = await context.decomposer.decompose(statement, language);
    const verdicts: ClaimVerification[] = [];
    for (const atom of atoms) verdicts.push(await verifyStatement(context, atom, spans, language));
    return conjunction(verdicts, context.decomposer);
  }
  return verifyStatement(context, statement, spans, language);
}

async function verifyStatement(
  context: AskContext,
  statement: string,
  spans: string[],
  language: Collection['language'],
): Promise<ClaimVerification> {
  const entailment = checkEntailment(statement, spans.join(' '), language);
  const lexical: ClaimVerification = {
    label: entailment.label,
    confidence: Math.round(entailment.confidence * 1000) / 1000,
    verifier: { id: VERIFIER_ID, version: VERIFIER_VERSION },
  };
  return context.judge ? context.judge.judge(statement, spans, lexical) : lexical;
}

export async function ask(
  context: AskContext,
  collection: Collection,
  input: AskInput,
  onEvent: (event: AskEvent) => void = () => {},
): Promise<AskResult> {
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
  const sessionId = await ensureSession(db, collection, input.session_id);
  onEvent({ type: 'session', session_id: sessionId });

  const extraVariants: QueryVariant[] = [
    ...(await followUpVariants(db, sessionId, question, { language: collection.language })),
  ];
  if (mode === 'selection' && input.selection)
    extraVariants.push({ text: input.selection.slice(0, 2_000), weight: 0.8, kind: 'selection' });
  const variants: QueryVariant[] = [
    ...rewriteQuery(question, { language: collection.language, profile: collection.profile }),
    ...extraVariants,
  ];
  const retrieval = await retrieveForQuestion(db, context.embedding, collection, question, {
    topK: input.top_k ?? 5,
    extraVariants,
    ...(context.expander ? { expander: context.expander } : {}),
    ...(input.document_type !== undefined ? { documentType: input.document_type } : {}),
    ...(input.fiscal_year !== undefined ? { fiscalYear: input.fiscal_year } : {}),
  });
  // Selection mode: the chunk containing the selection and its neighbours come first (selection.ts).
  const grounded =
    mode === 'selection' && input.selection ? await selectionChunks(db, collection, input.selection) : [];
  retrieval.results = mergeGrounded(grounded, retrieval.results);
  onEvent({ type: 'retrieval', results: retrieval.results, timings: retrieval.timings });

  const answerStart = performance.now();
  const sources: AnswerSource[] = retrieval.results.map((result) => ({
    chunk_id: result.chunk_id,
    document_id: result.document_id,
    text: result.text,
    score: result.score,
    citation: result.citation,
  }));
  // Score sentences against the question and its rewrites, so statute wording found by the rewrite counts
  // (and against the selection when it was found: the answer is then about the selected passage).
  const scoringVariants = variants
    .filter((variant) => variant.kind !== 'original')
    .filter((variant) => variant.kind !== 'selection' || grounded.length > 0)
    .map((variant) => variant.text);
  let generated: Generated;
  if (context.answerModel) {
    const model = context.answerModel;
    const llm = await generateWithModel(model, {
      question,
      sources: retrieval.results.map((result, index) => ({
        ...sources[index]!,
        ...(result.citation.label ? { label: result.citation.label } : {}),
      })),
      profile: promptProfileOf(collection.profile, collection.language),
      language: collection.language,
      onDelta: (text) => onEvent({ type: 'delta', text }),
      ...(context.signal ? { signal: context.signal } : {}),
    });
    generated = {
      found: llm.found,
      text: llm.text,
      generator: { kind: 'llm', model: `${model.provider}:${model.modelId}`, version: LLM_GENERATOR_VERSION },
      usage: llm.usage,
      claims: llm.claims.map((claim) => ({
        text: claim.text,
        statement: claim.sentence,
        evidence: claim.sources.map((sourceIndex) => ({
          sourceIndex,
          span: bestSupportingSpan(claim.sentence, sources[sourceIndex]!.text, collection.language),
        })),
      })),
    };
  } else {
    // A question about a selection is usually answered by what follows it (the explanation, the example).
    const continuation =
      grounded.length > 0 && input.selection ? continuationAfter(retrieval.results, input.selection, 2) : [];
    const extractive = extractiveAnswer(question, sources, {
      language: collection.language,
      variants: scoringVariants,
      ...(continuation.length > 0 ? { continuation } : {}),
    });
    for (const piece of extractive.text.match(/\S+\s*/g) ?? []) onEvent({ type: 'delta', text: piece });
    generated = {
      found: extractive.found,
      text: extractive.text,
      generator: { kind: 'extractive', model: 'saksi-extractive', version: '1' },
      claims: extractive.claims.map((claim) => ({
        text: claim.text,
        statement: claim.text,
        evidence: [{ sourceIndex: claim.source_index, span: claim.span }],
      })),
    };
  }
  const answerMs = performance.now() - answerStart;

  const certifyStart = performance.now();
  const anchors = context.anchors
    ? await context.anchors([...new Set(retrieval.results.map((result) => result.document_id))])
    : new Map<string, Anchor>();
  const claims: ClaimInput[] = [];
  for (const claim of generated.claims) {
    const evidence = claim.evidence.map(({ sourceIndex, span }) => {
      const source = retrieval.results[sourceIndex]!;
      const anchor = anchors.get(source.document_id);
      return {
        chunk_id: source.chunk_id,
        document_id: source.document_id,
        chunk_text: source.text,
        span_text: span.text,
        span_from: codePointLength(source.text.slice(0, span.start)),
        document_proof: {
          leaf_index: source.position,
          tree_size: source.document.chunk_count,
          path: source.proof_path,
          document_root: source.document.root,
        },
        ...(anchor ? { anchor } : {}),
        citation: source.citation,
      };
    });
    const verification = await verifyClaim(
      context,
      claim.statement,
      evidence.map((item) => item.span_text),
      collection.language,
    );
    claims.push({
      text: claim.text,
      evidence,
      verification,
      render: {
        rendered: evidence.length > 0 && verification.label === 'entailed',
        reason:
          evidence.length === 0
            ? 'NO_EVIDENCE'
            : verification.label === 'entailed'
              ? 'OK'
              : verification.label === 'contradicted'
                ? 'CONTRADICTED'
                : 'NOT_SUPPORTED',
      },
    });
  }
  const { certificate, chunks } = buildCertificate({
    issuer: context.keys.issuer,
    query: {
      text: question,
      mode,
      ...(mode === 'selection' && input.selection ? { selection: input.selection } : {}),
      session_id: sessionId,
    },
    retrieval: {
      collection: collection.name,
      parameters: retrieval.parameters,
      results: retrieval.results.map((result) => ({
        chunk_id: result.chunk_id,
        document_id: result.document_id,
        chunk_sha256: result.sha256,
        rank: result.rank,
        score: result.score,
      })),
    },
    answer: { text: generated.text, generator: generated.generator },
    claims,
    policy: {
      confidence_threshold: context.confidenceThreshold,
      require_anchor: context.requireAnchor ?? false,
    },
  });
  // The issuer applies the same fail-closed policy a verifier will, and records its decision.
  const anchoredClaims = certificate.claims.map(
    (claim) => claim.evidence.length > 0 && claim.evidence.every((evidence) => evidence.anchor !== undefined),
  );
  const decisions = decideRender(certificate, { integrityOk: true, anchoredClaims });
  certificate.claims.forEach((claim, index) => {
    const decision = decisions[index]!;
    claim.render = { rendered: decision.rendered, reason: decision.reason };
  });
  const signature = signCertificate(certificate, context.keys.issuerSecretKey);
  const logged = await context.sequencer.append({
    certificateId: certificate.certificate_id,
    leafInput: logLeafInput(certificate, signature),
    write: async (tx, appended) => {
      await tx.query(
        'INSERT INTO certificates (id, collection_id, issued_at, certificate, signature, chunks, leaf_index) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [
          certificate.certificate_id,
          collection.id,
          certificate.issued_at,
          JSON.stringify(certificate),
          signature,
          JSON.stringify(chunks),
          appended.leaf_index,
        ],
      );
      await tx.query('INSERT INTO chat_messages (id, session_id, role, content) VALUES ($1, $2, $3, $4)', [
        newId('msg'),
        sessionId,
        'user',
        question,
      ]);
      await tx.query(
        'INSERT INTO chat_messages (id, session_id, role, content, certificate_id) VALUES ($1, $2, $3, $4, $5)',
        [newId('msg'), sessionId, 'assistant', generated.text, certificate.certificate_id],
      );
      if (generated.usage) {
        await tx.query(
          `INSERT INTO audit_log (actor, action, target, details) VALUES ($1, 'answer.llm', $2, $3)`,
          [
            sessionId,
            certificate.certificate_id,
            JSON.stringify({ model: generated.generator.model, usage: generated.usage }),
          ],
        );
      }
      await tx.query('UPDATE chat_sessions SET updated_at = now() WHERE id = $1', [sessionId]);
    },
  });
  const bundle: Bundle = {
    certificate,
    signature,
    log: {
      origin: context.log.origin,
      leaf_index: logged.leaf_index,
      inclusion_proof: logged.inclusion_proof,
      checkpoint: logged.checkpoint,
      cosignatures: logged.cosignatures,
    },
    chunks,
  };
  onEvent({ type: 'bundle', bundle });
  return {
    session_id: sessionId,
    found: generated.found,
    answer: generated.text,
    bundle,
    results: retrieval.results,
    timings: {
      ...retrieval.timings,
      answer_ms: Math.round(answerMs * 100) / 100,
      certify_ms: Math.round((performance.now() - certifyStart) * 100) / 100,
    },
  };
}

async function ensureSession(
  db: Database,
  collection: Collection,
  sessionId: string | undefined,
): Promise<string> {
  if (sessionId !== undefined) {
    const found = await db.query<{ id: string }>(
      'SELECT id FROM chat_sessions WHERE id = $1 AND collection_id = $2',
      [sessionId, collection.id],
    );
    if (found.rows.length === 0)
      throw new EngineError('NOT_FOUND', `No chat session ${sessionId} in collection ${collection.name}.`);
    return sessionId;
  }
  const id = newId('ses');
  await db.query('INSERT INTO chat_sessions (id, collection_id) VALUES ($1, $2)', [id, collection.id]);
  return id;
}

/** A stored bundle by certificate id, rebuilt with its original log proof and checkpoint. */
export async function loadBundle(
  db: Database,
  log: TransparencyLog,
  certificateId: string,
): Promise<Bundle | null> {
  const result = await db.query<{
    certificate: Bundle['certificate'];
    signature: string;
    chunks: Bundle['chunks'];
    leaf_index: number;
  }>('SELECT certificate, signature, chunks, leaf_index FROM certificates WHERE id = $1', [certificateId]);
  const row = result.rows[0];
  if (!row) return null;
  // The most-cosigned checkpoint that includes the entry, so bundles fetched later carry witnesses.
  const stored = await bestCheckpointFor(db, row.leaf_index);
  if (!stored)
    throw new EngineError('LOG_ERROR', `No stored checkpoint includes certificate ${certificateId}.`);
  const proof = await log.inclusionProof(db, row.leaf_index, stored.size);
  return {
    certificate: row.certificate,
    signature: row.signature,
    log: {
      origin: log.origin,
      leaf_index: row.leaf_index,
      inclusion_proof: proof.proof,
      checkpoint: stored.note,
      cosignatures: stored.cosignatures,
    },
    chunks: row.chunks,
  };
}
