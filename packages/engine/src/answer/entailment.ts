/**
 * The default claim verifier (docs/language-models.md, "What happens to a question"): lexical entailment of a
 * claim by its evidence, with every code, actor and polarity word of the claim aligned to the
 * evidence (alignment.ts).
 *
 * 1. Numeric fidelity: every figure in the claim must occur in the evidence (or in the headings of
 *    its citation, `options.context`, as the render policy reads them) after normalizing Indonesian
 *    and English number formats (`unsupportedFigures` from `@saksi/proof`), otherwise
 *    `not_supported` with `NUMBER_MISMATCH`.
 * 2. Codes: every identifier of the claim (a Pasal, ayat or regulation, a plate, an error code, a
 *    `snake_case`/`camelCase` name, a flag, a version, an HTTP status…) must occur in the evidence or
 *    in the headings of its citation (`options.context`), otherwise `not_supported` with
 *    `UNALIGNED_CODE`: "Pasal 281" where the evidence is Pasal 287 shares every other word.
 * 3. Actors: every person, role or body the claim names ("warga", "pejabat", "pengemudi", "user",
 *    "admin"; Indonesian `pe(N)-` agent nouns) must have its stem in the evidence, otherwise
 *    `not_supported` with `UNALIGNED_ACTOR`: "warga" where the evidence says "pejabat".
 * 4. Polarity: every word of the antonym table (wajib/boleh/dilarang, must/may/must not,
 *    dikenai/dibebaskan, naik/turun, sebelum/sesudah, enabled/disabled, berhak, hanya/only…), a
 *    negation before it applied, must have its value in the evidence. The evidence stating another
 *    value of the same class → `contradicted` with `POLARITY_REVERSED` ("dibebaskan dari denda" where
 *    the evidence fines; `not_supported` when the claim is otherwise about something else); the
 *    evidence stating none of its class → `not_supported` with `UNALIGNED_POLARITY` (an added "hanya").
 * 5. Edited wording: a run of up to three content words of the claim that the evidence lacks, between
 *    two words that stand at most that many words apart in the evidence, replaces or inserts words in
 *    the evidence's own sentence ("Sepeda Motor" → "Mobil", "bulan" → "tahun"; the words a template
 *    puts between two spans, one span a line, are no edit) → `not_supported`
 *    with `UNALIGNED_TERM`. A lexical check cannot tell a synonym there from a swap, so it does not
 *    certify either.
 * 6. History: with `options.history` (earlier turns of a chat, which are never evidence), a claim
 *    with a word, code or figure the evidence lacks and the history has (the current question's words
 *    aside) repeats the history, not the evidence → `not_supported` with `HISTORY_ONLY`.
 * 7. Negation: a word the claim negates closely ("tidak dipidana") that the evidence never has inside
 *    a negated clause, or a word the evidence has only inside negated clauses ("tidak memenuhi
 *    persyaratan") that the claim states outside any negated clause → `contradicted` (when the claim is otherwise about the
 *    same thing: coverage of at least one half). A negation's close scope is its next two content
 *    words; its clause runs to `.;:!?` or a relative word (`yang`, `sebagaimana`, `which`, `that`),
 *    so "must not X, Y or modify Z" still negates "modify".
 * 8. Coverage: the share of the claim's stemmed content words (citation markers `[n]` and digits
 *    left out — figures are step 1) that occur in the evidence; `entailed` from
 *    {@link ENTAILMENT_COVERAGE_THRESHOLD} up, when nothing above failed.
 *
 * `confidence` is the verifier's confidence in the label it gives: for `entailed` and `contradicted`
 * the coverage (scaled down for claims with fewer than three content words, which say too little to
 * be sure of), for a coverage-based `not_supported` one minus the coverage, and 1 for a missing
 * figure, an unaligned code, actor, polarity word or term, or a claim resting on history. It is a
 * lexical check: it cannot see paraphrases that share no stems, nor a swap of roles between words it
 * finds; the certificate says which verifier produced the label.
 */
import { unsupportedFigures } from '@saksi/proof';
import { actorsOf, codesOf, comparePolarity, unalignedCodes } from './alignment.js';
import { foldText, isStopword, type Language, stemWord } from './stem.js';

export const VERIFIER_ID = 'lexical-entailment';
/**
 * 2: evidence that addresses a language model ("ignore previous instructions") supports nothing.
 * 3: codes, actors and polarity words aligned, edited wording and claims resting on chat history fail.
 */
export const VERIFIER_VERSION = '3';

/** Coverage from which a claim (without figure or negation problems) is `entailed`. */
export const ENTAILMENT_COVERAGE_THRESHOLD = 0.7;

export type EntailmentLabel = 'entailed' | 'not_supported' | 'contradicted';

/** Why a claim was not found entailed. */
export type EntailmentReason =
  | 'NUMBER_MISMATCH'
  | 'NEGATION_MISMATCH'
  | 'LOW_COVERAGE'
  | 'EMPTY_CLAIM'
  | 'INSTRUCTION_IN_EVIDENCE'
  | 'UNALIGNED_CODE'
  | 'UNALIGNED_ACTOR'
  | 'POLARITY_REVERSED'
  | 'UNALIGNED_POLARITY'
  | 'UNALIGNED_TERM'
  | 'HISTORY_ONLY';

/** What a claim is read against besides its evidence. */
export interface EntailmentOptions {
  /** The headings of the claim's citation (label, section path, document title): codes may align to them. */
  context?: string;
  /** Earlier turns of the chat: never evidence; a claim whose unsupported words it has fails. */
  history?: string;
  /** The current question, whose words are no sign of copied history. */
  question?: string;
}

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

/** Checks whether `evidence` lexically entails `claim` (see the module header). */
export function checkEntailment(
  claim: string,
  evidence: string,
  language: Language,
  options: EntailmentOptions = {},
): Entailment {
  const claimText = claim.replace(CITATION_MARKER, ' ');
  const claimWords = analyze(claimText, language);
  const evidenceWords = analyze(evidence, language);
  const claimStems = [...claimWords.all].filter((stem) => !/^\d+$/.test(stem));
  const reasons: EntailmentReason[] = [];

  // A Pasal or page number may come from the citation's headings, as the render policy allows
  // (`@saksi/proof`'s render-policy.ts).
  const missingFigures = unsupportedFigures(claimText, [evidence, options.context ?? '']);
  const figuresMissing = missingFigures.length > 0;
  if (figuresMissing) reasons.push('NUMBER_MISMATCH');

  const covered = claimStems.filter((stem) => evidenceWords.all.has(stem)).length;
  const coverage = claimStems.length === 0 ? 0 : covered / claimStems.length;
  const sureness = Math.min(1, claimStems.length / CONFIDENT_CLAIM_WORDS);

  const codes = unalignedCodes(claimText, evidence, options.context);
  if (codes.length > 0) reasons.push('UNALIGNED_CODE');
  const actors = actorsOf(claimText, language).filter((actor) => !evidenceWords.all.has(actor.stem));
  if (actors.length > 0) reasons.push('UNALIGNED_ACTOR');
  const polarity = comparePolarity(claimText, evidence, language);
  if (polarity.reversed.length > 0) reasons.push('POLARITY_REVERSED');
  if (polarity.unaligned.length > 0) reasons.push('UNALIGNED_POLARITY');
  const edited = editedTerms(claimText, evidence, evidenceWords.all, language);
  if (edited) reasons.push('UNALIGNED_TERM');
  if (
    options.history &&
    restsOnHistory(
      options.history,
      options.question ?? '',
      language,
      claimStems.filter((stem) => !evidenceWords.all.has(stem)),
      codes.map((code) => code.key),
      missingFigures.map((figure) => figure.raw),
    )
  )
    reasons.push('HISTORY_ONLY');

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
  if (claimStems.length === 0 && !figuresMissing && codes.length === 0) {
    return { label: 'not_supported', confidence: 1, coverage: 0, reasons: ['EMPTY_CLAIM'] };
  }
  if ((negationMismatch || polarity.reversed.length > 0) && coverage >= CONTRADICTION_MIN_COVERAGE) {
    return {
      label: 'contradicted',
      confidence: round(coverage * sureness),
      coverage: round(coverage),
      reasons,
    };
  }
  if (reasons.some((reason) => HARD_REASONS.has(reason))) {
    if (coverage < ENTAILMENT_COVERAGE_THRESHOLD) reasons.push('LOW_COVERAGE');
    return { label: 'not_supported', confidence: 1, coverage: round(coverage), reasons };
  }
  if (coverage >= ENTAILMENT_COVERAGE_THRESHOLD) {
    return { label: 'entailed', confidence: round(coverage * sureness), coverage: round(coverage), reasons };
  }
  reasons.push('LOW_COVERAGE');
  return { label: 'not_supported', confidence: round(1 - coverage), coverage: round(coverage), reasons };
}

/** Reasons that fail a claim whatever its coverage. */
const HARD_REASONS: ReadonlySet<EntailmentReason> = new Set([
  'NUMBER_MISMATCH',
  'UNALIGNED_CODE',
  'UNALIGNED_ACTOR',
  'POLARITY_REVERSED',
  'UNALIGNED_POLARITY',
  'UNALIGNED_TERM',
  'HISTORY_ONLY',
]);

/** The longest run of unaligned claim words read as an edit of the evidence's wording. */
const MAX_EDIT_WORDS = 3;

/**
 * A text's content words in order, as stems (figures included: they anchor positions too), each with
 * its segment: a line (spans of the evidence are joined by line breaks), or in a claim also a clause
 * (up to `.;:!?` and a space: where a composed claim's template joins its spans).
 */
function contentSequence(
  text: string,
  language: Language,
  clauses: boolean,
): { stem: string; segment: number }[] {
  const words: { stem: string; segment: number }[] = [];
  // Codes are aligned whole (step 2): "UU 22/2009" for "Undang-Undang Nomor 22 Tahun 2009" is no edit.
  let folded = foldText(text);
  for (const code of codesOf(text)) folded = folded.split(foldText(code.text)).join(' ');
  let segment = 0;
  const breaks = clauses ? /\p{L}+|\p{N}+|\n|[.;:!?](?=\s)/gu : /\p{L}+|\p{N}+|\n/gu;
  for (const [token] of folded.matchAll(breaks)) {
    if (!/[\p{L}\p{N}]/u.test(token)) {
      segment += 1;
      continue;
    }
    if (isStopword(token, language)) continue;
    const stem = stemWord(token, language);
    if (!isStopword(stem, language)) words.push({ stem, segment });
  }
  return words;
}

/**
 * Whether the claim replaces or inserts words inside the evidence's own wording: a run of at most
 * {@link MAX_EDIT_WORDS} claim words the evidence lacks (figures and codes aside: steps 1 and 2),
 * whose neighbours in the same clause of the claim occur in one line of the evidence in the same
 * order at most {@link MAX_EDIT_WORDS} + 1 words apart; or such a run ending a clause right after a
 * word the evidence's line goes on from with words the claim lacks ("… paling lama 6 (enam) tahun"
 * for "… bulan"). Words joining two spans (a template's "menurut") are no edit.
 */
function editedTerms(
  claim: string,
  evidence: string,
  evidenceStems: ReadonlySet<string>,
  language: Language,
): boolean {
  const claimSequence = contentSequence(claim, language, true);
  const claimStems = new Set(claimSequence.map((word) => word.stem));
  const evidenceSequence = contentSequence(evidence, language, false);
  const positions = new Map<string, number[]>();
  evidenceSequence.forEach(({ stem }, index) => {
    const list = positions.get(stem);
    if (list) list.push(index);
    else positions.set(stem, [index]);
  });
  const aligned = (index: number) => evidenceStems.has(claimSequence[index]!.stem);
  let index = 0;
  while (index < claimSequence.length) {
    if (aligned(index)) {
      index += 1;
      continue;
    }
    const start = index;
    const segment = claimSequence[start]!.segment;
    while (index < claimSequence.length && !aligned(index) && claimSequence[index]!.segment === segment)
      index += 1;
    const run = claimSequence.slice(start, index);
    const previous = claimSequence[start - 1];
    if (
      previous === undefined ||
      previous.segment !== segment ||
      run.length > MAX_EDIT_WORDS ||
      run.some((word) => /\d/.test(word.stem))
    )
      continue;
    const before = positions.get(previous.stem) ?? [];
    const following = claimSequence[index];
    if (following === undefined || following.segment !== segment) {
      const next = (p: number) => {
        const word = evidenceSequence[p + 1];
        return word && word.segment === evidenceSequence[p]!.segment ? word.stem : undefined;
      };
      if (before.some((p) => next(p) !== undefined && !/\d/.test(next(p)!) && !claimStems.has(next(p)!)))
        return true;
      continue;
    }
    const after = positions.get(following.stem) ?? [];
    if (
      before.some((p) =>
        after.some(
          (q) =>
            q > p &&
            q - p <= MAX_EDIT_WORDS + 1 &&
            evidenceSequence[p]!.segment === evidenceSequence[q]!.segment,
        ),
      )
    )
      return true;
  }
  return false;
}

/**
 * Whether what the evidence does not support — content stems, codes, figures — is in the chat's
 * history (outside the current question): the claim repeats the history, which is never evidence.
 */
function restsOnHistory(
  history: string,
  question: string,
  language: Language,
  unalignedStems: readonly string[],
  unalignedCodeKeys: readonly string[],
  missingFigures: readonly string[],
): boolean {
  const asked = analyze(question, language).all;
  const told = analyze(history, language).all;
  if (unalignedStems.some((stem) => told.has(stem) && !asked.has(stem))) return true;
  const historyCodes = new Set(codesOf(history).map((code) => code.key));
  const questionCodes = new Set(codesOf(question).map((code) => code.key));
  if (unalignedCodeKeys.some((key) => historyCodes.has(key) && !questionCodes.has(key))) return true;
  return missingFigures.some(
    (figure) =>
      unsupportedFigures(figure, [history]).length === 0 && unsupportedFigures(figure, [question]).length > 0,
  );
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
