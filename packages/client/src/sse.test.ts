import { describe, expect, it } from 'vitest';
import { SaksiApiError } from './errors.js';
import { eventJson, readSse, SSE_MAX_EVENT_LENGTH, type SseEvent, SseParser } from './sse.js';

const STREAM =
  'event: session\ndata: {"session_id":"ses_1"}\n\n' +
  ': keep-alive comment\n\n' +
  'event: delta\ndata: {"text":"Halo "}\n\n' +
  'event: delta\r\ndata: {"text":"dunia €"}\r\n\r\n' +
  'event: done\rdata: {"found":true}\r\r';

function parseAll(pieces: readonly string[]): SseEvent[] {
  const parser = new SseParser();
  const events = pieces.flatMap((piece) => parser.push(piece));
  return [...events, ...parser.end()];
}

describe('SseParser', () => {
  it('parses events with LF, CRLF and CR line ends and skips comments', () => {
    expect(parseAll([STREAM])).toEqual([
      { event: 'session', data: '{"session_id":"ses_1"}' },
      { event: 'delta', data: '{"text":"Halo "}' },
      { event: 'delta', data: '{"text":"dunia €"}' },
      { event: 'done', data: '{"found":true}' },
    ]);
  });

  it('gives the same events however the stream is cut, including between CR and LF', () => {
    const whole = parseAll([STREAM]);
    for (let cut = 1; cut < STREAM.length; cut++) {
      expect(parseAll([STREAM.slice(0, cut), STREAM.slice(cut)])).toEqual(whole);
    }
    expect(parseAll(Array.from(STREAM))).toEqual(whole);
  });

  it('joins data lines, defaults the type to message, keeps the id and strips one leading space', () => {
    expect(parseAll(['id: 7\ndata:a\ndata:  b\ndata\n\n'])).toEqual([
      { event: 'message', data: 'a\n b\n', id: '7' },
    ]);
  });

  it('drops an event without data, an unfinished last event, a leading BOM and unknown fields', () => {
    expect(
      parseAll(['\uFEFFevent: ping\n\nretry: 10\nfoo: bar\ndata: x\n\nevent: delta\ndata: {"text":"cut']),
    ).toEqual([{ event: 'message', data: 'x' }]);
  });

  it('refuses an event larger than the limit', () => {
    const parser = new SseParser();
    const big = `data: ${'x'.repeat(1024 * 1024)}\n`;
    expect(() => {
      for (let i = 0; i < SSE_MAX_EVENT_LENGTH / (1024 * 1024) + 2; i++) parser.push(big);
    }).toThrowError(
      expect.objectContaining({ code: 'BAD_RESPONSE', message: expect.stringMatching(/too large/) }),
    );
  });
});

describe('eventJson', () => {
  it('reads an object', () => {
    expect(eventJson({ event: 'delta', data: '{"text":"a"}' })).toEqual({ text: 'a' });
  });

  it.each(['{"text":', 'null', '[1]', '"text"', ''])('rejects malformed data %j as BAD_RESPONSE', (data) => {
    let caught: unknown;
    try {
      eventJson({ event: 'delta', data });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SaksiApiError);
    expect((caught as SaksiApiError).code).toBe('BAD_RESPONSE');
  });
});

describe('readSse', () => {
  it('reads a byte stream whose UTF-8 characters are split across reads', async () => {
    const bytes = new TextEncoder().encode('event: delta\ndata: {"text":"€ – ✓"}\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    const events: SseEvent[] = [];
    for await (const event of readSse(body)) events.push(event);
    expect(events.map((event) => eventJson(event)['text'])).toEqual(['€ – ✓']);
  });
});
