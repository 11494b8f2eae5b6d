/**
 * Structure of Indonesian regulations (UU, PP, Perpres, Permen, PMK, Perpol): BAB, Bagian, Paragraf,
 * Pasal, ayat, lettered (`a.`) and numbered (`1.`) points, and the Penjelasan (Umum, and Pasal demi
 * Pasal linked back to each Pasal). Built for text extracted from PDFs and OCR, with its noise:
 * page-break catchwords ("(3) Setiap...", "25. Penumpang...", "Pasal 14..."), `__` separators,
 * headings inside lines ("… rupiah). Pasal 288 (1) Setiap …"), OCR digits ("Pasa1 4", "Pasal 1 0",
 * "Pasal l0"), and references ("dimaksud dalam Pasal 106") that look like headings.
 *
 * The body is read line by line; a line is split where a heading, an ayat or a point starts inside it.
 * A `Pasal N` heading is accepted only when N follows the last Pasal (the next number, an inserted
 * "23A", or — for a heading alone on its line, as in amending laws — any later number), is not
 * introduced by a reference word and is not followed by "ayat", "huruf", lower-case text or another
 * law's name. The Penjelasan is split at `Pasal N` markers that follow one another in order.
 *
 * A regulation is found by its content (`looksLikeRegulation`), in a text or Markdown file
 * (`parseRegulation`) or in a PDF's or Word document's blocks (`parseRegulationBlocks`, which keeps
 * each block's page and the tables); its title block names it (`regulation-identity.ts`). An amending
 * regulation's Roman "Pasal I" and "Pasal II" are Pasal of their own; the Pasal its changes quote are
 * read as Pasal, and each numbered change is Pasal I's text again (docs/engine.md, "Regulations").
 */
import { regulationShortName as titleRegulation } from '@saksi/proof';
import type { Block, LegalRef, ParsedDocument } from '../../types.js';
import { identityMetadata, regulationIdentity } from './regulation-identity.js';

const PASAL_LINE = /^Pasal\s+(\d+)([A-Z]?)$/;
const ROMAN_PASAL_LINE = /^Pasal\s+([IVX]+)$/;
const BAB_LINE = /^BAB\s+([IVXLC]+)\b\s*(.*)$/;
const BAGIAN_LINE = /^Bagian\s+(Ke[a-z]+)\b\s*(.*)$/;
const PARAGRAF_LINE = /^Paragraf\s+(\d+)\b\s*(.*)$/;
const AYAT_LINE = /^\((\d+[a-z]?)\)\s*(.*)$/;
const LETTER_POINT = /^([a-z])\.\s+\S/;
const NUMBER_POINT = /^(\d{1,3})\.\s+\S/;
/** The closing formula after the last Pasal ("Agar setiap orang mengetahuinya, …"). */
const CLOSING = /Agar\s+setiap\s+orang\s+mengetahuinya/;
/** A numbered change of an amending regulation: "1. Ketentuan Pasal 5 diubah …", "2. Di antara … disisipkan …". */
const CHANGE_ITEM =
  /^\d{1,3}\.\s+(?:Ketentuan|Di\s*antara|Pasal|Judul|Penjelasan|Lampiran|BAB|Bagian|Paragraf)\b.{0,300}?\b(?:diubah|disisipkan|dihapus|ditambahkan|ditambah)\b/;
const PENJELASAN_MARK = /P\s?E\s?N\s?J\s?E\s?L\s?A\s?S\s?A\s?N(\s+A\s?T\s?A\s?S)?/;
/** A heading may jump ahead this far when it sits inside a line (an earlier heading lost to OCR). */
const INLINE_WINDOW = 3;
/** … and this far when it stands alone on its line (amending laws list only the changed Pasal). */
const LINE_WINDOW = 60;

/** The conventions of UU 12/2011 between the title block and the first Pasal. */
const DRAFTING_MARKS: readonly RegExp[] = [
  /DENGAN\s+RAHMAT\s+TUHAN\s+YANG\s+MAHA\s+ESA/i,
  /^\s*Menimbang\b/im,
  /^\s*Mengingat\b/im,
  /^\s*MEMUTUSKAN\s*:?\s*$/im,
  /^\s*Menetapkan\s*:/im,
];

/**
 * True when `text` reads like a regulation, by its content wherever it starts: five `Pasal N`
 * heading lines; or a regulation's title block (`regulation-identity.ts`: "PERATURAN … NOMOR …",
 * after a gazette header or a letterhead too) with two Pasal lines, Arabic or Roman (an amending
 * regulation's "Pasal I" and "Pasal II"); or the title block, one Pasal line and two of the drafting
 * conventions ("DENGAN RAHMAT TUHAN YANG MAHA ESA", Menimbang, Mengingat, MEMUTUSKAN, Menetapkan).
 */
export function looksLikeRegulation(text: string): boolean {
  let count = 0;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (
      (PASAL_LINE.test(trimmed) ||
        ROMAN_PASAL_LINE.test(trimmed) ||
        /^Pasa[l1I]\s+\d+\s*\(1\)\s/.test(trimmed)) &&
      ++count >= 5
    )
      return true;
  }
  if (count === 0 || regulationIdentity(text.slice(0, 6_000)) === undefined) return false;
  if (count >= 2) return true;
  const head = text.slice(0, 20_000);
  return DRAFTING_MARKS.filter((mark) => mark.test(head)).length >= 2;
}

/**
 * Removes page-break catchwords ("(3) Setiap...", "25. Penumpang...", "Pasal 292...", "Dalam...") and
 * `__` separators, and repairs OCR noise in Pasal numbers ("Pasa1 4" → "Pasal 4", "Pasal 1 0" →
 * "Pasal 10", "Pasal l0" → "Pasal 10", "Pasal · 1 1" → "Pasal 11", "Pasal 23 B (1)" → "Pasal 23B (1)").
 */
export function cleanRegulationText(text: string): string {
  return removeCatchwords(
    text
      .replace(/\r\n?/g, '\n')
      .normalize('NFC')
      .replace(/[ \t]*__[ \t]*/g, ' '),
  )
    .replace(/\bPasa[1lI](?=\s)/g, 'Pasal')
    .replace(/\bPasal\s*[·•]\s*/g, 'Pasal ')
    .replace(/\bPasal\s+([0-9lIOL]{1,3})(?=[\s,.;:)]|$)/gm, (match, digits: string) =>
      /\d/.test(digits) ? `Pasal ${digits.replace(/[lIL]/g, '1').replace(/O/g, '0')}` : match,
    )
    .replace(/\bPasal\s+(\d)\s(\d)(?=[\s,;:)]|$)/gm, 'Pasal $1$2')
    .replace(/\bPasal\s+(\d+)\s([A-Z])(?=\s+\(1\)|[ \t]*$)/gm, 'Pasal $1$2')
    .replace(/\((?:l|I)\)/g, '(1)')
    .replace(/[ \t]+/g, ' ');
}

const CATCHWORD_BEFORE_DOTS =
  /(^|\s)(?:\(\d+\)\s+|\d{1,3}\.\s+|[a-z]\.\s+)?(?:Pasal\s+\d+[A-Z]?|[\p{L}\d-]+)$/u;

/**
 * Drops each catchword: the word (or "Pasal N") before a "..." that ends a word, with an optional
 * "(n)", "n." or "a." in front. Scans from each "..." backwards (a regex over the whole text is slow).
 */
function removeCatchwords(text: string): string {
  const out: string[] = [];
  let from = 0;
  let dots = text.indexOf('...');
  while (dots >= 0) {
    const after = text[dots + 3];
    const windowStart = Math.max(from, dots - 40);
    const before = CATCHWORD_BEFORE_DOTS.exec(text.slice(windowStart, dots));
    if (before && (after === undefined || /\s/.test(after))) {
      out.push(text.slice(from, windowStart + before.index + before[1]!.length));
      from = dots + 3;
    }
    dots = text.indexOf('...', dots + 3);
  }
  out.push(text.slice(from));
  return out.join('');
}

/** Orders Pasal labels: "23" < "23A" < "23B" < "24". */
function pasalNumber(label: string): number {
  const letter = /[A-Z]$/.exec(label)?.[0];
  return Number.parseInt(label, 10) + (letter ? (letter.charCodeAt(0) - 64) / 100 : 0);
}

interface Context {
  bab?: string;
  babTitle?: string;
  bagian?: string;
  bagianTitle?: string;
  paragraf?: string;
  paragrafTitle?: string;
  pasal?: string;
}

function sectionPath(context: Context): string[] {
  const path: string[] = [];
  if (context.bab) path.push(`BAB ${context.bab}${context.babTitle ? ` ${context.babTitle}` : ''}`);
  if (context.bagian)
    path.push(`Bagian ${context.bagian}${context.bagianTitle ? ` ${context.bagianTitle}` : ''}`);
  if (context.paragraf)
    path.push(`Paragraf ${context.paragraf}${context.paragrafTitle ? ` ${context.paragrafTitle}` : ''}`);
  if (context.pasal) path.push(`Pasal ${context.pasal}`);
  return path;
}

function legalRef(context: Context, extra: Partial<LegalRef> = {}): LegalRef {
  const ref: LegalRef = {};
  if (context.bab) ref.bab = context.bab;
  if (context.bagian) ref.bagian = context.bagian;
  if (context.paragraf) ref.paragraf = context.paragraf;
  if (context.pasal) ref.pasal = context.pasal;
  return { ...ref, ...extra };
}

const REFERENCE_WORDS = new Set([
  'dalam',
  'pada',
  'dan',
  'atau',
  'dan/atau',
  'juncto',
  '_juncto_',
  'dengan',
  'oleh',
  'lihat',
  'menurut',
  'berdasarkan',
  'ketentuan',
  'antara',
  'sampai',
  'hingga',
  'di',
  'ke',
  'dari',
]);

/** State of the body scan that decides which `Pasal N`, `(n)`, `a.` and `1.` start something. */
interface ScanState {
  lastPasal: number;
  lastAyat: number;
  lastLetter: number;
  lastNumber: number;
  previousWord: string;
}

/** Whether a `Pasal <label>` at `index` of `line` (match length `length`) is the next heading. */
function isPasalHeading(
  line: string,
  index: number,
  length: number,
  label: string,
  state: ScanState,
): boolean {
  const before =
    index === 0 ? state.previousWord : (line.slice(0, index).trim().split(/\s+/).pop()?.toLowerCase() ?? '');
  if (REFERENCE_WORDS.has(before.replace(/[,;:]$/, '')) || before.endsWith(',')) return false;
  const after = line.slice(index + length).trimStart();
  const number = pasalNumber(label);
  const last = state.lastPasal;
  // After a sentence end, the very next Pasal may be followed by OCR-garbled lower-case text.
  const sentenceEnd = index === 0 || /[.:;]$/.test(before);
  const lowerAllowed = sentenceEnd && last > 0 && number === Math.floor(last) + 1;
  if (after && !/^(?:\(1\)\s|[A-Z“"(])/.test(after) && !lowerAllowed) return false;
  if (/^(?:ayat|huruf|angka|dan|atau|sampai|hingga|diubah|dihapus|disisipkan|tetap)\b/i.test(after))
    return false;
  if (/^(?:Undang|UU\b|Peraturan\s+\S+(?:\s+\S+){0,2}\s+Nomor|PP\b|Tahun\b)/.test(after)) return false;
  const standalone = after === '' && index === 0;
  if (last === 0) return standalone || number === 1;
  if (number <= last) return false;
  if (number < Math.floor(last) + 1) return true; // 23A, 23B after 23
  return number <= Math.floor(last) + (standalone ? LINE_WINDOW : INLINE_WINDOW);
}

/**
 * Where the first structural piece inside `line` starts (after position 0): a Pasal heading (with a
 * BAB/Bagian/Paragraf heading just before it), an ayat "(n)" after a sentence end, or the next
 * lettered or numbered point after ";" or ".". Returns the pieces to read in order.
 */
function splitLine(line: string, scan: ScanState, inPasal: boolean): string[] {
  let cut: { at: number } | undefined;
  const closing = CLOSING.exec(line);
  if (closing && closing.index > 0) return [line.slice(0, closing.index).trim(), line.slice(closing.index)];
  // Points and ayat inside the line continue from the one the line starts with.
  const state = { ...scan };
  const ayatStart = AYAT_LINE.exec(line);
  const letterStart = LETTER_POINT.exec(line);
  const numberStart = NUMBER_POINT.exec(line);
  if (ayatStart)
    Object.assign(state, { lastAyat: Number.parseInt(ayatStart[1]!, 10), lastLetter: 0, lastNumber: 0 });
  if (letterStart) state.lastLetter = letterStart[1]!.charCodeAt(0);
  if (numberStart) Object.assign(state, { lastNumber: Number.parseInt(numberStart[1]!, 10), lastLetter: 0 });
  for (const match of line.matchAll(/(^|\s)Pasal\s+(\d+[A-Z]?)(?=\s|$)/g)) {
    const start = match.index + match[1]!.length;
    if (!isPasalHeading(line, start, match[0].length - match[1]!.length, match[2]!, state)) continue;
    if (start === 0) {
      const rest = line.slice(match[0].length).trim();
      if (!rest) return [line];
      // A repeated heading ("Pasal 41 Pasal 41 (1) …") is read once.
      const again = new RegExp(`^Pasal\\s+${match[2]}\\s+`).exec(rest);
      return [`Pasal ${match[2]}`, again ? rest.slice(again[0].length) : rest];
    }
    cut = { at: start };
    break;
  }
  if (inPasal) {
    // Group 1 is the token that starts the piece, group 2 its number or letter.
    const patterns: [RegExp, (value: string, colon: boolean) => boolean][] = [
      [/(?<=[.;:])\s+(\((\d+)\))\s+(?=[A-Z])/g, (value) => Number.parseInt(value, 10) === state.lastAyat + 1],
      [
        /(?<=;|;\s?dan|;\s?atau|;\s?dan\/atau|[.:])\s+(([a-z])\.)\s+(?=\S)/g,
        (value, colon) =>
          (state.lastLetter > 0 && value.charCodeAt(0) === state.lastLetter + 1) || (colon && value === 'a'),
      ],
      [
        /(?<=[.;:])\s+((\d{1,3})\.)\s+(?=[A-Z])/g,
        (value, colon) =>
          (state.lastNumber > 0 && Number.parseInt(value, 10) === state.lastNumber + 1) ||
          (colon && value === '1'),
      ],
    ];
    for (const [pattern, accept] of patterns) {
      for (const match of line.matchAll(pattern)) {
        const at = match.index + match[0].indexOf(match[1]!);
        if (cut && at >= cut.at) break;
        if (at > 0 && accept(match[2]!, line[match.index - 1] === ':')) {
          cut = { at };
          break;
        }
      }
    }
  }
  if (!cut && inPasal) {
    // A BAB / Bagian / Paragraf heading at the end of a line, after a sentence end.
    const trailing =
      /(?<=[.;:])\s+((?:BAB\s+[IVXLC]+|Bagian\s+Ke[a-z]+|Paragraf\s+\d+)\s+[A-Z][^.;:()]*)$/.exec(line);
    if (trailing && trailing[1]!.split(/\s+/).length <= 16) {
      return [line.slice(0, trailing.index + 1).trim(), trailing[1]!.trim()];
    }
  }
  if (!cut) return [line];
  const head = line.slice(0, cut.at).trim();
  const rest = line.slice(cut.at).trim();
  if (rest.startsWith('Pasal')) {
    // A structural heading right before the Pasal ("Paragraf 5 Kecepatan", "Bagian Kedua …") stands alone.
    const structural = /(?:^|\s)((?:BAB\s+[IVXLC]+|Bagian\s+Ke[a-z]+|Paragraf\s+\d+)\b.*)$/.exec(head);
    if (structural && structural[1]!.split(/\s+/).length <= 14) {
      return [head.slice(0, structural.index).trim(), structural[1]!.trim(), rest].filter(Boolean);
    }
  }
  return [head, rest].filter(Boolean);
}

/** Parses a regulation; returns null when the text does not look like one. */
export function parseRegulation(raw: string, filename: string): ParsedDocument | null {
  if (!looksLikeRegulation(raw)) return null;
  return parseRegulationText(raw, filename, undefined);
}

/** A page break in the text {@link parseRegulationBlocks} reads: "\uE000p3\uE001" alone on its line. */
const PAGE_MARK = /^\uE000p(\d+)\uE001$/;
/** A table held aside, by its index: "\uE000t0\uE001" alone on its line. */
const TABLE_MARK = /^\uE000t(\d+)\uE001$/;
const ANY_MARK = /\uE000[pt]\d+\uE001/g;

/**
 * Page furniture a PDF's layout may leave between the lines of a regulation: a page number ("- 3 -",
 * "3"), a gazette's running header ("2014, No.128 2", "3 2014, No.128") and a publisher's address
 * ("www.peraturan.go.id"). Alone on its line, it is dropped so it never lands inside a sentence.
 */
const PAGE_FURNITURE =
  /^(?:[-–—]\s*\d{1,4}\s*[-–—]|\d{1,4}|(?:\d{1,4}\s+)?(?:19|20)\d\d\s*,\s*No\.\s*\d{1,5}(?:\s+\d{1,4})?|(?:https?:\/\/)?(?:www\.|jdih\.)[a-z0-9.-]+\.go\.id\S*)$/i;

/**
 * Parses the blocks of a PDF or Word document as a regulation (docs/engine.md, "Regulations"): the
 * text of its blocks, one a line, read like a text regulation, whatever is on its first line
 * (detection by content, {@link looksLikeRegulation}). Every block keeps the page its first line
 * came from; a sentence broken across lines or pages is one block (running page numbers, gazette
 * headers and publisher addresses between them dropped, a word hyphenated at a line end rejoined);
 * tables stay tables, under the Pasal they sit in. Null when the text is no regulation.
 */
export function parseRegulationBlocks(blocks: readonly Block[], filename: string): ParsedDocument | null {
  const plain = blocks.map((block) => block.text).join('\n');
  if (!looksLikeRegulation(plain)) return null;
  const tables: Block[] = [];
  const lines: string[] = [];
  let page: number | undefined;
  for (const block of blocks) {
    if (block.page !== undefined && block.page !== page) {
      page = block.page;
      lines.push(`\uE000p${page}\uE001`);
    }
    if (block.kind === 'table') {
      lines.push(`\uE000t${tables.length}\uE001`);
      tables.push(block);
      continue;
    }
    for (const line of block.text.split('\n')) if (!PAGE_FURNITURE.test(line.trim())) lines.push(line);
  }
  const parsed = parseRegulationText(joinHyphenated(lines).join('\n'), filename, tables);
  // A scanned page's OCR confidence (its lowest block's) stays with the blocks that start on it.
  const confidence = new Map<number, number>();
  for (const block of blocks)
    if (block.page !== undefined && block.ocr_confidence !== undefined)
      confidence.set(block.page, Math.min(confidence.get(block.page) ?? 1, block.ocr_confidence));
  if (parsed && confidence.size > 0)
    for (const block of parsed.blocks) {
      const own = block.page === undefined ? undefined : confidence.get(block.page);
      if (own !== undefined && block.ocr_confidence === undefined) block.ocr_confidence = own;
    }
  return parsed;
}

/**
 * Whether two halves around a hyphen repeat a stem — a reduplication or compound ("masing" /
 * "masing", "sehari" / "hari", "perundang" / "undangan") — rather than being one word broken into
 * syllables ("dise" / "rahkan", "pertanggung" / "jawaban"): they share four letters in a row, or
 * one is the other.
 */
function sharesStem(left: string, right: string): boolean {
  if (left.includes(right) || right.includes(left)) return true;
  for (let start = 0; start + 4 <= right.length; start++)
    if (left.includes(right.slice(start, start + 4))) return true;
  return false;
}

/**
 * Rejoins a word hyphenated at a line end ("penyalur-" + "an …" → "penyaluran …"), across a page
 * break too; a compound or reduplication keeps its hyphen ("Undang-" + "Undang", "masing-" +
 * "masing", "perundang-" + "undangan": the next part starts with a capital, or {@link sharesStem}).
 */
function joinHyphenated(lines: string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    let line = lines[index]!;
    for (;;) {
      const hyphen = /(\p{L}+)-$/u.exec(line.trimEnd());
      if (!hyphen) break;
      // The next line of text, past page and table marks.
      let next = index + 1;
      while (next < lines.length && /^\uE000p\d+\uE001$/.test(lines[next]!)) next++;
      const following = lines[next]?.trimStart();
      const word = following === undefined ? undefined : /^\p{L}+/u.exec(following)?.[0];
      if (following === undefined || word === undefined) break;
      const left = hyphen[1]!.toLowerCase();
      const right = word.toLowerCase();
      const compound = /^\p{Lu}/u.test(word) || sharesStem(left, right);
      // The page marks skipped stay before the joined line, so it keeps the page it started on.
      for (let skipped = index + 1; skipped < next; skipped++) out.push(lines[skipped]!);
      line = `${line.trimEnd().slice(0, compound ? undefined : -1)}${following}`;
      index = next;
    }
    out.push(line);
  }
  return out;
}

/** A line that starts an ayat, a point or a list item: "(2) …", "a. …", "3. …". */
const ITEM_START = /^(?:\(\d+[a-z]?\)|[a-z]\.|\d{1,3}\.)\s/;

/** The parts of a preamble that start a line: "Menimbang :", "MEMUTUSKAN:", "DENGAN RAHMAT …". */
const PREAMBLE_START = /^(?:Menimbang|Mengingat|Memperhatikan|MEMUTUSKAN|Menetapkan|DENGAN\s+RAHMAT)\b/;

/**
 * The lines of a PDF's block, rewrapped as a text regulation has them: one line per ayat, point or
 * list item, so a sentence (and an item's figure: "(IIUPH) sebesar" / "Rp32.237.776.417,00") the
 * layout broke over lines or pages is one line again. A line still ends where the next starts an
 * item or a part of the preamble, after a sentence or clause end (".", ";", ":"), and around a line
 * in capitals (a title block's lines).
 */
function unwrapLines(lines: readonly string[]): string {
  const capitals = (line: string) => /\p{Lu}{2}/u.test(line) && !/\p{Ll}/u.test(line);
  let out = '';
  let previous = '';
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) continue;
    const breaks =
      ITEM_START.test(line) ||
      PREAMBLE_START.test(line) ||
      /[.;:]$/.test(previous) ||
      capitals(line) ||
      capitals(previous);
    out = out === '' ? line : `${out}${breaks ? '\n' : ' '}${line}`;
    previous = line;
  }
  return out;
}

function parseRegulationText(raw: string, filename: string, tables: Block[] | undefined): ParsedDocument {
  const text = cleanRegulationText(raw);
  const mark = PENJELASAN_MARK.exec(text);
  const body = mark ? text.slice(0, mark.index) : text;
  const elucidation = mark ? text.slice(mark.index + mark[0].length) : '';
  /** The page the line being read is on (a PDF's blocks), and the page each open piece started on. */
  let page: number | undefined;
  const onPage = (): { page: number } | Record<string, never> => (page === undefined ? {} : { page });

  const blocks: Block[] = [];
  const context: Context = {};
  const state: ScanState = { lastPasal: 0, lastAyat: 0, lastLetter: 0, lastNumber: 0, previousWord: '' };
  let started = false;
  let current: { lines: string[]; legal: LegalRef; path: string[]; page?: number } | undefined;
  const open = (lines: string[], legal: LegalRef) => {
    current = { lines, legal, path: sectionPath(context), ...onPage() };
  };
  const flush = () => {
    if (current?.lines.join(' ').trim()) {
      blocks.push({
        kind: 'paragraph',
        text: (tables === undefined ? current.lines.join('\n') : unwrapLines(current.lines))
          .replace(ANY_MARK, '')
          .trim(),
        section_path: current.path,
        legal: current.legal,
        ...(current.page === undefined ? {} : { page: current.page }),
      });
    }
    current = undefined;
  };
  const heading = (title: string, level: number) => {
    flush();
    blocks.push({
      kind: 'heading',
      text: title,
      level,
      section_path: sectionPath(context).slice(0, level - 1),
      legal: legalRef(context),
      ...onPage(),
    });
  };
  let preamble: string[] = [];
  let preamblePage: number | undefined;
  const flushPreamble = () => {
    if (preamble.length === 0) return;
    blocks.push({
      kind: 'paragraph',
      text: tables === undefined ? preamble.join('\n') : unwrapLines(preamble),
      section_path: ['Pembukaan'],
      ...(preamblePage === undefined ? {} : { page: preamblePage }),
    });
    preamble = [];
  };
  let closing: string[] = [];
  /** The Roman Pasal of an amending regulation being read ("Pasal I"), whose changes quote other Pasal. */
  let amending: string | undefined;
  const startPasal = (label: string) => {
    flushPreamble();
    started = true;
    context.pasal = label;
    state.lastAyat = 0;
    state.lastLetter = 0;
    state.lastNumber = 0;
    heading(`Pasal ${label}`, 4);
    open([], legalRef(context));
  };

  const queue = body.split('\n').reverse();
  while (queue.length > 0) {
    const next = queue.pop()!.trim();
    if (!next) continue;
    if (tables !== undefined) {
      const pageMark = PAGE_MARK.exec(next);
      if (pageMark) {
        page = Number.parseInt(pageMark[1]!, 10);
        continue;
      }
      const tableMark = TABLE_MARK.exec(next);
      const table = tableMark ? tables[Number.parseInt(tableMark[1]!, 10)] : undefined;
      if (table) {
        // A table stays a table, under the Pasal (and ayat) it sits in.
        const legal = started ? (current?.legal ?? legalRef(context)) : undefined;
        const path = started ? (current?.path ?? sectionPath(context)) : ['Pembukaan'];
        flush();
        if (!started) flushPreamble();
        blocks.push({ ...table, section_path: path, ...(legal ? { legal } : {}) });
        continue;
      }
    }
    const pieces = splitLine(next, state, started && context.pasal !== undefined);
    const line = pieces[0]!;
    for (let i = pieces.length - 1; i >= 1; i--) queue.push(pieces[i]!);
    state.previousWord = line.split(/\s+/).pop()?.toLowerCase() ?? '';

    if (started && CLOSING.test(line.slice(0, 40))) {
      flush();
      closing = queue.reverse();
      closing.unshift(line);
      break;
    }
    const pasal = PASAL_LINE.exec(line);
    if (
      pasal &&
      isPasalHeading(line, 0, line.length, `${pasal[1]}${pasal[2]}`, { ...state, previousWord: '' })
    ) {
      const label = `${pasal[1]}${pasal[2]}`;
      state.lastPasal = pasalNumber(label);
      startPasal(label);
      continue;
    }
    // OCR letters for digits in a heading alone on its line ("Pasal 2T"), when they give the next number.
    const garbled = /^Pasal\s+(\d[\dTtSs]{0,2})$/.exec(line);
    if (garbled && state.lastPasal > 0) {
      const label = garbled[1]!.replace(/[Tt]/g, '7').replace(/[Ss]/g, '5');
      if (Number.parseInt(label, 10) === Math.floor(state.lastPasal) + 1) {
        state.lastPasal = pasalNumber(label);
        startPasal(label);
        continue;
      }
    }
    // Amending laws: "Pasal I" (the changes) and "Pasal II" (entry into force).
    const roman = ROMAN_PASAL_LINE.exec(line);
    if (roman && (started || preamble.length > 0)) {
      amending = roman[1]!;
      startPasal(roman[1]!);
      continue;
    }
    // Inside an amending Pasal, a numbered change ("2. Ketentuan Pasal 5 diubah …", "3. Di antara
    // Pasal 7 dan Pasal 8 disisipkan …") is the amending Pasal's own text again, not the end of the
    // Pasal the previous change quoted.
    if (amending !== undefined && context.pasal !== amending && CHANGE_ITEM.test(line)) {
      flush();
      context.pasal = amending;
      open([line], legalRef(context));
      continue;
    }
    const bab = BAB_LINE.exec(line);
    if (bab && (started || preamble.length > 0)) {
      flushPreamble();
      context.bab = bab[1]!;
      context.babTitle = bab[2]!.trim();
      delete context.bagian;
      delete context.bagianTitle;
      delete context.paragraf;
      delete context.paragrafTitle;
      delete context.pasal;
      heading(`BAB ${context.bab}${context.babTitle ? ` ${context.babTitle}` : ''}`, 1);
      continue;
    }
    const bagian = BAGIAN_LINE.exec(line);
    if (bagian && started) {
      context.bagian = bagian[1]!;
      context.bagianTitle = bagian[2]!.replace(/\s*Paragraf\s+\d+.*$/, '').trim();
      delete context.paragraf;
      delete context.paragrafTitle;
      delete context.pasal;
      heading(`Bagian ${context.bagian}${context.bagianTitle ? ` ${context.bagianTitle}` : ''}`, 2);
      const paragrafInside = /Paragraf\s+(\d+)\s*(.*)$/.exec(bagian[2]!);
      if (paragrafInside) {
        context.paragraf = paragrafInside[1]!;
        context.paragrafTitle = paragrafInside[2]!.trim();
        heading(`Paragraf ${context.paragraf}${context.paragrafTitle ? ` ${context.paragrafTitle}` : ''}`, 3);
      }
      continue;
    }
    const paragraf = PARAGRAF_LINE.exec(line);
    if (paragraf && started) {
      context.paragraf = paragraf[1]!;
      context.paragrafTitle = paragraf[2]!.trim();
      delete context.pasal;
      heading(`Paragraf ${context.paragraf}${context.paragrafTitle ? ` ${context.paragrafTitle}` : ''}`, 3);
      continue;
    }
    if (!started) {
      // A PDF's preamble is one block per part (the title block, "DENGAN RAHMAT …", Menimbang,
      // Mengingat, MEMUTUSKAN …), each with the page it starts on: a part is read on its own.
      if (tables !== undefined && PREAMBLE_START.test(line)) flushPreamble();
      if (preamble.length === 0) preamblePage = page;
      preamble.push(line);
      continue;
    }
    const ayat = AYAT_LINE.exec(line);
    if (ayat && context.pasal && Number.parseInt(ayat[1]!, 10) <= state.lastAyat + 2) {
      flush();
      state.lastAyat = Number.parseInt(ayat[1]!, 10);
      state.lastLetter = 0;
      state.lastNumber = 0;
      open([line], legalRef(context, { ayat: ayat[1]! }));
      continue;
    }
    const letter = LETTER_POINT.exec(line);
    if (letter) state.lastLetter = letter[1]!.charCodeAt(0);
    const number = NUMBER_POINT.exec(line);
    if (number) {
      state.lastNumber = Number.parseInt(number[1]!, 10);
      state.lastLetter = 0;
    }
    if (!current) open([], legalRef(context));
    current!.lines.push(line);
  }
  flush();
  flushPreamble();
  blocks.push(...closingBlocks(closing, tables, page));

  if (elucidation.trim()) {
    const bodyPasal = blocks.filter((b) => b.kind === 'heading' && b.level === 4).map((b) => b.legal!.pasal!);
    const marks = tables === undefined ? [] : [...body.matchAll(/\uE000p(\d+)\uE001/g)];
    const lastPage = marks.length > 0 ? Number.parseInt(marks.at(-1)![1]!, 10) : undefined;
    blocks.push(...parseElucidation(elucidation, bodyPasal, tables === undefined ? undefined : lastPage));
  }
  // The title block ("PERATURAN MENTERI KEUANGAN … NOMOR 186/PMK.07/2011 TENTANG …", wherever it
  // starts and however many lines it takes), else the first line with a number and "TENTANG".
  const identity = regulationIdentity(raw.replace(ANY_MARK, ''));
  const titleLine = (raw.match(
    /(?:UNDANG-UNDANG|PERATURAN)[^\n]{0,150}?NOMOR[^\n]{0,200}?TENTANG[^\n]{0,200}/,
  ) ?? raw.match(/(?:UNDANG-UNDANG|PERATURAN)[^\n]{0,200}?TENTANG[^\n]{0,200}/))?.[0];
  return {
    title: identity?.title ?? (titleLine ? titleLine.replace(/\s+/g, ' ').trim() : filename),
    mime: 'text/markdown',
    metadata: identity ? identityMetadata(identity) : {},
    blocks: blocks.filter((block) => block.text.trim().length > 0),
  };
}

/**
 * The closing after the last Pasal ("Agar setiap orang mengetahuinya, …", the signatures) and what
 * follows it: one "Penutup" block, or — for a PDF's blocks (`tables` given) — one block per page,
 * with its tables, and a "LAMPIRAN" (annex) from its heading on under "Lampiran".
 */
function closingBlocks(
  lines: readonly string[],
  tables: Block[] | undefined,
  startPage: number | undefined,
): Block[] {
  if (tables === undefined) {
    const text = lines
      .map((line) => line.trim())
      .filter(Boolean)
      .join('\n');
    return text ? [{ kind: 'paragraph', text, section_path: ['Penutup'] }] : [];
  }
  const blocks: Block[] = [];
  let page = startPage;
  let section = 'Penutup';
  let text: string[] = [];
  const flush = () => {
    if (text.length > 0)
      blocks.push({
        kind: 'paragraph',
        text: text.join('\n'),
        section_path: [section],
        ...(page === undefined ? {} : { page }),
      });
    text = [];
  };
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) continue;
    const pageMark = PAGE_MARK.exec(line);
    const tableMark = TABLE_MARK.exec(line);
    if (pageMark) {
      flush();
      page = Number.parseInt(pageMark[1]!, 10);
    } else if (tableMark) {
      flush();
      const table = tables[Number.parseInt(tableMark[1]!, 10)];
      if (table) blocks.push({ ...table, section_path: [section] });
    } else {
      if (/^LAMPIRAN\b/.test(line) && section !== 'Lampiran') {
        flush();
        section = 'Lampiran';
      }
      text.push(line);
    }
  }
  flush();
  return blocks;
}

/**
 * The Penjelasan: "I. UMUM" as one block, then one block per Pasal (per ayat where it says "Ayat (n)"),
 * split at the `Pasal N` markers that name the body's Pasal in order.
 */
function parseElucidation(text: string, bodyPasal: string[], startPage: number | undefined): Block[] {
  const blocks: Block[] = [];
  // A PDF's page marks stay in the flattened text until each block's page is read from them.
  const flat = text.replace(/\s+/g, ' ').trim();
  const pageAt = (offset: number): { page: number } | Record<string, never> => {
    let page = startPage;
    for (const mark of flat.slice(0, offset).matchAll(/\uE000p(\d+)\uE001/g))
      page = Number.parseInt(mark[1]!, 10);
    return page === undefined ? {} : { page };
  };
  const unmarked = (value: string) => value.replace(ANY_MARK, ' ').replace(/ {2,}/g, ' ').trim();
  const pasalDemiPasal = /II\.\s*PASAL\s+DEMI\s+PASAL/i.exec(flat);
  const umum = /\bI\.\s*UMUM\b/.exec(flat);
  const general = (pasalDemiPasal ? flat.slice(0, pasalDemiPasal.index) : flat).slice(
    umum && (!pasalDemiPasal || umum.index < pasalDemiPasal.index) ? umum.index : 0,
  );
  const rest = pasalDemiPasal ? flat.slice(pasalDemiPasal.index + pasalDemiPasal[0].length) : '';
  if (unmarked(general)) {
    const where = pageAt(umum && (!pasalDemiPasal || umum.index < pasalDemiPasal.index) ? umum.index : 0);
    blocks.push({
      kind: 'heading',
      text: 'Penjelasan Umum',
      level: 1,
      section_path: [],
      legal: { penjelasan: true },
      ...where,
    });
    blocks.push({
      kind: 'paragraph',
      text: unmarked(general),
      section_path: ['Penjelasan', 'Umum'],
      legal: { penjelasan: true },
      ...where,
    });
  }
  const restStart = pasalDemiPasal ? pasalDemiPasal.index + pasalDemiPasal[0].length : flat.length;
  // Pasal markers in order: "Pasal 1 Cukup jelas. Pasal 2 Huruf a …"
  const markers: { index: number; label: string; length: number }[] = [];
  let next = 0;
  for (const match of rest.matchAll(
    /\bPasal\s+(\d+[A-Z]?|[IVX]+)\s+(?=Ayat|Cukup|Huruf|Angka|Yang|Dalam|Ketentuan|[A-Z“"(])/g,
  )) {
    // The marker must name one of the next few body Pasal (a skipped one had no marker to find).
    const ahead = bodyPasal.slice(next, next + 4).indexOf(match[1]!);
    if (ahead >= 0) {
      markers.push({ index: match.index, label: match[1]!, length: match[0].length });
      next += ahead + 1;
    }
  }
  markers.forEach((marker, i) => {
    const end = i + 1 < markers.length ? markers[i + 1]!.index : rest.length;
    const contentStart = marker.index + marker.length;
    const content = rest.slice(contentStart, end);
    if (!unmarked(content)) return;
    // "Ayat (1) … Ayat (2) …" inside a Pasal's elucidation: one block per ayat.
    let offset = restStart + contentStart;
    for (const part of content.split(/(?=\bAyat\s+\(\d+[a-z]?\)\s)/)) {
      const ayat = /^Ayat\s+\((\d+[a-z]?)\)/.exec(part)?.[1];
      const where = pageAt(offset);
      offset += part.length;
      if (!unmarked(part)) continue;
      blocks.push({
        kind: 'paragraph',
        text: `Penjelasan Pasal ${marker.label}: ${unmarked(part)}`,
        section_path: ['Penjelasan', 'Pasal demi Pasal', `Pasal ${marker.label}`],
        legal: { pasal: marker.label, ...(ayat ? { ayat } : {}), penjelasan: true },
        ...where,
      });
    }
  });
  return blocks;
}

/** A lettered (`huruf`, "a.") or numbered (`angka`, "1.") point of a Pasal or ayat. */
export interface RegulationPoint {
  kind: 'huruf' | 'angka';
  label: string;
  text: string;
}

/** An ayat "(n)" of a Pasal, with its points. */
export interface RegulationAyat {
  number: string;
  text: string;
  points: RegulationPoint[];
}

/** One Pasal of the body, with where it sits and its elucidation. */
export interface RegulationPasal {
  label: string;
  bab?: string;
  bagian?: string;
  paragraf?: string;
  section_path: string[];
  /** The whole body text of the Pasal (without its heading). */
  text: string;
  ayat: RegulationAyat[];
  /** Points directly under the Pasal (a Pasal without ayat, e.g. Pasal 1's definitions). */
  points: RegulationPoint[];
  /** The Pasal's text in the Penjelasan Pasal demi Pasal, when there is one. */
  elucidation?: string;
}

/** The structure of a parsed regulation: BAB headings, Pasal in order, and the Penjelasan Umum. */
export interface RegulationOutline {
  bab: { number: string; title: string }[];
  pasal: RegulationPasal[];
  penjelasanUmum?: string;
}

const POINT_LINE = /^(?:([a-z])|(\d{1,3}))\.\s+/;

function pointsOf(lines: string[]): RegulationPoint[] {
  const points: RegulationPoint[] = [];
  for (const line of lines) {
    const match = POINT_LINE.exec(line);
    if (match) {
      points.push({ kind: match[1] ? 'huruf' : 'angka', label: (match[1] ?? match[2])!, text: line });
    } else if (points.length > 0 && !AYAT_LINE.test(line)) {
      points[points.length - 1]!.text += `\n${line}`;
    }
  }
  return points;
}

/**
 * The outline of a document from {@link parseRegulation}: its BAB, its body Pasal in order (with
 * ayat, lettered and numbered points, and the linked elucidation) and the Penjelasan Umum.
 *
 * @example
 * const outline = regulationOutline(parseRegulation(text, 'uu-22-2009.md')!);
 * outline.pasal.find((p) => p.label === '287')?.ayat.length // 6
 */
export function regulationOutline(document: ParsedDocument): RegulationOutline {
  const outline: RegulationOutline = { bab: [], pasal: [] };
  const byLabel = new Map<string, RegulationPasal>();
  const elucidations = new Map<string, string[]>();
  const general: string[] = [];
  for (const block of document.blocks) {
    const legal = block.legal;
    if (legal?.penjelasan) {
      if (legal.pasal === undefined) {
        if (block.kind === 'paragraph') general.push(block.text);
      } else {
        const parts = elucidations.get(legal.pasal) ?? [];
        parts.push(block.text.replace(/^Penjelasan Pasal \S+: /, ''));
        elucidations.set(legal.pasal, parts);
      }
      continue;
    }
    if (block.kind === 'heading') {
      const bab = /^BAB\s+([IVXLC]+)\s*(.*)$/.exec(block.text);
      if (bab && block.level === 1) outline.bab.push({ number: bab[1]!, title: bab[2]! });
      if (block.level === 4 && legal?.pasal !== undefined && !byLabel.has(legal.pasal)) {
        const pasal: RegulationPasal = {
          label: legal.pasal,
          section_path: [...block.section_path, block.text],
          text: '',
          ayat: [],
          points: [],
        };
        if (legal.bab) pasal.bab = legal.bab;
        if (legal.bagian) pasal.bagian = legal.bagian;
        if (legal.paragraf) pasal.paragraf = legal.paragraf;
        byLabel.set(legal.pasal, pasal);
        outline.pasal.push(pasal);
      }
      continue;
    }
    const pasal = legal?.pasal === undefined ? undefined : byLabel.get(legal.pasal);
    if (!pasal) continue;
    pasal.text = pasal.text ? `${pasal.text}\n${block.text}` : block.text;
    const lines = block.text.split('\n');
    if (legal?.ayat !== undefined) {
      pasal.ayat.push({ number: legal.ayat, text: block.text, points: pointsOf(lines) });
    } else {
      pasal.points.push(...pointsOf(lines));
    }
  }
  for (const pasal of outline.pasal) {
    const parts = elucidations.get(pasal.label);
    if (parts) pasal.elucidation = parts.join('\n');
  }
  if (general.length > 0) outline.penjelasanUmum = general.join('\n');
  return outline;
}

/**
 * A short name for a regulation from its title (or file name): "UU 22/2009", "PP 55/2012",
 * "PMK 201/PMK.07/2020" (a ministry's numbering, kept as printed). Undefined when no kind, number
 * and year are found.
 * The title is read by the proof package's `regulationShortName`, the one a verifier recomputes
 * citation labels with; a certificate's labels never use the file name, which it does not carry
 * (docs/certificate.md, "Citation labels").
 *
 * @example
 * regulationShortName('UU No. 22 Tahun 2009 tentang Lalu Lintas dan Angkutan Jalan') // 'UU 22/2009'
 * regulationShortName('UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 15 TAHUN 2OI7 TENTANG …') // 'UU 15/2017'
 * regulationShortName('', 'uu-2015-3.md') // 'UU 3/2015'
 */
export function regulationShortName(title: string, filename?: string): string | undefined {
  return (
    titleRegulation(title) ??
    (filename === undefined ? undefined : titleRegulation(filename.replace(/\.[a-z]+$/i, '')))
  );
}

/**
 * How a legal citation reads: "Pasal 287 ayat (2) UU 22/2009", "Penjelasan Pasal 287 UU 22/2009",
 * "Pasal 1 UU 22/2009", and the general elucidation "Penjelasan Umum UU 12/2018" (a chunk of the
 * Penjelasan under its "Umum" heading). Without a short name the document title is used; without a
 * Pasal (and outside the Penjelasan Umum), undefined.
 */
export function legalCitationLabel(
  legal: Pick<LegalRef, 'pasal' | 'ayat' | 'penjelasan'> | null | undefined,
  regulation: string | undefined,
  sectionPath: readonly string[] = [],
): string | undefined {
  if (!legal?.pasal) {
    const general = legal?.penjelasan === true && /^(?:[IV]+\.\s*)?Umum$/iu.test(sectionPath.at(-1) ?? '');
    if (!general) return undefined;
    return regulation ? `Penjelasan Umum ${regulation}` : 'Penjelasan Umum';
  }
  const where = `${legal.penjelasan ? 'Penjelasan ' : ''}Pasal ${legal.pasal}${legal.ayat ? ` ayat (${legal.ayat})` : ''}`;
  return regulation ? `${where} ${regulation}` : where;
}
