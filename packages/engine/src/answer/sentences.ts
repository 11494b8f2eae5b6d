/**
 * Sentence splitting for Indonesian and English documents, which understands Indonesian number
 * formats and abbreviations: the offline answer quotes sentences and a model's answer is split into
 * sentence claims (docs/engine.md, "Answering and certificates"; docs/language-models.md).
 *
 * Offsets are UTF-16 code units into the input, so `text.slice(start, end) === sentence.text` always
 * holds; callers that need code points convert. The split is deliberately conservative: a wrong
 * split cuts a claim in half, a missed split only makes a claim longer.
 *
 * - Hard boundaries: blank lines, list items and ayat (`1.`, `a.`, `(2)`, `-`), headings (`#`,
 *   `Pasal 287`, `BAB I`), table rows (`| a | b |`, and `a | b` as extraction writes a table's rows
 *   when the next or previous line is one too), admonition and HTML lines; a fenced code block is one
 *   unit.
 * - Inside a paragraph: `.`, `?`, `!` (plus closing quotes/brackets) followed by whitespace and a
 *   capital letter, digit, opening quote or bracket. A single newline is a soft wrap.
 * - Never at: abbreviations (`No.`, `Kep.`, `dll.`, `s.d.`, `e.g.`, `Rp.`, …), single letters
 *   (`A.`, `huruf a.`), list numbers at the start of a sentence, ellipses, decimal and thousands
 *   separators (`Rp1.761.642.817.235.000,00`, `3.5`), or inside an open parenthesis that closes later.
 */

/** One sentence: `text === source.slice(start, end)`, offsets in UTF-16 code units. */
export interface Sentence {
  text: string;
  start: number;
  end: number;
}

/** Lower-case abbreviations (without their final dot) after which a period does not end a sentence. */
const ABBREVIATIONS = new Set([
  // Indonesian
  'no',
  'kep',
  'dll',
  'dsb',
  'dst',
  'dkk',
  'tsb',
  'yth',
  'bpk',
  'sdr',
  'sdri',
  'prof',
  'dr',
  'drs',
  'dra',
  'ir',
  'hj',
  'rp',
  'hlm',
  'jl',
  'jln',
  'tgl',
  'kab',
  'kec',
  'kel',
  'prov',
  'pol',
  'ket',
  'lamp',
  'thn',
  'ttg',
  'bag',
  // English
  'mr',
  'mrs',
  'ms',
  'st',
  'jr',
  'sr',
  'etc',
  'vs',
  'cf',
  'fig',
  'figs',
  'vol',
  'approx',
  'inc',
  'ltd',
  'co',
  'corp',
  'dept',
  'nos',
  'p',
  'pp',
]);

const TERMINALS = '.?!';
/** Characters that may follow a terminal and still belong to its sentence. */
const CLOSERS = new Set(['"', "'", '”', '’', '»', ')', ']', '*', '_', '`']);
/** What may start a sentence after a terminal: optional markup, opening quotes/brackets, then a capital or digit. */
const SENTENCE_START = /^[_*`~]*["'“‘«([]*[\p{Lu}\p{N}]/u;
/** Before a list number at the start of a sentence only these may appear. */
const MARKER_PREFIX = /^[\s_*(>#-]*$/;
/** How far to look back for the word before a period, and ahead for a closing parenthesis. */
const TOKEN_LOOKBACK = 40;
const PAREN_LOOKAHEAD = 400;

const BLANK = /^\s*$/;
const FENCE = /^\s{0,3}(?:```|~~~)/;
/** Lines that stand alone: headings, legal headings, admonitions, HTML tags, table rows, rules. */
const STANDALONE =
  /^\s*(?:#{1,6}\s|:::|<\/?[A-Za-z][^>]*>\s*$|\||(?:[-*_]\s*){3,}$|BAB\s+[IVXLCDM]+\b|Bagian\s+Ke[a-z]+\b.*$|Paragraf\s+\d+\b.*$|Pasal\s+\d+[A-Z]?\s*$)/;
/** A table row as extraction writes it: its cells joined by " | ". */
const CELL_SEPARATOR = /\S \| \S/;
/** Lines that start a new item: bullets, numbered/lettered items, ayat, block quotes. */
const ITEM_START =
  /^\s*(?:[-*+•]\s+|\d{1,3}(?:\.\d{1,3})*[.)]\s+|[a-zA-Z][.)]\s+|\(\d{1,3}[a-z]?\)|\([a-zA-Z]\)\s|>)/;
/** A previous line ending like this introduces a list or closes a list item. */
const LIST_INTRO_END = /[:;]\s*$/;
/** Leading list bullets, block-quote markers and `__` extraction noise trimmed from a sentence. */
const LEADING_NOISE = /^(?:[-*+•]\s+|>\s*|_{2,}\s+)+/;
const TRAILING_NOISE = /(?:\s+_{2,})+$/;
const HAS_WORD = /[\p{L}\p{N}]/u;

interface Block {
  start: number;
  end: number;
  /** A fenced code block: kept as one unit. */
  verbatim: boolean;
}

/** Splits `text` into trimmed sentences with their UTF-16 offsets, in order. */
export function splitSentences(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  for (const block of blocks(text)) {
    if (block.verbatim) pushTrimmed(text, block.start, block.end, sentences);
    else splitBlock(text, block.start, block.end, sentences);
  }
  return sentences;
}

/** Cuts the text into paragraph-level blocks at hard boundaries (see the module comment). */
function blocks(text: string): Block[] {
  const result: Block[] = [];
  let blockStart = -1;
  let blockEnd = 0;
  let previous = '';
  let inFence = false;
  let fenceStart = 0;
  const flush = () => {
    if (blockStart >= 0) result.push({ start: blockStart, end: blockEnd, verbatim: false });
    blockStart = -1;
  };
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd);
    if (inFence) {
      if (FENCE.test(line)) {
        result.push({ start: fenceStart, end: lineEnd, verbatim: true });
        inFence = false;
        previous = '';
      }
    } else if (FENCE.test(line)) {
      flush();
      inFence = true;
      fenceStart = lineStart;
    } else if (BLANK.test(line)) {
      flush();
      previous = '';
    } else if (STANDALONE.test(line) || isTableRow(text, lineStart, lineEnd)) {
      flush();
      result.push({ start: lineStart, end: lineEnd, verbatim: false });
      previous = '';
    } else {
      if (blockStart >= 0 && (ITEM_START.test(line) || LIST_INTRO_END.test(previous))) flush();
      if (blockStart < 0) blockStart = lineStart;
      blockEnd = lineEnd;
      previous = line;
    }
    if (lineEnd >= text.length) break;
    lineStart = lineEnd + 1;
  }
  if (inFence) result.push({ start: fenceStart, end: text.length, verbatim: true });
  flush();
  return result;
}

/**
 * Whether the line at `start`–`end` is a row of a table whose cells extraction joined with " | ":
 * the line and the one before or after it both have such a separator (a lone "string | undefined"
 * in prose is no table).
 */
function isTableRow(text: string, start: number, end: number): boolean {
  if (!CELL_SEPARATOR.test(text.slice(start, end))) return false;
  const previousStart = start > 0 ? text.lastIndexOf('\n', start - 2) + 1 : -1;
  if (previousStart >= 0 && CELL_SEPARATOR.test(text.slice(previousStart, start - 1))) return true;
  if (end >= text.length) return false;
  const nextEnd = text.indexOf('\n', end + 1);
  return CELL_SEPARATOR.test(text.slice(end + 1, nextEnd < 0 ? text.length : nextEnd));
}

/** Splits one paragraph-level block at sentence terminals. */
function splitBlock(text: string, start: number, end: number, out: Sentence[]): void {
  let sentenceStart = start;
  let depth = 0;
  for (let i = start; i < end; i++) {
    const ch = text[i]!;
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    if (!TERMINALS.includes(ch)) continue;
    if (ch === '.' && (text[i + 1] === '.' || text[i - 1] === '.')) continue; // ellipsis
    let j = i + 1;
    let closedParens = 0;
    while (j < end && CLOSERS.has(text[j]!)) {
      if (text[j] === ')') closedParens++;
      j++;
    }
    if (j >= end || !/\s/.test(text[j]!)) continue;
    let k = j;
    while (k < end && /\s/.test(text[k]!)) k++;
    if (k >= end || !SENTENCE_START.test(text.slice(k, k + 8))) continue;
    if (ch === '.' && !periodEndsSentence(text, i, sentenceStart)) continue;
    if (depth - closedParens > 0) {
      const closeAt = text.slice(j, Math.min(end, j + PAREN_LOOKAHEAD)).indexOf(')');
      if (closeAt >= 0) continue;
    }
    pushTrimmed(text, sentenceStart, j, out);
    sentenceStart = j;
    depth = 0;
    i = j - 1;
  }
  pushTrimmed(text, sentenceStart, end, out);
}

/** Whether the period at `index` may end a sentence, judging by the word before it. */
function periodEndsSentence(text: string, index: number, sentenceStart: number): boolean {
  let p = index;
  const limit = Math.max(sentenceStart, index - TOKEN_LOOKBACK);
  while (p > limit && /[\p{L}\p{N}.]/u.test(text[p - 1]!)) p--;
  const token = text.slice(p, index).replace(/^\.+/, '');
  if (token === '') return true;
  if (/^\p{L}$/u.test(token)) return false; // initials, `huruf a.`
  if (ABBREVIATIONS.has(token.toLowerCase())) return false;
  if (/^(?:\p{L}\.)+\p{L}$/u.test(token)) return false; // s.d., a.n., u.p., e.g., i.e., S.H.
  if (/^(?:\d+(?:\.\d+)*|[IVXLCDM]+)$/.test(token) && p - sentenceStart <= 12) {
    // A list number (`1.`, `2.1.`, `IV.`) at the start of the sentence.
    if (MARKER_PREFIX.test(text.slice(sentenceStart, p))) return false;
  }
  return true;
}

/** Trims whitespace and list/quote/extraction noise and records the sentence if it has a word. */
function pushTrimmed(text: string, start: number, end: number, out: Sentence[]): void {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s]!)) s++;
  while (e > s && /\s/.test(text[e - 1]!)) e--;
  const lead = LEADING_NOISE.exec(text.slice(s, Math.min(e, s + 64)));
  if (lead) s += lead[0].length;
  const tail = TRAILING_NOISE.exec(text.slice(Math.max(s, e - 64), e));
  if (tail) e -= tail[0].length;
  while (s < e && /\s/.test(text[s]!)) s++;
  while (e > s && /\s/.test(text[e - 1]!)) e--;
  if (s >= e) return;
  const sentence = text.slice(s, e);
  if (!HAS_WORD.test(sentence)) return;
  out.push({ text: sentence, start: s, end: e });
}
