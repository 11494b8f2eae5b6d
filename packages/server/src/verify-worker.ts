/**
 * A verification thread (verify-pool.ts): verifies `POST /api/v1/verify` bodies one at a time, off
 * the server's event loop. The body arrives as bytes and everything CPU-bound happens here — JSON
 * parsing, the limits per bundle, hashing, Ed25519, Merkle proofs, the render policy — while the
 * server's thread charges the caller's work budget and answers the two I/O questions a verification
 * may ask (a consistency proof from the log's database, an anchor from the chain), by message.
 */
import { parentPort } from 'node:worker_threads';
import type { Anchor, AnchorRecord } from '@saksi/proof';
import { RequestProblem } from './request-text.js';
import { type VerificationCallbacks, type VerificationTrust, verifyRequestBody } from './verify-request.js';

/** From the server's thread. */
export type ToWorker =
  | {
      type: 'job';
      id: number;
      bytes: Uint8Array;
      trust: VerificationTrust;
      /** Which of the server's I/O callbacks exist (verifyBundle skips a check without one). */
      consistency: boolean;
      anchors: boolean;
    }
  | { type: 'charged'; id: number; ok: boolean }
  | { type: 'reply'; call: number; ok: true; value: unknown }
  | { type: 'reply'; call: number; ok: false };

/** To the server's thread. */
export type FromWorker =
  | { type: 'charge'; id: number; units: number }
  | { type: 'call'; id: number; call: number; kind: 'consistency'; first: number; second: number }
  | { type: 'call'; id: number; call: number; kind: 'anchor'; anchor: Anchor }
  | { type: 'done'; id: number; json: string }
  /**
   * `problem`: a refused request (400/413); `refused`: the charge was refused (the server has
   * answered already); neither: the verification failed, `error` says how (logged, never sent).
   */
  | {
      type: 'failed';
      id: number;
      problem?: { code: RequestProblem['code']; message: string };
      refused?: boolean;
      error?: string;
    };

/** Thrown here when the server refused the charge: the job ends without an answer of its own. */
class Refused extends Error {}

const port = parentPort;
if (port === null) throw new Error('verify-worker.ts runs as a worker thread (verify-pool.ts).');

const charges = new Map<number, (ok: boolean) => void>();
const calls = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
let nextCall = 0;

const post = (message: FromWorker) => port.postMessage(message);

function ask(
  message: { id: number } & (
    | { kind: 'consistency'; first: number; second: number }
    | { kind: 'anchor'; anchor: Anchor }
  ),
): Promise<unknown> {
  const call = nextCall++;
  return new Promise((resolve, reject) => {
    calls.set(call, { resolve, reject });
    post({ ...message, type: 'call', call } as FromWorker);
  });
}

async function run(job: Extract<ToWorker, { type: 'job' }>): Promise<void> {
  const { id } = job;
  const callbacks: VerificationCallbacks = {
    ...(job.consistency
      ? {
          fetchConsistencyProof: async (first: number, second: number) =>
            (await ask({ id, kind: 'consistency', first, second })) as readonly string[],
        }
      : {}),
    ...(job.anchors
      ? {
          anchorLookup: async (anchor: Anchor) => (await ask({ id, kind: 'anchor', anchor })) as AnchorRecord,
        }
      : {}),
  };
  try {
    const json = await verifyRequestBody(job.bytes, {
      trust: job.trust,
      callbacks,
      charge: (units) =>
        new Promise<void>((resolve, reject) => {
          charges.set(id, (ok) => (ok ? resolve() : reject(new Refused())));
          post({ type: 'charge', id, units });
        }),
    });
    post({ type: 'done', id, json });
  } catch (error) {
    if (error instanceof Refused) post({ type: 'failed', id, refused: true });
    else if (error instanceof RequestProblem)
      post({ type: 'failed', id, problem: { code: error.code, message: error.message } });
    else
      post({
        type: 'failed',
        id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
  }
}

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'job':
      void run(message);
      break;
    case 'charged': {
      const settle = charges.get(message.id);
      charges.delete(message.id);
      settle?.(message.ok);
      break;
    }
    case 'reply': {
      const pending = calls.get(message.call);
      calls.delete(message.call);
      if (!pending) break;
      if (message.ok) pending.resolve(message.value);
      else pending.reject(new Error('The server could not answer.'));
      break;
    }
  }
});
