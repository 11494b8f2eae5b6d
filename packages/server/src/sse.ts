/**
 * Server-Sent Events for long requests (chat answers, admin uploads): events are written in order, a
 * client that goes away stops the writes but not the work, and a failure becomes an `error` event
 * `{code, message}` instead of a broken stream.
 */
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { toErrorResponse } from './errors.js';
import { createLogger } from './observability.js';

const fallbackLogger = createLogger('error');

/** Queues one event; never throws. */
export type SendEvent = (event: string, data: unknown) => void;

/**
 * Runs `work` with a `send` for its events, as an SSE response; a thrown error is sent as `error`, and
 * an internal one is also passed to `onInternalError` (default: logged as a JSON line).
 */
export function streamEvents(
  c: Context,
  work: (send: SendEvent) => Promise<void>,
  onInternalError: (error: unknown) => void = (error) =>
    fallbackLogger.error('stream failed', { method: c.req.method, route: c.req.routePath, error }),
): Response {
  return streamSSE(c, async (stream) => {
    let pending: Promise<void> = Promise.resolve();
    let open = true;
    const send: SendEvent = (event, data) => {
      pending = pending.then(async () => {
        if (!open) return;
        try {
          await stream.writeSSE({ event, data: JSON.stringify(data) });
        } catch {
          open = false; // the client went away; the work still completes (answers are still logged)
        }
      });
    };
    stream.onAbort(() => {
      open = false;
    });
    try {
      await work(send);
    } catch (error) {
      const mapped = toErrorResponse(error);
      if (mapped.internal) onInternalError(error);
      send('error', mapped.body.error);
    }
    await pending;
  });
}
