import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestCodeOfAsync } from '../../test/ingest-codes.js';
import { DEFAULT_MAX_BYTES, parseDocument } from './parse.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const data = path.resolve(repoRoot, '../shared/data');
const bytes = (text: string) => new TextEncoder().encode(text);

describe('parseDocument', () => {
  it('dispatches by detected type and records the media type', async () => {
    const cases: [Uint8Array, string, string][] = [
      [bytes('# Title\n\nText'), 'a.md', 'text/markdown'],
      [bytes('<h1>Title</h1><p>Text</p>'), 'a.html', 'text/html'],
      [bytes('Title\n\nText'), 'a.txt', 'text/plain'],
      [
        new Uint8Array(readFileSync(path.join(data, 'files/pdf-samples/001-trivial/minimal-document.pdf'))),
        'a.pdf',
        'application/pdf',
      ],
      [
        new Uint8Array(readFileSync(path.join(data, 'files/docx-samples/python-docx/test.docx'))),
        'a.docx',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ],
    ];
    for (const [input, filename, mime] of cases) {
      const document = await parseDocument(input, { filename });
      expect(document.mime, filename).toBe(mime);
      expect(document.blocks.length, filename).toBeGreaterThan(0);
    }
    const pdf = await parseDocument(cases[3]![0], { filename: 'a.pdf' });
    expect(pdf.pages).toBe(1);
  });

  it('enforces maxBytes (default 50 MB) before looking at the content', async () => {
    expect(DEFAULT_MAX_BYTES).toBe(50 * 1024 * 1024);
    expect(
      await ingestCodeOfAsync(() => parseDocument(bytes('# 12345'), { filename: 'a.md', maxBytes: 5 })),
    ).toBe('FILE_TOO_LARGE');
    expect(
      await ingestCodeOfAsync(() =>
        parseDocument(new Uint8Array(DEFAULT_MAX_BYTES + 1), { filename: 'big.bin' }),
      ),
    ).toBe('FILE_TOO_LARGE');
    expect((await parseDocument(bytes('# 12345'), { filename: 'a.md', maxBytes: 7 })).title).toBe('12345');
  });

  it('finds no text in a file of invisible characters only, and keeps joiners inside real words', async () => {
    for (const [text, filename] of [
      ['\u200b\u200c\u200d\u2060\ufeff'.repeat(200), 'zero-width.md'],
      ['\u{e0041}\u{e0042}\n\n\u00a0\u3000\u200b', 'tags.txt'],
    ] as const) {
      expect(await ingestCodeOfAsync(() => parseDocument(bytes(text), { filename })), filename).toBe(
        'NO_TEXT',
      );
    }
    const persian = await parseDocument(bytes('\u200b\n\nمی\u200cخواهم'), { filename: 'fa.txt' });
    expect(persian.blocks.map((block) => block.text)).toEqual(['می\u200cخواهم']);
  });

  it('passes detection errors through', async () => {
    expect(await ingestCodeOfAsync(() => parseDocument(new Uint8Array(), { filename: 'a.md' }))).toBe(
      'EMPTY_FILE',
    );
    expect(await ingestCodeOfAsync(() => parseDocument(bytes('\n \n'), { filename: 'a.html' }))).toBe(
      'EMPTY_FILE',
    );
    expect(
      await ingestCodeOfAsync(() => parseDocument(new Uint8Array([1, 0, 2, 0]), { filename: 'a.txt' })),
    ).toBe('UNSUPPORTED_TYPE');
    expect(await ingestCodeOfAsync(() => parseDocument(bytes('not a pdf'), { filename: 'a.pdf' }))).toBe(
      'MALFORMED_FILE',
    );
  });

  it('reports documents without text as NO_TEXT', async () => {
    expect(
      await ingestCodeOfAsync(() =>
        parseDocument(bytes('<nav>menu</nav><script>x</script>'), { filename: 'a.html' }),
      ),
    ).toBe('NO_TEXT');
    expect(
      await ingestCodeOfAsync(() =>
        parseDocument(bytes('---\ntitle: x\n---\n<!-- nothing -->\n'), { filename: 'a.md' }),
      ),
    ).toBe('NO_TEXT');
    expect(
      await ingestCodeOfAsync(() =>
        parseDocument(bytes("import X from 'x'\n\n<X />\n\n```\n```\n"), { filename: 'a.mdx' }),
      ),
    ).toBe('NO_TEXT');
  });

  it('returns NFC text with LF line ends, trimmed, with no empty blocks', async () => {
    const document = await parseDocument(
      bytes('\ufeff# Cafe\u0301  \r\n\r\nline one  \r\nline two\r\n\r\n\r\n   \r\n<p>  </p>\r\n'),
      {
        filename: 'notes.md',
        mime: undefined,
      },
    );
    expect(document.title).toBe('Café');
    expect(document.blocks.map((block) => block.text)).toEqual(['Café', 'line one\nline two']);
    for (const block of document.blocks) {
      expect(block.text).toBe(block.text.normalize('NFC').trim());
      expect(block.text).not.toMatch(/\r/);
    }
  });

  it('prefers magic bytes over a misleading name and declared type', async () => {
    const pdf = new Uint8Array(
      readFileSync(path.join(data, 'files/pdf-samples/016-libre-office-link/libre-office-link.pdf')),
    );
    const document = await parseDocument(pdf, { filename: 'link.txt', mime: 'text/plain' });
    expect(document.mime).toBe('application/pdf');
    expect(document.blocks[0]?.text).toBe('This is a link to an awesome blog.');
  });
});
