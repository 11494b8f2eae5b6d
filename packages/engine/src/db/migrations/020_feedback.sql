-- Feedback on answers (docs/api.md, "Feedback"): a thumbs up or down, with an optional comment, on
-- one certificate. One row per certificate and submitter; a later feedback from the same submitter
-- replaces the earlier one. `submitter` is an API key id, an admin's email, or an HMAC of the client
-- address under the server's secret (never the address itself). Deleting a certificate deletes its
-- feedback.
CREATE TABLE IF NOT EXISTS answer_feedback (
  certificate_id text NOT NULL REFERENCES certificates (id) ON DELETE CASCADE,
  submitter text NOT NULL,
  rating text NOT NULL CHECK (rating IN ('up', 'down')),
  comment text CHECK (comment IS NULL OR char_length(comment) <= 1000),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (certificate_id, submitter)
);

-- The usage page (docs/api.md, "Admin routes") reads a collection's certificates by the day they were
-- issued.
CREATE INDEX IF NOT EXISTS certificates_collection_issued ON certificates (collection_id, issued_at);

-- The answer latency the usage page reports. Migration 019 (the answer cache) adds this column; it is
-- repeated here, idempotently, so the usage figures work whichever of the two a database applies first.
ALTER TABLE certificates ADD COLUMN IF NOT EXISTS latency_ms integer;
