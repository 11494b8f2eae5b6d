import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { keysFromSecrets, loadConfig } from '@saksi/engine';
import {
  createCosignatureVerifier,
  createNoteVerifier,
  fromBase64,
  openNote,
  parseTrustedKeys,
} from '@saksi/proof';
import {
  createCosigner,
  createNoteSigner,
  issuerFromSecretKey,
  parseSignerKey,
  signNote,
} from '@saksi/proof/issue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';
import { KEY_FILES } from './keys.js';

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-cli-keys-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function run(argv: string[]) {
  return runCli(argv, { cwd: directory, env: {} });
}

const mode = (file: string) => statSync(file).mode & 0o777;
const read = (file: string) => readFileSync(file, 'utf8');

describe('saksi keys generate', () => {
  it('writes secret keys with mode 0600 and a public keys file that verify accepts', async () => {
    const result = await run([
      'keys',
      'generate',
      '--out',
      'k1',
      '--name',
      'kemenhub',
      '--log-origin',
      'saksi.test/log',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = path.join(directory, 'k1');
    expect(mode(path.join(out, KEY_FILES.issuer))).toBe(0o600);
    expect(mode(path.join(out, KEY_FILES.log))).toBe(0o600);
    expect(mode(path.join(out, KEY_FILES.witness))).toBe(0o600);
    expect(mode(path.join(out, KEY_FILES.trust))).toBe(0o644);

    const keys = parseTrustedKeys(read(path.join(out, KEY_FILES.trust)));
    const issuerSecret = fromBase64(read(path.join(out, KEY_FILES.issuer)).trim(), 32);
    expect(issuerFromSecretKey('kemenhub', issuerSecret)).toEqual(keys.issuers[0]);

    // The log key signs notes that the published log vkey verifies.
    const log = parseSignerKey(read(path.join(out, KEY_FILES.log)).trim());
    expect(log.name).toBe('saksi.test/log');
    expect(keys.logs[0]!.origin).toBe('saksi.test/log');
    const note = signNote('saksi.test/log\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n', [
      createNoteSigner(log.name, log.secretKey),
    ]);
    expect(openNote(note, [createNoteVerifier(keys.logs[0]!.vkey)]).verified).toHaveLength(1);

    // The witness key cosigns checkpoints that the published witness vkey verifies.
    const witness = parseSignerKey(read(path.join(out, KEY_FILES.witness)).trim());
    const cosigned = signNote('saksi.test/log\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n', [
      createCosigner(witness.name, witness.secretKey, () => 1_700_000_000),
    ]);
    expect(openNote(cosigned, [createCosignatureVerifier(keys.witnesses![0]!.vkey)]).verified).toHaveLength(
      1,
    );

    // The public keys are printed; the secrets are not.
    expect(result.stdout).toContain(keys.issuers[0]!.public_key);
    expect(result.stdout).toContain(keys.logs[0]!.vkey);
    expect(result.stdout).not.toContain(read(path.join(out, KEY_FILES.issuer)).trim());
    expect(result.stdout).not.toContain('PRIVATE+KEY');
    expect(result.stdout).toContain('saksi verify bundle.json --trust');
  });

  it('writes into .saksi/keys by default', async () => {
    const result = await run(['keys', 'generate']);
    expect(result.code).toBe(0);
    expect(mode(path.join(directory, '.saksi/keys', KEY_FILES.issuer))).toBe(0o600);
  });

  it('refuses to overwrite existing keys without --force and keeps them', async () => {
    const out = path.join(directory, 'k2');
    expect((await run(['keys', 'generate', '--out', 'k2'])).code).toBe(0);
    const before = read(path.join(out, KEY_FILES.issuer));
    const refused = await run(['keys', 'generate', '--out', 'k2']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refusing to overwrite');
    expect(refused.stderr).toContain('--force');
    expect(read(path.join(out, KEY_FILES.issuer))).toBe(before);

    const forced = await run(['keys', 'generate', '--out', 'k2', '--force']);
    expect(forced.code).toBe(0);
    expect(read(path.join(out, KEY_FILES.issuer))).not.toBe(before);
    expect(mode(path.join(out, KEY_FILES.issuer))).toBe(0o600);
  });

  it('refuses when only one of the files exists', async () => {
    const out = path.join(directory, 'k3');
    expect((await run(['keys', 'generate', '--out', 'k3'])).code).toBe(0);
    await rm(path.join(out, KEY_FILES.issuer));
    await rm(path.join(out, KEY_FILES.log));
    await rm(path.join(out, KEY_FILES.trust));
    const result = await run(['keys', 'generate', '--out', 'k3']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(KEY_FILES.witness);
  });

  it('with --force replaces a symlink instead of writing through it', async () => {
    const out = path.join(directory, 'k4');
    expect((await run(['keys', 'generate', '--out', 'k4'])).code).toBe(0);
    const victim = path.join(directory, 'victim.txt');
    await writeFile(victim, 'keep me');
    await rm(path.join(out, KEY_FILES.log));
    await symlink(victim, path.join(out, KEY_FILES.log));
    expect((await run(['keys', 'generate', '--out', 'k4', '--force'])).code).toBe(0);
    expect(read(victim)).toBe('keep me');
    expect(read(path.join(out, KEY_FILES.log))).toMatch(/^PRIVATE\+KEY\+/);
  });

  it.each([
    [['--log-origin', 'has space']],
    [['--log-origin', 'a+b']],
    [['--witness-name', '']],
    [['--name', '']],
  ])('rejects bad names %j with exit 2', async (extra) => {
    const result = await run(['keys', 'generate', '--out', 'k5', ...extra]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: /);
  });
});

describe('saksi keys env', () => {
  it('prints the keys folder as variables the engine signs with, the same keys as the files', async () => {
    expect((await run(['keys', 'generate', '--out', 'env-keys'])).code).toBe(0);
    const result = await run(['keys', 'env', '--out', 'env-keys']);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.map((line) => line.split('=')[0])).toEqual([
      'SAKSI_ISSUER_KEY',
      'SAKSI_LOG_KEY',
      'SAKSI_WITNESS_KEY',
      'SAKSI_TRUSTED_KEYS',
    ]);
    // Shell-quoted: what a shell (or a platform's .env import) reads back is the value itself.
    const env = Object.fromEntries(
      lines.map((line) => {
        const [, name, value] = /^([A-Z_]+)='(.*)'$/.exec(line)!;
        return [name!, value!.replace(/'\\''/g, "'")];
      }),
    );
    const keys = keysFromSecrets(loadConfig(env, directory).keySecrets!);
    const issuerSecret = fromBase64(read(path.join(directory, 'env-keys', KEY_FILES.issuer)).trim(), 32);
    expect(keys.issuer.public_key).toBe(issuerFromSecretKey('saksi', issuerSecret).public_key);
    expect(keys.trusted).toEqual(parseTrustedKeys(read(path.join(directory, 'env-keys', KEY_FILES.trust))));
    expect(keys.cosigners).toHaveLength(1);
  });

  it('a folder without keys is a clear error, not a stack trace', async () => {
    const result = await run(['keys', 'env', '--out', 'no-such-folder']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no-such-folder');
    expect(result.stderr).toContain('saksi keys generate');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
