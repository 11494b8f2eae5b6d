-- Chat sessions end after a time without questions (SAKSI_SESSION_TTL); the job worker deletes ended
-- ones oldest first, so they are found by their last activity.
CREATE INDEX IF NOT EXISTS chat_sessions_updated ON chat_sessions (updated_at);
