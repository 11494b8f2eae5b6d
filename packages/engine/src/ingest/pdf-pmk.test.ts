/**
 * PMK allocation tables (docs/engine.md, "Ingestion": tables as HTML): the Kementerian Keuangan PDFs in
 * ../shared/data/corpora/pmk-transfer-pdf keep their tables as HTML rows and cells.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePdf } from './pdf.js';

const corpus = path.resolve(import.meta.dirname, '../../../../../shared/data/corpora/pmk-transfer-pdf');
const read = (file: string) => new Uint8Array(readFileSync(path.join(corpus, file)));
const DAU = 'RINCIAN-ALOKASI-DAU-MURNI-TA-2017-UPLOAD.pdf';
const DAK = 'RINCIAN-ALOKASI-DAK-FISIK-TA-2017-UPLOAD.pdf';

/** The rows of an HTML table as arrays of cell texts (a colspan cell counts once). */
function rowsOf(html: string): string[][] {
  return [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? '').matchAll(/<t[hd](?: colspan="\d+")?>(.*?)<\/t[hd]>/g)].map((cell) => cell[1] ?? ''),
  );
}

function tablesOf(blocks: { kind: string; html?: string }[]): string[] {
  return blocks.flatMap((block) => (block.kind === 'table' && block.html !== undefined ? [block.html] : []));
}

describe('PMK allocation tables', () => {
  it('reads the DAU 2017 allocation table: header, region names and their amounts in one row', async () => {
    const document = await parsePdf(read(DAU), DAU);
    const tables = tablesOf(document.blocks);
    expect(tables.length).toBe(document.pages); // one table per page
    const first = tables[0]!;
    expect(first).toContain('<thead><tr><th>NO.</th><th>NAMA DAERAH</th><th>ALOKASI 2017</th></tr></thead>');
    const rows = tables.flatMap(rowsOf);
    const row = (name: string) => rows.find((cells) => cells[1] === name);
    expect(row('Kab. Aceh Barat')).toEqual(['1', 'Kab. Aceh Barat', '580.525.044']);
    expect(row('Provinsi Sumatera Utara')).toEqual(['II', 'Provinsi Sumatera Utara', '2.493.484.717']);
    expect(row('Kota Subulussalam')).toEqual(['23', 'Kota Subulussalam', '346.649.771']);
    // A long row number printed close to the name still gets its own cell.
    expect(row('Provinsi Sulawesi Utara')).toEqual(['XVIII', 'Provinsi Sulawesi Utara', '1.340.353.014']);
    expect(row('Provinsi DKI Jakarta')).toEqual(['IX', 'Provinsi DKI Jakarta', '-']);
    expect(row('JUMLAH ALOKASI DAU NASIONAL')).toEqual([
      '',
      'JUMLAH ALOKASI DAU NASIONAL',
      '401.129.780.828',
    ]);
    // 34 provinces and 508 kabupaten/kota, each one row of three cells with an amount (or "-").
    const data = rows.filter((cells) => /^(?:\d+|[IVXL]+)$/.test(cells[0] ?? '') && cells[1] !== '2');
    expect(data.length).toBe(542);
    expect(data.every((cells) => cells.length === 3 && /^(?:[\d.]+|-)$/.test(cells[2] ?? ''))).toBe(true);
  });

  it('keeps the columns of the wide DAK Fisik 2017 table: the last cell is the total', async () => {
    const document = await parsePdf(read(DAK), DAK);
    const rows = tablesOf(document.blocks).flatMap(rowsOf);
    const row = (name: string) => rows.find((cells) => cells.some((cell) => cell.endsWith(name)));
    expect(row('Kab. Aceh Barat')?.at(-1)).toBe('107.176');
    expect(row('Provinsi Aceh')?.at(-1)).toBe('290.257');
    expect(row('Kab. Aceh Besar')?.slice(2, 4)).toEqual(['3.936', '4.186']);
    expect(row('Kab. Aceh Besar')?.at(-1)).toBe('84.243');
  });

  it('keeps a scanned table row whole when a tiny "-" sits on it (PMK 16/2014 Lampiran)', async () => {
    const file = 'PMK_Nomor_16_Tahun_2014_Lampiran.pdf';
    const rows = tablesOf((await parsePdf(read(file), file)).blocks).flatMap(rowsOf);
    expect(rows).toContainEqual(['2', 'Kab. Aceh Besar', '', '11.368.718', '-', '11.368.718']);
    expect(rows).toContainEqual(['1', 'Kab. Aceh Barat', '', '12.700.234', '9.369.000', '22.069.234']);
  });

  describe('ingested', () => {
    let test: TestEngine;
    beforeAll(async () => {
      test = await openTestEngine();
    });
    afterAll(async () => {
      await test?.close();
    });

    it('stores each table as a table chunk with its HTML and page', async () => {
      const result = await test.engine.ingest(
        'pmk',
        { bytes: read(DAU), filename: DAU, document_type: 'PMK', fiscal_year: 2017 },
        { language: 'id' },
      );
      const chunks = await test.engine.db.query<{
        kind: string;
        page: number | null;
        table_html: string | null;
      }>('SELECT kind, page, table_html FROM chunks WHERE document_id = $1 ORDER BY position', [
        result.document.id,
      ]);
      const tables = chunks.rows.filter((chunk) => chunk.table_html !== null);
      expect(tables.length).toBe(13);
      expect(tables.every((chunk) => chunk.kind === 'table')).toBe(true);
      expect(tables[0]?.page).toBe(1);
      expect(tables[0]?.table_html).toContain(
        '<tr><td>1</td><td>Kab. Aceh Barat</td><td>580.525.044</td></tr>',
      );
      const found = await test.engine.query('pmk', {
        question: 'alokasi DAU Kab. Aceh Barat 2017',
        top_k: 3,
      });
      expect(found.results.some((chunk) => chunk.table_html?.includes('Kab. Aceh Barat'))).toBe(true);
    });
  });
});
