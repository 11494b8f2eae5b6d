/**
 * One case of the hostile corpus (docs/security.md) — a file, the outcomes a correct engine may give,
 * how to make its bytes — and the helpers the case families share: seeded words and sentences, text
 * streamed to an exact size, byte-exact Latin-1 edits.
 */

import type { Random } from '@saksi/attack';
import type { IngestErrorCode } from '@saksi/engine';

/** What ingesting a file may end in: a READY document, or a typed error code (ingest or engine). */
export type HostileOutcome = 'ingested' | IngestErrorCode | 'QUOTA_EXCEEDED';

export type HostileFamily =
  | 'markdown'
  | 'regulation'
  | 'text'
  | 'encoding'
  | 'scripts'
  | 'injection'
  | 'html'
  | 'pdf'
  | 'pdf-truncated'
  | 'pdf-fuzzed'
  | 'pdf-shared'
  | 'docx'
  | 'docx-truncated'
  | 'docx-shared'
  | 'wrong-extension'
  | 'binary'
  | 'empty'
  | 'filename';

export interface HostileCase {
  /** Stable, unique, safe as a path segment: `md-headings-20000`. */
  id: string;
  family: HostileFamily;
  /** The name the file is uploaded under (may hold `../`, control characters, any script). */
  filename: string;
  description: string;
  /** Outcomes a correct engine may give; the first is the one expected. */
  expect: readonly HostileOutcome[];
  /** Part of the fast subset run by the tests in CI (small and quick to ingest). */
  ci?: boolean;
  /** The bench polls `/api/v1/health` while the server ingests it (docs/security.md targets). */
  watchHealth?: boolean;
  /** Tens of MB or more to write, or gigabytes once inflated: left out where time matters. */
  heavy?: boolean;
  /** Text that no chunk of the ingested document may contain (script bodies, entity expansions, file contents). */
  forbidden?: readonly string[];
  /** The file's bytes, in pieces (a large file is never held whole). */
  content(): Iterable<Uint8Array>;
}

/** The upload limit the corpus is built around (the default `SAKSI_MAX_UPLOAD_BYTES`, 50 MiB). */
export const HOSTILE_UPLOAD_LIMIT = 50 * 1024 * 1024;

const encoder = new TextEncoder();
export const utf8 = (text: string) => encoder.encode(text);
export const once = (make: () => Uint8Array) =>
  function* () {
    yield make();
  };

/** Every outcome that is a clean refusal or success: what fuzzed and truncated files may give. */
export const ANY_TYPED: readonly HostileOutcome[] = [
  'MALFORMED_FILE',
  'NO_TEXT',
  'ingested',
  'ENCRYPTED_FILE',
  'UNSUPPORTED_TYPE',
  'EMPTY_FILE',
];

/** A bounded engine ingests these or refuses them as over a limit; both are fine. */
export const INGESTED_OR_QUOTA: readonly HostileOutcome[] = ['ingested', 'QUOTA_EXCEEDED'];

/** Adds a case: its bytes made at once (small files) or streamed in pieces (large ones). */
export type AddHostileCase = (
  entry: Omit<HostileCase, 'content'> & {
    bytes?: (random: Random) => Uint8Array;
    stream?: (random: Random) => Iterable<Uint8Array>;
  },
) => void;

// ---------------------------------------------------------------------------------------------
// Words

export const WORDS_ID = (
  'setiap orang yang mengemudikan kendaraan bermotor di jalan wajib memiliki surat izin mengemudi ' +
  'sesuai jenis dipidana dengan pidana kurungan paling lama bulan atau denda paling banyak rupiah ' +
  'anggaran pendapatan dan belanja negara tahun transfer ke daerah dana alokasi khusus umum menteri ' +
  'keuangan menetapkan ketentuan sebagaimana dimaksud pada ayat pasal huruf peraturan pemerintah ' +
  'keselamatan lalu lintas angkutan pengguna pejalan kaki rambu marka jalur kecepatan'
).split(' ');
export const WORDS_EN = (
  'the store holds the whole state tree of your app a reducer returns the next state given an action ' +
  'dispatch middleware selector slice immutable update component render hook query cache value ' +
  'function returns subscribe listener thunk payload type'
).split(' ');

export function words(random: Random, count: number, vocabulary = WORDS_ID): string {
  const out: string[] = [];
  for (let index = 0; index < count; index++) out.push(vocabulary[random.int(vocabulary.length)]!);
  return out.join(' ');
}

export function sentence(random: Random, vocabulary = WORDS_ID): string {
  const text = words(random, 8 + random.int(14), vocabulary);
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

export function paragraph(random: Random, sentences: number, vocabulary = WORDS_ID): string {
  return Array.from({ length: sentences }, () => sentence(random, vocabulary)).join(' ');
}

/** A small valid Markdown document, unique to `tag`. */
export function smallMarkdown(random: Random, tag: string): string {
  return `# Catatan ${tag}\n\n${paragraph(random, 3)}\n\n## Bagian kedua\n\n${paragraph(random, 2)}\n`;
}

/**
 * Text of exactly `size` bytes in pieces of at most 1 MiB, made of `piece(0)`, `piece(1)`, … (ASCII
 * pieces, so a cut never splits a character).
 */
export function* sized(size: number, piece: (index: number) => string): Generator<Uint8Array> {
  const most = 1 << 20;
  let written = 0;
  let buffer = '';
  let index = 0;
  while (written < size) {
    while (buffer.length < most && written + buffer.length < size) buffer += piece(index++);
    const take = Math.min(most, size - written, buffer.length);
    yield utf8(buffer.slice(0, take));
    written += take;
    buffer = buffer.slice(take);
  }
}

export function repeatTo(size: number, piece: () => string): string {
  let text = '';
  while (text.length < size) text += piece();
  return text.slice(0, size);
}

/** Bytes as ISO 8859-1 text and back: every byte is one character, so edits keep the rest intact. */
export const fromLatin1 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
export const latin1 = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));

/** Pages of a text PDF: a page number line, then `lines` sentences. */
export function textPages(random: Random, pages: number, lines = 6): string[][] {
  return Array.from({ length: pages }, (_, page) => [
    `Halaman ${page + 1}`,
    ...Array.from({ length: lines }, () => sentence(random)),
  ]);
}
