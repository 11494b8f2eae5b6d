/** `saksi worker` on a real PGlite data directory: in-process with --once, and the compiled CLI with SIGTERM. */
import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_WORKSPACE, Engine, loadConfig } from '@saksi/engine';
import { templateDirectory } from '@saksi/test-support/pglite-template';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';

const bin = path.resolve(import.meta.dirname, '../bin/saksi.js');
const MARKDOWN = `# Parking rules

## Fees

Parking in the city centre costs two euros per hour on weekdays.

## Exemptions

Residents with a permit park for free.
`;

let directory: string;

/** The JSON log lines of a run (every line of standard output must be one). */
function logLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

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
    const lines = logLines(result.stdout);
    expect(lines[0]).toMatchObject({
      level: 'info',
      msg: 'worker running the queued jobs',
      database: 'PGlite',
    });
    expect(lines[0]?.['worker_id']).toMatch(/^\S+-\d+$/);
    expect(lines.find((line) => line['msg'] === 'job succeeded')).toMatchObject({
      level: 'info',
      job_id: submitted.job.id,
      document_id: submitted.document.id,
      filename: 'a.md',
      document_status: 'READY',
      chunks: expect.any(Number),
      seconds: expect.any(Number),
    });
    expect(lines.at(-1)).toMatchObject({ msg: 'no due jobs left', succeeded: 1, failed: 0, retrying: 0 });

    const document = await withEngine((engine) => engine.documents.get(submitted.document.id));
    expect(document.status).toBe('READY');
    expect(document.chunk_count).toBeGreaterThan(0);

    const idle = await runCli(['worker', '--once', '--allow-pglite', '--data-dir', 'data'], {
      cwd: directory,
      env: { NO_COLOR: '1' },
    });
    expect(idle.code).toBe(0);
    expect(logLines(idle.stdout).at(-1)).toMatchObject({ msg: 'no due jobs left', succeeded: 0 });
  });

  it('logs a failed job as a JSON line at warn, with credentials cut out, and only at LOG_LEVEL', async () => {
    const key = `saksi_${'K'.repeat(43)}`;
    const submitted = await withEngine((engine) =>
      engine.submit(
        'docs',
        // Not a document the parser knows: the job fails, and its message names the file.
        { bytes: new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3, 0xff]), filename: `${key}.bin` },
        { workspaceId: DEFAULT_WORKSPACE, language: 'en' },
      ),
    );
    const quiet = await runCli(['worker', '--once', '--allow-pglite', '--data-dir', 'data'], {
      cwd: directory,
      env: { NO_COLOR: '1', LOG_LEVEL: 'error' },
    });
    expect(quiet.code).toBe(1);
    expect(quiet.stdout).toBe('');
    const document = await withEngine((engine) => engine.documents.get(submitted.document.id));
    expect(document.status).toBe('FAILED');

    const again = await withEngine((engine) =>
      engine.submit(
        'other',
        { bytes: new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 9, 9, 9, 9, 0xff]), filename: `${key}.bin` },
        { workspaceId: DEFAULT_WORKSPACE, language: 'en' },
      ),
    );
    const result = await runCli(['worker', '--once', '--allow-pglite', '--data-dir', 'data'], {
      cwd: directory,
      env: { NO_COLOR: '1' },
    });
    expect(result.code).toBe(1);
    const failed = logLines(result.stdout).find((line) => line['msg'] === 'job failed');
    expect(failed).toMatchObject({
      level: 'warn',
      job_id: again.job.id,
      filename: '[redacted].bin',
      error: { code: expect.any(String) },
    });
    expect(result.stdout).not.toContain(key);
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
      while (!/worker started; waiting for jobs/.test(stdout)) {
        if (child.exitCode !== null || Date.now() > deadline)
          throw new Error(`no start line:\n${stdout}\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(logLines(stdout)).toEqual([
        expect.objectContaining({
          level: 'info',
          msg: 'worker started; waiting for jobs',
          database: 'PGlite',
        }),
      ]);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(logLines(stdout).map((line) => [line['msg'], line['jobs']])).toEqual([
        ['worker started; waiting for jobs', undefined],
        ['worker stopping: finishing the job in hand', undefined],
        ['worker stopped', 0],
      ]);
      expect(stderr).toBe('');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
