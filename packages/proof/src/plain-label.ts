/**
 * Names as readers see them (docs/security.md, "Names that cannot disguise themselves"). A file name,
 * title or heading is shown beside text it does not own: in a chat's source list, an admin table, a
 * download's name. Control characters and Unicode format characters (general category Cf: bidi marks,
 * embeddings, overrides and isolates, zero-width spaces and joiners, the BOM, soft hyphens, invisible
 * operators, tags) reorder or hide what is around them — "laporan\u202Efdp.exe" reads "laporanexe.pdf"
 * — so a name keeps none of them. A document's body text is not changed here: quoted spans must match
 * their hashes, and the verifiers escape what they show of it.
 */

/** Format characters: removed, so a word they split stays one word. */
const FORMAT = /\p{Cf}+/gu;
/** Control characters and line separators: a space each run. */
const BREAKS = /[\p{Cc}\u2028\u2029]+/gu;

/** `text` without control characters (a space) and format characters (nothing), in NFC, trimmed. */
export function plainLabel(text: string): string {
  return text.normalize('NFC').replace(FORMAT, '').replace(BREAKS, ' ').trim();
}
