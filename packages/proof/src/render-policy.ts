/**
 * The fail-closed render policy (docs/certificate.md, "Render policy" and "Three results"): a claim
 * is shown as verified only when every integrity check passed AND the verifier's own reading of the
 * claim agrees. The decision is made here, by the verifier, never taken from text a model produced.
 *
 * Besides the render decision, each claim gets two of the three results a reader sees — whether it
 * is *supported* by its evidence and whether that evidence is *relevant* to the question — and the
 * answer gets its outcome and relevance, and (certificate v1.2) the verifier's reading of its answer
 * check. (The third, *authentic*, is the integrity checks of verify-bundle.ts.)
 */
import { type AskedRule, readAnswerCheck } from './answer-check.js';
import type {
  AnswerCheck,
  AnswerOutcome,
  Certificate,
  Claim,
  RefusalReason,
  RelevanceMethod,
  RenderReason,
} from './certificate.js';
import { evidencePartTexts, isVerbatimComposition, renderComposition } from './composition.js';
import { unsupportedFigures } from './numbers.js';
import type { CompositionTemplates } from './templates.js';

/** How a claim is supported by its evidence, as the verifier decided it. */
export type SupportKind = 'verbatim' | 'composed' | 'entailed' | 'not_supported' | 'contradicted';

/**
 * The *supported* result of a claim. `verbatim` and `composed` are decided by the verifier itself
 * (the claim is its span, or recomputes from its composition; the spans' hashes and offsets are
 * integrity checks), never read from a score. `entailed` repeats the certificate's entailment
 * verifier (`method`) and its `score`.
 */
export interface SupportDecision {
  kind: SupportKind;
  /**
   * `verbatim`, `composition`, the entailment verifier's id, or what the verifier found wrong:
   * `integrity`, `no-evidence`, `figures`, `qualifiers`.
   */
  method: string;
  score?: number;
  /** For `verbatim` and `composed`: how many evidence spans the claim is made of. */
  spans?: number;
}

/**
 * The *relevant* result of a claim or answer: the certificate's relevance score against its
 * threshold (v1.1). `unknown` for v1 certificates, claims without a relevance, and certificates
 * that are not authentic.
 */
export interface RelevanceDecision {
  status: 'relevant' | 'not_relevant' | 'unknown';
  score?: number;
  threshold?: number;
  method?: RelevanceMethod;
}

/**
 * Why the verifier does not confirm a v1.2 answer check (docs/certificate.md, "The answer check"):
 * - `ASKED_TYPE`: the asked type it reads from the question is not the certificate's `check.asked`;
 * - `CONSTRAINTS`: the constraints it reads from the question are not the certificate's;
 * - `CONSTRAINT_UNMET`: some constraint of the question (a year, a regulation, a version, a
 *   section) is in no shown claim's evidence;
 * - `VALUE_MISSING`: no shown claim states a value of the asked type (an amount, a duration, …);
 * - `BELOW_THRESHOLD`: the signed score is below the signed threshold;
 * - `NO_ASKED_RULES`: the verifier's vocabulary has no asked rules, so the asked type cannot be
 *   recomputed (it replaces `ASKED_TYPE`).
 */
export type CheckMismatch =
  | 'ASKED_TYPE'
  | 'CONSTRAINTS'
  | 'CONSTRAINT_UNMET'
  | 'VALUE_MISSING'
  | 'BELOW_THRESHOLD'
  | 'NO_ASKED_RULES';

/**
 * The verifier's decision on a v1.2 answer check: the signed score, threshold, risk, method and
 * calibration report hash as the certificate states them, the asked type and constraints as the
 * verifier recomputes them from the signed question, and what does not hold. `answers` only when
 * nothing is amiss.
 */
export interface CheckDecision {
  status: 'answers' | 'not_confirmed';
  /** The signed score (read, not recomputed). */
  score: number;
  /** The signed threshold the score is held to. */
  threshold: number;
  /** The false-assurance risk `threshold` was calibrated for. */
  alpha: number;
  method: { id: string; version: string };
  /** SHA-256 of the calibration report the threshold comes from. */
  calibration_sha256: string;
  /** The asked type, as the verifier recomputes it from the question. */
  asked: string;
  /** The question's constraints, as the verifier recomputes them. */
  constraints: string[];
  /** The constraints no shown claim's evidence meets. */
  unmet: string[];
  /** What does not hold, in the order of {@link CheckMismatch}; empty when the status is `answers`. */
  mismatches: CheckMismatch[];
}

/** The verifier's reading of the answer as a whole. */
export interface AnswerDecision {
  /** From the certificate (v1.1; `related` since v1.2); `unknown` for v1. */
  outcome: AnswerOutcome | 'unknown';
  /** The refusal reason of a refused answer. */
  refusal?: RefusalReason;
  /**
   * The answer's relevance. For a v1.2 answer with a check it is the check's: `relevant` when the
   * check is confirmed and the outcome is `answered`, with the check's score, threshold and method.
   */
  relevant: RelevanceDecision;
  /**
   * True when the answer may be shown as an answer: authentic, not refused and not related, not
   * below its relevance threshold (v1.2: its answer check confirmed), and at least one claim shown
   * as verified. A refused, related or not relevant answer is "not answered".
   */
  answered: boolean;
  /** v1.2: the verifier's decision on the answer check, for an authentic certificate that has one. */
  check?: CheckDecision;
}

/** The verifier's decision for one claim. */
export interface ClaimDecision {
  claim_id: string;
  text: string;
  rendered: boolean;
  reason: RenderReason;
  label: Claim['verification']['label'];
  confidence: number;
  /** What the certificate itself said; the verifier never shows more than the certificate allowed. */
  certificate_render: Claim['render'];
  /** Figures in the claim that no evidence span (or citation) contains. */
  unsupported_figures: string[];
  /** Negations or quantifiers in the claim that no evidence span contains. */
  unsupported_qualifiers: string[];
  /** Whether the claim follows from its evidence, and how the verifier knows. */
  supported: SupportDecision;
  /** Whether the claim's evidence answers the question (v1.1 `relevance`). */
  relevant: RelevanceDecision;
}

/**
 * The product's words the verifier reads a claim with (docs/verification.md, "Vocabulary"): the
 * composition template registry, and the negations and quantifiers a claim may not add to its
 * evidence. They are data the caller passes (`VerifyBundleOptions.vocabulary`), not part of the
 * verifier's code; Saksi's own is `SAKSI_VOCABULARY` of `@saksi/proof/vocabulary`.
 */
export interface Vocabulary {
  /** The composition templates, by id (certificate v1.1, docs/certificate.md "Composed claims"). */
  templates: CompositionTemplates;
  /** Words that flip a statement ("tidak", "not"), lower case; one word each. */
  negations: readonly string[];
  /** Words or phrases that widen or narrow one ("paling banyak", "at least"), lower case. */
  quantifiers: readonly string[];
  /**
   * What a question asks for (certificate v1.2, docs/certificate.md "The answer check"): without
   * them, the asked type of a v1.2 answer check cannot be recomputed and the answer is not confirmed.
   */
  asked?: readonly AskedRule[];
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}-]+/u)
    .filter(Boolean);
}

function containsPhrase(tokens: string[], phrase: string[]): boolean {
  for (let i = 0; i + phrase.length <= tokens.length; i++) {
    if (phrase.every((word, j) => tokens[i + j] === word)) return true;
  }
  return false;
}

/**
 * Negations and quantifiers (of `vocabulary`) of the claim that none of its evidence spans contains — the cheap,
 * verifier-side guard against a claim that flips or widens what the source says ("tidak dipidana",
 * "paling sedikit" for "paling banyak"). English contractions ending in n't count as "not".
 */
export function unsupportedQualifiers(
  claim: string,
  spans: readonly string[],
  vocabulary: Pick<Vocabulary, 'negations' | 'quantifiers'>,
): string[] {
  const claimTokens = words(claim.replace(/n't\b/gi, ' not'));
  const spanTokens = spans.map((span) => words(span.replace(/n't\b/gi, ' not')));
  const found: string[] = [];
  for (const phrase of [...vocabulary.quantifiers, ...vocabulary.negations]) {
    const parts = phrase.split(' ');
    if (containsPhrase(claimTokens, parts) && !spanTokens.some((tokens) => containsPhrase(tokens, parts))) {
      found.push(phrase);
    }
  }
  return found;
}

export interface RenderContext {
  /** False when any integrity check failed: then every claim is blocked. */
  integrityOk: boolean;
  /** Per claim index: true when every evidence item has an anchor whose proof (and, if looked up, chain record) checked out. */
  anchoredClaims?: readonly boolean[];
  /** The words claims are read with. */
  vocabulary: Vocabulary;
}

/** The verifier ids that claim support by construction; the verifier confirms them itself. */
const VERBATIM_VERIFIER = 'verbatim';
const COMPOSITION_VERIFIER = 'composition';
/** Citation markers at the end of a verbatim quote: `… [1]`, `… [1][2]`. */
const TRAILING_MARKERS = /(?:\s*\[\d{1,3}\])+\s*$/u;

/**
 * Decides, for each claim of `certificate`, whether it may be shown as verified and why, and its
 * *supported* and *relevant* results.
 *
 * @example
 * const decisions = decideRender(certificate, { integrityOk: true, vocabulary: SAKSI_VOCABULARY });
 * decisions[0]?.supported.kind; // 'verbatim' | 'composed' | 'entailed' | …
 */
export function decideRender(certificate: Certificate, context: RenderContext): ClaimDecision[] {
  return certificate.claims.map((claim, index) => decideClaim(claim, index, certificate, context));
}

/** What the verifier reads off a claim's text against its evidence. */
interface Reading {
  unsupportedFigures: string[];
  unsupportedQualifiers: string[];
  /** For a composed claim: whether it recomputes to its text. */
  recomputed?: boolean;
  /** The claim is exactly one of its spans (plus markers), or a single-span composition. */
  verbatim: boolean;
}

function read(claim: Claim, vocabulary: Vocabulary): Reading {
  const composition = claim.composition;
  if (composition !== undefined) {
    const rendered = renderComposition(composition, claim.evidence, vocabulary.templates);
    if (rendered.ok && rendered.text === claim.text) {
      // Span parts are the evidence by construction and differences and spelled amounts are
      // recomputed: only the fixed words, and the seams between parts, can add a figure or a qualifier.
      const parts = evidencePartTexts(composition, claim.evidence, vocabulary.templates);
      return {
        unsupportedFigures: unsupportedFigures(claim.text, parts).map((figure) => figure.raw),
        unsupportedQualifiers: unsupportedQualifiers(claim.text, parts, vocabulary),
        recomputed: true,
        verbatim: isVerbatimComposition(composition),
      };
    }
    return { ...readText(claim, vocabulary), recomputed: false, verbatim: false };
  }
  return readText(claim, vocabulary);
}

function readText(claim: Claim, vocabulary: Vocabulary): Reading {
  const sources = claim.evidence.flatMap((evidence) => [
    evidence.span.text,
    evidence.citation.pasal ?? '',
    evidence.citation.ayat ?? '',
    evidence.citation.page === undefined ? '' : String(evidence.citation.page),
    ...(evidence.citation.section_path ?? []),
    evidence.citation.document_title,
  ]);
  const quoted = claim.text.replace(TRAILING_MARKERS, '');
  return {
    unsupportedFigures: unsupportedFigures(claim.text, sources).map((figure) => figure.raw),
    unsupportedQualifiers: unsupportedQualifiers(
      claim.text,
      claim.evidence.map((evidence) => evidence.span.text),
      vocabulary,
    ),
    verbatim: claim.evidence.some(
      (evidence) => evidence.span.text === claim.text || evidence.span.text === quoted,
    ),
  };
}

function decideClaim(
  claim: Claim,
  index: number,
  certificate: Certificate,
  context: RenderContext,
): ClaimDecision {
  const reading = read(claim, context.vocabulary);
  const { reason, supported } = decide(claim, index, certificate, context, reading);
  return {
    claim_id: claim.claim_id,
    text: claim.text,
    rendered: reason === 'OK',
    reason,
    label: claim.verification.label,
    confidence: claim.verification.confidence,
    certificate_render: claim.render,
    unsupported_figures: reading.unsupportedFigures,
    unsupported_qualifiers: reading.unsupportedQualifiers,
    supported,
    relevant: context.integrityOk ? relevanceOf(claim.relevance) : { status: 'unknown' },
  };
}

function decide(
  claim: Claim,
  index: number,
  certificate: Certificate,
  context: RenderContext,
  reading: Reading,
): { reason: RenderReason; supported: SupportDecision } {
  const verification = claim.verification;
  const stated = { method: verification.verifier.id, score: verification.confidence };
  const notSupported = (reason: RenderReason, method: string, score?: number) => ({
    reason,
    supported: { kind: 'not_supported' as const, method, ...(score === undefined ? {} : { score }) },
  });
  if (!context.integrityOk) return notSupported('INTEGRITY_FAILURE', 'integrity');
  if (claim.evidence.length === 0) return notSupported('NO_EVIDENCE', 'no-evidence');
  if (verification.label === 'contradicted')
    return { reason: 'CONTRADICTED', supported: { kind: 'contradicted', ...stated } };
  if (verification.label === 'not_supported')
    return notSupported('NOT_SUPPORTED', stated.method, stated.score);
  if (verification.confidence < certificate.policy.confidence_threshold)
    return notSupported('LOW_CONFIDENCE', stated.method, stated.score);
  if (reading.recomputed === false) return notSupported('NOT_SUPPORTED', COMPOSITION_VERIFIER);
  if (reading.unsupportedFigures.length > 0) return notSupported('NUMBER_MISMATCH', 'figures');
  if (reading.unsupportedQualifiers.length > 0) return notSupported('NOT_SUPPORTED', 'qualifiers');
  let supported: SupportDecision;
  if (reading.recomputed === true || reading.verbatim) {
    supported = {
      kind: reading.verbatim ? 'verbatim' : 'composed',
      method: reading.recomputed === true ? COMPOSITION_VERIFIER : VERBATIM_VERIFIER,
      spans: reading.verbatim ? 1 : claim.evidence.length,
    };
  } else if (stated.method === VERBATIM_VERIFIER || stated.method === COMPOSITION_VERIFIER) {
    // The certificate claims support by construction, but the claim is neither its span nor composed.
    return notSupported('NOT_SUPPORTED', stated.method);
  } else {
    supported = { kind: 'entailed', ...stated };
  }
  const relevance = claim.relevance;
  if (relevance !== undefined && relevance.score < relevance.threshold)
    return { reason: 'NOT_RELEVANT', supported };
  if (certificate.policy.require_anchor && context.anchoredClaims?.[index] !== true)
    return { reason: 'ANCHOR_REQUIRED', supported };
  if (!claim.render.rendered)
    return { reason: claim.render.reason === 'OK' ? 'NOT_SUPPORTED' : claim.render.reason, supported };
  return { reason: 'OK', supported };
}

function relevanceOf(relevance: Claim['relevance']): RelevanceDecision {
  if (relevance === undefined) return { status: 'unknown' };
  return {
    status: relevance.score >= relevance.threshold ? 'relevant' : 'not_relevant',
    score: relevance.score,
    threshold: relevance.threshold,
    method: { id: relevance.method.id, version: relevance.method.version },
  };
}

/**
 * The verifier's decision on the answer check of `certificate` (v1.2): recomputes the asked type and
 * constraints from the signed question with `rules` and reads them against the claims that are
 * shown (`claims[i].rendered`), and holds the signed score to the signed threshold.
 *
 * @example
 * const decisions = decideRender(certificate, { integrityOk: true, vocabulary: SAKSI_VOCABULARY });
 * const check = decideCheck(certificate.answer.check!, certificate, decisions, SAKSI_VOCABULARY.asked);
 * check.status; // 'answers' | 'not_confirmed'
 */
export function decideCheck(
  check: AnswerCheck,
  certificate: Certificate,
  claims: readonly ClaimDecision[],
  rules: readonly AskedRule[] | undefined,
): CheckDecision {
  const shown = certificate.claims.filter((_, index) => claims[index]?.rendered === true);
  const haveRules = rules !== undefined && rules.length > 0;
  const reading = readAnswerCheck(certificate.query.text, shown, rules ?? []);
  const mismatches: CheckMismatch[] = [];
  if (haveRules && reading.asked !== check.asked) mismatches.push('ASKED_TYPE');
  if (!sameStrings(reading.constraints, check.constraints)) mismatches.push('CONSTRAINTS');
  if (reading.unmet.length > 0) mismatches.push('CONSTRAINT_UNMET');
  if (!reading.value_stated) mismatches.push('VALUE_MISSING');
  if (!(check.score >= check.threshold)) mismatches.push('BELOW_THRESHOLD');
  if (!haveRules) mismatches.push('NO_ASKED_RULES');
  return {
    status: mismatches.length === 0 ? 'answers' : 'not_confirmed',
    score: check.score,
    threshold: check.threshold,
    alpha: check.alpha,
    method: { id: check.method.id, version: check.method.version },
    calibration_sha256: check.calibration_sha256,
    asked: reading.asked,
    constraints: reading.constraints,
    unmet: reading.unmet,
    mismatches,
  };
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

/**
 * The verifier's reading of the answer: its outcome and relevance (v1.1; `unknown` for v1), its
 * answer check (v1.2, recomputed with `vocabulary.asked`), and whether it may be shown as an answer.
 *
 * For a v1.2 answer with a check, the check is the one minimum: the answer is answered only when
 * the outcome is `answered`, the check is confirmed and a claim is shown, and its relevance is the
 * check's. A `related` answer is never answered; its claims keep their own render decisions. Without
 * `vocabulary` (the call form before v1.2) there are no asked rules, and no check is confirmed.
 *
 * @example
 * const claims = decideRender(certificate, { integrityOk, vocabulary: SAKSI_VOCABULARY });
 * const answer = decideAnswer(certificate, claims, integrityOk, SAKSI_VOCABULARY);
 * if (!answer.answered) showNotAnswered(answer.check?.mismatches);
 */
export function decideAnswer(
  certificate: Certificate,
  claims: readonly ClaimDecision[],
  integrityOk: boolean,
  vocabulary?: Pick<Vocabulary, 'asked'>,
): AnswerDecision {
  const answer = certificate.answer;
  const outcome = answer.outcome ?? 'unknown';
  const shown = claims.some((claim) => claim.rendered);
  let decision: AnswerDecision;
  if (answer.check !== undefined && integrityOk) {
    const check = decideCheck(answer.check, certificate, claims, vocabulary?.asked);
    const confirmed = outcome === 'answered' && check.status === 'answers';
    decision = {
      outcome,
      relevant: {
        status: confirmed ? 'relevant' : 'not_relevant',
        score: check.score,
        threshold: check.threshold,
        method: { ...check.method },
      },
      answered: confirmed && shown,
      check,
    };
  } else {
    const relevant = integrityOk ? relevanceOf(answer.relevance) : { status: 'unknown' as const };
    decision = {
      outcome,
      relevant,
      answered:
        integrityOk &&
        outcome !== 'refused' &&
        outcome !== 'related' &&
        relevant.status !== 'not_relevant' &&
        shown,
    };
  }
  if (answer.refusal !== undefined) decision.refusal = answer.refusal.reason;
  return decision;
}
