/** The public chat: collection picker, streamed answers, their sources and their verification. */
import type { Bundle, Citation } from '@saksi/proof';
import { Fragment, type KeyboardEvent, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import {
  ApiError,
  type ChatSession,
  type CollectionSummary,
  errorFromResponse,
  fetchCertificate,
  fetchCollections,
  fetchSession,
  readStorage,
  writeStorage,
} from './api.js';
import { useT } from './app.js';
import type { MessageKey } from './i18n.js';
import type { Block, Inline } from './markdown.js';
import {
  answerBlocks,
  citationHref,
  citedChunks,
  formatCitation,
  highlightSegments,
  markdownDocuments,
} from './sources.js';
import { eventJson, readSse, SseError, type SseEvent } from './sse.js';
import { relatedPassages, VerificationPanel } from './verification.js';

interface RetrievalResult {
  chunk_id: string;
  document_id: string;
  score?: number;
  rank?: number;
  citation: Citation;
  snippet: string;
  context?: { before?: string; after?: string };
}

interface ChatFailure {
  code: string;
  message: string;
  status: number;
}

interface Message {
  id: number;
  role: 'user' | 'assistant';
  text: string;
  state: 'streaming' | 'done' | 'error';
  results?: RetrievalResult[];
  bundle?: Bundle;
  found?: boolean;
  error?: ChatFailure;
  /** For an answer: the question as the user asked it (the certificate's `query.text`). */
  question?: string;
  /** For a restored answer: its certificate, fetched when its sources or proof are opened. */
  certificateId?: string;
  /** Restored answers whose bundle is fetched right away (the last few). */
  eager?: boolean;
}

/** Restored answers whose certificates are fetched at once; older ones wait until they are opened. */
const EAGER_RESTORED = 3;

/** The stored conversation as messages; the last few answers fetch their certificates right away. */
function restoredMessages(session: ChatSession): Message[] {
  let question: string | undefined;
  const messages: Message[] = session.messages.map((stored) => {
    const message: Message = {
      id: nextMessageId++,
      role: stored.role,
      text: stored.content,
      state: 'done',
    };
    if (stored.role === 'user') question = stored.content;
    else {
      if (question !== undefined) message.question = question;
      if (stored.certificate_id !== null) message.certificateId = stored.certificate_id;
    }
    return message;
  });
  let eager = 0;
  for (let index = messages.length - 1; index >= 0 && eager < EAGER_RESTORED; index--) {
    const message = messages[index]!;
    if (message.certificateId !== undefined) {
      message.eager = true;
      eager++;
    }
  }
  return messages;
}

const sessionKey = (collection: string) => `saksi.session.${collection}`;
let nextMessageId = 1;

/** The message key and values for a failure, so it follows the language switch. */
function failureText(
  failure: ChatFailure,
  t: (key: MessageKey, values?: Record<string, string | number>) => string,
): string {
  if (failure.code === 'NETWORK') return t('error.network');
  if (failure.code === 'STREAM_ENDED') return t('error.stream');
  if (failure.code === 'MALFORMED' || failure.code === 'SSE_MALFORMED' || failure.code === 'SSE_TOO_LARGE')
    return t('error.malformed');
  if (failure.code === 'LLM_RATE_LIMITED') return t('error.busy');
  if (failure.code.startsWith('LLM_')) return t('error.model', { code: failure.code });
  if (failure.status === 404) return t('error.notFound', { message: failure.message });
  if (failure.status === 429 || failure.status === 503) return t('error.busy');
  if (failure.status >= 400 && failure.status < 500) return t('error.invalid', { message: failure.message });
  return t('error.server', { code: failure.code, message: failure.message });
}

function isRetrievalResult(value: unknown): value is RetrievalResult {
  const record = value as Partial<RetrievalResult> | null;
  return (
    typeof record === 'object' &&
    record !== null &&
    typeof record.chunk_id === 'string' &&
    typeof record.snippet === 'string' &&
    typeof record.citation?.document_title === 'string'
  );
}

export function ChatPage() {
  const { t } = useT();
  const [collections, setCollections] = useState<CollectionSummary[] | undefined>();
  const [collection, setCollection] = useState<string>(() => readStorage('saksi.collection') ?? '');
  const [collectionsError, setCollectionsError] = useState<ChatFailure | undefined>();
  const [messages, setMessages] = useState<Message[]>([]);
  const [input, setInput] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ChatFailure | undefined>();
  const abortRef = useRef<AbortController | undefined>(undefined);
  const endRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    fetchCollections().then(
      (items) => {
        setCollections(items);
        setCollection((current) =>
          items.some((item) => item.name === current) ? current : (items[0]?.name ?? ''),
        );
      },
      (error: unknown) => {
        setCollections([]);
        setCollectionsError(toFailure(error));
      },
    );
    return () => abortRef.current?.abort();
  }, []);

  useEffect(() => {
    if (collection !== '') writeStorage('saksi.collection', collection);
  }, [collection]);

  // Restore the conversation kept for this collection (the session id lives in localStorage).
  useEffect(() => {
    if (collection === '') return;
    const sessionId = readStorage(sessionKey(collection));
    if (sessionId === null) return;
    let cancelled = false;
    fetchSession(sessionId).then(
      (session) => {
        if (cancelled) return;
        if (session === null) {
          if (readStorage(sessionKey(collection)) === sessionId) writeStorage(sessionKey(collection), null);
          return;
        }
        setMessages((list) => (list.length > 0 ? list : restoredMessages(session)));
      },
      () => {}, // the session stays remembered; the next question still uses it
    );
    return () => {
      cancelled = true;
    };
  }, [collection]);

  const lastText = messages[messages.length - 1]?.text;
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when the last message grows
  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [messages.length, lastText]);

  const update = (id: number, change: (message: Message) => Message) =>
    setMessages((list) => list.map((message) => (message.id === id ? change(message) : message)));

  async function ask(question: string, assistantId: number, signal: AbortSignal): Promise<void> {
    let sessionId = readStorage(sessionKey(collection)) ?? undefined;
    for (let attempt = 0; ; attempt++) {
      const body: Record<string, string> = { collection, question };
      if (sessionId !== undefined) body['session_id'] = sessionId;
      let response: Response;
      try {
        response = await fetch('/api/v1/chat', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
          body: JSON.stringify(body),
          signal,
        });
      } catch (error) {
        if (signal.aborted) return;
        throw new ApiError('NETWORK', error instanceof Error ? error.message : 'fetch failed');
      }
      if (!response.ok) {
        const error = await errorFromResponse(response);
        if (response.status === 404 && sessionId !== undefined && attempt === 0) {
          // A stale session (e.g. the server's data was reset): forget it and ask once more without.
          writeStorage(sessionKey(collection), null);
          sessionId = undefined;
          continue;
        }
        throw error;
      }
      if (!response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
        throw new ApiError('MALFORMED', 'The reply is not an event stream.', response.status);
      }
      let finished = false;
      const onEvent = (event: SseEvent) => {
        switch (event.event) {
          case 'session': {
            const data = eventJson(event);
            if (typeof data['session_id'] === 'string')
              writeStorage(sessionKey(collection), data['session_id']);
            break;
          }
          case 'retrieval': {
            const data = eventJson(event);
            const results = Array.isArray(data['results']) ? data['results'].filter(isRetrievalResult) : [];
            update(assistantId, (message) => ({ ...message, results }));
            break;
          }
          case 'delta': {
            const data = eventJson(event);
            if (typeof data['text'] === 'string') {
              const text = data['text'];
              update(assistantId, (message) => ({ ...message, text: message.text + text }));
            }
            break;
          }
          case 'bundle': {
            const bundle = eventJson(event) as unknown as Bundle;
            update(assistantId, (message) => ({ ...message, bundle }));
            break;
          }
          case 'done': {
            const data = eventJson(event);
            if (typeof data['session_id'] === 'string')
              writeStorage(sessionKey(collection), data['session_id']);
            finished = true;
            const found = data['found'] !== false;
            update(assistantId, (message) => ({ ...message, state: 'done', found }));
            break;
          }
          case 'error': {
            const data = eventJson(event);
            finished = true;
            const code = typeof data['code'] === 'string' ? data['code'] : 'INTERNAL';
            throw new ApiError(
              code,
              typeof data['message'] === 'string' ? data['message'] : 'The answer failed.',
              code === 'NOT_FOUND' ? 404 : 500,
            );
          }
          default:
            break;
        }
      };
      try {
        await readSse(response.body, onEvent, signal);
      } catch (error) {
        if (signal.aborted) return;
        if (
          error instanceof ApiError &&
          error.code === 'NOT_FOUND' &&
          sessionId !== undefined &&
          attempt === 0
        ) {
          // The server reports an unknown session as an `error` event: forget it and ask once more.
          writeStorage(sessionKey(collection), null);
          sessionId = undefined;
          update(assistantId, ({ results: _results, bundle: _bundle, ...message }) => ({
            ...message,
            text: '',
          }));
          continue;
        }
        if (error instanceof ApiError || error instanceof SseError) throw error;
        throw new ApiError('STREAM_ENDED', 'The stream broke off.');
      }
      if (!finished && !signal.aborted)
        throw new ApiError('STREAM_ENDED', 'The stream ended before the answer was done.');
      return;
    }
  }

  function send(): void {
    const question = input.trim();
    if (question === '' || busy || collection === '') return;
    const userId = nextMessageId++;
    const assistantId = nextMessageId++;
    setMessages((list) => [
      ...list,
      { id: userId, role: 'user', text: question, state: 'done' },
      { id: assistantId, role: 'assistant', text: '', state: 'streaming', question },
    ]);
    setInput('');
    setFailure(undefined);
    setBusy(true);
    const controller = new AbortController();
    abortRef.current = controller;
    ask(question, assistantId, controller.signal)
      .catch((error: unknown) => {
        const failed = toFailure(error);
        setFailure(failed);
        update(assistantId, (message) => ({ ...message, state: 'error', error: failed }));
      })
      .finally(() => {
        if (abortRef.current === controller) {
          abortRef.current = undefined;
          setBusy(false);
        }
      });
  }

  /** Clears the view; the collection's session stays remembered (switching back restores it). */
  function clearView(): void {
    abortRef.current?.abort();
    abortRef.current = undefined;
    setMessages([]);
    setFailure(undefined);
    setBusy(false);
  }

  function newChat(): void {
    if (collection !== '') writeStorage(sessionKey(collection), null);
    clearView();
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  const shownFailure = failure ?? collectionsError;

  return (
    <div className="chat">
      <h1 className="visually-hidden">{t('chat.title')}</h1>
      <div className="chat-toolbar">
        <label className="control">
          <span>{t('chat.collection')}</span>
          <select
            data-testid="collection-picker"
            value={collection}
            disabled={collections === undefined || busy}
            onChange={(event) => {
              clearView();
              setCollection(event.target.value);
            }}
          >
            {collections === undefined && <option value={collection}>{t('chat.collectionsLoading')}</option>}
            {collections !== undefined && collections.length === 0 && (
              <option value="">{t('chat.noCollections')}</option>
            )}
            {collections?.map((item) => (
              <option key={item.name} value={item.name}>
                {item.name}
                {item.documents !== undefined ? ` (${item.documents})` : ''}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button secondary" data-testid="new-chat" onClick={newChat}>
          {t('chat.new')}
        </button>
      </div>

      <section className="messages" aria-label={t('chat.messages')} aria-live="polite">
        {messages.length === 0 && <p className="empty muted">{t('chat.empty')}</p>}
        {messages.map((message) =>
          message.role === 'user' ? (
            <div key={message.id} className="message user" data-testid="message-user">
              <span className="visually-hidden">{t('chat.you')}: </span>
              <p className="user-text">{message.text}</p>
            </div>
          ) : (
            <AssistantMessage key={message.id} message={message} />
          ),
        )}
        {busy && (
          <div className="typing" data-testid="typing-indicator" role="status">
            <span className="dots" aria-hidden="true">
              <span />
              <span />
              <span />
            </span>
            <span>{t('chat.typing')}</span>
          </div>
        )}
        <div ref={endRef} />
      </section>

      {shownFailure && (
        <div className="error" role="alert" data-testid="chat-error">
          {failureText(shownFailure, t)}
        </div>
      )}

      <form
        className="composer"
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <label className="visually-hidden" htmlFor="chat-input">
          {t('chat.input')}
        </label>
        <textarea
          id="chat-input"
          data-testid="chat-input"
          value={input}
          rows={2}
          maxLength={4000}
          placeholder={t('chat.placeholder')}
          onChange={(event) => setInput(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button
          type="submit"
          className="button"
          data-testid="chat-send"
          disabled={input.trim() === '' || busy || collection === ''}
        >
          {t('chat.send')}
        </button>
      </form>
    </div>
  );
}

function toFailure(error: unknown): ChatFailure {
  if (error instanceof ApiError) return { code: error.code, message: error.message, status: error.status };
  if (error instanceof SseError) return { code: error.code, message: error.message, status: 0 };
  return { code: 'NETWORK', message: error instanceof Error ? error.message : String(error), status: 0 };
}

/** The bundle of a restored answer, fetched once it is wanted. */
function useRestoredBundle(message: Message, wanted: boolean): { bundle?: Bundle; failed: boolean } {
  const [loaded, setLoaded] = useState<{ bundle?: Bundle; failed: boolean }>({ failed: false });
  const id = message.bundle === undefined ? message.certificateId : undefined;
  const load = id !== undefined && wanted;
  useEffect(() => {
    if (!load || id === undefined) return;
    let cancelled = false;
    fetchCertificate(id).then(
      (value) => {
        if (!cancelled) setLoaded({ bundle: value as Bundle, failed: false });
      },
      () => {
        if (!cancelled) setLoaded({ failed: true });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [id, load]);
  return message.bundle !== undefined ? { bundle: message.bundle, failed: false } : loaded;
}

function AssistantMessage(props: { message: Message }) {
  const { t } = useT();
  const { message } = props;
  const [open, setOpen] = useState(false);
  const [proofWanted, setProofWanted] = useState(false);
  const restored = useRestoredBundle(message, open || proofWanted || message.eager === true);
  const bundle = restored.bundle;
  const cited = bundle ? safeCited(bundle) : [];
  const citedIds = new Set(cited.map((chunk) => chunk.chunk_id));
  const results = message.results ?? [];
  const others = results.filter((result) => !citedIds.has(result.chunk_id));
  const count = cited.length > 0 ? cited.length : results.length;
  const pending = message.certificateId !== undefined && bundle === undefined;
  const contextOf = new Map(results.map((result) => [result.chunk_id, result.context]));
  const sourcesId = `sources-${message.id}`;
  const blocks = useMemo(
    () => answerBlocks(message.text, bundle, markdownDocuments(message.results ?? [])),
    [message.text, bundle, message.results],
  );

  return (
    <article className="message assistant" data-testid="message-assistant" data-state={message.state}>
      <h2 className="visually-hidden">{t('chat.saksi')}</h2>
      <div className="answer" data-testid="answer-text">
        {renderBlocks(blocks)}
      </div>
      {message.state === 'done' && message.found === false && message.text === '' && (
        <p className="muted">{t('chat.notFound')}</p>
      )}
      {(results.length > 0 || cited.length > 0 || pending) && (
        <div className="sources">
          <button
            type="button"
            className="link-button"
            data-testid="sources-toggle"
            aria-expanded={open}
            aria-controls={sourcesId}
            onClick={() => setOpen(!open)}
          >
            {open
              ? t('sources.hide')
              : pending
                ? t('sources.show', { count: '…' })
                : t('sources.show', { count })}
          </button>
          {open && (
            <div id={sourcesId}>
              {pending && !restored.failed && <p className="muted">{t('chat.loadingProof')}</p>}
              {pending && restored.failed && (
                <p className="muted">{t('error.notFound', { message: message.certificateId ?? '' })}</p>
              )}
              {bundle && (
                <>
                  <h3>{t('sources.cited')}</h3>
                  {cited.length === 0 && <p className="muted">{t('sources.none')}</p>}
                  <ol className="source-list">
                    {cited.map((chunk) => {
                      const context = contextOf.get(chunk.chunk_id);
                      return (
                        <li key={chunk.chunk_id} className="source" data-testid="source-item">
                          <p className="citation">
                            <CitationTitle citation={chunk.citation} />{' '}
                            <span className="muted">[{chunk.claims.join(', ')}]</span>
                          </p>
                          {context?.before ? <p className="context muted">…{context.before}</p> : null}
                          <blockquote className="snippet">
                            {highlightSegments(chunk.text, chunk.spans).map((segment, index) =>
                              segment.marked ? (
                                // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional
                                <mark key={index}>{segment.text}</mark>
                              ) : (
                                // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional
                                <span key={index}>{segment.text}</span>
                              ),
                            )}
                          </blockquote>
                          {context?.after ? <p className="context muted">{context.after}…</p> : null}
                        </li>
                      );
                    })}
                  </ol>
                </>
              )}
              {others.length > 0 && (
                <>
                  <h3>{t('sources.retrieved')}</h3>
                  <ol className="source-list">
                    {others.map((result) => (
                      <li key={result.chunk_id} className="source retrieved" data-testid="retrieval-item">
                        <p className="citation">
                          <CitationTitle citation={result.citation} />
                        </p>
                        <blockquote className="snippet">{result.snippet}</blockquote>
                      </li>
                    ))}
                  </ol>
                </>
              )}
            </div>
          )}
        </div>
      )}
      {bundle ? (
        <VerificationPanel
          bundle={bundle}
          testId="verify-panel"
          showKeys={false}
          related={relatedPassages(results, t('sources.page', { page: '' }).trim())}
          {...(message.question !== undefined ? { presentedQuestion: message.question } : {})}
        />
      ) : (
        pending &&
        !proofWanted && (
          <button
            type="button"
            className="link-button"
            data-testid="load-proof"
            onClick={() => setProofWanted(true)}
          >
            {t('chat.showProof')}
          </button>
        )
      )}
    </article>
  );
}

function renderBlocks(blocks: readonly Block[]): ReactNode[] {
  return blocks.map((block, index) => {
    const key = `b${index}`;
    if (block.kind === 'paragraph') return <p key={key}>{renderInline(block.children, key)}</p>;
    const items = block.items.map((item, n) => (
      // biome-ignore lint/suspicious/noArrayIndexKey: list items are positional
      <li key={n}>{renderInline(item, `${key}.${n}`)}</li>
    ));
    return block.ordered ? <ol key={key}>{items}</ol> : <ul key={key}>{items}</ul>;
  });
}

function renderInline(nodes: readonly Inline[], prefix: string): ReactNode[] {
  return nodes.map((node, index) => {
    const key = `${prefix}.${index}`;
    switch (node.kind) {
      case 'text':
        return <Fragment key={key}>{node.text}</Fragment>;
      case 'break':
        return <br key={key} />;
      case 'bold':
        return <strong key={key}>{renderInline(node.children, key)}</strong>;
      case 'code':
        return <code key={key}>{node.text}</code>;
      case 'cite':
        return (
          <sup key={key} className="cite" data-cite={node.n}>
            [{node.n}]
          </sup>
        );
      case 'link':
        return (
          <a key={key} href={node.href} rel="noopener noreferrer nofollow" target="_blank">
            {renderInline(node.children, key)}
          </a>
        );
      default:
        return null;
    }
  });
}

function safeCited(bundle: Bundle) {
  try {
    return citedChunks(bundle);
  } catch {
    return [];
  }
}

/**
 * How a source is named: the citation's text, as a link to the page and heading on the collection's
 * site when the citation carries an http(s) `url` (a new tab, no referrer or opener); else plain.
 */
function CitationTitle(props: { citation: Citation }) {
  const { t } = useT();
  const text = formatCitation(props.citation, t('sources.page', { page: '' }).trim());
  const href = citationHref(props.citation);
  if (href === undefined) return <strong>{text}</strong>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" data-testid="source-link">
      <strong>{text}</strong>
      <span className="visually-hidden"> {t('sources.newTab')}</span>
    </a>
  );
}
