/**
 * The default claim verifier (docs/language-models.md, "What happens to a question"): lexical entailment of a
 * claim by its evidence.
 *
 * 1. Numeric fidelity: every figure in the claim must occur in the evidence after normalizing
 *    Indonesian and English number formats (`unsupportedFigures` from `@saksi/proof`), otherwise
 *    `not_supported` with `NUMBER_MISMATCH`.
 * 2. Negation: a word the claim negates closely ("tidak dipidana") that the evidence never has inside
 *    a negated clause, or a word the evidence has only inside negated clauses ("tidak memenuhi
 *    persyaratan") that the claim states outside any negated clause → `contradicted` (when the claim is otherwise about the
 *    same thing: coverage of at least one half). A negation's close scope is its next two content
 *    words; its clause runs to `.;:!?` or a relative word (`yang`, `sebagaimana`, `which`, `that`),
 *    so "must not X, Y or modify Z" still negates "modify".
 * 3. Coverage: the share of the claim's stemmed content words (citation markers `[n]` and digits
 *    left out — figures are step 1) that occur in the evidence; `entailed` from
 *    {@link ENTAILMENT_COVERAGE_THRESHOLD} up.
 *
 * `confidence` is the verifier's confidence in the label it gives: for `entailed` and `contradicted`
 * the coverage (scaled down for claims with fewer than three content words, which say too little to
 * be sure of), for a coverage-based `not_supported` one minus the coverage, and 1 for a missing figure.
 * It is a lexical check: it cannot see paraphrases that share no stems, nor a swap of roles between
 * words it finds; the certificate says which verifier produced the label.
 */
import { unsupportedFigures } from '@saksi/proof';
import { foldText, isStopword, type Language, stemWord } from './stem.js';

export const VERIFIER_ID = 'lexical-entailment';
/** 2: evidence that addresses a language model ("ignore previous instructions") supports nothing. */
export const VERIFIER_VERSION = '2';

/** Coverage from which a claim (without figure or negation problems) is `entailed`. */
export const ENTAILMENT_COVERAGE_THRESHOLD = 0.7;

export type EntailmentLabel = 'entailed' | 'not_supported' | 'contradicted';

/** Why a claim was not found entailed. */
export type EntailmentReason =
  | 'NUMBER_MISMATCH'
  | 'NEGATION_MISMATCH'
  | 'LOW_COVERAGE'
  | 'EMPTY_CLAIM'
  | 'INSTRUCTION_IN_EVIDENCE';

/**
 * Text addressed to a language model rather than to a reader: a prompt injection planted in a
 * document. A claim resting on it is not supported, whatever words it shares with it.
 */
const INSTRUCTION =
  /\b(?:abaikan|lupakan|acuhkan)\s+(?:semua\s+|seluruh\s+)?(?:instruksi|perintah|arahan)\b|\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|above|earlier|preceding)\s+(?:instructions|prompts?|directions)\b|\bsystem\s+prompt\b|\b(?:you\s+are\s+now|kamu\s+sekarang\s+adalah|anda\s+sekarang\s+adalah)\b/iu;

/** Whether `evidence` carries instructions to a model (see {@link INSTRUCTION}). */
export function isInstructionLike(evidence: string): boolean {
  return INSTRUCTION.test(evidence);
}

export interface Entailment {
  label: EntailmentLabel;
  /** Confidence in `label`, in [0, 1]. */
  confidence: number;
  /** Share of the claim's content stems found in the evidence, in [0, 1]. */
  coverage: number;
  reasons: EntailmentReason[];
}

const NEGATIONS: Record<Language, ReadonlySet<string>> = {
  id: new Set(['tidak', 'tak', 'bukan', 'tanpa', 'belum', 'jangan', 'enggak', 'nggak', 'gak', 'tdk', 'blm']),
  en: new Set(['not', 'never', 'without', 'no', 'cannot', 'nor', 'neither']),
};
/** A negation governs the next this-many content words closely… */
const NARROW_SCOPE_WORDS = 2;
/** …within this many tokens… */
const NARROW_SCOPE_TOKENS = 4;
/** …and, loosely, the rest of its clause up to this many tokens ("must not X, Y or Z"). */
const WIDE_SCOPE_TOKENS = 24;
/** Words that end a negation's clause (a relative clause or a reference starts). */
const SCOPE_STOPS: Record<Language, ReadonlySet<string>> = {
  id: new Set(['yang', 'sebagaimana', 'tetapi', 'namun', 'kecuali', 'melainkan', 'sedangkan']),
  en: new Set(['which', 'who', 'whom', 'whose', 'that', 'where', 'but', 'unless', 'except', 'whereas']),
};
const SCOPE_TOKEN = /\p{L}+|\p{N}+|[.;:!?](?=\s|$)/gu;
const CLAUSE_BREAK = /^[.;:!?]$/;
/** Below this many content words a claim's confidence is scaled down. */
const CONFIDENT_CLAIM_WORDS = 3;
/** A negation mismatch only contradicts a claim about the same thing: at least this coverage. */
const CONTRADICTION_MIN_COVERAGE = 0.5;
const CITATION_MARKER = /\[\d{1,3}\]/g;

/** Checks whether `evidence` lexically entails `claim`. */
export function checkEntailment(claim: string, evidence: string, language: Language): Entailment {
  const claimText = claim.replace(CITATION_MARKER, ' ');
  const claimWords = analyze(claimText, language);
  const evidenceWords = analyze(evidence, language);
  const claimStems = [...claimWords.all].filter((stem) => !/^\d+$/.test(stem));
  const reasons: EntailmentReason[] = [];

  const figuresMissing = unsupportedFigures(claimText, [evidence]).length > 0;
  if (figuresMissing) reasons.push('NUMBER_MISMATCH');

  const covered = claimStems.filter((stem) => evidenceWords.all.has(stem)).length;
  const coverage = claimStems.length === 0 ? 0 : covered / claimStems.length;
  const sureness = Math.min(1, claimStems.length / CONFIDENT_CLAIM_WORDS);

  // The claim negates what the evidence states plainly, or states plainly what the evidence negates.
  const negationMismatch =
    [...claimWords.negatedNarrow].some(
      (stem) => evidenceWords.all.has(stem) && !evidenceWords.negatedWide.has(stem),
    ) ||
    [...claimWords.plainWide].some(
      (stem) => evidenceWords.negatedWide.has(stem) && !evidenceWords.plainWide.has(stem),
    );
  if (negationMismatch) reasons.push('NEGATION_MISMATCH');

  if (isInstructionLike(evidence)) {
    return {
      label: 'not_supported',
      confidence: 1,
      coverage: round(coverage),
      reasons: ['INSTRUCTION_IN_EVIDENCE'],
    };
  }
  if (claimStems.length === 0 && !figuresMissing) {
    return { label: 'not_supported', confidence: 1, coverage: 0, reasons: ['EMPTY_CLAIM'] };
  }
  if (negationMismatch && coverage >= CONTRADICTION_MIN_COVERAGE) {
    return {
      label: 'contradicted',
      confidence: round(coverage * sureness),
      coverage: round(coverage),
      reasons,
    };
  }
  if (figuresMissing) return { label: 'not_supported', confidence: 1, coverage: round(coverage), reasons };
  if (coverage >= ENTAILMENT_COVERAGE_THRESHOLD) {
    return { label: 'entailed', confidence: round(coverage * sureness), coverage: round(coverage), reasons };
  }
  reasons.push('LOW_COVERAGE');
  return { label: 'not_supported', confidence: round(1 - coverage), coverage: round(coverage), reasons };
}

interface Analysis {
  /** Every content stem. */
  all: Set<string>;
  /** Stems right after a negation (its next `NARROW_SCOPE_WORDS` content words). */
  negatedNarrow: Set<string>;
  /** Stems anywhere in a negation's clause (up to a clause break or a relative word). */
  negatedWide: Set<string>;
  /** Stems with an occurrence outside every negation's clause. */
  plainWide: Set<string>;
}

function analyze(text: string, language: Language): Analysis {
  const folded = foldText(text.replace(/n't\b/gi, ' not').replace(/\bcannot\b/gi, 'can not'));
  const negations = NEGATIONS[language];
  const scopeStops = SCOPE_STOPS[language];
  const result: Analysis = {
    all: new Set(),
    negatedNarrow: new Set(),
    negatedWide: new Set(),
    plainWide: new Set(),
  };
  let narrowWords = 0;
  let narrowTokens = 0;
  let wideTokens = 0;
  for (const [token] of folded.matchAll(SCOPE_TOKEN)) {
    if (CLAUSE_BREAK.test(token)) {
      narrowWords = narrowTokens = wideTokens = 0;
      continue;
    }
    if (negations.has(token)) {
      narrowWords = NARROW_SCOPE_WORDS;
      narrowTokens = NARROW_SCOPE_TOKENS;
      wideTokens = WIDE_SCOPE_TOKENS;
      continue;
    }
    if (scopeStops.has(token)) wideTokens = 0;
    const inNarrow = narrowWords > 0 && narrowTokens > 0;
    const inWide = inNarrow || wideTokens > 0;
    if (narrowTokens > 0) narrowTokens--;
    if (wideTokens > 0) wideTokens--;
    if (isStopword(token, language)) continue;
    const stem = stemWord(token, language);
    if (isStopword(stem, language)) continue;
    result.all.add(stem);
    if (/^\d+$/.test(stem)) continue;
    if (inNarrow) {
      result.negatedNarrow.add(stem);
      narrowWords--;
    }
    if (inWide) result.negatedWide.add(stem);
    else result.plainWide.add(stem);
  }
  return result;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
