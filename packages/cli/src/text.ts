/**
 * Terminal-safe text. Everything printed from a bundle is hostile: control characters could move the
 * cursor or rewrite earlier lines, and bidirectional overrides could reorder what a reader sees
 * ("Trojan Source", CVE-2021-42574). They are shown as visible `\u{…}` escapes instead.
 */

// C0 except tab and newline, DEL, C1, bidi marks, embeddings, overrides and isolates.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** `text` with unsafe characters escaped; tabs become spaces. Newlines are kept only when `multiline`. */
export function safeText(text: string, multiline = false): string {
  let result = text
    .replace(UNSAFE, (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`)
    .replace(/\t/g, ' ');
  if (!multiline) result = result.replace(/\r?\n/g, ' ⏎ ');
  return result;
}

/** Length in code points (close enough to terminal columns for the scripts Saksi serves). */
export function width(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** `text` cut to `max` code points, ending in `…` when cut. */
export function truncate(text: string, max: number): string {
  if (max <= 0) return '';
  if (width(text) <= max) return text;
  return Array.from(text)
    .slice(0, Math.max(0, max - 1))
    .join('')
    .concat('…');
}

/** `text` padded with spaces to `size` code points. */
export function pad(text: string, size: number): string {
  const missing = size - width(text);
  return missing > 0 ? text + ' '.repeat(missing) : text;
}

/** Word-wraps `text` to lines of at most `max` code points, each prefixed with `indent`. */
export function wrap(text: string, max: number, indent: string): string {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      if (line === '') line = word;
      else if (width(line) + 1 + width(word) <= max) line += ` ${word}`;
      else {
        lines.push(line);
        line = word;
      }
    }
    lines.push(line);
  }
  return lines.map((line) => indent + line).join('\n');
}

/**
 * Reads a string at `path` inside an untrusted value; `undefined` when any step is missing or the
 * value there is not a string or number. Used to print headers of bundles that failed validation.
 */
export function pick(value: unknown, path: readonly (string | number)[]): string | undefined {
  let current: unknown = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  if (typeof current === 'string') return current;
  if (typeof current === 'number' && Number.isFinite(current)) return String(current);
  return undefined;
}
