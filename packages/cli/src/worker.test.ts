/** `saksi worker` on a real PGlite data directory: in-process with --once, and the compiled CLI with SIGTERM. */
import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_WORKSPACE, Engine, loadConfig } from '@saksi/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { templateDirectory } from '../../engine/test/pglite-template.js';
import { runCli } from '../test/run-cli.js';

const bin = path.resolve(import.meta.dirname, '../bin/saksi.js');
const MARKDOWN = `# Parking rules

## Fees

Parking in the city centre costs two euros per hour on weekdays.

## Exemptions

Residents with a permit park for free.
`;

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-cli-worker-'));
  await cp(templateDirectory(), path.join(directory, 'data/pglite'), { recursive: true });
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function withEngine<T>(use: (engine: Engine) => Promise<T>): Promise<T> {
  const engine = await Engine.open({ config: loadConfig({ SAKSI_DATA_DIR: 'data' }, directory) });
  try {
    return await use(engine);
  } finally {
    await engine.close();
  }
}

describe('saksi worker', () => {
  it('--once runs a queued ingestion job and exits', async () => {
    const submitted = await withEngine((engine) =>
      engine.submit(
        'docs',
        { bytes: new TextEncoder().encode(MARKDOWN), filename: 'a.md' },
        { workspaceId: DEFAULT_WORKSPACE, language: 'en' },
      ),
    );
    expect(submitted.document.status).toBe('PENDING');

    const result = await runCli(['worker', '--once', '--allow-pglite', '--data-dir', 'data'], {
      cwd: directory,
      env: { NO_COLOR: '1' },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Worker \S+-\d+ \(PGlite in .*\): running the queued jobs…\n/);
    expect(result.stdout).toMatch(
      new RegExp(
        `job ${submitted.job.id} SUCCEEDED: a\\.md \\(${submitted.document.id}\\) READY, \\d+ chunks in`,
      ),
    );
    expect(result.stdout).toMatch(/No due jobs left: 1 succeeded, 0 failed, 0 to retry later\.\n$/);

    const document = await withEngine((engine) => engine.getDocument(submitted.document.id));
    expect(document.status).toBe('READY');
    expect(document.chunk_count).toBeGreaterThan(0);

    const idle = await runCli(['worker', '--once', '--allow-pglite', '--data-dir', 'data'], {
      cwd: directory,
      env: { NO_COLOR: '1' },
    });
    expect(idle.code).toBe(0);
    expect(idle.stdout).toContain('No due jobs left: 0 succeeded');
  });

  it('refuses the embedded database without --allow-pglite (exit 2, with a hint)', async () => {
    const result = await runCli(['worker', '--data-dir', 'data'], { cwd: directory, env: { NO_COLOR: '1' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: saksi worker needs a PostgreSQL database/);
    expect(result.stderr).toContain('saksi serve already runs a worker in-process');
    expect(result.stderr).toContain('--allow-pglite');
  });

  it('runs until SIGTERM, reports jobs it finished, and stops cleanly (compiled CLI)', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SAKSI_DATA_DIR: path.join(directory, 'data'),
      NO_COLOR: '1',
    };
    delete env['DATABASE_URL'];
    const child: ChildProcess = spawn(
      process.execPath,
      [bin, 'worker', '--allow-pglite', '--poll-ms', '50'],
      {
        cwd: directory,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 20_000;
      while (!/waiting for jobs/.test(stdout)) {
        if (child.exitCode !== null || Date.now() > deadline)
          throw new Error(`no start line:\n${stdout}\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(stdout).toMatch(
        /^Worker \S+-\d+ started \(PGlite in .*\); waiting for jobs\. Stop with Ctrl\+C\.\n$/,
      );
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stdout).toMatch(/Stopping: finishing the job in hand…\nWorker stopped after 0 jobs\.\n$/);
      expect(stderr).toBe('');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
