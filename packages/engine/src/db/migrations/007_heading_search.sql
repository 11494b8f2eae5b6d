-- The headings above a chunk (its section path: a page's title and headings, a statute's BAB, Bagian
-- and Paragraf) as a text-search vector of their own, in the chunk's configuration. Retrieval counts
-- a word of the headings as occurrences in the chunk (docs/engine.md, "Retrieval"): a section titled
-- "Returns" under "combineReducers(reducers)" answers what combineReducers returns without naming it.
ALTER TABLE chunks ADD COLUMN heading_tsv tsvector
  GENERATED ALWAYS AS (to_tsvector(text_search_config, section_path)) STORED;
CREATE INDEX chunks_heading_tsv ON chunks USING gin (heading_tsv);
