-- A collection's glossary (docs/glossary.md): its own vocabulary as data — dictionary, translations and
-- the pattern-rule groups it enables — checked on upload, and the SHA-256 of its canonical JSON (RFC
-- 8785), which the answer cache keys by and certificates record. Null: no glossary (no words at all).
ALTER TABLE collections ADD COLUMN IF NOT EXISTS glossary jsonb;
ALTER TABLE collections ADD COLUMN IF NOT EXISTS glossary_sha256 text
  CHECK (glossary_sha256 IS NULL OR glossary_sha256 ~ '^[0-9a-f]{64}$');
