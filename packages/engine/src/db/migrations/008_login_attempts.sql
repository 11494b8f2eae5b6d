-- Admin sign-in limits (docs/configuration.md, "Admin sign-in"). One row per subject: a (client
-- address, account) pair or a client address. `subject` is a SHA-256 (hex) of the address and email,
-- so neither is stored in clear. Each attempt is reserved with one INSERT … ON CONFLICT DO UPDATE
-- before the password is checked, so concurrent attempts, also from other processes sharing this
-- database, are counted exactly. Replaces the per-failure rows of auth_failures.
DROP TABLE auth_failures;
CREATE TABLE login_attempts (
  subject text PRIMARY KEY,
  -- attempts since the subject's last success (or since it was forgotten after a day without one)
  attempts integer NOT NULL,
  -- the times of the latest attempts, oldest first, at most as many as the subject's window allows
  recent timestamptz[] NOT NULL,
  last_at timestamptz NOT NULL
);
CREATE INDEX login_attempts_last ON login_attempts (last_at);
