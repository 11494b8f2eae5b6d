import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';
import { COMMANDS } from './main.js';

/** Runs `saksi` in-process and collects what it printed. */
async function run(argv: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  return runCli(argv, { cwd: options.cwd ?? directory, env: options.env ?? {} });
}

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-cli-main-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const STACK_FRAME = /\n\s+at .+:\d+/;

describe('saksi help and version', () => {
  it('prints the overview on --help and lists every command', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    for (const command of COMMANDS) expect(result.stdout).toContain(command.name);
    expect(result.stderr).toBe('');
  });

  it('prints command help on <cmd> --help, -h and help <cmd>', async () => {
    for (const argv of [
      ['verify', '--help'],
      ['verify', '-h'],
      ['help', 'verify'],
    ]) {
      const result = await run(argv);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Usage: saksi verify <bundle.json>');
      expect(result.stdout).toContain('--trust');
    }
  });

  it('prints the package version', async () => {
    const result = await run(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^saksi \d+\.\d+\.\d+\n$/);
  });
});

describe('saksi usage errors exit 2', () => {
  it('without a command, prints usage to stderr', async () => {
    const result = await run([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: saksi <command>');
    expect(result.stdout).toBe('');
  });

  it.each([
    [['frobnicate'], 'unknown command'],
    [['--bogus'], 'unknown option'],
    [['verify', 'bundle.json', '--bogus'], "Unknown option '--bogus'"],
    [['verify'], 'missing <bundle.json>'],
    [['verify', 'a.json', 'b.json'], 'unexpected argument'],
    [['verify', 'a.json', '--trust'], "'--trust"],
    [['verify', 'a.json', '--require-cosignatures', 'many'], '--require-cosignatures'],
    [['inspect'], 'missing <bundle.json>'],
    [['keys'], 'missing subcommand'],
    [['keys', 'rotate'], 'unknown keys subcommand'],
    [['help', 'frobnicate'], 'unknown command'],
  ])('%j', async (argv, expected) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: /);
    expect(result.stderr).toContain(expected);
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(result.stdout).toBe('');
  });
});

describe('saksi unreadable input exits 2', () => {
  it('reports a missing bundle file', async () => {
    const result = await run(['verify', 'nope.json', '--trust', 'keys.json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: cannot read bundle nope.json: no such file');
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('reports a folder given as a file', async () => {
    const result = await run(['inspect', '.']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('it is a folder');
  });

  it('reports invalid JSON with the parser code and no stack trace', async () => {
    await writeFile(path.join(directory, 'broken.json'), '{"certificate": {,}');
    await writeFile(path.join(directory, 'duplicate.json'), '{"a": 1, "a": 2}');
    for (const [file, code] of [
      ['broken.json', 'JSON_PARSE_ERROR'],
      ['duplicate.json', 'JSON_DUPLICATE_KEY'],
    ] as const) {
      for (const argv of [
        ['verify', file, '--trust', 'keys.json'],
        ['inspect', file],
      ]) {
        const result = await run(argv);
        expect(result.code).toBe(2);
        expect(result.stderr).toContain(`error: bundle ${file} is not valid JSON`);
        expect(result.stderr).toContain(code);
        expect(result.stderr).not.toMatch(STACK_FRAME);
        expect(result.stdout).toBe('');
      }
    }
  });

  it('says how to pin keys when no trusted keys file is given or found', async () => {
    await writeFile(path.join(directory, 'some.json'), '{}');
    const result = await run(['verify', 'some.json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no trusted keys');
    expect(result.stderr).toContain('--trust');
    expect(result.stderr).toContain('saksi-keys.json');
  });

  it('rejects an invalid trusted keys file with exit 2', async () => {
    await writeFile(path.join(directory, 'some.json'), '{}');
    await writeFile(
      path.join(directory, 'bad-keys.json'),
      '{"issuers": [{"name": "x", "public_key": "AAAA"}], "logs": []}',
    );
    const result = await run(['verify', 'some.json', '--trust', 'bad-keys.json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('trusted keys file bad-keys.json is invalid');
  });

  it('escapes terminal control characters from file names in messages', async () => {
    const result = await run(['verify', 'evil\u001b[2J.json', '--trust', 'k.json']);
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain('\u001b');
    expect(result.stderr).toContain('\\u{1b}[2J');
  });
});
