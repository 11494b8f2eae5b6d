/**
 * Relevance (`lexical-v4`): how well a claim's evidence answers the question, separate from whether
 * the quote is authentic (hashes, proofs) or supported (the claim follows from its spans). See
 * docs/certificate.md, "Three results".
 *
 * The question's wordings — as asked, and the rewrites that put everyday words into the statute's
 * terms or the collection's language — are reduced to lexemes under the collection's text-search
 * configuration and weighted by their idf in the collection, so a distinctive word ("isyarat",
 * "konsentrasi", "thunk") counts for more than a common one ("lalu lintas", "redux"). A claim's
 * coverage is the weighted share of a wording's lexemes its evidence contains (spans and the
 * citation's headings), the best over the wordings. Words the collection never uses do not count:
 * they are everyday words the rewrite already mapped, or words nothing could answer anyway.
 *
 * The intent then asks for the right kind of statement: a sanction question for a penalty, a figure
 * question for an amount, an age question for a number of years, a definition for a defining
 * sentence. Evidence of the wrong kind keeps only part of its score; evidence of the right kind
 * covers the words that only name that kind ("ancaman hukumannya", "umur minimal", "dendanya"): a
 * penalty answers "what is the punishment" without repeating the word "hukuman".
 */
import type { Collection } from '../collections.js';
import type { Queryable } from '../db/database.js';
import { REWRITE_PHRASES } from '../packs/registry.js';
import { type LexemeStatistic, lexemeStatistics, lexemesOf } from '../retrieve/lexemes.js';
import { foldText, isStopword } from './stem.js';
import type { QuestionPlan } from './understand.js';

export const RELEVANCE_METHOD = 'lexical-v4';
/** Below this a claim is not an answer to the question (render reason NOT_RELEVANT). */
export const RELEVANCE_THRESHOLD = 0.3;
/** Evidence of the wrong kind for the question's intent keeps this share of its coverage… */
const WRONG_KIND = 0.6;
/**
 * …and only this share when the question asks for a figure or an age: a fine is no answer to "how
 * much does a licence cost", a validity period none to "how old must I be".
 */
const WRONG_FIGURE = 0.35;

/** One wording of the question as weighted lexemes. */
interface Wording {
  lexemes: LexemeStatistic[];
  total: number;
}

export interface QuestionTerms {
  wordings: Wording[];
  /**
   * The lexemes of the words that name the kind of statement the question's intent asks for (a
   * penalty, an age, an amount, a definition): evidence of that kind covers them.
   */
  asked?: ReadonlySet<string>;
}

/**
 * Words that name the kind of answer an intent asks for, in both languages. They are stemmed with the
 * collection's configuration, so inflected forms ("dendanya", "dihukum") meet the same lexeme.
 */
const KIND_WORDS: Partial<Record<string, string>> = {
  sanction: `ancaman diancam hukuman dihukum hukumannya denda didenda dendanya sanksi sanksinya pidana
    dipidana pidananya penjara dipenjara kurungan tilang ditilang fine fined fines penalty penalties
    punishment punished sanction sanctions jail prison imprisonment`,
  age: 'umur usia berumur berusia minimal minimum tua age aged old',
  duration: 'lama durasi jangka waktu duration long',
  figure: 'jumlah total nilai besaran besarnya angka amount figure',
  comparison: `jumlah total nilai besaran besarnya angka amount figure selisih beda bedanya perbedaan
    bandingkan dibandingkan perbandingan naik turun kenaikan penurunan compare comparison difference
    increase decrease tinggi rendah besar kecil kuat lemah higher lower larger smaller stronger weaker`,
  definition: 'arti artinya pengertian definisi maksud dimaksud meaning definition defined',
};

/** The kind words of the question's intent, or undefined when its intent asks for no kind. */
export function kindWords(plan: Pick<QuestionPlan, 'intent' | 'requirement'>): string | undefined {
  if (plan.intent === 'requirement') return plan.requirement ? KIND_WORDS[plan.requirement] : undefined;
  return KIND_WORDS[plan.intent];
}

/**
 * Words that ask rather than say what the question is about: everyday question and filler words
 * (function words are the stemmer's stopwords), and years, which the fiscal-year filter of retrieval
 * already holds to.
 */
const ASKING = new Set(
  `berapa brp gimana gmn kayak kalau kalo sih dong deh kah nya aja kena bisa boleh nggak gak enggak ga
  tolong mohon jelaskan sebutkan jadi terus trus emang memang kira kira2 dianggarkan ditetapkan
  please tell explain exactly even really actually`.split(/\s+/),
);

/**
 * The statute wording the rewrite's pattern rules add for a kind of question ("dilarang", "wajib",
 * "denda paling banyak", "persyaratan"): it finds provisions of that kind, and every provision of the
 * kind contains it, so it says nothing about what the question is about.
 */
const KIND_PHRASES = new RegExp(
  `(?<![\\p{L}])(?:${[...REWRITE_PHRASES]
    .sort((a, b) => b.length - a.length)
    .map((phrase) => phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|')})(?![\\p{L}])`,
  'giu',
);

/** The words of a wording that say what it is about, for the lexical analysis. */
export function distinctiveText(text: string): string {
  return (foldText(text.replace(KIND_PHRASES, ' ')).match(/\p{L}+|\p{N}+/gu) ?? [])
    .filter(
      (word) =>
        !ASKING.has(word) &&
        !isStopword(word, 'id') &&
        !isStopword(word, 'en') &&
        !/^(?:19|20)\d\d$/.test(word),
    )
    .join(' ');
}

/** The weighted lexemes of each wording of the question (wordings without a known lexeme are dropped). */
export async function questionTerms(
  db: Queryable,
  collection: Pick<Collection, 'id' | 'text_search_config'>,
  wordings: readonly string[],
  plan?: Pick<QuestionPlan, 'intent' | 'requirement'>,
): Promise<QuestionTerms> {
  const kind = plan ? kindWords(plan) : undefined;
  const texts = wordings.map(distinctiveText);
  const lists = await lexemesOf(db, collection, kind ? [...texts, kind] : texts);
  const asked = kind ? new Set(lists.pop()) : undefined;
  const all = [...new Set(lists.flat())];
  const { statistics } = await lexemeStatistics(db, collection, all);
  const result: Wording[] = [];
  for (const list of lists) {
    const lexemes = list.map((lexeme) => statistics.get(lexeme)!).filter((item) => item.df > 0);
    const total = lexemes.reduce((sum, item) => sum + weightOf(item), 0);
    if (total > 0) result.push({ lexemes, total });
  }
  return asked ? { wordings: result, asked } : { wordings: result };
}

/**
 * A lexeme's weight: its idf plus one, so a word found in every chunk of a small collection (a single
 * uploaded document) still counts, while a rare word still counts for more.
 */
function weightOf(item: LexemeStatistic): number {
  return item.idf + 1;
}

/** The best weighted share of a wording's lexemes found in `evidence` (a set of lexemes). */
export function coverage(terms: QuestionTerms, evidence: ReadonlySet<string>): number {
  let best = 0;
  for (const wording of terms.wordings) {
    let matched = 0;
    for (const item of wording.lexemes) if (evidence.has(item.lexeme)) matched += weightOf(item);
    best = Math.max(best, matched / wording.total);
  }
  return best;
}

/**
 * The weighted share of all the wordings' lexemes together that `evidence` contains: finer than
 * {@link coverage} for ranking candidates that each fully cover a short wording.
 */
export function breadth(terms: QuestionTerms, evidence: ReadonlySet<string>): number {
  const weights = new Map<string, number>();
  for (const wording of terms.wordings)
    for (const item of wording.lexemes) weights.set(item.lexeme, weightOf(item));
  let total = 0;
  let matched = 0;
  for (const [lexeme, weight] of weights) {
    total += weight;
    if (evidence.has(lexeme)) matched += weight;
  }
  return total === 0 ? 0 : matched / total;
}

const PENALTY = /\b(?:dipidana|pidana|denda|sanksi administratif|fined?|penalty|imprisonment)\b/iu;
const AMOUNT =
  /(?:Rp\.?\s?|\$|€|USD\s?|IDR\s?)\d|\d{1,3}(?:[.,]\d{3})+|\d\s*(?:%|persen\b|percent\b|ribu\b|juta\b|miliar\b|triliun\b|million\b|billion\b|trillion\b)/iu;
/** A calendar date: "1 Januari", "31 December". */
const DATE =
  /\b\d{1,2}\s+(?:Januari|Februari|Maret|April|Mei|Juni|Juli|Agustus|September|Oktober|November|Desember|January|February|March|May|June|July|August|October|December)\b/iu;
/** An age: a number of years said of a person ("usia 17 (tujuh belas) tahun", "18 years old"), not a period. */
const YEARS_OF_AGE =
  /(?:usia|umur|berusia|berumur|age[ds]?|aged)\s+(?:\S+\s+){0,3}?\d+\s*(?:\([^)]{1,40}\)\s*)?(?:tahun|years?)|\d+\s*years?\s+old/iu;
/** A length of time: "5 (lima) tahun", "8 (delapan) jam", "30 days". */
const DURATION =
  /\d+\s*(?:\([^)]{1,40}\)\s*)?(?:tahun|bulan|minggu|hari|jam|menit|years?|months?|weeks?|days?|hours?|minutes?)\b/iu;
const DEFINING =
  /\b(?:adalah|ialah|merupakan|yaitu|yakni|yang dimaksud dengan)\b|\b(?:is|are|means|refers to|describes)\b/iu;

/** Whether `text` is the kind of statement the question's intent asks for. */
export function answersIntent(plan: Pick<QuestionPlan, 'intent' | 'requirement'>, text: string): boolean {
  switch (plan.intent) {
    case 'sanction':
      return PENALTY.test(text);
    case 'figure':
    case 'comparison':
      // A fine is not the figure a non-sanction question asks for (a fee, an allocation, a count).
      return (AMOUNT.test(text) || DATE.test(text)) && !PENALTY.test(text);
    case 'requirement':
      if (plan.requirement === 'age') return YEARS_OF_AGE.test(text);
      return plan.requirement === 'duration' ? DURATION.test(text) : true;
    case 'definition':
      return DEFINING.test(text);
    default:
      return true;
  }
}

export interface RelevanceResult {
  score: number;
  method: typeof RELEVANCE_METHOD;
  threshold: number;
}

function union(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> {
  const out = new Set(a);
  for (const item of b) out.add(item);
  return out;
}

/** Rounds to three decimals, as certificates carry scores. */
function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/**
 * Relevance of evidence to the question: coverage of the question's distinctive words by the
 * evidence's lexemes, reduced when the evidence is not the kind of statement the intent asks for.
 */
export function relevanceOf(
  plan: Pick<QuestionPlan, 'intent' | 'requirement'>,
  terms: QuestionTerms,
  evidenceLexemes: ReadonlySet<string>,
  evidenceText: string,
): RelevanceResult {
  const kind = answersIntent(plan, evidenceText);
  const share = coverage(terms, kind && terms.asked ? union(evidenceLexemes, terms.asked) : evidenceLexemes);
  const exact =
    plan.intent === 'figure' ||
    plan.intent === 'comparison' ||
    (plan.intent === 'requirement' && plan.requirement === 'age');
  const score = kind ? share : share * (exact ? WRONG_FIGURE : WRONG_KIND);
  return { score: round(score), method: RELEVANCE_METHOD, threshold: RELEVANCE_THRESHOLD };
}
