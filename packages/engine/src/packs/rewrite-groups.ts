/**
 * The names of the packs' pattern-rule groups (`DocumentPack.rewriteGroup`), as a collection's glossary
 * enables them (docs/glossary.md): `traffic` is the legislation pack's statute wording, `budget` the
 * budget pack's figures and fiscal years, `docs` the software-docs pack's "what is …". Kept apart from
 * the packs so that the glossary's parser can name them without loading any pack; the registry's test
 * checks that each name belongs to one pack.
 */
export const REWRITE_GROUP_NAMES = ['traffic', 'budget', 'docs'] as const;
export type RewriteGroupName = (typeof REWRITE_GROUP_NAMES)[number];
