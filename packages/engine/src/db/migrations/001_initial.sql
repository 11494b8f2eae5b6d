-- Saksi schema v1 (docs/architecture.md, "Storage"). Runs unchanged on PGlite and PostgreSQL ≥ 15 with
-- pgvector.

CREATE TABLE workspaces (
  id text PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  name text NOT NULL,
  prefix text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE TABLE admin_users (
  id text PRIMARY KEY,
  username text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE auth_sessions (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES admin_users (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE collections (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  name text NOT NULL,
  language text NOT NULL CHECK (language IN ('id', 'en')),
  text_search_config regconfig NOT NULL,
  profile jsonb NOT NULL DEFAULT '{}'::jsonb,
  embedding_provider text NOT NULL,
  embedding_model text NOT NULL,
  embedding_dimensions integer NOT NULL CHECK (embedding_dimensions BETWEEN 1 AND 4096),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (workspace_id, name)
);

CREATE TABLE blobs (
  sha256 text PRIMARY KEY,
  bytes bytea NOT NULL,
  size integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE documents (
  id text PRIMARY KEY,
  collection_id text NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
  title text NOT NULL,
  filename text NOT NULL,
  mime text NOT NULL,
  original_sha256 text NOT NULL REFERENCES blobs (sha256),
  size integer NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  document_type text,
  fiscal_year integer,
  source text,
  uploader text,
  status text NOT NULL CHECK (status IN ('PENDING', 'PROCESSING', 'READY', 'FAILED', 'ARCHIVED')),
  stage text,
  error jsonb,
  root text,
  chunk_count integer NOT NULL DEFAULT 0,
  pages integer,
  anchor_state text NOT NULL DEFAULT 'PENDING_ANCHOR',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (collection_id, original_sha256)
);
CREATE INDEX documents_collection_status ON documents (collection_id, status);

CREATE TABLE chunks (
  id text PRIMARY KEY,
  document_id text NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  collection_id text NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
  position integer NOT NULL,
  text text NOT NULL,
  sha256 text NOT NULL,
  kind text NOT NULL,
  page integer,
  section_path jsonb NOT NULL DEFAULT '[]'::jsonb,
  legal jsonb,
  table_html text,
  context_before text NOT NULL DEFAULT '',
  context_after text NOT NULL DEFAULT '',
  token_count integer NOT NULL,
  proof_path jsonb NOT NULL,
  embedding vector NOT NULL,
  embedding_dimensions integer NOT NULL CHECK (vector_dims(embedding) = embedding_dimensions),
  text_search_config regconfig NOT NULL,
  tsv tsvector GENERATED ALWAYS AS (to_tsvector(text_search_config, text)) STORED,
  UNIQUE (document_id, position)
);
CREATE INDEX chunks_tsv ON chunks USING gin (tsv);
CREATE INDEX chunks_collection ON chunks (collection_id);

CREATE TABLE jobs (
  id text PRIMARY KEY,
  kind text NOT NULL,
  status text NOT NULL CHECK (status IN ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED')),
  collection_id text REFERENCES collections (id) ON DELETE CASCADE,
  document_id text,
  stage text,
  progress real NOT NULL DEFAULT 0,
  error jsonb,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The transparency log (docs/transparency-log.md): entries, complete-subtree hashes, signed checkpoints.
CREATE TABLE log_entries (
  leaf_index integer PRIMARY KEY,
  certificate_id text NOT NULL UNIQUE,
  leaf_input text NOT NULL,
  leaf_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE log_nodes (
  level integer NOT NULL,
  node_index integer NOT NULL,
  hash text NOT NULL,
  PRIMARY KEY (level, node_index)
);

CREATE TABLE log_checkpoints (
  size integer PRIMARY KEY,
  root_hash text NOT NULL,
  note text NOT NULL,
  cosignatures jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE certificates (
  id text PRIMARY KEY,
  collection_id text REFERENCES collections (id) ON DELETE SET NULL,
  issued_at timestamptz NOT NULL,
  certificate jsonb NOT NULL,
  signature text NOT NULL,
  chunks jsonb NOT NULL,
  leaf_index integer NOT NULL REFERENCES log_entries (leaf_index),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE chat_sessions (
  id text PRIMARY KEY,
  collection_id text REFERENCES collections (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE chat_messages (
  id text PRIMARY KEY,
  session_id text NOT NULL REFERENCES chat_sessions (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('user', 'assistant')),
  content text NOT NULL,
  certificate_id text REFERENCES certificates (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_messages_session ON chat_messages (session_id, created_at);

CREATE TABLE audit_log (
  id serial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor text,
  action text NOT NULL,
  target text,
  details jsonb NOT NULL DEFAULT '{}'::jsonb
);
