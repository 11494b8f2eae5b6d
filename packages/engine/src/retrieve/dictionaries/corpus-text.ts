/**
 * Test helpers: a corpus folder's text, normalized for phrase checks (no `__`/`_` markup, one space,
 * lower case), and the demo glossary shipped beside it (`corpora/<folder>/glossary.json`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type CollectionGlossary, parseGlossaryText } from '../collection-glossary.js';

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

/** The demo corpora's folders, by the pattern group of their glossary. */
export const DEMO_FOLDERS = {
  traffic: 'uu-22-2009-llaj',
  budget: 'apbn-uu',
  docs: 'docs-redux',
} as const;

const glossaries = new Map<string, CollectionGlossary>();
/** The glossary shipped with a demo corpus, checked as an upload is. */
export function demoGlossary(group: keyof typeof DEMO_FOLDERS): CollectionGlossary {
  let glossary = glossaries.get(group);
  if (!glossary) {
    glossary = parseGlossaryText(
      readFileSync(path.join(CORPORA, DEMO_FOLDERS[group], 'glossary.json'), 'utf8'),
    );
    glossaries.set(group, glossary);
  }
  return glossary;
}
