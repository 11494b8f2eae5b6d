// Starts a verification thread from the TypeScript sources (tests, `node --conditions=source --import
// tsx`): a worker does not inherit the `tsx` loader, so it registers it here before importing
// verify-worker.ts. The built server starts dist/verify-worker.js directly (verify-pool.ts).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
