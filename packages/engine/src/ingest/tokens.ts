/**
 * Token counting and token-budget splitting for the chunker.
 *
 * Saksi ships no BPE vocabulary, so token counts approximate GPT-style tokenizers:
 *
 * - a run of letters (with combining marks) counts `ceil(length / 5)` tokens: short words are one
 *   token, long Indonesian derivations (`pertanggungjawaban`, 18 letters) count four;
 * - a run of digits counts `ceil(length / 3)` tokens (GPT tokenizers group digits by three);
 * - a run of other visible characters (punctuation, symbols, CJK) counts `ceil(length / 3)`;
 * - whitespace counts nothing.
 *
 * Measured against `js-tiktoken` on the project corpora (whole files): Indonesian statutes −5 to −9 %
 * of o200k and −23 to −26 % of cl100k; English Markdown docs +20 to +33 % of both (GPT keeps long
 * English words whole). Good enough for chunk budgets, which is all it is for. Counts are
 * deterministic and depend only on the text, so chunk boundaries are reproducible.
 */

/**
 * One unit of text: a run of letters, of digits or of other visible characters, each at most
 * {@link MAX_UNIT_LENGTH} code points long (so a giant "word" such as a base64 blob still splits
 * into bounded units). Splits happen only between units.
 */
const UNIT_PATTERN = /[\p{L}\p{M}]{1,45}|\p{N}{1,45}|[^\s\p{L}\p{M}\p{N}]{1,45}/gu;
/** Upper bound on the length of one unit (see {@link UNIT_PATTERN}). */
const MAX_UNIT_LENGTH = 45; // a multiple of 5 and 3, so long runs count as if unsplit
const LETTERS_PER_TOKEN = 5;
const DIGITS_PER_TOKEN = 3;
const SYMBOLS_PER_TOKEN = 3;

/** A piece of a longer text: `text === source.slice(start, end)` (UTF-16 offsets). */
export interface TextPiece {
  text: string;
  start: number;
  end: number;
}

interface Unit {
  start: number;
  end: number;
  tokens: number;
}

const DIGIT_START = /^\p{N}/u;
const LETTER_START = /^[\p{L}\p{M}]/u;

function unitTokens(match: string): number {
  // Units hold at most MAX_UNIT_LENGTH code points; the UTF-16 length (larger only for astral
  // scripts) is a fine proxy for this approximation.
  const length = Math.min(match.length, MAX_UNIT_LENGTH);
  if (length <= 1) return 1;
  if (LETTER_START.test(match)) return Math.ceil(length / LETTERS_PER_TOKEN);
  if (DIGIT_START.test(match)) return Math.ceil(length / DIGITS_PER_TOKEN);
  return Math.ceil(length / SYMBOLS_PER_TOKEN);
}

function units(text: string): Unit[] {
  const result: Unit[] = [];
  for (const match of text.matchAll(UNIT_PATTERN)) {
    const start = match.index;
    result.push({ start, end: start + match[0].length, tokens: unitTokens(match[0]) });
  }
  return result;
}

/**
 * Approximate GPT-style token count of `text` (see the module comment for the rules).
 *
 * @example countTokens('Setiap orang yang mengemudikan Kendaraan Bermotor') // 11 (cl100k: 13)
 */
export function countTokens(text: string): number {
  let total = 0;
  for (const match of text.matchAll(UNIT_PATTERN)) total += unitTokens(match[0]);
  return total;
}

/** Words after which a period does not end a sentence (Indonesian and English), lowercase. */
const ABBREVIATIONS = new Set([
  'bpk',
  'dll',
  'dr',
  'drs',
  'dsb',
  'dst',
  'etc',
  'fig',
  'hlm',
  'ir',
  'jl',
  'kab',
  'kec',
  'kel',
  'mr',
  'mrs',
  'ms',
  'no',
  'nos',
  'ny',
  'pp',
  'prof',
  'prov',
  'rp',
  'sdr',
  'st',
  'tgl',
  'tn',
  'tsb',
  'vs',
  'yth',
]);
/** A punctuation unit that ends a sentence: terminators, then optional closing quotes or brackets. */
const SENTENCE_END = /[.!?…。！？]["'”’)\]»]*$/u;
const LOWERCASE_START = /^\p{Ll}/u;
const LETTER = /^\p{L}$/u;
const WHITESPACE = /\s/u;

/**
 * Whether a sentence starts at unit `index` (a boundary between units `index - 1` and `index`).
 * A line break is always a boundary. Otherwise the previous unit must be punctuation ending in `.`,
 * `!`, `?` or `…` (closing quotes or brackets may follow), whitespace must follow it, the next unit must
 * not start with a lowercase letter, and a lone `.` must not follow a known abbreviation or a single
 * letter (initials, list markers such as `a.`).
 */
function isSentenceStart(text: string, list: Unit[], index: number): boolean {
  const previous = list[index - 1];
  const current = list[index];
  if (previous === undefined || current === undefined) return false;
  const gap = text.slice(previous.end, current.start);
  if (gap.includes('\n')) return true;
  if (!WHITESPACE.test(gap)) return false;
  if (LOWERCASE_START.test(text.slice(current.start, current.end))) return false;
  const mark = text.slice(previous.start, previous.end);
  if (!SENTENCE_END.test(mark)) return false;
  if (mark !== '.') return true;
  const word = list[index - 2];
  if (word === undefined || word.end !== previous.start) return true;
  const value = text.slice(word.start, word.end).toLowerCase();
  // A single letter covers initials, list markers and dotted abbreviations ("e.g.", "i.e.").
  return !(LETTER.test(value) || ABBREVIATIONS.has(value));
}

/**
 * Splits `text` into pieces of at most `maxTokens` tokens (by {@link countTokens}), consecutive pieces
 * sharing up to `overlapTokens` tokens.
 *
 * Pieces end at a sentence boundary when one keeps the piece at least half full, otherwise at a word
 * boundary, and only inside a word when a single word exceeds the budget. The overlap starts at a
 * sentence boundary when that keeps at least half the requested overlap, otherwise at a word boundary.
 * Every piece is trimmed (it starts and ends at a visible character) and `text.slice(start, end)`
 * returns it. A text without visible characters gives `[]`. Deterministic. Runs in time linear in the
 * text length times `maxTokens / (maxTokens - overlapTokens)`.
 *
 * @param maxTokens positive integer budget per piece
 * @param overlapTokens non-negative integer, clamped to `floor(maxTokens / 2)`
 * @throws RangeError when `maxTokens` or `overlapTokens` is not a valid integer
 */
export function splitByTokens(text: string, maxTokens: number, overlapTokens: number): TextPiece[] {
  if (!Number.isSafeInteger(maxTokens) || maxTokens < 1) {
    throw new RangeError(`maxTokens must be a positive integer, got ${maxTokens}`);
  }
  if (!Number.isSafeInteger(overlapTokens) || overlapTokens < 0) {
    throw new RangeError(`overlapTokens must be a non-negative integer, got ${overlapTokens}`);
  }
  const overlap = Math.min(overlapTokens, Math.floor(maxTokens / 2));
  const list = units(text);
  const count = list.length;
  if (count === 0) return [];

  // prefix[i] = tokens of units [0, i)
  const prefix = new Array<number>(count + 1);
  prefix[0] = 0;
  for (let i = 0; i < count; i++) prefix[i + 1] = prefix[i]! + list[i]!.tokens;
  const tokensBetween = (from: number, to: number): number => prefix[to]! - prefix[from]!;
  const isWordBoundary = (index: number): boolean =>
    index <= 0 || index >= count || list[index - 1]!.end !== list[index]!.start;
  const sentenceCache = new Map<number, boolean>();
  const isSentenceBoundary = (index: number): boolean => {
    if (index <= 0 || index >= count) return true;
    let cached = sentenceCache.get(index);
    if (cached === undefined) {
      cached = isSentenceStart(text, list, index);
      sentenceCache.set(index, cached);
    }
    return cached;
  };

  const pieces: TextPiece[] = [];
  let start = 0;
  let previousEnd = 0;
  while (start < count) {
    // Largest end that fits the budget, at least one unit past the previous piece (progress).
    let fill = start;
    while (fill < count && tokensBetween(start, fill + 1) <= maxTokens) fill++;
    fill = Math.max(fill, previousEnd + 1, start + 1);
    let end = fill;
    if (fill < count) {
      const halfFull = (candidate: number): boolean => tokensBetween(start, candidate) * 2 >= maxTokens;
      let chosen = -1;
      for (let candidate = fill; candidate > previousEnd && halfFull(candidate); candidate--) {
        if (isSentenceBoundary(candidate)) {
          chosen = candidate;
          break;
        }
      }
      if (chosen < 0) {
        for (let candidate = fill; candidate > previousEnd; candidate--) {
          if (isWordBoundary(candidate)) {
            chosen = candidate;
            break;
          }
        }
      }
      if (chosen > previousEnd) end = chosen;
    }
    const first = list[start]!;
    const last = list[end - 1]!;
    pieces.push({ text: text.slice(first.start, last.end), start: first.start, end: last.end });
    if (end >= count) break;
    previousEnd = end;
    start = overlapStart(start, end, overlap, tokensBetween, isSentenceBoundary, isWordBoundary);
  }
  return pieces;
}

/** Where the piece after `[start, end)` begins: the earliest good boundary within the overlap. */
function overlapStart(
  start: number,
  end: number,
  overlap: number,
  tokensBetween: (from: number, to: number) => number,
  isSentenceBoundary: (index: number) => boolean,
  isWordBoundary: (index: number) => boolean,
): number {
  if (overlap === 0) return end;
  let earliest = end;
  while (earliest - 1 > start && tokensBetween(earliest - 1, end) <= overlap) earliest--;
  for (let candidate = earliest; candidate < end; candidate++) {
    if (tokensBetween(candidate, end) * 2 < overlap) break;
    if (isSentenceBoundary(candidate)) return candidate;
  }
  for (let candidate = earliest; candidate < end; candidate++) {
    if (isWordBoundary(candidate)) return candidate;
  }
  return end;
}
