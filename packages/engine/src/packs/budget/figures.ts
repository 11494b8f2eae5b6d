/**
 * The figures of a budget document, read at ingestion (docs/engine.md, "Answering and
 * certificates"): every clause that states an amount the way a UU APBN does — "Anggaran Pendapatan
 * Negara Tahun Anggaran 2023 direncanakan sebesar Rp2.463.024.911.395.000,00 (dua kuadriliun …
 * rupiah)" — with what it measures (measures.ts), its fiscal year, the exact amount, and where the
 * clause and the amount sit in the chunk, so a budget question is answered from the statute's own
 * clause (answer.ts).
 *
 * An amount is checked twice: its digits must be well formed (groups of three, no letters or stray
 * symbols — OCR reads "2O2O", "Rpl.963", "RpS.382"), and the words in parentheses after it, read
 * with number-words.ts, must spell the same number (`words_checked`). A figure whose digits are
 * misread, or whose words say another number, is kept flagged `garbled` and never answered from.
 * Digits split by stray spaces ("Rp2. 165. 1 1 1.815.814.000,00") are read without the spaces only
 * when the words confirm them. In text Saksi read by OCR itself (a chunk with `ocr_confidence`), every
 * figure needs its words: digits that no amount in words confirms are `garbled`, however well formed
 * they look, since OCR misreads one digit for another ("8" for "3") as easily as for a letter.
 */
import type { LegalRef } from '../../types.js';
import { type BudgetMeasure, measureOfSubject } from './measures.js';
import { parseNumberWords } from './number-words.js';

/** A span of a chunk's text; offsets in UTF-16 code units, `text === chunk.slice(start, end)`. */
export interface TextSpan {
  start: number;
  end: number;
  text: string;
}

/** One amount a budget document states. */
export interface BudgetFigure {
  /** The clause's subject as written, e.g. "Anggaran Pendapatan Negara Tahun Anggaran 2023". */
  label: string;
  /** What the subject names, or null when it names no known measure ("DAK fisik", "bidang jalan"). */
  measure: BudgetMeasure | null;
  /** The year the clause names ("Tahun Anggaran 2023"), else the document's fiscal year. */
  fiscal_year: number | null;
  /**
   * The amount in rupiah as an exact decimal string ("2463024911395000", "-175955303621000"). For a
   * garbled figure, what its words say, or null when they cannot be read either.
   */
  amount: string | null;
  /** The statement clause: from its subject to the closing parenthesis of the amount in words. */
  span: TextSpan;
  /** The amount as written, from "Rp" to its last digit ("Rp2.463.024.911.395.000,00"). */
  amount_span: TextSpan;
  /** The words in parentheses were read and spell the same number as the digits. */
  words_checked: boolean;
  /** Misread digits, or words that say another number: never used for an answer. */
  garbled: boolean;
  /**
   * The statute's own statement of the measure (an article of the body, not a list item, a mention
   * inside another clause or the Penjelasan): preferred when a measure is stated more than once.
   */
  primary: boolean;
}

export interface ReadFiguresOptions {
  /** The document's fiscal year, for clauses that name none. */
  fiscalYear: number | null;
  /** The chunk's place in the regulation (its Penjelasan is never primary). */
  legal?: Pick<LegalRef, 'penjelasan'> | null;
  /** The chunk's text was read by OCR: a figure whose words do not confirm its digits is garbled. */
  ocr?: boolean;
}

/** "sebesar Rp", "se besar Rp", the OCR's "sebes2r Rp", a negative "sebesar negatif Rp". */
const TRIGGER = /(?<![\p{L}])se ?bes[a2]r[\s^]*(negatif[\s^]*)?Rp\.?/giu;
/** Longest stretch between "Rp" and the "(" of the words that can still be one number. */
const MAX_DIGITS_LENGTH = 48;
/** Longest amount in words before its closing parenthesis. */
const MAX_WORDS_LENGTH = 420;
/** Indonesian digits: groups of three after a lead of one to three, optional decimal comma. */
const DIGITS = /^(\d{1,3}(?:\.\d{3})*)(?:,(\d{1,2}))?$/;

/** Clause boundaries before an amount: a line, a sentence, a list item, an ayat marker. */
const BOUNDARY =
  /\n|[;:]\s+(?=[^\d\s])|(?<!(?:^|\n|[;:,)]\s|\s(?:dan|atau)\s)(?:[a-zA-Z]|\d{1,2}))\.\s+(?=[^\d\s])|(?<=\s|^)\(\s*\d{1,3}[a-z]?\s*[)1l]?\s+(?=\p{Lu})|(?<=[;:,]\s|\s(?:dan|atau)\s)(?=(?:[a-z]|\d{1,2})\.\s)/gu;
/** Words after which a new subject may start; `terdapat` starts a subject but not the span. */
const CONNECTIVE = /(?<=^|\s)(sehingga|terdapat|termasuk|terhadap|dari|atas|untuk|yaitu|berupa)\s/giu;
/** "Pasal 4", "Pasa1 1 1" (OCR), "(1)", "(21" (OCR for "(2)") at the start of a clause. */
const ARTICLE_MARKERS =
  /^(?:\s|Pas\s?a\s?[l1I](?:\s*\d+)+\s?[A-Z]?(?=\s)|\(\s*\d{1,3}[a-z]?\s*[)1l]?(?=\s))+/u;
/** A list item's "a.", "1.", "2)". */
const LIST_ITEM = /^(?:[a-zA-Z]|\d{1,2})[.)](?=\s)/;
/** Article and list markers at the start of a clause. */
const LEADING_MARKERS =
  /^(?:\s|Pas\s?a\s?[l1I](?:\s*\d+)+\s?[A-Z]?(?=\s)|\(\s*\d{1,3}[a-z]?\s*[)1l]?(?=\s)|(?:[a-zA-Z]|\d{1,2})[.)](?=\s))+/u;
/** "sebagaimana dimaksud dalam Pasal 3 huruf a", "… pada ayat (1) huruf b dan ayat (2)". */
const REFERENCE =
  /,?\s*sebagaimana\s+\S*maksud\s+(?:dalam|pada|di\s*dalam)(?:\s*(?:Pasal|Pasa1|pasal|ayat|huruf|angka|butir)\s*\(?\s*[\dA-Za-z]{1,5}\s*\)?|\s*,|\s+dan|\s+atau)+/giu;
/** "Tahun Anggaran 2023", OCR'd "Tahun Anggaran 2O2O" or "20 1 7". */
const YEAR_PHRASE = /(?:dalam\s+)?Tahun\s+Anggaran\s+([0-9OoIlL](?:\s?[0-9OoIlL]){3})(?![\p{L}\p{N}])/giu;
const VERB =
  /[\s,]*(?:direncanakan|diperkirakan|dialokasikan|ditetapkan|ditargetkan|dianggarkan|adalah|menjadi)?[\s,]*$/iu;

/** A year written with OCR confusions ("2O2O", "20 1 7", "2Ol8") as a number, or undefined. */
export function readYear(written: string): number | undefined {
  const digits = written.replace(/\s+/g, '').replace(/[Oo]/g, '0').replace(/[IlL]/g, '1');
  if (!/^(?:19|20)\d\d$/.test(digits)) return undefined;
  return Number(digits);
}

/** The fiscal year a budget document's title names ("… TAHUN ANGGARAN 2023", "APBN TA 2023"). */
export function fiscalYearOfTitle(title: string): number | undefined {
  const match = /\b(?:tahun\s+anggaran|TA)\s+([0-9OoIlL](?:\s?[0-9OoIlL]){3})(?![\p{L}\p{N}])/iu.exec(title);
  return match ? readYear(match[1]!) : undefined;
}

interface DigitsReading {
  /** Digits read exactly as written. */
  clean: boolean;
  /** Read after removing stray spaces. */
  spaced: boolean;
  whole?: bigint;
  /** The decimals after the comma, trailing zeros dropped ("" for ",00"). */
  fraction?: string;
}

function readDigits(raw: string): DigitsReading {
  const exact = DIGITS.exec(raw);
  const compact = exact ? undefined : DIGITS.exec(raw.replace(/\s+/g, ''));
  const match = exact ?? compact;
  if (!match) return { clean: false, spaced: false };
  return {
    clean: exact !== null,
    spaced: exact === null,
    whole: BigInt(match[1]!.replace(/\./g, '')),
    fraction: (match[2] ?? '').replace(/0+$/, ''),
  };
}

/**
 * One piece of a number as OCR leaves it: digits and separators, letters it confuses with digits
 * ("2O2O", "Rpl.963", "RpS.382", "t56"), debris ("|"). A piece of letters alone is a word.
 */
const NUMBER_PIECE = /^[\d.,OoIlLiSsCcta|]+$/;
const LONE_CONFUSION = /^[OoIl|.,]+$/;

/**
 * The amount after "Rp" at `from`, as the pieces of one number however misread ("1 . 750.283.380.
 * 1 76.000,00", "7O.OOO.OO0"), and the words in parentheses when they follow.
 */
function readAmount(
  work: string,
  from: number,
): { rawStart: number; digitsEnd: number; raw: string; wordsText?: string; wordsEnd?: number } {
  const limit = Math.min(work.length, from + MAX_DIGITS_LENGTH);
  const piece = /[ \t]*([^\s(]+)/y;
  let rawStart = -1;
  let end = from;
  for (let at = from; at < limit; ) {
    piece.lastIndex = at;
    const match = piece.exec(work);
    if (!match) break;
    let text = match[1]!;
    const stop = /[;:)]/.exec(text);
    if (stop) text = text.slice(0, stop.index);
    if (!NUMBER_PIECE.test(text) || !(/\d/.test(text) || LONE_CONFUSION.test(text))) break;
    const pieceStart = match.index + match[0].length - match[1]!.length;
    if (rawStart < 0) rawStart = pieceStart;
    end = pieceStart + text.length;
    at = end;
    if (stop) break;
  }
  if (rawStart < 0 || !/\d/.test(work.slice(rawStart, end)))
    return { rawStart: from, digitsEnd: from, raw: '' };
  const open = /^[ \t]*\(/.exec(work.slice(end, end + 8));
  if (open) {
    const start = end + open[0].length;
    const close = work.indexOf(')', start);
    const words = close >= start && close - start <= MAX_WORDS_LENGTH ? work.slice(start, close) : undefined;
    if (words !== undefined && !/[(\n]/.test(words))
      return {
        rawStart,
        digitsEnd: end,
        raw: work.slice(rawStart, end),
        wordsText: words,
        wordsEnd: close + 1,
      };
  }
  // No words: the number ends before a sentence's closing point or comma.
  while (end > rawStart && /[.,]/.test(work[end - 1]!)) end--;
  return { rawStart, digitsEnd: end, raw: work.slice(rawStart, end) };
}

/** Where each clause of `text` may start, before `end`. */
function segmentStart(work: string, lineStart: number, end: number): number {
  let start = lineStart;
  BOUNDARY.lastIndex = lineStart;
  for (let match = BOUNDARY.exec(work); match && match.index < end; match = BOUNDARY.exec(work)) {
    const after = match.index + match[0].length;
    if (after <= end) start = after;
    if (match[0].length === 0) BOUNDARY.lastIndex++;
  }
  return start;
}

/** The subject of the clause between `from` and `to`, without references, fiscal year and verb. */
function subjectOf(work: string, from: number, to: number): { subject: string; year?: number } {
  let text = work.slice(from, to);
  let year: number | undefined;
  text = text.replace(YEAR_PHRASE, (_whole, written: string) => {
    year ??= readYear(written);
    return ' ';
  });
  text = text.replace(REFERENCE, ' ').replace(VERB, '');
  text = text.replace(LEADING_MARKERS, '').replace(/\s+/g, ' ').trim();
  text = text.replace(/^[,;:]\s*|[,;:]$/g, '').trim();
  return { subject: text, ...(year !== undefined ? { year } : {}) };
}

/**
 * The figures stated in one chunk's text, in order. Every "sebesar Rp…" is read; its subject is the
 * nearest noun phrase before it that names a measure ("… sehingga dalam Tahun Anggaran 2023
 * terdapat defisit anggaran sebesar …" → defisit), else the whole clause (measure null).
 */
export function readBudgetFigures(text: string, options: ReadFiguresOptions): BudgetFigure[] {
  // Offsets are kept: OCR debris ("^", "_") becomes spaces of the same length in the working copy.
  const work = text.replace(/[\^_]/g, ' ');
  const figures: BudgetFigure[] = [];
  let previousEnd = 0;
  for (const trigger of work.matchAll(TRIGGER)) {
    const triggerStart = trigger.index;
    const rpStart = triggerStart + trigger[0].length - (trigger[0].endsWith('.') ? 3 : 2);
    const amount = readAmount(work, triggerStart + trigger[0].length);
    if (amount.raw === '') continue;
    const negative = trigger[1] !== undefined;

    // The clause: after the line, sentence, list item or ayat marker before it, and after the
    // previous amount's words, and after an earlier "sebesar …(…)" of the same sentence.
    const lineStart = work.lastIndexOf('\n', triggerStart) + 1;
    let start = Math.max(segmentStart(work, lineStart, triggerStart), previousEnd);
    const earlier = work.slice(start, triggerStart).search(/(?<![\p{L}])se ?bes[a2]r(?![\p{L}])/iu);
    if (earlier >= 0) {
      const close = work.indexOf(')', start + earlier);
      start = close >= 0 && close < triggerStart ? close + 1 : start + earlier + 7;
    }
    while (start < triggerStart && /\s/.test(work[start]!)) start++;

    // Candidate subjects, nearest first: after each connective, then the clause start.
    const candidates: { at: number; spanAt: number }[] = [];
    const connectives = [...work.slice(start, triggerStart).matchAll(CONNECTIVE)].map((match) => ({
      at: start + match.index + match[0].length,
      word: match[1]!.toLowerCase(),
    }));
    for (let index = connectives.length - 1; index >= 0; index--) {
      const connective = connectives[index]!;
      // "… sehingga dalam Tahun Anggaran 2023 terdapat defisit": the span keeps "dalam … terdapat".
      let spanAt = connective.at;
      for (let back = index; back >= 0 && connectives[back]!.word === 'terdapat'; back--)
        spanAt = back > 0 ? connectives[back - 1]!.at : start;
      candidates.push({ at: connective.at, spanAt });
    }
    candidates.push({ at: start, spanAt: start });
    let chosen: { at: number; spanAt: number; measure: BudgetMeasure | null; subject: string } | undefined;
    for (const candidate of candidates) {
      const { subject } = subjectOf(work, candidate.at, triggerStart);
      const measure = measureOfSubject(subject);
      if (measure) {
        chosen = { ...candidate, measure, subject };
        break;
      }
    }
    chosen ??= {
      at: start,
      spanAt: start,
      measure: null,
      subject: subjectOf(work, start, triggerStart).subject,
    };
    const spanStart = chosen.spanAt + (LEADING_MARKERS.exec(work.slice(chosen.spanAt))?.[0].length ?? 0);
    const year = subjectOf(work, spanStart, triggerStart).year;

    // The amount: digits, then the words.
    const digits = readDigits(amount.raw);
    const wordsValue = amount.wordsText !== undefined ? parseNumberWords(amount.wordsText) : undefined;
    const wholeFromWords = wordsValue !== undefined && digits.fraction === '' ? wordsValue : undefined;
    const wordsChecked = wholeFromWords !== undefined && wholeFromWords === digits.whole;
    const disagree = wordsValue !== undefined && digits.whole !== undefined && wordsValue !== digits.whole;
    // Anything but digits, separators and spaces in the number as written ("^", "|", "O") is a misreading.
    const misread = /[^\d.,\s]/.test(text.slice(amount.rawStart, amount.digitsEnd));
    const garbled =
      misread ||
      digits.whole === undefined ||
      disagree ||
      ((digits.spaced || options.ocr === true) && !wordsChecked);
    const sign = negative ? '-' : '';
    const value =
      !garbled && digits.whole !== undefined
        ? `${sign}${digits.whole}${digits.fraction ? `.${digits.fraction}` : ''}`
        : wordsValue !== undefined
          ? `${sign}${wordsValue}`
          : null;

    const spanEnd = amount.wordsEnd ?? amount.digitsEnd;
    const listItem = LIST_ITEM.test(work.slice(start, triggerStart).replace(ARTICLE_MARKERS, ''));
    figures.push({
      label: chosen.subject.slice(0, 200),
      measure: chosen.measure,
      fiscal_year: year ?? options.fiscalYear,
      amount: value,
      span: { start: spanStart, end: spanEnd, text: text.slice(spanStart, spanEnd) },
      amount_span: { start: rpStart, end: amount.digitsEnd, text: text.slice(rpStart, amount.digitsEnd) },
      words_checked: wordsChecked,
      garbled,
      primary:
        options.legal?.penjelasan !== true &&
        chosen.measure !== null &&
        !listItem &&
        (chosen.spanAt === start || /\bsehingga\s*$/iu.test(work.slice(start, chosen.spanAt))),
    });
    previousEnd = spanEnd;
  }
  return figures;
}

/** Letters and marks OCR reads in place of a digit ("2O2O", "Rpl.963", "RpS.382", "t56", "|"). */
const CONFUSED_DIGIT = /[OoDQCcIlLi|SsBZzGbgqat]/;
/** At most this share of a figure's digits may be letters OCR put in their place… */
const MAX_CONFUSED_SHARE = 0.25;
/** …and at most this many. */
const MAX_CONFUSED = 3;

/**
 * Whether a figure's digits as OCR left them ("Rp2.233. 196.7O 1.660.0O0,0O") still confirm `value`,
 * the amount its words spell: once stray spaces and marks are dropped, every separator stands where
 * the grouped value has one, every digit equals the value's digit in its place, and only a few places
 * (at most {@link MAX_CONFUSED}, and a quarter of the digits) hold a letter OCR confuses with a digit.
 * The figure a budget answer then states is the words' (certificate v1.1, the `spelled` part).
 */
export function digitsConfirmWords(written: string, value: bigint): boolean {
  if (value <= 0n) return false;
  let digits = written
    .replace(/^\s*Rp\.?/u, '')
    .replace(/[\s^_]+/g, '')
    // The decimals ("",00", ",0O"): a comma and at most two places at the end.
    .replace(/,[\dOo]{1,2}$/u, '');
  digits = digits.replace(/[.,]$/u, '');
  const expected = value.toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  if (digits.length !== expected.length) return false;
  let confused = 0;
  for (let index = 0; index < expected.length; index++) {
    const want = expected[index]!;
    const got = digits[index]!;
    if (want === '.') {
      if (got !== '.' && got !== ',') return false;
    } else if (got !== want) {
      if (!CONFUSED_DIGIT.test(got)) return false;
      confused++;
    }
  }
  const places = value.toString().length;
  return confused <= MAX_CONFUSED && confused <= places * MAX_CONFUSED_SHARE;
}
