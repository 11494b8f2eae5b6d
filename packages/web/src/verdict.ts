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
import type {
  BundleVerification,
  Check,
  CheckDecision,
  CheckId,
  ClaimDecision,
  RenderReason,
} from '@saksi/proof';
import { type AnswerReading, type Constraint, type RelatedReason, readAnswer } from './answer-reading.js';
import { formatNumber, locale } from './format.js';
import { type Lang, type MessageKey, translate } from './i18n.js';
import type { TrustStatus } from './key-pinning.js';
import { formatScore } from './verify-format.js';

export type VerdictKind =
  | 'verified'
  /** Authentic quotes that are not a confirmed answer to the question (docs/certificate.md, "The answer check"). */
  | 'related'
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
  /** A stable status for tests and styling, e.g. `pass`, `partial`, `not_relevant`, `refused`, `related`. */
  status: string;
  tone: Tone;
  message: Message;
  /** The result's name when it is not the line's usual one ("Answers your question" for an answer check). */
  term?: MessageKey;
}

export interface Verdict {
  kind: VerdictKind;
  /** Whether the answer may be shown as verified (green). Never for a refusal, related passages or a failure. */
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
  /** The blockchain(s) the documents are anchored on, in words ("a local test chain"), for the sentences that name it. */
  chain: string;
  /** The answer check of a v1.2 certificate, as the verifier decided it. */
  check?: CheckDecision;
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
  // Witnesses this browser does not know are another server's; a repeated or unreadable cosignature
  // line (DUPLICATE_ENTRY, MALFORMED) is the bundle's own fault.
  const cosignatures = failed('cosignatures');
  if (
    cosignatures?.problems.every((problem) => problem.code === 'COSIGNATURES_MISSING') &&
    result.checks.filter((check) => check.status === 'fail').length === 1
  )
    return 'untrusted';
  return 'failed';
}

const SUPPORTED_KINDS = new Set(['verbatim', 'composed', 'entailed']);

function plural(key: string, n: number): MessageKey {
  return `${key}.${n === 1 ? 'one' : 'other'}` as MessageKey;
}

function authenticLine(result: BundleVerification, refused: boolean, chain: string): VerdictLine {
  const status = (id: CheckId) => result.checks.find((check) => check.id === id)?.status;
  let key: MessageKey;
  if (refused) key = 'verdict.authentic.refusal';
  else if (status('anchor_onchain') === 'pass') key = 'verdict.authentic.onchain';
  else if (status('anchor_proofs') === 'pass') key = 'verdict.authentic.anchored';
  else key = 'verdict.authentic.notAnchored';
  return { id: 'authentic', status: 'pass', tone: 'good', message: { key, values: { chain } } };
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

/**
 * The chain a document's fingerprint was written to, in words: a local test chain is never called a
 * public blockchain.
 *
 * @example
 * chainName(31337, 'en'); // 'a local test chain'
 */
export function chainName(chainId: number, lang: Lang): string {
  switch (chainId) {
    case 31337:
      return translate(lang, 'chain.local');
    case 84532:
      return translate(lang, 'chain.baseSepolia');
    case 8453:
      return translate(lang, 'chain.base');
    default:
      return translate(lang, 'chain.other', { id: chainId });
  }
}

/** The chains of `chainIds` in words, each once; "a chain the proof does not name" for none. */
export function chainNames(chainIds: readonly number[], lang: Lang): string {
  const names = [...new Set(chainIds)].map((id) => chainName(id, lang));
  if (names.length === 0) return translate(lang, 'chain.unnamed');
  return new Intl.ListFormat(locale(lang), { type: 'conjunction' }).format(names);
}

/** The chain ids of a bundle's anchored evidence, in order of first appearance; none for anything else. */
export function anchorChains(bundle: unknown): number[] {
  const claims = (bundle as { certificate?: { claims?: unknown } } | null)?.certificate?.claims;
  if (!Array.isArray(claims)) return [];
  const chains = new Set<number>();
  for (const claim of claims) {
    const evidence = (claim as { evidence?: unknown } | null)?.evidence;
    if (!Array.isArray(evidence)) continue;
    for (const item of evidence) {
      const chainId = (item as { anchor?: { chain_id?: unknown } } | null)?.anchor?.chain_id;
      if (typeof chainId === 'number' && Number.isSafeInteger(chainId)) chains.add(chainId);
    }
  }
  return [...chains];
}

/** The risk a threshold was calibrated for, as a percentage: `5 %`, `2,5 %`. */
export function formatRisk(alpha: number, lang: Lang): string {
  if (!Number.isFinite(alpha)) return '?';
  return `${formatNumber(Math.round(alpha * 10_000) / 100, lang)} %`;
}

/** The third result: the answer check of a v1.2 certificate, else the older relevance score. */
function relevantLine(result: BundleVerification, reading: AnswerReading, lang: Lang): VerdictLine {
  const check = reading.check;
  if (check !== undefined) {
    const values = {
      score: formatScore(check.score, lang),
      threshold: formatScore(check.threshold, lang),
      risk: formatRisk(check.alpha, lang),
    };
    const term: MessageKey = 'verdict.term.answers';
    if (check.status === 'answers' && reading.outcome !== 'related')
      return {
        id: 'relevant',
        status: 'relevant',
        tone: 'good',
        term,
        message: { key: 'verdict.check.answers', values },
      };
    return {
      id: 'relevant',
      status: 'not_relevant',
      tone: 'warn',
      term,
      message: {
        key:
          check.status === 'answers'
            ? 'verdict.check.issuer'
            : check.score >= check.threshold
              ? 'verdict.check.rules'
              : 'verdict.check.below',
        values,
      },
    };
  }
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

const ASKED_WORDS = new Set(['amount', 'duration', 'age', 'date', 'sanction', 'definition']);

/** A constraint of the question in words: `2013`, `regulation 17/2003`, `section 287`. */
export function constraintText(constraint: Constraint, lang: Lang): string {
  return translate(lang, `verdict.constraint.${constraint.kind}` as MessageKey, { value: constraint.value });
}

/** Why an answer is only related, as one sentence (docs/certificate.md, "The answer check"). */
export function relatedMessage(reason: RelatedReason | undefined, lang: Lang): Message {
  switch (reason?.kind) {
    case 'unmet': {
      const what = new Intl.ListFormat(locale(lang), { type: 'disjunction' }).format(
        reason.constraints.map((constraint) => constraintText(constraint, lang)),
      );
      return { key: 'verdict.related.unmet', values: { what } };
    }
    case 'value': {
      const asked = ASKED_WORDS.has(reason.asked) ? reason.asked : 'other';
      return {
        key: 'verdict.related.value',
        values: { what: translate(lang, `verdict.asked.${asked}` as MessageKey) },
      };
    }
    case 'below':
      return {
        key: 'verdict.related.below',
        values: { score: formatScore(reason.score, lang), threshold: formatScore(reason.threshold, lang) },
      };
    case 'reading':
    case 'rules':
    case 'relevance':
    case 'issuer':
      return { key: `verdict.related.${reason.kind}` };
    default:
      return { key: 'verdict.related.issuer' };
  }
}

function notAssessed(id: 'supported' | 'relevant', key: MessageKey): VerdictLine {
  return { id, status: 'unknown', tone: 'neutral', message: { key } };
}

/**
 * The verdict for a finished verification, given how the keys it used relate to the server's.
 * `chains` are the chain ids the bundle's documents are anchored on ({@link anchorChains}).
 */
export function decideVerdict(
  result: BundleVerification,
  options: {
    trust: TrustStatus;
    lang: Lang;
    issuer?: { name: string; key_id: string };
    chains?: readonly number[];
  },
): Verdict {
  const failing = result.checks.filter((check) => check.status === 'fail');
  const { lang } = options;
  const chain = chainNames(options.chains ?? [], lang);

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
      chain,
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
      chain,
    };
    if (hint) verdict.hint = hint;
    return verdict;
  }

  const reading = readAnswer(result);
  const withCheck = (verdict: Verdict): Verdict =>
    reading.check === undefined ? verdict : { ...verdict, check: reading.check };

  if (reading.outcome === 'refused') {
    const reason = result.answer.refusal;
    return withCheck({
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
        authenticLine(result, true, chain),
      ],
      failing,
      chain,
    });
  }

  if (reading.outcome === 'related') {
    // Authentic quotes, not a confirmed answer: why, that the quotes are authentic, and the check.
    return withCheck({
      kind: 'related',
      verified: false,
      heading: { key: 'verdict.heading.related' },
      alarm: false,
      lines: [
        { id: 'answer', status: 'related', tone: 'warn', message: relatedMessage(reading.related, lang) },
        authenticLine(result, false, chain),
        relevantLine(result, reading, lang),
      ],
      failing,
      chain,
    });
  }

  const lines = [
    authenticLine(result, false, chain),
    supportedLine(result.claims),
    relevantLine(result, reading, lang),
  ];
  if (reading.outcome === 'not-answered') {
    lines.unshift({
      id: 'answer',
      status: 'not_answered',
      tone: 'warn',
      message: { key: 'verdict.notAnswered.noClaim' },
    });
    return withCheck({
      kind: 'not-answered',
      verified: false,
      heading: { key: 'verify.notAnswered' },
      alarm: false,
      lines,
      failing,
      chain,
    });
  }
  return withCheck({
    kind: 'verified',
    verified: true,
    heading: { key: reading.check !== undefined ? 'verdict.heading.answers' : 'verify.verified' },
    alarm: false,
    lines,
    failing,
    chain,
  });
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
