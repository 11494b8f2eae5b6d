/**
 * The software-documentation pack: Markdown, MDX and HTML documentation sites (Docusaurus and the
 * like). It recognizes the documents, names the pattern-rule group that serves them, and completes a
 * how-to answer with the code its step introduces (how-to.ts). Their parsing (frontmatter, MDX,
 * admonitions, heading anchors, page URLs) is the general Markdown and HTML ingestion, which any
 * collection's files go through.
 */
import type { DocumentPack, DocumentSample } from '../pack.js';
import { DOCUMENT_PACK_SPECIFICATION } from '../pack.js';
import { howToFollowing } from './how-to.js';

/** Frontmatter keys documentation generators write (Docusaurus, VitePress, Hugo). */
const DOCS_FRONTMATTER = ['sidebar_position', 'sidebar_label', 'slug', 'id', 'hide_title', 'description'];

/** Code in the page: a fenced block, an MDX import or export, HTML `<pre>` or `<code>`. */
const CODE = /^\s*(?:```|~~~|import\s+\S.*\s+from\s+['"]|export\s+(?:const|default)\b)|<(?:pre|code)\b/m;

function detect(sample: DocumentSample): boolean {
  const markup = sample.mime === 'text/markdown' || sample.mime === 'text/html';
  if (!markup) return false;
  if (sample.filename !== undefined && /\.mdx$/i.test(sample.filename)) return true;
  if (DOCS_FRONTMATTER.some((key) => sample.metadata[key] !== undefined)) return true;
  return CODE.test(sample.text.slice(0, 20_000));
}

export const softwareDocsPack: DocumentPack = {
  specificationVersion: DOCUMENT_PACK_SPECIFICATION,
  id: 'software-docs',
  version: '1',
  description: 'Software documentation in Markdown, MDX or HTML (Docusaurus and the like)',
  detect,
  // A question that opens by asking what something is ("what is a reducer", "define …"): no wording is
  // added; the question is marked for the preference of defining passages and the heading arm
  // (retrieve/plan.ts).
  rewriteGroup: { name: 'docs', rules: [{ kind: 'definition', add: [], opening: true }] },
  following: ({ db, sources, sourceIndex, quoted, markers }) =>
    howToFollowing(db, sources, sourceIndex, quoted, markers),
};
