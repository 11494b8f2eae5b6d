/** Plain-text tables for list commands: one header line (dimmed on a terminal), cells made terminal-safe. */
import type { Style } from './io.js';
import { pad, safeText, width } from './text.js';

/** Lines of a table with `headers` and `rows`, columns two spaces apart, trailing spaces trimmed. */
export function table(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  style: Style,
): string[] {
  const safeRows = rows.map((row) => row.map((cell) => safeText(cell)));
  const sizes = headers.map((header, column) =>
    Math.max(width(header), ...safeRows.map((row) => width(row[column] ?? ''))),
  );
  const render = (cells: readonly string[]) =>
    cells
      .map((cell, column) => pad(cell, sizes[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [style.dim(render(headers)), ...safeRows.map(render)];
}
