/** What the glossary panel shows of a collection's glossary (docs/glossary.md): its JSON and its counts. */
import type { CollectionGlossaryInfo, Glossary } from '@saksi/client';

/** The glossary as the form shows it: pretty-printed JSON, or an empty one to start from. */
export function glossaryText(info: Pick<CollectionGlossaryInfo, 'glossary'> | undefined): string {
  const glossary: Glossary = info?.glossary ?? {
    format: 'saksi-glossary',
    version: 1,
    pattern_groups: [],
    dictionary: [],
    translations: [],
  };
  return `${JSON.stringify(glossary, null, 2)}\n`;
}

/** The counts the panel states: dictionary entries, translation entries, pattern groups ("–" for none). */
export function glossarySummary(glossary: Glossary): {
  entries: number;
  translations: number;
  groups: string;
} {
  return {
    entries: glossary.dictionary?.length ?? 0,
    translations: (glossary.translations ?? []).reduce(
      (sum, translation) => sum + translation.entries.length,
      0,
    ),
    groups: (glossary.pattern_groups ?? []).join(', ') || '–',
  };
}
