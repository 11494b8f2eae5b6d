-- Originals in parts of at most 256 KiB (docs/engine.md, "Ingestion"): each part is written and read
-- by a statement of its own, so a large upload never holds the embedded database, and the thread it
-- runs on, for long. A blob stored in parts has an empty `blobs.bytes`; rows written before keep
-- their bytes there and are read as they are.
CREATE TABLE blob_parts (
  sha256 text NOT NULL REFERENCES blobs (sha256) ON DELETE CASCADE,
  part integer NOT NULL,
  bytes bytea NOT NULL,
  PRIMARY KEY (sha256, part)
);
