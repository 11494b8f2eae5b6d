/**
 * The three results of a verification as `saksi verify` prints them (docs/certificate.md, "Three
 * results"): *authentic* (the integrity checks), *supported* (each claim follows from its spans) and
 * *relevant* (the evidence answers the question), then the answer's outcome when it is not an
 * answer. Each is its own line, so a reader never takes one for another.
 */
import { type BundleVerification, type ClaimDecision, plural, type RelevanceDecision } from '@saksi/proof';
import type { Style } from './io.js';
import { pad, safeText } from './text.js';

const LABEL_WIDTH = 12;

function score(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '?' : value.toFixed(2);
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
 * The *Authentic*, *Supported*, *Relevant* (and, when it is not an answer, *Answer*) lines for a
 * verification result. `schema` is the certificate's schema, to say why relevance is not recorded.
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

  if (!answer.answered) {
    const why =
      answer.relevant.status === 'not_relevant'
        ? 'its evidence is below the relevance threshold'
        : 'no claim may be shown as verified';
    lines.push(`Answer: ${style.yellow('not answered')} — ${why}`);
  }
  return lines;
}
