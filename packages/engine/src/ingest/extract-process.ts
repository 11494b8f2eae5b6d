/**
 * Runs {@link extractDocument} in a child process, so parsing and chunking a large or hostile file
 * never holds the server's event loop (it keeps answering, `/api/v1/health` included), its memory is
 * capped (the child's heap is limited to `SAKSI_INGEST_MEMORY_MB`; a file that needs more fails with
 * `QUOTA_EXCEEDED`) and a parser that exhausts its memory takes only the child down, never the server
 * (docs/configuration.md, "Ingestion limits"). A worker thread would not do: V8 can end the whole
 * process when a thread's heap limit is hit inside one large allocation.
 *
 * One child serves the process, one document at a time, and is started on first use; it does not
 * keep the server alive and exits after a minute without work. A child that dies is replaced for the
 * next document. The chunks come back in batches of {@link CHUNKS_PER_MESSAGE}, so no single message
 * takes long to receive.
 *
 * Cancelling (the caller's `signal` aborts) ends the child at once — the OCR worker thread inside it
 * included — and rejects with the signal's reason; the next document starts a new child.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { getPriority, setPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngineError } from '../errors.js';
import { baseName } from './detect.js';
import { IngestError, type IngestErrorCode } from './errors.js';
import type {
  DocumentSummary,
  ExtractControl,
  ExtractedChunk,
  ExtractedDocument,
  ExtractInput,
  ExtractOptions,
} from './extract.js';
import { quotaExceeded } from './limits.js';

export const CHUNKS_PER_MESSAGE = 500;
const IDLE_MS = 60_000;
/**
 * Files larger than this reach the process through a private temporary file rather than the IPC
 * channel: serializing a message happens on the sender's thread, and 50 MB held the server's event
 * loop for about 150 ms; writing a file happens on libuv's thread pool.
 */
export const INLINE_INPUT_BYTES = 256 * 1024;

/** A request to the extraction process: the file's bytes inline, or the path of a file holding them. */
export interface ExtractRequest {
  id: number;
  input: Omit<ExtractInput, 'bytes'> & ({ bytes: Uint8Array } | { bytesPath: string });
  options: ExtractOptions;
}

/** What the process sends back for a request, in order: stages and chunk batches, then done or error. */
export type ExtractReply =
  | { id: number; kind: 'stage'; stage: 'chunking' }
  | { id: number; kind: 'ocr'; done: number; total: number }
  | { id: number; kind: 'chunks'; chunks: ExtractedChunk[] }
  | { id: number; kind: 'done'; summary: DocumentSummary; root: Uint8Array }
  | { id: number; kind: 'error'; error: SerializedError };

/** A typed error as it crosses the process boundary. */
export type SerializedError =
  | {
      type: 'IngestError';
      code: IngestErrorCode;
      message: string;
      details?: string;
      limit?: { name: string; value: number };
    }
  | { type: 'EngineError'; code: EngineError['code']; message: string; status: number }
  | { type: 'Error'; message: string };

export function serializeError(error: unknown): SerializedError {
  if (error instanceof IngestError) {
    return {
      type: 'IngestError',
      code: error.code,
      message: error.message,
      ...(error.details !== undefined ? { details: error.details } : {}),
      ...(error.limit !== undefined ? { limit: error.limit } : {}),
    };
  }
  if (error instanceof EngineError) {
    return { type: 'EngineError', code: error.code, message: error.message, status: error.status };
  }
  return { type: 'Error', message: error instanceof Error ? error.message : String(error) };
}

export function deserializeError(error: SerializedError): Error {
  switch (error.type) {
    case 'IngestError':
      return new IngestError(error.code, error.message, {
        ...(error.details !== undefined ? { details: error.details } : {}),
        ...(error.limit !== undefined ? { limit: error.limit } : {}),
      });
    case 'EngineError':
      return new EngineError(error.code, error.message, { status: error.status });
    case 'Error':
      return new IngestError('MALFORMED_FILE', `The document could not be read: ${error.message}`);
  }
}

interface Child {
  process: ChildProcess;
  memoryMb: number;
  idle: NodeJS.Timeout | undefined;
  /** The end of what the child wrote to stderr (a crash's reason); V8's out-of-memory report is not shown. */
  stderr: string;
}

const STDERR_KEPT = 4_000;

let child: Child | undefined;
let queue: Promise<unknown> = Promise.resolve();
let nextId = 1;

/**
 * Extracts one document in the extraction process (requests wait their turn). `onStage` hears it move
 * on to chunking, `control.onOcrPage` each page OCR reads. Throws what {@link extractDocument} throws,
 * `QUOTA_EXCEEDED` when the process runs out of its `memoryMb`, and `control.signal`'s reason when it
 * aborts (the process is then ended).
 */
export function extractInProcess(
  input: ExtractInput,
  options: ExtractOptions,
  memoryMb: number,
  onStage: (stage: 'chunking') => void = () => undefined,
  control: ExtractControl = {},
): Promise<ExtractedDocument> {
  const run = queue.then(() => runInChild(input, options, memoryMb, onStage, control));
  queue = run.catch(() => undefined);
  return run;
}

/** Stops the extraction process now (it starts again on the next request). */
export function stopExtractionProcess(): void {
  const current = child;
  child = undefined;
  if (current) {
    clearTimeout(current.idle);
    current.process.kill();
  }
}

async function runInChild(
  input: ExtractInput,
  options: ExtractOptions,
  memoryMb: number,
  onStage: (stage: 'chunking') => void,
  control: ExtractControl,
): Promise<ExtractedDocument> {
  control.signal?.throwIfAborted();
  if (input.bytes.length <= INLINE_INPUT_BYTES)
    return runRequest({ ...input }, options, memoryMb, onStage, control);
  const directory = await mkdtemp(path.join(tmpdir(), 'saksi-extract-'));
  try {
    const bytesPath = path.join(directory, 'input');
    await writeFile(bytesPath, input.bytes, { mode: 0o600 });
    const { filename, mime } = input;
    const request = { filename, bytesPath, ...(mime !== undefined ? { mime } : {}) };
    return await runRequest(request, options, memoryMb, onStage, control);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

function runRequest(
  input: ExtractRequest['input'],
  options: ExtractOptions,
  memoryMb: number,
  onStage: (stage: 'chunking') => void,
  control: ExtractControl,
): Promise<ExtractedDocument> {
  const { signal } = control;
  if (child && child.memoryMb !== memoryMb) stopExtractionProcess();
  if (!child) {
    const started: Child = { process: startChild(memoryMb), memoryMb, idle: undefined, stderr: '' };
    started.process.stderr?.setEncoding('utf8').on('data', (text: string) => {
      started.stderr = (started.stderr + text).slice(-STDERR_KEPT);
    });
    // A child that dies while idle is replaced by the next request.
    started.process.once('exit', () => {
      if (child === started) child = undefined;
    });
    child = started;
  }
  const current = child;
  clearTimeout(current.idle);
  const { process: worker } = current;
  const id = nextId++;
  return new Promise<ExtractedDocument>((resolve, reject) => {
    const chunks: ExtractedChunk[] = [];
    const finish = (settle: () => void, keep: boolean) => {
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      worker.off('error', onError);
      signal?.removeEventListener('abort', onAbort);
      if (!keep) {
        if (child === current) child = undefined;
        worker.kill();
      } else {
        // Idle: the child must not keep the server running, and goes after a while.
        setReferenced(worker, false);
        current.idle = setTimeout(() => {
          if (child === current) stopExtractionProcess();
        }, IDLE_MS);
        current.idle.unref();
      }
      settle();
    };
    const onMessage = (message: unknown) => {
      const reply = message as ExtractReply;
      if (reply.id !== id) return;
      switch (reply.kind) {
        case 'stage':
          onStage(reply.stage);
          break;
        case 'ocr':
          control.onOcrPage?.(reply.done, reply.total);
          break;
        case 'chunks':
          for (const chunk of reply.chunks) chunks.push(chunk);
          break;
        case 'done':
          finish(() => resolve({ summary: reply.summary, chunks, root: new Uint8Array(reply.root) }), true);
          break;
        case 'error':
          finish(() => reject(deserializeError(reply.error)), true);
          break;
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      // V8 aborts a process whose heap limit is hit: SIGABRT (exit code 134 through a shell).
      const outOfMemory = signal === 'SIGABRT' || code === 134;
      const failure = outOfMemory
        ? quotaExceeded(
            'memoryMb',
            memoryMb,
            `Reading ${baseName(input.filename)} needs more than ${memoryMb} MB of memory`,
          )
        : new EngineError(
            'INGEST_FAILED',
            `The process reading ${baseName(input.filename)} stopped (${signal ?? `exit code ${code}`}); try again.`,
            { cause: new Error(current.stderr.trim().split('\n').slice(-5).join('\n')) },
          );
      finish(() => reject(failure), false);
    };
    const onError = (error: Error) => {
      finish(
        () =>
          reject(
            new EngineError('INGEST_FAILED', `The extraction process failed: ${error.message}`, {
              cause: error,
            }),
          ),
        false,
      );
    };
    // Cancelled: the child, and the OCR worker thread inside it, end now.
    const onAbort = () => finish(() => reject(signal?.reason), false);
    worker.on('message', onMessage);
    worker.on('exit', onExit);
    worker.on('error', onError);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) {
      finish(() => reject(signal.reason), true);
      return;
    }
    setReferenced(worker, true);
    const request: ExtractRequest = { id, input, options };
    worker.send(request);
  });
}

/** Whether the child (its process, IPC channel and stderr pipe) keeps this process running. */
function setReferenced(worker: ChildProcess, referenced: boolean): void {
  const stderr = worker.stderr as (NodeJS.ReadableStream & { ref?(): void; unref?(): void }) | null;
  if (referenced) {
    worker.ref();
    worker.channel?.ref();
    stderr?.ref?.();
  } else {
    worker.unref();
    worker.channel?.unref();
    stderr?.unref?.();
  }
}

/** How much nicer than the server the extraction process runs (niceness is capped at 19). */
export const EXTRACTION_NICENESS = 10;

function startChild(memoryMb: number): ChildProcess {
  const memory = `--max-old-space-size=${memoryMb}`;
  const source = import.meta.url.endsWith('.ts');
  // From the TypeScript sources (tests, `saksi-src`) the child loads them through tsx as well.
  const entry = fileURLToPath(new URL(source ? './extract-entry.ts' : './extract-entry.js', import.meta.url));
  const execArgv = source
    ? ['--conditions=source', '--import', import.meta.resolve('tsx'), memory]
    : [memory];
  const child = fork(entry, [], {
    execArgv,
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  // Extraction is background work: on a busy machine the server's own requests go first.
  if (child.pid !== undefined) {
    try {
      setPriority(child.pid, Math.min(19, getPriority() + EXTRACTION_NICENESS));
    } catch {
      // Not permitted here (some containers): the child runs at the server's priority.
    }
  }
  return child;
}
