/** `saksi admin create` in-process on a real PGlite data directory. */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Engine, loadConfig, loadOrCreateAuthSecret, login } from '@saksi/engine';
import { templateDirectory } from '@saksi/test-support/pglite-template';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';

let directory: string;
const PASSWORD = 'a long admin password';

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-cli-admin-'));
  await cp(templateDirectory(), path.join(directory, 'data/pglite'), { recursive: true });
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

function run(argv: string[], env: Record<string, string> = {}) {
  return runCli(argv, { cwd: directory, env: { NO_COLOR: '1', SAKSI_DATA_DIR: 'data', ...env } });
}

describe('saksi admin create', () => {
  it('creates an admin who can then sign in, without printing the password', async () => {
    const created = await run(['admin', 'create', '--email', 'Ops@Example.org'], {
      SAKSI_ADMIN_PASSWORD: PASSWORD,
    });
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('ops@example.org');
    expect(created.stdout + created.stderr).not.toContain(PASSWORD);

    const config = loadConfig({ SAKSI_DATA_DIR: 'data' }, directory);
    const engine = await Engine.open({ config });
    try {
      const secret = await loadOrCreateAuthSecret(config.keysDir);
      const session = await login(engine.db, 'ops@example.org', PASSWORD, { ip: '127.0.0.1', secret });
      expect(session.email).toBe('ops@example.org');
    } finally {
      await engine.close();
    }
  });

  it('refuses an existing email (exit 1), a short password and a missing email (exit 2)', async () => {
    const again = await run(['admin', 'create', '--email', 'ops@example.org'], {
      SAKSI_ADMIN_PASSWORD: 'another long password',
    });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error: .*already exists/);
    const short = await run(['admin', 'create', '--email', 'new@example.org'], {
      SAKSI_ADMIN_PASSWORD: 'short',
    });
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/too short/);
    expect(short.stderr).not.toContain('short\n');
    const noEmail = await run(['admin', 'create'], { SAKSI_ADMIN_PASSWORD: PASSWORD });
    expect(noEmail.code).toBe(2);
    expect(noEmail.stderr).toContain('--email');
    const badEmail = await run(['admin', 'create', '--email', 'not-an-email'], {
      SAKSI_ADMIN_PASSWORD: PASSWORD,
    });
    expect(badEmail.code).toBe(2);
    expect(badEmail.stderr).toContain('not an email address');
    expect(badEmail.stderr).not.toContain(PASSWORD);
    const unknown = await run(['admin', 'remove'], { SAKSI_ADMIN_PASSWORD: PASSWORD });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('usage: saksi admin create');
  });
});
