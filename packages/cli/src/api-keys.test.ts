/** `saksi workspaces` and `saksi api-keys` in-process on a real PGlite data directory. */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { authenticateApiKey, Engine, loadConfig } from '@saksi/engine';
import { templateDirectory } from '@saksi/test-support/pglite-template';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-cli-api-keys-'));
  await cp(templateDirectory(), path.join(directory, 'data/pglite'), { recursive: true });
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

function run(argv: string[]) {
  return runCli([...argv, '--data-dir', 'data'], { cwd: directory, env: { NO_COLOR: '1' } });
}

/** Opens the data directory the commands use (after they closed it). */
async function withEngine<T>(use: (engine: Engine) => Promise<T>): Promise<T> {
  const engine = await Engine.open({ config: loadConfig({ SAKSI_DATA_DIR: 'data' }, directory) });
  try {
    return await use(engine);
  } finally {
    await engine.close();
  }
}

describe('saksi workspaces', () => {
  it('creates a workspace with an admin key shown once, and lists it', async () => {
    const created = await run(['workspaces', 'create', 'Acme', 'Labs']);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const key = created.stdout.match(/saksi_[A-Za-z0-9_-]{43}/)?.[0];
    expect(key).toBeDefined();
    expect(created.stdout).toContain('Store it now, it is not shown again');
    const workspaceId = created.stdout.match(/Workspace (wsp_\S+) "Acme Labs" created/)?.[1];
    expect(workspaceId).toBeDefined();
    const principal = await withEngine((engine) => authenticateApiKey(engine.db, key!));
    expect(principal).toMatchObject({ workspace_id: workspaceId, scopes: ['admin'] });

    const json = await run(['workspaces', 'create', 'Beta', '--json']);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as {
      workspace: { id: string; name: string };
      api_key: { key: string; record: { name: string; scopes: string[]; prefix: string } };
    };
    expect(parsed.workspace.name).toBe('Beta');
    expect(parsed.api_key.record).toMatchObject({ name: 'Beta admin', scopes: ['admin'] });
    expect(parsed.api_key.key.startsWith(parsed.api_key.record.prefix)).toBe(true);

    const list = await run(['workspaces', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ID\s+NAME\s+DOCUMENTS\s+ACTIVE KEYS\s+CREATED\n/);
    expect(list.stdout).toMatch(new RegExp(`${workspaceId}\\s+Acme Labs\\s+0\\s+1\\s`));
    expect(list.stdout).toContain('wsp_default');
    expect(list.stdout).not.toContain(key!);
    const listed = JSON.parse((await run(['workspaces', 'list', '--json'])).stdout) as {
      items: { id: string; keys: number }[];
    };
    expect(listed.items.find((workspace) => workspace.id === parsed.workspace.id)?.keys).toBe(1);
  });

  it('rejects a bad name and a missing subcommand with exit 2', async () => {
    const bad = await run(['workspaces', 'create', '!!!']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: Workspace names/);
    const missing = await run(['workspaces']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('usage: saksi workspaces create');
  });
});

describe('saksi api-keys', () => {
  it('creates, lists (prefix, never the secret) and revokes a key', async () => {
    const created = await run(['api-keys', 'create', '--name', 'ci', '--scopes', 'read,ingest', '--json']);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const { key, record } = JSON.parse(created.stdout) as {
      key: string;
      record: { id: string; prefix: string; workspace_id: string; scopes: string[] };
    };
    expect(record).toMatchObject({ workspace_id: 'wsp_default', scopes: ['read', 'ingest'] });

    const list = await run(['api-keys', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ID\s+PREFIX\s+NAME\s+SCOPES\s+CREATED\s+LAST USED\s+REVOKED\n/);
    expect(list.stdout).toMatch(
      new RegExp(
        `${record.id}\\s+${record.prefix}…\\s+ci\\s+read,ingest\\s+\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\s+-\\s+-\\n`,
      ),
    );
    expect(list.stdout).not.toContain(key);

    const revoked = await run(['api-keys', 'revoke', record.id, '--workspace', 'wsp_default']);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`API key ${record.id} (ci, ${record.prefix}…) revoked.`);
    const after = JSON.parse((await run(['api-keys', 'list', '--json'])).stdout) as {
      items: { id: string; revoked_at: string | null; key?: unknown; key_hash?: unknown }[];
    };
    const item = after.items.find((candidate) => candidate.id === record.id);
    expect(item?.revoked_at).toEqual(expect.any(String));
    expect(item).not.toHaveProperty('key_hash');
    expect(JSON.stringify(after)).not.toContain(key);
    expect((await run(['api-keys', 'list'])).stdout).toMatch(
      new RegExp(`${record.id}.*\\d{2}:\\d{2}:\\d{2}\\n`),
    );
    await expect(withEngine((engine) => authenticateApiKey(engine.db, key))).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  });

  it('prints a created key once with a warning; read is the default scope', async () => {
    const created = await run(['api-keys', 'create', '--name', 'reader']);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/scopes read\) for wsp_default:\n\n {2}saksi_[A-Za-z0-9_-]{43}\n/);
    expect(created.stdout).toContain('Store it now, it is not shown again');
  });

  it('exits 1 for an unknown key or workspace and 2 for unknown scopes', async () => {
    const noKey = await run(['api-keys', 'revoke', 'key_nope']);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/^error: No API key "key_nope"/);
    const noWorkspace = await run(['api-keys', 'list', '--workspace', 'wsp_nope']);
    expect(noWorkspace.code).toBe(1);
    expect(noWorkspace.stderr).toContain('saksi workspaces list');
    const scopes = await run(['api-keys', 'create', '--name', 'x', '--scopes', 'read,write,root']);
    expect(scopes.code).toBe(2);
    expect(scopes.stderr).toContain('unknown scopes "write", "root"; valid scopes are read, ingest, admin');
    expect(scopes.stderr).toContain('usage: saksi api-keys create');
    const noName = await run(['api-keys', 'create']);
    expect(noName.code).toBe(2);
    expect(noName.stderr).toContain('--name');
  });

  it('says in its help that it is not saksi keys', async () => {
    const help = await run(['api-keys', '--help']);
    expect(help.stdout).toContain('not the\nEd25519 signing keys of saksi keys');
  });
});
