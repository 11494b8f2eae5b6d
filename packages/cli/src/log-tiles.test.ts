import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { utf8Encode } from '@saksi/proof';
import { formatVerifierKey, generateKeyPair } from '@saksi/proof/issue';
import { type RunningServer, startServer } from '@saksi/server';
import { openTestEngine, type TestEngine } from '@saksi/test-support/engine-fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';

const SIZE = 300;
const STACK_FRAME = /\n\s+at .+:\d+/;
/** Every resource a log of 300 entries has: 2 level-0 tiles, 1 level-1 tile, 2 entry bundles. */
const MIRROR_FILES = [
  'checkpoint',
  'tile/0/000',
  'tile/0/001.p/44',
  'tile/1/000.p/1',
  'tile/entries/000',
  'tile/entries/001.p/44',
];

let directory: string;
let test: TestEngine;
let server: RunningServer;
let files: Server;
let filesUrl: string;
/** A port nothing listens on. */
let closedUrl: string;

function run(argv: string[]) {
  return runCli(['log', 'tiles', ...argv], { cwd: directory, env: { NO_COLOR: '1' } });
}

interface Audit {
  ok: boolean;
  size: number;
  tiles: { hash: number; entries: number };
  problems: { code: string }[];
  cosigned_by: string[];
}

async function audit(argv: string[]): Promise<{ code: number; audit: Audit; stderr: string }> {
  const result = await run([...argv, '--json']);
  expect(result.stderr).not.toMatch(STACK_FRAME);
  return { code: result.code, audit: JSON.parse(result.stdout) as Audit, stderr: result.stderr };
}

/** A copy of the verified mirror in `name/`, served by the plain file server at `/name/tiles`. */
async function copyMirror(name: string): Promise<{ dir: string; url: string }> {
  const dir = path.join(directory, name);
  await cp(path.join(directory, 'mirror'), path.join(dir, 'tiles'), { recursive: true });
  return { dir: path.join(dir, 'tiles'), url: `${filesUrl}/${name}/tiles` };
}

async function flipByte(file: string, offset: number): Promise<void> {
  const bytes = await readFile(file);
  bytes[offset] = (bytes[offset] as number) ^ 0x01;
  await writeFile(file, bytes);
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-cli-tiles-'));
  test = await openTestEngine();
  await test.engine.db.transaction(async (tx) => {
    for (let i = 0; i < SIZE; i++) {
      await test.engine.log.append(tx, `cli-tiles-${i}`, utf8Encode(`{"cli-tiles":${i}}`));
    }
  });
  server = await startServer(test.engine, { port: 0, host: '127.0.0.1' });
  await writeFile(path.join(directory, 'keys.json'), JSON.stringify(test.engine.trustedKeys()));
  // A plain static file server, as a mirror would be served: files only, nothing Saksi-specific.
  files = createServer(async (request, response) => {
    const relative = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = path.join(directory, relative);
    if (!file.startsWith(`${directory}${path.sep}`)) return void response.writeHead(403).end();
    try {
      if (!(await stat(file)).isFile()) throw new Error('not a file');
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(await readFile(file));
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => files?.close(resolve));
  await test?.close();
  await rm(directory, { recursive: true, force: true });
});

describe('saksi log tiles against a running server', () => {
  it('audits every tile, recomputes the root and writes a static mirror', async () => {
    const result = await run(['--log', server.url, '--trust', 'keys.json', '--out', 'mirror']);
    expect(result.stderr).toBe('');
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain(`${SIZE} entries, root `);
    expect(result.stdout).toContain('3 hash tiles and 2 entry bundles fetched');
    expect(result.stdout).toMatch(/✓ root +recomputed from the level-0 tiles/);
    expect(result.stdout).toContain('Verdict: VERIFIED');
    expect(result.stdout).toContain('Mirror written to mirror');
    for (const file of MIRROR_FILES) {
      const served = new Uint8Array(
        await (await fetch(`${server.url}/api/v1/log/tiles/${file}`)).arrayBuffer(),
      );
      expect(new Uint8Array(await readFile(path.join(directory, 'mirror', file))), file).toEqual(served);
    }
  });

  it('reports JSON with the witness cosignature counted', async () => {
    const { code, audit: report } = await audit(['--log', `${server.url}/`, '--trust', 'keys.json']);
    expect(code).toBe(0);
    expect(report).toMatchObject({ ok: true, size: SIZE, tiles: { hash: 3, entries: 2 }, problems: [] });
    expect(report.cosigned_by).toEqual(test.engine.trustedKeys().witnesses?.map((w) => w.name));
  });

  it('audits the mirror served by a plain file server', async () => {
    const mirror = await copyMirror('plain');
    const { code, audit: report } = await audit(['--log', mirror.url, '--trust', 'keys.json']);
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
  });

  it.each<[string, (dir: string) => Promise<void>, string[]]>([
    [
      'a leaf hash in a level-0 tile',
      (dir) => flipByte(path.join(dir, 'tile/0/000'), 40),
      ['ENTRY_HASH_MISMATCH', 'TILE_HASH_MISMATCH', 'ROOT_MISMATCH'],
    ],
    [
      'a leaf hash in the partial level-0 tile',
      (dir) => flipByte(path.join(dir, 'tile/0/001.p/44'), 0),
      ['ENTRY_HASH_MISMATCH', 'ROOT_MISMATCH'],
    ],
    [
      'an entry in a bundle',
      (dir) => flipByte(path.join(dir, 'tile/entries/001.p/44'), 5),
      ['ENTRY_HASH_MISMATCH'],
    ],
    ['the level-1 tile', (dir) => flipByte(path.join(dir, 'tile/1/000.p/1'), 31), ['TILE_HASH_MISMATCH']],
    ['a missing tile', (dir) => rm(path.join(dir, 'tile/entries/000')), ['TILE_MISSING']],
    [
      'a truncated tile',
      async (dir) =>
        writeFile(
          path.join(dir, 'tile/0/001.p/44'),
          (await readFile(path.join(dir, 'tile/0/001.p/44'))).subarray(1),
        ),
      ['TILE_MALFORMED'],
    ],
    [
      'the checkpoint root',
      async (dir) => {
        const file = path.join(dir, 'checkpoint');
        const lines = (await readFile(file, 'utf8')).split('\n');
        lines[2] = `${lines[2]!.startsWith('A') ? 'B' : 'A'}${lines[2]!.slice(1)}`;
        await writeFile(file, lines.join('\n'));
      },
      ['CHECKPOINT_SIGNATURE_INVALID'],
    ],
  ])('fails (exit 1) on a tampered mirror: %s', async (what, tamper, codes) => {
    const mirror = await copyMirror(`tampered-${what.replaceAll(' ', '-')}`);
    await tamper(mirror.dir);
    const result = await run(['--log', mirror.url, '--trust', 'keys.json', '--out', 'not-written']);
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toContain('Verdict: FAILED');
    expect(result.stdout).toContain('No mirror was written.');
    await expect(stat(path.join(directory, 'not-written', 'checkpoint'))).rejects.toThrow();
    const { code, audit: report } = await audit(['--log', mirror.url, '--trust', 'keys.json']);
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    expect([...new Set(report.problems.map((problem) => problem.code))].sort()).toEqual([...codes].sort());
  });

  it('fails (exit 1) when the log is not the one the keys trust', async () => {
    const keys = test.engine.trustedKeys();
    const origin = keys.logs[0]!.origin;
    const stranger = formatVerifierKey(origin, generateKeyPair().publicKey);
    await writeFile(
      path.join(directory, 'other-key.json'),
      JSON.stringify({ ...keys, logs: [{ origin, vkey: stranger }] }),
    );
    const otherKey = await audit(['--log', server.url, '--trust', 'other-key.json']);
    expect(otherKey.code).toBe(1);
    expect(otherKey.audit.problems.map((problem) => problem.code)).toEqual(['CHECKPOINT_SIGNATURE_INVALID']);

    await writeFile(path.join(directory, 'other-log.json'), JSON.stringify({ ...keys, logs: [] }));
    const otherLog = await run(['--log', server.url, '--trust', 'other-log.json']);
    expect(otherLog.code).toBe(1);
    expect(otherLog.stdout).toContain('LOG_UNTRUSTED');
  });

  it('fails (exit 1) when fewer witnesses cosigned than the keys require', async () => {
    const keys = test.engine.trustedKeys();
    const witnesses = keys.witnesses ?? [];
    await writeFile(
      path.join(directory, 'more-witnesses.json'),
      JSON.stringify({ ...keys, required_cosignatures: witnesses.length + 1 }),
    );
    const result = await audit(['--log', server.url, '--trust', 'more-witnesses.json']);
    expect(result.code).toBe(1);
    expect(result.audit.problems.map((problem) => problem.code)).toEqual(['COSIGNATURES_INSUFFICIENT']);
  });

  it.each([
    [['--log', 'ftp://example.com'], '--log must be an http or https URL'],
    [['--log', 'not a url'], '--log must be a URL'],
    [
      ['--log', 'CLOSED/', '--trust', 'keys.json'],
      'cannot reach CLOSED/api/v1/log/tiles/checkpoint: ECONNREFUSED',
    ],
    [['--log', 'FILES/nothing/tiles', '--trust', 'keys.json'], 'no checkpoint at'],
    [['--log', 'CLOSED/', '--trust', 'missing.json'], 'cannot read trusted keys file'],
    [['extra'], 'unexpected argument "extra"'],
  ])('%j exits 2 with a message', async (argv, expected) => {
    // The file server's URL is known only once beforeAll ran.
    // The servers' URLs are known only once beforeAll ran.
    const url = (text: string) =>
      text.replace(/\bFILES\//, `${filesUrl}/`).replace(/\bCLOSED\//, `${closedUrl}/`);
    const result = await run(argv.map(url));
    expect(result.code, result.stdout).toBe(2);
    expect(result.stderr).toMatch(/^error: /);
    expect(result.stderr).toContain(url(expected));
    expect(result.stderr).not.toMatch(STACK_FRAME);
    expect(result.stdout).toBe('');
  });
});
