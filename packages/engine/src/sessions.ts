/**
 * Chat sessions (docs/api.md, "Sessions"): one session's messages for a client that reloads, and deletion.
 * A session belongs to one collection; its messages are the question/answer pairs `ask` stored.
 */
import type { Queryable } from './db/database.js';
import { EngineError } from './errors.js';

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
  /** The certificate of an assistant answer (null for questions, or when the certificate was deleted). */
  certificate_id: string | null;
  /** ISO 8601. */
  created_at: string;
}

export interface ChatSession {
  session_id: string;
  /** The collection's name (null when the collection was deleted). */
  collection: string | null;
  messages: ChatMessage[];
}

/** A session and its messages in the order they were asked and answered; NOT_FOUND when unknown. */
export async function getChatSession(db: Queryable, sessionId: string): Promise<ChatSession> {
  const session = await db.query<{ id: string; collection: string | null }>(
    'SELECT s.id, c.name AS collection FROM chat_sessions s LEFT JOIN collections c ON c.id = s.collection_id WHERE s.id = $1',
    [sessionId],
  );
  const row = session.rows[0];
  if (!row) throw notFound(sessionId);
  // A question and its answer are written in one transaction and share now(): the question goes first.
  const messages = await db.query<{
    role: 'user' | 'assistant';
    content: string;
    certificate_id: string | null;
    created_at: Date | string;
  }>(
    `SELECT role, content, certificate_id, created_at FROM chat_messages WHERE session_id = $1
     ORDER BY created_at, CASE role WHEN 'user' THEN 0 ELSE 1 END, id`,
    [sessionId],
  );
  return {
    session_id: row.id,
    collection: row.collection,
    messages: messages.rows.map((message) => ({
      role: message.role,
      content: message.content,
      certificate_id: message.certificate_id,
      created_at: new Date(message.created_at).toISOString(),
    })),
  };
}

/** Deletes a session and its messages (certificates and log entries stay); NOT_FOUND when unknown. */
export async function deleteChatSession(db: Queryable, sessionId: string): Promise<void> {
  const deleted = await db.query('DELETE FROM chat_sessions WHERE id = $1', [sessionId]);
  if (deleted.rowCount === 0) throw notFound(sessionId);
}

function notFound(sessionId: string): EngineError {
  return new EngineError(
    'NOT_FOUND',
    `No chat session ${JSON.stringify(sessionId.slice(0, 100))}; start a new chat.`,
  );
}
