/** Test helper: a corpus folder's text, normalized for phrase checks (no `__`/`_` markup, one space, lower case). */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const CORPORA = path.resolve(import.meta.dirname, '../../../../../corpora');

export function normalizeForPhrases(text: string): string {
  return text.normalize('NFC').replace(/_+/g, ' ').replace(/\s+/g, ' ').toLowerCase();
}

export function corpusText(folder: string): string {
  const directory = path.join(CORPORA, folder);
  return normalizeForPhrases(
    readdirSync(directory)
      .filter((file) => file.endsWith('.md'))
      .map((file) => readFileSync(path.join(directory, file), 'utf8'))
      .join('\n'),
  );
}
