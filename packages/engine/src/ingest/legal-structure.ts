/**
 * Structure of Indonesian regulations (UU, PP, Perpres, Permen, PMK): BAB, Bagian, Paragraf, Pasal,
 * ayat, and the Penjelasan (Umum, and Pasal demi Pasal linked back to each Pasal). Built for text
 * extracted from PDFs, with its noise: page-break catchwords ("(3) Setiap...", "Pasal 14..."), `__`
 * separators, headings inside lines, and references ("dimaksud dalam Pasal 106") that look like headings.
 *
 * The body is read line by line; a `Pasal N` heading is accepted only when N follows the last Pasal
 * (so cross-references never start a Pasal), and ayat `(n)` lines start a new block. The Penjelasan is
 * split at `Pasal N` markers that follow one another in order.
 */
import type { Block, LegalRef, ParsedDocument } from '../types.js';

const PASAL_LINE = /^Pasal\s+(\d+)([A-Z]?)$/;
const BAB_LINE = /^BAB\s+([IVXLC]+)\b\s*(.*)$/;
const BAGIAN_LINE = /^Bagian\s+(Ke[a-z]+)\b\s*(.*)$/;
const PARAGRAF_LINE = /^Paragraf\s+(\d+)\b\s*(.*)$/;
const AYAT_LINE = /^\((\d+[a-z]?)\)\s*(.*)$/;
const PENJELASAN_MARK = /P\s?E\s?N\s?J\s?E\s?L\s?A\s?S\s?A\s?N(\s+A\s?T\s?A\s?S)?/;

/** True when `text` reads like a regulation: several `Pasal N` heading lines. */
export function looksLikeRegulation(text: string): boolean {
  let count = 0;
  for (const line of text.split('\n')) {
    if (PASAL_LINE.test(line.trim()) && ++count >= 5) return true;
  }
  return false;
}

/** Removes page-break catchwords ("(3) Setiap...", "Pasal 292...", "Dalam...") and `__` separators. */
export function cleanRegulationText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .normalize('NFC')
    .replace(/[ \t]*__[ \t]*/g, ' ')
    .replace(/(^|\s)(?:\(\d+\)\s+)?(?:Pasal\s+\d+[A-Z]?|[\p{L}\d-]+)\.\.\.(?=\s|$)/gmu, '$1')
    .replace(/[ \t]+/g, ' ');
}

function pasalNumber(label: string): number {
  return Number.parseInt(label, 10) + (/[A-Z]$/.test(label) ? 0.5 : 0);
}

interface Context {
  bab?: string;
  babTitle?: string;
  bagian?: string;
  bagianTitle?: string;
  paragraf?: string;
  pasal?: string;
}

function sectionPath(context: Context): string[] {
  const path: string[] = [];
  if (context.bab) path.push(`BAB ${context.bab}${context.babTitle ? ` ${context.babTitle}` : ''}`);
  if (context.bagian)
    path.push(`Bagian ${context.bagian}${context.bagianTitle ? ` ${context.bagianTitle}` : ''}`);
  if (context.paragraf) path.push(`Paragraf ${context.paragraf}`);
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
  'juncto',
  '_juncto_',
  'dengan',
  'oleh',
  'lihat',
  'menurut',
  'berdasarkan',
]);

/**
 * Splits a body line holding headings inside it ("… rupiah). Pasal 288 (1) Setiap …", "Paragraf 5
 * Kecepatan Pasal 115 Pengemudi …"). Only the Pasal that comes next in order counts as a heading, and
 * never one introduced by a reference word ("dimaksud dalam Pasal 106").
 */
function splitInlineHeadings(line: string, nextPasal: () => number): string[] {
  const out: string[] = [];
  let rest = line;
  for (;;) {
    let found: RegExpExecArray | undefined;
    for (const match of rest.matchAll(/(^|\s)Pasal\s+(\d+[A-Z]?)\s+(?=\(1\)|[A-Z])/g)) {
      if (match.index === 0) continue;
      const before = rest.slice(0, match.index).trim().split(/\s+/).pop()?.toLowerCase() ?? '';
      if (
        pasalNumber(match[2]!) === nextPasal() &&
        !REFERENCE_WORDS.has(before.replace(/[,]$/, '')) &&
        !before.endsWith(',')
      ) {
        found = match as RegExpExecArray;
        break;
      }
    }
    if (!found) break;
    const head = rest.slice(0, found.index).trim();
    // A structural heading right before the Pasal ("Paragraf 5 Kecepatan", "Bagian Kedua …") stands alone.
    const structural = /(?:^|\s)((?:BAB\s+[IVXLC]+|Bagian\s+Ke[a-z]+|Paragraf\s+\d+)\b.*)$/.exec(head);
    if (structural && structural[1]!.split(/\s+/).length <= 14) {
      out.push(head.slice(0, structural.index).trim(), structural[1]!.trim());
    } else {
      out.push(head);
    }
    out.push(`Pasal ${found[2]}`);
    rest = rest.slice(found.index + found[0].length);
    // Only one Pasal per pass: nextPasal() changes once the caller has seen this heading.
    break;
  }
  out.push(rest.trim());
  return out.filter(Boolean);
}

/** Parses a regulation; returns null when the text does not look like one. */
export function parseRegulation(raw: string, filename: string): ParsedDocument | null {
  if (!looksLikeRegulation(raw)) return null;
  const text = cleanRegulationText(raw);
  const mark = PENJELASAN_MARK.exec(text);
  const body = mark ? text.slice(0, mark.index) : text;
  const elucidation = mark ? text.slice(mark.index + mark[0].length) : '';

  const blocks: Block[] = [];
  const context: Context = {};
  let lastPasal = 0;
  let current: { lines: string[]; legal: LegalRef; path: string[] } | undefined;
  const flush = () => {
    if (current?.lines.join(' ').trim()) {
      blocks.push({
        kind: 'paragraph',
        text: current.lines.join('\n').trim(),
        section_path: current.path,
        legal: current.legal,
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
    });
  };
  let preamble: string[] = [];

  const queue = body.split('\n').reverse();
  while (queue.length > 0) {
    const next = queue.pop()!.trim();
    if (!next) continue;
    const pieces = splitInlineHeadings(next, () => Math.floor(lastPasal) + 1);
    const line = pieces[0]!;
    for (let i = pieces.length - 1; i >= 1; i--) queue.push(pieces[i]!);
    const pasal = PASAL_LINE.exec(line);
    if (pasal) {
      const label = `${pasal[1]}${pasal[2]}`;
      const number = pasalNumber(label);
      // The first Pasal may have any number (an excerpt of a law); after it, they follow in order.
      if (lastPasal === 0 || (number > lastPasal && number <= lastPasal + 5)) {
        if (preamble.length > 0) {
          blocks.push({ kind: 'paragraph', text: preamble.join('\n'), section_path: ['Pembukaan'] });
          preamble = [];
        }
        lastPasal = number;
        context.pasal = label;
        heading(`Pasal ${label}`, 4);
        current = { lines: [], legal: legalRef(context), path: sectionPath(context) };
        continue;
      }
    }
    const bab = BAB_LINE.exec(line);
    if ((bab && lastPasal > 0) || (bab && preamble.length > 0)) {
      context.bab = bab![1]!;
      context.babTitle = bab![2]!.trim();
      delete context.bagian;
      delete context.bagianTitle;
      delete context.paragraf;
      delete context.pasal;
      heading(`BAB ${context.bab}${context.babTitle ? ` ${context.babTitle}` : ''}`, 1);
      continue;
    }
    const bagian = BAGIAN_LINE.exec(line);
    if (bagian && lastPasal > 0) {
      context.bagian = bagian[1]!;
      context.bagianTitle = bagian[2]!.replace(/\s*Paragraf\s+\d+.*$/, '').trim();
      delete context.paragraf;
      delete context.pasal;
      heading(`Bagian ${context.bagian}${context.bagianTitle ? ` ${context.bagianTitle}` : ''}`, 2);
      const paragrafInside = /Paragraf\s+(\d+)\s*(.*)$/.exec(bagian[2]!);
      if (paragrafInside) {
        context.paragraf = paragrafInside[1]!;
        heading(`Paragraf ${context.paragraf}${paragrafInside[2] ? ` ${paragrafInside[2].trim()}` : ''}`, 3);
      }
      continue;
    }
    const paragraf = PARAGRAF_LINE.exec(line);
    if (paragraf && lastPasal > 0) {
      context.paragraf = paragraf[1]!;
      delete context.pasal;
      heading(`Paragraf ${context.paragraf}${paragraf[2] ? ` ${paragraf[2].trim()}` : ''}`, 3);
      continue;
    }
    if (lastPasal === 0) {
      preamble.push(line);
      continue;
    }
    const ayat = AYAT_LINE.exec(line);
    if (ayat && context.pasal) {
      flush();
      current = { lines: [line], legal: legalRef(context, { ayat: ayat[1]! }), path: sectionPath(context) };
      continue;
    }
    if (!current) current = { lines: [], legal: legalRef(context), path: sectionPath(context) };
    current.lines.push(line);
  }
  flush();
  if (preamble.length > 0)
    blocks.push({ kind: 'paragraph', text: preamble.join('\n'), section_path: ['Pembukaan'] });

  if (elucidation.trim()) blocks.push(...parseElucidation(elucidation));
  const titleLine = raw.match(/UNDANG-UNDANG[^\n]{0,200}?TENTANG[^\n]{0,200}/)?.[0];
  return {
    title: titleLine ? titleLine.replace(/\s+/g, ' ').trim() : filename,
    mime: 'text/markdown',
    metadata: {},
    blocks: blocks.filter((block) => block.text.trim().length > 0),
  };
}

function parseElucidation(text: string): Block[] {
  const blocks: Block[] = [];
  const flat = text.replace(/\s+/g, ' ').trim();
  const pasalDemiPasal = /II\.\s*PASAL\s+DEMI\s+PASAL/i.exec(flat);
  const general = pasalDemiPasal ? flat.slice(0, pasalDemiPasal.index) : flat;
  const rest = pasalDemiPasal ? flat.slice(pasalDemiPasal.index + pasalDemiPasal[0].length) : '';
  if (general.trim()) {
    blocks.push({
      kind: 'heading',
      text: 'Penjelasan Umum',
      level: 1,
      section_path: [],
      legal: { penjelasan: true },
    });
    blocks.push({
      kind: 'paragraph',
      text: general.trim(),
      section_path: ['Penjelasan', 'Umum'],
      legal: { penjelasan: true },
    });
  }
  // Pasal markers in order: "Pasal 1 Cukup jelas. Pasal 2 Huruf a …"
  const markers: { index: number; label: string; length: number }[] = [];
  let expected = 1;
  for (const match of rest.matchAll(
    /\bPasal\s+(\d+[A-Z]?)\s+(?=Ayat|Cukup|Huruf|Angka|Yang|Dalam|Ketentuan|[A-Z“"(])/g,
  )) {
    const number = pasalNumber(match[1]!);
    if (number >= expected && number <= expected + 3) {
      markers.push({ index: match.index, label: match[1]!, length: match[0].length });
      expected = Math.floor(number) + 1;
    }
  }
  markers.forEach((marker, i) => {
    const end = i + 1 < markers.length ? markers[i + 1]!.index : rest.length;
    const content = rest.slice(marker.index + marker.length, end).trim();
    if (!content) return;
    // "Ayat (1) … Ayat (2) …" inside a Pasal's elucidation: one block per ayat.
    const parts = content.split(/(?=\bAyat\s+\(\d+[a-z]?\)\s)/);
    for (const part of parts) {
      const ayat = /^Ayat\s+\((\d+[a-z]?)\)/.exec(part)?.[1];
      blocks.push({
        kind: 'paragraph',
        text: `Penjelasan Pasal ${marker.label}${ayat ? '' : ''}: ${part.trim()}`,
        section_path: ['Penjelasan', 'Pasal demi Pasal', `Pasal ${marker.label}`],
        legal: { pasal: marker.label, ...(ayat ? { ayat } : {}), penjelasan: true },
      });
    }
  });
  return blocks;
}
