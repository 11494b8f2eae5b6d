/**
 * Run by ocr.test.ts in a child process whose network is blocked in every thread: checks that the
 * block holds in a worker thread (where tesseract.js runs), then reads one scanned page and prints
 * `{ guardInWorker, text, confidence }` as JSON on its last line.
 */
import { Worker } from 'node:worker_threads';
import { type OcrLanguage, PageReader } from '../ocr.js';
import { layoutPages, scanLines } from './scanned-pdf.js';

const probe = new Worker(
  `const { parentPort } = require('node:worker_threads');
   Promise.resolve().then(() => fetch('https://cdn.jsdelivr.net/npm/@tesseract.js-data/ind/package.json'))
     .then(() => parentPort.postMessage('fetched'), (error) => parentPort.postMessage(String(error.message)));`,
  { eval: true },
);
const guardInWorker = await new Promise<string>((resolve) => probe.once('message', resolve));
await probe.terminate();

const lines = layoutPages(
  [
    {
      paragraph:
        'Lalu Lintas dan Angkutan Jalan diselenggarakan dengan memperhatikan asas transparan dan asas akuntabel.',
    },
  ],
  1,
)[0]!;
const scan = scanLines(lines, { dpi: 300 });
const language: OcrLanguage = 'ind';
const reader = await PageReader.start(language);
try {
  const page = await reader.read({ ...scan, scale: 300 / 72 }, new AbortController().signal);
  const text = page.runs.map((run) => run.text).join(' ');
  console.log(JSON.stringify({ guardInWorker, text, confidence: page.confidence }));
} finally {
  await reader.terminate();
}
