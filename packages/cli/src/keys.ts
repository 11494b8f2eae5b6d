/**
 * `saksi keys generate`: the three Ed25519 key pairs a deployment needs (docs/certificate.md, "Trusted keys")
 * — the certificate issuer, the transparency log (C2SP signed-note key) and one witness (C2SP tlog
 * cosignature key) — plus the public trusted-keys document verifiers pin. `saksi keys add-witness`
 * adds an independent witness (`saksi witness keygen`) to that document.
 */
import { randomBytes } from 'node:crypto';
import { chmod, lstat, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  DEFAULT_ISSUER_NAME,
  DEFAULT_LOG_ORIGIN,
  DEFAULT_WITNESS_NAME,
  generateKeyFiles,
  isEngineError,
  KEY_FILES,
  keyEnvironment,
} from '@saksi/engine';
import {
  createCosignatureVerifier,
  isProofError,
  isValidNoteKeyName,
  parseTrustedKeys,
  plural,
  type TrustedKeys,
} from '@saksi/proof';
import { type Command, flag, integerOption, type OptionValues, stringOption } from './command.js';
import { readJsonFile } from './files.js';
import { CliError, type Io, UsageError } from './io.js';
import { safeText } from './text.js';

export const DEFAULT_KEYS_DIRECTORY = '.saksi/keys';
export { DEFAULT_ISSUER_NAME, DEFAULT_LOG_ORIGIN, DEFAULT_WITNESS_NAME, KEY_FILES };

export const keysCommand: Command = {
  name: 'keys',
  summary: 'Generate issuer, log and witness keys; trust more witnesses',
  usage:
    'saksi keys generate [--out dir] [--name NAME] [--log-origin ORIGIN] [--force]\n' +
    '       saksi keys add-witness <vkey> [--required K] [--out dir] [--force]',
  help: `Generates three Ed25519 key pairs and writes them into --out:
  ${KEY_FILES.issuer}       certificate issuer secret key (base64), mode 0600
  ${KEY_FILES.log}          transparency log signer key (C2SP note: PRIVATE+KEY+…), mode 0600
  ${KEY_FILES.witness}      witness signer key (PRIVATE+KEY+…; cosigns with C2SP tlog-cosignature), mode 0600
  ${KEY_FILES.trust}  public keys to publish and pin (saksi verify --trust), mode 0644

Options:
  --out <dir>              Where to write (default ${DEFAULT_KEYS_DIRECTORY})
  --name <name>            Issuer name shown in certificates (default ${DEFAULT_ISSUER_NAME})
  --log-origin <origin>    Log origin, also the log key name (default ${DEFAULT_LOG_ORIGIN})
  --witness-name <name>    Witness key name (default ${DEFAULT_WITNESS_NAME})
  --force                  Replace existing keys (the old ones are lost)

saksi keys add-witness <vkey> adds an independent witness (its cosignature verifier key, as
saksi witness keygen prints it) to ${KEY_FILES.trust} in the keys folder (--out; default
$SAKSI_KEYS_DIR, else $SAKSI_DATA_DIR/keys, else ${DEFAULT_KEYS_DIRECTORY}). The server accepts its
cosignatures (POST /api/v1/log/cosignatures) after a restart.

saksi keys env prints the keys folder (--out; same default) as environment variables
(SAKSI_ISSUER_KEY, SAKSI_LOG_KEY, SAKSI_WITNESS_KEY, SAKSI_TRUSTED_KEYS), one NAME='value' line
each, for a deployment with no disk of its own (docs/deploy.md). They are secrets: paste them into
the platform's encrypted settings, never into a repository.
  --required <k>           Also set required_cosignatures: how many distinct witnesses a
                           verifier using this keys file demands (at most the number listed)
  --force                  Replace a witness of the same name that has another key

Exit status: 0 written, 2 bad usage or existing keys without --force.`,
  options: {
    out: { type: 'string' },
    name: { type: 'string' },
    'log-origin': { type: 'string' },
    'witness-name': { type: 'string' },
    force: { type: 'boolean' },
    required: { type: 'string' },
  },
  run: runKeys,
};

async function runKeys(values: OptionValues, positionals: readonly string[], io: Io): Promise<number> {
  const [subcommand, ...rest] = positionals;
  if (subcommand === undefined) throw new UsageError('missing subcommand: saksi keys generate');
  if (subcommand === 'add-witness') return addWitness(values, rest, io);
  if (subcommand === 'env') return printKeyEnvironment(values, rest, io);
  if (subcommand !== 'generate')
    throw new UsageError(`unknown keys subcommand ${JSON.stringify(subcommand)}`);
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);

  const issuerName = stringOption(values, 'name') ?? DEFAULT_ISSUER_NAME;
  const logOrigin = stringOption(values, 'log-origin') ?? DEFAULT_LOG_ORIGIN;
  const witnessName = stringOption(values, 'witness-name') ?? DEFAULT_WITNESS_NAME;
  if (issuerName.length === 0 || issuerName.length > 200 || /[\u0000-\u001f\u007f]/.test(issuerName)) {
    throw new UsageError('--name must be 1 to 200 characters without control characters');
  }
  if (!isValidNoteKeyName(logOrigin)) {
    throw new UsageError(
      '--log-origin must be a non-empty key name without spaces or "+", e.g. example.com/log',
    );
  }
  if (!isValidNoteKeyName(witnessName)) {
    throw new UsageError(
      '--witness-name must be a non-empty key name without spaces or "+", e.g. example.com/witness',
    );
  }
  if (witnessName === logOrigin) throw new UsageError('--witness-name must differ from --log-origin');

  const outOption = stringOption(values, 'out') ?? DEFAULT_KEYS_DIRECTORY;
  const directory = path.resolve(io.cwd, outOption);
  const force = flag(values, 'force');
  const targets = Object.values(KEY_FILES).map((name) => path.join(directory, name));
  if (!force) {
    const existing: string[] = [];
    for (const target of targets) if (await exists(target)) existing.push(path.basename(target));
    if (existing.length > 0) {
      throw new CliError(
        `refusing to overwrite existing keys in ${safeText(outOption)}: ${existing.join(', ')}`,
        {
          hint: 'Choose another --out, or pass --force to replace them (certificates signed with the old keys will no longer verify against the new keys file).',
        },
      );
    }
  }

  if (force) for (const target of targets) await rm(target, { force: true });
  let trusted: TrustedKeys;
  try {
    // The engine writes the files (O_EXCL, exact modes); the server loads the same format.
    trusted = await generateKeyFiles(directory, { issuerName, logOrigin, witnessName });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'EEXIST')
      throw new CliError(`refusing to overwrite keys in ${safeText(outOption)}`, {
        hint: 'Pass --force to replace them.',
      });
    throw new CliError(
      `cannot write keys to ${safeText(outOption)}: ${typeof code === 'string' ? code : 'write failed'}`,
    );
  }
  const issuer = trusted.issuers[0]!;

  const shown = safeText(outOption);
  const trustPath = safeText(path.join(outOption, KEY_FILES.trust));
  io.stdout.write(
    [
      `Wrote new keys to ${shown}:`,
      `  ${KEY_FILES.issuer}       secret (0600)`,
      `  ${KEY_FILES.log}          secret (0600)`,
      `  ${KEY_FILES.witness}      secret (0600)`,
      `  ${KEY_FILES.trust}  public (0644)`,
      '',
      'Public keys:',
      `  issuer   ${safeText(issuer.name)}  key_id ${issuer.key_id}  ${issuer.public_key}`,
      `  log      ${trusted.logs[0]!.vkey}`,
      `  witness  ${trusted.witnesses![0]!.vkey}`,
      '',
      'Next:',
      `  - Keep the .key files secret and backed up; never commit them.`,
      `  - Start the server with this keys folder so it signs certificates and checkpoints with them.`,
      `  - Publish ${trustPath} (the server serves it at /.well-known/saksi-keys.json);`,
      `    it asks for ${plural(trusted.required_cosignatures ?? 0, 'witness cosignature')}, so run the witness too.`,
      `  - Verify a bundle against these keys:  saksi verify bundle.json --trust ${trustPath}`,
      '',
    ].join('\n'),
  );
  return 0;
}

/** `saksi keys add-witness <vkey> [--required k]`: trust one more witness in the public keys file. */
async function addWitness(values: OptionValues, rest: readonly string[], io: Io): Promise<number> {
  const [vkey, extra] = rest;
  if (vkey === undefined)
    throw new UsageError('missing <vkey>: the witness key saksi witness keygen printed');
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)}`);
  let name: string;
  try {
    name = createCosignatureVerifier(vkey).name;
  } catch {
    throw new UsageError(
      '<vkey> is not a witness cosignature key (<name>+<8 hex key id>+<base64 of 0x04 ‖ key>); saksi witness keygen prints one',
    );
  }
  const required = integerOption(values, 'required', 0, 100);
  const folder = keysFolder(values, io);
  const shownFile = safeText(path.join(folder, KEY_FILES.trust));
  const file = path.resolve(io.cwd, folder, KEY_FILES.trust);
  let keys: TrustedKeys;
  try {
    keys = parseTrustedKeys(await readJsonFile(io.cwd, file, 'trusted keys file'));
  } catch (error) {
    if (!isProofError(error)) throw error;
    throw new CliError(`${shownFile} is not a valid trusted keys file: ${error.message}`);
  }

  const witnesses = [...(keys.witnesses ?? [])];
  const index = witnesses.findIndex((witness) => witness.name === name);
  const existing = witnesses[index];
  let change: string;
  if (existing === undefined) {
    witnesses.push({ name, vkey });
    change = `added witness ${safeText(name)}`;
  } else if (existing.vkey === vkey) {
    change = `witness ${safeText(name)} was already trusted`;
  } else if (flag(values, 'force')) {
    witnesses[index] = { name, vkey };
    change = `replaced the key of witness ${safeText(name)}`;
  } else {
    throw new CliError(`${shownFile} already trusts a witness named ${safeText(name)} with another key`, {
      hint: 'Pass --force to replace its key (its earlier cosignatures then no longer count).',
    });
  }
  const updated: TrustedKeys = { ...keys, witnesses };
  if (required !== undefined) {
    if (required > witnesses.length) {
      throw new UsageError(
        `--required ${required} is more than the ${plural(witnesses.length, 'witness', 'witnesses')} listed; no bundle could verify`,
      );
    }
    updated.required_cosignatures = required;
  }
  parseTrustedKeys(updated);
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(updated, null, 2)}\n`, { mode: 0o644, flag: 'wx' });
    await chmod(temporary, 0o644);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    const code = (error as { code?: unknown }).code;
    throw new CliError(`cannot write ${shownFile}: ${typeof code === 'string' ? code : 'write failed'}`);
  }
  io.stdout.write(
    [
      `${change} in ${shownFile}.`,
      `  witnesses: ${witnesses.map((witness) => safeText(witness.name)).join(', ')}`,
      `  required_cosignatures: ${updated.required_cosignatures ?? 0}`,
      "Restart the server so it accepts this witness's cosignatures (POST /api/v1/log/cosignatures)",
      'and serves the new keys at /.well-known/saksi-keys.json.',
      '',
    ].join('\n'),
  );
  return 0;
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return false;
    throw error;
  }
}

/** The keys folder a subcommand works on: --out, else $SAKSI_KEYS_DIR, else the data directory's. */
function keysFolder(values: OptionValues, io: Io): string {
  return (
    stringOption(values, 'out') ??
    io.env['SAKSI_KEYS_DIR'] ??
    path.join(io.env['SAKSI_DATA_DIR'] ?? path.dirname(DEFAULT_KEYS_DIRECTORY), 'keys')
  );
}

/** `saksi keys env`: the keys folder as `NAME='value'` lines (docs/deploy.md). */
async function printKeyEnvironment(values: OptionValues, rest: readonly string[], io: Io): Promise<number> {
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
  const folder = keysFolder(values, io);
  let variables: Record<string, string>;
  try {
    variables = await keyEnvironment(path.resolve(io.cwd, folder));
  } catch (error) {
    if (!isEngineError(error)) throw error;
    throw new CliError(`${safeText(folder)}: ${error.message}`, {
      hint: 'Point --out at a folder made by saksi keys generate (or by saksi serve on its first start).',
    });
  }
  for (const [name, value] of Object.entries(variables)) {
    io.stdout.write(`${name}='${value.replace(/'/g, "'\\''")}'\n`);
  }
  return 0;
}
