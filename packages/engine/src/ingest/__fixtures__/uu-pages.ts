/**
 * Pages of real statute text for the OCR tests and bench: UU 22/2009 (Lalu Lintas dan Angkutan Jalan)
 * from the shared corpus (`../shared/data/corpora/uu-22-2009-llaj`, see its SOURCE.txt; statutes of
 * Indonesia are not subject to copyright, UU 28/2014 Pasal 42), body from Pasal 2 on, with the
 * corpus's extraction leftovers ("__", "Pasal 6...") removed. BAB and Pasal lines are headings.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { PageContent } from './scanned-pdf.js';

export const UU_22_2009 = path.resolve(
  import.meta.dirname,
  '../../../../../../shared/data/corpora/uu-22-2009-llaj/uu-22-2009-llaj.fulltext.md',
);

/** The statute's title, then its body from "Pasal 2", one item per line, in order. */
export function statuteContent(): PageContent {
  const text = readFileSync(UU_22_2009, 'utf8');
  const start = text.indexOf('\nPasal 2\n');
  const title =
    /UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 22 TAHUN 2009 TENTANG LALU LINTAS DAN ANGKUTAN JALAN/.exec(text);
  if (!title || start < 0) throw new Error(`${UU_22_2009} is not the UU 22/2009 text the OCR tests expect`);
  const body = text
    .slice(start + 1)
    .split('\n')
    .map((line) =>
      line
        .replace(/(?:^|\s)\S+(?: \S+)?\.\.\.(?=\s|$)/g, ' ')
        .replace(/(?:^|\s)__(?=\s|$)/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((line) => line !== '')
    .map((line) => (/^(?:BAB [IVXLC]+\b|Pasal \d+$)/.test(line) ? { heading: line } : { paragraph: line }));
  return [{ heading: title[0] }, ...body];
}
