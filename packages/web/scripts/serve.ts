/**
 * Serves the built web app (packages/web/dist) with a real engine, for trying the UI by hand:
 *
 *   npm run build -w @saksi/web
 *   node --conditions=source --import tsx packages/web/scripts/serve.ts [--port 3000] [--data-dir DIR] [--no-demo]
 *
 * It opens the engine like `saksi serve` (PGlite in DIR, default a fresh temporary directory), loads the
 * demo collections, starts anchoring (a local anvil by default) and serves the API plus the web app.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Engine, loadConfig, loadDemoCollections } from '@saksi/engine';
import { startServer } from '@saksi/server';

const root = path.resolve(import.meta.dirname, '../../..');
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '3000' },
    'data-dir': { type: 'string' },
    'no-demo': { type: 'boolean', default: false },
  },
});
const dataDir = values['data-dir'] ?? mkdtempSync(path.join(tmpdir(), 'saksi-web-'));
const config = loadConfig({ ...process.env, SAKSI_DATA_DIR: dataDir }, root);
const engine = await Engine.open({ config });
if (!values['no-demo']) {
  const result = await loadDemoCollections(engine, path.join(root, 'corpora'), (progress) => {
    if (progress.error) console.log(`  ${progress.collection}/${progress.file}: FAILED ${progress.error}`);
  });
  console.log(`Demo collections: ${result.added} documents added, ${result.failed} failed.`);
}
if (engine.config.anchor.provider !== 'none') {
  try {
    await engine.startAnchoring({ loop: true, onWarning: (message) => console.log(`Anchoring: ${message}`) });
    const chain = engine.anchorChain();
    if (chain) console.log(`Anchoring on chain ${chain.chain_id} (${chain.rpc_url ?? 'remote RPC'})`);
  } catch (error) {
    console.log(`Anchoring disabled: ${error instanceof Error ? error.message : String(error)}`);
  }
}
const server = await startServer(engine, {
  port: Number(values.port),
  host: '127.0.0.1',
  webRoot: path.join(root, 'packages/web/dist'),
});
console.log(`Listening on ${server.url} (data in ${dataDir})`);
await new Promise<void>((resolve) => {
  process.once('SIGINT', () => resolve());
  process.once('SIGTERM', () => resolve());
});
await server.close();
await engine.close();
