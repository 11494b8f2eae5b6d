/**
 * `saksi workspaces create <name> | list`: the workspaces of the developer API (docs/api.md). A new
 * workspace comes with its first admin-scope API key, printed once: only its hash is stored.
 */
import { isEngineError } from '@saksi/engine';
import { type Command, flag, type OptionValues, stringOption } from './command.js';
import { configFrom, openEngine } from './engine-io.js';
import { CliError, type Io, styleFor, UsageError } from './io.js';
import { table } from './table.js';
import { safeText } from './text.js';

export const workspacesCommand: Command = {
  name: 'workspaces',
  summary: 'Create and list API workspaces (a new one comes with an admin API key)',
  usage:
    'saksi workspaces create <name> [--json] [--data-dir DIR]\n       saksi workspaces list [--json] [--data-dir DIR]',
  help: `A workspace owns collections, documents, jobs, webhooks and API keys; nothing crosses between
workspaces. The default workspace (wsp_default) always exists and holds what saksi ingest and the web
admin add.

saksi workspaces create <name> creates a workspace and its first API key, with the admin scope, named
"<name> admin". The key is printed once: store it now, it is not shown again (only its hash is kept).
Use it as the server's Bearer token, or create narrower keys with saksi api-keys create.

saksi workspaces list shows each workspace's id, name, documents and active (unrevoked) keys.

Options:
  --json             Print JSON (create: {workspace, api_key: {key, record}}; list: {items})
  --data-dir <dir>   Data directory (default $SAKSI_DATA_DIR or ./.saksi)

Stop a running saksi serve first when it uses the embedded database (PGlite).

Exit status: 0 done, 2 bad usage or an invalid name.`,
  options: {
    json: { type: 'boolean' },
    'data-dir': { type: 'string' },
  },
  run: runWorkspaces,
};

async function runWorkspaces(values: OptionValues, positionals: readonly string[], io: Io): Promise<number> {
  const [subcommand, ...rest] = positionals;
  if (subcommand === undefined) throw new UsageError('missing subcommand: saksi workspaces create | list');
  if (subcommand === 'create') {
    if (rest.length === 0) throw new UsageError('missing <name>');
    return create(values, rest.join(' '), io);
  }
  if (subcommand === 'list') {
    if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
    return list(values, io);
  }
  throw new UsageError(`unknown workspaces subcommand ${JSON.stringify(subcommand)}`);
}

async function create(values: OptionValues, name: string, io: Io): Promise<number> {
  const engine = await openEngine(configFrom(io, { SAKSI_DATA_DIR: stringOption(values, 'data-dir') }));
  try {
    const { workspace, apiKey } = await engine.workspaces.createWithAdminKey({ name, createdBy: 'cli' });
    if (flag(values, 'json')) {
      io.stdout.write(`${JSON.stringify({ workspace, api_key: apiKey }, null, 2)}\n`);
      return 0;
    }
    const style = styleFor(io.stdout, io.env);
    io.stdout.write(
      [
        `Workspace ${workspace.id} "${safeText(workspace.name)}" created.`,
        `Admin API key ${apiKey.record.id} (${safeText(apiKey.record.name)}, scopes admin):`,
        '',
        `  ${apiKey.key}`,
        '',
        style.yellow('Store it now, it is not shown again: only its hash is kept.'),
        'Use it as a Bearer token (or SAKSI_API_KEY for saksi api …); revoke it with',
        `saksi api-keys revoke ${apiKey.record.id} --workspace ${workspace.id}.`,
        '',
      ].join('\n'),
    );
    return 0;
  } catch (error) {
    if (isEngineError(error, 'INVALID_INPUT')) throw new CliError(error.message);
    throw error;
  } finally {
    await engine.close();
  }
}

async function list(values: OptionValues, io: Io): Promise<number> {
  const engine = await openEngine(configFrom(io, { SAKSI_DATA_DIR: stringOption(values, 'data-dir') }));
  try {
    const workspaces = await engine.workspaces.list();
    if (flag(values, 'json')) {
      io.stdout.write(`${JSON.stringify({ items: workspaces }, null, 2)}\n`);
      return 0;
    }
    const rows = workspaces.map((workspace) => [
      workspace.id,
      workspace.name,
      String(workspace.documents),
      String(workspace.keys),
      workspace.created_at.slice(0, 19),
    ]);
    const lines = table(
      ['ID', 'NAME', 'DOCUMENTS', 'ACTIVE KEYS', 'CREATED'],
      rows,
      styleFor(io.stdout, io.env),
    );
    io.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    await engine.close();
  }
}
