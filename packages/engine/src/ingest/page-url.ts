/**
 * Where a documentation page is published: the page path Docusaurus gives a Markdown file, joined to
 * the collection's base URL, with the heading anchor after `#`. It is only text in the citation:
 * nothing is fetched.
 *
 * The page path follows Docusaurus's rules for docs (its `getSlug`):
 * - frontmatter `slug`: absolute (`/guide/intro`, from the docs root) or relative to the file's
 *   folder (`intro`, `../intro`);
 * - else a category index — a file named `index`, `README` or like its folder
 *   (`style-guide/style-guide.md`) — is its folder (`style-guide/`);
 * - else the folder plus frontmatter `id`, which replaces the file name, or the file name;
 * - `.md` / `.mdx` / `.markdown` are dropped, and number prefixes (`01-intro` → `intro`) too;
 *   files and folders starting with `_` are partials and have no page.
 * The path is the document's stored path relative to the ingested folder; with a base folder (the
 * Docusaurus docs `path`, e.g. `docs` when the whole repository was ingested), only documents under
 * it have a page, relative to it.
 */
import { EngineError } from '../errors.js';

/** Longest base URL accepted (characters). */
export const MAX_BASE_URL_LENGTH = 2_000;
const MAX_FOLDER_LENGTH = 500;
const PAGE_EXTENSION = /\.(?:md|mdx|markdown)$/i;
/** Docusaurus's number prefix (`01-`, `2_`, `3.`), except date- or version-like names (`2021-01-…`, `1.2`). */
const NUMBER_PREFIX = /^\d+\s*[-_.]+\s*(?=[^-_.\s])/;
const NOT_A_PREFIX = /^\d+[-_.]\d+/;

/**
 * A base URL as stored: an absolute http(s) URL without credentials, query or fragment, its path
 * ending in `/`. Anything else (`javascript:`, `ftp:`, relative or unparsable text, control
 * characters) is refused with `INVALID_BASE_URL`.
 */
export function parseBaseUrl(value: unknown): string {
  const refuse = (why: string) =>
    new EngineError(
      'INVALID_BASE_URL',
      `The base URL ${why}; give an http(s) URL such as https://docs.example.com/.`,
    );
  if (typeof value !== 'string') throw refuse('is not text');
  const text = value.trim();
  if (text === '') throw refuse('is empty');
  if (text.length > MAX_BASE_URL_LENGTH) throw refuse(`is longer than ${MAX_BASE_URL_LENGTH} characters`);
  // The URL parser would silently drop tabs and line breaks ("java\tscript:"): refuse them instead.
  if (/[\u0000-\u0020\u007f-\u009f]/.test(text)) throw refuse('contains spaces or control characters');
  if (!/^https?:\/\//i.test(text)) throw refuse('is not an absolute http(s) URL');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse('cannot be parsed');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse('is not an http(s) URL');
  if (url.hostname === '') throw refuse('has no host');
  if (url.username !== '' || url.password !== '') throw refuse('must not contain a user name or password');
  if (url.search !== '' || url.hash !== '' || text.includes('?') || text.includes('#'))
    throw refuse('must not have a query (?) or fragment (#)');
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  return url.href;
}

/**
 * A base folder as stored: `/`-separated folder names, no `.` or `..`, no leading or trailing `/`
 * (`docs`, `website/docs`). Empty means the ingested folder itself. Else `INVALID_BASE_URL`.
 */
export function parseBaseFolder(value: unknown): string {
  if (typeof value !== 'string')
    throw new EngineError('INVALID_BASE_URL', 'The base URL folder is not text.');
  const segments = value
    .trim()
    .replace(/\\/g, '/')
    .split('/')
    .filter((segment) => segment !== '');
  const folder = segments.join('/');
  if (
    folder.length > MAX_FOLDER_LENGTH ||
    segments.some((segment) => segment === '.' || segment === '..' || /[\u0000-\u001f\u007f]/.test(segment))
  ) {
    throw new EngineError(
      'INVALID_BASE_URL',
      'The base URL folder must be a relative folder such as "docs" (no "." or "..").',
    );
  }
  return folder;
}

/** Path segments of a stored path: `\` read as `/`, empty and `.` segments dropped. */
function segmentsOf(path: string): string[] {
  return path
    .replace(/\\/g, '/')
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.');
}

function stripNumberPrefix(name: string): string {
  return NOT_A_PREFIX.test(name) ? name : name.replace(NUMBER_PREFIX, '');
}

/** A slug resolved against a folder, as a URL path resolves: `..` climbs (never above the root). */
function resolveSlug(slug: string, folder: readonly string[]): string[] {
  const absolute = slug.startsWith('/');
  const resolved = absolute ? [] : [...folder];
  const parts = slug.split('/');
  parts.forEach((part, index) => {
    if (part === '..') resolved.pop();
    else if (part === '.' || (part === '' && index < parts.length - 1)) return;
    else resolved.push(part);
  });
  return resolved;
}

export interface PageSource {
  /** The document's stored path, relative to the folder it was ingested from. */
  filename: string;
  /** Frontmatter `slug` and `id` (any other type is ignored). */
  slug?: unknown;
  id?: unknown;
  /** The folder of the stored paths the base URL serves ('' for all of them). */
  baseFolder?: string;
}

/**
 * The page path of a Markdown document, relative to the docs root: `api/store`, `usage/` (a folder's
 * index), `''` (the root's index); undefined when the file is not a page (not Markdown, a partial,
 * outside the base folder, or a path with `..`).
 */
export function docsPagePath(source: PageSource): string | undefined {
  const segments = segmentsOf(source.filename);
  if (segments.length === 0 || segments.includes('..')) return undefined;
  const base = segmentsOf(source.baseFolder ?? '');
  if (base.some((segment, index) => segments[index] !== segment) || segments.length <= base.length)
    return undefined;
  const relative = segments.slice(base.length);
  const file = relative[relative.length - 1]!;
  const rawFolders = relative.slice(0, -1);
  if (!PAGE_EXTENSION.test(file) || relative.some((segment) => segment.startsWith('_'))) return undefined;
  const stem = file.replace(PAGE_EXTENSION, '');
  const folders = rawFolders.map(stripNumberPrefix);
  const slug = typeof source.slug === 'string' ? source.slug.trim() : '';
  if (slug !== '') return resolveSlug(slug, folders).join('/');
  const parent = rawFolders[rawFolders.length - 1]?.toLowerCase();
  const lowerStem = stem.toLowerCase();
  if (lowerStem === 'index' || lowerStem === 'readme' || lowerStem === parent)
    return folders.length > 0 ? `${folders.join('/')}/` : '';
  const id = typeof source.id === 'string' ? source.id.trim() : '';
  const name = id !== '' && !id.includes('/') ? id : stripNumberPrefix(stem);
  return [...folders, name].join('/');
}

/** `baseUrl` (as {@link parseBaseUrl} returns it) + the page path, each segment percent-encoded. */
export function pageUrl(baseUrl: string, pagePath: string): string {
  return baseUrl + pagePath.split('/').map(encodeURIComponent).join('/');
}

/** A page URL with `#anchor` when there is one. */
export function withAnchor(url: string, anchor: string | null | undefined): string {
  return anchor ? `${url}#${encodeURIComponent(anchor)}` : url;
}

/** What a citation's URL is made of: the collection's settings and the chunk's document and anchor. */
export interface CitationUrlSource {
  /** The collection profile's `base_url` and `base_url_folder`, as stored. */
  baseUrl: unknown;
  baseFolder?: unknown;
  filename: string;
  slug?: unknown;
  id?: unknown;
  anchor?: string | null;
}

/**
 * `<page url>#<anchor>` for a chunk of a collection with a base URL; undefined without one, for a
 * document that is not a page, or when a stored setting is not valid (checked again here, so a
 * citation never carries anything but an http(s) URL).
 */
export function citationUrl(source: CitationUrlSource): string | undefined {
  if (source.baseUrl === undefined || source.baseUrl === null) return undefined;
  try {
    const baseUrl = parseBaseUrl(source.baseUrl);
    const baseFolder =
      source.baseFolder === undefined || source.baseFolder === null ? '' : parseBaseFolder(source.baseFolder);
    const path = docsPagePath({ filename: source.filename, slug: source.slug, id: source.id, baseFolder });
    if (path === undefined) return undefined;
    // encodeURIComponent throws on a lone surrogate: such a name has no URL.
    return withAnchor(pageUrl(baseUrl, path), source.anchor);
  } catch {
    return undefined;
  }
}
