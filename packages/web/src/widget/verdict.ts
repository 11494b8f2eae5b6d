/**
 * What the widget's badge shows: the widget's own check of an answer (`verifyBundle` run in the
 * reader's browser with the keys pinned there), reduced to the three results of docs/certificate.md
 * ("Three results") in short words — authentic, supported, relevant — and how the answer reads:
 * verified, refused, not answered, failed, or not checked (a changed key, no keys, no verifier).
 * Never the server's own flags: a claim the certificate marked rendered counts only when the
 * verifier agrees.
 */
import type { BundleVerification, CheckId } from '@saksi/proof';
import type { WidgetLang } from './core.js';
import { type PinResult, shortFingerprint } from './pinning.js';
import { CHECK_WORDS } from './strings.js';

export type VerdictState =
  /** Authentic, answered, at least one claim shown as verified. */
  | 'verified'
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
  let state: VerdictState = 'verified';
  if (!authentic) state = 'failed';
  else if (result.answer.outcome === 'refused') state = 'refused';
  else if (!result.answer.answered) state = 'not-answered';
  return {
    state,
    authentic,
    supported: authentic ? result.claims.filter((claim) => SUPPORTED.has(claim.supported.kind)).length : 0,
    claims: result.claims.length,
    relevance: authentic ? result.answer.relevant.status : 'unknown',
    ...pinFields(pin),
    problems: problemWords(failed, lang),
  };
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
