/**
 * Reports unexpected errors to a Sentry-compatible service (`SENTRY_DSN`; docs/operations.md): one
 * event per error, POSTed as an envelope (Sentry's "Envelopes" protocol: an envelope header line, an
 * item header line, the event) to `<scheme>://<host>/api/<project id>/envelope/`.
 *
 * Reporting never holds up or fails what it reports: `capture` returns at once, a send gives up after
 * `timeoutMs`, and while `maxPending` sends are under way further events are dropped (and counted).
 * Everything in an event goes through `redact()` first, as log lines do.
 */
import { randomBytes } from 'node:crypto';
import type { ErrorReportConfig, IngestReport } from '@saksi/engine';
import { redact, redactText } from './observability.js';

/** The `sentry_client` this reporter names itself with. */
const CLIENT_VERSION = '0.1.0';
const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_PENDING = 20;
const MAX_FRAMES = 50;

export type ErrorLevel = 'fatal' | 'error' | 'warning';

/** Where an error happened: a request (id, route pattern, method) or a job. */
export interface ErrorContext {
  level?: ErrorLevel;
  request_id?: string;
  route?: string;
  method?: string;
  job_id?: string;
  document_id?: string;
}

export interface ErrorReporter {
  /** Queues one event for `error`; returns at once. */
  capture(error: unknown, context?: ErrorContext): void;
  /** Waits for the sends under way, at most `timeoutMs` (at shutdown). */
  flush(timeoutMs?: number): Promise<void>;
  /** Events dropped because too many sends were under way. */
  readonly dropped: number;
}

export interface ErrorReporterOptions extends ErrorReportConfig {
  /** Injectable for tests (default the global `fetch`). */
  fetch?: typeof fetch;
  timeoutMs?: number;
  maxPending?: number;
}

/** A reporter that sends to `options.envelopeUrl`; see the module comment. */
export function createErrorReporter(options: ErrorReporterOptions): ErrorReporter {
  const send = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
  const auth = `Sentry sentry_version=7, sentry_key=${options.publicKey}, sentry_client=saksi/${CLIENT_VERSION}`;
  const pending = new Set<Promise<void>>();
  let dropped = 0;

  return {
    get dropped() {
      return dropped;
    },
    capture(error, context = {}) {
      if (pending.size >= maxPending) {
        dropped += 1;
        return;
      }
      let body: string;
      try {
        body = envelope(errorEvent(error, context, options));
      } catch {
        return;
      }
      const sending = send(options.envelopeUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-sentry-envelope', 'x-sentry-auth': auth },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      })
        .then((response) => response.body?.cancel())
        .catch(() => undefined)
        .finally(() => pending.delete(sending));
      pending.add(sending);
    },
    async flush(wait = timeoutMs) {
      if (pending.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...pending]),
        new Promise((resolve) => {
          timer = setTimeout(resolve, wait);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}

interface SentryEvent {
  event_id: string;
  timestamp: number;
  platform: 'node';
  level: ErrorLevel;
  logger: string;
  environment?: string;
  release?: string;
  exception: { values: { type: string; value: string; stacktrace?: { frames: StackFrame[] } }[] };
  tags: Record<string, string>;
  extra: Record<string, unknown>;
}

interface StackFrame {
  function?: string;
  filename: string;
  lineno?: number;
  colno?: number;
}

/** Reports a job that failed for good (not an attempt that will be retried). */
export function reportFailedIngestion(reporter: ErrorReporter, report: IngestReport): void {
  if (report.outcome !== 'failed') return;
  reporter.capture(report.error ?? new Error('Ingestion failed.'), {
    ...(report.jobId !== undefined ? { job_id: report.jobId } : {}),
    ...(report.documentId !== undefined ? { document_id: report.documentId } : {}),
  });
}

/** The event of one error, redacted. Exported for tests. */
export function errorEvent(
  error: unknown,
  context: ErrorContext,
  options: Pick<ErrorReportConfig, 'environment' | 'release'>,
): SentryEvent {
  const flat = redact(error instanceof Error ? error : new Error(String(error))) as {
    name: string;
    message: string;
    code?: string;
    stack?: string;
    cause?: unknown;
  };
  const tags: Record<string, string> = {};
  for (const key of ['request_id', 'route', 'method', 'job_id', 'document_id'] as const) {
    const value = context[key];
    if (value !== undefined) tags[key] = redactText(value);
  }
  const frames = flat.stack ? stackFrames(flat.stack) : [];
  return {
    event_id: randomBytes(16).toString('hex'),
    timestamp: Date.now() / 1000,
    platform: 'node',
    level: context.level ?? 'error',
    logger: 'saksi',
    environment: options.environment ?? 'production',
    ...(options.release !== undefined ? { release: options.release } : {}),
    exception: {
      values: [
        {
          type: flat.code ? `${flat.name} (${flat.code})` : flat.name,
          value: flat.message,
          ...(frames.length > 0 ? { stacktrace: { frames } } : {}),
        },
      ],
    },
    tags,
    extra: { ...(flat.cause !== undefined ? { cause: flat.cause } : {}) },
  };
}

/** V8's stack lines as Sentry frames, oldest call first. */
function stackFrames(stack: string): StackFrame[] {
  const frames: StackFrame[] = [];
  for (const line of stack.split('\n').slice(1, MAX_FRAMES + 1)) {
    const match = /^\s*at (?:(.*?) \()?(.*?):(\d+):(\d+)\)?$/.exec(line);
    if (!match) continue;
    frames.push({
      ...(match[1] ? { function: match[1] } : {}),
      filename: match[2] ?? '?',
      lineno: Number(match[3]),
      colno: Number(match[4]),
    });
  }
  return frames.reverse();
}

/** An envelope of one event: envelope header, item header, payload (each a line). */
function envelope(event: SentryEvent): string {
  const payload = JSON.stringify(event);
  const header = { event_id: event.event_id, sent_at: new Date().toISOString() };
  const item = { type: 'event', content_type: 'application/json', length: Buffer.byteLength(payload) };
  return `${JSON.stringify(header)}\n${JSON.stringify(item)}\n${payload}\n`;
}
