/** `saksi api …` against a real server (Node HTTP server, real engine on PGlite, in-process job worker). */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApiKey, DEFAULT_WORKSPACE } from '@saksi/engine';
import { type RunningServer, startServer } from '@saksi/server';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';

let directory: string;
let test: TestEngine;
let server: RunningServer;
let key: string;
let adminKey: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-cli-api-'));
  await writeFile(
    path.join(directory, 'parking.md'),
    '# Parking rules\n\n## Fees\n\nParking in the city centre costs two euros per hour on weekdays.\n\n' +
      '## Exemptions\n\nResidents with a permit park for free.\n',
  );
  test = await openTestEngine();
  key = (
    await createApiKey(test.engine.db, {
      workspaceId: DEFAULT_WORKSPACE,
      name: 'cli',
      scopes: ['read', 'ingest'],
    })
  ).key;
  adminKey = (
    await createApiKey(test.engine.db, { workspaceId: DEFAULT_WORKSPACE, name: 'ops', scopes: ['admin'] })
  ).key;
  test.engine.workers.start({ pollMs: 50 });
  server = await startServer(test.engine, { port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await server?.close();
  await test?.close();
  await rm(directory, { recursive: true, force: true });
});

function run(argv: string[], env: Record<string, string> = {}) {
  return runCli(argv, {
    cwd: directory,
    env: { NO_COLOR: '1', SAKSI_SERVER: server.url, SAKSI_API_KEY: key, ...env },
  });
}

describe('saksi api', () => {
  it('uploads a file, waits for it, shows its status and finds it with a citation', async () => {
    const uploaded = await run([
      'api',
      'upload',
      'parking.md',
      '--collection',
      'city',
      '--language',
      'en',
      '--wait',
    ]);
    expect(uploaded.stderr).toBe('');
    expect(uploaded.code).toBe(0);
    const documentId = uploaded.stdout.match(
      /^Uploaded parking\.md to city: document (\S+) PENDING, job \S+\.\n/,
    )?.[1];
    expect(documentId).toBeDefined();
    expect(uploaded.stdout).toMatch(/\n {2}(PENDING|PROCESSING|READY) /);
    expect(uploaded.stdout).toMatch(/\nREADY: \d+ chunks?, root [0-9a-f]{64}\n$/);

    const status = await run(['api', 'status', documentId!]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^document {3}\S+\n/);
    expect(status.stdout).toMatch(/\nstatus {5}READY/);
    expect(status.stdout).toContain('parking.md (text/markdown');

    const query = await run([
      'api',
      'query',
      'How',
      'much',
      'does',
      'parking',
      'cost?',
      '--collection',
      'city',
    ]);
    expect(query.stderr).toBe('');
    expect(query.code).toBe(0);
    expect(query.stdout).toMatch(/^\d+ results? from city \((hybrid|lexical) search, \d+ ms\)\n/);
    expect(query.stdout).toMatch(/\n\[1\] score \d\.\d{4} {2}Parking rules — Fees\n/);
    expect(query.stdout).toContain(`parking.md (${documentId})`);
    expect(query.stdout).toContain('costs two euros per hour');

    const json = await run([
      'api',
      'query',
      'parking fees',
      '--collection',
      'city',
      '--top-k',
      '1',
      '--json',
    ]);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as {
      results: { document_id: string; citation: { document_title: string } }[];
    };
    expect(parsed.results).toHaveLength(1);
    expect(parsed.results[0]).toMatchObject({ document_id: documentId });

    const again = await run(['api', 'upload', 'parking.md', '--collection', 'city']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`already in city: document ${documentId} READY`);
  });

  it('shows the workspace of the key, never the key itself', async () => {
    const result = await run(['api', 'workspace']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Workspace wsp_default "Default"\n {2}key: {7}key_\S+, scopes read,ingest\n/,
    );
    expect(result.stdout + result.stderr).not.toContain(key);
  });

  it('adds and lists webhooks with an admin key; a read/ingest key gets a 403 with a hint', async () => {
    const refused = await run(['api', 'webhooks', 'list']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: 403 FORBIDDEN: .*\nhint: This key lacks the scope/);

    const added = await run(['api', 'webhooks', 'add', 'https://example.org/hooks/saksi'], {
      SAKSI_API_KEY: adminKey,
    });
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(
      /^Webhook \S+ → https:\/\/example\.org\/hooks\/saksi \(document\.ready, document\.failed\)\./,
    );
    expect(added.stdout).toMatch(/\n {2}whsec_\S+\n/);
    const list = await run(['api', 'webhooks', 'list', '--json'], { SAKSI_API_KEY: adminKey });
    expect((JSON.parse(list.stdout) as { items: { url: string }[] }).items.map((hook) => hook.url)).toEqual([
      'https://example.org/hooks/saksi',
    ]);
    expect(added.stdout + list.stdout).not.toContain(adminKey);
  });

  it('turns refusals into errors with hints: no key (401), unknown id (404), no server', async () => {
    const noKey = await run(['api', 'workspace'], { SAKSI_API_KEY: '' });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(
      /^error: 401 UNAUTHENTICATED: .*\nhint: Pass an API key with \$SAKSI_API_KEY/,
    );
    const badKey = await run(['api', 'workspace', '--api-key', 'saksi_not-a-real-key']);
    expect(badKey.code).toBe(1);
    expect(badKey.stderr).not.toContain('saksi_not-a-real-key');
    const missing = await run(['api', 'status', 'doc_nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: 404 NOT_FOUND/);
    const down = await run(['api', 'workspace', '--server', 'http://127.0.0.1:1']);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('hint: Is saksi serve running at http://127.0.0.1:1?');
    const usage = await run(['api', 'query', 'x']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--collection is required');
  });
});
