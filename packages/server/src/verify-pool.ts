/**
 * Where `POST /api/v1/verify` does its work (docs/api.md): a pool of verification threads
 * (`node:worker_threads`, `SAKSI_VERIFY_WORKERS`, default one per core but one) with a bounded queue
 * (`SAKSI_VERIFY_QUEUE`), so that verifying a large bundle never holds the server's event loop. Each
 * thread runs one verification at a time (verify-worker.ts); the server's thread keeps the I/O —
 * the caller's work budget, the log's consistency proofs, the chain's anchors — and answers the
 * thread's questions by message. A request reserves its place before its body is read; when every
 * thread is busy and the queue is full, it is refused at once with 503 `UNAVAILABLE` and
 * `Retry-After`, so the server never holds more bodies than it can verify.
 *
 * Where threads are not wanted (the serverless handler, `SAKSI_VERIFY_WORKERS=0`), {@link inlineVerifier}
 * runs the same steps on the server's thread: the limits per bundle and the work budget still apply.
 *
 * The threads start on the first verification. From the TypeScript sources (tests, `--import tsx`)
 * a thread starts through verify-worker-source.mjs, which registers tsx's loader in it; the built
 * server starts dist/verify-worker.js.
 */
import { Worker } from 'node:worker_threads';
import { apiErrorOf } from './body.js';
import { ApiError, UnavailableError } from './errors.js';
import { RequestProblem } from './request-text.js';
import { type VerificationContext, verifyRequestBody } from './verify-request.js';
import type { FromWorker, ToWorker } from './verify-worker.js';

/** A place for one verification, reserved before the request's body is read. */
export interface VerificationPlace {
  /** Verifies in this place: the JSON text of the result, or a typed error (400, 413, 429). */
  verify(bytes: Uint8Array, context: VerificationContext): Promise<string>;
  /** Gives the place back unused (a body that could not be read); does nothing once it was used. */
  release(): void;
}

/** Runs verifications: the JSON text of each result, or a typed error (400, 413, 429, 503). */
export interface BundleVerifier {
  /**
   * Reserves a place (running or waiting) for a verification about to be asked, so that no more
   * bodies are held than can be verified; 503 `UNAVAILABLE` when none is left.
   */
  reserve(): VerificationPlace;
  /** Reserves a place and verifies in it. */
  verify(bytes: Uint8Array, context: VerificationContext): Promise<string>;
  /** Stops the threads; verifications still running or waiting fail (503). */
  close(): Promise<void>;
}

/** The verifier of a configuration: a pool of `workers` threads, or inline when `workers` is 0. */
export function createBundleVerifier(options: { workers: number; queue: number }): BundleVerifier {
  return options.workers === 0 ? inlineVerifier() : new VerifyPool(options);
}

/** Verifies on the calling thread (serverless functions; `SAKSI_VERIFY_WORKERS=0`). */
export function inlineVerifier(): BundleVerifier {
  const verify = async (bytes: Uint8Array, context: VerificationContext) => {
    try {
      return await verifyRequestBody(bytes, context);
    } catch (error) {
      throw apiErrorOf(error);
    }
  };
  return {
    reserve: () => ({ verify, release() {} }),
    verify,
    async close() {},
  };
}

/** Old-generation heap of one thread: a 16 MiB body parses into well under this. */
const THREAD_HEAP_MB = 512;
/** What a verification is assumed to take before any has been timed (ms), for `Retry-After`. */
const FIRST_ESTIMATE_MS = 1_000;

interface Job {
  id: number;
  bytes: Uint8Array;
  context: VerificationContext;
  resolve(json: string): void;
  reject(error: unknown): void;
  settled: boolean;
  startedAt: number;
}

interface Thread {
  worker: Worker;
  job: Job | null;
}

export class VerifyPool implements BundleVerifier {
  readonly size: number;
  readonly queue: number;
  readonly #threads: Thread[] = [];
  readonly #waiting: Job[] = [];
  #nextId = 0;
  #averageMs = FIRST_ESTIMATE_MS;
  #reserved = 0;
  #closed = false;

  constructor(options: { workers: number; queue: number }) {
    if (!Number.isSafeInteger(options.workers) || options.workers < 1)
      throw new RangeError(`A verification pool needs at least one thread, not ${options.workers}.`);
    if (!Number.isSafeInteger(options.queue) || options.queue < 0)
      throw new RangeError(`A verification queue holds a whole number of requests, not ${options.queue}.`);
    this.size = options.workers;
    this.queue = options.queue;
  }

  /** Verifications running, waiting, and places reserved for requests whose bodies are being read. */
  get load(): { running: number; waiting: number; reserved: number } {
    return {
      running: this.#threads.filter((thread) => thread.job !== null).length,
      waiting: this.#waiting.length,
      reserved: this.#reserved,
    };
  }

  reserve(): VerificationPlace {
    if (this.#closed) throw new UnavailableError('The server is shutting down.', 5);
    const { running, waiting, reserved } = this.load;
    if (running + waiting + reserved >= this.size + this.queue) {
      const seconds = this.#retryAfterSeconds();
      throw new UnavailableError(
        `The server is busy verifying other bundles (${this.size} at a time, ${this.queue} waiting); try again in ${seconds} s.`,
        seconds,
      );
    }
    this.#reserved++;
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      this.#reserved--;
    };
    return {
      verify: (bytes, context) => {
        if (!held) return Promise.reject(new Error('This verification place was used or released already.'));
        release();
        return this.#enqueue(bytes, context);
      },
      release,
    };
  }

  verify(bytes: Uint8Array, context: VerificationContext): Promise<string> {
    try {
      return this.reserve().verify(bytes, context);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Starts a verification on an idle thread (starting one if fewer than `size` run), or queues it. */
  #enqueue(bytes: Uint8Array, context: VerificationContext): Promise<string> {
    if (this.#closed) return Promise.reject(new UnavailableError('The server is shutting down.', 5));
    const idle = this.#idleThread();
    return new Promise<string>((resolve, reject) => {
      const job: Job = { id: this.#nextId++, bytes, context, resolve, reject, settled: false, startedAt: 0 };
      if (idle !== undefined) this.#start(idle, job);
      else this.#waiting.push(job);
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const threads = this.#threads.splice(0);
    const stopped = [...this.#waiting.splice(0), ...threads.flatMap((thread) => thread.job ?? [])];
    for (const job of stopped) settle(job, new UnavailableError('The server is shutting down.', 5));
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  /** An idle thread, started when fewer than `size` exist; undefined when all are busy. */
  #idleThread(): Thread | undefined {
    const idle = this.#threads.find((thread) => thread.job === null);
    if (idle !== undefined || this.#threads.length >= this.size) return idle;
    const thread: Thread = { worker: spawnThread(), job: null };
    thread.worker.unref();
    thread.worker.on('message', (message: FromWorker) => this.#receive(thread, message));
    thread.worker.on('error', (error) => this.#lost(thread, error));
    thread.worker.on('exit', (code) =>
      this.#lost(thread, new Error(`A verification thread exited (${code}).`)),
    );
    this.#threads.push(thread);
    return thread;
  }

  #start(thread: Thread, job: Job): void {
    thread.job = job;
    job.startedAt = performance.now();
    const { trust, callbacks } = job.context;
    // The body moves to the thread without a copy when it is its buffer's only view.
    const whole = job.bytes.byteOffset === 0 && job.bytes.byteLength === job.bytes.buffer.byteLength;
    const bytes = whole ? job.bytes : job.bytes.slice();
    const message: ToWorker = {
      type: 'job',
      id: job.id,
      bytes,
      trust,
      consistency: callbacks.fetchConsistencyProof !== undefined,
      anchors: callbacks.anchorLookup !== undefined,
    };
    thread.worker.postMessage(message, bytes.buffer instanceof ArrayBuffer ? [bytes.buffer] : []);
  }

  #receive(thread: Thread, message: FromWorker): void {
    const job = thread.job;
    if (job === null || message.id !== job.id) return;
    const post = (reply: ToWorker) => thread.worker.postMessage(reply);
    switch (message.type) {
      case 'charge':
        job.context.charge(message.units).then(
          () => post({ type: 'charged', id: job.id, ok: true }),
          (error: unknown) => {
            settle(job, error);
            post({ type: 'charged', id: job.id, ok: false });
          },
        );
        return;
      case 'call': {
        const { callbacks } = job.context;
        const answer =
          message.kind === 'consistency'
            ? callbacks.fetchConsistencyProof?.(message.first, message.second)
            : callbacks.anchorLookup?.(message.anchor);
        Promise.resolve(answer).then(
          (value) => post({ type: 'reply', call: message.call, ok: true, value }),
          () => post({ type: 'reply', call: message.call, ok: false }),
        );
        return;
      }
      case 'done':
        settle(job, null, message.json);
        break;
      case 'failed':
        if (message.problem !== undefined) {
          const { code, message: text } = message.problem;
          settle(job, new ApiError(code, new RequestProblem(code, text).status, text));
        } else if (!message.refused) {
          settle(job, new Error(`A verification failed on its thread: ${message.error ?? 'unknown error'}`));
        }
        break;
    }
    this.#averageMs = 0.8 * this.#averageMs + 0.2 * (performance.now() - job.startedAt);
    this.#next(thread);
  }

  /** Starts the next waiting verification on a thread that became free. */
  #next(thread: Thread): void {
    thread.job = null;
    const next = this.#waiting.shift();
    if (next !== undefined) this.#start(thread, next);
  }

  /** A thread that failed or exited: its verification fails (500), a new thread takes the queue. */
  #lost(thread: Thread, error: unknown): void {
    const index = this.#threads.indexOf(thread);
    if (index === -1) return;
    this.#threads.splice(index, 1);
    if (thread.job !== null) settle(thread.job, error);
    if (this.#closed) return;
    const next = this.#waiting.shift();
    if (next === undefined) return;
    const replacement = this.#idleThread();
    if (replacement !== undefined) this.#start(replacement, next);
    else this.#waiting.unshift(next);
  }

  /** Seconds until a place is likely free: the queue ahead, shared by the threads, at the recent pace. */
  #retryAfterSeconds(): number {
    const seconds = Math.ceil(((this.#waiting.length + 1) * this.#averageMs) / this.size / 1000);
    return Math.min(60, Math.max(1, seconds));
  }
}

function settle(job: Job, error: unknown, json?: string): void {
  if (job.settled) return;
  job.settled = true;
  if (json !== undefined && error === null) job.resolve(json);
  else job.reject(error);
}

/** A verification thread: from the sources through tsx's loader, or the built module. */
function spawnThread(): Worker {
  const here = import.meta.url;
  const resourceLimits = { maxOldGenerationSizeMb: THREAD_HEAP_MB };
  if (here.endsWith('.ts')) {
    return new Worker(new URL('./verify-worker-source.mjs', here), {
      workerData: { entry: new URL('./verify-worker.ts', here).href },
      execArgv: ['--conditions=source'],
      resourceLimits,
    });
  }
  return new Worker(new URL('./verify-worker.js', here), { resourceLimits });
}
