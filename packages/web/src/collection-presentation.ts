/**
 * How the chat presents a collection: its human title, one-line description and example questions in
 * the page's language (the other language, then the bare name, when the collection has none), and
 * which collection a first visit opens on.
 */
import type { CollectionSummary } from './api.js';
import type { Lang } from './i18n.js';

const OTHER: Record<Lang, Lang> = { id: 'en', en: 'id' };

/** The example questions the empty chat offers. */
export const EXAMPLES_SHOWN = 3;

export function collectionTitle(collection: CollectionSummary, lang: Lang): string {
  return collection.title[lang] ?? collection.title[OTHER[lang]] ?? collection.name;
}

export function collectionDescription(collection: CollectionSummary, lang: Lang): string | undefined {
  return collection.description[lang] ?? collection.description[OTHER[lang]];
}

export function collectionExamples(collection: CollectionSummary, lang: Lang): string[] {
  const own = collection.examples[lang] ?? [];
  return (own.length > 0 ? own : (collection.examples[OTHER[lang]] ?? [])).slice(0, EXAMPLES_SHOWN);
}

/**
 * The collection to show: the reader's own choice while it still exists; otherwise one written in the
 * page's language (English page → an English collection), preferring one that holds documents and
 * offers example questions in that language, then the first; '' when there is none.
 */
export function defaultCollection(
  collections: readonly CollectionSummary[],
  lang: Lang,
  chosen: string | null,
): string {
  if (chosen !== null && collections.some((collection) => collection.name === chosen)) return chosen;
  const score = (collection: CollectionSummary) =>
    (collection.language === lang ? 4 : 0) +
    ((collection.documents ?? 1) > 0 ? 2 : 0) +
    ((collection.examples[lang]?.length ?? 0) > 0 ? 1 : 0);
  let best: CollectionSummary | undefined;
  for (const collection of collections)
    if (best === undefined || score(collection) > score(best)) best = collection;
  return best?.name ?? '';
}
