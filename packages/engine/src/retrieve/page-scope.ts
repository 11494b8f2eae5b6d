/**
 * The page a question is asked on (the docs widget's `page_url`): which documents of a collection
 * with a base URL are published at that URL (page-url.ts gives each document its page path). An
 * answer is looked for in them first (answer/ask.ts).
 */
import type { Collection } from '../collections.js';
import type { Queryable } from '../db/database.js';
import { docsPagePath, parseBaseFolder, parseBaseUrl } from '../ingest/page-url.js';

/** Documents read at most to find a page (a docs site larger than this is matched on its first ones). */
const MAX_DOCUMENTS = 20_000;

/**
 * The ids of the READY documents of `collection` whose page is `pageUrl` (its query and fragment
 * ignored, a trailing `/`, `index.html` or `.html` too); empty when the collection has no base URL,
 * or the URL is not under it, or no document is that page.
 */
export async function pageDocuments(
  db: Queryable,
  collection: Collection,
  pageUrl: string,
): Promise<string[]> {
  const wanted = pagePathOf(collection, pageUrl);
  if (wanted === undefined) return [];
  let baseFolder = '';
  try {
    const folder = collection.profile['base_url_folder'];
    baseFolder = folder === undefined || folder === null ? '' : parseBaseFolder(folder);
  } catch {
    return [];
  }
  const documents = await db.query<{ id: string; filename: string; slug: unknown; page_id: unknown }>(
    `SELECT id, filename, metadata->'slug' AS slug, metadata->'id' AS page_id
       FROM documents WHERE collection_id = $1 AND status = 'READY' ORDER BY id LIMIT ${MAX_DOCUMENTS}`,
    [collection.id],
  );
  return documents.rows
    .filter((row) => {
      const path = docsPagePath({ filename: row.filename, slug: row.slug, id: row.page_id, baseFolder });
      return path !== undefined && comparable(path) === wanted;
    })
    .map((row) => row.id);
}

/** The page path `pageUrl` names under the collection's base URL, comparable; undefined outside it. */
function pagePathOf(collection: Collection, pageUrl: string): string | undefined {
  let base: URL;
  let page: URL;
  try {
    base = new URL(parseBaseUrl(collection.profile['base_url']));
    page = new URL(pageUrl);
  } catch {
    return undefined;
  }
  if (page.origin !== base.origin || !page.pathname.startsWith(base.pathname)) return undefined;
  try {
    return comparable(decodeURIComponent(page.pathname.slice(base.pathname.length)));
  } catch {
    return undefined;
  }
}

/** A page path as compared: lower case, without a trailing `/`, `index.html` or `.html`. */
function comparable(path: string): string {
  return path
    .toLowerCase()
    .replace(/(?:^|\/)index\.html?$/, '')
    .replace(/\.html?$/, '')
    .replace(/\/+$/, '');
}
