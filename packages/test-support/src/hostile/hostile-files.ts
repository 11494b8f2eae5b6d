/**
 * The hostile corpus (docs/security.md): a seeded generator of files built to break ingestion —
 * heading bombs, a 50 MB Markdown, huge lines, NUL bytes, bad encodings, deep nesting, truncated,
 * fuzzed and encrypted PDFs, a 5,000-page PDF, ZIP bombs and XXE in Word files, wrong extensions,
 * odd file names, scripts and prompt injection — each with the outcomes a correct engine may give:
 * `ingested` or a typed error code. The same seed gives the same bytes; large files are streamed to
 * disk in pieces, never held whole. The awkward real files of `../shared/data/files` join in when
 * that folder is given (as they are, truncated and byte-flipped).
 */
import { createHash } from 'node:crypto';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { createRandom } from '@saksi/attack';
import { docxCases, pdfCases, wrongExtensionAndBinaryCases } from './hostile-binary-cases.js';
import { type AddHostileCase, type HostileCase, once, utf8 } from './hostile-case.js';
import { concatBytes } from './hostile-formats.js';
import {
  encodingCases,
  filenameCases,
  htmlCases,
  markdownCases,
  regulationAndTextCases,
  scriptAndInjectionCases,
} from './hostile-text-cases.js';

export interface HostileCorpusOptions {
  /** Seed of every random choice (default 15). */
  seed?: number;
  /** `../shared/data/files` (pdf-samples, docx-samples): real awkward files to add and to mutate. */
  sharedFiles?: string;
}

/**
 * The fast subset the tests run in CI: small files, one or two of each kind of trouble, that a
 * correct engine handles in well under a second each.
 */
export const HOSTILE_CI_SUBSET: ReadonlySet<string> = new Set([
  'md-headings-500',
  'md-blockquote-10000',
  'md-pathological-nested-brackets',
  'md-frontmatter-yaml-bomb',
  'md-frontmatter-prototype',
  'txt-plain-small',
  'enc-nul-single-md',
  'enc-overlong-md',
  'enc-utf8-bom',
  'empty-empty-md',
  'scripts-mixed-scripts',
  'injection-disguised-link-txt',
  'html-nested-div-10000',
  'html-scripts',
  'html-script-only',
  'html-javascript-links',
  'html-bad-entities',
  'pdf-text-small',
  'pdf-no-text-1',
  'pdf-encrypted-rc4',
  'pdf-truncated-generated-50',
  'pdf-fuzzed-generated-16',
  'pdf-shared-libreoffice-writer-password',
  'docx-small',
  'docx-bomb-1gb',
  'docx-xxe-file',
  'docx-billion-laughs',
  'docx-empty-body',
  'docx-truncated-generated-500',
  'wrong-pdf-as-md',
  'wrong-png-as-pdf',
  'wrong-zip-as-docx',
  'binary-elf',
  'filename-dot-dot-slash',
  'filename-nul',
]);

// ---------------------------------------------------------------------------------------------
// The corpus

/** The hostile corpus for `options.seed`: at least 250 cases (more with the shared files). */
export function hostileCorpus(options: HostileCorpusOptions = {}): HostileCase[] {
  const seed = options.seed ?? 15;
  const cases: HostileCase[] = [];
  /** A per-case random source: each case's bytes depend on the seed and its id only. */
  const randomFor = (id: string) => {
    let hash = seed >>> 0;
    for (const character of id) hash = Math.imul(hash ^ character.charCodeAt(0), 0x01000193) >>> 0;
    return createRandom(hash);
  };
  const add: AddHostileCase = ({ bytes, stream, ...rest }) => {
    const random = () => randomFor(rest.id);
    const content = stream ? () => stream(random()) : bytes ? once(() => bytes(random())) : undefined;
    if (!content) throw new Error(`hostile case ${rest.id} has no content`);
    cases.push({ ...rest, ...(HOSTILE_CI_SUBSET.has(rest.id) ? { ci: true } : {}), content });
  };

  markdownCases(add);
  regulationAndTextCases(add);
  encodingCases(add);
  scriptAndInjectionCases(add);
  htmlCases(add);
  pdfCases(add, options.sharedFiles);
  docxCases(add, options.sharedFiles);
  wrongExtensionAndBinaryCases(add);
  filenameCases(add);

  const ids = new Set<string>();
  for (const hostile of cases) {
    if (ids.has(hostile.id)) throw new Error(`duplicate hostile case id ${hostile.id}`);
    ids.add(hostile.id);
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Writing the corpus

/** A case written to disk. */
export interface WrittenHostileFile {
  case: HostileCase;
  /** Where the bytes are; its base name is the case's file name when the file system allows it. */
  path: string;
  bytes: number;
  sha256: string;
}

/**
 * The name a case's file gets on disk: its own name when a file system can hold it (no `/`, NUL,
 * `.` or `..`, at most 255 bytes), else the case id with the extension of the name.
 */
export function diskName(hostile: HostileCase): string {
  const name = hostile.filename;
  if (!/[/\u0000]/.test(name) && name !== '.' && name !== '..' && name !== '' && utf8(name).length <= 255)
    return name;
  const extension = /\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1];
  return extension ? `${hostile.id}.${extension}` : hostile.id;
}

/**
 * Writes each case into its own folder under `directory` (`NNN/<name>`), streaming large ones, and
 * returns where each went with its size and SHA-256.
 */
export async function writeHostileCorpus(
  directory: string,
  cases: readonly HostileCase[],
): Promise<WrittenHostileFile[]> {
  const written: WrittenHostileFile[] = [];
  for (const [index, hostile] of cases.entries()) {
    const folder = path.join(directory, String(index).padStart(3, '0'));
    await mkdir(folder, { recursive: true });
    const file = path.join(folder, diskName(hostile));
    const handle = await open(file, 'w');
    const hash = createHash('sha256');
    let bytes = 0;
    try {
      for (const piece of hostile.content()) {
        hash.update(piece);
        bytes += piece.length;
        await handle.write(piece);
      }
    } finally {
      await handle.close();
    }
    written.push({ case: hostile, path: file, bytes, sha256: hash.digest('hex') });
  }
  return written;
}

/** The whole content of a case in memory (small cases only). */
export function hostileBytes(hostile: HostileCase): Uint8Array {
  return concatBytes([...hostile.content()]);
}
