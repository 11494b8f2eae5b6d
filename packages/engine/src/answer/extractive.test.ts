import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkEntailment } from './entailment.js';
import {
  type AnswerSource,
  type ExtractiveAnswer,
  extractiveAnswer,
  isStatement,
  NOT_FOUND_TEXT,
} from './extractive.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const data = (relative: string) => path.resolve(repoRoot, '../shared/data', relative);
const llaj = readFileSync(data('corpora/uu-22-2009-llaj/uu-22-2009-llaj.fulltext.md'), 'utf8');
const llajLines = llaj.split('\n');
const reduxDocs = 'corpora/docs-redux/docs';

/** The body of a Pasal in the UU 22/2009 text: the lines after `Pasal n` up to the next Pasal heading. */
function pasalLines(pasal: number): string[] {
  const start = llajLines.indexOf(`Pasal ${pasal}`);
  if (start < 0) throw new Error(`Pasal ${pasal} not found in the fixture`);
  const lines: string[] = [];
  for (const next of llajLines.slice(start + 1)) {
    if (/^Pasal \d+$/.test(next)) break;
    lines.push(next);
  }
  return lines;
}

/** Ayat (n) of a Pasal, its first occurrence (the text has stray "(3) Setiap..." fragments after). */
function ayat(pasal: number, n: number): string {
  const found = pasalLines(pasal).find((candidate) => candidate.startsWith(`(${n}) `));
  if (found === undefined) throw new Error(`Pasal ${pasal} ayat (${n}) not found in the fixture`);
  return found;
}

/** A Markdown section: from its heading line to the next heading of the same or higher level. */
function section(file: string, heading: string): string {
  const lines = readFileSync(data(`${reduxDocs}/${file}`), 'utf8').split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`${heading} not found in ${file}`);
  const level = heading.indexOf(' ');
  let end = start + 1;
  while (end < lines.length && !new RegExp(`^#{1,${level}} `).test(lines[end]!)) end++;
  return lines.slice(start, end).join('\n');
}

function source(text: string, index: number, citation: Partial<AnswerSource['citation']> = {}): AnswerSource {
  return {
    chunk_id: `chunk-${index}`,
    document_id: 'doc-1',
    text,
    score: 1 / (index + 1),
    citation: { document_title: 'UU 22/2009', ...citation },
  };
}

/** The invariants the certificate builder relies on. */
function expectWellFormed(answer: ExtractiveAnswer, sources: readonly AnswerSource[]): void {
  let cursor = 0;
  const numbers = new Map<number, number>();
  for (const claim of answer.claims) {
    const chunk = sources[claim.source_index]!.text;
    expect(chunk.slice(claim.span.start, claim.span.end)).toBe(claim.span.text);
    const citation = numbers.get(claim.source_index) ?? numbers.size + 1;
    numbers.set(claim.source_index, citation);
    expect(claim.text).toBe(`${claim.span.text} [${citation}]`);
    const at = answer.text.indexOf(claim.text, cursor);
    expect(at).toBeGreaterThanOrEqual(cursor);
    cursor = at + claim.text.length;
  }
  if (answer.found) expect(answer.text).toBe(answer.claims.map((claim) => claim.text).join(' '));
  else expect(answer.claims).toEqual([]);
}

describe('extractiveAnswer on UU 22/2009', () => {
  const sources287 = [1, 2, 3].map((n) => source(ayat(287, n), n - 1, { pasal: '287', ayat: String(n) }));

  it('answers the fine for running a red light from ayat (2), whole', () => {
    const question = 'Berapa denda melanggar Alat Pemberi Isyarat Lalu Lintas?';
    const answer = extractiveAnswer(question, sources287, { language: 'id' });
    expect(answer.found).toBe(true);
    expect(answer.claims[0]!.source_index).toBe(1);
    expect(answer.claims[0]!.span.text).toBe(ayat(287, 2));
    expect(answer.claims[0]!.text).toContain('Rp500.000,00 (lima ratus ribu rupiah). [1]');
    expect(answer.claims.every((claim) => claim.source_index === 1)).toBe(true);
    expectWellFormed(answer, sources287);
    // Every claim is entailed by its own span.
    for (const claim of answer.claims)
      expect(checkEntailment(claim.text, claim.span.text, 'id').label).toBe('entailed');
  });

  it('quotes a list item after its introduction, reading the two together', () => {
    const chunk = ['Pasal 81', ...pasalLines(81)].join('\n');
    const sources = [source(chunk, 0, { pasal: '81' })];
    const answer = extractiveAnswer('umur minimal bikin Surat Izin Mengemudi C berapa tahun?', sources, {
      language: 'id',
      maxSentences: 1,
    });
    expect(answer.found).toBe(true);
    expect(answer.claims.map((claim) => claim.span.text)).toEqual([
      expect.stringMatching(/^\(2\) Syarat usia .* sebagai berikut:$/),
      expect.stringMatching(/^a\. usia 17 \(tujuh belas\) tahun untuk Surat Izin Mengemudi A/),
    ]);
    expectWellFormed(answer, sources);
  });

  it('prefers the provision naming the asked term itself to one naming a longer term it begins', () => {
    // Pasal 83 ayat (2) is about "Surat Izin Mengemudi A Umum", Pasal 81 ayat (2) about "… A" itself;
    // the public licence is retrieved first.
    const sources = [
      source(['(2) ' + ayat(83, 2).slice(4), ...pasalLines(83).slice(2, 5)].join('\n'), 0, { pasal: '83' }),
      source(['Pasal 81', ...pasalLines(81)].join('\n'), 1, { pasal: '81' }),
    ];
    const answer = extractiveAnswer('umur minimal buat bikin SIM A itu berapa tahun?', sources, {
      language: 'id',
      variants: ['usia buat bikin Surat Izin Mengemudi A itu berapa tahun?'],
      maxSentences: 1,
    });
    expect(answer.claims[0]!.source_index).toBe(1);
    expect(answer.claims.at(-1)!.span.text).toMatch(/^a\. usia 17 \(tujuh belas\) tahun/);
    expectWellFormed(answer, sources);
  });

  it('keeps list items that differ only in their figures (their shared introduction is not theirs)', () => {
    const chunk = ['(2) ' + ayat(83, 2).slice(4), ...pasalLines(83).slice(2, 5)].join('\n');
    const sources = [source(chunk, 0, { pasal: '83' })];
    const answer = extractiveAnswer('syarat usia Surat Izin Mengemudi umum berapa tahun?', sources, {
      language: 'id',
      maxSentences: 3,
    });
    const items = answer.claims.map((claim) => claim.span.text).filter((text) => /^[a-c]\. /.test(text));
    expect(items.map((text) => text.slice(0, 2))).toEqual(['a.', 'b.', 'c.']);
  });

  it('outside a statute, quotes the sentence that completes the best one in its paragraph', () => {
    const text =
      'Reducers are pure functions that take the state and an action. They must not have side effects.\n\nThe store holds the whole state tree.';
    const sources = [source(text, 0)];
    const answer = extractiveAnswer('what are reducers, the pure functions?', sources, { language: 'en' });
    expect(answer.claims.map((claim) => claim.span.text)).toEqual([
      'Reducers are pure functions that take the state and an action.',
      'They must not have side effects.',
    ]);
    expectWellFormed(answer, sources);
  });

  it('answers each part of a question that asks two things, and not with an untied sentence', () => {
    const sources = [
      source(
        'Pengemudi Sepeda Motor wajib menyalakan lampu utama pada siang hari. Lampu utama dipasang di bagian depan Sepeda Motor.',
        0,
        { pasal: '107' },
      ),
      source('Pengemudi Mobil Barang dipidana denda paling banyak Rp500.000,00 bila melanggar muatan.', 1, {
        pasal: '307',
      }),
      source(
        'Pengemudi yang tidak menyalakan lampu utama pada siang hari dipidana dengan denda paling banyak Rp100.000,00.',
        2,
        { pasal: '293' },
      ),
    ];
    const question = 'Sepeda motor wajib menyalakan lampu utama siang hari? Kalau tidak, dendanya berapa?';
    const answer = extractiveAnswer(question, sources, { language: 'id', maxSentences: 1 });
    expect(answer.claims.map((claim) => claim.span.text)).toEqual([
      'Pengemudi Sepeda Motor wajib menyalakan lampu utama pada siang hari.',
      'Pengemudi yang tidak menyalakan lampu utama pada siang hari dipidana dengan denda paling banyak Rp100.000,00.',
    ]);
    expectWellFormed(answer, sources);
    // One part asked: one sentence.
    const single = extractiveAnswer('Sepeda motor wajib menyalakan lampu utama siang hari?', sources, {
      language: 'id',
      maxSentences: 1,
    });
    expect(single.claims).toHaveLength(1);
  });

  it('finds the ayat inside one chunk holding the whole Pasal', () => {
    const chunk = ['Pasal 287', ayat(287, 1), ayat(287, 2), ayat(287, 3)].join('\n');
    const sources = [source(chunk, 0, { pasal: '287' })];
    const answer = extractiveAnswer('Berapa denda melanggar Alat Pemberi Isyarat Lalu Lintas?', sources, {
      language: 'id',
    });
    expect(answer.found).toBe(true);
    expect(answer.claims[0]!.span.text).toBe(ayat(287, 2));
    expect(chunk.slice(answer.claims[0]!.span.start, answer.claims[0]!.span.end)).toBe(ayat(287, 2));
    expectWellFormed(answer, sources);
  });

  it('scores each wording of the question on its own: a long slang question answered through its legal rewrite', () => {
    const question =
      'Tadi pagi saya buru-buru banget, terus nerobos lampu merah di perempatan dekat kantor, kira-kira kena berapa ya?';
    const legal = 'melanggar Alat Pemberi Isyarat Lalu Lintas denda paling banyak';
    // Joined into one text, the rewrite's words are too small a share of all the words for any sentence.
    expect(extractiveAnswer(`${question} ${legal}`, sources287, { language: 'id' }).found).toBe(false);
    const answer = extractiveAnswer(question, sources287, { language: 'id', variants: [legal] });
    expect(answer.found).toBe(true);
    expect(answer.claims[0]!.span.text).toBe(ayat(287, 2));
    expectWellFormed(answer, sources287);
  });

  it('never quotes a flattened table or a run of capitals as a statement', () => {
    const table =
      'POSTUR APBN TAHUN ANGGARAN 2018 A. PENDAPATAN NEGARA I. PENERIMAAN DALAM NEGERI 1. PENERIMAAN PERPAJAKAN 2. PENERIMAAN NEGARA BUKAN PAJAK 1.894.720.327.977 1.618.095.493.162 275.427.969.415.';
    const sources = [source(table, 0, {}), ...sources287];
    const answer = extractiveAnswer(
      'Berapa penerimaan negara bukan pajak dan denda Alat Pemberi Isyarat?',
      sources,
      {
        language: 'id',
      },
    );
    expect(answer.claims.every((claim) => claim.source_index !== 0)).toBe(true);
    expect(isStatement(table)).toBe(false);
    expect(isStatement(ayat(287, 2))).toBe(true);
  });

  it('quotes a line in capitals that states something: a regulation title, one figure with its label', () => {
    expect(
      isStatement(
        'PERATURAN MENTERI KEUANGAN REPUBLIK INDONESIA NOMOR 186/PMK.07/2011 TENTANG PERUBAHAN ATAS PERATURAN MENTERI KEUANGAN NOMOR 19/PMK.07/2011',
      ),
    ).toBe(true);
    expect(
      isStatement('JUMLAH DANA ALOKASI UMUM NASIONAL TAHUN ANGGARAN 2017 SEBESAR Rp401.129.780.828.000,00.'),
    ).toBe(true);
    // Headings in capitals with nothing to quote stay out.
    expect(
      isStatement('RINCIAN ALOKASI DANA ALOKASI UMUM MENURUT PROVINSI KABUPATEN KOTA TAHUN ANGGARAN 2017'),
    ).toBe(false);
    expect(
      isStatement('DANA ALOKASI UMUM 401.129.780.828 DANA ALOKASI KHUSUS 58.345.120.000 DANA DESA.'),
    ).toBe(false);
    const title = source(
      'PERATURAN MENTERI KEUANGAN REPUBLIK INDONESIA NOMOR 186/PMK.07/2011 TENTANG PERKIRAAN ALOKASI DANA BAGI HASIL SUMBER DAYA ALAM KEHUTANAN TAHUN ANGGARAN 2011',
      0,
      {},
    );
    const answer = extractiveAnswer(
      'Peraturan menteri keuangan tentang perkiraan alokasi dana bagi hasil kehutanan 2011',
      [title],
      {
        language: 'id',
      },
    );
    expect(answer.claims.map((claim) => claim.source_index)).toEqual([0]);
  });

  it('says "not found" for an unrelated question and never invents', () => {
    const answer = extractiveAnswer('Siapa presiden pertama?', sources287, { language: 'id' });
    expect(answer).toEqual({ found: false, text: NOT_FOUND_TEXT.id, claims: [] });
    expect(answer.text).toBe('Tidak ditemukan di dokumen.');
    const english = extractiveAnswer('Who was the first president?', sources287, { language: 'en' });
    expect(english.text).toBe('Not found in the documents.');
  });

  it('says "not found" without sources, for a stopword-only question, or below minScore', () => {
    expect(extractiveAnswer('Berapa denda?', [], { language: 'id' }).found).toBe(false);
    expect(extractiveAnswer('apa itu yang mana?', sources287, { language: 'id' }).found).toBe(false);
    const question = 'Berapa denda melanggar Alat Pemberi Isyarat Lalu Lintas?';
    expect(extractiveAnswer(question, sources287, { language: 'id', minScore: 2 }).found).toBe(false);
    // minScore 0.4 drops ayat (3) only; ayat (2) is still found and keeps its index into `sources`.
    const filtered = extractiveAnswer(question, sources287, { language: 'id', minScore: 0.4 });
    expect(filtered.claims[0]!.source_index).toBe(1);
  });

  it('numbers distinct sources in order of first use and respects maxSentences', () => {
    const sources = [285, 286, 287].map((pasal, index) => source(pasalLines(pasal).join('\n'), index));
    const question = 'Berapa denda mengemudikan kendaraan yang tidak memenuhi persyaratan teknis laik jalan?';
    const answer = extractiveAnswer(question, sources, { language: 'id', maxSentences: 3 });
    expect(answer.found).toBe(true);
    expect(answer.claims.length).toBeLessThanOrEqual(3);
    expect(answer.claims.length).toBeGreaterThanOrEqual(2);
    expectWellFormed(answer, sources);
    const one = extractiveAnswer(question, sources, { language: 'id', maxSentences: 1 });
    expect(one.claims).toHaveLength(1);
    expect(one.claims[0]!.text.endsWith(' [1]')).toBe(true);
  });

  it('drops a near-duplicate sentence coming from an overlapping chunk', () => {
    const sources = [source(ayat(287, 2), 0), source(`Pasal 287\n${ayat(287, 2)}`, 1)];
    const answer = extractiveAnswer('Berapa denda melanggar Alat Pemberi Isyarat Lalu Lintas?', sources, {
      language: 'id',
    });
    expect(answer.claims).toHaveLength(1);
  });

  it('keeps its invariants for every question of the traffic-law eval set', () => {
    const sources = [106, 281, 283, 285, 287, 288, 291, 293].map((pasal, index) =>
      source([`Pasal ${pasal}`, ...pasalLines(pasal)].join('\n'), index),
    );
    const questions = readFileSync(data('eval/lalin-dev.jsonl'), 'utf8')
      .split('\n')
      .filter((row) => row.trim() !== '')
      .map((row) => (JSON.parse(row) as { question: string }).question);
    expect(questions.length).toBeGreaterThan(10);
    let found = 0;
    for (const question of questions) {
      const answer = extractiveAnswer(question, sources, { language: 'id' });
      expectWellFormed(answer, sources);
      if (answer.found) found++;
    }
    expect(found).toBeGreaterThan(0);
  });
});

describe('extractiveAnswer on a FAQ', () => {
  it('answers with the first statements of the section whose heading asks the question', () => {
    const faq = 'faq/OrganizingState.md';
    const form = '### Should I put form state or other UI state in my store?';
    const promises = '### Can I put functions, promises, or other non-serializable items in my store state?';
    // The form-state section is retrieved first and shares the question's words "put", "store", "state".
    const sources = [
      source(section(faq, form), 0, { document_title: 'Redux FAQ', section_path: [form.slice(4)] }),
      source(section(faq, promises), 1, { document_title: 'Redux FAQ', section_path: [promises.slice(4)] }),
    ];
    const question = 'should I put non-serializable values like a Promise in my store state?';
    const answer = extractiveAnswer(question, sources, { language: 'en' });
    expect(answer.claims[0]!.source_index).toBe(1);
    expect(answer.claims[0]!.span.text).toMatch(/non-serializable items into the store/);
    expectWellFormed(answer, sources);
  });
});

describe('extractiveAnswer reads a sentence in its context', () => {
  it('counts the question words of its heading and of the statement before it, at half weight', () => {
    const text =
      'RTK Query is a data fetching and caching tool.\n\n' +
      'createApi also accepts a reducerPath field, which defines the expected top-level state slice field.';
    const sources = [
      source(text, 0, { document_title: 'createApi', section_path: ['RTK Query createApi options'] }),
    ];
    // The answer names only "createApi" and "reducerPath" of the question's seven words: alone it
    // falls below the share a sentence needs; read under its heading it is the answer.
    const question =
      'Which options are required when calling createApi in RTK Query, and what is reducerPath for?';
    const answer = extractiveAnswer(question, sources, { language: 'en' });
    expect(answer.found).toBe(true);
    expect(answer.claims.map((claim) => claim.span.text)).toContainEqual(
      expect.stringMatching(/^createApi also accepts a reducerPath field/),
    );
    expectWellFormed(answer, sources);
    // Context alone never makes a sentence eligible: one without a question word of its own is not quoted.
    const bare = extractiveAnswer(
      'Which options are required when calling createApi?',
      [
        source('It defines the expected top-level state slice field.', 0, {
          document_title: 'createApi',
          section_path: ['Options required when calling createApi'],
        }),
      ],
      { language: 'en' },
    );
    expect(bare.found).toBe(false);
  });
});

describe('extractiveAnswer on the Redux docs', () => {
  const sources = [
    section('tutorials/fundamentals/part-2-concepts-data-flow.md', '### Reducers'),
    section('style-guide/style-guide.md', '### Reducers Must Not Have Side Effects'),
    section('introduction/GettingStarted.md', '## Basic Example'),
  ].map((text, index) => source(text, index, { document_title: 'Redux docs' }));

  it('answers "what is a reducer" with the definition', () => {
    const answer = extractiveAnswer('what is a reducer', sources, { language: 'en' });
    expect(answer.found).toBe(true);
    expect(answer.claims[0]!.span.text).toMatch(
      /^A \*\*reducer\*\* is a function that receives the current `state`/,
    );
    expectWellFormed(answer, sources);
  });

  it('answers a question about side effects from the style guide', () => {
    const answer = extractiveAnswer('Can a reducer have side effects or modify variables outside?', sources, {
      language: 'en',
    });
    expect(answer.found).toBe(true);
    expect(answer.claims.some((claim) => claim.source_index === 1)).toBe(true);
    expect(answer.text).toMatch(/modify variables outside the reducer/);
    expectWellFormed(answer, sources);
  });

  it('does not answer from a code block, a heading or an admonition marker', () => {
    const answer = extractiveAnswer('what is a reducer', sources, { language: 'en', maxSentences: 10 });
    for (const claim of answer.claims) {
      expect(claim.span.text).not.toMatch(/^(?:#|```|:::)/);
    }
  });

  it('says "not found" for a question the docs do not cover', () => {
    expect(extractiveAnswer('How do I bake sourdough bread?', sources, { language: 'en' }).found).toBe(false);
  });

  it('keeps its invariants for every question of the Redux eval set', () => {
    const questions = readFileSync(data('eval/redux-dev.jsonl'), 'utf8')
      .split('\n')
      .filter((row) => row.trim() !== '')
      .map((row) => (JSON.parse(row) as { question: string }).question);
    for (const question of questions)
      expectWellFormed(extractiveAnswer(question, sources, { language: 'en' }), sources);
  });
});

describe('extractiveAnswer on hostile input', () => {
  it('stays bounded on huge sources and many sources', () => {
    const huge = 'Denda lalu lintas. '.repeat(50_000) + 'x'.repeat(100_000);
    const sources = Array.from({ length: 100 }, (_, index) =>
      source(index === 0 ? huge : 'Denda lalu lintas.', index),
    );
    const answer = extractiveAnswer('denda lalu lintas', sources, { language: 'id', maxSentences: 3 });
    expect(answer.found).toBe(true);
    expect(answer.claims).toHaveLength(1); // the rest are duplicates of the same sentence
    expectWellFormed(answer, sources);
  });
});

describe('headings kept in chunk text', () => {
  it('never become claims', () => {
    const sources = [
      source(
        'Reducers\n\nFirst Attempt: Writing Reducers\n\nA reducer is a function that receives the current state and an action object.',
        0,
      ),
    ];
    const answer = extractiveAnswer('what is a reducer', sources, { language: 'en' });
    expect(answer.found).toBe(true);
    expect(answer.claims.map((claim) => claim.span.text)).toEqual([
      'A reducer is a function that receives the current state and an action object.',
    ]);
  });
});

describe('quoting whole statements', () => {
  it('quotes a list introduction with its items, or not at all', async () => {
    const { completeSpan } = await import('./extractive.js');
    const source =
      'Syarat usia ditentukan sebagai berikut:\na. usia 17 (tujuh belas) tahun untuk SIM A;\nb. usia 21 tahun.\n\nLain.';
    const intro = 'Syarat usia ditentukan sebagai berikut:';
    const span = completeSpan(source, { start: 0, end: intro.length, text: intro });
    expect(span?.text).toBe(
      'Syarat usia ditentukan sebagai berikut:\na. usia 17 (tujuh belas) tahun untuk SIM A;\nb. usia 21 tahun.',
    );
    expect(source.slice(span!.start, span!.end)).toBe(span!.text);
    expect(completeSpan(intro, { start: 0, end: intro.length, text: intro })).toBeUndefined();
  });

  it('never quotes OCR noise or flattened tables', async () => {
    const { hasOcrNoise, isStatement } = await import('./extractive.js');
    expect(hasOcrNoise('Gaji pokok Rp7O.OOO per bulan pada tahun 2Ol8.')).toBe(true);
    expect(
      hasOcrNoise(
        '2.759.847.940.000,00 2.1.2.2 Penerimaan Penerusan Pinjaman 4.319.371.871.000,00 4.471.943.465.000,00',
      ),
    ).toBe(true);
    expect(
      hasOcrNoise('Pendapatan negara direncanakan sebesar Rp2.463.024.859.739.000,00 pada tahun 2023.'),
    ).toBe(false);
    expect(isStatement('Can I put a Promise in the store state?')).toBe(false);
  });
});
