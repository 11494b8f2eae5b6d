/**
 * The offline answer generator (docs/engine.md, "Answering and certificates"; `generator.kind =
 * "extractive"`): the best sentences of the retrieved chunks, each quoted exactly and followed by its
 * citation `[n]`, or an explicit "not found" when the evidence is weak. It never writes a word of its own, so
 * every claim is its own evidence span plus a citation marker.
 *
 * Scoring: each sentence of each source gets the share of the question's stemmed content words it
 * contains, weighted by how rare each word is among the candidate sentences (so "isyarat" counts
 * for more than "denda" when every ayat mentions a fine) — a word only its context has (its section's
 * heading, the statement before it) counting {@link CONTEXT_WEIGHT} of one — plus a small boost by
 * source rank and, for "berapa"/"how much" questions, for containing a figure. The best sentence must
 * contain one question word itself and match at least
 * {@link MIN_MATCHED_WORDS} content words (or all of a shorter question's) and
 * {@link MIN_MATCHED_SHARE} of them; further sentences must score at least {@link RELATIVE_SCORE} of
 * the best and not repeat one already chosen.
 */
import { questionPieces } from '../language/question-kinds.js';
import { antecedentOf, explanationBeside, fixAfter, isCodeLike } from './context.js';
import { type Sentence, splitSentences } from './sentences.js';
import { contentWords, type Language } from './stem.js';

/** A retrieved chunk, as retrieval hands it to a generator. */
export interface AnswerSource {
  chunk_id: string;
  document_id: string;
  /** The exact chunk text (NFC, LF), as stored and hashed. */
  text: string;
  score: number;
  citation: {
    document_title: string;
    page?: number;
    section_path?: string[];
    pasal?: string;
    ayat?: string;
  };
}

export interface ExtractiveClaim {
  /** The claim as it appears in the answer: the span text, a space and `[n]`. */
  text: string;
  /** Index into the `sources` given to {@link extractiveAnswer}. */
  source_index: number;
  /** `text === sources[source_index].text.slice(start, end)`; offsets in UTF-16 code units. */
  span: { text: string; start: number; end: number };
}

export interface ExtractiveAnswer {
  found: boolean;
  /** The claims joined by single spaces, or the not-found sentence. */
  text: string;
  claims: ExtractiveClaim[];
}

export interface ExtractiveOptions {
  language: Language;
  /** At most this many sentences (default 3). */
  maxSentences?: number;
  /** Sources scoring below this are not used. */
  minScore?: number;
  /** Other wordings of the question (its rewrites); a sentence scores by the wording it answers best. */
  variants?: string[];
  /**
   * Sentences that follow the chosen ones whatever their score (selection mode: the text after the
   * selected passage, which is where an explanation or an example usually is). Offsets into the source.
   */
  continuation?: { sourceIndex: number; start: number; end: number; text: string }[];
  /**
   * Whether a sentence is the kind of statement the question asks for (a penalty for a sanction
   * question, an amount for a figure question): such sentences score {@link INTENT_BOOST} more.
   */
  answersIntent?: (text: string) => boolean;
  /**
   * The intent asks for a kind of statement (an age, a penalty, an amount): a sentence of that kind
   * already answers the words asking for it ("umur minimal" by "usia … paling rendah … 17 tahun"), so
   * it needs only {@link KIND_SHARE} of the matched share others need.
   */
  kindAsked?: boolean;
}

/** What the answer says when the documents do not answer the question. */
export const NOT_FOUND_TEXT: Readonly<Record<Language, string>> = {
  id: 'Tidak ditemukan di dokumen.',
  en: 'Not found in the documents.',
};

export const DEFAULT_MAX_SENTENCES = 2;
/** The best sentence must contain at least this many of the question's content words… */
export const MIN_MATCHED_WORDS = 2;
/** …and at least this share of them. */
export const MIN_MATCHED_SHARE = 0.3;
/** The share of {@link MIN_MATCHED_SHARE} a sentence of the asked kind needs. */
const KIND_SHARE = 0.7;
/** Further sentences must score at least this fraction of the best one. */
export const RELATIVE_SCORE = 0.75;
/** Two sentences whose stem sets overlap this much (Jaccard) are the same sentence. */
const NEAR_DUPLICATE = 0.9;
const RANK_BOOST = 0.05;
/**
 * A question word a sentence lacks but its context has (its section's heading, the statement before
 * it) counts this much of one it contains: an answer seldom repeats the words its heading or the
 * sentence before it already said ("createApi also accepts a reducerPath field, which …" under
 * "Which options …"). The sentence must still contain one question word itself.
 */
const CONTEXT_WEIGHT = 0.5;
/** Sentences of the best one's paragraph quoted after it, outside a statute. */
export const FOLLOWING = 1;
/** Added to a sentence of the kind the question's intent asks for. */
export const INTENT_BOOST = 0.25;
const FIGURE_BOOST = 0.1;
/** The first statements of a section, which answer its heading… */
const HEADING_LEAD = 2;
/** …gain this much times the share of the question's words the heading has. */
const HEADING_BOOST = 0.3;
/** Added to a sentence that names a defined term of the question exactly (definedTerms). */
const TERM_BOOST = 0.1;
/** Bounds on the work done for one question. */
const MAX_SOURCES = 20;
const MAX_SENTENCE_LENGTH = 2000;
const FIGURE_QUESTION =
  /(?:^|[^\p{L}])(?:berapa\p{L}*|jumlah\p{L}*|besar(?:an|nya)|nilai\p{L}*|how\s+(?:much|many)|amount|total)(?:[^\p{L}]|$)/iu;
/** An amount rather than a mere number (an ayat or Pasal number): currency, grouped digits, scale, percent. */
const AMOUNT =
  /(?:Rp\.?\s?|\$|€|USD\s?|IDR\s?)\d|\d{1,3}(?:[.,]\d{3})+|\d\s*(?:%|persen\b|percent\b|ribu\b|juta\b|miliar\b|milyar\b|triliun\b|thousand\b|million\b|billion\b|trillion\b)/i;
/** Headings, fences, admonitions and HTML lines: structure, not statements. */
const NOT_A_STATEMENT =
  /^(?:#{1,6}\s|```|~~~|:::|<\/?[A-Za-z]|BAB\s+[IVXLCDM]+\b|Bagian\s+Ke[a-z]+\b|Paragraf\s+\d+\b|Pasal\s+\S+$)/;

/**
 * A sentence that can be a claim: not a heading, fence, label, flattened table, overlong run, a
 * question (a FAQ's question echoes the reader's), or text with OCR noise.
 */
export function isStatement(text: string): boolean {
  return (
    text.length <= MAX_SENTENCE_LENGTH &&
    !NOT_A_STATEMENT.test(text) &&
    !isBareHeading(text) &&
    !isTableRun(text) &&
    // A question — also one quoted at the end of a sentence ("you might be wondering, "Do I…?"").
    !/\?["”'’)\]]*\s*$/.test(text) &&
    !hasOcrNoise(text)
  );
}

/**
 * A table row read with its header row says something even when short ("createSlice | yes | no"):
 * words in two of its cells, no question, no OCR noise, not a row of figures.
 */
function isRowStatement(text: string): boolean {
  const worded = text.split(' | ').filter((cell) => /\p{L}{2,}/u.test(cell)).length;
  return (
    worded >= 2 &&
    text.length <= MAX_SENTENCE_LENGTH &&
    !isTableRun(text) &&
    !/\?["”'’)\]]*\s*$/.test(text) &&
    !hasOcrNoise(text)
  );
}

/**
 * OCR noise and flattened tables: letters inside digit groups ("2Ol8", "Rp7O.OOO", "-6.0s0.000.000"),
 * a run of bare numbers with no words between them, three or more amounts or outline numbers
 * ("2.1.2.2") in one sentence. Such text is never quoted.
 */
export function hasOcrNoise(text: string): boolean {
  if (
    /(?<![\p{L}])\d+[OoIlSs]+\d|(?<![\p{L}\d])[OoIl]\d{2,}|\d[.,][OoIlSsCc]\d|\d{1,3}\.[OoIlSs]{3}\b|[.,]\d[a-z]\d/u.test(
      text,
    )
  )
    return true;
  if (/(?:\d[\d.,]*\s+){6,}\d/.test(text)) return true;
  // Split figures and OCR marks touching them: "20 1 7", "Rp764.925.064.77 1 .000,00", "^2O,Ooh",
  // "PRES I DEN". A caret between words ("^Belanja Negara") changes no word or figure and is quoted as
  // the document has it (docs/engine.md, "Answering").
  if (
    /\^\s?[\d(]|\d\s?\^|(?<!\d)(?:19|20)\s\d\s\d(?!\d)|\d\s+\.\d{3}|\d\.\d{1,2}\s\d\b|\d[.,]\d{1,2}\s\d{1,3}[.,]\d|\b[A-Z]{3,5}\s[A-Z]\s[A-Z]{2,}\b/.test(
      text,
    )
  )
    return true;
  // A flattened budget table: several amounts, or outline numbers ("2.1.2.2"), in one "sentence".
  const amounts = text.match(/(?<![\d.,])-?\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?(?![\d.,])/g)?.length ?? 0;
  return amounts >= 3 || /(?<![\d.])\d{1,2}(?:\.\d{1,2}){2,}(?![\d.])/.test(text);
}

/** An item of a list in a statute or a document: "a. …", "a) …", "1. …", "1) …", "(1) …", "(a) …", "- …". */
const LIST_ITEM = /^(?:[a-z][.)]|\d{1,3}[.)]|\((?:\d{1,3}|[a-z])\)|[-*•+]) /;

/** A row of a table as extraction writes it, its cells joined by " | ". */
const TABLE_ROW = /\S \| \S/;

/**
 * A span ending with ":" announces a list or a code block: the span is extended over the items (or
 * the block) that follow it in the same source. `undefined` when nothing follows: a list introduction
 * is never quoted without its items.
 */
export function completeSpan(
  source: string,
  span: { start: number; end: number; text: string },
): { start: number; end: number; text: string } | undefined {
  if (!/:\s*$/.test(span.text)) return span;
  const rest = source.slice(span.end);
  const lines = rest.split('\n');
  let consumed = 0;
  let items = 0;
  let index = 0;
  // Skip the remainder of the current line and blank lines.
  while (index < lines.length && lines[index]!.trim() === '') {
    consumed += lines[index]!.length + 1;
    index++;
  }
  if (index < lines.length && /^\s*(?:```|~~~)/.test(lines[index]!)) {
    const fence = lines[index]!.trim().slice(0, 3);
    let end = index + 1;
    while (end < lines.length && !lines[end]!.trim().startsWith(fence)) end++;
    if (end >= lines.length) return undefined;
    consumed += lines.slice(index, end + 1).reduce((sum, line) => sum + line.length + 1, 0) - 1;
    items = 1;
  } else {
    while (index < lines.length && LIST_ITEM.test(lines[index]!.trim())) {
      consumed += lines[index]!.length + 1;
      items++;
      index++;
      // An item's text wrapped onto indented lines is the item's still.
      while (index < lines.length && /^\s+\S/.test(lines[index]!) && !LIST_ITEM.test(lines[index]!.trim())) {
        consumed += lines[index]!.length + 1;
        index++;
      }
      // A loose list: blank lines between its items.
      let blank = index;
      while (blank < lines.length && lines[blank]!.trim() === '') blank++;
      if (blank > index && blank < lines.length && LIST_ITEM.test(lines[blank]!.trim())) {
        consumed += lines.slice(index, blank).reduce((sum, line) => sum + line.length + 1, 0);
        index = blank;
      }
    }
    consumed -= 1;
  }
  if (items === 0) return undefined;
  const end = span.end + consumed;
  const text = source.slice(span.start, end).replace(/\s+$/, '');
  return { start: span.start, end: span.start + text.length, text };
}

/**
 * The statements that follow `span` in its paragraph of `text` (no blank line between), at most
 * `max`, stopping after one that introduces a list or code block: what completes a definition or a
 * rule outside a statute. Empty after a span that itself introduces a list.
 */
export function paragraphFollowing(
  text: string,
  span: { start: number; end: number; text: string },
  max = FOLLOWING,
): { start: number; end: number; text: string }[] {
  const found: { start: number; end: number; text: string }[] = [];
  if (/:\s*$/.test(span.text)) return found;
  let end = span.end;
  for (const sentence of splitSentences(text)) {
    if (found.length >= max) break;
    if (sentence.start < end) continue;
    const gap = text.slice(end, sentence.start);
    if (
      gap.length > 2 ||
      /\n\s*\n/.test(gap) ||
      !isStatement(sentence.text) ||
      LIST_ITEM.test(sentence.text) ||
      TABLE_ROW.test(sentence.text)
    )
      break;
    found.push(sentence);
    end = sentence.end;
    if (/:\s*$/.test(sentence.text)) break;
  }
  return found;
}

/**
 * A flattened table or a run of headings in capitals ("POSTUR APBN TAHUN ANGGARAN 2018 A. PENDAPATAN
 * NEGARA I. …", rows of figures): mostly numbers, or mostly words in capitals that say nothing one
 * can quote. Not a statement. Capitals alone are no reason: a regulation's title ("PERATURAN MENTERI
 * KEUANGAN NOMOR 186/PMK.07/2011 TENTANG …") or one line in capitals with its one figure ("DANA
 * ALOKASI UMUM SEBESAR Rp401.129.780.828.000,00") is a statement; capitals with outline markers
 * between them ("A. …", "I. …", "1. …"), several figures, or no figure and no title are not.
 */
function isTableRun(text: string): boolean {
  const tokens = text.match(/[\p{L}\p{N}][\p{L}\p{N}.,]*/gu) ?? [];
  if (tokens.length < 4) return false;
  const numbers = tokens.filter((token) => /^\d[\d.,]*$/.test(token)).length;
  if (numbers / tokens.length > 0.4) return true;
  const capitals = tokens.filter((token) => /^\p{Lu}{2,}[\p{Lu}.,]*$/u.test(token)).length;
  if (capitals / tokens.length <= 0.5) return false;
  const outline = text.match(/(?:^|\s)(?:[A-Z]|[IVXL]{1,4}|\d{1,2})\.(?=\s)/g)?.length ?? 0;
  if (outline >= 2) return true;
  // Grouped amounts and percentages, each counted once ("Rp401.129.780.828.000,00" is one).
  const figures =
    text.match(/(?<![\d.,])\d{1,3}(?:[.,]\d{3})+(?:,\d+)?(?![\d.,]?\d)|\d+(?:,\d+)?\s*(?:%|persen\b)/gi)
      ?.length ?? 0;
  const title = /\bNOMOR\b/.test(text) && /\bTENTANG\b/.test(text);
  return !(figures === 1 || (figures === 0 && title));
}

/** Short lines without sentence punctuation: headings and labels kept in chunk text, not claims. */
function isBareHeading(text: string): boolean {
  const words = text.trim().split(/\s+/).length;
  return words < 3 || (words < 9 && !/[.!?;:)]$/.test(text.trim()));
}

interface Candidate {
  sourceIndex: number;
  rank: number;
  sentence: Sentence;
  /**
   * The introduction of the list this sentence is an item of ("Syarat usia … sebagai berikut:"), or
   * the header row of the table it is a row of: the item is read with it, and quoted after it, since
   * an item alone does not say what it lists.
   */
  intro?: Sentence;
  stems: Set<string>;
  /** The sentence's own stems, without its list introduction's: what tells two items apart. */
  own: Set<string>;
  /** Stems of what the sentence is read in: its section's heading and the statement before it. */
  context: Set<string>;
  hasFigure: boolean;
  /** Statements of its source before this one: the first ones answer the source's heading. */
  order: number;
  score: number;
}

/** Composes a cited extractive answer to `question` from `sources` (ranked best first). */
export function extractiveAnswer(
  question: string,
  sources: readonly AnswerSource[],
  options: ExtractiveOptions,
): ExtractiveAnswer {
  const language = options.language;
  const maxSentences = Math.max(1, Math.floor(options.maxSentences ?? DEFAULT_MAX_SENTENCES));
  const notFound: ExtractiveAnswer = { found: false, text: NOT_FOUND_TEXT[language], claims: [] };
  // The question and each rewrite of it are scored on their own: a sentence that answers the legal
  // wording of the question is as good as one that answers its everyday wording.
  const texts = [question, ...(options.variants ?? [])];
  const stemLists = texts
    .map((text) => [...new Set(contentWords(text, language))])
    .filter((stems) => stems.length > 0);
  if (stemLists.length === 0) return notFound;

  const candidates = collectCandidates(sources, options, ASKS_FOR_CODE.test(question));
  if (candidates.length === 0) return notFound;

  const wantsFigure = FIGURE_QUESTION.test(question);
  const terms = definedTerms(texts);
  const usedSources = new Set(candidates.map((candidate) => candidate.rank)).size;
  const scorers = stemLists.map((questionStems) => {
    // Rarer question words weigh more (idf over the candidate sentences).
    const weights = new Map<string, number>();
    for (const stem of questionStems) {
      let df = 0;
      for (const candidate of candidates) if (candidate.stems.has(stem)) df++;
      weights.set(stem, 1 + Math.log((candidates.length + 1) / (df + 1)));
    }
    const totalWeight = questionStems.reduce((sum, stem) => sum + weights.get(stem)!, 0);
    const requiredMatches = Math.min(MIN_MATCHED_WORDS, questionStems.length);
    return (candidate: Candidate, floor: number): number | null => {
      const matched = questionStems.filter((stem) => candidate.stems.has(stem));
      if (matched.length === 0) return null;
      const around = questionStems.filter(
        (stem) => !candidate.stems.has(stem) && candidate.context.has(stem),
      );
      const count = matched.length + CONTEXT_WEIGHT * around.length;
      if (count < requiredMatches || count / questionStems.length < floor) return null;
      const weight = (stems: string[]) => stems.reduce((sum, stem) => sum + weights.get(stem)!, 0);
      const relevance = (weight(matched) + CONTEXT_WEIGHT * weight(around)) / totalWeight;
      return relevance < floor ? null : relevance;
    };
  });

  // A section whose heading asks what the question asks ("Can I put functions, promises, or other
  // non-serializable items in my store state?") is answered by its first statements.
  const headingShares = sources.map((source) => {
    const heading = source.citation.section_path?.at(-1);
    if (!heading || source.citation.pasal) return 0;
    const stems = new Set(contentWords(heading, language));
    return Math.max(...stemLists.map((list) => list.filter((stem) => stems.has(stem)).length / list.length));
  });
  const eligible: Candidate[] = [];
  for (const candidate of candidates) {
    const ofKind = options.answersIntent?.(candidate.sentence.text) ?? false;
    const floor = MIN_MATCHED_SHARE * (options.kindAsked && ofKind ? KIND_SHARE : 1);
    let relevance: number | null = null;
    for (const score of scorers) {
      const value = score(candidate, floor);
      if (value !== null && (relevance === null || value > relevance)) relevance = value;
    }
    if (relevance === null) continue;
    candidate.score =
      relevance * standsAlone(candidate.sentence.text) +
      RANK_BOOST * (1 - candidate.rank / usedSources) +
      (wantsFigure && candidate.hasFigure ? FIGURE_BOOST : 0) +
      (terms.some((term) => term.test(candidate.sentence.text)) ? TERM_BOOST : 0) +
      (ofKind ? INTENT_BOOST : 0) +
      (candidate.order < HEADING_LEAD ? HEADING_BOOST * headingShares[candidate.sourceIndex]! : 0);
    eligible.push(candidate);
  }
  if (eligible.length === 0) return notFound;
  eligible.sort((a, b) => b.score - a.score || a.rank - b.rank || a.sentence.start - b.sentence.start);

  const best = eligible[0]!.score;
  const chosen: Candidate[] = [];
  const continuation = (options.continuation ?? []).slice(0, maxSentences - 1);
  const ranked = Math.max(1, maxSentences - continuation.length);
  for (const candidate of eligible) {
    if (chosen.length >= ranked || candidate.score < RELATIVE_SCORE * best) break;
    if (chosen.some((other) => jaccard(other.own, candidate.own) >= NEAR_DUPLICATE)) continue;
    chosen.push(candidate);
  }
  // Outside a statute, the sentences that follow the best one in its paragraph usually complete it
  // (the definition's second half, the reason after the rule): they are quoted with it.
  const lead = chosen[0];
  if (lead && !sources[lead.sourceIndex]!.citation.pasal)
    for (const span of paragraphFollowing(sources[lead.sourceIndex]!.text, lead.sentence)) {
      const following = candidates.find(
        (candidate) => candidate.sourceIndex === lead.sourceIndex && candidate.sentence.start === span.start,
      );
      if (!following || chosen.some((other) => jaccard(other.own, following.own) >= NEAR_DUPLICATE)) break;
      if (!chosen.includes(following)) chosen.push(following);
    }
  // A question that asks several things ("wajib nyalain lampu? kalau nggak dendanya berapa?") gets a
  // sentence for each part the chosen ones leave open (language/question-kinds.ts); not a question
  // about a selected passage, whose parts the selection and the text after it answer.
  if (lead && continuation.length === 0)
    for (const added of partAnswers(question, candidates, chosen, usedSources, options)) chosen.push(added);
  for (const next of continuation) {
    const stems = new Set(contentWords(next.text, language));
    if (stems.size === 0 || chosen.some((other) => jaccard(other.own, stems) >= NEAR_DUPLICATE)) continue;
    if (chosen.some((other) => other.sourceIndex === next.sourceIndex && other.sentence.start === next.start))
      continue;
    chosen.push({
      sourceIndex: next.sourceIndex,
      rank: 0,
      sentence: { text: next.text, start: next.start, end: next.end },
      stems,
      own: stems,
      context: new Set(),
      hasFigure: false,
      order: 0,
      score: 0,
    });
  }

  // Sources in the order of their best sentence; document order within a source.
  const groups = new Map<number, Candidate[]>();
  for (const candidate of chosen) {
    const group = groups.get(candidate.sourceIndex);
    if (group) group.push(candidate);
    else groups.set(candidate.sourceIndex, [candidate]);
  }
  const claims: ExtractiveClaim[] = [];
  let citation = 0;
  for (const [sourceIndex, group] of groups) {
    group.sort((a, b) => a.sentence.start - b.sentence.start);
    const spans = group
      .flatMap(({ sentence, intro }) => {
        const span = completeSpan(sources[sourceIndex]!.text, sentence);
        // An item is quoted after its list's introduction (the introduction as written, not completed).
        return intro ? [{ start: intro.start, end: intro.end, text: intro.text }, span] : [span];
      })
      .filter((span) => span !== undefined)
      .filter((span, index, all) => !all.some((other, j) => j < index && other.start === span.start))
      // A completed list may already contain the next chosen sentence.
      .filter((span, index, all) => !all.some((other, j) => j < index && other.end >= span.end));
    if (spans.length === 0) continue;
    withContext(sources[sourceIndex]!.text, spans, lead && group.includes(lead) ? lead.sentence : undefined);
    citation++;
    for (const span of spans)
      claims.push({ text: `${span.text} [${citation}]`, source_index: sourceIndex, span });
  }
  if (claims.length === 0) return notFound;
  return { found: true, text: claims.map((claim) => claim.text).join(' '), claims };
}

/** A part is left open when no chosen sentence holds this share of its words (or reads them around it). */
const PART_COVERED = 0.5;
/** At most this many sentences are added for the parts of a question. */
const MAX_PART_SENTENCES = 2;

/**
 * Sentences for the parts of a multi-part question that `chosen` leaves open: for each, the candidate
 * holding most of the part's words (at least {@link MIN_MATCHED_SHARE} of them, and two when it has
 * two) that is also tied to the rest of the question by one of its words — a part like "dendanya
 * berapa?" is about the first part's subject, so a penalty for something else does not answer it.
 */
function partAnswers(
  question: string,
  candidates: readonly Candidate[],
  chosen: readonly Candidate[],
  usedSources: number,
  options: ExtractiveOptions,
): Candidate[] {
  const language = options.language;
  const parts = questionPieces(question);
  if (parts.length < 2) return [];
  const all = new Set(contentWords(question, language));
  const added: Candidate[] = [];
  for (const part of parts) {
    if (added.length >= MAX_PART_SENTENCES) break;
    const stems = [...new Set(contentWords(part, language))];
    if (stems.length === 0) continue;
    const taken = [...chosen, ...added];
    const holds = (candidate: Candidate) =>
      stems.filter((stem) => candidate.stems.has(stem) || candidate.context.has(stem)).length / stems.length;
    if (taken.some((candidate) => holds(candidate) >= PART_COVERED)) continue;
    const rest = [...all].filter((stem) => !stems.includes(stem));
    let best: Candidate | undefined;
    let bestScore = 0;
    for (const candidate of candidates) {
      const matched = stems.filter((stem) => candidate.stems.has(stem)).length;
      if (matched < Math.min(MIN_MATCHED_WORDS, stems.length) || matched / stems.length < MIN_MATCHED_SHARE)
        continue;
      const tied =
        rest.length === 0 || rest.some((stem) => candidate.stems.has(stem) || candidate.context.has(stem));
      if (!tied) continue;
      if (taken.some((other) => jaccard(other.own, candidate.own) >= NEAR_DUPLICATE)) continue;
      const ofKind = options.answersIntent?.(candidate.sentence.text) ?? false;
      const score =
        (matched / stems.length) * standsAlone(candidate.sentence.text) +
        RANK_BOOST * (1 - candidate.rank / usedSources) +
        (ofKind ? INTENT_BOOST : 0);
      if (score > bestScore) {
        best = candidate;
        bestScore = score;
      }
    }
    if (best) added.push(best);
  }
  return added;
}

/**
 * Adds to the spans of one source the context that makes them an answer (context.ts), in place and in
 * document order: the antecedent of a span that refers back, and after the best sentence (`lead`) the
 * instruction that follows the error it copies. Every piece is a span of the same source text.
 */
function withContext(
  text: string,
  spans: { start: number; end: number; text: string }[],
  lead: Sentence | undefined,
): void {
  const added: { start: number; end: number; text: string }[] = [];
  const covered = (piece: { start: number; end: number }) =>
    [...spans, ...added].some((span) => span.start <= piece.start && piece.end <= span.end);
  for (const span of spans) {
    const antecedent = antecedentOf(text, span, isStatement);
    // The sentence it refers to is already quoted: nothing to add.
    if (antecedent.length === 0 || covered(antecedent[antecedent.length - 1]!)) continue;
    for (const piece of antecedent) if (!covered(piece)) added.push(piece);
  }
  if (lead) {
    const last = spans.reduce((end, span) => Math.max(end, span.end), 0);
    const fix = fixAfter(text, spans.find((span) => span.start === lead.start) ?? lead, isStatement);
    // A fix already quoted (the sentence after the error in its paragraph) is not repeated.
    if (!fix.some((piece) => piece.end <= last && covered(piece)))
      for (const piece of fix) if (!covered(piece)) added.push(piece);
  }
  if (added.length === 0) return;
  spans.push(...added.map(({ start, end, text: piece }) => ({ start, end, text: piece })));
  spans.sort((a, b) => a.start - b.start);
}

/** A question that asks for code or an example: a line of code may answer it. */
const ASKS_FOR_CODE =
  /\b(?:code|snippet|example|examples|syntax|signature|implementation|contoh|kode|sintaks)\b/iu;

function collectCandidates(
  sources: readonly AnswerSource[],
  options: ExtractiveOptions,
  asksForCode: boolean,
): Candidate[] {
  const candidates: Candidate[] = [];
  let rank = 0;
  for (let sourceIndex = 0; sourceIndex < sources.length && rank < MAX_SOURCES; sourceIndex++) {
    const source = sources[sourceIndex]!;
    if (options.minScore !== undefined && !(source.score >= options.minScore)) continue;
    let intro: Sentence | undefined;
    let order = 0;
    // The first row of the table being read and its last row so far.
    let header: Sentence | undefined;
    let lastRow: Sentence | undefined;
    // What a statement is read in: its section's heading (not a statute's, whose headings are its
    // chapters) and the statement before it.
    const heading = source.citation.pasal
      ? []
      : contentWords(source.citation.section_path?.at(-1) ?? '', options.language);
    let previous: string[] = [];
    for (const sentence of splitSentences(source.text)) {
      // A list's items follow its introduction, line by line; anything else ends the list.
      const item = intro !== undefined && LIST_ITEM.test(sentence.text);
      if (!item) intro = /:\s*$/.test(sentence.text) ? sentence : undefined;
      // A table's row is read with its header row, and quoted after it: a row alone does not say
      // what its cells are.
      const row = TABLE_ROW.test(sentence.text) && !sentence.text.includes('\n');
      if (!row) header = undefined;
      else if (!header || !lastRow || source.text.slice(lastRow.end, sentence.start) !== '\n')
        header = sentence;
      lastRow = row ? sentence : undefined;
      const headed = row && header !== sentence ? header : undefined;
      // Headings carried into the chunk text ("Reducer", "First Attempt: Writing Actions"), fences and
      // flattened tables are no statements; nor is an item whose introduction, quoted before it, is
      // OCR noise ("… ^2Ol8 direncanakan sebesar RpL.a94,720… dari sumber:").
      const statement = isStatement(sentence.text) || (headed !== undefined && isRowStatement(sentence.text));
      if (!statement || (item && !isStatement(intro!.text))) continue;
      const stems = new Set(contentWords(sentence.text, options.language));
      if (stems.size === 0) continue;
      // A line of code is no answer unless code is asked for: the statement beside it, which says
      // what it does, is quoted for it (read with the code's words). Code that stands alone in its
      // chunk (a documentation page's example, stored apart from its prose) stays a candidate: its
      // comments often say what it shows, and dropping it leaves only a weaker sentence.
      let quoted = sentence;
      if (!asksForCode && isCodeLike(sentence.text))
        quoted = explanationBeside(source.text, sentence, isStatement) ?? sentence;
      const own = quoted === sentence ? new Set(stems) : new Set(contentWords(quoted.text, options.language));
      for (const stem of own) stems.add(stem);
      if (item) for (const stem of contentWords(intro!.text, options.language)) stems.add(stem);
      if (headed) for (const stem of contentWords(headed.text, options.language)) stems.add(stem);
      candidates.push({
        sourceIndex,
        rank,
        sentence: quoted,
        ...(item && quoted === sentence ? { intro: intro! } : {}),
        ...(headed && quoted === sentence ? { intro: headed } : {}),
        stems,
        own,
        context: new Set([...heading, ...previous]),
        hasFigure: AMOUNT.test(sentence.text),
        order: order++,
        score: 0,
      });
      previous = [...own];
    }
    rank++;
  }
  return candidates;
}

/**
 * How well a sentence reads on its own, as the answer: one that leans on what came before ("This
 * means…", "Also, since…", "Now that we have…") or narrates a tutorial ("we'll see", "our app") is
 * worth less than one that states its point.
 */
const LEANS_ON_CONTEXT =
  /^(?:this|that|these|those|it|they|so|also|but|and|then|now|here|there|however|instead|otherwise|even though|in the case of|as (?:we|you)|by now|at this point|with that|once again|of course|remember)\b/iu;
const NARRATES = /\b(?:we(?:'ll|'re|'ve)?|let's|our|us)\b/iu;

export function standsAlone(text: string): number {
  let factor = 1;
  if (LEANS_ON_CONTEXT.test(text.trim())) factor *= 0.8;
  if (NARRATES.test(text)) factor *= 0.9;
  return factor;
}

/** A run of two or more capitalized words, the last possibly a class letter or numeral ("… Mengemudi B II"). */
const CAPITALIZED_RUN = /\p{Lu}\p{Ll}+(?:\s+\p{Lu}\p{Ll}+)+(?:\s+(?:[A-Z]|[IVX]{1,3})(?![\p{L}\p{N}]))*/gu;

/**
 * The terms a statute defines and capitalizes that the question's wordings name ("Surat Izin
 * Mengemudi A", "Kendaraan Bermotor Umum"), each as a pattern that matches the term itself but not a
 * longer term it begins ("Surat Izin Mengemudi A Umum" is another licence than "Surat Izin Mengemudi
 * A"): a sentence naming exactly what was asked about is preferred to one naming something narrower.
 */
export function definedTerms(texts: readonly string[]): RegExp[] {
  const pattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
  const found = new Map<string, Set<string>>();
  for (const text of texts)
    for (const match of text.matchAll(CAPITALIZED_RUN)) {
      // The word the question itself goes on with ("… B I umum") may continue the term.
      const next = /^\s+([\p{L}]+)/u.exec(text.slice(match.index + match[0].length))?.[1];
      const continuations = found.get(match[0]) ?? new Set<string>();
      if (next) continuations.add(next.toLowerCase());
      found.set(match[0], continuations);
    }
  return [...found].map(([term, continuations]) => {
    // Case-sensitive: a capital after the term is what makes it a longer term ("… A Umum").
    const anyCase = (word: string) => `[${word[0]!.toUpperCase()}${word[0]!}]${pattern(word.slice(1))}`;
    const allowed = [...continuations].map((word) => `${anyCase(word)}(?![\\p{L}])`).join('|');
    const longer = allowed ? `(?!\\s+(?:${allowed}))\\s+\\p{Lu}` : '\\s+\\p{Lu}';
    return new RegExp(`(?<![\\p{L}\\p{N}])${pattern(term)}(?![\\p{L}\\p{N}])(?!${longer})`, 'u');
  });
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const item of a) if (b.has(item)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 1 : shared / union;
}
