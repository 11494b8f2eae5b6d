/**
 * Query rewriting (docs/engine.md, "Retrieval") in layers:
 * 1. the collection's glossary (collection-glossary.ts, docs/glossary.md): its dictionary turns everyday
 *    words into the terms the documents use ("lampu merah" → "Alat Pemberi Isyarat Lalu Lintas", "DAU" →
 *    "Dana Alokasi Umum"), its translations a question in the other language into the documents' one;
 * 2. pattern rules for frequent kinds of question (language/question-kinds.ts: penalty, permission,
 *    requirements, definitions; budget figures with fiscal years, and comparisons of two years → one
 *    variant per year), of the packs' groups the glossary enables (or `profile.rewrite_rules` names);
 * 3. optional LLM expansion through a `QueryExpander` (expander.ts).
 * Each variant carries a weight for the weighted RRF: legal 2.0, original 1.0, phrases 0.8 by default,
 * configurable per collection with `profile.rewrite_weights`. A collection without a glossary and
 * without `rewrite_rules` gets no dictionary, translation or pattern rule: no other collection's words.
 */
import { detectLanguage } from '../language/detect.js';
import {
  isQuestionKind,
  opensWithKind,
  type QuestionKind,
  questionKinds,
  yearsIn,
} from '../language/question-kinds.js';
import { normalizeSpelling } from '../language/spelling.js';
import { withoutStopwords } from '../language/stopwords.js';
import { rewriteGroupsNamed } from '../packs/registry.js';
import { REWRITE_GROUP_NAMES } from '../packs/rewrite-groups.js';
import { type CollectionGlossary, translationEntries } from './collection-glossary.js';
import type { DictionaryEntry } from './dictionaries/types.js';
import type { QueryVariant } from './retrieve.js';

export type { DictionaryEntry } from './dictionaries/types.js';

export interface RewriteWeights {
  /** The legal-language variant (dictionary and pattern rewrite, LLM legal query). Default 2.0. */
  legal: number;
  /** The question as asked. Default 1.0. */
  original: number;
  /** Key phrases (the dictionary's statute terms alone, LLM key phrases). Default 0.8. */
  phrases: number;
}

export const DEFAULT_REWRITE_WEIGHTS: RewriteWeights = { legal: 2, original: 1, phrases: 0.8 };

export interface RewriteOptions {
  language: 'id' | 'en';
  /** The collection's profile: `rewrite_weights` ({legal, original, phrases}) and `rewrite_rules` (groups). */
  profile?: Record<string, unknown>;
  /** The collection's glossary (its dictionary, translations and pattern groups); none: no words. */
  glossary?: CollectionGlossary | null | undefined;
  /** Overrides the glossary's dictionary (all entries of all lists apply). */
  dictionaries?: DictionaryEntry[][];
  /** Overrides the profile's weights, per weight. */
  weights?: Partial<RewriteWeights>;
}

export interface RewriteHints {
  /** Fiscal years named in a budget question, in order of mention. */
  fiscal_years: number[];
  /** The single year to filter by (`retrieve()`'s `fiscalYear`), when exactly one was named. */
  fiscal_year?: number;
  /** The question kinds a pattern rule of the collection's groups matched. */
  kinds: QuestionKind[];
}

export interface RewriteResult {
  variants: QueryVariant[];
  hints: RewriteHints;
  weights: RewriteWeights;
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The weights for a collection: `profile.rewrite_weights`, then `override`, over the defaults. */
export function rewriteWeights(
  profile: Record<string, unknown> | undefined,
  override: Partial<RewriteWeights> = {},
): RewriteWeights {
  const configured = profile?.['rewrite_weights'];
  const fromProfile =
    configured && typeof configured === 'object' ? (configured as Record<string, unknown>) : {};
  const pick = (key: keyof RewriteWeights) =>
    positive(override[key]) ?? positive(fromProfile[key]) ?? DEFAULT_REWRITE_WEIGHTS[key];
  return { legal: pick('legal'), original: pick('original'), phrases: pick('phrases') };
}

/**
 * The pattern-rule groups for a collection: those its glossary enables and those `profile.rewrite_rules`
 * names (known groups only). Neither configured: none, whatever the collection's language.
 */
export function ruleGroups(
  profile: Record<string, unknown> | undefined,
  glossary?: CollectionGlossary | null,
): string[] {
  const configured = profile?.['rewrite_rules'];
  const named = Array.isArray(configured)
    ? configured.filter(
        (group): group is string =>
          typeof group === 'string' && (REWRITE_GROUP_NAMES as readonly string[]).includes(group),
      )
    : [];
  return [...new Set([...(glossary?.pattern_groups ?? []), ...named])];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The clitics an Indonesian word may carry without naming something else: the possessives -nya, -ku,
 * -mu and the particles -lah, -kah, -pun. People write them onto the very words the dictionaries list
 * ("spionnya copot", "klaksonku mati"), so a term matches with one of them and the match covers it.
 */
const CLITIC = '(?:nya|ku|mu|lah|kah|pun)?';

/** Compiled term patterns, shared by every collection's glossary; emptied when it passes this many. */
const MAX_TERM_PATTERNS = 50_000;
const termPatterns = new Map<string, RegExp>();
function termPattern(term: string): RegExp {
  let pattern = termPatterns.get(term);
  if (!pattern) {
    // Glossaries change (uploads): the cache does not keep every term any glossary ever had.
    if (termPatterns.size >= MAX_TERM_PATTERNS) termPatterns.clear();
    const clitic = /\p{L}$/u.test(term) ? CLITIC : '';
    pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(term)}${clitic}(?![\\p{L}\\p{N}])`, 'giu');
    termPatterns.set(term, pattern);
  }
  pattern.lastIndex = 0;
  return pattern;
}

interface Match {
  start: number;
  end: number;
  entry: DictionaryEntry;
  /** The length of the clitic the matched word carries ("spionnya": 3), 0 for none. */
  clitic: number;
}

/**
 * Where `question` already uses the documents' wording: the spans of multi-word expansion phrases. A
 * dictionary term inside such a span is not rewritten ("pajak" in "Penerimaan Negara Bukan Pajak" is not
 * an everyday word for "Penerimaan Perpajakan").
 */
function statuteSpans(question: string, entries: DictionaryEntry[]): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  for (const entry of entries) {
    for (const phrase of phrasesOf(entry)) {
      if (!/\s/.test(phrase)) continue;
      for (const found of question.matchAll(termPattern(phrase.toLowerCase()))) {
        spans.push({ start: found.index, end: found.index + found[0].length });
      }
    }
  }
  return spans;
}

/** Non-overlapping dictionary matches in `question`, longest terms first, none inside statute wording. */
function dictionaryMatches(question: string, entries: DictionaryEntry[]): Match[] {
  const protectedSpans = statuteSpans(question, entries);
  const insideStatuteWording = (match: Match) =>
    protectedSpans.some(
      (span) =>
        match.start < span.end &&
        match.end > span.start &&
        !(match.start <= span.start && match.end >= span.end),
    );
  const candidates: Match[] = [];
  for (const entry of entries) {
    for (const term of entry.terms) {
      for (const found of question.matchAll(termPattern(term))) {
        const clitic = found[0].length - term.length;
        candidates.push({ start: found.index, end: found.index + found[0].length, entry, clitic });
      }
    }
  }
  candidates.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const chosen: Match[] = [];
  for (const candidate of candidates) {
    if (insideStatuteWording(candidate)) continue;
    if (chosen.every((taken) => candidate.end <= taken.start || candidate.start >= taken.end))
      chosen.push(candidate);
  }
  return chosen.sort((a, b) => a.start - b.start);
}

function phrasesOf(entry: DictionaryEntry): string[] {
  return typeof entry.expansion === 'string' ? [entry.expansion] : entry.expansion;
}

function unique(values: string[]): string[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = value.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** An abbreviation as written: one word in capitals ("PNBP", "APBN-P"); the documents use it too. */
const isAbbreviation = (text: string) => /^[\p{Lu}\p{N}/-]{2,8}$/u.test(text) && /\p{Lu}{2}/u.test(text);

/**
 * The question with its dictionary terms replaced by the documents' wording. An abbreviation is kept
 * beside its expansion, since the statutes define and then use it ("yang selanjutnya disingkat PNBP").
 */
function substitute(question: string, matches: Match[]): string {
  let out = '';
  let at = 0;
  for (const match of matches) {
    const written = question.slice(match.start, match.end);
    const expansion = phrasesOf(match.entry).join(' ');
    out +=
      question.slice(at, match.start) + (isAbbreviation(written) ? `${written} ${expansion}` : expansion);
    at = match.end;
  }
  return out + question.slice(at);
}

/**
 * The question with the clitics cut off the dictionary terms that carry one ("spionnya copot" →
 * "spion copot"): the dictionary vouches that what is left is a word, which a bare suffix rule
 * cannot ("sekolah" is not "seko" + "-lah"), so every retrieval arm sees the word the documents use.
 */
function withoutClitics(question: string, matches: Match[]): string {
  let out = '';
  let at = 0;
  for (const match of matches) {
    if (match.clitic === 0) continue;
    out += question.slice(at, match.end - match.clitic);
    at = match.end;
  }
  return out + question.slice(at);
}

/**
 * The query variants for `question` and the hints found on the way: the original; a legal-language
 * rewrite when a dictionary term or pattern rule matched; the statute phrases alone (weight `phrases`);
 * and for a budget comparison of two or more years, one variant per year.
 */
export function rewriteQueryDetailed(asked: string, options: RewriteOptions): RewriteResult {
  const weights = rewriteWeights(options.profile, options.weights);
  const hints: RewriteHints = { fiscal_years: [], kinds: [] };
  const groups = rewriteGroupsNamed(ruleGroups(options.profile, options.glossary));
  // The question's own language decides whether it is translated first (the glossary) and whether
  // its everyday Indonesian spellings are written out.
  const language = detectLanguage(asked) ?? options.language;
  const original = language === 'id' ? normalizeSpelling(asked) : asked;
  const variants: QueryVariant[] = [{ text: original, weight: weights.original, kind: 'original' }];
  let question = original;
  let translated = false;
  if (language !== options.language) {
    const translation = translate(original, translationEntries(options.glossary, language), language);
    if (translation === undefined) return { variants, hints, weights };
    variants.push({ text: translation, weight: weights.legal, kind: 'translated' });
    question = translation;
    translated = true;
  }

  const entries = (options.dictionaries ?? [options.glossary?.dictionary ?? []]).flat();
  const matches = dictionaryMatches(question, entries);
  const kinds = questionKinds(question);
  const rules = groups.flatMap((group) =>
    group.rules.filter((rule) =>
      rule.opening ? opensWithKind(question, rule.kind) : kinds.includes(rule.kind),
    ),
  );
  hints.kinds = [...new Set(rules.map((rule) => rule.kind))];
  const dictionaryPhrases = unique(matches.flatMap((match) => phrasesOf(match.entry)));
  const rulePhrases = unique(rules.flatMap((rule) => rule.add)).filter(
    (phrase) => !dictionaryPhrases.some((taken) => taken.toLowerCase() === phrase.toLowerCase()),
  );

  if (!translated) variants[0]!.text = withoutClitics(question, matches);
  const legal = matches.length > 0 ? substitute(question, matches) : undefined;
  // A translation already in the documents' words is not searched twice.
  const repeatsTranslation = translated && legal?.toLowerCase() === question.toLowerCase();
  if (legal !== undefined && !repeatsTranslation) {
    variants.push({ text: legal, weight: weights.legal, kind: 'legal' });
  }
  // The statute phrases alone, when they say more than the legal variant: a single dictionary phrase and no
  // rule would only repeat it (and outweigh a short follow-up's context).
  const phrases = [...dictionaryPhrases, ...rulePhrases];
  if (phrases.length > 1 || rulePhrases.length > 0) {
    variants.push({ text: phrases.join(' '), weight: weights.phrases, kind: 'phrases' });
  }

  if (groups.some((group) => group.fiscalYears)) {
    const years = yearsIn(question);
    hints.fiscal_years = years;
    if (years.length === 1) hints.fiscal_year = years[0]!;
    if (years.length >= 2 && isQuestionKind(question, 'comparison')) {
      const base = substitute(question, matches);
      for (const year of years) {
        const others = years.filter((other) => other !== year);
        let text = base;
        for (const other of others) text = text.replace(new RegExp(`(?<!\\d)${other}(?!\\d)`, 'g'), ' ');
        text = `${text.replace(/\s+/g, ' ').trim()} Tahun Anggaran ${year}`;
        variants.push({ text, weight: weights.legal, kind: `year:${year}` });
      }
    }
  }
  return { variants, hints, weights };
}

/**
 * `question` in the documents' language through the translation `entries` of the collection's glossary: each
 * term replaced by the documents' wording, the other words kept unless they are stopwords of the
 * question's language (`from`); undefined when no term of the glossary occurs.
 */
export function translate(
  question: string,
  entries: DictionaryEntry[],
  from: 'id' | 'en',
): string | undefined {
  const matches = dictionaryMatches(question, entries);
  if (matches.length === 0) return undefined;
  const parts: string[] = [];
  let at = 0;
  for (const match of matches) {
    parts.push(withoutStopwords(question.slice(at, match.start), from), phrasesOf(match.entry).join(' '));
    at = match.end;
  }
  parts.push(withoutStopwords(question.slice(at), from));
  return parts.filter((part) => part.length > 0).join(' ');
}

/** The query variants for `question` (see `rewriteQueryDetailed`). */
export function rewriteQuery(question: string, options: RewriteOptions): QueryVariant[] {
  return rewriteQueryDetailed(question, options).variants;
}
