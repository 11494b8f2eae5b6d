-- The keyword index (docs/engine.md, "The keyword index") keeps one row per lexeme and document
-- instead of one per lexeme, document and impact tier: a search's cost is mostly the rows it reads,
-- and the tiers split a document's postings of a lexeme into 2.5 rows on average. The row's highest
-- impact still orders a lexeme's rows for the first round; the search proves its top k by MaxScore
-- over whole rows, which needs no tiers.
CREATE TABLE keyword_postings_by_document (
  collection_id text NOT NULL,
  lexeme text NOT NULL,
  document_id text NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  top_impact real NOT NULL,
  -- Chunks whose text (not only headings) has the lexeme: the document frequency the idf counts.
  text_chunks integer NOT NULL,
  -- The document's chunks that contain the lexeme and each one's impact, in no particular order.
  positions integer[] NOT NULL,
  impacts real[] NOT NULL,
  PRIMARY KEY (collection_id, lexeme, document_id)
);

INSERT INTO keyword_postings_by_document (collection_id, lexeme, document_id, top_impact, text_chunks, positions, impacts)
SELECT collection_id, lexeme, document_id, max(top_impact), sum(text_chunks),
       array_agg(position ORDER BY impact DESC, position), array_agg(impact ORDER BY impact DESC, position)
  FROM (SELECT collection_id, lexeme, document_id, top_impact, text_chunks,
               unnest(positions) AS position, unnest(impacts) AS impact
          FROM keyword_postings) p
 GROUP BY collection_id, lexeme, document_id;

DROP TABLE keyword_postings;
ALTER TABLE keyword_postings_by_document RENAME TO keyword_postings;
ALTER INDEX keyword_postings_by_document_pkey RENAME TO keyword_postings_pkey;
CREATE INDEX keyword_postings_impact ON keyword_postings (collection_id, lexeme, top_impact, document_id);
CREATE INDEX keyword_postings_document ON keyword_postings (document_id);

-- As in 015, without tiers: builds the postings of a document's chunks at positions [first, last]
-- with its collection's settings, adding to the row earlier positions of the document made.
CREATE OR REPLACE FUNCTION saksi_index_keywords(doc text, first_position integer, last_position integer)
RETURNS integer LANGUAGE sql AS $$
  WITH s AS (
    SELECT k.* FROM keyword_settings k JOIN documents d ON d.collection_id = k.collection_id WHERE d.id = doc
  ),
  occurrences AS (
    SELECT c.collection_id, c.position, c.token_count, e.lexeme,
           coalesce(cardinality(e.positions), 1) AS n, true AS in_text
      FROM chunks c CROSS JOIN LATERAL unnest(c.tsv) e
     WHERE c.document_id = doc AND c.position BETWEEN first_position AND last_position
    UNION ALL
    SELECT c.collection_id, c.position, c.token_count, e.lexeme,
           coalesce(cardinality(e.positions), 1), false
      FROM chunks c CROSS JOIN LATERAL unnest(c.heading_tsv) e
     WHERE c.document_id = doc AND c.position BETWEEN first_position AND last_position
  ),
  frequencies AS (
    SELECT o.collection_id, o.position, o.lexeme, bool_or(o.in_text) AS in_text,
           coalesce(sum(o.n) FILTER (WHERE o.in_text), 0) / (1 - s.b + s.b * max(o.token_count) / s.average_tokens)
           + s.heading_weight * coalesce(sum(o.n) FILTER (WHERE NOT o.in_text), 0) AS tf,
           s.k1
      FROM occurrences o CROSS JOIN s
     GROUP BY o.collection_id, o.position, o.lexeme, s.b, s.average_tokens, s.heading_weight, s.k1
  ),
  impacts AS (
    SELECT collection_id, position, lexeme, in_text, (tf * (k1 + 1) / (tf + k1))::real AS impact
      FROM frequencies WHERE tf > 0
  ),
  inserted AS (
    INSERT INTO keyword_postings (collection_id, lexeme, document_id, top_impact, text_chunks, positions, impacts)
    SELECT collection_id, lexeme, doc, max(impact), count(*) FILTER (WHERE in_text),
           array_agg(position ORDER BY impact DESC, position), array_agg(impact ORDER BY impact DESC, position)
      FROM impacts GROUP BY collection_id, lexeme
    ON CONFLICT (collection_id, lexeme, document_id) DO UPDATE
      SET top_impact = greatest(keyword_postings.top_impact, excluded.top_impact),
          text_chunks = keyword_postings.text_chunks + excluded.text_chunks,
          positions = keyword_postings.positions || excluded.positions,
          impacts = keyword_postings.impacts || excluded.impacts
    RETURNING 1
  )
  SELECT count(*)::integer FROM inserted
$$;
