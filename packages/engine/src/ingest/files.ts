/** File extensions the ingest pipeline accepts when walking folders (the parser checks the bytes). */
export const SUPPORTED_EXTENSIONS = [
  '.md',
  '.mdx',
  '.markdown',
  '.pdf',
  '.docx',
  '.html',
  '.htm',
  '.txt',
] as const;

export function isSupportedFile(name: string): boolean {
  const lower = name.toLowerCase();
  return SUPPORTED_EXTENSIONS.some((extension) => lower.endsWith(extension));
}
