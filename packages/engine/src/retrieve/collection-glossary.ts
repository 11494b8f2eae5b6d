/**
 * A collection's glossary (docs/glossary.md): the collection's own vocabulary as data, stored with the
 * collection. It holds the dictionary (everyday words → the terms the documents use, "lampu merah" →
 * "Alat Pemberi Isyarat Lalu Lintas"), the translations (the other language's words → the documents'
 * own, "fine" → "denda") and the packs' pattern-rule groups it enables. A collection without a
 * glossary gets no dictionary, no translation and no pattern rule: no other collection's words.
 *
 * The file is versioned JSON; {@link parseGlossary} checks it with bounds and names the bad entry in a
 * typed `INVALID_GLOSSARY` error. {@link glossarySha256} is SHA-256 over its RFC 8785 canonical JSON,
 * which a certificate records (`retrieval.parameters.glossary_sha256`).
 */
import { readFile } from 'node:fs/promises';
import { canonicalize, sha256Hex } from '@saksi/proof';
import { EngineError } from '../errors.js';
import type { StopwordLanguage } from '../language/stopwords.js';
import { REWRITE_GROUP_NAMES } from '../packs/rewrite-groups.js';
import type { DictionaryEntry } from './dictionaries/types.js';

export const GLOSSARY_FORMAT = 'saksi-glossary';
export const GLOSSARY_VERSION = 1;

/** At most this many entries in all (dictionary and every translation together). */
export const MAX_GLOSSARY_ENTRIES = 5_000;
/** At most this many everyday terms per entry, and phrases per expansion. */
export const MAX_TERMS_PER_ENTRY = 64;
export const MAX_PHRASES_PER_ENTRY = 16;
/** A term is at most this many characters, an expansion phrase at most {@link MAX_PHRASE_LENGTH}. */
export const MAX_TERM_LENGTH = 100;
export const MAX_PHRASE_LENGTH = 200;
export const MAX_DESCRIPTION_LENGTH = 500;

/** The other language's words → the documents' words, for questions asked in `from`. */
export interface GlossaryTranslation {
  from: StopwordLanguage;
  entries: DictionaryEntry[];
}

export interface CollectionGlossary {
  format: typeof GLOSSARY_FORMAT;
  version: typeof GLOSSARY_VERSION;
  /** What the vocabulary is for, for the people who edit it. */
  description?: string;
  /** The packs' pattern-rule groups the collection uses (question kinds and the documents' wording). */
  pattern_groups: string[];
  /** Everyday words → the documents' terms, in the documents' language. */
  dictionary: DictionaryEntry[];
  /** Questions in another language: its words → the documents' terms. */
  translations: GlossaryTranslation[];
}

/** The glossary that changes nothing: what a collection without one behaves as. */
export const EMPTY_GLOSSARY: CollectionGlossary = {
  format: GLOSSARY_FORMAT,
  version: GLOSSARY_VERSION,
  pattern_groups: [],
  dictionary: [],
  translations: [],
};

const LANGUAGES: readonly StopwordLanguage[] = ['id', 'en'];

function invalid(path: string, problem: string): never {
  throw new EngineError('INVALID_GLOSSARY', `Glossary ${path} ${problem}.`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function onlyKeys(value: Record<string, unknown>, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(value))
    if (!allowed.includes(key)) invalid(`${path}.${key}`.replace(/^\./, ''), 'is not a known field');
}

/** Letters, digits, spaces and everyday punctuation; no control characters, no leading/trailing space. */
function text(value: unknown, path: string, max: number): string {
  if (typeof value !== 'string') invalid(path, 'must be a string');
  if (value.length === 0 || value.trim().length === 0) invalid(path, 'is empty');
  if (value.length > max) invalid(path, `is longer than ${max} characters`);
  if (value !== value.trim()) invalid(path, 'has leading or trailing spaces');
  if (/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}]/u.test(value)) invalid(path, 'has control or unassigned characters');
  if (value.normalize('NFC') !== value) invalid(path, 'is not in Unicode NFC form');
  return value;
}

function entries(value: unknown, path: string, count: { total: number }): DictionaryEntry[] {
  if (!Array.isArray(value)) invalid(path, 'must be an array');
  const seen = new Map<string, string>();
  return value.map((entry, index) => {
    const at = `${path}[${index}]`;
    if (++count.total > MAX_GLOSSARY_ENTRIES)
      invalid(at, `is one entry too many (at most ${MAX_GLOSSARY_ENTRIES} in all)`);
    if (!isPlainObject(entry)) invalid(at, 'must be an object {terms, expansion}');
    onlyKeys(entry, ['terms', 'expansion'], at);
    const terms = entry['terms'];
    if (!Array.isArray(terms) || terms.length === 0) invalid(`${at}.terms`, 'must be a non-empty array');
    if (terms.length > MAX_TERMS_PER_ENTRY)
      invalid(`${at}.terms`, `has more than ${MAX_TERMS_PER_ENTRY} terms`);
    const checkedTerms = terms.map((term, termIndex) => {
      const termPath = `${at}.terms[${termIndex}]`;
      const checked = text(term, termPath, MAX_TERM_LENGTH);
      // Terms match case-insensitively; written in lower case, a duplicate is plain to see.
      if (checked !== checked.toLowerCase()) invalid(termPath, `("${checked}") must be lower case`);
      const earlier = seen.get(checked);
      if (earlier !== undefined) invalid(termPath, `("${checked}") repeats ${earlier}`);
      seen.set(checked, termPath);
      return checked;
    });
    const expansion = entry['expansion'];
    let checkedExpansion: string | string[];
    if (typeof expansion === 'string')
      checkedExpansion = text(expansion, `${at}.expansion`, MAX_PHRASE_LENGTH);
    else if (Array.isArray(expansion) && expansion.length > 0) {
      if (expansion.length > MAX_PHRASES_PER_ENTRY)
        invalid(`${at}.expansion`, `has more than ${MAX_PHRASES_PER_ENTRY} phrases`);
      checkedExpansion = expansion.map((phrase, phraseIndex) =>
        text(phrase, `${at}.expansion[${phraseIndex}]`, MAX_PHRASE_LENGTH),
      );
    } else invalid(`${at}.expansion`, 'must be a phrase or a non-empty array of phrases');
    return { terms: checkedTerms, expansion: checkedExpansion };
  });
}

/**
 * `value` (parsed JSON) as a glossary, checked: the format and version, known fields only, bounded
 * entries, terms and phrases. Throws `EngineError('INVALID_GLOSSARY')` naming the bad field
 * (`dictionary[3].terms[1]`).
 */
export function parseGlossary(value: unknown): CollectionGlossary {
  if (!isPlainObject(value)) invalid('(the document)', 'must be a JSON object');
  onlyKeys(value, ['format', 'version', 'description', 'pattern_groups', 'dictionary', 'translations'], '');
  if (value['format'] !== GLOSSARY_FORMAT) invalid('format', `must be "${GLOSSARY_FORMAT}"`);
  if (value['version'] !== GLOSSARY_VERSION) invalid('version', `must be ${GLOSSARY_VERSION}`);
  const count = { total: 0 };
  const groups = value['pattern_groups'] ?? [];
  if (!Array.isArray(groups)) invalid('pattern_groups', 'must be an array');
  const patternGroups = groups.map((group, index) => {
    if (typeof group !== 'string' || !(REWRITE_GROUP_NAMES as readonly string[]).includes(group))
      invalid(`pattern_groups[${index}]`, `must be one of ${REWRITE_GROUP_NAMES.join(', ')}`);
    return group;
  });
  if (new Set(patternGroups).size !== patternGroups.length) invalid('pattern_groups', 'names a group twice');
  const dictionary = entries(value['dictionary'] ?? [], 'dictionary', count);
  const translationsValue = value['translations'] ?? [];
  if (!Array.isArray(translationsValue)) invalid('translations', 'must be an array');
  const languages = new Set<string>();
  const translations = translationsValue.map((translation, index) => {
    const at = `translations[${index}]`;
    if (!isPlainObject(translation)) invalid(at, 'must be an object {from, entries}');
    onlyKeys(translation, ['from', 'entries'], at);
    const from = translation['from'];
    if (typeof from !== 'string' || !(LANGUAGES as readonly string[]).includes(from))
      invalid(`${at}.from`, `must be one of ${LANGUAGES.join(', ')}`);
    if (languages.has(from)) invalid(`${at}.from`, `repeats the language ${from}`);
    languages.add(from);
    return {
      from: from as StopwordLanguage,
      entries: entries(translation['entries'], `${at}.entries`, count),
    };
  });
  const description = value['description'];
  return {
    format: GLOSSARY_FORMAT,
    version: GLOSSARY_VERSION,
    ...(description !== undefined
      ? { description: text(description, 'description', MAX_DESCRIPTION_LENGTH) }
      : {}),
    pattern_groups: patternGroups,
    dictionary,
    translations,
  };
}

/** Parses glossary JSON text; bad JSON is `INVALID_GLOSSARY` too. */
export function parseGlossaryText(json: string): CollectionGlossary {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new EngineError('INVALID_GLOSSARY', 'The glossary is not valid JSON.', { cause: error });
  }
  return parseGlossary(value);
}

/** Reads and checks a glossary file (the demo's `corpora/<corpus>/glossary.json`). */
export async function readGlossaryFile(file: string): Promise<CollectionGlossary> {
  return parseGlossaryText(await readFile(file, 'utf8'));
}

/** SHA-256 (hex) over the glossary's RFC 8785 canonical JSON: what a certificate records. */
export function glossarySha256(glossary: CollectionGlossary): string {
  return sha256Hex(canonicalize(glossary));
}

/** The translation entries for a question asked in `from` (none when the glossary has no such translation). */
export function translationEntries(
  glossary: CollectionGlossary | null | undefined,
  from: StopwordLanguage,
): DictionaryEntry[] {
  return glossary?.translations.find((translation) => translation.from === from)?.entries ?? [];
}
