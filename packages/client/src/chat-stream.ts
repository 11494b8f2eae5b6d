/**
 * The chat as Server-Sent Events (`POST /api/v1/chat`, docs/api.md "Chat"): the server sends
 * `session`, `retrieval`, `delta`…, `bundle` (only once its log entry is durable), then `done`; a
 * failure is an `error` event `{code, message}` instead. {@link chatStream} yields them as typed
 * events and needs only the transport, so a small bundle (the widget) can import it without the
 * whole {@link SaksiClient}.
 */
import { SaksiApiError } from './errors.js';
import { eventError, eventJson, sseOf } from './sse.js';
import { type SaksiClientOptions, Transport } from './transport.js';
import type { Bundle, ChatInput, ChatResponse, ResultSummary } from './types.js';

export interface ChatStreamInput extends ChatInput {
  /** The page the reader is on (the widget): its passages are searched first (docs/api.md, "page_url"). */
  page_url?: string;
}

export interface StreamOptions {
  /** Ends the stream: the request is cancelled and the iteration throws `ABORTED`. */
  signal?: AbortSignal;
}

/** Stage timings in milliseconds, as the server measured them. */
export type Timings = Record<string, number>;

/** One event of a streamed answer, in the order the server sends them. */
export type ChatStreamEvent =
  /** The session the answer belongs to (new, or the one given). */
  | { type: 'session'; session_id: string }
  /** The passages retrieved for the question, before the answer is written. */
  | { type: 'retrieval'; results: ResultSummary[]; timings: Timings }
  /** The next piece of the answer's text. */
  | { type: 'delta'; text: string }
  /** The signed certificate bundle of the answer; check it with `verifyBundle` of `@saksi/proof`. */
  | { type: 'bundle'; bundle: Bundle }
  /**
   * The last event: `found` is false for a refusal (no passage supports an answer); `verdict` is the
   * server's view of the signed certificate (answered, related passages or refused), when it sent one.
   */
  | {
      type: 'done';
      session_id: string;
      certificate_id: string;
      found: boolean;
      cached: boolean;
      timings: Timings;
      verdict?: ChatResponse['verdict'];
    };

/**
 * Streams an answer from the server of `client` (options as for {@link SaksiClient}). Use this free
 * function where bundle size matters; {@link SaksiClient.chatStream} is the same call.
 */
export function chatStream(
  client: SaksiClientOptions,
  input: ChatStreamInput,
  options: StreamOptions = {},
): AsyncGenerator<ChatStreamEvent, void> {
  return streamChat(new Transport(client), input, options);
}

/** {@link chatStream} over an existing transport. */
export async function* streamChat(
  transport: Transport,
  input: ChatStreamInput,
  options: StreamOptions,
): AsyncGenerator<ChatStreamEvent, void> {
  const { signal } = options;
  const { response, url } = await transport.checked('POST', '/chat', {
    json: { ...input, stream: true },
    headers: { accept: 'text/event-stream' },
    signal,
  });
  const body = response.body;
  if (body === null || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    await response.body?.cancel().catch(() => {});
    throw new SaksiApiError(
      'BAD_RESPONSE',
      response.status,
      `POST ${url.pathname} did not answer with an event stream.`,
    );
  }
  for await (const event of sseOf(`POST ${url.pathname}`, body, signal)) {
    const data = eventJson(event);
    switch (event.event) {
      case 'session':
        if (typeof data['session_id'] === 'string') yield { type: 'session', session_id: data['session_id'] };
        break;
      case 'retrieval':
        yield {
          type: 'retrieval',
          results: Array.isArray(data['results']) ? (data['results'] as ResultSummary[]) : [],
          timings: (data['timings'] ?? {}) as Timings,
        };
        break;
      case 'delta':
        if (typeof data['text'] === 'string') yield { type: 'delta', text: data['text'] };
        break;
      case 'bundle':
        yield { type: 'bundle', bundle: data as Bundle };
        break;
      case 'done':
        yield {
          type: 'done',
          session_id: typeof data['session_id'] === 'string' ? data['session_id'] : '',
          certificate_id: typeof data['certificate_id'] === 'string' ? data['certificate_id'] : '',
          found: data['found'] !== false,
          cached: data['cached'] === true,
          timings: (data['timings'] ?? {}) as Timings,
          ...(typeof data['verdict'] === 'object' && data['verdict'] !== null
            ? { verdict: data['verdict'] as ChatResponse['verdict'] }
            : {}),
        };
        return;
      case 'error':
        throw eventError(data, response.status);
      default:
        break; // an event a newer server added
    }
  }
  throw new SaksiApiError(
    'STREAM_ENDED',
    response.status,
    `POST ${url.pathname}: the stream ended before the answer was done.`,
  );
}
