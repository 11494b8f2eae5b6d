-- The answer cache (docs/engine.md, "The answer cache") and the time each answer took.

-- Milliseconds from the question to its signed certificate (null for answers stored before).
ALTER TABLE certificates ADD COLUMN IF NOT EXISTS latency_ms integer;

-- A collection's content version: bumped whenever what an answer could quote or prove changes (a
-- document becomes or stops being READY; a READY one's root, anchor state, title, type, year or
-- metadata changes; a READY one is deleted). A cached
-- answer is served only for the version it was made on.
CREATE TABLE IF NOT EXISTS collection_versions (
  collection_id text PRIMARY KEY REFERENCES collections (id) ON DELETE CASCADE,
  version bigint NOT NULL DEFAULT 0
);

CREATE OR REPLACE FUNCTION saksi_bump_collection_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.status <> 'READY' THEN RETURN NULL; END IF;
    INSERT INTO collection_versions AS v (collection_id, version) VALUES (OLD.collection_id, 1)
      ON CONFLICT (collection_id) DO UPDATE SET version = v.version + 1;
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' AND NOT (
       (OLD.status IS DISTINCT FROM NEW.status AND (OLD.status = 'READY' OR NEW.status = 'READY'))
    OR (NEW.status = 'READY' AND (OLD.root IS DISTINCT FROM NEW.root
                                  OR OLD.anchor_state IS DISTINCT FROM NEW.anchor_state
                                  OR OLD.title IS DISTINCT FROM NEW.title
                                  OR OLD.document_type IS DISTINCT FROM NEW.document_type
                                  OR OLD.fiscal_year IS DISTINCT FROM NEW.fiscal_year
                                  OR OLD.metadata IS DISTINCT FROM NEW.metadata))) THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' AND NEW.status <> 'READY' THEN RETURN NULL; END IF;
  INSERT INTO collection_versions AS v (collection_id, version) VALUES (NEW.collection_id, 1)
    ON CONFLICT (collection_id) DO UPDATE SET version = v.version + 1;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS documents_collection_version ON documents;
CREATE TRIGGER documents_collection_version AFTER INSERT OR UPDATE OR DELETE ON documents
  FOR EACH ROW EXECUTE FUNCTION saksi_bump_collection_version();

-- One answer per collection and question key (the normalized question and everything else that
-- shapes the answer), with the bundle of its certificate and the results it was drawn from.
CREATE TABLE IF NOT EXISTS answer_cache (
  collection_id text NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
  key text NOT NULL,
  version bigint NOT NULL,
  certificate_id text NOT NULL REFERENCES certificates (id) ON DELETE CASCADE,
  question text NOT NULL,
  answer text NOT NULL,
  found boolean NOT NULL,
  bundle jsonb NOT NULL,
  results jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  hits integer NOT NULL DEFAULT 0,
  last_hit_at timestamptz,
  PRIMARY KEY (collection_id, key)
);
CREATE INDEX IF NOT EXISTS answer_cache_certificate ON answer_cache (certificate_id);

-- Each question answered from the cache: usage figures count it as a question, with its own time.
CREATE TABLE IF NOT EXISTS answer_hits (
  id bigserial PRIMARY KEY,
  collection_id text NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
  certificate_id text NOT NULL REFERENCES certificates (id) ON DELETE CASCADE,
  asked_at timestamptz NOT NULL DEFAULT now(),
  latency_ms integer
);
CREATE INDEX IF NOT EXISTS answer_hits_collection_asked ON answer_hits (collection_id, asked_at);
