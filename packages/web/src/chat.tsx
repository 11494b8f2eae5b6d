/** The public chat: collection picker, streamed answers, their sources and their verification. */
import { SaksiApiError } from '@saksi/client';
import type { Bundle, Citation } from '@saksi/proof';
import {
  Fragment,
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import {
  ApiError,
  type ChatSession,
  type CollectionSummary,
  fetchCertificate,
  fetchCollections,
  fetchSession,
  readStorage,
  saksi,
  toApiError,
  writeStorage,
} from './api.js';
import {
  collectionDescription,
  collectionExamples,
  collectionTitle,
  defaultCollection,
} from './collection-presentation.js';
import { errorText, type Failure } from './error-text.js';
import { FeedbackControl } from './feedback.js';
import { formatNumber, locale } from './format.js';
import type { Lang, MessageKey } from './i18n.js';
import { useT } from './lang-context.js';
import type { Block, Inline } from './markdown.js';
import {
  answerBlocks,
  citationHref,
  citedChunks,
  codeChunks,
  formatCitation,
  highlightSegments,
  markdownDocuments,
  type Segment,
  textHead,
  textTail,
} from './sources.js';
import type { Verdict } from './verdict.js';
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

type ChatFailure = Failure;

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

/**
 * Answers longer than this (in characters) are folded behind "Show more" on narrow screens, quotes
 * longer than `LONG_QUOTE` everywhere; the text around a quote is cut to `CONTEXT_SHOWN`.
 */
const LONG_ANSWER = 420;
const LONG_QUOTE = 320;
const CONTEXT_SHOWN = 160;

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
  const { t, lang } = useT();
  const [collections, setCollections] = useState<CollectionSummary[] | undefined>();
  /** The reader's own choice (picked, or asked in); without one the page's language picks. */
  const [chosen, setChosen] = useState<string | null>(() => readStorage('saksi.collection'));
  const [collectionsError, setCollectionsError] = useState<ChatFailure | undefined>();
  const [messages, setMessages] = useState<Message[]>([]);
  const [input, setInput] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ChatFailure | undefined>();
  const abortRef = useRef<AbortController | undefined>(undefined);
  const endRef = useRef<HTMLDivElement>(null);

  const collection =
    collections === undefined ? (chosen ?? '') : defaultCollection(collections, lang, chosen);
  const current = collections?.find((item) => item.name === collection);

  useEffect(() => {
    fetchCollections().then(setCollections, (error: unknown) => {
      setCollections([]);
      setCollectionsError(toFailure(error));
    });
    return () => abortRef.current?.abort();
  }, []);

  const choose = (name: string) => {
    setChosen(name);
    writeStorage('saksi.collection', name);
  };

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
      const input = { collection, question, ...(sessionId !== undefined ? { session_id: sessionId } : {}) };
      try {
        for await (const event of saksi.chatStream(input, { signal })) {
          switch (event.type) {
            case 'session':
              writeStorage(sessionKey(collection), event.session_id);
              break;
            case 'retrieval': {
              const results = (event.results as unknown[]).filter(isRetrievalResult);
              update(assistantId, (message) => ({ ...message, results }));
              break;
            }
            case 'delta': {
              const text = event.text;
              update(assistantId, (message) => ({ ...message, text: message.text + text }));
              break;
            }
            case 'bundle': {
              const bundle = event.bundle as unknown as Bundle;
              update(assistantId, (message) => ({ ...message, bundle }));
              break;
            }
            case 'done': {
              if (event.session_id !== '') writeStorage(sessionKey(collection), event.session_id);
              const found = event.found;
              update(assistantId, (message) => ({ ...message, state: 'done', found }));
              break;
            }
          }
        }
      } catch (caught) {
        if (signal.aborted) return;
        const error = streamError(caught);
        if (error.code === 'NOT_FOUND' || error.status === 404) {
          if (sessionId !== undefined && attempt === 0) {
            // A stale session (e.g. the server's data was reset; an error reply or an `error` event):
            // forget it and ask once more without.
            writeStorage(sessionKey(collection), null);
            sessionId = undefined;
            update(assistantId, ({ results: _results, bundle: _bundle, ...message }) => ({
              ...message,
              text: '',
            }));
            continue;
          }
        }
        throw error;
      }
      return;
    }
  }

  function send(text = input): void {
    const question = text.trim();
    if (question === '' || busy || collection === '') return;
    // Asking in a collection chooses it: a language switch no longer moves the conversation.
    if (chosen !== collection) choose(collection);
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
              choose(event.target.value);
            }}
          >
            {collections === undefined && <option value={collection}>{t('chat.collectionsLoading')}</option>}
            {collections !== undefined && collections.length === 0 && (
              <option value="">{t('chat.noCollections')}</option>
            )}
            {collections?.map((item) => (
              <option key={item.name} value={item.name}>
                {collectionTitle(item, lang)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button secondary" data-testid="new-chat" onClick={newChat}>
          {t('chat.new')}
        </button>
      </div>

      <section className="messages" aria-label={t('chat.messages')} aria-live="polite">
        {messages.length === 0 &&
          (current ? (
            <Welcome collection={current} onAsk={send} />
          ) : (
            <p className="empty muted">{t('chat.empty')}</p>
          ))}
        {messages.map((message) =>
          message.role === 'user' ? (
            <div key={message.id} className="message user" data-testid="message-user">
              <span className="visually-hidden">{t('chat.you')}: </span>
              <p className="user-text">{message.text}</p>
            </div>
          ) : (
            <AssistantMessage key={message.id} message={message} collection={current} onAsk={send} />
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
          {errorText(shownFailure, lang, t)}
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
          enterKeyHint="send"
          aria-describedby="chat-keyboard-hint"
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
        {/* Shown only with a fine pointer and a wide screen (styles.css): no shortcuts on a phone. */}
        <p id="chat-keyboard-hint" className="keyboard-hint muted" data-testid="keyboard-hint">
          {t('chat.keyboardHint')}
        </p>
      </form>
    </div>
  );
}

/** The empty chat: what the collection is, and example questions that ask themselves when clicked. */
function Welcome(props: { collection: CollectionSummary; onAsk: (question: string) => void }) {
  const { t, lang } = useT();
  const { collection } = props;
  const description = collectionDescription(collection, lang);
  const examples = collectionExamples(collection, lang);
  return (
    <section className="welcome" aria-labelledby="welcome-title" data-testid="chat-welcome">
      <h2 id="welcome-title" data-testid="collection-title">
        {collectionTitle(collection, lang)}
      </h2>
      {description !== undefined && (
        <p className="welcome-description" data-testid="collection-description">
          {description}
          {collection.documents !== undefined && (
            <span className="muted"> · {documentCount(collection.documents, lang, t)}</span>
          )}
        </p>
      )}
      <p className="muted welcome-intro">{t('chat.empty')}</p>
      {examples.length > 0 && (
        <ExampleQuestions examples={examples} onAsk={props.onAsk} title="chat.examplesTitle" />
      )}
    </section>
  );
}

function ExampleQuestions(props: {
  examples: readonly string[];
  onAsk: (question: string) => void;
  title: MessageKey;
}) {
  const { t } = useT();
  return (
    <div className="examples">
      <p className="examples-title">{t(props.title)}</p>
      <ul>
        {props.examples.map((question) => (
          <li key={question}>
            <button
              type="button"
              className="example-question"
              data-testid="example-question"
              onClick={() => props.onAsk(question)}
            >
              {question}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** "1 document" / "85 documents" with the language's plural rule and digits. */
function documentCount(
  count: number,
  lang: Lang,
  t: (key: MessageKey, values?: Record<string, string | number>) => string,
): string {
  const plural = new Intl.PluralRules(locale(lang)).select(count) === 'one' ? 'one' : 'other';
  return t(`chat.documents.${plural}`, { count: formatNumber(count, lang) });
}

/**
 * A block that folds when `long`: its first lines, then "Show more" (an `aria-expanded` toggle).
 * `narrowOnly` folds only on narrow screens (styles.css hides the toggle on wide ones).
 */
function Foldable(props: {
  long: boolean;
  narrowOnly: boolean;
  className: string;
  testId?: string;
  /** `data-outcome` of the block: `related` or `refused` for a text that is not an answer. */
  outcome?: string | undefined;
  children: ReactNode;
}) {
  const { t } = useT();
  const id = useId();
  const [open, setOpen] = useState(false);
  if (!props.long)
    return (
      <div className={props.className} data-testid={props.testId} data-outcome={props.outcome}>
        {props.children}
      </div>
    );
  const scope = props.narrowOnly ? 'fold-narrow' : 'fold-always';
  return (
    <>
      <div
        id={id}
        className={`${props.className} ${scope}${open ? '' : ' folded'}`}
        data-testid={props.testId}
        data-outcome={props.outcome}
        data-folded={open ? 'false' : 'true'}
      >
        {props.children}
      </div>
      <button
        type="button"
        className={`link-button fold-toggle ${scope}-toggle`}
        data-testid="fold-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        {open ? t('chat.showLess') : t('chat.showMore')}
      </button>
    </>
  );
}

/**
 * A failure of the chat stream as an `ApiError`. A server `error` event arrives after the reply began
 * (the client reports it with the stream's 2xx status): it is given 404 for `NOT_FOUND` and 500 for
 * anything else, the status the page words it by.
 */
function streamError(error: unknown): ApiError {
  const failure = toApiError(error);
  const event =
    error instanceof SaksiApiError &&
    error.status >= 200 &&
    error.status < 300 &&
    failure.code !== 'MALFORMED' &&
    failure.code !== 'STREAM_ENDED';
  if (!event) return failure;
  return new ApiError(failure.code, failure.message, failure.code === 'NOT_FOUND' ? 404 : 500);
}

function toFailure(error: unknown): ChatFailure {
  if (error instanceof ApiError) return { code: error.code, message: error.message, status: error.status };
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

function AssistantMessage(props: {
  message: Message;
  /** The collection asked (its description and examples go with a refusal). */
  collection: CollectionSummary | undefined;
  onAsk: (question: string) => void;
}) {
  const { t } = useT();
  const { message } = props;
  // The panel's verdict: an answer the verifier's answer check does not confirm is related passages.
  const [verdict, setVerdict] = useState<Verdict | undefined>();
  // Sources start folded (the answer quotes its evidence already): a long answer stays short on a phone.
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
    () =>
      answerBlocks(
        message.text,
        bundle,
        markdownDocuments(message.results ?? []),
        codeChunks(message.results ?? []),
      ),
    [message.text, bundle, message.results],
  );

  // The signed outcome (`related` since certificate v1.2).
  const outcome = bundle?.certificate.answer.outcome;
  // Related passages: the issuer said so, or the verifier's answer check did not confirm the answer.
  const related = message.state === 'done' && (outcome === 'related' || verdict?.kind === 'related');
  const refused =
    message.state === 'done' &&
    !related &&
    (outcome === 'refused' || (outcome !== 'answered' && message.found === false));
  const relatedWhy =
    verdict?.kind === 'related' ? verdict.lines.find((line) => line.id === 'answer') : undefined;
  // Feedback goes with the answer's certificate: the streamed bundle's, or a restored answer's id.
  const feedbackId = bundle?.certificate.certificate_id ?? message.certificateId;

  return (
    <article className="message assistant" data-testid="message-assistant" data-state={message.state}>
      <h2 className="visually-hidden">{t('chat.saksi')}</h2>
      {refused && (
        <RefusalNote collection={props.collection} question={message.question} onAsk={props.onAsk} />
      )}
      {related && (
        <div className="related-note" data-testid="related-note">
          <p className="related-title">{t('verdict.heading.related')}</p>
          <p>
            {relatedWhy ? t(relatedWhy.message.key, relatedWhy.message.values) : t('verdict.related.note')}
          </p>
        </div>
      )}
      {related && <h3 className="related-heading">{t('verdict.related.passages')}</h3>}
      <Foldable
        long={message.state !== 'streaming' && Array.from(message.text).length > LONG_ANSWER}
        narrowOnly={true}
        className={related ? 'answer related-text' : 'answer'}
        testId="answer-text"
        outcome={related ? 'related' : refused ? 'refused' : undefined}
      >
        {renderBlocks(blocks)}
      </Foldable>
      {message.state === 'done' && message.found === false && message.text === '' && (
        <p className="muted">{t('chat.notFound')}</p>
      )}
      {/* A signed refusal lists its related passages once, in the panel below, not as "sources". */}
      {(results.length > 0 || cited.length > 0 || pending) && !(refused && bundle) && (
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
              {pending && restored.failed && <p className="muted">{t('chat.proofMissing')}</p>}
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
                          {context?.before ? (
                            <p className="context muted">…{textTail(context.before, CONTEXT_SHOWN)}</p>
                          ) : null}
                          <Quote segments={highlightSegments(chunk.text, chunk.spans)} />
                          {context?.after ? (
                            <p className="context muted">{textHead(context.after, CONTEXT_SHOWN)}…</p>
                          ) : null}
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
                        <Quote segments={[{ text: result.snippet, marked: false }]} />
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
          coverage={false}
          relatedQuotes={false}
          onVerdict={setVerdict}
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
      {message.state === 'done' && feedbackId !== undefined && (
        <FeedbackControl key={feedbackId} certificateId={feedbackId} />
      )}
    </article>
  );
}

/** A quoted passage, its evidence marked; a long one folded behind "Show more". */
function Quote(props: { segments: readonly Segment[] }) {
  const length = props.segments.reduce((total, segment) => total + Array.from(segment.text).length, 0);
  return (
    <Foldable long={length > LONG_QUOTE} narrowOnly={false} className="snippet-fold">
      <blockquote className="snippet">
        {props.segments.map((segment, index) =>
          segment.marked ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional
            <mark key={index}>{segment.text}</mark>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional
            <span key={index}>{segment.text}</span>
          ),
        )}
      </blockquote>
    </Foldable>
  );
}

/**
 * Above a refused answer, in the page's language: that the documents do not answer it, what the
 * collection does cover, and questions it can answer.
 */
function RefusalNote(props: {
  collection: CollectionSummary | undefined;
  question: string | undefined;
  onAsk: (question: string) => void;
}) {
  const { t, lang } = useT();
  const { collection } = props;
  const description = collection ? collectionDescription(collection, lang) : undefined;
  const examples = collection
    ? collectionExamples(collection, lang).filter((example) => example !== props.question)
    : [];
  return (
    <div className="refusal-note" data-testid="refusal-note">
      <p className="refusal-title">{t('chat.refusedTitle')}</p>
      {collection && description !== undefined && (
        <p>{t('chat.refusedCovers', { title: collectionTitle(collection, lang), description })}</p>
      )}
      {examples.length > 0 && (
        <ExampleQuestions examples={examples} onAsk={props.onAsk} title="chat.refusedTry" />
      )}
    </div>
  );
}

function renderBlocks(blocks: readonly Block[]): ReactNode[] {
  return blocks.map((block, index) => {
    const key = `b${index}`;
    if (block.kind === 'paragraph') return <p key={key}>{renderInline(block.children, key)}</p>;
    if (block.kind === 'code')
      return (
        <pre key={key} className="code-block">
          <code>{block.text}</code>
        </pre>
      );
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
