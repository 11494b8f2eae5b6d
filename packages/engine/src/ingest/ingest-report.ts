/**
 * What one ingestion reports when it ends (docs/operations.md, "Metrics" and "Traces"): its outcome,
 * when it started, how long it took, and the stages it went through with their own times. The server
 * turns a report into Prometheus histograms and counters and, when traces are configured, into spans;
 * the engine itself sends nothing anywhere.
 */

/** The timed stages: parse (text extraction, OCR of scanned pages included), chunk (chunking and
 * hashing), embed, store (chunks, keywords and the transaction that makes the document READY). */
export type IngestTimedStage = 'parse' | 'chunk' | 'embed' | 'store';

/** `retrying`: the attempt failed and the job is queued again; `deduplicated`: the bytes were there. */
export type IngestOutcome = 'succeeded' | 'failed' | 'retrying' | 'deduplicated';

export interface IngestStageTiming {
  stage: IngestTimedStage;
  /** Wall-clock start, milliseconds since the epoch. */
  startedAt: number;
  ms: number;
}

export interface IngestReport {
  outcome: IngestOutcome;
  /** Wall-clock start, milliseconds since the epoch. */
  startedAt: number;
  ms: number;
  /** The stages in the order they ran (a failed ingestion stops at the stage that failed). */
  stages: IngestStageTiming[];
  /** The job that ran the ingestion (absent for a synchronous ingestion's deduplicated result). */
  jobId?: string;
  documentId?: string;
  /** 1 for the first attempt of a job. */
  attempt?: number;
  /** Scanned pages read by OCR, when any. */
  ocrPages?: number;
  /** Why a `failed` or `retrying` ingestion failed. */
  error?: unknown;
}

export type IngestListener = (report: IngestReport) => void;

/** Times the stages of one ingestion; {@link begin} ends the stage before it. */
export class IngestClock {
  readonly startedAt = Date.now();
  private readonly origin = performance.now();
  readonly stages: IngestStageTiming[] = [];
  ocrPages: number | undefined;
  private current: { stage: IngestTimedStage; at: number } | null = null;

  begin(stage: IngestTimedStage): void {
    this.end();
    this.current = { stage, at: performance.now() };
  }

  /** Ends the current stage, if any. */
  end(): void {
    if (this.current === null) return;
    const now = performance.now();
    this.stages.push({
      stage: this.current.stage,
      startedAt: this.startedAt + (this.current.at - this.origin),
      ms: now - this.current.at,
    });
    this.current = null;
  }

  /** The report of the ingestion, ending the current stage. */
  report(
    outcome: IngestOutcome,
    fields: Pick<IngestReport, 'jobId' | 'documentId' | 'attempt' | 'error'> = {},
  ): IngestReport {
    this.end();
    return {
      outcome,
      startedAt: this.startedAt,
      ms: performance.now() - this.origin,
      stages: [...this.stages],
      ...(this.ocrPages !== undefined ? { ocrPages: this.ocrPages } : {}),
      ...fields,
    };
  }
}

/** Calls the listener, which must never fail an ingestion. */
export function notifyIngested(listener: IngestListener | undefined, report: IngestReport): void {
  if (listener === undefined) return;
  try {
    listener(report);
  } catch {
    // Metrics and traces are best effort.
  }
}
