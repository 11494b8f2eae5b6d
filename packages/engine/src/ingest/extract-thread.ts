/**
 * Runs {@link extractDocument} in a worker thread, so parsing and chunking a large or hostile file
 * never holds the event loop (the server keeps answering, `/api/v1/health` included) and its memory
 * is capped: the thread's heap is limited to `SAKSI_INGEST_MEMORY_MB`, and a file that needs more
 * fails with `QUOTA_EXCEEDED` instead of growing the process (docs/configuration.md, "Ingestion
 * limits").
 *
 * One thread serves the process, one document at a time, and is started on first use; it does not
 * keep the process alive and stops after a minute without work. A thread that dies (out of memory, or
 * a crash in a parser) is replaced for the next document. The chunks come back in batches of
 * {@link CHUNKS_PER_MESSAGE}, so no single message takes long to receive.
 */
import { Worker } from 'node:worker_threads';
import { EngineError } from '../errors.js';
import { baseName } from './detect.js';
import { IngestError, type IngestErrorCode } from './errors.js';
import type {
  DocumentSummary,
  ExtractedChunk,
  ExtractedDocument,
  ExtractInput,
  ExtractOptions,
} from './extract.js';
import { quotaExceeded } from './limits.js';

export const CHUNKS_PER_MESSAGE = 500;
const IDLE_MS = 60_000;

/** A request to the thread. */
export interface ExtractRequest {
  id: number;
  input: ExtractInput;
  options: ExtractOptions;
}

/** What the thread sends back for a request, in order: stages and chunk batches, then done or error. */
export type ExtractReply =
  | { id: number; kind: 'stage'; stage: 'chunking' }
  | { id: number; kind: 'chunks'; chunks: ExtractedChunk[] }
  | { id: number; kind: 'done'; summary: DocumentSummary; root: Uint8Array }
  | { id: number; kind: 'error'; error: SerializedError };

/** A typed error as it crosses the thread boundary. */
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

interface Thread {
  worker: Worker;
  memoryMb: number;
  idle: NodeJS.Timeout | undefined;
}

let thread: Thread | undefined;
let queue: Promise<unknown> = Promise.resolve();
let nextId = 1;

/**
 * Extracts one document in the extraction thread (requests wait their turn). `onStage` hears the
 * thread move on to chunking. Throws what {@link extractDocument} throws, and `QUOTA_EXCEEDED` when
 * the thread runs out of its `memoryMb`.
 */
export function extractInThread(
  input: ExtractInput,
  options: ExtractOptions,
  memoryMb: number,
  onStage: (stage: 'chunking') => void = () => undefined,
): Promise<ExtractedDocument> {
  const run = queue.then(() => runInThread(input, options, memoryMb, onStage));
  queue = run.catch(() => undefined);
  return run;
}

/** Stops the extraction thread now (it starts again on the next request). */
export async function stopExtractionThread(): Promise<void> {
  const current = thread;
  thread = undefined;
  if (current) {
    clearTimeout(current.idle);
    await current.worker.terminate();
  }
}

function runInThread(
  input: ExtractInput,
  options: ExtractOptions,
  memoryMb: number,
  onStage: (stage: 'chunking') => void,
): Promise<ExtractedDocument> {
  if (thread && thread.memoryMb !== memoryMb) void stopExtractionThread();
  thread ??= { worker: startWorker(memoryMb), memoryMb, idle: undefined };
  const current = thread;
  clearTimeout(current.idle);
  const { worker } = current;
  const id = nextId++;
  return new Promise<ExtractedDocument>((resolve, reject) => {
    const chunks: ExtractedChunk[] = [];
    const finish = (settle: () => void, keep: boolean) => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (!keep) {
        if (thread === current) thread = undefined;
        void worker.terminate();
      } else {
        worker.unref();
        current.idle = setTimeout(() => {
          if (thread === current) void stopExtractionThread();
        }, IDLE_MS);
        current.idle.unref();
      }
      settle();
    };
    const onMessage = (reply: ExtractReply) => {
      if (reply.id !== id) return;
      switch (reply.kind) {
        case 'stage':
          onStage(reply.stage);
          break;
        case 'chunks':
          for (const chunk of reply.chunks) chunks.push(chunk);
          break;
        case 'done':
          finish(() => resolve({ summary: reply.summary, chunks, root: reply.root }), true);
          break;
        case 'error':
          finish(() => reject(deserializeError(reply.error)), true);
          break;
      }
    };
    const onError = (error: Error & { code?: string }) => {
      const failure =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? quotaExceeded(
              'memoryMb',
              memoryMb,
              `Reading ${baseName(input.filename)} needs more than ${memoryMb} MB of memory`,
            )
          : new IngestError(
              'MALFORMED_FILE',
              `${baseName(input.filename)} could not be read: ${error.message}.`,
              { cause: error },
            );
      finish(() => reject(failure), false);
    };
    const onExit = (code: number) => {
      finish(
        () =>
          reject(
            new EngineError(
              'INGEST_FAILED',
              `The thread reading ${baseName(input.filename)} stopped (exit code ${code}); try again.`,
            ),
          ),
        false,
      );
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.ref();
    // A copy the thread owns (the caller's bytes may be a view of a larger, shared buffer).
    const bytes = input.bytes.slice();
    const request: ExtractRequest = {
      id,
      input: { ...input, bytes },
      options,
    };
    worker.postMessage(request, [bytes.buffer]);
  });
}

function startWorker(memoryMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: memoryMb };
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./extract-entry.js', import.meta.url), { resourceLimits });
  }
  // Running from the TypeScript sources (tests, `saksi-src`): the thread registers tsx first.
  const entry = new URL('./extract-entry.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(
    `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`,
    { eval: true, execArgv: ['--conditions=source'], resourceLimits },
  );
}
