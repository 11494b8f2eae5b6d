/**
 * Which regulation a text is (docs/engine.md, "Regulations"): its title block as the UU 12/2011
 * drafting conventions lay it out — the kind ("PERATURAN MENTERI KEUANGAN REPUBLIK INDONESIA"), the
 * number ("NOMOR 186/PMK.07/2011", "NOMOR 22 TAHUN 2009"), "TENTANG" and the subject, in capitals,
 * before "DENGAN RAHMAT TUHAN YANG MAHA ESA" — wherever it starts: a gazette header ("BERITA NEGARA
 * REPUBLIK INDONESIA No.128, 2014 …"), "SALINAN" or a letterhead may come first, and a PDF breaks
 * the block over several lines.
 *
 * The identity becomes the document's title (so its citations are labelled "Pasal 2 ayat (1) PMK
 * 186/PMK.07/2011", never by a gazette header or a file name) and its metadata: kind, number, year
 * and, for a budget regulation, the fiscal year its title names ("TAHUN ANGGARAN 2011").
 */

/** What a regulation's title block says about it. */
export interface RegulationIdentity {
  /** The title block on one line: "PERATURAN MENTERI KEUANGAN … NOMOR 186/PMK.07/2011 TENTANG …". */
  title: string;
  /** The kind's short name, as citation labels use it: UU, Perppu, PP, Perpres, PMK, Permen, Perpol, Perda. */
  type: string;
  /** The number as printed: "186/PMK.07/2011" (a ministry's numbering), or "22" (with `year`). */
  number: string;
  /** The year the regulation was made: "TAHUN 2009", or the last part of "186/PMK.07/2011". */
  year: number;
  /** The fiscal year its title names ("… TAHUN ANGGARAN 2011"), for a budget regulation. */
  fiscalYear?: number;
}

/** The kinds a title block opens with (capitals, as drafted), most specific first, and their short names. */
const KINDS: readonly (readonly [RegExp, string])[] = [
  [/^UNDANG-\s?UNDANG\b/, 'UU'],
  [/^PERATURAN\s+PEMERINTAH\s+PENGGANTI\s+UNDANG-\s?UNDANG\b/, 'Perppu'],
  [/^PERATURAN\s+PEMERINTAH\b/, 'PP'],
  [/^PERATURAN\s+PRESIDEN\b/, 'Perpres'],
  [/^PERATURAN\s+MENTERI\s+KEUANGAN\b/, 'PMK'],
  [/^PERATURAN\s+KEPOLISIAN\b/, 'Perpol'],
  [/^PERATURAN\s+MENTERI\b/, 'Permen'],
  [/^PERATURAN\s+DAERAH\b/, 'Perda'],
];

/** The number line: "NOMOR 186/PMK.07/2011", "NOMOR 22 TAHUN 2009", "NOMOR : 5 TAHUN 2O2O". */
const NUMBER =
  /\bNOMOR\s*:?\s*(\d{1,4}(?:\s*\/\s*[A-Z][A-Z0-9.-]*)*\s*\/\s*(?:19|20)\d\d(?:\d{4})?|\d{1,4})(?:\s+TAHUN\s+((?:19|20)\d\d))?/;
const FISCAL_YEAR = /\bTAHUN\s+ANGGARAN\s+((?:19|20)\d\d)\b/;
/** Where the title block ends: the opening formula, the enacting official or the considerations. */
const BLOCK_END = /^(?:DENGAN\s+RAHMAT|Menimbang\b|MENIMBANG\b|PRESIDEN\s+REPUBLIK|MENTERI\s+[A-Z ]+,\s*$)/;
/** How far into the text the title block may start, in lines (a gazette header and a letterhead first). */
const SEARCH_LINES = 40;
const MAX_TITLE_LINES = 14;

/**
 * The identity of the regulation whose title block opens `text` (within its first
 * {@link SEARCH_LINES} lines), or undefined when there is none: no kind in capitals at a line's
 * start followed by a number within the next lines.
 *
 * @example
 * regulationIdentity('BERITA NEGARA REPUBLIK INDONESIA\nPERATURAN MENTERI KEUANGAN REPUBLIK INDONESIA\nNOMOR 16/PMK.07/2014\nTENTANG\nPERKIRAAN ALOKASI … TAHUN ANGGARAN 2013')
 * // { type: 'PMK', number: '16/PMK.07/2014', year: 2014, fiscalYear: 2013, title: 'PERATURAN MENTERI KEUANGAN …' }
 */
export function regulationIdentity(text: string): RegulationIdentity | undefined {
  const lines = text
    .split('\n', SEARCH_LINES + MAX_TITLE_LINES)
    // Markdown and bold markers before a title line ("# UNDANG-UNDANG …") are no part of it.
    .map((line) => line.replace(/\s+/g, ' ').replace(/^[#>*_ ]+|[*_ ]+$/g, ''))
    .filter(Boolean);
  for (let start = 0; start < Math.min(lines.length, SEARCH_LINES); start++) {
    const first = lines[start]!;
    const kind = KINDS.find(([pattern]) => pattern.test(first));
    if (!kind) continue;
    const block: string[] = [];
    for (let index = start; index < lines.length && block.length < MAX_TITLE_LINES; index++) {
      const line = lines[index]!;
      if (index > start && BLOCK_END.test(line)) break;
      // The block is in capitals; a line with lower-case words is the text after it.
      if (index > start && /\p{Ll}{3,}/u.test(line.replace(/\b(?:dan|atau|serta)\b/g, ''))) break;
      block.push(line);
    }
    const title = block.join(' ');
    const number = NUMBER.exec(title.slice(0, 300));
    // The number belongs to this kind: it comes before "TENTANG", not in the subject after it.
    const about = title.search(/\bTENTANG\b/);
    if (!number || (about >= 0 && number.index > about)) continue;
    const identity = identityOf(kind[1], number[1]!, number[2]);
    if (!identity) continue;
    const fiscal = FISCAL_YEAR.exec(about >= 0 ? title.slice(about) : title);
    // The number as read, in place of a scan's ("NOMOR 16/PMK.07/20142013" → "NOMOR 16/PMK.07/2014").
    const printed = `NOMOR ${identity.number}${number[2] ? ` TAHUN ${identity.year}` : ''}`;
    return {
      title: `${title.slice(0, number.index)}${printed}${title.slice(number.index + number[0].length)}`,
      ...identity,
      ...(fiscal ? { fiscalYear: Number.parseInt(fiscal[1]!, 10) } : {}),
    };
  }
  return undefined;
}

function identityOf(
  type: string,
  printed: string,
  tahun: string | undefined,
): Pick<RegulationIdentity, 'type' | 'number' | 'year'> | undefined {
  const number = printed.replace(/\s+/g, '');
  if (number.includes('/')) {
    // A ministry's numbering ends in its year; a scan may have struck one year through another
    // ("16/PMK.07/20142013"), and the first is the one printed.
    const year = /\/((?:19|20)\d\d)\d*$/.exec(number)?.[1];
    if (!year) return undefined;
    return { type, number: number.replace(/\/((?:19|20)\d\d)\d*$/, `/${year}`), year: Number(year) };
  }
  if (!tahun) return undefined;
  return { type, number: String(Number.parseInt(number, 10)), year: Number(tahun) };
}

/**
 * The document metadata of an identity: `document_type`, `regulation_number`, `regulation_year`
 * and `fiscal_year` (the columns `document_type` and `fiscal_year` are filled from it when the
 * uploader gave none).
 */
export function identityMetadata(identity: RegulationIdentity): Record<string, string | number> {
  return {
    document_type: identity.type,
    regulation_number: identity.number,
    regulation_year: identity.year,
    ...(identity.fiscalYear !== undefined ? { fiscal_year: identity.fiscalYear } : {}),
  };
}
