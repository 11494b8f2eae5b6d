/**
 * The golden bundle verified in headless Chromium gives the same result object as in Node.
 *
 * `entry.ts` is bundled with esbuild for the browser (any `node:*` import fails the build), served
 * from a local `node:http` server and loaded in Chromium through playwright-core. Skipped when
 * `/usr/bin/chromium` is missing; CI installs it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { CHROMIUM, chromiumAvailable, launchChromium } from '@saksi/test-support/chromium';
import { GOLDEN_QUESTION } from '@saksi/test-support/golden';
import { build, type Plugin } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BundleVerification, verifyBundle } from '../../src/index.js';
import { optionsFor, runSanity, tamperSignature, type VerifyExtras } from './entry.js';

const hasChromium = chromiumAvailable('golden.browser.test.ts', 'the browser tests');
const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const fixtures = path.resolve(import.meta.dirname, '../../__fixtures__');
const files = {
  bundle: path.join(fixtures, 'golden-bundle.json'),
  keys: path.join(fixtures, 'golden-keys.json'),
  later: path.join(fixtures, 'golden-later-checkpoint.txt'),
  consistency: path.join(fixtures, 'golden-consistency.json'),
};
const cliEntry = path.join(repoRoot, 'packages/cli/dist/main.js');
const cliBin = path.join(repoRoot, 'packages/cli/bin/saksi.js');

const bundle: unknown = JSON.parse(readFileSync(files.bundle, 'utf8'));
const keysJson = readFileSync(files.keys, 'utf8');
const laterCheckpoint = readFileSync(files.later, 'utf8');
const consistency = JSON.parse(readFileSync(files.consistency, 'utf8')) as string[];

const full: VerifyExtras = {
  presentedQuestion: GOLDEN_QUESTION,
  lastCheckpoint: laterCheckpoint,
  consistencyProof: consistency,
  anchor: true,
};
const keysOnly: VerifyExtras = {};
const replay: VerifyExtras = { ...full, presentedQuestion: 'Berapa denda tidak pakai sabuk pengaman?' };

/** Fails the build on any `node:` import, whatever esbuild's platform defaults would do with it. */
const noNodeBuiltins: Plugin = {
  name: 'no-node-builtins',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^node:/ }, (args) => ({
      errors: [
        {
          text: `node built-in "${args.path}" imported by ${args.importer}: @saksi/proof must stay isomorphic`,
        },
      ],
    }));
  },
};

/** Bundles for the browser; `source` replaces `entry.ts` (used to check that the guard works). */
async function bundleEntry(source?: string): Promise<string> {
  const result = await build({
    ...(source === undefined
      ? { entryPoints: [path.join(import.meta.dirname, 'entry.ts')] }
      : { stdin: { contents: source, resolveDir: import.meta.dirname, loader: 'ts' } }),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['source'],
    write: false,
    logLevel: 'silent',
    plugins: [noNodeBuiltins],
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error('esbuild produced no output');
  return output.text;
}

const page = `<!doctype html>
<html><head><meta charset="utf-8"><title>saksi proof</title><link rel="icon" href="data:,"></head>
<body><script type="module" src="/entry.js"></script></body></html>
`;

function serve(script: string): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    } else if (request.url === '/entry.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    } else {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

describe.skipIf(!hasChromium)(`golden bundle in headless Chromium (needs ${CHROMIUM})`, () => {
  let server: Server | undefined;
  let browser: Browser | undefined;
  let tab: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await serve(await bundleEntry());
    const { port } = server.address() as AddressInfo;
    browser = await launchChromium();
    tab = await browser.newPage();
    tab.on('pageerror', (error) => pageErrors.push(error.message));
    tab.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    await tab.goto(`http://127.0.0.1:${port}/`);
    await tab.waitForFunction(() => window.saksi !== undefined, undefined, { timeout: 10_000 });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  const inBrowser = (which: 'runVerify' | 'runTampered', extras: VerifyExtras): Promise<BundleVerification> =>
    tab.evaluate(([name, input, keys, options]) => window.saksi![name](input, keys, options), [
      which,
      bundle,
      keysJson,
      extras,
    ] as const);

  it('runs in a page without Node globals and without errors', async () => {
    expect(await tab.evaluate(() => window.saksi!.nodeFree())).toBe(true);
    expect(await tab.evaluate(() => navigator.userAgent)).toMatch(/HeadlessChrome|Chrome/);
    expect(pageErrors).toEqual([]);
  });

  it('canonicalizes and checks Merkle proofs as Node does', async () => {
    const browserSanity = await tab.evaluate(() => window.saksi!.runSanity());
    const nodeSanity = runSanity();
    expect(browserSanity).toEqual(nodeSanity);
    expect(nodeSanity).toMatchObject({
      canonical: '{"a":[true,null,"x",1e+21,0.5],"b":1,"€":"é"}',
      inclusion: true,
      inclusionWrongIndex: false,
      consistency: true,
      consistencyWrongRoot: false,
    });
  });

  it('(a) full options: verified, identical to Node', async () => {
    const node = await verifyBundle(bundle, optionsFor(keysJson, full));
    expect(node.verdict).toBe('verified');
    expect(node.checks.every((check) => check.status === 'pass')).toBe(true);
    expect(await inBrowser('runVerify', full)).toEqual(node);
  });

  it('(b) trusted keys only: verified with skips, identical to Node', async () => {
    const node = await verifyBundle(bundle, optionsFor(keysJson, keysOnly));
    expect(node.verdict).toBe('verified');
    expect(node.checks.filter((check) => check.status === 'skip').map((check) => check.id)).toEqual([
      'anchor_onchain',
      'query_replay',
      'checkpoint_consistency',
    ]);
    expect(await inBrowser('runVerify', keysOnly)).toEqual(node);
  });

  it('(c) tampered signature: failed with SIGNATURE_INVALID, identical to Node', async () => {
    const node = await verifyBundle(tamperSignature(bundle), optionsFor(keysJson, full));
    expect(node.verdict).toBe('failed');
    expect(node.codes).toContain('SIGNATURE_INVALID');
    expect(node.codes).not.toContain('MALFORMED');
    expect(await inBrowser('runTampered', full)).toEqual(node);
  });

  it('(d) replayed for another question: QUERY_MISMATCH, identical to Node', async () => {
    const node = await verifyBundle(bundle, optionsFor(keysJson, replay));
    expect(node.verdict).toBe('failed');
    expect(node.codes).toEqual(['QUERY_MISMATCH']);
    expect(await inBrowser('runVerify', replay)).toEqual(node);
  });

  it('different inputs give different results (the comparison can fail)', async () => {
    expect(await inBrowser('runVerify', replay)).not.toEqual(
      await verifyBundle(bundle, optionsFor(keysJson, full)),
    );
  });
});

describe('browser bundle guard', () => {
  it('refuses a node: import', async () => {
    const source =
      "import { readFileSync } from 'node:fs';\nimport { sha256 } from '../../src/index.js';\nconsole.log(readFileSync, sha256);\n";
    await expect(bundleEntry(source)).rejects.toThrow(/node built-in "node:fs"/);
    await expect(
      bundleEntry(source.replace(/^.*node:fs.*\n/, '').replace('readFileSync, ', '')),
    ).resolves.toContain('sha256');
  });
});

describe('saksi verify --json', () => {
  it.skipIf(!existsSync(cliEntry))(
    'prints the Node result for the same options (no anchor lookup)',
    async () => {
      const run = spawnSync(
        process.execPath,
        [
          cliBin,
          'verify',
          files.bundle,
          '--trust',
          files.keys,
          '--json',
          '--question',
          GOLDEN_QUESTION,
          '--checkpoint',
          files.later,
          '--consistency',
          files.consistency,
        ],
        { cwd: repoRoot, encoding: 'utf8', timeout: 15_000, env: { ...process.env, NO_COLOR: '1' } },
      );
      // stderr names the keys used; stdout is verifyBundle's result alone.
      expect(run.stderr).toContain(`Trusted keys ${files.keys}`);
      expect(run.status).toBe(0);
      const { anchor: _anchor, ...withoutAnchor } = full;
      const node = await verifyBundle(bundle, optionsFor(keysJson, withoutAnchor));
      expect(node.checks.find((check) => check.id === 'anchor_onchain')?.status).toBe('skip');
      expect(JSON.parse(run.stdout)).toEqual(node);
    },
  );
});
