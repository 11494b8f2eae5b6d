/**
 * The three results of a verification as `saksi verify` prints them (docs/certificate.md, "Three
 * results"): *authentic* (the integrity checks), *supported* (each claim follows from its spans) and
 * whether the evidence answers the question — for certificate v1.2 the calibrated answer check
 * (*Answers*), before it the lexical relevance score (*Relevant*) — then the answer's outcome when it
 * is not an answer, and the one-line verdict. Each is its own line, so a reader never takes one for
 * another.
 *
 * Three outcomes, said as the web panel and the widget say them: the passages *answer the question*
 * (VERIFIED), they are *related passages* — authentic, not a confirmed answer (AUTHENTIC) — or the
 * question was *not answered* (a refusal, AUTHENTIC). A refusal or related passages are never
 * VERIFIED.
 */
import {
  type BundleVerification,
  type CheckDecision,
  type ClaimDecision,
  plural,
  type RelevanceDecision,
} from '@saksi/proof';
import type { Style } from './io.js';
import { pad, safeText } from './text.js';

const LABEL_WIDTH = 12;

function score(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '?' : value.toFixed(2);
}

/** What a reader is told about an authentic answer: it answers, it is related passages, or it is not answered. */
export type AnswerOutcome = 'answers' | 'related' | 'refused' | 'not-answered';

/**
 * The outcome of an authentic result, and for related passages why, in words. Related: the issuer
 * said so, the verifier's answer check does not confirm an "answered", or (before v1.2) the answer
 * is below its relevance threshold.
 */
export function answerOutcome(result: BundleVerification): {
  outcome: AnswerOutcome;
  check?: CheckDecision;
  why?: string;
} {
  const answer = result.answer;
  const check = answer.check;
  const base = check === undefined ? {} : { check };
  const outcome = answer.outcome;
  if (outcome === 'refused') return { ...base, outcome: 'refused' };
  if (outcome === 'related' || check?.status === 'not_confirmed' || answer.relevant.status === 'not_relevant')
    return { ...base, outcome: 'related', why: relatedWhy(check, answer.relevant) };
  if (!answer.answered) return { ...base, outcome: 'not-answered', why: 'no claim may be shown as verified' };
  return { ...base, outcome: 'answers' };
}

const ASKED_WORDS: Record<string, string> = {
  amount: 'amount',
  duration: 'duration',
  age: 'age',
  date: 'date',
  sanction: 'sanction',
  definition: 'definition',
};

/** `year:2013` → `2013`, `regulation:17/2003` → `regulation 17/2003`, `section:287` → `section 287`. */
function constraintWords(constraint: string): string {
  const [kind, ...rest] = constraint.split(':');
  const value = safeText(rest.join(':'));
  if (kind === 'year') return value;
  if (kind === 'regulation' || kind === 'version' || kind === 'section') return `${kind} ${value}`;
  return `"${safeText(constraint)}"`;
}

function relatedWhy(check: CheckDecision | undefined, relevant: RelevanceDecision): string {
  if (check === undefined)
    return relevant.status === 'not_relevant'
      ? 'its evidence is below the relevance threshold'
      : 'the issuer released the passages as related, not as an answer';
  const mismatches = new Set(check.mismatches);
  if (check.unmet.length > 0)
    return `the passages do not mention ${check.unmet.map(constraintWords).join(' or ')}`;
  if (mismatches.has('VALUE_MISSING'))
    return `no ${ASKED_WORDS[check.asked] ?? 'value of the kind asked'} is stated in the passages`;
  if (mismatches.has('ASKED_TYPE') || mismatches.has('CONSTRAINTS'))
    return "the certificate's reading of the question (asked type, constraints) does not match the question";
  if (mismatches.has('NO_ASKED_RULES'))
    return 'this verifier has no asked-type rules to read the question with';
  if (mismatches.has('BELOW_THRESHOLD') || !(check.score >= check.threshold))
    return `the answer check scored ${score(check.score)}, below the ${score(check.threshold)} needed`;
  return 'the issuer released the passages as related, not as an answer';
}

/** The risk a threshold was calibrated for, as a percentage: `5 %`. */
export function riskText(alpha: number): string {
  return Number.isFinite(alpha) ? `${Math.round(alpha * 10_000) / 100} %` : '?';
}

/** `answer check 0.91 ≥ 0.62, risk ≤ 5 %` */
function checkNumbers(check: CheckDecision): string {
  const comparison = check.score >= check.threshold ? '≥' : '<';
  return `answer check ${score(check.score)} ${comparison} ${score(check.threshold)}, risk ≤ ${riskText(check.alpha)}`;
}

/**
 * The one-line verdict: what is verified. VERIFIED only for authentic passages that answer the
 * question; AUTHENTIC for an authentic refusal or related passages; FAILED when an integrity check
 * failed.
 */
export function verdictLine(result: BundleVerification, style: Style): string {
  if (result.verdict !== 'verified')
    return `Verdict: ${style.red(style.bold('FAILED'))} — ${result.codes.join(', ')}. No claim of this answer may be shown as verified.`;
  const { outcome, check, why } = answerOutcome(result);
  const authentic = `Verdict: ${style.yellow(style.bold('AUTHENTIC'))} — `;
  switch (outcome) {
    case 'answers': {
      const relevant = result.answer.relevant;
      const how =
        check !== undefined
          ? ` and answer the question (${checkNumbers(check)})`
          : relevant.status === 'relevant'
            ? ` and match the question's words (relevance ${score(relevant.score)} ≥ ${score(relevant.threshold)}; no answer check before certificate v1.2)`
            : ' (the certificate records no relevance and no answer check)';
      return `Verdict: ${style.green(style.bold('VERIFIED'))} — the quoted passages are authentic${how}.`;
    }
    case 'related':
      return `${authentic}the quoted passages are authentic; not a confirmed answer to the question (related passages): ${why}.`;
    case 'refused': {
      const reason = result.answer.refusal === undefined ? '' : `: ${safeText(result.answer.refusal)}`;
      return `${authentic}the refusal is authentic; the question was not answered (refused${reason}).`;
    }
    default:
      return `${authentic}the quoted passages are authentic; not an answer to the question: ${why}.`;
  }
}

/** How each claim is supported, grouped: `1 verbatim quote, 1 composed from 2 spans, 1 entailed by lexical-entailment`. */
function supportBreakdown(claims: readonly ClaimDecision[]): string {
  const groups = new Map<string, number>();
  const add = (key: string) => groups.set(key, (groups.get(key) ?? 0) + 1);
  for (const claim of claims) {
    const supported = claim.supported;
    switch (supported.kind) {
      case 'verbatim':
        add('verbatim');
        break;
      case 'composed':
        add(`composed from ${plural(supported.spans ?? 0, 'span')}`);
        break;
      case 'entailed':
        add(`entailed by ${safeText(supported.method)}`);
        break;
      case 'contradicted':
        add('contradicted');
        break;
      default:
        add(`not supported: ${safeText(supported.method)}`);
    }
  }
  return [...groups]
    .map(([key, n]) => (key === 'verbatim' ? plural(n, 'verbatim quote') : `${n} ${key}`))
    .join(', ');
}

function relevanceText(relevant: RelevanceDecision): string {
  const method = relevant.method ? ` (${safeText(relevant.method.id)})` : '';
  if (relevant.status === 'relevant')
    return `yes — ${score(relevant.score)} ≥ ${score(relevant.threshold)}${method}`;
  return `no — ${score(relevant.score)} < ${score(relevant.threshold)}${method}: not an answer to the question`;
}

/**
 * The *Authentic*, *Supported*, *Answers* (v1.2) or *Relevant* (before) and, when it is not an
 * answer, *Answer* lines for a verification result. `schema` is the certificate's schema, to say why
 * relevance is not recorded.
 */
export function resultLines(result: BundleVerification, schema: string | undefined, style: Style): string[] {
  const label = (name: string) => style.bold(pad(`${name}:`, LABEL_WIDTH));
  const lines: string[] = [];
  const total = result.checks.length;
  const passed = result.checks.filter((check) => check.status === 'pass').length;
  const skipped = result.checks.filter((check) => check.status === 'skip').length;
  const failed = result.checks.filter((check) => check.status === 'fail').length;

  if (result.authentic) {
    lines.push(
      `${label('Authentic')}${style.green('yes')} — ${passed} of ${total} integrity checks passed` +
        (skipped > 0 ? `, ${skipped} skipped (not asked for or nothing to check)` : ''),
    );
  } else {
    lines.push(
      `${label('Authentic')}${style.red('no')} — ${failed} of ${total} integrity checks failed (${result.codes.join(', ')})`,
    );
    lines.push(`${label('Supported')}${style.dim('not judged: the certificate is not authentic')}`);
    lines.push(`${label('Relevant')}${style.dim('not judged: the certificate is not authentic')}`);
    return lines;
  }

  const answer = result.answer;
  if (answer.outcome === 'refused') {
    const reason = answer.refusal === undefined ? '' : ` (${safeText(answer.refusal)})`;
    lines.push(
      `Answer: ${style.yellow(`refused${reason}`)} — ` +
        (result.claims.length === 0
          ? 'no claim to support'
          : `${plural(result.claims.length, 'claim')} not shown as an answer`),
    );
    return lines;
  }

  const claims = result.claims;
  if (claims.length === 0) {
    lines.push(`${label('Supported')}${style.dim('no claims')}`);
  } else {
    const supported = claims.filter((claim) =>
      ['verbatim', 'composed', 'entailed'].includes(claim.supported.kind),
    ).length;
    const text = `${supported} of ${plural(claims.length, 'claim')} (${supportBreakdown(claims)})`;
    lines.push(`${label('Supported')}${supported === claims.length ? text : style.yellow(text)}`);
  }

  const reading = answerOutcome(result);
  const check = reading.check;
  if (check !== undefined) {
    // One minimum: the answer check's; the claims' own relevance thresholds are not shown.
    const method = ` (${safeText(check.method.id)} ${safeText(check.method.version)})`;
    const text =
      reading.outcome === 'answers'
        ? `yes — ${checkNumbers(check)}${method}`
        : `not confirmed — ${checkNumbers(check)}${method}`;
    lines.push(`${label('Answers')}${reading.outcome === 'answers' ? text : style.yellow(text)}`);
    if (reading.outcome === 'related')
      lines.push(`Answer: ${style.yellow('related passages, not a confirmed answer')} — ${reading.why}`);
    else if (reading.outcome === 'not-answered')
      lines.push(`Answer: ${style.yellow('not answered')} — ${reading.why}`);
    return lines;
  }

  const notRelevant = claims.filter((claim) => claim.relevant.status === 'not_relevant').length;
  const below =
    notRelevant > 0
      ? `; ${plural(notRelevant, 'claim')} below ${notRelevant === 1 ? 'its' : 'their'} threshold`
      : '';
  if (answer.relevant.status === 'unknown') {
    const why =
      schema === 'saksi.certificate/v1' ? 'not recorded (certificate v1)' : 'not recorded for the answer';
    lines.push(`${label('Relevant')}${style.dim(why)}${below}`);
  } else {
    const text = relevanceText(answer.relevant);
    lines.push(
      `${label('Relevant')}${answer.relevant.status === 'relevant' ? text : style.yellow(text)}${below}`,
    );
  }

  if (reading.outcome === 'related')
    lines.push(`Answer: ${style.yellow('related passages, not a confirmed answer')} — ${reading.why}`);
  else if (reading.outcome === 'not-answered')
    lines.push(`Answer: ${style.yellow('not answered')} — ${reading.why}`);
  return lines;
}
