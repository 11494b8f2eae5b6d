/**
 * The unit an extractive claim quotes (docs/engine.md, "Answering"): the best sentence with the
 * context that makes it an answer, each piece an exact span of the same chunk so its offsets and
 * hash go into the certificate as they are.
 *
 * - **Antecedent.** A sentence that opens with or soon uses a back-reference ("You can use them to
 *   …", "This means …", "Dana tersebut …") is quoted after the sentence it points to.
 * - **Fix after a quoted error.** A sentence that copies an error, a warning or a log line, or says
 *   "if you see …" about one, is followed by the instruction after it.
 * - **Explanation beside code.** A line of code is no answer unless the question asks for code: the
 *   statement beside it, which says what the code does, stands in for it.
 *
 * (A sentence ending in ":" is quoted with the list items that follow it: `completeSpan` in
 * extractive.ts.) The added context is capped: at most {@link MAX_CONTEXT_SENTENCES} sentences and
 * {@link MAX_CONTEXT_CHARS} characters per quoted sentence.
 */
import { type Sentence, splitSentences } from './sentences.js';

/** At most this many sentences of context are added to one quoted sentence… */
export const MAX_CONTEXT_SENTENCES = 2;
/** …holding at most this many characters together. */
export const MAX_CONTEXT_CHARS = 600;

/** Words a sentence may open with that stand for something said before it. */
const OPENS_WITH_REFERENCE =
  /^(?:it|its|this|that|these|those|they|them|their|such|both of (?:them|these)|hal (?:ini|itu|tersebut)|ini|itu|tersebut|mereka|demikian)(?![\p{L}\p{N}])/iu;
/** Back-references a sentence may use in its first words ("You can use them to …"). */
const USES_REFERENCE = /(?<![\p{L}\p{N}])(?:them|they|these|those|tersebut|mereka)(?![\p{L}\p{N}])/iu;
/** How many of a sentence's first words are read for a back-reference. */
const REFERENCE_WORDS = 6;
/**
 * A sentence that names its own document ("This guide …", "Undang-Undang ini …", "Peraturan
 * Menteri ini …") points to no earlier sentence.
 */
const SELF_REFERENCE =
  /^(?:this\s+(?:page|guide|section|document|tutorial|chapter|article|post|doc|book|tutorial|example|repository|project)|(?:undang-undang|peraturan(?:\s+\p{Lu}\p{Ll}+){0,2}|keputusan(?:\s+\p{Lu}\p{Ll}+){0,2}|pasal|ayat|bab|bagian|lampiran|dokumen|buku|panduan)\s+ini)(?![\p{L}\p{N}])/iu;
/** A leading ayat or item number ("(2) ", "a. ") is not part of the sentence's wording. */
const LEADING_NUMBER = /^(?:\(\d{1,3}[a-z]?\)|[a-z]\.|\d{1,3}[.)])\s+/u;

/** Whether `text` opens with, or soon uses, a word standing for what a sentence before it said. */
export function refersBack(text: string): boolean {
  const wording = text.trim().replace(LEADING_NUMBER, '');
  if (SELF_REFERENCE.test(wording)) return false;
  if (OPENS_WITH_REFERENCE.test(wording)) return true;
  const first = wording.split(/\s+/u).slice(0, REFERENCE_WORDS).join(' ');
  return USES_REFERENCE.test(first) && !SELF_REFERENCE.test(first);
}

/** A statement a list item or ayat: its introduction, not an antecedent, says what it is about. */
const LIST_ITEM = /^(?:[a-zA-Z][.)]|\(?\d{1,3}[.)]|\([a-z\d]{1,3}\)|[-*•+]) /u;

/**
 * The sentences before `sentence` in `text` its back-reference points to: the statement just before
 * it in its section — never across a heading, code, a table or a list — and the one before that when
 * that one leans on an earlier sentence too. Empty when the sentence refers to nothing before it, or
 * when what it refers to is not a statement one can quote.
 */
export function antecedentOf(
  text: string,
  sentence: { start: number; end: number; text: string },
  isStatement: (text: string) => boolean,
): Sentence[] {
  if (!refersBack(sentence.text) || LIST_ITEM.test(sentence.text)) return [];
  const before = splitSentences(text).filter((candidate) => candidate.end <= sentence.start);
  const found: Sentence[] = [];
  let chars = 0;
  let needs = true;
  for (let index = before.length - 1; index >= 0 && needs && found.length < MAX_CONTEXT_SENTENCES; index--) {
    const previous = before[index]!;
    if (!isStatement(previous.text) || isCodeLike(previous.text) || LIST_ITEM.test(previous.text)) break;
    // A list's introduction says what follows it, not what the sentence after the list is about.
    if (/:\s*$/.test(previous.text)) break;
    if (chars + previous.text.length > MAX_CONTEXT_CHARS) break;
    found.unshift(previous);
    chars += previous.text.length;
    needs = refersBack(previous.text);
  }
  // An antecedent that itself leans on something the cap left out says nothing on its own.
  return needs ? [] : found;
}

/** A line of code: a statement of a program rather than a sentence about it. */
const CODE_START =
  /^(?:import\s|export\s|const\s|let\s|var\s|function[\s*(]|return\b|class\s+\w|async\s|await\s|if\s*\(|for\s*\(|while\s*\(|switch\s*\(|try\s*\{|[{}[\]]|\/\/|\/\*|#include|def\s+\w|from\s+\S+\s+import|<\/?[A-Za-z][\w.-]*[\s/>])/u;
/** A call or assignment opening the line: `store.dispatch(action)`, `state.value = 1`. */
const CODE_CALL = /^[a-z_$][\w$]*(?:\.[\w$]+)*(?:<[^>]*>)?\s*(?:\(|=[^=>]|\+=|-=)/u;
/** Symbols prose hardly has: a call without a space, `=>`, `===`, `&&`. */
const CODE_SYMBOLS = /[\w$\])]\(|=>|[=!]==?|&&|\|\||\+\+/u;

function isCodeLine(line: string): boolean {
  const text = line.trim();
  if (text === '') return false;
  if (CODE_START.test(text) || CODE_CALL.test(text)) return true;
  // A line ending the way statements of a program end, with a program's symbols in it.
  return (
    /[;{}(,]$/.test(text) && CODE_SYMBOLS.test(text) && !/^\p{Lu}\p{Ll}+\s+\p{Ll}+\s+\p{Ll}+/u.test(text)
  );
}

/** Whether `text` is code (half or more of its lines are lines of code) rather than a statement. */
export function isCodeLike(text: string): boolean {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0) return false;
  return lines.filter(isCodeLine).length * 2 >= lines.length;
}

/**
 * The statement beside a line of code that says what it does: the nearest statement before it in its
 * chunk that is not code itself (the sentence that introduced the example), else the nearest after
 * it; never across a heading, and never a sentence that only announces what follows (":"). Undefined
 * when the code stands alone.
 */
export function explanationBeside(
  text: string,
  code: { start: number; end: number },
  isStatement: (text: string) => boolean,
): Sentence | undefined {
  const sentences = splitSentences(text);
  const explains = (sentence: Sentence) =>
    isStatement(sentence.text) && !/:\s*$/.test(sentence.text) && !refersBack(sentence.text);
  const before = sentences.filter((sentence) => sentence.end <= code.start).reverse();
  const after = sentences.filter((sentence) => sentence.start >= code.end);
  for (const side of [before, after]) {
    for (const sentence of side) {
      if (isCodeLike(sentence.text)) continue;
      if (explains(sentence)) return sentence;
      // A heading, a table row or a list introduction: the section or the example ends here.
      break;
    }
  }
  return undefined;
}

/** A line copied from a program's output: an error, a warning, a log line, a stack frame, a prompt. */
const OUTPUT_LINE =
  /^(?:["'“‘`]?(?:Uncaught\s+)?(?:[A-Z]\w*(?:Error|Exception)|Error|Warning|Fatal|ERROR|WARN(?:ING)?|FATAL|npm ERR!|Traceback|panic)\b\s*[:!\]]|at\s+\S+\s+\(\S+:\d+:\d+\)|[$>]\s+\S)/u;
/** A sentence that is one quotation from end to end. */
const WHOLLY_QUOTED = /^["“'‘`][^"”'’`]{8,}["”'’`][.!]?$/u;
/** A sentence about an error message that copies it or says "if you see …". */
const ABOUT_AN_ERROR =
  /\b(?:if you (?:see|get|encounter|receive|run into|are seeing|are getting)|you (?:may|might|will) (?:see|get)|(?:the|this|an?|following) (?:error|warning)(?: message)?s?(?: like| such as|:)|error message|\w+(?:Error|Exception)\b|(?:muncul|menampilkan|mendapat(?:kan)?) (?:pesan )?(?:kesalahan|galat|error|peringatan)|pesan (?:kesalahan|galat|error|peringatan))/iu;
/** What an instruction says: something to do, in English or Indonesian. */
const INSTRUCTION =
  /\b(?:you (?:should|need to|must|can|have to|may want to|'ll need to)|make sure|ensure|try|use|add|remove|install|upgrade|update|set|change|check|run|call|wrap|pass|import|replace|avoid|do not|don't|instead|to (?:fix|resolve|avoid|solve)|the (?:fix|solution)|pastikan|gunakan|pakai|tambahkan|hapus|pasang|perbarui|ubah|periksa|jalankan|coba(?:lah)?|harus|perlu|sebaiknya|hindari|jangan|ganti|atur)\b/iu;

/** Whether `text` copies program output or speaks of an error message without saying what to do. */
export function copiesError(text: string): boolean {
  const trimmed = text.trim();
  if (OUTPUT_LINE.test(trimmed) || WHOLLY_QUOTED.test(trimmed)) return true;
  return ABOUT_AN_ERROR.test(trimmed) && !INSTRUCTION.test(trimmed.replace(ABOUT_AN_ERROR, ' '));
}

/** Whether `text` tells the reader what to do. */
export function instructs(text: string): boolean {
  return INSTRUCTION.test(text) && !OUTPUT_LINE.test(text.trim());
}

/**
 * The instruction after a sentence that copies an error (`copiesError`): the statements that follow
 * it in its section, past the copied output and code, up to and including the first that tells what
 * to do; never across a heading. Empty when none of the next {@link MAX_CONTEXT_SENTENCES}
 * statements instructs.
 */
export function fixAfter(
  text: string,
  span: { start: number; end: number; text: string },
  isStatement: (text: string) => boolean,
): Sentence[] {
  if (!copiesError(span.text)) return [];
  const found: Sentence[] = [];
  let chars = 0;
  for (const sentence of splitSentences(text)) {
    if (sentence.start < span.end) continue;
    // The rest of the copied output, or the code that shows it.
    if (OUTPUT_LINE.test(sentence.text) || WHOLLY_QUOTED.test(sentence.text) || isCodeLike(sentence.text))
      continue;
    if (!isStatement(sentence.text)) break;
    if (found.length >= MAX_CONTEXT_SENTENCES || chars + sentence.text.length > MAX_CONTEXT_CHARS) break;
    found.push(sentence);
    chars += sentence.text.length;
    if (instructs(sentence.text)) return found;
  }
  return [];
}
