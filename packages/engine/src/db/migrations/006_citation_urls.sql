-- Citations that link to where the text is (docs/engine.md, "Retrieval"): the page anchor of the
-- heading a chunk's text starts under (Markdown). The page itself comes from the document's stored
-- path and frontmatter, and the collection's `base_url` (profile), when the citation is made.
ALTER TABLE chunks ADD COLUMN anchor text;
