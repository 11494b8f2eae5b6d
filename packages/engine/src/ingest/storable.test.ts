/**
 * No U+0000 reaches the database (docs/engine.md, "Ingestion"): PostgreSQL's text and jsonb reject it,
 * and a PDF's metadata can end in NUL characters. Ingested on PGlite, and on PostgreSQL when
 * SAKSI_TEST_DATABASE_URL is set.
 */
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storableDocument, storableMetadata, storableText } from './storable.js';

/** A one-page PDF whose Title and Author end in NULs (as a real statute's do) and whose text holds one. */
function pdfWithNulMetadata(): Uint8Array {
  const text = [
    'BT /F1 11 Tf 14 TL 56 790 Td',
    '(Retribusi parkir ditetapkan sebesar Rp5.000,00 per hari.) Tj T*',
  ];
  text.push('(Tarif\\000 berlaku sejak 1 Januari 2024.) Tj T* ET');
  const stream = text.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Title (Peraturan Daerah Retribusi Parkir\\000\\000\\000) /Author (Bagian Hukum\\000\\000) /Subject (Tarif\\000) >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

describe('storable text', () => {
  it('drops NUL and the other C0 controls but tab and newline', () => {
    expect(storableText('Judul\u0000\u0000')).toBe('Judul');
    expect(storableText('a\tb\nc\u0001\u001f\u000b\u000cd')).toBe('a\tb\ncd');
    expect(storableMetadata({ 'author\u0000': 'Bagian\u0000 Hukum\u0000', pages: 3, '\u0000': 'x' })).toEqual(
      {
        author: 'Bagian Hukum',
        pages: 3,
      },
    );
    const document = storableDocument({
      title: 'Perda\u0000',
      mime: 'application/pdf',
      metadata: {},
      blocks: [
        {
          kind: 'paragraph',
          text: 'Tarif\u0000 parkir',
          section_path: ['Bab\u0000 I'],
          legal: { pasal: '1\u0000' },
        },
      ],
    });
    expect(document.title).toBe('Perda');
    expect(document.blocks[0]).toMatchObject({
      text: 'Tarif parkir',
      section_path: ['Bab I'],
      legal: { pasal: '1' },
    });
  });

  describe('ingested', () => {
    let test: TestEngine;
    beforeAll(async () => {
      test = await openTestEngine();
    });
    afterAll(async () => {
      await test?.close();
    });

    it('ingests a PDF whose metadata and text hold NULs, and stores none', async () => {
      const result = await test.engine.ingest(
        'nul',
        {
          bytes: pdfWithNulMetadata(),
          filename: 'perda-parkir.pdf',
          metadata: { catatan: 'unggahan\u0000' },
        },
        { language: 'id' },
      );
      expect(result.document.title).toBe('Peraturan Daerah Retribusi Parkir');
      const stored = await test.engine.db.query<{ title: string; metadata: string }>(
        'SELECT title, metadata::text AS metadata FROM documents WHERE id = $1',
        [result.document.id],
      );
      expect(stored.rows[0]?.metadata).toContain('Bagian Hukum');
      expect(stored.rows[0]?.metadata).toContain('unggahan');
      expect(JSON.stringify(stored.rows)).not.toMatch(/\\u0000/);
      const chunks = await test.engine.db.query<{ text: string; page: number | null }>(
        'SELECT text, page FROM chunks WHERE document_id = $1',
        [result.document.id],
      );
      expect(chunks.rows.map((chunk) => chunk.text).join('\n')).toContain('Rp5.000,00');
      expect(chunks.rows.every((chunk) => !chunk.text.includes('\u0000') && chunk.page === 1)).toBe(true);
    });
  });
});
