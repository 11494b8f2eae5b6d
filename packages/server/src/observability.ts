/**
 * Logs and metrics of the HTTP server (docs/operations.md).
 *
 * Logs are JSON lines (`time`, `level`, `msg`, then fields) at or above `LOG_LEVEL`. Every request gets
 * an id: the client's `X-Request-Id` when it is a plain token, else a new one. It is returned as
 * `X-Request-Id`, put on every line the request logs and in the body of an internal error, so a
 * user's report can be found in the logs. Nothing secret is written: fields named like credentials
 * are replaced, and bearer tokens, API keys, passwords in URLs and 32-byte hex keys are cut out of
 * every string, messages and stacks included.
 *
 * Metrics are Prometheus text (`GET /metrics`): request latency per route, answers by outcome and
 * cache, answer stage timings, and gauges read at scrape time (job queue, log size, anchoring lag).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IngestReport } from '@saksi/engine';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** Field names whose values are never written. */
const SECRET_FIELD =
  /authorization|cookie|password|passwd|secret|token|api[-_]?key|private[-_]?key|credential/i;

/** Fields whose 32-byte hex value is public (a transaction or block hash, a Merkle root), not a key. */
const PUBLIC_HASH_FIELD = /(?:^|_)(?:tx|transaction|hash|root)$|Hash$|Root$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;

/** Secret-looking pieces of any string, with what replaces them. */
const SECRET_TEXT: readonly [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]'],
  // Saksi API keys (`saksi_` and 43 base64url characters).
  [/\bsaksi_[A-Za-z0-9_-]{20,}/g, '[redacted]'],
  // Chat session ids read their conversation.
  [/\bses_[0-9a-f]{16,}/g, 'ses_[redacted]'],
  // user:password@ in URLs (database, RPC).
  [/(\/\/[^/\s:@]+):[^@\s/]+@/g, '$1:[redacted]@'],
  // 32-byte hex keys (an anchoring account's private key); the same form named as a transaction,
  // block or hash (public on the chain, and what an operator looks up) is kept.
  [
    /(?<!\b(?:tx|transaction|block|hash|root)(?:[ _-]?hash)?\s*[:=]?\s*)\b0x[0-9a-fA-F]{64}\b/gi,
    '[redacted]',
  ],
  // Query parameters that carry credentials (upload URLs, RPC keys).
  [/([?&](?:token|key|api[-_]?key|signature)=)[^&\s]+/gi, '$1[redacted]'],
];

/** `text` with every secret-looking piece replaced. */
export function redactText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_TEXT) out = out.replace(pattern, replacement);
  return out;
}

/** A copy of `value` safe to log: credential fields replaced, strings redacted, errors flattened. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return '[…]';
  if (typeof value === 'string') return redactText(value);
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return {
      name: value.name,
      message: redactText(value.message),
      ...(typeof code === 'string' ? { code } : {}),
      ...(value.stack ? { stack: redactText(value.stack) } : {}),
      ...(value.cause !== undefined ? { cause: redact(value.cause, depth + 1) } : {}),
    };
  }
  if (Array.isArray(value)) return value.slice(0, 100).map((item) => redact(item, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      out[key] = SECRET_FIELD.test(key)
        ? '[redacted]'
        : PUBLIC_HASH_FIELD.test(key) && typeof field === 'string' && HASH.test(field)
          ? field
          : redact(field, depth + 1);
    }
    return out;
  }
  return value;
}

export interface Logger {
  readonly level: LogLevel;
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** A JSON-lines logger writing lines at or above `level` to `write` (default stdout). */
export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stdout.write(line),
): Logger {
  const log =
    (at: Exclude<LogLevel, 'silent'>) =>
    (msg: string, fields: Record<string, unknown> = {}): void => {
      if (RANK[at] < RANK[level]) return;
      const line = {
        time: new Date().toISOString(),
        level: at,
        msg: redactText(msg),
        ...(redact(fields) as object),
      };
      write(`${JSON.stringify(line)}\n`);
    };
  return { level, debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

/** Whether `address` is a loopback address (IPv4, IPv6 or IPv4-mapped IPv6). */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}

/** Compares two secrets in constant time (as digests, so their lengths do not leak either). */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/** The client's request id when it is a plain token of at most 100 characters, else a new one. */
export function requestIdOf(header: string | undefined): string {
  return header !== undefined && REQUEST_ID.test(header) ? header : `req_${randomBytes(12).toString('hex')}`;
}

/** Upper bounds (seconds) of the latency histograms' buckets. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Ingestion stages take from milliseconds (a small text file) to many minutes (OCR of a scan). */
const INGEST_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800];

type Labels = Record<string, string>;

function labelText(labels: Labels): string {
  const parts = Object.entries(labels).map(
    ([name, value]) => `${name}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`,
  );
  return parts.length === 0 ? '' : `{${parts.join(',')}}`;
}

function number(value: number): string {
  return Number.isFinite(value) ? String(value) : value > 0 ? '+Inf' : value < 0 ? '-Inf' : 'NaN';
}

class Histogram {
  private readonly series = new Map<
    string,
    { labels: Labels; counts: number[]; sum: number; count: number }
  >();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: readonly number[] = BUCKETS,
  ) {}

  observe(labels: Labels, seconds: number): void {
    const key = labelText(labels);
    let series = this.series.get(key);
    if (!series) {
      series = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, series);
    }
    this.buckets.forEach((bound, index) => {
      if (seconds <= bound) series.counts[index]! += 1;
    });
    series.sum += seconds;
    series.count += 1;
  }

  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const series of this.series.values()) {
      this.buckets.forEach((bound, index) => {
        lines.push(
          `${this.name}_bucket${labelText({ ...series.labels, le: String(bound) })} ${series.counts[index]}`,
        );
      });
      lines.push(`${this.name}_bucket${labelText({ ...series.labels, le: '+Inf' })} ${series.count}`);
      lines.push(`${this.name}_sum${labelText(series.labels)} ${number(series.sum)}`);
      lines.push(`${this.name}_count${labelText(series.labels)} ${series.count}`);
    }
    return lines;
  }
}

class Counter {
  private readonly series = new Map<string, { labels: Labels; value: number }>();

  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  inc(labels: Labels, by = 1): void {
    const key = labelText(labels);
    const series = this.series.get(key) ?? { labels, value: 0 };
    series.value += by;
    this.series.set(key, series);
  }

  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const series of this.series.values())
      lines.push(`${this.name}${labelText(series.labels)} ${series.value}`);
    return lines;
  }
}

/** A gauge read when scraped: each sample with its labels. */
export interface GaugeReading {
  name: string;
  help: string;
  samples: { labels?: Labels; value: number }[];
}

/** The process's metrics; {@link render} adds the gauges read at scrape time. */
export class Metrics {
  readonly requests = new Histogram(
    'saksi_http_request_duration_seconds',
    'HTTP request latency by method, route pattern and status class.',
  );
  readonly answers = new Counter(
    'saksi_answers_total',
    'Chat answers by outcome (answered, refused) and whether they came from the answer cache.',
  );
  readonly stages = new Histogram(
    'saksi_answer_stage_seconds',
    'Time of each stage of an answer made afresh (embed, lexical, vector, fuse, retrieval, answer, certify).',
  );

  readonly ingestStages = new Histogram(
    'saksi_ingest_stage_seconds',
    'Time of each ingestion stage (parse with OCR, chunk, embed, store).',
    INGEST_BUCKETS,
  );
  readonly ingested = new Counter(
    'saksi_ingested_documents_total',
    'Ingestions (job attempts and synchronous ingestions) by outcome (succeeded, failed, retrying, deduplicated).',
  );

  /** Records a finished ingestion: its outcome and the time of each stage it went through. */
  ingestion(report: IngestReport): void {
    this.ingested.inc({ outcome: report.outcome });
    for (const stage of report.stages) this.ingestStages.observe({ stage: stage.stage }, stage.ms / 1000);
  }

  /** Records an answer: its outcome, cache use and stage timings (milliseconds, as the engine reports them). */
  answer(found: boolean, cached: boolean, timings: Record<string, number>): void {
    this.answers.inc({ outcome: found ? 'answered' : 'refused', cached: String(cached) });
    if (cached) return;
    const stages: Record<string, string> = {
      embed_ms: 'embed',
      lexical_ms: 'lexical',
      vector_ms: 'vector',
      fuse_ms: 'fuse',
      total_ms: 'retrieval',
      answer_ms: 'answer',
      certify_ms: 'certify',
    };
    for (const [field, stage] of Object.entries(stages)) {
      const ms = timings[field];
      if (typeof ms === 'number' && Number.isFinite(ms)) this.stages.observe({ stage }, ms / 1000);
    }
  }

  render(gauges: readonly GaugeReading[] = []): string {
    const lines = [
      ...this.requests.render(),
      ...this.answers.render(),
      ...this.stages.render(),
      ...this.ingestStages.render(),
      ...this.ingested.render(),
    ];
    for (const gauge of gauges) {
      lines.push(`# HELP ${gauge.name} ${gauge.help}`, `# TYPE ${gauge.name} gauge`);
      for (const sample of gauge.samples)
        lines.push(`${gauge.name}${labelText(sample.labels ?? {})} ${number(sample.value)}`);
    }
    return `${lines.join('\n')}\n`;
  }
}
