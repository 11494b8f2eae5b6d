/**
 * The Vercel function (docs/deploy.md): Vercel's Node runtime calls the default export's `fetch` with
 * every request vercel.json routes here, the browser's URL unchanged. The handler itself is
 * packages/server/src/fetch-handler.ts.
 */
import { createFetchHandler } from '@saksi/server/fetch';

export default createFetchHandler({ platform: 'vercel' });
