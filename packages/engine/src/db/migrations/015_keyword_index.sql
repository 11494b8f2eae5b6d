-- The keyword index (docs/engine.md, "The keyword index"): BM25 impacts, ordered for top-k.
--
-- Per collection, BM25's parameters and the mean chunk length its impacts were computed with.
-- `indexed_tokens` / `indexed_chunks` sum what has been indexed since the impacts were last computed,
-- so a mean that drifts can be noticed without scanning the chunks.
CREATE TABLE keyword_settings (
  collection_id text PRIMARY KEY REFERENCES collections (id) ON DELETE CASCADE,
  k1 float8 NOT NULL DEFAULT 1.2 CHECK (k1 > 0 AND k1 <= 10),
  b float8 NOT NULL DEFAULT 0.75 CHECK (b >= 0 AND b <= 1),
  heading_weight float8 NOT NULL DEFAULT 2 CHECK (heading_weight >= 0 AND heading_weight <= 10),
  average_tokens float8 NOT NULL CHECK (average_tokens > 0),
  indexed_tokens float8 NOT NULL DEFAULT 0,
  indexed_chunks bigint NOT NULL DEFAULT 0
);

-- One row per lexeme, document and impact tier (sixteen equal slices of BM25's impact range, 0 to
-- k1 + 1): the document's chunks that contain the lexeme, in their text or their headings, with each
-- one's impact (the term's share of the score before idf). A query reads a lexeme's rows highest
-- impact first, so the best postings of a common lexeme come before its many ordinary ones, and stops
-- once nothing unread can enter its top k.
CREATE TABLE keyword_postings (
  collection_id text NOT NULL,
  lexeme text NOT NULL,
  document_id text NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  tier integer NOT NULL,
  top_impact real NOT NULL,
  -- Chunks whose text (not only headings) has the lexeme: the document frequency the idf counts.
  text_chunks integer NOT NULL,
  positions integer[] NOT NULL,
  impacts real[] NOT NULL,
  PRIMARY KEY (collection_id, lexeme, document_id, tier)
);
CREATE INDEX keyword_postings_impact ON keyword_postings (collection_id, lexeme, top_impact, document_id, tier);
CREATE INDEX keyword_postings_document ON keyword_postings (document_id);

-- Builds the postings of a document's chunks at positions [first, last] with its collection's
-- settings, adding to the rows earlier positions of the document made. Every writer of the index
-- calls this one definition.
CREATE FUNCTION saksi_index_keywords(doc text, first_position integer, last_position integer)
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
    SELECT collection_id, position, lexeme, in_text, (tf * (k1 + 1) / (tf + k1))::real AS impact,
           least(15, floor(16 * tf / (tf + k1)))::integer AS tier
      FROM frequencies WHERE tf > 0
  ),
  inserted AS (
    INSERT INTO keyword_postings (collection_id, lexeme, document_id, tier, top_impact, text_chunks, positions, impacts)
    SELECT collection_id, lexeme, doc, tier, max(impact), count(*) FILTER (WHERE in_text),
           array_agg(position ORDER BY impact DESC, position), array_agg(impact ORDER BY impact DESC, position)
      FROM impacts GROUP BY collection_id, lexeme, tier
    ON CONFLICT (collection_id, lexeme, document_id, tier) DO UPDATE
      SET top_impact = greatest(keyword_postings.top_impact, excluded.top_impact),
          text_chunks = keyword_postings.text_chunks + excluded.text_chunks,
          positions = keyword_postings.positions || excluded.positions,
          impacts = keyword_postings.impacts || excluded.impacts
    RETURNING 1
  )
  SELECT count(*)::integer FROM inserted
$$;

-- The chunks already stored: settings from each collection's mean chunk length, then every READY or
-- archived document's postings.
INSERT INTO keyword_settings (collection_id, average_tokens, indexed_tokens, indexed_chunks)
SELECT c.collection_id, greatest(1, avg(c.token_count)), sum(c.token_count), count(*)
  FROM chunks c JOIN documents d ON d.id = c.document_id
 WHERE d.status IN ('READY', 'ARCHIVED')
 GROUP BY c.collection_id;

SELECT saksi_index_keywords(d.id, 0, 2147483647)
  FROM documents d WHERE d.status IN ('READY', 'ARCHIVED');
