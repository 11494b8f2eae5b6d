/**
 * A small Server-Sent Events parser (WHATWG HTML §9.2.6 "Interpreting an event stream") for
 * `fetch` response bodies: the browser's `EventSource` cannot POST, so the client reads the stream
 * itself (the streamed chat, the admin upload's progress). A fault of the stream is `BAD_RESPONSE`.
 */
import { SaksiApiError } from './errors.js';

/** One dispatched event: its type (default `message`) and its data lines joined by `\n`. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/** Largest event (data) accepted, in characters; a bigger one is a server fault, not something to buffer. */
export const SSE_MAX_EVENT_LENGTH = 32 * 1024 * 1024;

/**
 * Incremental parser: feed decoded text in arbitrary pieces with {@link SseParser.push}; complete
 * events come back as soon as their blank line arrives. Lines end in CRLF, LF or CR, and a CR at
 * the end of one piece followed by LF at the start of the next counts once.
 */
export class SseParser {
  private buffer = '';
  private pendingCr = false;
  private started = false;
  private eventType = '';
  private dataLines: string[] = [];
  private dataLength = 0;
  private lastId: string | undefined;

  push(text: string): SseEvent[] {
    let input = text;
    if (!this.started && input.length > 0) {
      this.started = true;
      if (input.charCodeAt(0) === 0xfeff) input = input.slice(1);
    }
    if (this.pendingCr && input.startsWith('\n')) input = input.slice(1);
    this.pendingCr = false;
    this.buffer += input;
    const events: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const char = this.buffer.charCodeAt(i);
      if (char !== 0x0a && char !== 0x0d) continue;
      const line = this.buffer.slice(start, i);
      if (char === 0x0d) {
        if (i + 1 === this.buffer.length) this.pendingCr = true;
        else if (this.buffer.charCodeAt(i + 1) === 0x0a) i++;
      }
      start = i + 1;
      const event = this.line(line);
      if (event) events.push(event);
    }
    this.buffer = this.buffer.slice(start);
    if (this.buffer.length + this.dataLength > SSE_MAX_EVENT_LENGTH) {
      throw new SaksiApiError('BAD_RESPONSE', 0, 'The server sent an event that is too large.');
    }
    return events;
  }

  /** The stream ended: an event without its closing blank line is discarded, as the spec says. */
  end(): SseEvent[] {
    this.buffer = '';
    this.eventType = '';
    this.dataLines = [];
    this.dataLength = 0;
    return [];
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.eventType = value;
    else if (field === 'data') {
      this.dataLines.push(value);
      this.dataLength += value.length + 1;
    } else if (field === 'id' && !value.includes('\0')) this.lastId = value;
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    const hasData = this.dataLines.length > 0;
    const event: SseEvent = { event: this.eventType || 'message', data: this.dataLines.join('\n') };
    if (this.lastId !== undefined) event.id = this.lastId;
    this.eventType = '';
    this.dataLines = [];
    this.dataLength = 0;
    return hasData ? event : undefined;
  }
}

/** Parses an event's data as a JSON object; anything else is `BAD_RESPONSE`. */
export function eventJson(event: SseEvent): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(event.data);
  } catch {
    value = undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SaksiApiError('BAD_RESPONSE', 0, `The server sent a malformed "${event.event}" event.`);
  }
  return value as Record<string, unknown>;
}

/**
 * The events of a response body, in order, as they arrive (UTF-8 split across reads is fine). Stops
 * when the body ends or `signal` is aborted; a read that fails throws what the body threw.
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<SseEvent, void> {
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  const parser = new SseParser();
  try {
    for (;;) {
      if (signal?.aborted) return;
      const { value, done } = await reader.read();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    yield* parser.push(decoder.decode());
    parser.end();
  } finally {
    // A consumer that stops early (or an abort) cancels the body, so the connection is not left open.
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/**
 * The events of `body`: aborting `signal` is `ABORTED`, a body that breaks off is `STREAM_ENDED`
 * (a malformed event stays `BAD_RESPONSE`).
 */
export async function* sseOf(
  request: string,
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal | undefined,
): AsyncGenerator<{ event: string; data: string }, void> {
  const events = readSse(body, signal)[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<{ event: string; data: string }, void>;
    try {
      next = await events.next();
    } catch (error) {
      if (error instanceof SaksiApiError) throw error;
      if (signal?.aborted)
        throw new SaksiApiError('ABORTED', 0, `${request} was cancelled.`, { cause: error });
      throw new SaksiApiError('STREAM_ENDED', 0, `${request}: the stream broke off.`, { cause: error });
    }
    if (signal?.aborted) {
      await events.return?.();
      throw new SaksiApiError('ABORTED', 0, `${request} was cancelled.`);
    }
    if (next.done) return;
    yield next.value;
  }
}

/**
 * A server `error` event as the error it reports. Its `status` is the stream's (200: the reply had
 * begun before the failure), not the one a JSON reply would have had.
 */
export function eventError(data: Record<string, unknown>, status: number): SaksiApiError {
  const code = typeof data['code'] === 'string' ? data['code'] : 'BAD_RESPONSE';
  const message = typeof data['message'] === 'string' ? data['message'] : 'The server reported a failure.';
  const messageId = data['message_id'];
  return new SaksiApiError(code, status, message, typeof messageId === 'string' ? { messageId } : {});
}
