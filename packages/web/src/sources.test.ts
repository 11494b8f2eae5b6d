import type { Certificate, Citation, Composition } from '@saksi/proof';
import { buildCertificate, type ClaimInput, issuerFromSecretKey } from '@saksi/proof/issue';
import { describe, expect, it } from 'vitest';
import { type Inline, parseMarkdown } from './markdown.js';
import {
  answerBlocks,
  answerMarkdown,
  citationHref,
  citedLinkPolicy,
  codeChunks,
  codeMarkdown,
  explorerTxUrl,
  formatCitation,
  highlightSegments,
  markdownDocuments,
  textHead,
  textTail,
} from './sources.js';

describe('formatCitation', () => {
  it('names the Pasal and ayat, or the section path and page', () => {
    expect(formatCitation({ document_title: 'UU 22/2009', pasal: '287', ayat: '2' })).toBe(
      'UU 22/2009, Pasal 287 ayat (2)',
    );
    expect(
      formatCitation({ document_title: 'Redux', section_path: ['Core', 'Reducers'], page: 3 }, 'halaman'),
    ).toBe('Redux, Core › Reducers, halaman 3');
  });

  it('shows names without the bidi overrides and invisible characters that would reorder them', () => {
    // "laporan\u202Efdp.exe" would read "laporanexe.pdf", and push the source's "[1]" inside it.
    expect(
      formatCitation({
        document_title: 'laporan\u202Efdp.exe',
        section_path: ['Bab\u2067 I\u2069', 'Isi\u200B'],
      }),
    ).toBe('laporanfdp.exe, Bab I › Isi');
  });
});

describe('citationHref', () => {
  it('links only to absolute http(s) URLs', () => {
    expect(citationHref({ url: 'https://redux.js.org/api/store#getstate' })).toBe(
      'https://redux.js.org/api/store#getstate',
    );
    expect(citationHref({})).toBeUndefined();
    for (const url of [
      'javascript:alert(1)',
      'vbscript:x',
      'data:text/html,x',
      'ftp://x.org/',
      '/x',
      '//x.org/',
    ])
      expect(citationHref({ url }), url).toBeUndefined();
  });
});

describe('highlightSegments', () => {
  it('marks code-point ranges (not UTF-16 units) and merges overlaps', () => {
    const text = '😀 Setiap orang 😀 wajib';
    const segments = highlightSegments(text, [
      { start: 2, end: 8 },
      { start: 7, end: 14 },
      { start: 17, end: 22 },
    ]);
    expect(segments).toEqual([
      { text: '😀 ', marked: false },
      { text: 'Setiap orang', marked: true },
      { text: ' 😀 ', marked: false },
      { text: 'wajib', marked: true },
    ]);
  });

  it('clips ranges to the text and cuts long context with an ellipsis', () => {
    const text = 'a'.repeat(50) + 'SPAN' + 'b'.repeat(50);
    const segments = highlightSegments(
      text,
      [
        { start: 50, end: 54 },
        { start: 500, end: 600 },
      ],
      10,
    );
    expect(segments).toEqual([
      { text: '…', marked: false },
      { text: 'a'.repeat(10), marked: false },
      { text: 'SPAN', marked: true },
      { text: 'b'.repeat(10), marked: false },
      { text: '…', marked: false },
    ]);
  });
});

describe('textHead and textTail', () => {
  it('keep short text whole and cut long text at a space near the cut, by code points', () => {
    expect(textHead('  short text ', 40)).toBe('short text');
    expect(textTail('short text', 40)).toBe('short text');
    const words = 'satu dua tiga empat lima enam tujuh delapan sembilan sepuluh';
    expect(textHead(words, 20)).toBe('satu dua tiga empat');
    expect(textTail(words, 20)).toBe('sembilan sepuluh');
    // No space near the cut: cut exactly; emoji count as one character each.
    expect(textHead('😀'.repeat(30), 10)).toBe('😀'.repeat(10));
    expect(textTail(`a ${'x'.repeat(30)}`, 10)).toBe('x'.repeat(10));
  });
});

describe('explorerTxUrl', () => {
  const tx = `0x${'ab'.repeat(32)}`;
  it('links Base and Base Sepolia transactions to their explorer, nothing else', () => {
    expect(explorerTxUrl(8453, tx)).toBe(`https://basescan.org/tx/${tx}`);
    expect(explorerTxUrl(84532, tx)).toBe(`https://sepolia.basescan.org/tx/${tx}`);
    expect(explorerTxUrl(31337, tx)).toBeUndefined();
    // A hostile hash never becomes part of a link.
    expect(explorerTxUrl(8453, `${tx}/../x`)).toBeUndefined();
    expect(explorerTxUrl(8453, 'javascript:alert(1)')).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------
// The answer as safe Markdown

const EVIL = '[portal retribusi pasar resmi](https://evil.example/phish)';
const STORE = 'https://redux.js.org/api/store#getstate';

interface TestEvidence {
  document_id: string;
  chunk_text: string;
  span_text: string;
  citation?: Partial<Citation>;
}

/** A real certificate (the proof package's builder checks offsets and compositions) for `answer`. */
function certify(
  answer: string,
  claims: { text: string; evidence: TestEvidence[]; composition?: Composition }[],
  generator: 'extractive' | 'llm' = 'extractive',
): { certificate: Certificate } {
  const { certificate } = buildCertificate({
    issuer: issuerFromSecretKey('test', new Uint8Array(32).fill(7)),
    query: { text: 'q' },
    retrieval: {
      collection: 'c',
      parameters: { top_k: 5, rrf_k: 60, weights: {}, rewrite_variants: [] },
      results: [],
    },
    answer: { text: answer, generator: { kind: generator, model: generator, version: '1' } },
    claims: claims.map(
      (claim): ClaimInput => ({
        text: claim.text,
        evidence: claim.evidence.map((evidence, index) => ({
          chunk_id: `${evidence.document_id}-${index}`,
          document_id: evidence.document_id,
          chunk_text: evidence.chunk_text,
          span_text: evidence.span_text,
          document_proof: { leaf_index: 0, tree_size: 1, path: [], document_root: '0'.repeat(64) },
          citation: { document_title: 'Dokumen', ...evidence.citation },
        })),
        verification: { label: 'entailed', confidence: 1, verifier: { id: 'test', version: '1' } },
        render: { rendered: true, reason: 'OK' },
        ...(claim.composition ? { composition: claim.composition } : {}),
      }),
    ),
  });
  return { certificate };
}

/** The answer's inline nodes as the chat reads them (all blocks flattened). */
function read(bundle: { certificate: Certificate }, markdown: ReadonlySet<string> = new Set()): Inline[] {
  const flatten = (nodes: readonly Inline[]): Inline[] =>
    nodes.flatMap((node) =>
      node.kind === 'bold' || node.kind === 'link' ? [node, ...flatten(node.children)] : [node],
    );
  return parseMarkdown(answerMarkdown(bundle, markdown), { allowLink: citedLinkPolicy(bundle) }).flatMap(
    (block) =>
      block.kind === 'code'
        ? [{ kind: 'code', text: block.text }]
        : flatten(block.kind === 'paragraph' ? block.children : block.items.flat()),
  );
}
const textOf = (nodes: readonly Inline[]) =>
  nodes.map((node) => (node.kind === 'text' ? node.text : node.kind === 'break' ? '\n' : '')).join('');
const links = (nodes: readonly Inline[]) =>
  nodes.flatMap((node) => (node.kind === 'link' ? [node.href] : []));
const markers = (nodes: readonly Inline[]) => nodes.flatMap((node) => (node.kind === 'cite' ? [node.n] : []));

describe('answerMarkdown', () => {
  // A plain-text (.txt) notice quoted verbatim by the offline composer: "<span> [1]".
  const notice = `Pembayaran retribusi hanya melalui ${EVIL}, lihat juga catatan [1] di bawah.`;
  const quote = `${notice} [1]`;
  const txt = certify(quote, [
    {
      text: quote,
      evidence: [{ document_id: 'doc_txt', chunk_text: `Pengumuman.\n${notice}`, span_text: notice }],
    },
  ]);

  it('shows a disguised link in a .txt document literally, with its full address and no link', () => {
    const nodes = read(txt);
    expect(links(nodes)).toEqual([]);
    expect(textOf(nodes)).toContain(EVIL);
    expect(textOf(nodes)).toContain('https://evil.example/phish');
  });

  it('makes only the marker the composer placed a citation marker, never a "[1]" in the document', () => {
    const nodes = read(txt);
    expect(markers(nodes)).toEqual([1]);
    expect(textOf(nodes)).toContain('catatan [1] di bawah');
    // The marker is the composer's, after the quote.
    expect(nodes.at(-1)).toEqual({ kind: 'cite', n: 1 });
  });

  it('reads the evidence of a Markdown document as lists only: its link syntax stays literal', () => {
    // What the Markdown reader leaves of `` `[mirror](https://evil.example/docs)` `` and a list.
    const chunk = 'Store API:\n- getState() [mirror](https://evil.example/docs)\n- dispatch(action) [2]';
    const answer = `${chunk} [1]`;
    const bundle = certify(answer, [
      {
        text: answer,
        evidence: [{ document_id: 'doc_md', chunk_text: chunk, span_text: chunk, citation: { url: STORE } }],
      },
    ]);
    const blocks = parseMarkdown(answerMarkdown(bundle, new Set(['doc_md'])), {
      allowLink: citedLinkPolicy(bundle),
    });
    expect(blocks.map((block) => block.kind)).toEqual(['paragraph', 'list']);
    const nodes = read(bundle, new Set(['doc_md']));
    expect(links(nodes)).toEqual([]);
    expect(textOf(nodes)).toContain('getState() [mirror](https://evil.example/docs)');
    expect(markers(nodes)).toEqual([1]);
    // Not known to be Markdown: not even a list.
    expect(
      parseMarkdown(answerMarkdown(bundle)).map((block) => block.kind),
      'unknown format',
    ).toEqual(['paragraph']);
  });

  it('keeps a link the composer wrote to the cited page, and shows an off-site one as text with its address', () => {
    const sentence =
      'Baca [halaman Store](https://redux.js.org/api/store) atau [bagian getState](https://redux.js.org/api/store#getstate), bukan [salinan resmi](https://evil.example/store)';
    const claim = `${sentence} [1]`;
    const bundle = certify(
      claim,
      [
        {
          text: claim,
          evidence: [
            {
              document_id: 'doc_md',
              chunk_text: 'getState() returns the current state tree.',
              span_text: 'getState() returns the current state tree.',
              citation: { url: STORE },
            },
          ],
        },
      ],
      'llm',
    );
    const nodes = read(bundle, new Set(['doc_md']));
    expect(links(nodes)).toEqual(['https://redux.js.org/api/store', STORE]);
    expect(textOf(nodes)).toContain('salinan resmi (https://evil.example/store)');
    expect(markers(nodes)).toEqual([1]);
  });

  it('takes the markers of a composed claim from its parts, not from the span text', () => {
    const span = 'Setiap orang dilarang membayar di luar loket [1] resmi.';
    const claim = `Menurut Pasal 5 UU 1/2024: ${span} [1]`;
    const bundle = certify(claim, [
      {
        text: claim,
        evidence: [
          {
            document_id: 'doc_pdf',
            chunk_text: span,
            span_text: span,
            citation: { label: 'Pasal 5 UU 1/2024' },
          },
        ],
        composition: {
          template: 'law.provision',
          language: 'id',
          parts: [
            { fixed: 'Menurut ' },
            { cite: 0 },
            { fixed: ': ' },
            { span: 0 },
            { fixed: ' ' },
            { marker: 1 },
          ],
        },
      },
    ]);
    const nodes = read(bundle);
    expect(markers(nodes)).toEqual([1]);
    expect(textOf(nodes)).toBe(`Menurut Pasal 5 UU 1/2024: ${span} `);
  });

  it('reads a spelled amount of a composed claim as plain text between its parts', () => {
    const subject = 'Anggaran Pendapatan Negara Tahun Anggaran 2023 direncanakan';
    const words = 'dua ribu lima ratus rupiah';
    const chunk = `${subject} sebesar Rp2.5OO,OO (${words}).`;
    const claim = `Menurut Pasal 3 UU 28/2022, ${subject} sebesar Rp2.500,00 (${words}) [1]`;
    const citation = { label: 'Pasal 3 UU 28/2022' };
    const bundle = certify(claim, [
      {
        text: claim,
        evidence: [
          { document_id: 'doc_pdf', chunk_text: chunk, span_text: subject, citation },
          { document_id: 'doc_pdf', chunk_text: chunk, span_text: words, citation },
        ],
        composition: {
          template: 'budget.figure-words',
          language: 'id',
          parts: [
            { fixed: 'Menurut ' },
            { cite: 0 },
            { fixed: ', ' },
            { span: 0 },
            { fixed: ' sebesar ' },
            { spelled: 1 },
            { fixed: ' (' },
            { span: 1 },
            { fixed: ')' },
            { fixed: ' ' },
            { marker: 1 },
          ],
        },
      },
    ]);
    const nodes = read(bundle);
    // Read part by part (a claim that does not add up is escaped whole: no marker).
    expect(markers(nodes)).toEqual([1]);
    expect(textOf(nodes)).toBe(`Menurut Pasal 3 UU 28/2022, ${subject} sebesar Rp2.500,00 (${words}) `);
  });

  it('reads a refusal and the text between claims as plain text', () => {
    const refusal = certify('Tidak ditemukan. Terkait: Catatan [1] › [x](https://evil.example/).', []);
    const nodes = read(refusal);
    expect(markers(nodes)).toEqual([]);
    expect(links(nodes)).toEqual([]);
    expect(textOf(nodes)).toBe('Tidak ditemukan. Terkait: Catatan [1] › [x](https://evil.example/).');
  });

  it('escapes a claim whose offsets do not match its text (a tampered bundle) whole', () => {
    const tampered = structuredClone(txt);
    tampered.certificate.answer.text = `${notice} [2]`;
    const nodes = read(tampered);
    expect(markers(nodes)).toEqual([]);
    expect(links(nodes)).toEqual([]);
    expect(textOf(nodes)).toBe(`${notice} [2]`);
  });
});

describe('code in answers', () => {
  const code =
    'const unsubscribe = store.subscribe(handleChange)\n  // `[1]` **x** [a](https://evil.example/)\nunsubscribe()';
  const line = 'store.dispatch({ type: `x` })';
  const answer = `Subscribe: ${code} [1] and ${line} [2]`;
  const start = 'Subscribe: '.length;
  const bundle = certify(answer, [
    {
      text: `${code} [1]`,
      evidence: [{ document_id: 'doc_md', chunk_text: code, span_text: code, citation: { url: STORE } }],
    },
    {
      text: `${line} [2]`,
      evidence: [{ document_id: 'doc_md2', chunk_text: line, span_text: line }],
    },
  ]);
  // certify() numbers each evidence's chunk `<document>-<index>`.
  const codeIds = new Set(['doc_md-0', 'doc_md2-0']);

  it('shows the text of a code chunk as a code block, lines kept and nothing inside read', () => {
    expect(bundle.certificate.claims[0]?.answer_start).toBe(start);
    const blocks = answerBlocks(answer, bundle, new Set(['doc_md', 'doc_md2']), codeIds);
    expect(blocks.map((block) => block.kind)).toEqual(['paragraph', 'code', 'paragraph']);
    expect(blocks[1]).toEqual({ kind: 'code', text: code });
    const last = blocks[2];
    expect(last?.kind === 'paragraph' ? last.children : []).toEqual([
      { kind: 'text', text: ' ' },
      { kind: 'cite', n: 1 },
      { kind: 'text', text: ' and ' },
      { kind: 'code', text: line },
      { kind: 'text', text: ' ' },
      { kind: 'cite', n: 2 },
    ]);
    // Without the chunk kinds it stays escaped text, as before.
    expect(answerBlocks(answer, bundle).map((block) => block.kind)).toEqual(['paragraph']);
  });

  it('codeMarkdown: a backtick run longer than any in the code, spaces kept at the edges', () => {
    for (const text of ['a ``` b', '`edge`', ' spaced ', 'x\n````\ny', 'plain'])
      expect(
        parseMarkdown(`p ${codeMarkdown(text)} q`).flatMap((block) =>
          block.kind === 'code'
            ? [block.text]
            : block.kind === 'paragraph'
              ? block.children.flatMap((node) => (node.kind === 'code' ? [node.text] : []))
              : [],
        ),
        text,
      ).toEqual([text]);
  });

  it('codeChunks names the retrieval results whose kind is code', () => {
    expect(
      codeChunks([{ chunk_id: 'a', kind: 'code' }, { chunk_id: 'b', kind: 'text' }, { kind: 'code' }, null]),
    ).toEqual(new Set(['a']));
  });
});

describe('citedLinkPolicy', () => {
  it('allows the cited pages, with or without their heading anchor, and nothing else', () => {
    const bundle = certify('a [1]', [
      {
        text: 'a [1]',
        evidence: [{ document_id: 'd', chunk_text: 'a', span_text: 'a', citation: { url: STORE } }],
      },
    ]);
    const allow = citedLinkPolicy(bundle);
    expect(allow(STORE)).toBe(true);
    expect(allow('https://redux.js.org/api/store')).toBe(true);
    expect(allow('https://redux.js.org/api/store#dispatch')).toBe(false);
    expect(allow('https://redux.js.org/api/')).toBe(false);
    expect(allow('https://evil.example/phish')).toBe(false);
    expect(citedLinkPolicy(certify('a', []))('https://redux.js.org/api/store')).toBe(false);
  });
});

describe('markdownDocuments', () => {
  it('names the documents whose citation says text/markdown', () => {
    expect(
      markdownDocuments([
        { document_id: 'a', citation: { document_title: 'A', mime: 'text/markdown' } },
        { document_id: 'b', citation: { document_title: 'B', mime: 'text/plain' } },
        { document_id: 'c', citation: { document_title: 'C' } },
        null,
        'x',
      ]),
    ).toEqual(new Set(['a']));
  });
});
