-- Admin sign-in (docs/configuration.md, "Admin sign-in"): failed attempts for the login rate limit, kept in
-- the database so the limit survives restarts and holds across server processes. `subject` is the SHA-256
-- (hex) of "ip:<address>" or "email:<normalized email>", so neither is stored in clear.
CREATE TABLE auth_failures (
  id bigserial PRIMARY KEY,
  subject text NOT NULL,
  failed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_failures_subject_time ON auth_failures (subject, failed_at);
CREATE INDEX auth_sessions_expires ON auth_sessions (expires_at);
