/**
 * Counted nouns for messages a person reads: "1 entry", "2 entries", "0 claims". One helper for the
 * verifier's check messages, the CLI and the server logs, so no message says "1 claims" or
 * "witness(es)".
 */

/**
 * `count` followed by the singular or the plural noun. The plural defaults to the singular plus "s";
 * give it for irregular nouns ("entry" → "entries"), and give the same word twice for Indonesian,
 * whose nouns do not change after a number ("1 dokumen", "3 dokumen").
 *
 * @example plural(1, 'entry', 'entries') // "1 entry"
 * @example plural(3, 'witness', 'witnesses') // "3 witnesses"
 */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
