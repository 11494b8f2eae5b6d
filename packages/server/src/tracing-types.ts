/** The shape of tracing (docs/operations.md, "Traces"), apart from the SDK that implements it. */
import type { IngestReport } from '@saksi/engine';

/** What an answer made afresh reports (milliseconds, as the engine measures them). */
export interface AnswerTimings {
  embed_ms: number;
  lexical_ms: number;
  vector_ms: number;
  fuse_ms: number;
  total_ms: number;
  answer_ms: number;
  certify_ms: number;
}

/** The trace of one request: its server span, and the answer's stages under it. */
export interface RequestTrace {
  /** Adds the answer's stages: retrieval, generation (with claim verification), certification. */
  answer(found: boolean, cached: boolean, timings: AnswerTimings): void;
  /** Ends the server span with the route's pattern, the status and the request id. */
  end(fields: { route: string; status: number; requestId: string }): void;
}

export interface Tracing {
  /** Starts a request's server span; a valid W3C `traceparent` header makes it that trace's child. */
  startRequest(method: string, headers: Headers): RequestTrace;
  /** Records a finished ingestion as a trace: its span, and one span per stage. */
  ingestion(report: IngestReport): void;
  /** Exports what is pending (a serverless function, before its instance is frozen). */
  flush(): Promise<void>;
  /** Exports what is pending and stops (at shutdown). */
  shutdown(): Promise<void>;
}
