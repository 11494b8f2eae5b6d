/**
 * A job worker in its own process, for the crash test: opens the engine on `DATABASE_URL` (from the
 * environment) and runs `startWorker` until it is killed. Prints `ready` once polling.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { Engine } from '../src/engine.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'saksi-worker-process-'));
const engine = await Engine.open({
  config: loadConfig(
    { ...process.env, SAKSI_DATA_DIR: dataDir, SAKSI_KEYS_DIR: process.env['SAKSI_KEYS_DIR'] },
    dataDir,
  ),
});
engine.workers.start({ workerId: `worker-${process.pid}`, pollMs: 50 });
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void engine.close().then(() => process.exit(0));
});
