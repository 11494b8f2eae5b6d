/**
 * What the i18n completeness checks share (the unit test over the tables and the browser test over a
 * rendered Indonesian page): which values may read the same in both languages, and the words of a
 * value outside its `{placeholders}`.
 */
import { dictionaries, type MessageKey } from './i18n.js';

/**
 * Values that are the same in Indonesian and English on purpose: the product's name and words
 * Indonesian uses as they are.
 */
export const IDENTICAL_IN_BOTH: ReadonlySet<string> = new Set(['Saksi', 'Admin', 'Email', 'Status']);

/** The words (two letters or more) of a message outside its placeholders. */
export function literalWords(value: string): string[] {
  return value.replace(/\{\w+\}/g, ' ').match(/\p{L}[\p{L}'’-]*\p{L}/gu) ?? [];
}

/**
 * The English values of the app's tables that must not appear on an Indonesian page, each as the
 * longest run of literal text between its placeholders that the Indonesian value does not contain
 * ("total" is both): values that differ from the Indonesian one and have such a run of at least
 * `minLength` characters with a letter in it.
 */
export function englishOnlyPhrases(minLength = 4): { key: MessageKey; phrase: string }[] {
  return englishOnlyPhrasesOf(dictionaries, minLength);
}

/** {@link englishOnlyPhrases} over any pair of tables keyed alike (the widget's words). */
export function englishOnlyPhrasesOf<K extends string>(
  tables: { en: Readonly<Record<K, string>>; id: Readonly<Record<K, string>> },
  minLength = 4,
): { key: K; phrase: string }[] {
  const phrases: { key: K; phrase: string }[] = [];
  for (const key of Object.keys(tables.en) as K[]) {
    const english = tables.en[key];
    const indonesian = tables.id[key];
    if (english === indonesian || IDENTICAL_IN_BOTH.has(english)) continue;
    const longest = english
      .split(/\{\w+\}/)
      .map((part) => part.trim())
      .filter((part) => !indonesian.includes(part))
      .sort((a, b) => b.length - a.length)[0];
    if (longest !== undefined && longest.length >= minLength && /\p{L}/u.test(longest))
      phrases.push({ key, phrase: longest });
  }
  return phrases;
}
