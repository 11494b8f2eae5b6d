/**
 * The extraction process's entry (started by `extract-process.ts`): runs {@link extractDocument} for
 * each request and sends back the stage, the chunks in batches, then the summary and root — or the
 * error, typed. It exits when the server that started it goes.
 */
import { readFile } from 'node:fs/promises';
import { extractDocument } from './extract.js';
import {
  CHUNKS_PER_MESSAGE,
  type ExtractReply,
  type ExtractRequest,
  serializeError,
} from './extract-process.js';

if (!process.send) throw new Error('extract-entry.ts runs only as a child process (see extract-process.ts).');
const send = (reply: ExtractReply) => process.send?.(reply);

process.on('disconnect', () => process.exit(0));
process.on('message', async (message) => {
  const request = message as ExtractRequest;
  const { id } = request;
  try {
    const { filename, mime } = request.input;
    let bytes: Uint8Array;
    if ('bytesPath' in request.input) {
      const file = await readFile(request.input.bytesPath);
      bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
    } else {
      bytes = new Uint8Array(request.input.bytes);
    }
    const input = { filename, bytes, ...(mime !== undefined ? { mime } : {}) };
    const extracted = await extractDocument(
      input,
      request.options,
      (stage) => send({ id, kind: 'stage', stage }),
      { onOcrPage: (done, total) => send({ id, kind: 'ocr', done, total }) },
    );
    for (let start = 0; start < extracted.chunks.length; start += CHUNKS_PER_MESSAGE) {
      send({ id, kind: 'chunks', chunks: extracted.chunks.slice(start, start + CHUNKS_PER_MESSAGE) });
    }
    send({ id, kind: 'done', summary: extracted.summary, root: extracted.root });
  } catch (error) {
    send({ id, kind: 'error', error: serializeError(error) });
  }
});
