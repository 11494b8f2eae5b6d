/**
 * The binary families of the hostile corpus (docs/security.md): generated, truncated, byte-flipped,
 * encrypted and 5,000-page PDFs; Word files with ZIP bombs, XXE and broken archives; wrong extensions
 * and binary formats; and the awkward real samples of the shared data, as they are and mutated.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRandom, type Random } from '@saksi/attack';
import {
  type AddHostileCase,
  ANY_TYPED,
  fromLatin1,
  type HostileCase,
  type HostileOutcome,
  INGESTED_OR_QUOTA,
  latin1,
  repeatTo,
  sentence,
  smallMarkdown,
  textPages,
  utf8,
  words,
} from './hostile-case.js';
import {
  ascii,
  concatBytes,
  docxArchive,
  PdfWriter,
  pageContent,
  pdfString,
  repeatedDeflate,
  textPdf,
  wordDocumentXml,
  wordParagraph,
  zipArchive,
} from './hostile-formats.js';

// ---------------------------------------------------------------------------------------------
// PDF

/** Shared PDF samples without a text layer (images only): NO_TEXT. */
const IMAGE_ONLY_SAMPLES = new Set([
  '007-imagemagick-images/imagemagick-ASCII85Decode.pdf',
  '007-imagemagick-images/imagemagick-images.pdf',
  '007-imagemagick-images/imagemagick-CCITTFaxDecode.pdf',
  '007-imagemagick-images/imagemagick-lzw.pdf',
  '019-grayscale-image/grayscale-image.pdf',
  '023-cmyk-image/cmyk-image.pdf',
]);

/** Shared samples used as the base of truncated and byte-flipped files (small, with text). */
const PDF_MUTATION_BASES = [
  '001-trivial/minimal-document.pdf',
  '002-trivial-libre-office-writer/002-trivial-libre-office-writer.pdf',
  '004-pdflatex-4-pages/pdflatex-4-pages.pdf',
  '011-google-doc-document/google-doc-document.pdf',
  '022-pdfkit/pdfkit.pdf',
];
/** Shared Word samples with no text: empty, pictures only, or empty tables. */
const DOCX_WITHOUT_TEXT = new Set([
  'mammoth/empty.docx',
  'mammoth/external-picture.docx',
  'mammoth/tiny-picture.docx',
  'mammoth/tiny-picture-target-base-relative.docx',
  'python-docx/having-images.docx',
  'python-docx/tbl-having-tables.docx',
]);
const DOCX_MUTATION_BASES = ['mammoth/tables.docx', 'mammoth/footnotes.docx', 'python-docx/test.docx'];

function sharedPdfs(sharedFiles: string | undefined): { name: string; path: string; encrypted: boolean }[] {
  const folder = sharedFiles ? path.join(sharedFiles, 'pdf-samples') : undefined;
  if (!folder || !existsSync(path.join(folder, 'files.json'))) return [];
  const facts = JSON.parse(readFileSync(path.join(folder, 'files.json'), 'utf8')) as {
    data: { path: string; encrypted: boolean }[];
  };
  return facts.data
    .filter((fact) => existsSync(path.join(folder, fact.path)))
    .map((fact) => ({ name: fact.path, path: path.join(folder, fact.path), encrypted: fact.encrypted }));
}

/** A flipped copy: `flips` bytes at seeded positions get a seeded non-zero XOR (never the first 8). */
function flipBytes(bytes: Uint8Array, random: Random, flips: number): Uint8Array {
  const out = bytes.slice();
  for (let index = 0; index < flips; index++) {
    const position = 8 + random.int(out.length - 8);
    out[position] = out[position]! ^ (1 + random.int(255));
  }
  return out;
}

/** The Standard security handler (ISO 32000-1 §7.6.3) with made-up O and U: a password is needed. */
function encryptDictionary(
  random: Random,
  variant: 'rc4' | 'aes' | 'unknown',
): (writer: PdfWriter) => string {
  const hex = (length: number) =>
    Array.from(random.bytes(length), (byte) => byte.toString(16).padStart(2, '0')).join('');
  return (writer) => {
    const owner = hex(32);
    const user = hex(32);
    const dictionary =
      variant === 'rc4'
        ? `<< /Filter /Standard /V 2 /R 3 /Length 128 /P -3904 /O <${owner}> /U <${user}> >>`
        : variant === 'aes'
          ? `<< /Filter /Standard /V 4 /R 4 /Length 128 /P -3904 /CF << /StdCF << /CFM /AESV2 /AuthEvent /DocOpen /Length 16 >> >> /StmF /StdCF /StrF /StdCF /O <${owner}> /U <${user}> >>`
          : `<< /Filter /NoSuchHandler /V 9 /R 9 /O <${owner}> /U <${user}> >>`;
    const encrypt = writer.add(dictionary);
    return `/Encrypt ${encrypt} 0 R /ID [<${hex(16)}> <${hex(16)}>]`;
  };
}

export function pdfCases(add: AddHostileCase, sharedFiles: string | undefined): void {
  const generated = (
    name: string,
    description: string,
    expect: readonly HostileOutcome[],
    make: (random: Random) => Uint8Array,
    extra: Partial<HostileCase> = {},
  ) =>
    add({
      id: `pdf-${name}`,
      family: 'pdf',
      filename: `${name}.pdf`,
      description,
      expect,
      ...extra,
      bytes: make,
    });

  generated(
    'text-small',
    'a two-page text PDF from the minimal writer (a control case)',
    ['ingested'],
    (random) => textPdf(textPages(random, 2)),
  );
  generated(
    'text-compressed',
    'a ten-page PDF with Flate-compressed content streams',
    ['ingested'],
    (random) => textPdf(textPages(random, 10), { compress: true }),
  );
  generated(
    'pages-5000',
    '5,000 pages of text (the page limit)',
    ['ingested', 'QUOTA_EXCEEDED'],
    (random) => textPdf(textPages(random, 5_000, 2)),
    { watchHealth: true },
  );
  generated('pages-5001', '5,001 pages, one over the page limit', ['QUOTA_EXCEEDED'], (random) =>
    textPdf(textPages(random, 5_001, 1)),
  );
  generated(
    'pages-10000',
    '10,000 pages in one flat page tree, twice the page limit',
    ['QUOTA_EXCEEDED'],
    (random) => textPdf(textPages(random, 10_000, 1)),
  );
  generated(
    'lying-page-count',
    'a page tree whose /Count says 100,000,000 over one page',
    ['ingested', 'MALFORMED_FILE', 'QUOTA_EXCEEDED'],
    (random) => {
      const bytes = textPdf(textPages(random, 1));
      return latin1(fromLatin1(bytes).replace('/Count 1 ', '/Count 100000000 '));
    },
  );
  generated(
    'page-tree-cycle',
    'a page tree whose /Kids contains itself',
    ['MALFORMED_FILE', 'NO_TEXT'],
    () => {
      const writer = new PdfWriter();
      const catalog = writer.reserve();
      const pages = writer.reserve();
      writer.set(pages, `<< /Type /Pages /Kids [${pages} 0 R ${pages} 0 R] /Count 2 >>`);
      writer.set(catalog, `<< /Type /Catalog /Pages ${pages} 0 R >>`);
      return writer.finish(`/Root ${catalog} 0 R`);
    },
  );
  generated('no-text-1', 'one page with an empty content stream', ['NO_TEXT'], () =>
    textPdf([[]], { content: () => new Uint8Array() }),
  );
  generated('no-text-200', '200 pages with empty content streams', ['NO_TEXT'], () =>
    textPdf(
      Array.from({ length: 200 }, () => []),
      { content: () => new Uint8Array() },
    ),
  );
  generated('vector-only', 'pages of lines and rectangles, no text', ['NO_TEXT'], () =>
    textPdf([[], []], {
      content: () =>
        ascii(
          Array.from(
            { length: 500 },
            (_, i) => `${i % 500} ${i % 700} m ${(i * 7) % 500} ${(i * 3) % 700} l S`,
          ).join('\n'),
        ),
    }),
  );
  generated(
    'encrypted-rc4',
    'the Standard security handler, RC4 128-bit, unknown user password',
    ['ENCRYPTED_FILE'],
    (random) => textPdf(textPages(random, 1), { trailer: encryptDictionary(random, 'rc4') }),
  );
  generated(
    'encrypted-aes',
    'the Standard security handler, AES-128, unknown user password',
    ['ENCRYPTED_FILE'],
    (random) => textPdf(textPages(random, 1), { trailer: encryptDictionary(random, 'aes') }),
  );
  generated(
    'encrypted-unknown-handler',
    'an /Encrypt dictionary with an unknown security handler',
    ['ENCRYPTED_FILE', 'MALFORMED_FILE'],
    (random) => textPdf(textPages(random, 1), { trailer: encryptDictionary(random, 'unknown') }),
  );
  add({
    id: 'pdf-flate-bomb',
    family: 'pdf',
    filename: 'flate-bomb.pdf',
    description: 'one content stream of 300 KB that inflates to 256 MB (text, then spaces)',
    expect: ['ingested', 'QUOTA_EXCEEDED', 'MALFORMED_FILE', 'FILE_TOO_LARGE'],
    heavy: true,
    bytes: (random) => {
      const writer = new PdfWriter();
      const catalog = writer.reserve();
      const pages = writer.reserve();
      const font = writer.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
      const unit = new Uint8Array(1 << 20).fill(0x20);
      const head = pageContent([sentence(random), 'Bom kompresi']);
      const bomb = repeatedDeflate(unit, 256);
      // zlib wrapper around the raw deflate: header, data, a checksum pdf.js does not verify.
      const stream = concatBytes([new Uint8Array([0x78, 0x9c]), bomb.compressed, new Uint8Array(4)]);
      const text = writer.add(PdfWriter.stream('', head));
      const spaces = writer.add(PdfWriter.stream('/Filter /FlateDecode', stream));
      const page = writer.add(
        `<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents [${text} 0 R ${spaces} 0 R] >>`,
      );
      writer.set(pages, `<< /Type /Pages /Kids [${page} 0 R] /Count 1 >>`);
      writer.set(catalog, `<< /Type /Catalog /Pages ${pages} 0 R >>`);
      return writer.finish(`/Root ${catalog} 0 R`);
    },
  });
  generated('huge-content-stream', 'one page drawing 200,000 lines of text', INGESTED_OR_QUOTA, (random) =>
    textPdf([Array.from({ length: 200_000 }, (_, i) => `${i} ${words(random, 4)}`)]),
  );
  generated(
    'many-text-runs',
    '100 pages of 2,000 single-character runs at scattered positions',
    INGESTED_OR_QUOTA,
    (random) =>
      textPdf(
        Array.from({ length: 100 }, () => []),
        {
          content: () => {
            const operators = ['BT', '/F1 9 Tf'];
            for (let i = 0; i < 2_000; i++) {
              operators.push(
                `1 0 0 1 ${random.int(560)} ${random.int(820)} Tm (${String.fromCharCode(97 + random.int(26))}) Tj`,
              );
            }
            operators.push('ET');
            return ascii(operators.join('\n'));
          },
        },
      ),
  );
  generated(
    'deep-array',
    'a content stream of 100,000 nested arrays',
    ['NO_TEXT', 'MALFORMED_FILE', 'ingested'],
    () =>
      textPdf([[]], {
        content: () =>
          ascii(`${'['.repeat(100_000)}${']'.repeat(100_000)} BT /F1 11 Tf 56 790 Td (dalam) Tj ET`),
      }),
  );
  generated(
    'deep-dictionary',
    'an info dictionary nested 50,000 levels deep',
    ['ingested', 'MALFORMED_FILE'],
    (random) =>
      textPdf(textPages(random, 1), {
        trailer: (writer) => `/Info ${writer.add(`${'<< /A '.repeat(50_000)}1${' >>'.repeat(50_000)}`)} 0 R`,
      }),
  );
  generated(
    'xref-garbage',
    'a cross-reference table whose offsets all point to the wrong place',
    ['ingested', 'MALFORMED_FILE'],
    (random) => {
      const text = fromLatin1(textPdf(textPages(random, 2)));
      return latin1(
        text.replace(/^(\d{10}) 00000 n /gm, () => `${String(random.int(99999)).padStart(10, '0')} 00000 n `),
      );
    },
  );
  generated(
    'no-xref',
    'objects with no cross-reference table or trailer',
    ['ingested', 'MALFORMED_FILE'],
    (random) => {
      const text = fromLatin1(textPdf(textPages(random, 2)));
      return latin1(text.slice(0, text.indexOf('xref')));
    },
  );
  generated(
    'header-only',
    'the header line and nothing else',
    ['MALFORMED_FILE'],
    () => utf8('%PDF-1.7\n'),
    {},
  );
  generated(
    'header-then-junk',
    'a PDF header followed by 10 KB of random bytes',
    ['MALFORMED_FILE', 'NO_TEXT'],
    (random) => concatBytes([utf8('%PDF-1.4\n'), random.bytes(10_240)]),
  );
  generated(
    'javascript-action',
    'an /OpenAction running JavaScript and a /URI javascript: link',
    ['ingested'],
    (random) =>
      textPdf(textPages(random, 1), {
        catalog: `/OpenAction << /S /JavaScript /JS ${pdfString("app.alert('pdf js')")} >> /Names << /JavaScript << /Names [] >> >>`,
      }),
  );
  generated('launch-and-attachment', 'a /Launch action and an embedded executable', ['ingested'], (random) =>
    textPdf(textPages(random, 1), {
      catalog: `/OpenAction << /S /Launch /F (cmd.exe) /Win << /F (cmd.exe) /P (/c calc) >> >>`,
      trailer: (writer) => {
        const file = writer.add(
          PdfWriter.stream('/Type /EmbeddedFile', concatBytes([utf8('MZ'), random.bytes(2_000)])),
        );
        writer.add(`<< /Type /Filespec /F (evil.exe) /EF << /F ${file} 0 R >> >>`);
        return '';
      },
    }),
  );
  generated(
    'incremental-1000',
    '1,000 incremental updates, each rewriting the catalog',
    ['ingested', 'MALFORMED_FILE'],
    (random) => {
      const original = textPdf(textPages(random, 1));
      const parts: Uint8Array[] = [original];
      let length = original.length;
      const text = fromLatin1(original);
      let previous = /startxref\n(\d+)/.exec(text)?.[1] ?? '0';
      const size = /\/Size (\d+)/.exec(text)?.[1] ?? '1';
      for (let update = 0; update < 1_000; update++) {
        const body = `1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n`;
        const xrefOffset = length + body.length;
        const section = `${body}xref\n1 1\n${String(length).padStart(10, '0')} 00000 n \ntrailer\n<< /Size ${size} /Root 1 0 R /Prev ${previous} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
        parts.push(ascii(section));
        length += section.length;
        previous = String(xrefOffset);
      }
      return concatBytes(parts);
    },
  );
  generated(
    'broken-font',
    'a TrueType font whose program is random bytes',
    ['ingested', 'NO_TEXT', 'MALFORMED_FILE'],
    (random) => {
      const bytes = fromLatin1(textPdf(textPages(random, 1)));
      const junk = Buffer.from(random.bytes(4_000)).toString('latin1');
      const font = `<< /Type /Font /Subtype /TrueType /BaseFont /Evil /FirstChar 32 /LastChar 126 /FontDescriptor << /Type /FontDescriptor /FontName /Evil /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 99 0 R >> >>`;
      return latin1(
        bytes
          .replace('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>', font)
          .replace(
            '%%EOF\n',
            `%%EOF\n99 0 obj\n<< /Length ${junk.length} >>\nstream\n${junk}\nendstream\nendobj\n`,
          ),
      );
    },
  );
  generated(
    'odd-boxes',
    'pages rotated 90/180/270 with negative and 10^30-point media boxes',
    ['ingested', 'NO_TEXT'],
    (random) => {
      const text = fromLatin1(textPdf(textPages(random, 4)));
      let page = 0;
      const boxes = [
        '[0 0 -1 -1] /Rotate 90',
        '[0 0 1e30 1e30] /Rotate 180',
        '[100 100 100 100] /Rotate 270',
        '[0 0 595 842] /Rotate 45',
      ];
      return latin1(
        text.replace(/\/MediaBox \[0 0 595 842\]/g, () => `/MediaBox ${boxes[page++ % boxes.length]}`),
      );
    },
  );
  generated('version-9', 'a header claiming PDF version 9.9', ['ingested'], (random) => {
    const text = fromLatin1(textPdf(textPages(random, 1)));
    return latin1(text.replace('%PDF-1.7', '%PDF-9.9'));
  });
  generated(
    'prefix-junk',
    '900 bytes of text before the %PDF header (readers accept up to 1,024)',
    ['ingested', 'MALFORMED_FILE'],
    (random) =>
      concatBytes([utf8(repeatTo(900, () => `${words(random, 5)} `)), textPdf(textPages(random, 1))]),
  );
  generated(
    'many-objects',
    '200,000 unused objects beside one page',
    ['ingested', 'QUOTA_EXCEEDED', 'MALFORMED_FILE'],
    (random) =>
      textPdf(textPages(random, 1), {
        trailer: (writer) => {
          for (let i = 0; i < 200_000; i++) writer.add(`<< /N ${i} >>`);
          return '';
        },
      }),
  );

  // Truncated and byte-flipped copies of a generated PDF and of real ones.
  const bases: { name: string; bytes: () => Uint8Array }[] = [
    { name: 'generated', bytes: () => textPdf(textPages(createRandom(7), 3)) },
  ];
  const shared = sharedPdfs(sharedFiles);
  for (const base of PDF_MUTATION_BASES) {
    const sample = shared.find((entry) => entry.name === base);
    if (sample)
      bases.push({
        name: path.basename(base, '.pdf'),
        bytes: () => new Uint8Array(readFileSync(sample.path)),
      });
  }
  for (const base of bases) {
    for (const fraction of [0.01, 0.25, 0.5, 0.75, 0.99]) {
      add({
        id: `pdf-truncated-${base.name}-${Math.round(fraction * 100)}`,
        family: 'pdf-truncated',
        filename: `${base.name}-cut${Math.round(fraction * 100)}.pdf`,
        description: `${base.name}.pdf cut after ${Math.round(fraction * 100)}% of its bytes`,
        expect: ['MALFORMED_FILE', 'NO_TEXT', 'ingested'],
        bytes: () => {
          const bytes = base.bytes();
          return bytes.subarray(0, Math.max(9, Math.floor(bytes.length * fraction)));
        },
      });
    }
    for (const flips of [1, 4, 16, 64, 256]) {
      add({
        id: `pdf-fuzzed-${base.name}-${flips}`,
        family: 'pdf-fuzzed',
        filename: `${base.name}-flip${flips}.pdf`,
        description: `${base.name}.pdf with ${flips} seeded byte flips`,
        expect: ANY_TYPED,
        bytes: (random) => flipBytes(base.bytes(), random, flips),
      });
    }
  }
  for (const sample of shared) {
    add({
      id: `pdf-shared-${path.basename(sample.name, '.pdf')}`,
      family: 'pdf-shared',
      filename: path.basename(sample.name),
      description: `shared sample ${sample.name}`,
      expect: sample.encrypted
        ? ['ENCRYPTED_FILE']
        : IMAGE_ONLY_SAMPLES.has(sample.name)
          ? ['NO_TEXT']
          : ['ingested'],
      bytes: () => new Uint8Array(readFileSync(sample.path)),
    });
  }
}

// ---------------------------------------------------------------------------------------------
// DOCX: ZIP bombs, XXE, broken archives, deep XML

export function docxCases(add: AddHostileCase, sharedFiles: string | undefined): void {
  const paragraphs = (random: Random, count: number) =>
    Array.from({ length: count }, () => wordParagraph(sentence(random))).join('');
  const docx = (
    name: string,
    description: string,
    expect: readonly HostileOutcome[],
    make: (random: Random) => Uint8Array,
    extra: Partial<HostileCase> = {},
  ) =>
    add({
      id: `docx-${name}`,
      family: 'docx',
      filename: `${name}.docx`,
      description,
      expect,
      ...extra,
      bytes: make,
    });

  docx('small', 'a minimal Word document from the ZIP writer (a control case)', ['ingested'], (random) =>
    docxArchive({
      document: wordDocumentXml(wordParagraph('Catatan', 'Heading1') + paragraphs(random, 3)),
    }),
  );
  docx('headings-20000', '20,000 Heading 1 paragraphs without bodies', INGESTED_OR_QUOTA, () =>
    docxArchive({
      document: wordDocumentXml(
        Array.from({ length: 20_000 }, (_, i) => wordParagraph(`h${i}`, 'Heading1')).join(''),
      ),
    }),
  );
  /** A Word document whose document.xml is `megabytes` MB of one repeated paragraph (a ZIP bomb). */
  const bombArchive = (megabytes: number, declaredSize?: number) => {
    const paragraph = wordParagraph('kata kata kata kata kata kata kata kata');
    const unit = ascii(paragraph.repeat(Math.floor((1 << 20) / paragraph.length)));
    const xml = wordDocumentXml('').split('<w:body>');
    const document = repeatedDeflate(unit, Math.round((megabytes << 20) / unit.length), {
      head: ascii(`${xml[0]}<w:body>`),
      tail: ascii(xml[1] ?? ''),
    });
    return docxArchive({ document, ...(declaredSize !== undefined ? { declaredSize } : {}) });
  };
  docx(
    'bomb-1gb',
    'a 1 MB file whose document.xml inflates to 1 GB (sizes declared honestly)',
    ['FILE_TOO_LARGE', 'QUOTA_EXCEEDED'],
    () => bombArchive(1_024),
  );
  docx(
    'bomb-1gb-lying',
    'document.xml inflates to 1 GB but the ZIP headers declare 10 KB',
    ['FILE_TOO_LARGE', 'QUOTA_EXCEEDED', 'MALFORMED_FILE'],
    () => bombArchive(1_024, 10_000),
    { heavy: true },
  );
  docx(
    'bomb-400mb',
    'document.xml inflates to 400 MB, under the 512 MB archive limit',
    ['FILE_TOO_LARGE', 'QUOTA_EXCEEDED'],
    () => bombArchive(400),
    { heavy: true },
  );
  docx(
    'bomb-50mb',
    'document.xml inflates to 50 MB of paragraphs',
    INGESTED_OR_QUOTA.concat('FILE_TOO_LARGE'),
    () => bombArchive(50),
  );
  docx(
    'entries-100002',
    '100,002 ZIP entries: the 16-bit count of the end record wraps to 34,466',
    ['MALFORMED_FILE', 'UNSUPPORTED_TYPE', 'ingested', 'QUOTA_EXCEEDED'],
    () => {
      const inputs = Array.from({ length: 100_000 }, (_, i) => ({
        name: `x/${i}`,
        data: new Uint8Array(),
        method: 0 as const,
      }));
      return zipArchive([
        { name: '[Content_Types].xml', data: ascii('<Types/>') },
        { name: 'word/document.xml', data: ascii(wordDocumentXml(wordParagraph('banyak entri'))) },
        ...inputs,
      ]);
    },
  );

  const xxe = (doctype: string, text: string) =>
    wordDocumentXml(wordParagraph(text) + wordParagraph('Dokumen dengan DTD.'), doctype);
  docx(
    'xxe-file',
    'document.xml declares an external entity to file:///etc/passwd and uses it',
    ['ingested', 'MALFORMED_FILE'],
    () =>
      docxArchive({
        document: xxe('<!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n', 'isi: &xxe;'),
      }),
    { forbidden: ['root:x:0:0', 'root:'] },
  );
  docx(
    'xxe-http',
    'an external entity on http://127.0.0.1:9/ (nothing may be fetched)',
    ['ingested', 'MALFORMED_FILE'],
    () =>
      docxArchive({
        document: xxe(
          '<!DOCTYPE w:document [<!ENTITY xxe SYSTEM "http://127.0.0.1:9/xxe">]>\n',
          'isi: &xxe;',
        ),
      }),
  );
  docx(
    'xxe-parameter',
    'an external parameter entity pulling a remote DTD',
    ['ingested', 'MALFORMED_FILE'],
    () =>
      docxArchive({
        document: xxe(
          '<!DOCTYPE w:document [<!ENTITY % remote SYSTEM "http://127.0.0.1:9/evil.dtd"> %remote;]>\n',
          'parameter',
        ),
      }),
  );
  docx(
    'billion-laughs',
    'ten levels of entities each repeating the previous ten times',
    ['ingested', 'MALFORMED_FILE'],
    () => {
      const entities = ['<!ENTITY lol0 "lol">'];
      for (let level = 1; level < 10; level++)
        entities.push(`<!ENTITY lol${level} "${`&lol${level - 1};`.repeat(10)}">`);
      return docxArchive({ document: xxe(`<!DOCTYPE w:document [${entities.join('')}]>\n`, 'tawa &lol9;') });
    },
    { forbidden: ['lollollollollollollollollollol'] },
  );
  docx(
    'xxe-content-types',
    'an external entity in [Content_Types].xml',
    ['ingested', 'MALFORMED_FILE'],
    (random) =>
      docxArchive({
        document: wordDocumentXml(paragraphs(random, 2)),
        parts: {
          '[Content_Types].xml': `<?xml version="1.0"?><!DOCTYPE Types [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="&xxe;"/></Types>`,
        },
      }),
    { forbidden: ['root:x:0:0'] },
  );
  docx(
    'xxe-relationships',
    'an external entity in the document relationships',
    ['ingested', 'MALFORMED_FILE'],
    (random) =>
      docxArchive({
        document: wordDocumentXml(paragraphs(random, 2)),
        parts: {
          'word/_rels/document.xml.rels': `<?xml version="1.0"?><!DOCTYPE Relationships [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="&xxe;"/></Relationships>`,
        },
      }),
    { forbidden: ['root:x:0:0'] },
  );
  docx(
    'xxe-core-properties',
    'an external entity as the title in docProps/core.xml',
    ['ingested', 'MALFORMED_FILE'],
    (random) =>
      docxArchive({
        document: wordDocumentXml(paragraphs(random, 2)),
        parts: {
          'docProps/core.xml': `<?xml version="1.0"?><!DOCTYPE cp:coreProperties [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>&xxe;</dc:title></cp:coreProperties>`,
        },
      }),
    { forbidden: ['root:x:0:0'] },
  );
  docx('not-zip', 'random bytes named .docx', ['MALFORMED_FILE', 'UNSUPPORTED_TYPE'], (random) =>
    random.bytes(8_192),
  );
  docx(
    'no-document-part',
    'a ZIP with content types and relationships but no word/document.xml',
    ['UNSUPPORTED_TYPE', 'MALFORMED_FILE'],
    () =>
      zipArchive([
        { name: '[Content_Types].xml', data: ascii('<Types/>') },
        { name: '_rels/.rels', data: ascii('<Relationships/>') },
      ]),
  );
  docx(
    'document-not-xml',
    'word/document.xml holding random bytes',
    ['MALFORMED_FILE', 'NO_TEXT'],
    (random) => docxArchive({ document: Buffer.from(random.bytes(4_000)).toString('latin1') }),
  );
  docx('empty-body', 'a valid document with an empty body', ['NO_TEXT'], () =>
    docxArchive({ document: wordDocumentXml('') }),
  );
  docx(
    'path-traversal-entries',
    'extra entries named ../../evil.sh, /etc/cron.d/x and C:\\x.bat',
    ['ingested'],
    (random) =>
      docxArchive({
        document: wordDocumentXml(paragraphs(random, 2)),
        parts: { '../../evil.sh': 'rm -rf /', '/etc/cron.d/x': '* * * * * root id', 'C:\\x.bat': 'del *' },
      }),
  );
  docx(
    'external-targets',
    'an image relationship pointing at http://127.0.0.1:1/ and file:///etc/passwd',
    ['ingested'],
    (random) =>
      docxArchive({
        document: wordDocumentXml(
          `${paragraphs(random, 2)}<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:blipFill><a:blip xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:link="rId9"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`,
        ),
        parts: {
          'word/_rels/document.xml.rels': `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="http://127.0.0.1:1/x.png" TargetMode="External"/><Relationship Id="rId8" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="file:///etc/passwd" TargetMode="External"/></Relationships>`,
        },
      }),
    { forbidden: ['root:x:0:0'] },
  );
  docx('nested-tables-5000', '5,000 nested tables', ['ingested', 'MALFORMED_FILE', 'QUOTA_EXCEEDED'], () => {
    const open = '<w:tbl><w:tr><w:tc>';
    const close = '<w:p/></w:tc></w:tr></w:tbl>';
    return docxArchive({
      document: wordDocumentXml(`${open.repeat(5_000)}${wordParagraph('dalam')}${close.repeat(5_000)}`),
    });
  });
  docx(
    'deep-xml-100000',
    '100,000 nested content controls',
    ['ingested', 'MALFORMED_FILE', 'QUOTA_EXCEEDED'],
    () =>
      docxArchive({
        document: wordDocumentXml(
          `${'<w:sdt><w:sdtContent>'.repeat(100_000)}${wordParagraph('dalam')}${'</w:sdtContent></w:sdt>'.repeat(100_000)}`,
        ),
      }),
  );
  docx('paragraph-20mb', 'one 20 MB paragraph', INGESTED_OR_QUOTA, (random) =>
    docxArchive({
      document: wordDocumentXml(wordParagraph(repeatTo(20_000_000, () => `${words(random, 40)} `))),
    }),
  );
  docx(
    'duplicate-document-part',
    'two word/document.xml entries with different text',
    ['ingested', 'MALFORMED_FILE'],
    (random) =>
      zipArchive([
        { name: '[Content_Types].xml', data: ascii('<Types/>') },
        { name: 'word/document.xml', data: ascii(wordDocumentXml(paragraphs(random, 1))) },
        { name: 'word/document.xml', data: ascii(wordDocumentXml(paragraphs(random, 1))) },
      ]),
  );
  docx('stored-entries', 'every entry stored without compression', ['ingested'], (random) =>
    zipArchive([
      {
        name: '_rels/.rels',
        method: 0,
        data: ascii(
          '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
        ),
      },
      { name: 'word/document.xml', method: 0, data: ascii(wordDocumentXml(paragraphs(random, 3))) },
    ]),
  );
  docx(
    'unknown-method',
    'document.xml compressed with method 14 (LZMA), which readers here lack',
    ['MALFORMED_FILE'],
    (random) => {
      const bytes = docxArchive({ document: wordDocumentXml(paragraphs(random, 3)) });
      // Patch the method of every entry (local and central headers) from 8 to 14.
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (let offset = 0; offset + 4 <= bytes.length; offset++) {
        const signature = view.getUint32(offset, true);
        if (signature === 0x04034b50 && view.getUint16(offset + 8, true) === 8)
          view.setUint16(offset + 8, 14, true);
        if (signature === 0x02014b50 && view.getUint16(offset + 10, true) === 8)
          view.setUint16(offset + 10, 14, true);
      }
      return bytes;
    },
  );
  docx('wrong-crc', 'every entry with a wrong CRC-32', ['ingested', 'MALFORMED_FILE'], (random) => {
    const bytes = docxArchive({ document: wordDocumentXml(paragraphs(random, 3)) });
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let offset = 0; offset + 4 <= bytes.length; offset++) {
      const signature = view.getUint32(offset, true);
      if (signature === 0x04034b50) view.setUint32(offset + 14, 0xdeadbeef, true);
      if (signature === 0x02014b50) view.setUint32(offset + 16, 0xdeadbeef, true);
    }
    return bytes;
  });
  docx('macros', 'a macro project (vbaProject.bin) beside the text', ['ingested'], (random) =>
    docxArchive({
      document: wordDocumentXml(paragraphs(random, 2)),
      parts: {
        'word/vbaProject.bin': concatBytes([new Uint8Array([0xd0, 0xcf, 0x11, 0xe0]), random.bytes(4_000)]),
      },
    }),
  );
  docx(
    'altchunk-html',
    'an altChunk importing an HTML part with a script',
    ['ingested'],
    (random) =>
      docxArchive({
        document: wordDocumentXml(
          `${paragraphs(random, 2)}<w:altChunk xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="rId5"/>`,
        ),
        parts: {
          'word/afchunk.html':
            '<html><body><script>alert("ALTCHUNK_SENTINEL")</script><p>chunk</p></body></html>',
          'word/_rels/document.xml.rels': `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId5" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/aFChunk" Target="afchunk.html"/></Relationships>`,
        },
      }),
    { forbidden: ['ALTCHUNK_SENTINEL'] },
  );
  docx(
    'utf16-xml',
    'document.xml encoded as UTF-16LE',
    ['ingested', 'MALFORMED_FILE', 'NO_TEXT'],
    (random) => {
      const xml = wordDocumentXml(paragraphs(random, 2)).replace('encoding="UTF-8"', 'encoding="UTF-16"');
      const bytes = new Uint8Array(2 + xml.length * 2);
      bytes.set([0xff, 0xfe]);
      for (let i = 0; i < xml.length; i++) {
        bytes[2 + i * 2] = xml.charCodeAt(i) & 0xff;
        bytes[3 + i * 2] = xml.charCodeAt(i) >> 8;
      }
      return zipArchive([
        { name: '[Content_Types].xml', data: ascii('<Types/>') },
        { name: 'word/document.xml', data: bytes },
      ]);
    },
  );

  // Truncated copies of a generated and of real documents, and the shared samples as they are.
  const folder = sharedFiles ? path.join(sharedFiles, 'docx-samples') : undefined;
  const bases: { name: string; bytes: () => Uint8Array }[] = [
    {
      name: 'generated',
      bytes: () => docxArchive({ document: wordDocumentXml(paragraphs(createRandom(9), 40)) }),
    },
  ];
  for (const base of DOCX_MUTATION_BASES) {
    const file = folder ? path.join(folder, base) : undefined;
    if (file && existsSync(file))
      bases.push({ name: path.basename(base, '.docx'), bytes: () => new Uint8Array(readFileSync(file)) });
  }
  for (const base of bases) {
    for (const fraction of [0.1, 0.5, 0.9, 0.999]) {
      add({
        id: `docx-truncated-${base.name}-${Math.round(fraction * 1000)}`,
        family: 'docx-truncated',
        filename: `${base.name}-cut${Math.round(fraction * 1000)}.docx`,
        description: `${base.name}.docx cut after ${(fraction * 100).toFixed(1)}% of its bytes`,
        expect: ['MALFORMED_FILE', 'UNSUPPORTED_TYPE'],
        bytes: () => {
          const bytes = base.bytes();
          return bytes.subarray(0, Math.floor(bytes.length * fraction));
        },
      });
    }
  }
  if (folder && existsSync(folder)) {
    const groups = readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    for (const group of groups.map((entry) => entry.name).sort()) {
      const directory = path.join(folder, group);
      const names = readdirSync(directory)
        .filter((name) => name.endsWith('.docx'))
        .sort();
      for (const name of names) {
        const file = path.join(directory, name);
        add({
          id: `docx-shared-${group}-${path.basename(name, '.docx')}`,
          family: 'docx-shared',
          filename: name,
          description: `shared sample ${group}/${name}`,
          expect: DOCX_WITHOUT_TEXT.has(`${group}/${name}`) ? ['NO_TEXT'] : ['ingested'],
          bytes: () => new Uint8Array(readFileSync(file)),
        });
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Wrong extensions and binary formats

export function wrongExtensionAndBinaryCases(add: AddHostileCase): void {
  const realPdf = (random: Random) => textPdf(textPages(random, 1));
  const realDocx = (random: Random) =>
    docxArchive({
      document: wordDocumentXml(wordParagraph('Salah nama', 'Heading1') + wordParagraph(sentence(random))),
    });
  const png = (random: Random) =>
    concatBytes([
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      ascii('IHDR'),
      random.bytes(2_000),
    ]);
  const zipOf = (names: string[]) => (random: Random) =>
    zipArchive(names.map((name) => ({ name, data: utf8(`${name}: ${sentence(random)}`) })));
  const wrong: [string, string, readonly HostileOutcome[], (random: Random) => Uint8Array][] = [
    ['pdf-as-md', 'laporan.md', ['ingested'], realPdf],
    ['pdf-as-docx', 'laporan.docx', ['ingested'], realPdf],
    ['pdf-no-extension', 'laporan', ['ingested'], realPdf],
    ['png-as-pdf', 'scan.pdf', ['UNSUPPORTED_TYPE', 'MALFORMED_FILE'], png],
    ['png-as-md', 'gambar.md', ['UNSUPPORTED_TYPE'], png],
    ['zip-as-docx', 'arsip.docx', ['UNSUPPORTED_TYPE', 'MALFORMED_FILE'], zipOf(['catatan.txt', 'data.csv'])],
    ['zip-as-pdf', 'arsip.pdf', ['UNSUPPORTED_TYPE', 'MALFORMED_FILE'], zipOf(['catatan.txt'])],
    ['xlsx-as-docx', 'tabel.docx', ['UNSUPPORTED_TYPE'], zipOf(['[Content_Types].xml', 'xl/workbook.xml'])],
    [
      'pptx-as-docx',
      'slide.docx',
      ['UNSUPPORTED_TYPE'],
      zipOf(['[Content_Types].xml', 'ppt/presentation.xml']),
    ],
    ['epub-as-docx', 'buku.docx', ['UNSUPPORTED_TYPE'], zipOf(['mimetype', 'OEBPS/content.opf'])],
    ['docx-as-pdf', 'surat.pdf', ['ingested'], realDocx],
    ['docx-as-md', 'surat.md', ['ingested'], realDocx],
    [
      'html-as-pdf',
      'halaman.pdf',
      ['MALFORMED_FILE'],
      (random) => utf8(`<html><body><p>${sentence(random)}</p></body></html>`),
    ],
    ['md-as-docx', 'catatan.docx', ['MALFORMED_FILE'], (random) => utf8(smallMarkdown(random, 'docx'))],
    ['md-as-html', 'catatan.html', ['ingested'], (random) => utf8(smallMarkdown(random, 'html'))],
    [
      'html-as-txt',
      'halaman.txt',
      ['ingested'],
      (random) => utf8(`<html><body><h1>Judul</h1><p>${sentence(random)}</p></body></html>`),
    ],
    [
      'md-as-png',
      'catatan.png',
      ['ingested', 'UNSUPPORTED_TYPE'],
      (random) => utf8(smallMarkdown(random, 'png')),
    ],
    [
      'jpeg-as-md',
      'foto.md',
      ['UNSUPPORTED_TYPE'],
      (random) => concatBytes([new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), random.bytes(3_000)]),
    ],
    [
      'gif-as-txt',
      'animasi.txt',
      ['UNSUPPORTED_TYPE'],
      (random) => concatBytes([ascii('GIF89a'), random.bytes(1_000)]),
    ],
    [
      'html-pdf-polyglot',
      'poliglot.html',
      ['MALFORMED_FILE', 'NO_TEXT', 'ingested'],
      (random) => utf8(`<html><!-- %PDF-1.4 --><body><p>${sentence(random)}</p></body></html>`),
    ],
  ];
  for (const [name, filename, expect, make] of wrong) {
    add({
      id: `wrong-${name}`,
      family: 'wrong-extension',
      filename,
      description: `wrong extension: ${name.replace(/-/g, ' ')}`,
      expect,
      bytes: make,
    });
  }
  const binary: [string, string, readonly HostileOutcome[], (random: Random) => Uint8Array][] = [
    [
      'elf',
      'program.md',
      ['UNSUPPORTED_TYPE'],
      (random) => concatBytes([new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), random.bytes(4_000)]),
    ],
    [
      'windows-exe',
      'setup.txt',
      ['UNSUPPORTED_TYPE'],
      (random) => concatBytes([ascii('MZ'), random.bytes(4_000)]),
    ],
    [
      'gzip',
      'arsip.md',
      ['UNSUPPORTED_TYPE'],
      (random) => concatBytes([new Uint8Array([0x1f, 0x8b, 8, 0]), random.bytes(2_000)]),
    ],
    [
      '7zip',
      'arsip.pdf',
      ['UNSUPPORTED_TYPE', 'MALFORMED_FILE'],
      (random) => concatBytes([new Uint8Array([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]), random.bytes(2_000)]),
    ],
    [
      'rar',
      'arsip.docx',
      ['UNSUPPORTED_TYPE', 'MALFORMED_FILE'],
      (random) => concatBytes([ascii('Rar!'), new Uint8Array([0x1a, 7, 0]), random.bytes(2_000)]),
    ],
    [
      'tiff',
      'scan.html',
      ['UNSUPPORTED_TYPE'],
      (random) => concatBytes([new Uint8Array([0x49, 0x49, 0x2a, 0]), random.bytes(2_000)]),
    ],
    ['riff', 'suara.md', ['UNSUPPORTED_TYPE'], (random) => concatBytes([ascii('RIFF'), random.bytes(2_000)])],
    ['rtf', 'surat.txt', ['UNSUPPORTED_TYPE'], (random) => utf8(`{\\rtf1\\ansi ${sentence(random)}}`)],
    [
      'legacy-doc',
      'surat.docx',
      ['UNSUPPORTED_TYPE', 'MALFORMED_FILE'],
      (random) =>
        concatBytes([new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), random.bytes(4_000)]),
    ],
    [
      'encrypted-office',
      'rahasia.docx',
      ['ENCRYPTED_FILE'],
      (random) =>
        concatBytes([
          new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
          random.bytes(1_000),
          Uint8Array.from([...'EncryptedPackage'].flatMap((character) => [character.charCodeAt(0), 0])),
          random.bytes(1_000),
        ]),
    ],
    [
      'sqlite',
      'basis.md',
      ['UNSUPPORTED_TYPE'],
      (random) => concatBytes([ascii('SQLite format 3\u0000'), random.bytes(4_000)]),
    ],
    [
      'wasm',
      'modul.txt',
      ['UNSUPPORTED_TYPE'],
      (random) => concatBytes([new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), random.bytes(1_000)]),
    ],
    ['random-64kb', 'acak', ['UNSUPPORTED_TYPE'], (random) => random.bytes(65_536)],
    ['random-1mb', 'acak.md', ['UNSUPPORTED_TYPE'], (random) => random.bytes(1 << 20)],
    ['random-10mb', 'acak.txt', ['UNSUPPORTED_TYPE'], (random) => random.bytes(10 << 20)],
  ];
  for (const [name, filename, expect, make] of binary) {
    add({
      id: `binary-${name}`,
      family: 'binary',
      filename,
      description: `binary: ${name.replace(/-/g, ' ')} named ${filename}`,
      expect,
      bytes: make,
    });
  }
}
