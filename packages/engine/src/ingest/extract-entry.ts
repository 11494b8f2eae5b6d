/**
 * The extraction thread's entry (started by `extract-thread.ts`): runs {@link extractDocument} for
 * each request and sends back the stage, the chunks in batches, then the summary and root — or the
 * error, typed.
 */
import { parentPort } from 'node:worker_threads';
import { extractDocument } from './extract.js';
import {
  CHUNKS_PER_MESSAGE,
  type ExtractReply,
  type ExtractRequest,
  serializeError,
} from './extract-thread.js';

const port = parentPort;
if (!port) throw new Error('extract-entry.ts runs only as a worker thread (see extract-thread.ts).');

port.on('message', async (request: ExtractRequest) => {
  const send = (reply: ExtractReply) => port.postMessage(reply);
  const { id } = request;
  try {
    const extracted = await extractDocument(request.input, request.options, (stage) =>
      send({ id, kind: 'stage', stage }),
    );
    for (let start = 0; start < extracted.chunks.length; start += CHUNKS_PER_MESSAGE) {
      send({ id, kind: 'chunks', chunks: extracted.chunks.slice(start, start + CHUNKS_PER_MESSAGE) });
    }
    send({ id, kind: 'done', summary: extracted.summary, root: extracted.root });
  } catch (error) {
    send({ id, kind: 'error', error: serializeError(error) });
  }
});
