import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Block, ChunkDraft, LegalRef, ParsedDocument } from '../types.js';
import { chunkDocument, headAtWordBoundary, tailAtWordBoundary } from './chunk.js';
import { parseMarkdown } from './markdown.js';
import { countTokens } from './tokens.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const dataDir = path.resolve(repoRoot, '../shared/data');

function documentOf(blocks: Block[], mime = 'text/markdown'): ParsedDocument {
  return { title: 'Test', mime, metadata: {}, blocks };
}

/** The anchor the Markdown reader gives a heading of plain words. */
function slugOf(text: string): string {
  return text.toLowerCase().replace(/\s+/g, '-');
}

function heading(text: string, level: number, sectionPath: string[]): Block {
  return { kind: 'heading', text, level, section_path: sectionPath };
}

function paragraph(text: string, sectionPath: string[], extra: Partial<Block> = {}): Block {
  return { kind: 'paragraph', text, section_path: sectionPath, ...extra };
}

function legalBlock(text: string, legal: LegalRef, kind: Block['kind'] = 'paragraph'): Block {
  return { kind, text, section_path: ['BAB I'], legal };
}

/** A paragraph of `sentences` distinct sentences (about 9 tokens each). */
function longParagraph(sentences: number, tag: string): string {
  return Array.from(
    { length: sentences },
    (_, i) => `Kalimat ${tag} nomor ${i + 1} menjelaskan kewajiban pengemudi di jalan.`,
  ).join(' ');
}

function checkInvariants(chunks: ChunkDraft[]): void {
  chunks.forEach((chunk, index) => {
    expect(chunk.position).toBe(index);
    expect(chunk.text.length).toBeGreaterThan(0);
    expect(chunk.text).toBe(chunk.text.trim());
    expect(chunk.text).toBe(chunk.text.normalize('NFC'));
    expect(chunk.text).not.toContain('\r');
    expect(chunk.token_count).toBe(countTokens(chunk.text));
  });
}

describe('chunkDocument', () => {
  it('returns [] for an empty document or blank blocks', () => {
    expect(chunkDocument(documentOf([]))).toEqual([]);
    expect(chunkDocument(documentOf([paragraph('  \n ', []), paragraph('', ['A'])]))).toEqual([]);
  });

  it('groups Markdown sections and prepends headings to their content', () => {
    const blocks: Block[] = [
      heading('Pendahuluan', 1, ['Pendahuluan']),
      paragraph('Paragraf satu tentang tujuan.', ['Pendahuluan']),
      paragraph('Paragraf dua tentang ruang lingkup.', ['Pendahuluan']),
      heading('Instalasi', 2, ['Pendahuluan', 'Instalasi']),
      paragraph('Jalankan perintah pemasangan.', ['Pendahuluan', 'Instalasi']),
      { kind: 'list', text: '- langkah satu\n- langkah dua', section_path: ['Pendahuluan', 'Instalasi'] },
    ];
    const chunks = chunkDocument(documentOf(blocks));
    checkInvariants(chunks);
    expect(chunks.map((chunk) => chunk.text)).toEqual([
      'Pendahuluan\n\nParagraf satu tentang tujuan.\n\nParagraf dua tentang ruang lingkup.',
      'Instalasi\n\nJalankan perintah pemasangan.\n\n- langkah satu\n- langkah dua',
    ]);
    expect(chunks.map((chunk) => chunk.section_path)).toEqual([
      ['Pendahuluan'],
      ['Pendahuluan', 'Instalasi'],
    ]);
    expect(chunks.every((chunk) => chunk.kind === 'text')).toBe(true);
  });

  it('keeps a parent heading with its first subsection and merges an empty section into the next', () => {
    const blocks: Block[] = [
      heading('Panduan', 1, ['Panduan']),
      heading('Kosong', 2, ['Panduan', 'Kosong']),
      heading('Isi', 2, ['Panduan', 'Isi']),
      heading('Detail', 3, ['Panduan', 'Isi', 'Detail']),
      paragraph('Teks detail.', ['Panduan', 'Isi', 'Detail']),
      heading('Penutup', 1, ['Penutup']),
    ];
    const chunks = chunkDocument(documentOf(blocks));
    checkInvariants(chunks);
    expect(chunks.map((chunk) => chunk.text)).toEqual([
      'Panduan\n\nKosong\n\nIsi\n\nDetail\n\nTeks detail.',
      'Penutup',
    ]);
    // The merged chunk keeps the path of the heading whose section has the text.
    expect(chunks[0]!.section_path).toEqual(['Panduan', 'Isi', 'Detail']);
  });

  it('packs a run of empty headings into chunks of at most the budget (20,000 headings)', () => {
    const markdown = Array.from({ length: 20_000 }, (_, i) => `# h${i}\n`).join('');
    const chunks = chunkDocument(parseMarkdown(markdown, 'headings.md'));
    checkInvariants(chunks);
    expect(chunks.length).toBeLessThan(500);
    for (const chunk of chunks) expect(chunk.token_count).toBeLessThanOrEqual(350);
    // Every heading is kept, once, in order.
    const texts = chunks.flatMap((chunk) => chunk.text.split('\n\n'));
    expect(texts).toEqual(Array.from({ length: 20_000 }, (_, i) => `h${i}`));
    // A chunk of sibling headings links to its first heading.
    expect(chunks[1]!.anchor).toBe(slugOf(chunks[1]!.text.split('\n\n')[0]!));
    // …and carries its path (a Markdown heading's path is its parent's: none at the top level).
    expect(chunks[1]!.section_path).toEqual([]);
  });

  it('opens a table or code chunk with the headings or tiny section before it; emits headings alone at the end', () => {
    const long = longParagraph(4, 'L');
    const chunks = chunkDocument(
      documentOf([
        heading('API', 1, ['API']),
        heading('Options', 2, ['API', 'Options']),
        { kind: 'code', text: 'const options = {};', section_path: ['API', 'Options'] },
        heading('Tabel', 2, ['API', 'Tabel']),
        paragraph(long, ['API', 'Tabel']),
        {
          kind: 'table',
          text: 'a | b',
          html: '<table><tr><td>a</td><td>b</td></tr></table>',
          section_path: ['API', 'Tabel'],
        },
        heading('Kosong', 2, ['API', 'Kosong']),
        heading('Akhir', 2, ['API', 'Akhir']),
      ]),
    );
    checkInvariants(chunks);
    expect(chunks.map((chunk) => [chunk.kind, chunk.text, chunk.section_path])).toEqual([
      ['code', 'API\n\nOptions\n\nconst options = {};', ['API', 'Options']],
      // A section over the tiny size stays a chunk of its own.
      ['text', `Tabel\n\n${long}`, ['API', 'Tabel']],
      ['table', 'a | b', ['API', 'Tabel']],
      // Headings alone at the end: the first one's path, as siblings.
      ['text', 'Kosong\n\nAkhir', ['API', 'Kosong']],
    ]);
  });

  it('never carries a legal heading or legal text into a table', () => {
    const chunks = chunkDocument(
      documentOf([
        { ...heading('Pasal 3', 2, ['BAB I', 'Pasal 3']), legal: { bab: 'I', pasal: '3' } },
        legalBlock('Rincian:', { bab: 'I', pasal: '3' }),
        { kind: 'table', text: 'a | b', section_path: ['BAB I'], legal: { bab: 'I', pasal: '3' } },
      ]),
    );
    expect(chunks.map((chunk) => [chunk.kind, chunk.text])).toEqual([
      ['text', 'Pasal 3\n\nRincian:'],
      ['table', 'a | b'],
    ]);
  });

  it('never merges an empty legal heading forward, even with levels', () => {
    const chunks = chunkDocument(
      documentOf([
        { ...heading('BAB I', 1, ['BAB I']), legal: { bab: 'I' } },
        { ...heading('BAB II', 1, ['BAB II']), legal: { bab: 'II' } },
        { ...heading('Pasal 1', 2, ['BAB II', 'Pasal 1']), legal: { bab: 'II', pasal: '1' } },
        legalBlock('Isi pasal satu.', { bab: 'II', pasal: '1' }),
      ]),
    );
    expect(chunks.map((chunk) => chunk.text)).toEqual(['BAB I', 'BAB II\n\nPasal 1\n\nIsi pasal satu.']);
  });

  it('packs a section up to the budget without splitting blocks or overlapping them', () => {
    const path = ['Bagian'];
    const blocks = Array.from({ length: 12 }, (_, i) => paragraph(longParagraph(2, `p${i}`), path));
    const chunks = chunkDocument(documentOf(blocks), { maxTokens: 60, overlapTokens: 10 });
    checkInvariants(chunks);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) expect(chunk.token_count).toBeLessThanOrEqual(60);
    // Every block appears in exactly one chunk, whole.
    for (const block of blocks) {
      expect(chunks.filter((chunk) => chunk.text.includes(block.text))).toHaveLength(1);
    }
  });

  it('splits a long paragraph with overlap only between its own pieces', () => {
    const section = ['Bab'];
    const before = 'Paragraf pembuka yang pendek.';
    const long = longParagraph(40, 'L');
    const after = 'Paragraf penutup yang pendek.';
    const chunks = chunkDocument(
      documentOf([paragraph(before, section), paragraph(long, section), paragraph(after, section)]),
      { maxTokens: 80, overlapTokens: 20 },
    );
    checkInvariants(chunks);
    expect(chunks[0]!.text).toBe(before);
    expect(chunks.at(-1)!.text).toBe(after);
    const pieces = chunks.slice(1, -1);
    expect(pieces.length).toBeGreaterThan(3);
    for (const piece of pieces) {
      expect(piece.token_count).toBeLessThanOrEqual(80);
      expect(long).toContain(piece.text);
    }
    // Consecutive pieces of the long block overlap …
    for (let i = 1; i < pieces.length; i++) {
      const previousEnd = long.indexOf(pieces[i - 1]!.text) + pieces[i - 1]!.text.length;
      const start = long.indexOf(pieces[i]!.text);
      expect(start).toBeLessThan(previousEnd);
    }
    // … and together cover it, while the short neighbours share nothing with it.
    expect(pieces[0]!.text.startsWith('Kalimat L nomor 1 ')).toBe(true);
    expect(pieces.at(-1)!.text.endsWith('nomor 40 menjelaskan kewajiban pengemudi di jalan.')).toBe(true);
    expect(chunks[0]!.text).not.toContain('Kalimat');
    expect(chunks.at(-1)!.text).not.toContain('Kalimat');
  });

  it('keeps a table whole as one chunk over budget, up to four budgets', () => {
    const rows = Array.from({ length: 20 }, (_, i) => `<tr><td>Satker ${i}</td><td>Rp${i}.000.000</td></tr>`);
    const html = `<table>${rows.join('')}</table>`;
    const text = Array.from({ length: 20 }, (_, i) => `Satker ${i}\tRp${i}.000.000`).join('\n');
    const table: Block = { kind: 'table', text, html, page: 4, section_path: ['Lampiran'] };
    const chunks = chunkDocument(
      documentOf(
        [
          paragraph('Rincian anggaran berikut.', ['Lampiran'], { page: 4 }),
          table,
          paragraph('Catatan.', ['Lampiran'], { page: 5 }),
        ],
        'application/pdf',
      ),
      { maxTokens: 50 },
    );
    checkInvariants(chunks);
    // The one-line lead-in is a tiny section: it opens the table's chunk instead of being a chunk.
    expect(chunks).toHaveLength(2);
    const chunk = chunks[0]!;
    expect(chunk.kind).toBe('table');
    expect(chunk.text).toBe(`Rincian anggaran berikut.\n\n${text}`);
    expect(chunk.table_html).toBe(html);
    expect(chunk.page).toBe(4);
    expect(chunk.token_count).toBeGreaterThan(50);
    expect(chunks[1]!.table_html).toBeUndefined();
    expect(chunks[1]!.page).toBe(5);
  });

  it('splits a table over four budgets between its rows, each piece under its header row', () => {
    const header = '| no | uraian | jumlah |\n|---|---|---|';
    const rows = Array.from({ length: 400 }, (_, i) => `| ${i} | belanja satker nomor ${i} | Rp${i}000 |`);
    const text = `${header}\n${rows.join('\n')}`;
    const table: Block = { kind: 'table', text, html: '<table>…</table>', section_path: ['Lampiran'] };
    const chunks = chunkDocument(documentOf([table], 'text/markdown'), { maxTokens: 100 });
    checkInvariants(chunks);
    expect(chunks.length).toBeGreaterThan(10);
    const seen: string[] = [];
    for (const chunk of chunks) {
      expect(chunk.kind).toBe('table');
      expect(chunk.text.startsWith(`${header}\n| `)).toBe(true);
      expect(chunk.table_html).toBeUndefined();
      expect(chunk.token_count).toBeLessThanOrEqual(100);
      seen.push(...chunk.text.split('\n').slice(2));
    }
    // Every row once, in order.
    expect(seen).toEqual(rows);
  });

  it('makes one chunk per code block and splits only huge ones by lines', () => {
    const small = 'const a = 1;\nconst b = 2;';
    const hugeLines = Array.from({ length: 400 }, (_, i) => `  store.dispatch({ type: 'todo/${i}' });`);
    const chunks = chunkDocument(
      documentOf([
        paragraph('Contoh:', ['Kode']),
        { kind: 'code', text: small, language: 'js', section_path: ['Kode'] },
        { kind: 'code', text: hugeLines.join('\n'), language: 'js', section_path: ['Kode'] },
      ]),
      { maxTokens: 100 },
    );
    checkInvariants(chunks);
    // "Contoh:" is a tiny section: it opens the code block's chunk.
    expect(chunks[0]).toMatchObject({ kind: 'code', text: `Contoh:\n\n${small}` });
    const pieces = chunks.slice(1);
    expect(pieces.length).toBeGreaterThan(4);
    for (const piece of pieces) {
      expect(piece.kind).toBe('code');
      expect(piece.token_count).toBeLessThanOrEqual(100);
      for (const line of piece.text.split('\n'))
        expect(hugeLines).toContain(line.startsWith(' ') ? line : `  ${line}`);
    }
    // A code block just under four budgets stays whole.
    const medium = hugeLines.slice(0, 25).join('\n');
    expect(countTokens(medium)).toBeGreaterThan(100);
    expect(countTokens(medium)).toBeLessThanOrEqual(400);
    const whole = chunkDocument(documentOf([{ kind: 'code', text: medium, section_path: [] }]), {
      maxTokens: 100,
    });
    expect(whole).toHaveLength(1);
  });

  it('never merges legal blocks across Pasal, ayat or Penjelasan, and merges the same key', () => {
    const blocks: Block[] = [
      heading('BAB I KETENTUAN UMUM', 1, ['BAB I']),
      { ...heading('Pasal 5', 2, ['BAB I', 'Pasal 5']), legal: { bab: 'I', pasal: '5' } },
      legalBlock('(1) Negara bertanggung jawab atas Lalu Lintas.', { bab: 'I', pasal: '5', ayat: '1' }),
      legalBlock('a. perencanaan;', { bab: 'I', pasal: '5', ayat: '1' }, 'list'),
      legalBlock('(2) Pembinaan meliputi pengaturan.', { bab: 'I', pasal: '5', ayat: '2' }),
      legalBlock('Pasal 6 Ketentuan lain.', { bab: 'I', pasal: '6' }),
      legalBlock('Pasal 7 Ketentuan lanjutan.', { bab: 'I', pasal: '7' }),
      legalBlock('Cukup jelas.', { pasal: '7', penjelasan: true }),
    ];
    const chunks = chunkDocument(documentOf(blocks, 'application/pdf'), { maxTokens: 500 });
    checkInvariants(chunks);
    expect(chunks.map((chunk) => chunk.text)).toEqual([
      'BAB I KETENTUAN UMUM\n\nPasal 5\n\n(1) Negara bertanggung jawab atas Lalu Lintas.\n\na. perencanaan;',
      '(2) Pembinaan meliputi pengaturan.',
      'Pasal 6 Ketentuan lain.',
      'Pasal 7 Ketentuan lanjutan.',
      'Cukup jelas.',
    ]);
    expect(chunks.map((chunk) => chunk.legal)).toEqual([
      { bab: 'I', pasal: '5', ayat: '1' },
      { bab: 'I', pasal: '5', ayat: '2' },
      { bab: 'I', pasal: '6' },
      { bab: 'I', pasal: '7' },
      { pasal: '7', penjelasan: true },
    ]);
    // A Pasal heading whose content never came is not prepended to the next Pasal.
    const orphan = chunkDocument(
      documentOf([
        { kind: 'heading', text: 'Pasal 8', section_path: [], legal: { pasal: '8' } },
        { kind: 'heading', text: 'Pasal 9', section_path: [], legal: { pasal: '9' } },
        legalBlock('Isi pasal sembilan.', { pasal: '9' }),
        { kind: 'heading', text: 'Pasal 10', section_path: [], legal: { pasal: '10' } },
        legalBlock('(1) Isi pasal sebelas.', { pasal: '11', ayat: '1' }),
      ]),
    );
    expect(orphan.map((chunk) => chunk.text)).toEqual([
      'Pasal 8',
      'Pasal 9\n\nIsi pasal sembilan.',
      'Pasal 10',
      '(1) Isi pasal sebelas.',
    ]);
    // The copy is independent of the input.
    chunks[0]!.legal!.pasal = 'changed';
    expect(blocks[2]!.legal!.pasal).toBe('5');
  });

  it('fills parent context from neighbouring chunks, cut at word boundaries', () => {
    const section = ['S'];
    const first = longParagraph(6, 'A');
    const second = longParagraph(6, 'B');
    const third = longParagraph(6, 'C');
    const chunks = chunkDocument(
      documentOf([paragraph(first, section), paragraph(second, section), paragraph(third, section)]),
      { maxTokens: 100, contextChars: 100 },
    );
    checkInvariants(chunks);
    expect(chunks).toHaveLength(3);
    expect(chunks[0]!.context_before).toBe('');
    expect(chunks[2]!.context_after).toBe('');
    const middle = chunks[1]!;
    expect(middle.context_before.length).toBeGreaterThan(50);
    expect(middle.context_before.length).toBeLessThanOrEqual(100);
    expect(first.endsWith(middle.context_before)).toBe(true);
    expect(first.at(-middle.context_before.length - 1)).toBe(' ');
    expect(middle.context_after.length).toBeLessThanOrEqual(100);
    expect(third.startsWith(middle.context_after)).toBe(true);
    expect(third[middle.context_after.length]).toBe(' ');
    expect(
      chunkDocument(documentOf([paragraph(first, section), paragraph(second, section)]), {
        maxTokens: 100,
        contextChars: 0,
      }).every((chunk) => chunk.context_before === '' && chunk.context_after === ''),
    ).toBe(true);
  });

  it('normalizes text to NFC and LF', () => {
    const chunks = chunkDocument(documentOf([paragraph('  Kafe\u0301 di\r\njalan\rraya  ', ['S'])]));
    expect(chunks.map((chunk) => chunk.text)).toEqual(['Kafé di\njalan\nraya']);
  });

  it('is deterministic and rejects invalid options', () => {
    const blocks = Array.from({ length: 30 }, (_, i) =>
      paragraph(longParagraph(i % 9, `d${i}`), [`S${i % 3}`]),
    );
    const document = documentOf(blocks);
    expect(chunkDocument(document, { maxTokens: 70 })).toEqual(chunkDocument(document, { maxTokens: 70 }));
    expect(() => chunkDocument(document, { maxTokens: 0 })).toThrow(RangeError);
    expect(() => chunkDocument(document, { contextChars: -1 })).toThrow(RangeError);
  });

  it('chunks the real UU 22/2009 text one Pasal/ayat at a time', () => {
    // A minimal line-based reading of the statute (the real parser lives in legal-structure.ts).
    const source = readFileSync(
      path.join(dataDir, 'corpora/uu-22-2009-llaj/uu-22-2009-llaj.fulltext.md'),
      'utf8',
    );
    const blocks: Block[] = [];
    let legal: LegalRef = {};
    let penjelasan = false;
    for (const line of source.split('\n')) {
      const text = line.trim();
      if (text.length === 0) continue;
      if (/^PENJELASAN\b/.test(text)) penjelasan = true;
      const pasal = /^Pasal (\d+[A-Z]?)$/.exec(text);
      const ayat = /^\((\d+)\)/.exec(text);
      if (pasal !== null) legal = { pasal: pasal[1]!, ...(penjelasan ? { penjelasan: true } : {}) };
      else if (ayat !== null && legal.pasal !== undefined) legal = { ...legal, ayat: ayat[1]! };
      blocks.push({
        kind: pasal !== null ? 'heading' : 'paragraph',
        text,
        section_path: [],
        ...(legal.pasal !== undefined ? { legal: { ...legal } } : {}),
      });
    }
    const chunks = chunkDocument(documentOf(blocks, 'text/markdown'));
    checkInvariants(chunks);
    expect(chunks.length).toBeGreaterThan(500);
    const keyOf = (value: LegalRef | undefined): string =>
      JSON.stringify([value?.pasal, value?.ayat, value?.penjelasan === true]);
    const blockKeys = new Map<string, Set<string>>();
    for (const block of blocks) {
      if (block.kind === 'heading') continue;
      const keys = blockKeys.get(block.text) ?? new Set<string>();
      keys.add(keyOf(block.legal));
      blockKeys.set(block.text, keys);
    }
    // Every paragraph of a chunk belongs to that chunk's legal unit.
    let checked = 0;
    for (const chunk of chunks) {
      if (chunk.legal === undefined) continue;
      for (const part of chunk.text.split('\n\n')) {
        const keys = blockKeys.get(part);
        if (keys === undefined) continue;
        expect(keys).toContain(keyOf(chunk.legal));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
    const pasal281 = chunks.find((chunk) => chunk.legal?.pasal === '281' && chunk.legal.penjelasan !== true);
    expect(pasal281?.text).toMatch(/^Pasal 281\n\nSetiap orang yang mengemudikan Kendaraan Bermotor/);
  });
});

describe('context cutting', () => {
  it('cuts at whitespace and never splits a surrogate pair', () => {
    expect(tailAtWordBoundary('satu dua tiga', 6)).toBe('tiga');
    expect(headAtWordBoundary('satu dua tiga', 6)).toBe('satu');
    expect(tailAtWordBoundary('satu dua', 100)).toBe('satu dua');
    expect(headAtWordBoundary('😀😀😀', 3)).toBe('😀');
    expect(tailAtWordBoundary('😀😀😀', 3)).toBe('😀');
  });
});

describe('chunk anchors', () => {
  it('records the anchor of the innermost heading each chunk belongs to', () => {
    const long = Array.from({ length: 12 }, (_, i) => `Sentence ${i + 1} about selectors and state.`).join(
      ' ',
    );
    const parsed = parseMarkdown(
      [
        '# Store',
        '',
        'A store holds the state.',
        '',
        '## Methods',
        '',
        '### getState()',
        '',
        long,
        '',
        '| method | returns |',
        '| --- | --- |',
        '| getState | state |',
        '',
        '## Methods',
        '',
        '## Empty section',
        '',
        '## Methods',
        '',
        'The third Methods heading.',
      ].join('\n'),
      'api/Store.md',
    );
    const chunks = chunkDocument(parsed, { maxTokens: 40, overlapTokens: 0 });
    checkInvariants(chunks);
    const anchors = chunks.map((chunk) => [
      chunk.kind,
      chunk.text.split('\n')[0]!.slice(0, 20),
      chunk.anchor,
    ]);
    expect(anchors[0]).toEqual(['text', 'Store', 'store']);
    // A chunk whose text starts with its headings links to the innermost one; every piece of the
    // split paragraph lies in "getState()".
    expect(anchors[1]).toEqual(['text', 'Methods', 'getstate']);
    const pieces = anchors.filter(([, text]) => String(text).startsWith('Sentence'));
    expect(pieces.length).toBeGreaterThan(0);
    expect(pieces.every(([, , anchor]) => anchor === 'getstate')).toBe(true);
    expect(anchors.find(([kind]) => kind === 'table')?.[2]).toBe('getstate');
    // Empty sections merge into the next one, whose heading (duplicates get -1, -2) the chunk links to.
    expect(chunks.at(-1)!.text).toBe('Methods\n\nEmpty section\n\nMethods\n\nThe third Methods heading.');
    expect(anchors.at(-1)).toEqual(['text', 'Methods', 'methods-2']);
  });

  it('leaves chunks of documents without heading anchors without one', () => {
    const chunks = chunkDocument(
      documentOf([heading('Pasal 1', 1, []), paragraph('Isi pasal.', ['Pasal 1'])]),
    );
    expect(chunks.every((chunk) => chunk.anchor === undefined)).toBe(true);
  });
});
