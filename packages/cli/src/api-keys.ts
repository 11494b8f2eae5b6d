/**
 * `saksi api-keys create | list | revoke`: the API keys of a workspace (docs/api.md). Not to be
 * confused with `saksi keys`, which makes the Ed25519 signing keys of the issuer, log and witness.
 */
import {
  API_KEY_SCOPES,
  type ApiKeyRecord,
  DEFAULT_WORKSPACE,
  isApiKeyScope,
  isEngineError,
} from '@saksi/engine';
import { type Command, flag, type OptionValues, stringOption } from './command.js';
import { configFrom, openEngine } from './engine-io.js';
import { CliError, type Io, styleFor, UsageError } from './io.js';
import { table } from './table.js';
import { safeText } from './text.js';

export const apiKeysCommand: Command = {
  name: 'api-keys',
  summary: 'Create, list and revoke API keys of a workspace (not the signing keys: see saksi keys)',
  usage:
    'saksi api-keys create --name <name> [--scopes read,ingest] [--workspace ID] [--json]\n' +
    '       saksi api-keys list [--workspace ID] [--json]\n' +
    '       saksi api-keys revoke <key-id> [--workspace ID]',
  help: `API keys let programs call the developer API (/api/v1) as one workspace. They are not the
Ed25519 signing keys of saksi keys, which sign certificates and the transparency log.

A key is saksi_ and 43 random characters; create prints it once (store it now, it is not shown again)
and only its hash is kept. list shows each key's id, visible prefix, name, scopes, creation, last use
and revocation, never the secret. revoke stops a key at once.

Scopes: read (query, chat, documents and jobs), ingest (upload and delete documents),
admin (keys, webhooks, workspaces; implies the others).

Options:
  --workspace <id>   The workspace (default ${DEFAULT_WORKSPACE}; see saksi workspaces list)
  --name <name>      create: a name to tell the key apart
  --scopes <list>    create: comma-separated, of ${API_KEY_SCOPES.join(', ')} (default read)
  --json             Print JSON (create: {key, record}; list: {items}; revoke: {record})
  --data-dir <dir>   Data directory (default $SAKSI_DATA_DIR or ./.saksi)

Stop a running saksi serve first when it uses the embedded database (PGlite).

Exit status: 0 done, 1 no such workspace or key, 2 bad usage.`,
  options: {
    workspace: { type: 'string' },
    name: { type: 'string' },
    scopes: { type: 'string' },
    json: { type: 'boolean' },
    'data-dir': { type: 'string' },
  },
  run: runApiKeys,
};

async function runApiKeys(values: OptionValues, positionals: readonly string[], io: Io): Promise<number> {
  const [subcommand, ...rest] = positionals;
  if (subcommand === undefined)
    throw new UsageError('missing subcommand: saksi api-keys create | list | revoke');
  if (!['create', 'list', 'revoke'].includes(subcommand))
    throw new UsageError(`unknown api-keys subcommand ${JSON.stringify(subcommand)}`);
  const expected = subcommand === 'revoke' ? 1 : 0;
  if (rest.length < expected) throw new UsageError('missing <key-id>');
  if (rest.length > expected) throw new UsageError(`unexpected argument ${JSON.stringify(rest[expected])}`);
  const workspaceId = stringOption(values, 'workspace') ?? DEFAULT_WORKSPACE;
  const scopes = subcommand === 'create' ? parseScopes(stringOption(values, 'scopes') ?? 'read') : [];
  const name = stringOption(values, 'name');
  if (subcommand === 'create' && (name === undefined || name.trim() === ''))
    throw new UsageError('missing --name <name>');

  const engine = await openEngine(configFrom(io, { SAKSI_DATA_DIR: stringOption(values, 'data-dir') }));
  try {
    if (subcommand === 'create') {
      const created = await engine.apiKeys.create({ workspaceId, name: name!, scopes, createdBy: 'cli' });
      if (flag(values, 'json')) {
        io.stdout.write(`${JSON.stringify(created, null, 2)}\n`);
        return 0;
      }
      const style = styleFor(io.stdout, io.env);
      io.stdout.write(
        [
          `API key ${created.record.id} (${safeText(created.record.name)}, scopes ${created.record.scopes.join(',')}) for ${workspaceId}:`,
          '',
          `  ${created.key}`,
          '',
          style.yellow('Store it now, it is not shown again: only its hash is kept.'),
          '',
        ].join('\n'),
      );
      return 0;
    }
    if (subcommand === 'list') {
      const keys = await engine.apiKeys.list(workspaceId);
      if (flag(values, 'json')) {
        io.stdout.write(`${JSON.stringify({ items: keys }, null, 2)}\n`);
        return 0;
      }
      if (keys.length === 0) {
        io.stdout.write(
          `No API keys in ${workspaceId}. Create one with saksi api-keys create --name <name>.\n`,
        );
        return 0;
      }
      const lines = table(
        ['ID', 'PREFIX', 'NAME', 'SCOPES', 'CREATED', 'LAST USED', 'REVOKED'],
        keys.map(keyRow),
        styleFor(io.stdout, io.env),
      );
      io.stdout.write(`${lines.join('\n')}\n`);
      return 0;
    }
    const record = await engine.apiKeys.revoke(workspaceId, rest[0]!, 'cli');
    if (flag(values, 'json')) io.stdout.write(`${JSON.stringify({ record }, null, 2)}\n`);
    else io.stdout.write(`API key ${record.id} (${safeText(record.name)}, ${record.prefix}…) revoked.\n`);
    return 0;
  } catch (error) {
    if (isEngineError(error, 'NOT_FOUND'))
      throw new CliError(error.message, {
        exitCode: 1,
        hint: error.message.startsWith('No workspace')
          ? 'List the workspaces with saksi workspaces list.'
          : `List the keys with saksi api-keys list --workspace ${workspaceId}.`,
      });
    if (isEngineError(error, 'INVALID_INPUT')) throw new CliError(error.message);
    throw error;
  } finally {
    await engine.close();
  }
}

/** `read,ingest` as scopes; an unknown one is a usage error naming the valid ones. */
export function parseScopes(text: string): string[] {
  const scopes = text
    .split(',')
    .map((scope) => scope.trim())
    .filter((scope) => scope !== '');
  if (scopes.length === 0) throw new UsageError(`--scopes needs one or more of ${API_KEY_SCOPES.join(', ')}`);
  const unknown = scopes.filter((scope) => !isApiKeyScope(scope));
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown scope${unknown.length > 1 ? 's' : ''} ${unknown.map((scope) => JSON.stringify(scope)).join(', ')}; valid scopes are ${API_KEY_SCOPES.join(', ')}`,
    );
  }
  return scopes;
}

function keyRow(key: ApiKeyRecord): string[] {
  return [
    key.id,
    `${key.prefix}…`,
    key.name,
    key.scopes.join(','),
    key.created_at.slice(0, 19),
    key.last_used_at?.slice(0, 19) ?? '-',
    key.revoked_at?.slice(0, 19) ?? '-',
  ];
}
