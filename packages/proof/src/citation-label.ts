/**
 * Citation labels (docs/certificate.md, "Citation labels"): how a citation reads — "Pasal 287 ayat
 * (2) UU 22/2009", "Penjelasan Pasal 287 UU 22/2009", "Penjelasan Umum UU 12/2018" — derived from
 * the citation's own signed fields (`pasal`, `ayat`, `section_path`, `document_title`) and nothing
 * else. A label is what a reader sees as the source, and what a composed claim's `cite` part puts
 * into its text, so it must say no more than those fields do.
 *
 * `citationLabel` is the one implementation: the engine labels its citations with it, and
 * `verifyBundle` recomputes every label with it (`CITATION_LABEL_MISMATCH`). It is pure and never
 * throws.
 */
import type { Citation } from './certificate.js';

/** The kinds of regulation a title can open with, and their short names. */
const REGULATION_KINDS: readonly (readonly [RegExp, string])[] = [
  [/^(?:UNDANG-UNDANG|UU)\b/i, 'UU'],
  [/^(?:PERATURAN\s+PEMERINTAH\s+PENGGANTI\s+UNDANG-UNDANG|PERPPU)\b/i, 'Perppu'],
  [/^(?:PERATURAN\s+PEMERINTAH|PP)\b/i, 'PP'],
  [/^(?:PERATURAN\s+PRESIDEN|PERPRES)\b/i, 'Perpres'],
  [/^(?:PERATURAN\s+MENTERI\s+KEUANGAN|PMK)\b/i, 'PMK'],
  [/^(?:PERATURAN\s+KEPOLISIAN|PERPOL)\b/i, 'Perpol'],
  [/^(?:PERATURAN\s+MENTERI|PERMEN)\b/i, 'Permen'],
  [/^(?:PERATURAN\s+DAERAH|PERDA)\b/i, 'Perda'],
];

/** A title that is a file name (`uu-2015-3`, `uu-22-2009-llaj`): kind, then number and year in either order. */
const FILE_NAME = /^(uu|pp|perpres|pmk|permen|perpol|perppu|perda)-(\d+)-(\d+)/;

/** The general elucidation's heading ("Umum", "I. UMUM"). */
const GENERAL_ELUCIDATION = /^(?:[IV]+\.\s*)?Umum$/iu;

/** The first section of an elucidation's citations. */
const ELUCIDATION = 'Penjelasan';

/** OCR digits in a number or year: "2OI7" → "2017", "20 1 6" → "2016" (a scan's stray spaces). */
function ocrDigits(value: string): string {
  return value
    .replace(/[OoD]/g, '0')
    .replace(/[IlL|!]/g, '1')
    .replace(/\s+/g, '');
}

/**
 * The short name of the regulation a document title names: "UU 22/2009", "PP 55/2012", and a
 * ministry's numbering as printed, "PMK 201/PMK.07/2020" (for "NOMOR 201/PMK.07/2020"). Reads OCR'd
 * digits ("TAHUN 2OI7", "TAHUN 20 1 6"), a title that opens with "Penjelasan" or "Penjelasan atas",
 * and a title that is a file name ("uu-2015-3"). Undefined when no kind, number and year are found.
 *
 * @example
 * regulationShortName('UU No. 22 Tahun 2009 tentang Lalu Lintas dan Angkutan Jalan'); // 'UU 22/2009'
 * regulationShortName('UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 15 TAHUN 2OI7 TENTANG …'); // 'UU 15/2017'
 * regulationShortName('PERATURAN MENTERI KEUANGAN NOMOR 186/PMK.07/2011 TENTANG …'); // 'PMK 186/PMK.07/2011'
 * regulationShortName('uu-2015-3'); // 'UU 3/2015'
 */
export function regulationShortName(title: string): string | undefined {
  return shortName(title, true);
}

/**
 * Certificates made before a ministry's numbering was kept labelled "NOMOR 201/PMK.07/2020" as
 * "PMK 201/2020"; a verifier still accepts that label (docs/certificate.md, "Citation labels").
 */
function shortName(title: string, ministryNumbering: boolean): string | undefined {
  if (typeof title !== 'string') return undefined;
  const head = title
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^PENJELASAN\s+(?:ATAS\s+)?/i, '');
  const kind = REGULATION_KINDS.find(([pattern]) => pattern.test(head))?.[1];
  if (kind) {
    // A ministry's numbering, "186/PMK.07/2011": the unit's code between the number and the year.
    // Only the regulation's own number, before its subject ("TENTANG …" may name another's).
    const ministry =
      /\b(\d{1,4})\s*\/\s*([A-Z][A-Z0-9.-]*(?:\s*\/\s*[A-Z][A-Z0-9.-]*)*)\s*\/\s*((?:19|20)\d\d)(?!\d)/.exec(
        head.split(/\bTENTANG\b/i)[0]!,
      );
    if (
      ministryNumbering &&
      ministry &&
      /\b(?:NOMOR|No\.?|Nomor)\s*:?\s*$/i.test(head.slice(0, ministry.index))
    ) {
      const code = ministry[2]!.replace(/\s+/g, '');
      return `${kind} ${Number.parseInt(ministry[1]!, 10)}/${code}/${ministry[3]}`;
    }
    const match =
      /\b(?:NOMOR|No\.?|Nomor)\s*([0-9OIl][0-9OIl ]{0,5}?)(?:\/[A-Z.0-9]+)?\s+(?:TAHUN|Tahun)\s+([0-9OIlL](?: ?[0-9OIlL]){3})(?=\s|$|[^0-9OIlL ])/i.exec(
        head,
      ) ??
      /\b(\d{1,4})\s*\/\s*PMK\.?[\d.]*\s*\/\s*(\d{4})\b/i.exec(head) ??
      /\b(\d{1,4})\s*(?:\/|\s+TAHUN\s+|\s+Tahun\s+)(\d{4})\b/.exec(head);
    if (match) {
      const year = ocrDigits(match[2]!).slice(0, 4);
      const number = String(Number.parseInt(ocrDigits(match[1]!), 10));
      if (/^\d{4}$/.test(year) && number !== 'NaN') return `${kind} ${number}/${year}`;
    }
  }
  const file = FILE_NAME.exec(head.toLowerCase());
  if (file) {
    const fileKind =
      REGULATION_KINDS.find(([pattern]) => pattern.test(file[1]!))?.[1] ?? file[1]!.toUpperCase();
    const [a, b] = [file[2]!, file[3]!];
    const [number, year] = a.length === 4 && b.length < 4 ? [b, a] : [a, b];
    return `${fileKind} ${Number.parseInt(number, 10)}/${year}`;
  }
  return undefined;
}

/**
 * How a citation reads, from its signed fields: `Pasal <pasal>`, then ` ayat (<ayat>)` when it has
 * one, led by "Penjelasan " when its section path opens with "Penjelasan" (an elucidation); without
 * a Pasal, "Penjelasan Umum" for the general elucidation (its last section "Umum" or "I. UMUM");
 * then the regulation's short name read from `document_title`, when it names one. Undefined when
 * the citation names no Pasal and is not the general elucidation: such a citation has no label.
 *
 * @example
 * citationLabel({ document_title: 'UU No. 22 Tahun 2009 tentang …', pasal: '287', ayat: '2' });
 * // 'Pasal 287 ayat (2) UU 22/2009'
 * citationLabel({ document_title: 'Redux', section_path: ['Guides', 'Reducers'] }); // undefined
 */
export function citationLabel(
  citation: Pick<Citation, 'document_title' | 'pasal' | 'ayat' | 'section_path'>,
): string | undefined {
  const sections = Array.isArray(citation.section_path) ? citation.section_path : [];
  const elucidation = sections[0] === ELUCIDATION;
  let where: string;
  if (citation.pasal) {
    where = `${elucidation ? `${ELUCIDATION} ` : ''}Pasal ${citation.pasal}${citation.ayat ? ` ayat (${citation.ayat})` : ''}`;
  } else if (elucidation && GENERAL_ELUCIDATION.test(sections.at(-1) ?? '')) {
    where = `${ELUCIDATION} Umum`;
  } else {
    return undefined;
  }
  const regulation = regulationShortName(citation.document_title);
  return regulation ? `${where} ${regulation}` : where;
}

/**
 * The labels a verifier accepts for a citation: {@link citationLabel}'s first, then the one
 * certificates made before a ministry's numbering was kept read ("Pasal 2 PMK 186/2011" for
 * "NOMOR 186/PMK.07/2011"), when it differs. Empty when the citation has no label.
 *
 * @example
 * acceptedCitationLabels({ document_title: 'PERATURAN MENTERI KEUANGAN NOMOR 186/PMK.07/2011', pasal: '2' });
 * // ['Pasal 2 PMK 186/PMK.07/2011', 'Pasal 2 PMK 186/2011']
 */
export function acceptedCitationLabels(
  citation: Pick<Citation, 'document_title' | 'pasal' | 'ayat' | 'section_path'>,
): string[] {
  const label = citationLabel(citation);
  if (label === undefined) return [];
  const current = regulationShortName(citation.document_title);
  const earlier = shortName(citation.document_title, false);
  if (current === undefined || earlier === undefined || earlier === current) return [label];
  return [label, `${label.slice(0, label.length - current.length)}${earlier}`];
}
