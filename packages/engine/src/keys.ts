/**
 * The three Ed25519 keys a deployment signs with (docs/certificate.md, "Trusted keys"): the certificate
 * issuer, the log (C2SP signed-note key) and the local witness (C2SP cosignature key). Generated on first
 * start into `<data>/keys` (secrets mode 0600) unless supplied; `saksi-keys.json` is the public part served
 * at `/.well-known/saksi-keys.json`.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fromBase64, type Issuer, parseTrustedKeys, type TrustedKeys, toBase64 } from '@saksi/proof';
import {
  createCosigner,
  createNoteSigner,
  formatCosignatureVerifierKey,
  formatSignerKey,
  formatVerifierKey,
  generateKeyPair,
  getPublicKey,
  issuerFromSecretKey,
  type NoteSigner,
  parseSignerKey,
} from '@saksi/proof/issue';
import type { KeySecrets } from './config.js';
import { EngineError } from './errors.js';

export const KEY_FILES = {
  issuer: 'issuer.key',
  log: 'log.key',
  witness: 'witness.key',
  trust: 'saksi-keys.json',
} as const;

export interface KeyOptions {
  issuerName?: string;
  logOrigin?: string;
  witnessName?: string;
}

export const DEFAULT_ISSUER_NAME = 'saksi';
export const DEFAULT_LOG_ORIGIN = 'saksi.local/log';
export const DEFAULT_WITNESS_NAME = 'saksi.local/witness-1';

export interface SigningKeys {
  issuer: Issuer;
  issuerSecretKey: Uint8Array;
  logOrigin: string;
  logSigner: NoteSigner;
  cosigners: NoteSigner[];
  trusted: TrustedKeys;
}

/** Writes a new set of key files into `directory` (which must not hold keys yet). */
export async function generateKeyFiles(directory: string, options: KeyOptions = {}): Promise<TrustedKeys> {
  const issuerName = options.issuerName ?? DEFAULT_ISSUER_NAME;
  const logOrigin = options.logOrigin ?? DEFAULT_LOG_ORIGIN;
  const witnessName = options.witnessName ?? DEFAULT_WITNESS_NAME;
  const issuerSecret = generateKeyPair().secretKey;
  const issuer = issuerFromSecretKey(issuerName, issuerSecret);
  const log = generateKeyPair();
  const witness = generateKeyPair();
  const trusted: TrustedKeys = {
    issuers: [{ name: issuer.name, key_id: issuer.key_id, public_key: issuer.public_key }],
    logs: [{ origin: logOrigin, vkey: formatVerifierKey(logOrigin, log.publicKey) }],
    witnesses: [{ name: witnessName, vkey: formatCosignatureVerifierKey(witnessName, witness.publicKey) }],
    required_cosignatures: 1,
  };
  parseTrustedKeys(trusted);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const write = async (name: string, content: string, mode: number) => {
    const file = path.join(directory, name);
    await writeFile(file, content, { mode, flag: 'wx' });
    await chmod(file, mode);
  };
  await write(KEY_FILES.issuer, `${toBase64(issuerSecret)}\n`, 0o600);
  await write(KEY_FILES.log, `${formatSignerKey(logOrigin, log.secretKey)}\n`, 0o600);
  await write(KEY_FILES.witness, `${formatSignerKey(witnessName, witness.secretKey)}\n`, 0o600);
  await write(KEY_FILES.trust, `${JSON.stringify(trusted, null, 2)}\n`, 0o644);
  return trusted;
}

/** Loads the key files in `directory`, creating them first when none exist. */
export async function loadOrCreateKeys(directory: string, options: KeyOptions = {}): Promise<SigningKeys> {
  if (!existsSync(path.join(directory, KEY_FILES.issuer))) await generateKeyFiles(directory, options);
  let texts: KeyTexts;
  try {
    texts = await readKeyTexts(directory);
  } catch (cause) {
    throw new EngineError('KEYS_INVALID', `The key files in ${directory} are unreadable.`, { cause });
  }
  return signingKeysOf(texts, `The key files in ${directory}`);
}

/**
 * The keys given as text in the environment (`SAKSI_ISSUER_KEY`, `SAKSI_LOG_KEY`, …): a deployment
 * with no disk of its own. Without `SAKSI_TRUSTED_KEYS` the trusted-keys document is made from them.
 */
export function keysFromSecrets(secrets: KeySecrets): SigningKeys {
  return signingKeysOf(
    {
      issuer: secrets.issuer,
      log: secrets.log,
      ...(secrets.witness !== undefined ? { witness: secrets.witness } : {}),
      ...(secrets.trusted !== undefined ? { trusted: secrets.trusted } : {}),
    },
    'The keys in SAKSI_ISSUER_KEY, SAKSI_LOG_KEY, SAKSI_WITNESS_KEY and SAKSI_TRUSTED_KEYS',
  );
}

/**
 * The environment variables that carry the keys in `directory` (what `saksi keys env` prints), in
 * the order an operator pastes them into a platform's settings.
 */
export async function keyEnvironment(directory: string): Promise<Record<string, string>> {
  let texts: KeyTexts;
  try {
    texts = await readKeyTexts(directory);
  } catch (cause) {
    throw new EngineError('KEYS_INVALID', `The key files in ${directory} are unreadable.`, { cause });
  }
  // Checked as the server will read them, so a broken folder is not copied into a platform.
  signingKeysOf(texts, `The key files in ${directory}`);
  return {
    SAKSI_ISSUER_KEY: texts.issuer,
    SAKSI_LOG_KEY: texts.log,
    ...(texts.witness !== undefined ? { SAKSI_WITNESS_KEY: texts.witness } : {}),
    ...(texts.trusted !== undefined ? { SAKSI_TRUSTED_KEYS: JSON.stringify(JSON.parse(texts.trusted)) } : {}),
  };
}

/** The contents of the key files, trimmed. */
interface KeyTexts {
  issuer: string;
  log: string;
  witness?: string;
  trusted?: string;
}

async function readKeyTexts(directory: string): Promise<KeyTexts> {
  const read = async (name: string) => (await readFile(path.join(directory, name), 'utf8')).trim();
  return {
    issuer: await read(KEY_FILES.issuer),
    log: await read(KEY_FILES.log),
    ...(existsSync(path.join(directory, KEY_FILES.witness))
      ? { witness: await read(KEY_FILES.witness) }
      : {}),
    trusted: await read(KEY_FILES.trust),
  };
}

/** Parses and cross-checks the keys; `where` names their source in the error. */
function signingKeysOf(texts: KeyTexts, where: string): SigningKeys {
  try {
    const issuerSecretKey = fromBase64(texts.issuer.trim(), 32);
    const log = parseSignerKey(texts.log.trim());
    const witness = texts.witness !== undefined ? parseSignerKey(texts.witness.trim()) : undefined;
    const trusted =
      texts.trusted !== undefined
        ? parseTrustedKeys(texts.trusted)
        : derivedTrustedKeys(issuerSecretKey, log, witness);
    const issuer = issuerFromSecretKey(trusted.issuers[0]?.name ?? DEFAULT_ISSUER_NAME, issuerSecretKey);
    if (!trusted.issuers.some((entry) => entry.public_key === toBase64(getPublicKey(issuerSecretKey)))) {
      throw new EngineError('KEYS_INVALID', `${where}: the trusted keys do not list the issuer key.`);
    }
    return {
      issuer,
      issuerSecretKey,
      logOrigin: log.name,
      logSigner: createNoteSigner(log.name, log.secretKey),
      cosigners: witness ? [createCosigner(witness.name, witness.secretKey)] : [],
      trusted,
    };
  } catch (cause) {
    if (cause instanceof EngineError) throw cause;
    throw new EngineError('KEYS_INVALID', `${where} are unreadable or inconsistent.`, { cause });
  }
}

/** The trusted-keys document of one issuer, log and (optional) witness, as `generateKeyFiles` writes it. */
function derivedTrustedKeys(
  issuerSecretKey: Uint8Array,
  log: { name: string; publicKey: Uint8Array },
  witness: { name: string; publicKey: Uint8Array } | undefined,
): TrustedKeys {
  const issuer = issuerFromSecretKey(DEFAULT_ISSUER_NAME, issuerSecretKey);
  return parseTrustedKeys({
    issuers: [{ name: issuer.name, key_id: issuer.key_id, public_key: issuer.public_key }],
    logs: [{ origin: log.name, vkey: formatVerifierKey(log.name, log.publicKey) }],
    witnesses: witness
      ? [{ name: witness.name, vkey: formatCosignatureVerifierKey(witness.name, witness.publicKey) }]
      : [],
    required_cosignatures: witness ? 1 : 0,
  });
}

/**
 * Adds the DocumentRegistry this deployment anchors to (chain id, contract) to `saksi-keys.json`, so
 * verifiers that pin the file accept its anchors and refuse look-alike contracts. Returns the keys
 * (updated in memory even when the file cannot be written).
 */
export async function trustRegistry(
  directory: string | null,
  trusted: TrustedKeys,
  registry: { chain_id: number; contract: string },
): Promise<TrustedKeys> {
  const registries = trusted.registries ?? [];
  if (
    registries.some(
      (entry) =>
        entry.chain_id === registry.chain_id &&
        entry.contract.toLowerCase() === registry.contract.toLowerCase(),
    )
  ) {
    return trusted;
  }
  const updated: TrustedKeys = { ...trusted, registries: [...registries, registry] };
  parseTrustedKeys(updated);
  // Keys from the environment: nothing to write; the registry is published from memory.
  if (directory === null) return updated;
  const file = path.join(directory, KEY_FILES.trust);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(updated, null, 2)}\n`, { mode: 0o644 });
    await rename(temporary, file);
  } catch {
    // A read-only keys directory (keys supplied by the operator): the registry is still published
    // at /.well-known/saksi-keys.json by this process.
  }
  return updated;
}
