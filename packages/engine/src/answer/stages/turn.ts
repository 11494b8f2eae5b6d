/**
 * The turn `ask` answers in: the chat session (created when the question opens one) and the
 * conversation the language model is shown — the client's own, or the session's newest stored turns.
 */
import type { Collection } from '../../collections.js';
import {
  boundedConversation,
  type ConversationTurn,
  conversationOf,
  DEFAULT_SESSION_POLICY,
  type SessionPolicy,
} from '../../sessions.js';
import type { AskContext, AskEvent, AskInput } from '../ask-context.js';
import { ensureSession } from '../persist.js';

export interface Turn {
  sessionId: string;
  sessions: SessionPolicy;
  /** The conversation the model sees; empty offline and in a new session. */
  conversation: ConversationTurn[];
  /** When the turn started (`performance.now()`), for the latency recorded with it. */
  started: number;
}

export async function openTurn(
  context: AskContext,
  collection: Collection,
  input: AskInput,
  started: number,
  onEvent: (event: AskEvent) => void,
): Promise<Turn> {
  const { db } = context;
  const sessions = context.sessions ?? DEFAULT_SESSION_POLICY;
  const sessionId = await ensureSession(db, collection, input.session_id, sessions);
  onEvent({ type: 'session', session_id: sessionId });
  const conversation = input.conversation
    ? boundedConversation(input.conversation, sessions.promptTurns)
    : context.answerModel && input.session_id !== undefined
      ? await conversationOf(db, sessionId, sessions.promptTurns)
      : [];
  return { sessionId, sessions, conversation, started };
}
