/**
 * The verdict a citizen reads (docs/certificate.md, "Three results"; docs/verification.md, "For a
 * citizen"): from `verifyBundle`'s result and the state of the reader's pinned keys, one kind of
 * outcome, one sentence and one colour for each of the three results — the quotes are authentic,
 * the answer follows from them, they answer the question — and, when something failed, which kind
 * of failure it is and each failing check in plain words.
 *
 * What a verifier can tell apart (verify-bundle.ts):
 * - a bundle changed after signing: its signature, a text's hash, an offset, a composition, a
 *   citation, a document or anchor proof, or its log inclusion fails (`tampered`);
 * - a genuine bundle signed by keys this browser does not trust (another server's): only the
 *   issuer (`UNKNOWN_ISSUER`), the log's key (`CHECKPOINT_SIGNATURE_INVALID` on `log.origin`) or
 *   the witnesses fail — its own signature still matches its content (`untrusted`);
 * - a bundle that is not one at all (`malformed`);
 * - anything else (not found on chain, asked for another question, a log that forked: `failed`).
 * Pure: the panel renders what this returns.
 */
import type { BundleVerification, Check, CheckId, ClaimDecision, RenderReason } from '@saksi/proof';
import { formatNumber } from './format.js';
import type { Lang, MessageKey } from './i18n.js';
import type { TrustStatus } from './key-pinning.js';
import { formatScore } from './verify-format.js';

export type VerdictKind =
  | 'verified'
  | 'refused'
  | 'not-answered'
  | 'tampered'
  | 'untrusted'
  | 'malformed'
  | 'failed'
  | 'key-changed'
  | 'no-keys';

/** green, amber, red, grey. */
export type Tone = 'good' | 'warn' | 'bad' | 'neutral';

export interface Message {
  key: MessageKey;
  values?: Record<string, string | number>;
}

/** One of the three results (or the refusal), as one sentence in one colour. */
export interface VerdictLine {
  id: 'authentic' | 'supported' | 'relevant' | 'answer';
  /** A stable status for tests and styling, e.g. `pass`, `partial`, `not_relevant`, `refused`. */
  status: string;
  tone: Tone;
  message: Message;
}

export interface Verdict {
  kind: VerdictKind;
  /** Whether the answer may be shown as verified (green). Never for a refusal or a failure. */
  verified: boolean;
  /** The heading; for a failure, the banner's sentence ("This answer was changed after it was signed …"). */
  heading: Message;
  /** The heading is a red banner: something failed, or the server's keys changed. */
  alarm: boolean;
  /** What the banner means for the reader, or what to do. */
  hint?: Message;
  lines: VerdictLine[];
  /** The failing checks, in check order. */
  failing: Check[];
}

/** Checks whose failure means the bundle's content, or a proof of it, was altered. */
const TAMPER_CHECKS: readonly CheckId[] = [
  'signature',
  'hashes',
  'claim_offsets',
  'spans',
  'compositions',
  'citations',
  'document_proofs',
  'log_inclusion',
];

/**
 * The kind of failure of a result that is not authentic. A bundle whose own signature and hashes
 * hold but whose signer or log this browser does not trust comes from other keys (`untrusted`): its
 * anchors, log and witnesses then fail as a consequence (another server's chain and log), and are
 * not read as tampering.
 */
export function failureKind(result: BundleVerification): 'tampered' | 'untrusted' | 'malformed' | 'failed' {
  const failed = (id: CheckId) => result.checks.find((check) => check.id === id && check.status === 'fail');
  if (failed('structure')) return 'malformed';
  if (TAMPER_CHECKS.some((id) => failed(id))) return 'tampered';
  const issuer = failed('issuer');
  if (issuer?.problems.some((problem) => problem.code !== 'UNKNOWN_ISSUER')) return 'tampered';
  const checkpoint = failed('checkpoint_signature');
  if (checkpoint?.problems.some((problem) => problem.field !== 'log.origin')) return 'tampered';
  if (issuer || checkpoint) return 'untrusted';
  if (failed('anchor_proofs')) return 'tampered';
  if (failed('cosignatures') && result.checks.filter((check) => check.status === 'fail').length === 1)
    return 'untrusted';
  return 'failed';
}

const SUPPORTED_KINDS = new Set(['verbatim', 'composed', 'entailed']);

function plural(key: string, n: number): MessageKey {
  return `${key}.${n === 1 ? 'one' : 'other'}` as MessageKey;
}

function authenticLine(result: BundleVerification, refused: boolean): VerdictLine {
  const status = (id: CheckId) => result.checks.find((check) => check.id === id)?.status;
  let key: MessageKey;
  if (refused) key = 'verdict.authentic.refusal';
  else if (status('anchor_onchain') === 'pass') key = 'verdict.authentic.onchain';
  else if (status('anchor_proofs') === 'pass') key = 'verdict.authentic.anchored';
  else key = 'verdict.authentic.notAnchored';
  return { id: 'authentic', status: 'pass', tone: 'good', message: { key } };
}

function supportedLine(claims: readonly ClaimDecision[]): VerdictLine {
  const total = claims.length;
  if (total === 0)
    return {
      id: 'supported',
      status: 'none',
      tone: 'neutral',
      message: { key: 'verdict.supported.noClaims' },
    };
  const supported = claims.filter((claim) => SUPPORTED_KINDS.has(claim.supported.kind));
  const judged = supported.filter((claim) => claim.supported.kind === 'entailed');
  const composed = supported.filter((claim) => claim.supported.kind === 'composed');
  if (supported.length === 0)
    return {
      id: 'supported',
      status: 'fail',
      tone: 'bad',
      message: { key: plural('verdict.supported.none', total), values: { total } },
    };
  if (supported.length < total)
    return {
      id: 'supported',
      status: 'partial',
      tone: 'warn',
      message: {
        key: 'verdict.supported.partial',
        values: { supported: supported.length, total, blocked: total - supported.length },
      },
    };
  if (judged.length > 0) {
    const methods = [...new Set(judged.map((claim) => claim.supported.method))].join(', ');
    return {
      id: 'supported',
      status: 'pass',
      tone: 'good',
      message: {
        key: plural('verdict.supported.judged', total),
        values: { judged: judged.length, total, method: methods },
      },
    };
  }
  return {
    id: 'supported',
    status: 'pass',
    tone: 'good',
    message: {
      key: plural(composed.length > 0 ? 'verdict.supported.built' : 'verdict.supported.quoted', total),
      values: { total },
    },
  };
}

function relevantLine(result: BundleVerification, lang: Lang): VerdictLine {
  const relevant = result.answer.relevant;
  const values = {
    score: formatScore(relevant.score, lang),
    threshold: formatScore(relevant.threshold, lang),
  };
  if (relevant.status === 'relevant')
    return {
      id: 'relevant',
      status: 'relevant',
      tone: 'good',
      message: { key: 'verdict.relevant.yes', values },
    };
  if (relevant.status === 'not_relevant')
    return {
      id: 'relevant',
      status: 'not_relevant',
      tone: 'warn',
      message: { key: 'verdict.relevant.no', values },
    };
  return { id: 'relevant', status: 'unknown', tone: 'neutral', message: { key: 'verdict.relevant.unknown' } };
}

function notAssessed(id: 'supported' | 'relevant', key: MessageKey): VerdictLine {
  return { id, status: 'unknown', tone: 'neutral', message: { key } };
}

/** The verdict for a finished verification, given how the keys it used relate to the server's. */
export function decideVerdict(
  result: BundleVerification,
  options: { trust: TrustStatus; lang: Lang; issuer?: { name: string; key_id: string } },
): Verdict {
  const failing = result.checks.filter((check) => check.status === 'fail');
  const { lang } = options;

  if (options.trust === 'changed') {
    return {
      kind: 'key-changed',
      verified: false,
      heading: { key: 'verdict.banner.key-changed' },
      alarm: true,
      hint: { key: 'verdict.hint.keyChanged' },
      lines: [
        { id: 'authentic', status: 'unknown', tone: 'bad', message: { key: 'verdict.authentic.keyChanged' } },
        notAssessed('supported', 'verdict.notAssessedKeys'),
        notAssessed('relevant', 'verdict.notAssessedKeys'),
      ],
      failing,
    };
  }

  if (!result.authentic) {
    const kind = options.trust === 'none' ? 'no-keys' : failureKind(result);
    const structure = result.checks[0];
    const hint: Message | undefined =
      kind === 'untrusted'
        ? {
            key: 'verdict.hint.untrusted',
            values: { issuer: options.issuer?.name ?? '?', keyId: options.issuer?.key_id ?? '?' },
          }
        : kind === 'malformed'
          ? { key: 'verdict.hint.malformed', values: { field: structure?.problems[0]?.field ?? '—' } }
          : kind === 'no-keys'
            ? { key: 'verdict.hint.noKeys' }
            : kind === 'tampered'
              ? { key: 'verdict.hint.tampered' }
              : undefined;
    const verdict: Verdict = {
      kind,
      verified: false,
      heading: { key: `verdict.banner.${kind}` as MessageKey },
      alarm: true,
      lines: [
        { id: 'authentic', status: 'fail', tone: 'bad', message: { key: 'verdict.authentic.no' } },
        notAssessed('supported', 'verdict.notAssessed'),
        notAssessed('relevant', 'verdict.notAssessed'),
      ],
      failing,
    };
    if (hint) verdict.hint = hint;
    return verdict;
  }

  const answer = result.answer;
  if (answer.outcome === 'refused') {
    const reason = answer.refusal;
    return {
      kind: 'refused',
      verified: false,
      heading: { key: 'verify.notAnswered' },
      alarm: false,
      lines: [
        {
          id: 'answer',
          status: 'refused',
          tone: 'neutral',
          message: {
            key:
              reason === undefined ? 'verdict.refusal.unknown' : (`verdict.refusal.${reason}` as MessageKey),
          },
        },
        authenticLine(result, true),
      ],
      failing,
    };
  }

  const lines = [authenticLine(result, false), supportedLine(result.claims), relevantLine(result, lang)];
  if (!answer.answered) {
    const notRelevant = answer.relevant.status === 'not_relevant';
    lines.unshift({
      id: 'answer',
      status: 'not_answered',
      tone: 'warn',
      message: { key: notRelevant ? 'verdict.notAnswered.relevance' : 'verdict.notAnswered.noClaim' },
    });
    return {
      kind: 'not-answered',
      verified: false,
      heading: { key: 'verify.notAnswered' },
      alarm: false,
      lines,
      failing,
    };
  }
  return {
    kind: 'verified',
    verified: true,
    heading: { key: 'verify.verified' },
    alarm: false,
    lines,
    failing,
  };
}

/** The plain-language explanation of a check in its state. */
export function checkExplanation(check: Check): MessageKey {
  return `verdict.explain.${check.id}.${check.status}` as MessageKey;
}

/** The plain name of a check. */
export function checkName(id: CheckId): MessageKey {
  return `verdict.checkName.${id}` as MessageKey;
}

/** Why a claim is or is not shown as verified, in words. */
export function reasonText(reason: RenderReason): MessageKey {
  return `verdict.reason.${reason}` as MessageKey;
}

/** `{passed} of {total} checks passed`, with the skipped count apart. */
export function checkCounts(result: BundleVerification, lang: Lang): Record<string, string> {
  const count = (status: Check['status']) => result.checks.filter((check) => check.status === status).length;
  return {
    passed: formatNumber(count('pass'), lang),
    failed: formatNumber(count('fail'), lang),
    skipped: formatNumber(count('skip'), lang),
    total: formatNumber(result.checks.length, lang),
  };
}
