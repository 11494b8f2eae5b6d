/**
 * What the widget's badge shows: the widget's own check of an answer (`verifyBundle` run in the
 * reader's browser with the keys pinned there), reduced to the three results of docs/certificate.md
 * ("Three results") in short words — authentic, supported, answers the question — and how the answer
 * reads: verified (answers your question), related passages (not a confirmed answer), refused, not
 * answered, failed, or not checked (a changed key, no keys, no verifier). The outcome is the panel's
 * (answer-reading.ts). Never the server's own flags: a claim the certificate marked rendered counts
 * only when the verifier agrees, and an "answered" the verifier's answer check does not confirm is
 * related passages.
 */
import type { BundleVerification, CheckId } from '@saksi/proof';
import { type Constraint, type RelatedReason, readAnswer } from '../answer-reading.js';
import type { WidgetLang } from './core.js';
import { type PinResult, shortFingerprint } from './pinning.js';
import { CHECK_WORDS, RELATED_WORDS } from './strings.js';

export type VerdictState =
  /** Authentic, answered, at least one claim shown as verified (for v1.2, the answer check confirms it). */
  | 'verified'
  /** Authentic quotes that are not a confirmed answer: the issuer said so, or the answer check does not confirm it. */
  | 'related'
  /** Authentic, and the issuer refused: the documents do not cover the question. */
  | 'refused'
  /** Authentic, not refused, but not an answer (below its relevance threshold, no claim shown). */
  | 'not-answered'
  /** A check failed: the bundle was altered, or signed by keys this browser does not trust. */
  | 'failed'
  /** The server publishes other keys than the ones pinned here: not checked, a warning. */
  | 'key-changed'
  /** Nothing to check with (no keys, no verifier): not verified. */
  | 'unavailable';

export type Relevance = 'relevant' | 'not_relevant' | 'unknown';

export interface WidgetVerdict {
  state: VerdictState;
  /** Every integrity check passed (null: not checked). */
  authentic: boolean | null;
  /** Claims the verifier found supported by their evidence (verbatim, composed or entailed). */
  supported: number;
  /** Claims in the answer. */
  claims: number;
  relevance: Relevance;
  /** The answer check of a v1.2 certificate: its score, threshold and risk (α), as the verifier read them. */
  check?: { score: number; threshold: number; alpha: number };
  /** With `related`: why, in one sentence in the reader's language. */
  reason?: string;
  pin: PinResult['state'];
  /** The pinned keys' fingerprint, as a reader compares it ("ab12 cd34 ef56 7890"). */
  fingerprint?: string;
  /** With `key-changed`: the fingerprint of the keys the server publishes now. */
  published?: string;
  /** The failed checks in plain words, in the reader's language. */
  problems: string[];
}

const SUPPORTED = new Set(['verbatim', 'composed', 'entailed']);

/** The badge of a verification made with the keys of `pin`. */
export function widgetVerdict(result: BundleVerification, pin: PinResult, lang: WidgetLang): WidgetVerdict {
  const failed = result.checks.filter((check) => check.status === 'fail').map((check) => check.id);
  const authentic = result.authentic && failed.length === 0;
  const reading = readAnswer(result);
  const state: VerdictState = !authentic
    ? 'failed'
    : reading.outcome === 'answers'
      ? 'verified'
      : reading.outcome;
  // Related passages never read as relevant, whatever score the certificate carries.
  const relevance: Relevance = !authentic
    ? 'unknown'
    : state === 'related'
      ? 'not_relevant'
      : result.answer.relevant.status;
  const check = reading.check;
  return {
    state,
    authentic,
    supported: authentic ? result.claims.filter((claim) => SUPPORTED.has(claim.supported.kind)).length : 0,
    claims: result.claims.length,
    relevance,
    ...(authentic && check !== undefined
      ? { check: { score: check.score, threshold: check.threshold, alpha: check.alpha } }
      : {}),
    ...(state === 'related' ? { reason: relatedWords(reading.related, lang) } : {}),
    ...pinFields(pin),
    problems: problemWords(failed, lang),
  };
}

/** Why an answer is only related, in the reader's language (the panel's reasons, in the widget's words). */
export function relatedWords(reason: RelatedReason | undefined, lang: WidgetLang): string {
  const words = RELATED_WORDS[lang];
  const score = (value: number) =>
    !Number.isFinite(value) ? '?' : lang === 'id' ? value.toFixed(2).replace('.', ',') : value.toFixed(2);
  switch (reason?.kind) {
    case 'unmet':
      return words.unmet(reason.constraints.map((constraint: Constraint) => words.constraint(constraint)));
    case 'value':
      return words.value(reason.asked);
    case 'below':
      return words.below(score(reason.score), score(reason.threshold));
    case 'reading':
    case 'rules':
    case 'relevance':
    case 'issuer':
      return words[reason.kind];
    default:
      return words.issuer;
  }
}

/** The badge when the answer was not checked (`key-changed` or `unavailable`). */
export function uncheckedVerdict(
  state: 'key-changed' | 'unavailable',
  pin: PinResult,
  problems: string[] = [],
): WidgetVerdict {
  return {
    state,
    authentic: null,
    supported: 0,
    claims: 0,
    relevance: 'unknown',
    ...pinFields(pin),
    problems,
  };
}

function pinFields(pin: PinResult): Pick<WidgetVerdict, 'pin' | 'fingerprint' | 'published'> {
  return {
    pin: pin.state,
    ...(pin.fingerprint !== undefined ? { fingerprint: shortFingerprint(pin.fingerprint) } : {}),
    ...(pin.published !== undefined ? { published: shortFingerprint(pin.published) } : {}),
  };
}

/** Failed checks in plain words; several codes that read the same are said once. */
export function problemWords(failed: readonly CheckId[], lang: WidgetLang): string[] {
  return [...new Set(failed.map((id) => CHECK_WORDS[lang][id]))];
}
