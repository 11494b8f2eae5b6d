/**
 * The deterministic part of the answer check (docs/certificate.md, "The answer check"): what a
 * question asks for and what it holds the answer to, read from the signed question alone, and
 * whether the signed evidence meets it. The issuer and every verifier run this same code, so a
 * certificate that says "answers your question" while its evidence states no value of the asked
 * type, or belongs to another year, regulation or version than the question names, is caught.
 *
 * - The *asked type* (an amount, a duration, an age, a date, a definition, …) comes from the
 *   vocabulary's `asked` rules, data the caller passes: the first rule whose `question` pattern
 *   matches wins, `other` when none does. A rule with a `value` pattern is met when a claim's text
 *   or one of its evidence spans states such a value.
 * - The *constraints* are the years, numbered regulations ("17/2003", "Nomor 17 Tahun 2003"),
 *   versions ("v5", "version 5") and numbered sections ("Pasal 287", "section 4") the question
 *   names. Each must appear in the evidence of some claim: its spans, its citation (label, headings,
 *   document title, Pasal) or the claim's own text. A different year or document is a failed check,
 *   not a lower score.
 *
 * The statistical part — how likely the answer is right, against a calibrated threshold — is the
 * issuer's score; a verifier checks it against the signed threshold and recomputes this part.
 */
import type { Claim } from './certificate.js';

/** One asked-type rule of the vocabulary: patterns are regular-expression sources, matched case-insensitively. */
export interface AskedRule {
  /** The asked type, e.g. `amount`, `duration`, `age`, `date`, `definition`, `steps`. */
  type: string;
  /** Matches a question that asks for this type. */
  question: string;
  /** Matches a statement that states a value of this type; without it the type is not value-checked. */
  value?: string;
}

/** The asked type of a question no rule matches. */
export const OTHER_ASKED_TYPE = 'other';

const patternCache = new Map<string, RegExp>();
function pattern(source: string): RegExp {
  let compiled = patternCache.get(source);
  if (compiled === undefined) {
    compiled = new RegExp(source, 'iu');
    patternCache.set(source, compiled);
  }
  return compiled;
}

/** Lower case, NFKC, one space between words: the form questions and evidence are matched in. */
export function normalizeForCheck(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/**
 * The asked type of `question` under `rules`: the first rule whose `question` pattern matches.
 *
 * @example
 * askedTypeOf('How much is the fine?', [{ type: 'amount', question: '\\bhow much\\b' }]); // 'amount'
 */
export function askedTypeOf(question: string, rules: readonly AskedRule[]): string {
  const text = normalizeForCheck(question);
  for (const rule of rules) if (pattern(rule.question).test(text)) return rule.type;
  return OTHER_ASKED_TYPE;
}

/** Whether some text in `texts` states a value of `type` (true when the type has no value pattern). */
export function statesAskedValue(
  type: string,
  rules: readonly AskedRule[],
  texts: readonly string[],
): boolean {
  const rule = rules.find((candidate) => candidate.type === type);
  if (rule?.value === undefined) return true;
  const value = pattern(rule.value);
  return texts.some((text) => value.test(normalizeForCheck(text)));
}

/** A year as a constraint: 1900–2099, not part of a longer number or a figure ("1.2019", "2019,5"). */
const YEAR = /(?<![\p{N}.,/])(?:19|20)\d{2}(?![\p{N}]|[.,]\d)/gu;
/**
 * A numbered regulation: "17/2003", "nomor 17 tahun 2003", "no. 17 of 2003", and a ministerial or
 * agency number with its code between number and year ("79/PMK.07/2014", "6/POJK.07/2022",
 * "22/PERMEN-KP/2015"): the code's own digits ("07") are no regulation number.
 */
const REGULATION =
  /(?<![\p{N}/])(\d{1,4})\s*\/\s*(?:\p{L}[\p{L}-]*(?:\.\d{1,3})*\s*\/\s*)?((?:19|20)\d{2})(?!\p{N})|\b(?:nomor|no\.?|number)\s*(\d{1,4})\s+(?:tahun|of|year)\s+((?:19|20)\d{2})\b/giu;
/** A version: "v5", "v5.1", "version 5", "versi 4.2", "release 2". */
const VERSION =
  /\bv(\d{1,3}(?:\.\d{1,3}){0,2})\b|\b(?:version|versi|release|rilis)\s+(\d{1,3}(?:\.\d{1,3}){0,2})\b/giu;
/** A version in evidence: those forms, and a bare dotted number ("5.0.0", "4.2"). */
const EVIDENCE_VERSION = new RegExp(
  `${VERSION.source}|(?<![\\p{N}.,])(\\d{1,3}\\.\\d{1,3}(?:\\.\\d{1,3})?)(?![\\p{N}]|[.,]\\d)`,
  'giu',
);
/** A numbered section: "pasal 287", "article 5", "section 4", "bab iv" (Roman numerals too). */
const SECTION = /\b(?:pasal|article|section|bab|chapter)\s+(\d{1,4}[a-z]?|[ivxlc]{1,6})\b/giu;

/** Letter O read for a zero beside digits ("2O2O"), as OCR writes years. */
function foldOcrZeros(text: string): string {
  return text.replace(/(?<=\d)[oO]|[oO](?=\d)/gu, '0');
}

/**
 * The constraints `question` names, as sorted, distinct strings: `year:2019`, `regulation:17/2003`,
 * `version:5`, `section:287`. A year inside a named regulation is held by the regulation.
 *
 * @example
 * constraintsOf('Berapa belanja negara APBN 2019 menurut UU 12/2018?'); // ['regulation:12/2018', 'year:2019']
 */
export function constraintsOf(question: string): string[] {
  const text = foldOcrZeros(normalizeForCheck(question));
  const found = new Set<string>();
  let rest = text;
  for (const match of text.matchAll(REGULATION)) {
    const number = match[1] ?? match[3];
    const year = match[2] ?? match[4];
    found.add(`regulation:${Number(number)}/${year}`);
    rest = rest.replace(match[0], ' ');
  }
  for (const match of rest.matchAll(YEAR)) found.add(`year:${match[0]}`);
  for (const match of text.matchAll(VERSION)) found.add(`version:${match[1] ?? match[2]}`);
  for (const match of text.matchAll(SECTION)) found.add(`section:${match[1]}`);
  return [...found].sort();
}

/** What evidence offers against constraints: its years, regulations, versions and sections. */
function offered(texts: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const raw of texts) {
    const text = foldOcrZeros(normalizeForCheck(raw));
    for (const match of text.matchAll(REGULATION)) {
      const year = match[2] ?? match[4];
      out.add(`regulation:${Number(match[1] ?? match[3])}/${year}`);
      out.add(`year:${year}`);
    }
    for (const match of text.matchAll(YEAR)) out.add(`year:${match[0]}`);
    for (const match of text.matchAll(EVIDENCE_VERSION)) {
      const version = match[1] ?? match[2] ?? match[3]!;
      const parts = version.split('.');
      // "5.0.0" offers 5, 5.0 and 5.0.0: a question about version 5 is about any 5.x.
      for (let length = 1; length <= parts.length; length++)
        out.add(`version:${parts.slice(0, length).join('.')}`);
    }
    for (const match of text.matchAll(SECTION)) out.add(`section:${match[1]}`);
  }
  return out;
}

/** The texts of a claim a constraint or a value may be met in: its text, spans and citations. */
export function claimCheckTexts(claim: Pick<Claim, 'text' | 'evidence'>): string[] {
  const texts = [claim.text];
  for (const evidence of claim.evidence) {
    const citation = evidence.citation;
    texts.push(evidence.span.text, citation.document_title);
    if (citation.label !== undefined) texts.push(citation.label);
    if (citation.section_path !== undefined) texts.push(...citation.section_path);
    if (citation.pasal !== undefined) texts.push(`pasal ${citation.pasal}`);
  }
  return texts;
}

/** The value texts of a claim: its own text and its evidence spans (not headings or titles). */
function claimValueTexts(claim: Pick<Claim, 'text' | 'evidence'>): string[] {
  return [claim.text, ...claim.evidence.map((evidence) => evidence.span.text)];
}

/** What the deterministic answer check reads from a question and the claims that answer it. */
export interface AnswerCheckReading {
  /** The asked type ({@link askedTypeOf}). */
  asked: string;
  /** The question's constraints ({@link constraintsOf}). */
  constraints: string[];
  /** The constraints no claim's evidence meets. */
  unmet: string[];
  /** Whether some claim states a value of the asked type (true when the type has no value pattern). */
  value_stated: boolean;
}

/**
 * Reads `question` against `claims`: the asked type and constraints, which constraints no claim
 * meets, and whether a value of the asked type is stated. No claims meet nothing.
 *
 * @example
 * const reading = readAnswerCheck(certificate.query.text, certificate.claims, SAKSI_VOCABULARY.asked ?? []);
 * if (reading.unmet.length > 0 || !reading.value_stated) showNotConfirmed();
 */
export function readAnswerCheck(
  question: string,
  claims: readonly Pick<Claim, 'text' | 'evidence'>[],
  rules: readonly AskedRule[],
): AnswerCheckReading {
  const asked = askedTypeOf(question, rules);
  const constraints = constraintsOf(question);
  const available = offered(claims.flatMap(claimCheckTexts));
  return {
    asked,
    constraints,
    unmet: constraints.filter((constraint) => !available.has(constraint)),
    value_stated: claims.length > 0 && statesAskedValue(asked, rules, claims.flatMap(claimValueTexts)),
  };
}
