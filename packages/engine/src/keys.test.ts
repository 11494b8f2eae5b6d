/** Keys from files and from the environment (docs/deploy.md): the same keys either way, and clear errors. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSecretFromSecrets } from './auth.js';
import { loadConfig } from './config.js';
import { isEngineError } from './errors.js';
import { keyEnvironment, keysFromSecrets, loadOrCreateKeys } from './keys.js';

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'saksi-keys-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('keys from the environment', () => {
  it('sign as the key files do; without SAKSI_TRUSTED_KEYS the trusted keys are made from them', async () => {
    const files = await loadOrCreateKeys(path.join(directory, 'a'));
    const env = await keyEnvironment(path.join(directory, 'a'));
    const fromEnv = keysFromSecrets(loadConfig(env, directory).keySecrets!);
    expect(fromEnv.issuer).toEqual(files.issuer);
    expect(fromEnv.trusted).toEqual(files.trusted);
    const { SAKSI_TRUSTED_KEYS: _given, ...withoutTrust } = env;
    const derived = keysFromSecrets(loadConfig(withoutTrust, directory).keySecrets!);
    expect(derived.trusted).toEqual(files.trusted);
    expect(derived.logOrigin).toBe(files.logOrigin);
  });

  it('one key without the other, or a key that does not parse, is refused by name', async () => {
    const env = await keyEnvironment(path.join(directory, 'a'));
    const refused = (given: Record<string, string>) => {
      try {
        keysFromSecrets(loadConfig(given, directory).keySecrets!);
      } catch (error) {
        return error;
      }
      throw new Error('accepted');
    };
    const alone = refused({ SAKSI_LOG_KEY: env['SAKSI_LOG_KEY']! });
    expect(isEngineError(alone, 'CONFIG_INVALID')).toBe(true);
    expect((alone as Error).message).toContain('SAKSI_ISSUER_KEY');
    const broken = refused({ ...env, SAKSI_ISSUER_KEY: 'not base64 of 32 bytes' });
    expect(isEngineError(broken, 'KEYS_INVALID')).toBe(true);
    // Another deployment's trusted keys do not list this issuer.
    await loadOrCreateKeys(path.join(directory, 'b'));
    const other = await keyEnvironment(path.join(directory, 'b'));
    const mismatched = refused({ ...env, SAKSI_TRUSTED_KEYS: other['SAKSI_TRUSTED_KEYS']! });
    expect(isEngineError(mismatched, 'KEYS_INVALID')).toBe(true);
  });

  it('the admin secret: SAKSI_AUTH_SECRET when set, else derived from the issuer key, the same on every instance', () => {
    const issuer = new Uint8Array(32).fill(7);
    const derived = authSecretFromSecrets({}, issuer);
    expect(derived).toHaveLength(32);
    expect(authSecretFromSecrets({}, issuer)).toEqual(derived);
    expect(derived).not.toEqual(issuer);
    const given = Buffer.alloc(32, 1).toString('base64');
    expect(authSecretFromSecrets({ auth: given }, issuer)).toEqual(new Uint8Array(Buffer.alloc(32, 1)));
    expect(() => authSecretFromSecrets({ auth: 'c2hvcnQ=' }, issuer)).toThrow(/at least 32 bytes/);
  });
});
