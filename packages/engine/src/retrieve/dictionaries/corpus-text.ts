/** Test helper: a corpus folder's text, normalized for phrase checks (no `__`/`_` markup, one space, lower case). */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const CORPORA = path.resolve(import.meta.dirname, '../../../../../corpora');

export function normalizeForPhrases(text: string): string {
  return text.normalize('NFC').replace(/_+/g, ' ').replace(/\s+/g, ' ').toLowerCase();
}

/** The Markdown (`.md`, `.mdx`) files of `directory`, and of its subfolders when `recursive`. */
function markdownFiles(directory: string, recursive: boolean): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) return recursive ? markdownFiles(file, true) : [];
    return /\.mdx?$/.test(entry.name) ? [file] : [];
  });
}

export function corpusText(folder: string, options: { recursive?: boolean } = {}): string {
  return normalizeForPhrases(
    markdownFiles(path.join(CORPORA, folder), options.recursive ?? false)
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n'),
  );
}
