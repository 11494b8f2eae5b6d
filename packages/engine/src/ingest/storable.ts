/**
 * Text as the database stores it (docs/engine.md, "Ingestion"): PostgreSQL's `text` and `jsonb`
 * reject U+0000 ("unsupported Unicode escape sequence"), and a PDF's metadata or text layer can end
 * in NUL characters. Every text that reaches storage passes {@link storableText} at one of two
 * boundaries: everything a parser read (title, metadata, block text, headings, tables, legal
 * references) in `extract.ts` before the chunks are hashed, and the uploader's own fields in
 * `withPlainNames` (`pipeline.ts`) before anything is stored.
 */
import type { Block, ParsedDocument } from '../types.js';

/** C0 control characters but tab and line feed (a CR is turned into LF by normalization). */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f]/g;

/** `text` without NUL and the other C0 control characters except tab and newline. */
export function storableText(text: string): string {
  return text.replace(CONTROLS, '');
}

/** Metadata with every key and string value storable (a key left empty is dropped). */
export function storableMetadata(
  metadata: Readonly<Record<string, string | number | boolean>>,
): Record<string, string | number | boolean> {
  const result: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(metadata)) {
    const name = storableText(key);
    if (name) result[name] = typeof value === 'string' ? storableText(value).trim() : value;
  }
  return result;
}

function storableBlock(block: Block): Block {
  const copy: Block = {
    ...block,
    text: storableText(block.text),
    section_path: block.section_path.map(storableText),
  };
  if (copy.html !== undefined) copy.html = storableText(copy.html);
  if (copy.anchor !== undefined) copy.anchor = storableText(copy.anchor);
  if (copy.language !== undefined) copy.language = storableText(copy.language);
  if (copy.legal !== undefined)
    copy.legal = Object.fromEntries(
      Object.entries(copy.legal).map(([key, value]) => [
        key,
        typeof value === 'string' ? storableText(value) : value,
      ]),
    );
  return copy;
}

/** A parsed document whose title, metadata and blocks are all storable. */
export function storableDocument(document: ParsedDocument): ParsedDocument {
  return {
    ...document,
    title: storableText(document.title).trim(),
    metadata: storableMetadata(document.metadata),
    blocks: document.blocks.map(storableBlock),
  };
}
