/**
 * The fail-closed render policy (DESIGN.md §2.1, §6): a claim is shown as verified only when every
 * integrity check passed AND the verifier's own reading of the claim agrees. The decision is made
 * here, by the verifier, never taken from text a model produced.
 */
import type { Certificate, Claim, RenderReason } from './certificate.js';
import { unsupportedFigures } from './numbers.js';

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
}

const NEGATIONS = [
  'tidak',
  'tak',
  'bukan',
  'tanpa',
  'belum',
  'jangan',
  'enggak',
  'nggak',
  'gak',
  'not',
  'never',
  'without',
];
const QUANTIFIERS = [
  'paling banyak',
  'paling sedikit',
  'paling lama',
  'paling singkat',
  'paling cepat',
  'paling tinggi',
  'paling rendah',
  'sekurang-kurangnya',
  'setidaknya',
  'sebanyak-banyaknya',
  'minimal',
  'maksimal',
  'semua',
  'seluruh',
  'setiap',
  'sebagian',
  'beberapa',
  'at least',
  'at most',
  'all',
  'every',
  'some',
  'only',
  'hanya',
];

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
 * Negations and quantifiers of the claim that none of its evidence spans contains — the cheap,
 * verifier-side guard against a claim that flips or widens what the source says ("tidak dipidana",
 * "paling sedikit" for "paling banyak"). English contractions ending in n't count as "not".
 */
export function unsupportedQualifiers(claim: string, spans: readonly string[]): string[] {
  const claimTokens = words(claim.replace(/n't\b/gi, ' not'));
  const spanTokens = spans.map((span) => words(span.replace(/n't\b/gi, ' not')));
  const found: string[] = [];
  for (const phrase of [...QUANTIFIERS, ...NEGATIONS]) {
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
}

/** Decides, for each claim of `certificate`, whether it may be shown as verified and why. */
export function decideRender(certificate: Certificate, context: RenderContext): ClaimDecision[] {
  return certificate.claims.map((claim, index) => {
    const sources = claim.evidence.flatMap((evidence) => [
      evidence.span.text,
      evidence.citation.pasal ?? '',
      evidence.citation.ayat ?? '',
      evidence.citation.page === undefined ? '' : String(evidence.citation.page),
      ...(evidence.citation.section_path ?? []),
      evidence.citation.document_title,
    ]);
    const unsupported = unsupportedFigures(claim.text, sources).map((figure) => figure.raw);
    const qualifiers = unsupportedQualifiers(
      claim.text,
      claim.evidence.map((evidence) => evidence.span.text),
    );
    const reason = reasonFor(
      claim,
      certificate,
      context,
      index,
      unsupported.length > 0,
      qualifiers.length > 0,
    );
    return {
      claim_id: claim.claim_id,
      text: claim.text,
      rendered: reason === 'OK',
      reason,
      label: claim.verification.label,
      confidence: claim.verification.confidence,
      certificate_render: claim.render,
      unsupported_figures: unsupported,
      unsupported_qualifiers: qualifiers,
    };
  });
}

function reasonFor(
  claim: Claim,
  certificate: Certificate,
  context: RenderContext,
  index: number,
  numberMismatch: boolean,
  qualifierMismatch: boolean,
): RenderReason {
  if (!context.integrityOk) return 'INTEGRITY_FAILURE';
  if (claim.evidence.length === 0) return 'NO_EVIDENCE';
  if (claim.verification.label === 'contradicted') return 'CONTRADICTED';
  if (claim.verification.label === 'not_supported') return 'NOT_SUPPORTED';
  if (claim.verification.confidence < certificate.policy.confidence_threshold) return 'LOW_CONFIDENCE';
  if (numberMismatch) return 'NUMBER_MISMATCH';
  if (qualifierMismatch) return 'NOT_SUPPORTED';
  if (certificate.policy.require_anchor && context.anchoredClaims?.[index] !== true) return 'ANCHOR_REQUIRED';
  if (!claim.render.rendered) return claim.render.reason === 'OK' ? 'NOT_SUPPORTED' : claim.render.reason;
  return 'OK';
}
