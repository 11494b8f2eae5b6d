/**
 * Chat sessions (docs/api.md, "Sessions"): one session's messages for a client that reloads, and deletion.
 * A session belongs to one collection; its messages are the question/answer pairs `ask` stored.
 *
 * Sessions are bounded ({@link SessionPolicy}): one with no question for its time-to-live has ended
 * (reading or continuing it is NOT_FOUND, and the job worker deletes it), only its newest turns are
 * kept, and only the last few of those, cut to a length, reach a language model's prompt.
 */
import type { Queryable } from './db/database.js';
import { EngineError } from './errors.js';

/** How long sessions live and how much of them is kept and shown to a model (docs/configuration.md). */
export interface SessionPolicy {
  /** Seconds without a question after which a session has ended; 0: sessions never end. */
  ttlSeconds: number;
  /** Question/answer pairs kept per session; older ones are deleted as new ones are stored. */
  maxTurns: number;
  /** The newest turns passed to the language model's prompt as conversation context (0: none). */
  promptTurns: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = {
  ttlSeconds: 7 * 24 * 3600,
  maxTurns: 50,
  promptTurns: 3,
};

/** One earlier question and the answer given to it, as a model's prompt shows them. */
export interface ConversationTurn {
  question: string;
  answer: string;
}

/** The longest text of one earlier question or answer in a prompt (characters; longer is cut). */
export const MAX_TURN_CHARS = 1_000;
/** The most conversation text in a prompt (characters): the oldest turns go first. */
export const MAX_CONVERSATION_CHARS = 4_000;
/** Expired sessions deleted per statement of a sweep (the rest wait for the next one). */
const SWEEP_BATCH = 1_000;

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

/**
 * A session and its messages in the order they were asked and answered; NOT_FOUND when unknown or
 * ended (no question for `policy.ttlSeconds`).
 */
export async function getChatSession(
  db: Queryable,
  sessionId: string,
  policy: Pick<SessionPolicy, 'ttlSeconds'> = DEFAULT_SESSION_POLICY,
): Promise<ChatSession> {
  const session = await db.query<{ id: string; collection: string | null; ended: boolean }>(
    `SELECT s.id, c.name AS collection, ${ENDED} AS ended
       FROM chat_sessions s LEFT JOIN collections c ON c.id = s.collection_id WHERE s.id = $1`,
    [sessionId, policy.ttlSeconds],
  );
  const row = session.rows[0];
  if (!row) throw notFound(sessionId);
  if (row.ended) throw ended(sessionId, policy.ttlSeconds);
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

/** Whether session `s` has ended, given the time-to-live in seconds as `$2` (0: never). */
const ENDED = `($2::integer > 0 AND s.updated_at < now() - make_interval(secs => $2::integer))`;

/**
 * The session `sessionId` of `collectionId`, ready for another question: NOT_FOUND when there is no
 * such session in that collection or it has ended.
 */
export async function requireOpenSession(
  db: Queryable,
  sessionId: string,
  collection: { id: string; name: string },
  policy: Pick<SessionPolicy, 'ttlSeconds'> = DEFAULT_SESSION_POLICY,
): Promise<void> {
  const found = await db.query<{ ended: boolean }>(
    `SELECT ${ENDED} AS ended FROM chat_sessions s WHERE s.id = $1 AND s.collection_id = $3`,
    [sessionId, policy.ttlSeconds, collection.id],
  );
  const row = found.rows[0];
  if (!row)
    throw new EngineError(
      'NOT_FOUND',
      `No chat session ${JSON.stringify(sessionId.slice(0, 100))} in collection ${collection.name}; start a new chat.`,
    );
  if (row.ended) throw ended(sessionId, policy.ttlSeconds);
}

/**
 * The newest `turns` question/answer pairs of a session, oldest first, each text cut to
 * {@link MAX_TURN_CHARS} and the whole to {@link MAX_CONVERSATION_CHARS} (the oldest turns go first).
 */
export async function conversationOf(
  db: Queryable,
  sessionId: string,
  turns: number,
): Promise<ConversationTurn[]> {
  if (turns <= 0) return [];
  const rows = await db.query<{ role: 'user' | 'assistant'; content: string }>(
    `SELECT role, content FROM chat_messages WHERE session_id = $1
      ORDER BY created_at DESC, CASE role WHEN 'user' THEN 1 ELSE 0 END, id DESC LIMIT $2`,
    [sessionId, turns * 2],
  );
  // Newest first, an answer before its question: pair each answer with the question before it.
  const pairs: ConversationTurn[] = [];
  const newestFirst = rows.rows;
  for (let index = 0; index + 1 < newestFirst.length; index += 1) {
    const answer = newestFirst[index]!;
    const question = newestFirst[index + 1]!;
    if (answer.role !== 'assistant' || question.role !== 'user') continue;
    pairs.unshift({ question: question.content, answer: answer.content });
    index += 1;
  }
  return boundedConversation(pairs, turns);
}

/**
 * A conversation bounded for a prompt: the newest `turns` pairs with a non-empty question, each text cut
 * to {@link MAX_TURN_CHARS}, then the oldest dropped until the whole fits {@link MAX_CONVERSATION_CHARS}.
 */
export function boundedConversation(
  conversation: readonly ConversationTurn[],
  turns: number,
): ConversationTurn[] {
  const cut = (text: string) =>
    text.length > MAX_TURN_CHARS ? `${text.slice(0, MAX_TURN_CHARS - 1).trimEnd()}…` : text;
  if (turns <= 0) return [];
  const kept = conversation
    .filter((turn) => turn.question.trim().length > 0)
    .slice(-turns)
    .map((turn) => ({ question: cut(turn.question.trim()), answer: cut(turn.answer.trim()) }));
  let total = kept.reduce((sum, turn) => sum + turn.question.length + turn.answer.length, 0);
  while (kept.length > 0 && total > MAX_CONVERSATION_CHARS) {
    const oldest = kept.shift()!;
    total -= oldest.question.length + oldest.answer.length;
  }
  return kept;
}

/**
 * Deletes a session's messages beyond its newest `maxTurns` question/answer pairs (run in the
 * transaction that stores a new pair). Returns how many messages went.
 */
export async function trimSessionTurns(db: Queryable, sessionId: string, maxTurns: number): Promise<number> {
  const deleted = await db.query(
    `DELETE FROM chat_messages WHERE session_id = $1 AND id NOT IN (
       SELECT id FROM chat_messages WHERE session_id = $1
        ORDER BY created_at DESC, CASE role WHEN 'user' THEN 1 ELSE 0 END, id DESC LIMIT $2)`,
    [sessionId, maxTurns * 2],
  );
  return deleted.rowCount;
}

/**
 * Deletes sessions that have ended (no question for `ttlSeconds`) with their messages; their
 * certificates and log entries stay. Deletes at most {@link SWEEP_BATCH} a call; returns how many.
 */
export async function deleteEndedSessions(db: Queryable, ttlSeconds: number): Promise<number> {
  if (ttlSeconds <= 0) return 0;
  const deleted = await db.query(
    `DELETE FROM chat_sessions WHERE id IN (
       SELECT id FROM chat_sessions WHERE updated_at < now() - make_interval(secs => $1::integer)
        ORDER BY updated_at LIMIT $2)`,
    [ttlSeconds, SWEEP_BATCH],
  );
  return deleted.rowCount;
}

function ended(sessionId: string, ttlSeconds: number): EngineError {
  return new EngineError(
    'NOT_FOUND',
    `Chat session ${JSON.stringify(sessionId.slice(0, 100))} has ended: no question was asked in it for ${describeSeconds(ttlSeconds)}. Start a new chat.`,
  );
}

function describeSeconds(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} day${seconds === 86_400 ? '' : 's'}`;
  if (seconds % 3_600 === 0) return `${seconds / 3_600} hour${seconds === 3_600 ? '' : 's'}`;
  if (seconds % 60 === 0) return `${seconds / 60} minute${seconds === 60 ? '' : 's'}`;
  return `${seconds} seconds`;
}

function notFound(sessionId: string): EngineError {
  return new EngineError(
    'NOT_FOUND',
    `No chat session ${JSON.stringify(sessionId.slice(0, 100))}; start a new chat.`,
  );
}
