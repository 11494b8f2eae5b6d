/**
 * `saksi admin create --email <e>`: creates an admin for the web admin (`/admin`). The password comes
 * from `SAKSI_ADMIN_PASSWORD` or from the first line of standard input, and is never echoed.
 */
import { isEngineError, MIN_PASSWORD_LENGTH } from '@saksi/engine';
import { type Command, type OptionValues, stringOption } from './command.js';
import { configFrom, openEngine } from './engine-io.js';
import { CliError, type Io, UsageError } from './io.js';

export const adminCommand: Command = {
  name: 'admin',
  summary: 'Create an admin account for the web admin (/admin)',
  usage: 'saksi admin create --email <email> [--data-dir DIR]',
  help: `Creates an admin who can sign in at /admin to upload, archive and delete documents.

The password is read from $SAKSI_ADMIN_PASSWORD, or else from the first line of standard input
(e.g. read -rs P && printf '%s\\n' "$P" | saksi admin create --email you@example.org). It is never
printed. It must have at least ${MIN_PASSWORD_LENGTH} characters; it is stored as an scrypt hash.

Options:
  --email <email>    The admin's email (the sign-in name)
  --data-dir <dir>   Data directory (default $SAKSI_DATA_DIR or ./.saksi)

Stop a running saksi serve first when it uses the embedded database (PGlite).

Exit status: 0 created, 1 an admin with that email exists, 2 bad usage or password.`,
  options: {
    email: { type: 'string' },
    'data-dir': { type: 'string' },
  },
  run: runAdmin,
};

async function runAdmin(values: OptionValues, positionals: readonly string[], io: Io): Promise<number> {
  const [subcommand, ...rest] = positionals;
  if (subcommand === undefined) throw new UsageError('missing subcommand: saksi admin create');
  if (subcommand !== 'create') throw new UsageError(`unknown admin subcommand ${JSON.stringify(subcommand)}`);
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
  const email = stringOption(values, 'email');
  if (email === undefined || email.trim() === '') throw new UsageError('missing --email <email>');

  const password = io.env['SAKSI_ADMIN_PASSWORD'] ?? (await readPasswordLine());
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new CliError(`the password is too short: use at least ${MIN_PASSWORD_LENGTH} characters`, {
      hint: 'Set SAKSI_ADMIN_PASSWORD or pipe the password on standard input.',
    });
  }

  const config = configFrom(io, { SAKSI_DATA_DIR: stringOption(values, 'data-dir') });
  const engine = await openEngine(config);
  try {
    const admin = await engine.admins.create(email, password);
    io.stdout.write(`Admin ${admin.email} created. Sign in at <server>/admin.\n`);
    return 0;
  } catch (error) {
    if (isEngineError(error, 'CONFLICT'))
      throw new CliError(error.message, {
        exitCode: 1,
        hint: 'Sign in with that account, or pick another email.',
      });
    if (isEngineError(error, 'INVALID_INPUT')) throw new CliError(error.message);
    throw error;
  } finally {
    await engine.close();
  }
}

/** The first line of standard input (without its line ending); an error when stdin is a terminal or empty. */
async function readPasswordLine(): Promise<string> {
  const stdin = process.stdin;
  if (stdin.isTTY) {
    throw new CliError('no password given', {
      hint: 'Set SAKSI_ADMIN_PASSWORD, or pipe the password: printf \'%s\\n\' "$P" | saksi admin create --email …',
    });
  }
  let text = '';
  for await (const chunk of stdin) {
    text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
    if (text.includes('\n') || text.length > 8_192) break;
  }
  stdin.pause();
  const line = (text.split(/\r?\n/)[0] ?? '').slice(0, 4_096);
  if (line === '')
    throw new CliError('no password on standard input', {
      hint: 'Set SAKSI_ADMIN_PASSWORD, or pipe the password.',
    });
  return line;
}
