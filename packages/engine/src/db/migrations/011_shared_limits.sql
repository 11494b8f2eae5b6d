-- Request rate limits shared by every server process on one PostgreSQL database (docs/scaling.md,
-- "Rate limits"). One row per limited subject: `subject` is a SHA-256 (hex) of the limit's name and
-- its key (an API key id or a client address), so addresses are not stored in clear. A window starts
-- at its subject's first request and lasts the limit's length; each request is counted with one
-- INSERT … ON CONFLICT DO UPDATE … RETURNING, so concurrent requests from any process are counted
-- exactly. Rows whose window ended are deleted in the background, which bounds the table by the
-- subjects active in one window.
CREATE TABLE rate_limits (
  subject text PRIMARY KEY,
  window_end timestamptz NOT NULL,
  hits integer NOT NULL
);
CREATE INDEX rate_limits_window_end ON rate_limits (window_end);
