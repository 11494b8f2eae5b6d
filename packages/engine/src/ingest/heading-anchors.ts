/**
 * Heading anchors as documentation sites make them, so a citation can point at its section
 * (`…/api/store#getstate`). The slug is GitHub's (github-slugger, which Docusaurus uses): lower
 * case; punctuation, symbols, control and format characters removed (letters, marks, decimal and
 * letter numbers, `_`, `-` and spaces stay); each space becomes `-`. Within one page a repeated slug
 * gets `-1`, `-2`, …; an explicit `{#custom-id}` at the end of a heading is used as it is.
 */

/** Characters github-slugger removes: other numbers, punctuation, symbols, controls, separators. */
const REMOVABLE = /[\p{No}\p{P}\p{S}\p{C}\p{Z}]/gu;
const KEPT = /[\p{Alphabetic}\p{Pc}]/u;

/** The GitHub slug of one heading's text (no de-duplication). */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(REMOVABLE, (character) =>
      character === ' ' || character === '-' || KEPT.test(character) ? character : '',
    )
    .replace(/ /g, '-');
}

/** Docusaurus's explicit heading id: `## Title {#custom-id}` (word characters and `-` only). */
const EXPLICIT_ID = /^(.*?)\s*\{#([\p{L}\p{N}_-]+)\}\s*$/u;

/** A heading's text without a trailing `{#custom-id}`, and that id when it has one. */
export function explicitHeadingId(text: string): { text: string; id?: string } {
  const match = EXPLICIT_ID.exec(text);
  if (match === null) return { text };
  return { text: match[1] ?? '', id: match[2] ?? '' };
}

/**
 * The anchors of one page's headings, in document order: each call returns the slug of `text`,
 * made unique within the page as github-slugger does (`setup`, `setup-1`, `setup-2`).
 */
export class HeadingSlugger {
  readonly #occurrences = new Map<string, number>();

  slug(text: string): string {
    const original = slugify(text);
    let result = original;
    while (this.#occurrences.has(result)) {
      const count = (this.#occurrences.get(original) ?? 0) + 1;
      this.#occurrences.set(original, count);
      result = `${original}-${count}`;
    }
    this.#occurrences.set(result, 0);
    return result;
  }
}
