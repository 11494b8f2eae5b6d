-- The developer API (docs/api.md): workspace quotas, API keys with scopes,
-- jobs claimed with FOR UPDATE SKIP LOCKED under a lease, completion webhooks with signed, retried
-- deliveries, and two-step uploads (create → PUT bytes → process).

-- Per-workspace overrides of the configured quotas ({max_document_bytes, max_pages, max_storage_bytes}).
ALTER TABLE workspaces ADD COLUMN quotas jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE workspaces ADD COLUMN disabled_at timestamptz;

-- Scopes: any of "read", "ingest", "admin". Only SHA-256(key) is stored; `prefix` is the visible start.
ALTER TABLE api_keys ADD COLUMN scopes jsonb NOT NULL DEFAULT '["read"]'::jsonb;
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;
ALTER TABLE api_keys ADD COLUMN created_by text;
CREATE INDEX api_keys_workspace ON api_keys (workspace_id);

-- Jobs: a worker claims one with FOR UPDATE SKIP LOCKED and holds it under a lease it renews while
-- working (`locked_until`); a job whose lease ran out (its worker died) is claimed again. The work is
-- committed in the same transaction that marks the job SUCCEEDED, guarded by the claim token, so a
-- job finishes exactly once however many workers started it.
ALTER TABLE jobs ADD COLUMN workspace_id text REFERENCES workspaces (id) ON DELETE CASCADE;
ALTER TABLE jobs ADD COLUMN payload jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE jobs ADD COLUMN claim_token text;
ALTER TABLE jobs ADD COLUMN locked_by text;
ALTER TABLE jobs ADD COLUMN locked_until timestamptz;
ALTER TABLE jobs ADD COLUMN run_after timestamptz NOT NULL DEFAULT now();
ALTER TABLE jobs ADD COLUMN max_attempts integer NOT NULL DEFAULT 3;
ALTER TABLE jobs ADD COLUMN started_at timestamptz;
ALTER TABLE jobs ADD COLUMN finished_at timestamptz;
CREATE INDEX jobs_claimable ON jobs (run_after, created_at) WHERE status IN ('QUEUED', 'RUNNING');
CREATE INDEX jobs_document ON jobs (document_id);
CREATE INDEX jobs_workspace ON jobs (workspace_id, created_at);

-- Completion webhooks of a workspace; the secret signs each delivery (HMAC-SHA256).
CREATE TABLE webhooks (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  url text NOT NULL,
  secret text NOT NULL,
  events jsonb NOT NULL DEFAULT '["document.ready", "document.failed"]'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  disabled_at timestamptz
);
CREATE INDEX webhooks_workspace ON webhooks (workspace_id);

-- One row per (webhook, event): delivered at least once, retried with backoff until it succeeds or
-- runs out of attempts. `event_id` is stable across retries so receivers can drop duplicates.
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  webhook_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  event_id text NOT NULL,
  event text NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  last_status integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  UNIQUE (webhook_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'PENDING';

-- Two-step uploads for large files: created with the metadata, filled by one PUT to a URL carrying
-- a one-use token (only its SHA-256 is stored), then processed into a document and a job.
CREATE TABLE uploads (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  collection text NOT NULL,
  fields jsonb NOT NULL DEFAULT '{}'::jsonb,
  filename text NOT NULL,
  mime text,
  declared_size bigint,
  token_hash text NOT NULL UNIQUE,
  status text NOT NULL CHECK (status IN ('CREATED', 'UPLOADED', 'PROCESSED')),
  sha256 text,
  size bigint,
  bytes bytea,
  document_id text,
  job_id text,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX uploads_workspace ON uploads (workspace_id);

CREATE INDEX collections_workspace ON collections (workspace_id);
CREATE INDEX certificates_collection ON certificates (collection_id);
CREATE INDEX chat_sessions_collection ON chat_sessions (collection_id);

-- The default workspace always exists: the CLI, the demo and the admin portal act on it.
INSERT INTO workspaces (id, name) VALUES ('wsp_default', 'Default') ON CONFLICT (id) DO NOTHING;
